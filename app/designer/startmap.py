"""Starts and starting units drawn over the shared map canvas, and the place-start tool."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from app.canvas import geometry as geo
from app.canvas.overlays import MapLayer, _ppu, screen_text
from app.canvas.terrain import polygons_path
from engine.map import GameMap


class StartsLayer(MapLayer):
    """Each faction's start cells filled in its colour, its number on the first start,
    its starting units as "3F" tags; a highlighted cell for problems jumped to."""

    def __init__(self, gmap: GameMap, z: float = 5.9):  # under names, labels and coordinates
        super().__init__(gmap, z)
        self.entries: list[tuple[QColor, QPainterPath, QPainterPath, list[tuple[float, float, str]]]] = []
        self.mark = QPainterPath()

    def set_starts(self, items: list[tuple[str, list[int], list[tuple[int, str]], str]]) -> None:
        """items: (colour, start cells, [(cell, unit tag)], faction tag) per faction."""
        self.entries = []
        grid = self.gmap.grid
        for colour, cells, units, tag in items:
            arr = np.asarray(sorted(set(cells)), dtype=np.int64)
            path = polygons_path(geo.polygons(grid, arr)) if len(arr) else QPainterPath()
            texts: list[tuple[float, float, str]] = []
            if len(arr):
                x, y = geo.centers(grid, arr[:1])[0]
                texts.append((float(x), float(y), tag))
            by_cell: dict[int, list[str]] = {}
            for c, t in units:
                by_cell.setdefault(c, []).append(t)
            if by_cell:
                cs = np.asarray(sorted(by_cell), dtype=np.int64)
                for c, (x, y) in zip(cs, geo.centers(grid, cs), strict=True):
                    texts.append((float(x), float(y) + 0.32 * geo.cell_extent(grid),
                                  " ".join(by_cell[int(c)])))
            # the outline of the whole start, not every cell's edge (areas have hundreds)
            self.entries.append((QColor(colour), path, path.simplified(), texts))
        self.update()

    def set_mark(self, cells: list[int]) -> None:
        arr = np.asarray(sorted(set(cells)), dtype=np.int64)
        self.mark = polygons_path(geo.polygons(self.gmap.grid, arr)) if len(arr) else QPainterPath()
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        ppu = _ppu(painter)
        for colour, path, outline, _texts in self.entries:
            if path.isEmpty():
                continue
            fill = QColor(colour)
            fill.setAlpha(150)
            painter.setBrush(QBrush(fill))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawPath(path)
            pen = QPen(colour.darker(160), 2.5)
            pen.setCosmetic(True)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(pen)
            painter.drawPath(outline)
        if not self.mark.isEmpty():
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#ff2bd6"), 3.0 / max(ppu, 1e-6)))
            painter.drawPath(self.mark)
        px = max(9.0, min(16.0, ppu * geo.cell_extent(self.gmap.grid) * 0.45))
        for colour, _path, _outline, texts in self.entries:
            for x, y, t in texts:
                screen_text(painter, ppu, x, y, t, px, colour.darker(200), bold=True)


class PlaceTool:
    """The canvas tool while placing: left click toggles a start (or adds units),
    right click takes the faction's units off the cell. Duck-typed for MapCanvas."""

    def __init__(self, designer: Any, mode: str):
        self.designer, self.mode = designer, mode  # mode: "start" | "units"

    def press(self, cell: int | None, event: Any) -> None:
        if cell is None:
            return
        right = event is not None and event.button() == Qt.MouseButton.RightButton
        self.designer.place_at(cell, self.mode, remove=right)

    def move(self, cell: int | None, event: Any) -> None:
        pass

    def release(self, cell: int | None, event: Any) -> None:
        pass

    def key(self, event: Any) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.designer.stop_placing()
            return True
        return False
