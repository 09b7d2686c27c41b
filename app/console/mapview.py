"""The console's map: the shared canvas (app.canvas) with owners and changes drawn over it.

Owners come from the ruleset's `cell_owners` hook; "changed" cells are those whose
records (any state table with an int `cell` field: provinces, armies, stacks...) differ
from the step before. Nothing here knows a particular ruleset.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.canvas.overlays import CellsOverlay
from app.canvas.scene import MapScene
from app.canvas.view import MapCanvas
from engine.map import GameMap
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
    """A MapCanvas showing one map, with faction colours and a changed-cells outline."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = MapCanvas(self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.canvas)
        self.scene: MapScene | None = None
        self.faction_layers: dict[int, CellsOverlay] = {}
        self.changed_layer: OutlineOverlay | None = None
        self.owned: dict[int, int] = {}
        self.changed: set[int] = set()

    def set_map(self, gmap: GameMap, colours: dict[int, str]) -> None:
        if self.scene is not None:
            self.scene.detach()
        self.scene = MapScene(gmap, self)
        self.faction_layers = {}
        for i, (f, colour) in enumerate(sorted(colours.items())):
            layer = OutlineOverlay(gmap, 4.5 + i * 0.001, colour, 150)  # under sites, labels
            pen = QPen(QColor(colour).darker(150), 1.5)
            pen.setCosmetic(True)
            layer.pen = pen
            self.scene.addItem(layer)
            self.faction_layers[f] = layer
        self.changed_layer = OutlineOverlay(gmap, 9.5, "#ffffff", 0)
        pen = QPen(QColor("#ffe14d"), 2.5)
        pen.setCosmetic(True)
        self.changed_layer.pen = pen
        self.scene.addItem(self.changed_layer)
        self.canvas.set_map_scene(self.scene)

    def show_state(self, owned: dict[int, int], changed: set[int]) -> None:
        if self.scene is None:
            return
        self.owned, self.changed = owned, changed
        by_faction: dict[int, list[int]] = {f: [] for f in self.faction_layers}
        for cell, f in owned.items():
            if f in by_faction:
                by_faction[f].append(cell)
        for f, layer in self.faction_layers.items():
            layer.set_cells(by_faction[f])
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
