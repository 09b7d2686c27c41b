"""MapScene: every layer of one GameMap, kept in step with the map through GameMap.subscribe."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QRectF, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from app.canvas import geometry as geo
from app.canvas.areas import AreaNamesLayer
from app.canvas.overlays import (
    AreasLayer,
    CellsOverlay,
    CoordsLayer,
    LabelsLayer,
    LinksLayer,
    SitesLayer,
)
from app.canvas.terrain import GridLayer, TerrainLayer
from app.canvas.tiles import FrameBudget, TiledLayer
from engine.map import GameMap

LAYERS = ("terrain", "grid", "areas", "river", "road", "sites", "labels", "coords")
DEFAULT_HIDDEN = {"coords"}


class MapSignals(QObject):
    changed = Signal(str, object)  # layer, np.ndarray of cells


class MapScene(QGraphicsScene):
    """The scene of one map. Views (editor canvas, minimap, PNG export) share it."""

    def __init__(self, gmap: GameMap, parent: QObject | None = None):
        super().__init__(parent)
        self.gmap = gmap
        self.signals = MapSignals()
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setBackgroundBrush(QColor("#30343a"))
        x, y, w, h = geo.map_bounds(gmap.grid)
        margin = max(w, h) * 0.05 + 2
        self.setSceneRect(QRectF(x - margin, y - margin, w + 2 * margin, h + 2 * margin))
        # tile building shared by the tiled layers, restarted with each frame (drawBackground)
        self.budget = FrameBudget()
        self.terrain = TerrainLayer(gmap, self.budget)
        self.grid = GridLayer(gmap, self.budget)
        self.areas = AreasLayer(gmap, 2, self.budget)
        self.links: dict[str, LinksLayer] = {}
        for i, kind in enumerate(sorted(set(gmap.links) | {"river", "road"}, key=_link_order)):
            self.links[kind] = LinksLayer(gmap, kind, 3 + i * 0.1, self.budget)
        self.sites = SitesLayer(gmap, 5, self.budget)
        self.labels = LabelsLayer(gmap, 6)
        self.coords = CoordsLayer(gmap, 4.7)  # under troops, sites and names: they stay readable
        self.area_names = AreaNamesLayer(self.areas, 6.1)  # names above troops and sites
        self.selection = CellsOverlay(gmap, 10, "#ffd21f", 70)
        self.preview = CellsOverlay(gmap, 11, "#ffffff", 50)
        for item in self.layer_items().values():
            self.addItem(item)
        self.addItem(self.area_names)
        self.addItem(self.selection)
        self.addItem(self.preview)
        for name in self.default_hidden():
            self.set_layer_visible(name, False)
        gmap.subscribe(self._on_map_changed)

    def detach(self) -> None:
        """Stop listening to the map and free the tiles (call before dropping the scene)."""
        self.gmap.unsubscribe(self._on_map_changed)
        for item in self.tiled_layers():
            item.drop_tiles()

    def default_hidden(self) -> set[str]:
        """Layers off until asked for: coordinates; and on region maps the cell grid (a
        region map is drawn as regions, its painting grid is the editor's business)."""
        return DEFAULT_HIDDEN | ({"grid"} if self.gmap.kind == "regions" else set())

    def tiled_layers(self) -> list[TiledLayer]:
        return [item for item in self.items() if isinstance(item, TiledLayer)]

    def set_tiles_enabled(self, on: bool) -> None:
        """Off for one-pass renders (PNG export), where tiles would be drawn once and wasted."""
        for item in self.tiled_layers():
            item.tiles_enabled = on

    def drawBackground(self, painter, rect) -> None:  # noqa: N802 (Qt API)
        super().drawBackground(painter, rect)
        self.budget.begin()  # every view's frame starts here, before the items

    def layer_items(self) -> dict[str, object]:
        out = {"terrain": self.terrain, "grid": self.grid, "areas": self.areas}
        out.update(self.links)
        out.update({"sites": self.sites, "labels": self.labels, "coords": self.coords})
        return out

    def layer_names(self) -> list[str]:
        return list(self.layer_items())

    def set_layer_visible(self, name: str, visible: bool) -> None:
        item = self.layer_items().get(name)
        if item is not None:
            item.setVisible(visible)

    def layer_visible(self, name: str) -> bool:
        item = self.layer_items().get(name)
        return bool(item and item.isVisible())

    def set_layers(self, layers: set[str] | None) -> None:
        """Show exactly these layers (None: the defaults)."""
        for name in self.layer_names():
            self.set_layer_visible(name, name not in self.default_hidden() if layers is None
                                   else name in layers)

    def _on_map_changed(self, layer: str, cells) -> None:
        arr = np.fromiter((int(c) for c in cells), dtype=np.int64)
        if layer == "terrain":
            self.terrain.cells_changed(arr)
        elif layer == "areas":
            self.areas.changed(arr)
            self.area_names.update()
        elif layer == "sites":
            self.sites.changed(arr)
        elif layer == "labels":
            self.labels.changed()
        elif layer == "reset":
            self.terrain.reset()
            self.areas.changed(np.arange(len(self.gmap.grid)))
            self.sites.changed(None)
            for item in self.links.values():
                item.changed(None)
        else:
            item = self.links.get(layer)
            if item is None:  # a new link kind appears: give it a layer
                item = LinksLayer(self.gmap, layer, 3 + len(self.links) * 0.1, self.budget)
                self.links[layer] = item
                self.addItem(item)
            item.changed(arr)
        self.signals.changed.emit(layer, arr)


def _link_order(kind: str) -> tuple[int, str]:
    return ({"river": 0, "road": 1}.get(kind, 2), kind)
