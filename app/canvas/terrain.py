"""Terrain and grid layers: one QPainterPath per terrain per 32x32 chunk, a pixel image far out.

One QGraphicsItem per cell does not scale (160k hexes: 0.8 s, 540 MB). Here a chunk's
paths are built from numpy in a few ms and kept (least recently used first out, within a
bound), and rebuilt only when a cell in the chunk changes. What is on screen is drawn from
screen tiles (app.canvas.tiles). Below a few pixels per cell the layer draws a
one-pixel-per-cell image (doubled rows or columns on hex grids so odd columns sit half a
cell lower); that image is also the stand-in for tiles not built yet.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from app.canvas import geometry as geo
from app.canvas.palette import rgb_table, terrain_colour
from app.canvas.paths import polygons_path, polylines_path
from app.canvas.tiles import FrameBudget, TiledLayer, tile_range, tile_rect, visible_area
from engine.map import GameMap
from engine.topology import HexGrid

__all__ = ["GridLayer", "TerrainLayer", "polygons_path", "polylines_path", "px_per_cell",
           "visible_area"]

CHUNK = 32
IMAGE_BELOW_PX = 3.0  # pixels per cell under which the pixel image replaces the paths
GRID_FROM_PX = 6.0  # pixels per cell from which cell outlines are drawn


def px_per_cell(option: QStyleOptionGraphicsItem, painter: QPainter, grid) -> float:
    lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    return lod * geo.cell_extent(grid)


class Chunks:
    """The map cut into chunk x chunk cells, with a bounded cache of something built per chunk."""

    def __init__(self, gmap: GameMap, chunk: int, build: Callable[[int], object], keep: int):
        self.gmap = gmap
        self.chunk = chunk
        self.build = build
        self.keep = keep  # chunks kept built; the least recently used go first
        gw, gh = geo.grid_size(gmap.grid)
        self.nx = (gw + chunk - 1) // chunk
        self.ny = (gh + chunk - 1) // chunk
        self._built: OrderedDict[int, object] = OrderedDict()

    def __len__(self) -> int:
        return len(self._built)

    def get(self, ch: int):
        got = self._built.get(ch)
        if got is None:
            got = self.build(ch)
            self._built[ch] = got
            while len(self._built) > self.keep:
                self._built.popitem(last=False)
        else:
            self._built.move_to_end(ch)
        return got

    def drop(self, chunks) -> None:
        for ch in chunks:
            self._built.pop(int(ch), None)

    def clear(self) -> None:
        self._built.clear()

    def cells(self, ch: int) -> np.ndarray:
        gw, gh = geo.grid_size(self.gmap.grid)
        cx, cy = ch % self.nx, ch // self.nx
        k = self.chunk
        cols = np.arange(cx * k, min((cx + 1) * k, gw))
        rows = np.arange(cy * k, min((cy + 1) * k, gh))
        return (rows[:, None] * gw + cols[None, :]).ravel()

    def in_rect(self, rect: QRectF) -> list[int]:
        """Chunks with a cell touching a map rectangle."""
        c0, c1, r0, r1 = geo.col_row_range(self.gmap.grid, rect.left(), rect.top(),
                                           rect.right(), rect.bottom())
        if c0 >= c1 or r0 >= r1:
            return []
        k = self.chunk
        return [cy * self.nx + cx for cy in range(r0 // k, (r1 - 1) // k + 1)
                for cx in range(c0 // k, (c1 - 1) // k + 1)]

    def of_cells(self, cells: np.ndarray) -> np.ndarray:
        gw = geo.grid_size(self.gmap.grid)[0]
        col, row = cells % gw, cells // gw
        return np.unique((row // self.chunk) * self.nx + col // self.chunk)


def cells_rect(grid, cells: np.ndarray, pad: float = 1.1) -> QRectF:
    """Map rectangle around the given cells (their corners included)."""
    c = geo.centers(grid, cells)
    lo, hi = c.min(axis=0) - pad, c.max(axis=0) + pad
    return QRectF(lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1])


def map_rect(gmap: GameMap, pad: float = 0.0) -> QRectF:
    x, y, w, h = geo.map_bounds(gmap.grid)
    return QRectF(x - pad, y - pad, w + 2 * pad, h + 2 * pad)


class TerrainLayer(TiledLayer):
    def __init__(self, gmap: GameMap, budget: FrameBudget | None = None):
        super().__init__(map_rect(gmap), budget)
        self.gmap = gmap
        self.setZValue(0)
        self.chunks = Chunks(gmap, CHUNK, self._build_chunk, keep=64)
        self._brushes: list[QBrush] = []
        self._rgb = np.zeros(0, dtype=np.uint32)
        self._pixels: np.ndarray | None = None  # image rows x cols, uint32 ARGB
        self._image: QImage | None = None
        self._image_rect = self._compute_image_rect()
        self.image_listeners: list = []  # called with changed cells (minimap)
        self.exact_image = not isinstance(gmap.grid, HexGrid)  # squares: the image is exact

    # ---- colours ----------------------------------------------------------------

    def _colours(self) -> None:
        names = self.gmap.terrains
        if len(self._brushes) != len(names):
            self._brushes = [QBrush(QColor(terrain_colour(n))) for n in names]
            self._rgb = np.array(rgb_table(names), dtype=np.uint32)

    # ---- the one-pixel-per-cell image -------------------------------------------------

    def _compute_image_rect(self) -> QRectF:
        return QRectF(*geo.pixel_rect(self.gmap.grid))

    def image_rect(self) -> QRectF:
        return self._image_rect

    def _pixel_index(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return geo.pixel_index(self.gmap.grid, cells)

    def _ensure_pixels(self) -> None:
        self._colours()
        if self._pixels is None:
            grid = self.gmap.grid
            self._pixels = np.full(geo.pixel_shape(grid), 0xFF2A2A2A, dtype=np.uint32)
            cells = np.arange(len(grid))
            rows, cols = self._pixel_index(cells)
            self._pixels[rows, cols] = np.tile(self._rgb[self.gmap.terrain], len(rows) // len(cells))
            self._image = None

    def pixel_image(self) -> QImage:
        """The image shares the numpy buffer: edits write pixels, no copy per change."""
        self._ensure_pixels()
        if self._image is None:
            h, w = self._pixels.shape
            self._image = QImage(self._pixels.data, w, h, w * 4, QImage.Format.Format_RGB32)
        return self._image

    def coarse(self, painter: QPainter, rect: QRectF) -> None:
        """The pixel image's part under rect: the stand-in while a tile is being built."""
        src = self._image_rect
        part = rect.intersected(src)
        if part.isEmpty():
            return
        image = self.pixel_image()
        sx, sy = image.width() / src.width(), image.height() / src.height()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(part, image, QRectF((part.left() - src.left()) * sx,
                                              (part.top() - src.top()) * sy,
                                              part.width() * sx, part.height() * sy))

    # ---- changes --------------------------------------------------------------------

    def cells_changed(self, cells: np.ndarray) -> None:
        self._colours()
        if not len(cells):
            return
        self.chunks.drop(self.chunks.of_cells(cells))
        rect = cells_rect(self.gmap.grid, cells)
        self._patch_tiles(cells, rect)
        if self._pixels is not None:
            rows, cols = self._pixel_index(cells)
            self._pixels[rows, cols] = np.tile(self._rgb[self.gmap.terrain[cells]],
                                               len(rows) // max(len(cells), 1))
        self.update(rect)  # repaint only around the changed cells
        for fn in self.image_listeners:
            fn(cells)

    def _patch_tiles(self, cells: np.ndarray, rect: QRectF) -> None:
        """Paint just the changed cells into the cached tiles of the newest zoom (cheaper
        than redrawing them); tiles of older zooms that show the cells are dropped."""
        if not self._tiles:
            return
        newest = next(reversed(self._tiles))
        polys = geo.polygons(self.gmap.grid, cells)
        codes = self.gmap.terrain[cells]
        by_code = [(int(c), polygons_path(polys[codes == c])) for c in np.unique(codes)]
        for scale in list(self._tiles):
            tiles = self._tiles[scale]
            i0, i1, j0, j1 = tile_range(rect, scale)
            for key in [k for k in tiles if i0 <= k[0] < i1 and j0 <= k[1] < j1]:
                image = tiles[key]
                if scale != newest or image is None:
                    self.cache.removed((self.ref, scale, *key))
                    del tiles[key]
                    continue
                origin = tile_rect(scale, *key).topLeft()
                p = QPainter(image)
                p.scale(scale, scale)
                p.translate(-origin.x(), -origin.y())
                p.setPen(Qt.PenStyle.NoPen)
                for code, path in by_code:
                    p.setBrush(self._brushes[code])
                    p.drawPath(path)
                p.end()
            if not tiles:
                del self._tiles[scale]

    def reset(self) -> None:
        self.chunks.clear()
        self.drop_tiles()
        self._pixels = None
        self._image = None
        self._brushes = []
        self.update()

    # ---- drawing ------------------------------------------------------------------

    def chunk_paths(self, chunk: int) -> list[tuple[int, QPainterPath]]:
        return self.chunks.get(chunk)  # type: ignore[return-value]

    def _build_chunk(self, chunk: int) -> list[tuple[int, QPainterPath]]:
        grid = self.gmap.grid
        cells = self.chunks.cells(chunk)
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
        if ppc < IMAGE_BELOW_PX or self.exact_image:
            # square cells are exactly the pixels of the image, at any zoom
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, ppc < 1.0)
            painter.drawImage(self._image_rect, self.pixel_image())
            return
        self.paint_tiles(painter, option)

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        self._colours()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        chunks = self.chunks.in_rect(rect)
        for ch in chunks:
            for code, path in self.chunk_paths(ch):
                painter.setBrush(self._brushes[code])
                painter.drawPath(path)
        return bool(chunks)


