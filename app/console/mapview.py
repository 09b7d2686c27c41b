"""The console's map: the shared canvas (app.canvas) with the political map (owners, troops,
names given in play: engine.political, app.canvas.political) and changes drawn over it.

"Changed" cells are those whose
records (any state table with an int `cell` field: provinces, armies, stacks...) differ
from the step before. Nothing here knows a particular ruleset.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QToolBar, QVBoxLayout, QWidget

from app.canvas.overlays import CellsOverlay
from app.canvas.political import PoliticalView
from app.canvas.scene import MapScene
from app.canvas.view import MapCanvas
from app.icons import icon
from engine.map import GameMap
from engine.political import PoliticalMap
from engine.scenario import Scenario
from engine.state import State


def cell_records(state: State, areas: dict | None = None) -> dict[int, list[tuple]]:
    """cell -> sorted (table, values) of every record placed on that cell: records with
    an int `cell`, or (region maps, `areas` given) a text field naming a map area."""
    out: dict[int, list[tuple]] = {}
    for name in sorted(state.tables):
        rows = state.tables[name]
        if not rows:
            continue
        names = [f.name for f in dataclasses.fields(rows[0])]  # plain fields: no deep copies
        if isinstance(getattr(rows[0], "cell", None), int):
            for r in rows:
                out.setdefault(r.cell, []).append((name, tuple(getattr(r, n) for n in names)))
        elif areas:
            for r in rows:
                values = tuple(getattr(r, n) for n in names)
                area = next((v for v in values if isinstance(v, str) and v in areas), None)
                if area is not None:
                    for c in areas[area].cells:
                        out.setdefault(c, []).append((name, values))
    for v in out.values():
        v.sort()
    return out


def changed_cells(before: State | None, after: State, areas: dict | None = None) -> set[int]:
    if before is None:
        return set()
    a, b = cell_records(before, areas), cell_records(after, areas)
    return {c for c in set(a) | set(b) if a.get(c) != b.get(c)}


def owners(ruleset, state: State, scenario: Scenario) -> dict[int, int]:
    try:
        return dict(ruleset.cell_owners(state, scenario))
    except Exception:  # noqa: BLE001 (a ruleset's hook failing must not break the console)
        return {}


class OutlineOverlay(CellsOverlay):
    """Cells drawn as one shape: the outline of a territory, not a grid of its cells."""

    def set_cells(self, cells) -> None:
        before = self.cells
        super().set_cells(cells)
        if self.cells is not before and not self._path.isEmpty():
            self._path = self._path.simplified()


class ConsoleMap(QWidget):
    """A MapCanvas showing one map with the turn's political map and a changed-cells outline."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = MapCanvas(self)
        self.canvas.setObjectName("consoleCanvas")
        bar = self.toolbar = QToolBar()  # the results page puts it in its history row
        bar.setIconSize(QSize(18, 18))
        self.coords_action = bar.addAction(icon("coords"), "Coordinates")
        self.coords_action.setCheckable(True)
        self.coords_action.setToolTip("Show each cell's coordinates as orders write them")
        self.coords_action.toggled.connect(self._show_coords)
        fit = bar.addAction(icon("fit"), "Fit map")
        fit.setToolTip("Show the whole map (0)")
        fit.triggered.connect(lambda _=False: self.canvas.fit())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.canvas)
        self.scene: MapScene | None = None
        self.political: PoliticalView | None = None
        self.changed_layer: OutlineOverlay | None = None
        self.model: PoliticalMap | None = None
        self.changed: set[int] = set()

    @property
    def owned(self) -> dict[int, int]:
        return dict(self.model.owners) if self.model is not None else {}

    def _show_coords(self, on: bool) -> None:
        if self.scene is not None:
            self.scene.set_layer_visible("coords", on)

    def set_map(self, gmap: GameMap, colours: dict[int, str] | None = None,
                notation: str | None = None) -> None:
        if self.scene is not None:
            self.scene.detach()
        self.scene = MapScene(gmap, self)
        self.political = PoliticalView(self.scene)
        self.changed_layer = OutlineOverlay(gmap, 9.5, "#ffffff", 0)
        pen = QPen(QColor("#ffe14d"), 2.5)
        pen.setCosmetic(True)
        self.changed_layer.pen = pen
        self.scene.addItem(self.changed_layer)
        grid_map = gmap.kind != "regions"  # orders name cells by coordinates: on by default
        self.scene.coords.notation = notation
        self.coords_action.setEnabled(grid_map)
        self.coords_action.setChecked(grid_map)
        self.scene.set_layer_visible("coords", grid_map)
        self.canvas.set_map_scene(self.scene)

    def show_state(self, pm: PoliticalMap, changed: set[int]) -> None:
        if self.scene is None:
            return
        self.model, self.changed = pm, changed
        self.political.show(pm)
        self.changed_layer.set_cells(changed)

    def go_to(self, cell: int) -> None:
        """Centre on a board cell (a region, on region maps) and mark it."""
        from app.viewer.overlays import board_point
        from engine.viewer_model import grid_cells

        if self.scene is None:
            return
        gmap = self.scene.gmap
        try:
            x, y = board_point(gmap, cell)
        except Exception:  # noqa: BLE001 (a place the map no longer has)
            return
        self.canvas.centre_on(x, y)
        self.scene.selection.set_cells(grid_cells(gmap, cell))

    def fit(self) -> None:
        self.canvas.fit()

