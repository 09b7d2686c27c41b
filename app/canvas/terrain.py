"""Terrain and grid layers: one QPainterPath per terrain per 64x64 chunk, a pixel image far out.

One QGraphicsItem per cell does not scale (160k hexes: 0.8 s, 540 MB). Here a chunk's
paths are built from numpy in a few ms, cached, and rebuilt only when a cell in the
chunk changes. Below a few pixels per cell the layer draws a one-pixel-per-cell image
(doubled rows or columns on hex grids so odd columns sit half a cell lower).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from app.canvas import geometry as geo
from app.canvas.palette import rgb_table, terrain_colour
from engine.map import GameMap
from engine.topology import HexGrid

CHUNK = 64
IMAGE_BELOW_PX = 3.0  # pixels per cell under which the pixel image replaces the paths
GRID_FROM_PX = 6.0  # pixels per cell from which cell outlines are drawn


def polygons_path(polys: np.ndarray) -> QPainterPath:
    """(n, k, 2) polygons as one path of closed subpaths (built in C via pyqtgraph)."""
    from pyqtgraph.functions import arrayToQPath

    n, k, _ = polys.shape
    if n == 0:
        return QPainterPath()
    closed = np.concatenate([polys, polys[:, :1, :]], axis=1)
    connect = np.ones((n, k + 1), dtype=np.int8)
    connect[:, -1] = 0
    return arrayToQPath(closed[:, :, 0].ravel(), closed[:, :, 1].ravel(), connect.ravel(),
                        finiteCheck=False)


def px_per_cell(option: QStyleOptionGraphicsItem, painter: QPainter, grid) -> float:
    lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    return lod * geo.cell_extent(grid)


class ChunkedLayer(QGraphicsItem):
    """Base for layers cached per chunk of CHUNK x CHUNK cells."""

    def __init__(self, gmap: GameMap):
        super().__init__()
        self.gmap = gmap
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        x, y, w, h = geo.map_bounds(gmap.grid)
        self._bounds = QRectF(x, y, w, h)
        gw, gh = geo.grid_size(gmap.grid)
        self.chunks_x = (gw + CHUNK - 1) // CHUNK
        self.chunks_y = (gh + CHUNK - 1) // CHUNK
        self._cache: dict[int, object] = {}

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    def chunk_cells(self, chunk: int) -> np.ndarray:
        gw, gh = geo.grid_size(self.gmap.grid)
        cx, cy = chunk % self.chunks_x, chunk // self.chunks_x
        cols = np.arange(cx * CHUNK, min((cx + 1) * CHUNK, gw))
        rows = np.arange(cy * CHUNK, min((cy + 1) * CHUNK, gh))
        return (rows[:, None] * gw + cols[None, :]).ravel()

    def chunk_rect(self, chunk: int) -> QRectF:
        cells = self.chunk_cells(chunk)
        p = geo.centers(self.gmap.grid, cells[[0, -1]])
        pad = 1.0
        return QRectF(p[0, 0] - pad, p[0, 1] - pad, p[1, 0] - p[0, 0] + 2 * pad,
                      p[1, 1] - p[0, 1] + 2 * pad)

    def visible_chunks(self, rect: QRectF) -> list[int]:
        c0, c1, r0, r1 = geo.col_row_range(self.gmap.grid, rect.left(), rect.top(),
                                           rect.right(), rect.bottom())
        if c0 >= c1 or r0 >= r1:
            return []
        return [cy * self.chunks_x + cx
                for cy in range(r0 // CHUNK, (r1 - 1) // CHUNK + 1)
                for cx in range(c0 // CHUNK, (c1 - 1) // CHUNK + 1)]

    def chunks_of(self, cells: np.ndarray) -> np.ndarray:
        gw = geo.grid_size(self.gmap.grid)[0]
        col, row = cells % gw, cells // gw
        return np.unique((row // CHUNK) * self.chunks_x + col // CHUNK)

    def invalidate(self, cells: np.ndarray) -> None:
        rect = QRectF()
        for ch in self.chunks_of(cells):
            self._cache.pop(int(ch), None)
            rect = rect.united(self.chunk_rect(int(ch)))
        self.update(rect)


class TerrainLayer(ChunkedLayer):
    def __init__(self, gmap: GameMap):
        super().__init__(gmap)
        self.setZValue(0)
        self._brushes: list[QBrush] = []
        self._rgb = np.zeros(0, dtype=np.uint32)
        self._pixels: np.ndarray | None = None  # image rows x cols, uint32 ARGB
        self._image: QImage | None = None
        self._image_rect = self._compute_image_rect()
        self.image_listeners: list = []  # called with changed cells (minimap)

    # ---- colours ----------------------------------------------------------------

    def _colours(self) -> None:
        names = self.gmap.terrains
        if len(self._brushes) != len(names):
            self._brushes = [QBrush(QColor(terrain_colour(n))) for n in names]
            self._rgb = np.array(rgb_table(names), dtype=np.uint32)

    # ---- the one-pixel-per-cell image -------------------------------------------------

    def _compute_image_rect(self) -> QRectF:
        grid = self.gmap.grid
        gw, gh = geo.grid_size(grid)
        if isinstance(grid, HexGrid):
            if grid.orientation == "flat":
                return QRectF(0.25, 0.0, 1.5 * gw, geo.SQRT3 / 2 * (2 * gh + 1))
            return QRectF(0.0, 0.25, geo.SQRT3 / 2 * (2 * gw + 1), 1.5 * gh)
        return QRectF(0.0, 0.0, gw, gh)

    def image_rect(self) -> QRectF:
        return self._image_rect

    def _pixel_index(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cols) of every pixel of the given cells; hex cells own two pixels."""
        grid = self.gmap.grid
        gw = geo.grid_size(grid)[0]
        col, row = cells % gw, cells // gw
        if isinstance(grid, HexGrid):
            if grid.orientation == "flat":
                r = 2 * row + (col & 1)
                return np.concatenate([r, r + 1]), np.concatenate([col, col])
            c = 2 * col + (row & 1)
            return np.concatenate([row, row]), np.concatenate([c, c + 1])
        return row, col

    def _ensure_pixels(self) -> None:
        self._colours()
        if self._pixels is None:
            grid = self.gmap.grid
            gw, gh = geo.grid_size(grid)
            if isinstance(grid, HexGrid):
                shape = (2 * gh + 1, gw) if grid.orientation == "flat" else (gh, 2 * gw + 1)
            else:
                shape = (gh, gw)
            self._pixels = np.full(shape, 0xFF2A2A2A, dtype=np.uint32)
            cells = np.arange(len(grid))
            rows, cols = self._pixel_index(cells)
            self._pixels[rows, cols] = np.tile(self._rgb[self.gmap.terrain], len(rows) // len(cells))
            self._image = None

    def pixel_image(self) -> QImage:
        self._ensure_pixels()
        if self._image is None:
            h, w = self._pixels.shape
            self._image = QImage(self._pixels.tobytes(), w, h, w * 4, QImage.Format.Format_RGB32).copy()
        return self._image

    # ---- changes --------------------------------------------------------------------

    def cells_changed(self, cells: np.ndarray) -> None:
        self.invalidate(cells)
        if self._pixels is not None:
            self._colours()
            rows, cols = self._pixel_index(cells)
            self._pixels[rows, cols] = np.tile(self._rgb[self.gmap.terrain[cells]],
                                               len(rows) // max(len(cells), 1))
            self._image = None
        for fn in self.image_listeners:
            fn(cells)

    def reset(self) -> None:
        self._cache.clear()
        self._pixels = None
        self._image = None
        self._brushes = []
        self.update()

    # ---- drawing ------------------------------------------------------------------

    def chunk_paths(self, chunk: int) -> list[tuple[int, QPainterPath]]:
        got = self._cache.get(chunk)
        if got is None:
            got = self._build_chunk(chunk)
            self._cache[chunk] = got
        return got  # type: ignore[return-value]

    def _build_chunk(self, chunk: int) -> list[tuple[int, QPainterPath]]:
        grid = self.gmap.grid
        cells = self.chunk_cells(chunk)
        codes = self.gmap.terrain[cells]
        out = []
        if isinstance(grid, HexGrid):
            polys = geo.polygons(grid, cells)
            for code in np.unique(codes):
                out.append((int(code), polygons_path(polys[codes == code])))
            return out
        # square: merge runs of equal terrain along each row into one rectangle
        gw = geo.grid_size(grid)[0]
        cols = cells % gw
        rows = cells // gw
        start = np.ones(len(cells), dtype=bool)
        start[1:] = (codes[1:] != codes[:-1]) | (rows[1:] != rows[:-1])
        first = np.flatnonzero(start)
        last = np.append(first[1:], len(cells)) - 1
        x0, x1 = cols[first].astype(float), cols[last] + 1.0
        y0 = rows[first].astype(float)
        rc = codes[first]
        rects = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1),
                          np.stack([x1, y0 + 1], 1), np.stack([x0, y0 + 1], 1)], axis=1)
        for code in np.unique(rc):
            out.append((int(code), polygons_path(rects[rc == code])))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        self._colours()
        ppc = px_per_cell(option, painter, self.gmap.grid)
        if ppc < IMAGE_BELOW_PX:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, ppc < 1.0)
            painter.drawImage(self._image_rect, self.pixel_image())
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        for ch in self.visible_chunks(option.exposedRect):
            for code, path in self.chunk_paths(ch):
                painter.setBrush(self._brushes[code])
                painter.drawPath(path)


class GridLayer(ChunkedLayer):
    """Cell outlines, only when cells are big enough on screen for them to help."""

    def __init__(self, gmap: GameMap):
        super().__init__(gmap)
        self.setZValue(1)
        self.pen = QPen(QColor(0, 0, 0, 70), 0)  # cosmetic hairline

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if px_per_cell(option, painter, self.gmap.grid) < GRID_FROM_PX:
            return
        painter.setPen(self.pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for ch in self.visible_chunks(option.exposedRect):
            path = self._cache.get(ch)
            if path is None:
                path = polygons_path(geo.polygons(self.gmap.grid, self.chunk_cells(ch)))
                self._cache[ch] = path
            painter.drawPath(path)