class GridLayer(TiledLayer):
    """Cell outlines, only when cells are big enough on screen for them to help.

    Each cell draws only its upper edges (every inner edge once, not twice) and small
    chunks keep the stroked length close to what is visible: hairlines cost per segment.
    """

    def __init__(self, gmap: GameMap, budget: FrameBudget | None = None):
        super().__init__(map_rect(gmap, 0.5), budget)
        self.gmap = gmap
        self.setZValue(1)
        self.chunks = Chunks(gmap, 16, self._build, keep=160)
        self.pen = QPen(QColor(0, 0, 0, 70), 0)  # cosmetic hairline
        grid = gmap.grid
        if isinstance(grid, HexGrid):
            start = 3 if grid.orientation == "flat" else 2
            self._edges = [(start + i) % 6 for i in range(4)]
        else:
            self._edges = [3, 0, 1]

    def _build(self, chunk: int) -> QPainterPath:
        grid = self.gmap.grid
        cells = self.chunks.cells(chunk)
        polys = geo.polygons(grid, cells)
        path = polylines_path(polys[:, self._edges, :])
        gw, gh = geo.grid_size(grid)
        col, row = cells % gw, cells // gw
        edge = (row == gh - 1) | (col == 0) | (col == gw - 1)
        if edge.any():  # the map's own border needs the lower edges too
            path.addPath(polygons_path(polys[edge]))
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if px_per_cell(option, painter, self.gmap.grid) < GRID_FROM_PX:
            return
        self.paint_tiles(painter, option)

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(self.pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        chunks = self.chunks.in_rect(rect)
        for ch in chunks:
            painter.drawPath(self.chunks.get(ch))
        return bool(chunks)
