"""Viewer layers over the shared map scene: fog of war, last-seen marks, move paths (owners and
units: app.canvas.political)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from app.canvas import geometry as geo
from app.canvas.overlays import MapLayer, _ppu, screen_text
from app.canvas.political import board_point
from app.canvas.terrain import polygons_path
from engine.map import GameMap
from engine.viewer_model import grid_cells


class FogLayer(MapLayer):
    """Never-seen cells dark; cells seen in an earlier turn greyed with 'T<turn>' on them."""

    def __init__(self, gmap: GameMap, z: float = 8.0):
        super().__init__(gmap, z)
        self.dark = QPainterPath()
        self.dark_cells = np.zeros(0, dtype=np.int64)
        self.grey = QPainterPath()
        self.stale: dict[int, int] = {}

    def set_cells(self, unseen: list[int], stale: dict[int, int]) -> None:
        def path(board_cells) -> QPainterPath:
            cells = [g for c in board_cells for g in grid_cells(self.gmap, c)]
            if not cells:
                return QPainterPath()
            return polygons_path(geo.polygons(self.gmap.grid, np.asarray(sorted(cells), dtype=np.int64)))

        self.dark, self.grey, self.stale = path(unseen), path(sorted(stale)), dict(stale)
        # the grid cells under the dark fog: other layers (coordinates) leave them blank
        self.dark_cells = np.asarray(sorted({g for c in unseen for g in grid_cells(self.gmap, c)}),
                                     dtype=np.int64)
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        if not self.dark.isEmpty():
            painter.setBrush(QColor(15, 17, 22, 215))
            painter.drawPath(self.dark)
        if not self.grey.isEmpty():
            painter.setBrush(QBrush(QColor(90, 90, 100, 120), Qt.BrushStyle.Dense4Pattern))
            painter.drawPath(self.grey)
            ppu = _ppu(painter)
            if ppu * geo.cell_extent(self.gmap.grid) >= 26:
                for cell, step in self.stale.items():
                    x, y = board_point(self.gmap, cell)
                    screen_text(painter, ppu, x, y + 0.3, f"T{step}", 10, QColor(30, 30, 40))


class PathLayer(MapLayer):
    """The move being drawn: a line through the cells, a ring at the start, a dot at the end."""

    def __init__(self, gmap: GameMap, z: float = 12.0):
        super().__init__(gmap, z)
        self.points: list[tuple[float, float]] = []

    def set_path(self, cells: list[int]) -> None:
        self.points = [board_point(self.gmap, c) for c in cells]
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.points:
            return
        ppu = max(_ppu(painter), 1e-6)
        pen = QPen(QColor("#ffe14d"), 4.0 / ppu)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        pts = [QPointF(x, y) for x, y in self.points]
        for a, b in zip(pts, pts[1:], strict=False):
            painter.drawLine(a, b)
        painter.drawEllipse(pts[0], 7.0 / ppu, 7.0 / ppu)
        painter.setBrush(QColor("#ffe14d"))
        painter.drawEllipse(pts[-1], 5.0 / ppu, 5.0 / ppu)


class RoutesLayer(MapLayer):
    """Every move in the orders being written, as an arrow-like line (red: a line with an
    error), so the whole turn's plan is visible on the map."""

    def __init__(self, gmap: GameMap, z: float = 11.8):
        super().__init__(gmap, z)
        self.routes: list[tuple[list[tuple[float, float]], bool]] = []

    def set_routes(self, routes: list[tuple[list[int], bool]]) -> None:
        self.routes = [([board_point(self.gmap, c) for c in cells], bad) for cells, bad in routes]
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.routes:
            return
        ppu = max(_ppu(painter), 1e-6)
        for pts, bad in self.routes:
            colour = QColor("#e53935" if bad else "#ff8f00")
            pen = QPen(colour, 3.0 / ppu)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            q = [QPointF(x, y) for x, y in pts]
            for a, b in zip(q, q[1:], strict=False):
                painter.drawLine(a, b)
            painter.setBrush(colour)
            painter.drawEllipse(q[-1], 4.5 / ppu, 4.5 / ppu)
