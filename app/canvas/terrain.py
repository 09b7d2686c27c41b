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

CHUNK = 32
IMAGE_BELOW_PX = 3.0  # pixels per cell under which the pixel image replaces the paths
TILE_MAX_PX = 1536  # chunk tiles bigger than this are not cached (few cells visible then)
TILE_BYTES = 96 * 2**20  # memory for chunk tiles at the current zoom, per layer
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


def visible_area(painter: QPainter, option: QStyleOptionGraphicsItem) -> QRectF:
    """The part of the map this paint call can show. exposedRect alone is the whole item
    when a view renders itself into an image (QGraphicsView.render), so also clip to the
    painter's device mapped back into map units."""
    r = QRectF(option.exposedRect)
    dev = painter.device()
    if dev is not None:
        inv, ok = painter.worldTransform().inverted()
        if ok:
            r = r.intersected(inv.mapRect(QRectF(0, 0, dev.width(), dev.height())))
    if painter.hasClipping():
        r = r.intersected(painter.clipBoundingRect())
    return r


class ChunkedLayer(QGraphicsItem):
    """Base for layers cached per chunk of chunk x chunk cells."""

    chunk = CHUNK

    def __init__(self, gmap: GameMap):
        super().__init__()
        self.gmap = gmap
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        x, y, w, h = geo.map_bounds(gmap.grid)
        self._bounds = QRectF(x, y, w, h)
        gw, gh = geo.grid_size(gmap.grid)
        self.chunks_x = (gw + self.chunk - 1) // self.chunk
        self.chunks_y = (gh + self.chunk - 1) // self.chunk
        self._cache: dict[int, object] = {}
        # Chunk tiles: each visible chunk rendered once at the current zoom, then blitted
        # while panning. While the zoom changes from frame to frame, paths are drawn
        # directly instead (a tile would be used once).
        self._tiles: dict[int, tuple[QImage, QRectF]] = {}
        self._tile_scale = 0.0
        self._last_scale = 0.0
        self._tile_bytes = 0
        self.tiles_enabled = True  # off for one-pass renders (PNG export) where tiles are waste

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    def chunk_cells(self, chunk: int) -> np.ndarray:
        gw, gh = geo.grid_size(self.gmap.grid)
        cx, cy = chunk % self.chunks_x, chunk // self.chunks_x
        k = self.chunk
        cols = np.arange(cx * k, min((cx + 1) * k, gw))
        rows = np.arange(cy * k, min((cy + 1) * k, gh))
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
        k = self.chunk
        return [cy * self.chunks_x + cx
                for cy in range(r0 // k, (r1 - 1) // k + 1)
                for cx in range(c0 // k, (c1 - 1) // k + 1)]

    def chunks_of(self, cells: np.ndarray) -> np.ndarray:
        gw = geo.grid_size(self.gmap.grid)[0]
        col, row = cells % gw, cells // gw
        return np.unique((row // self.chunk) * self.chunks_x + col // self.chunk)

    def invalidate(self, cells: np.ndarray) -> None:
        for ch in self.chunks_of(cells):
            self._cache.pop(int(ch), None)
            self.chunk_changed(int(ch))
        if len(cells):  # repaint only around the changed cells, not whole chunks
            c = geo.centers(self.gmap.grid, cells)
            lo, hi = c.min(axis=0) - 1.1, c.max(axis=0) + 1.1
            self.update(QRectF(lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]))

    def chunk_changed(self, chunk: int) -> None:
        old = self._tiles.pop(chunk, None)
        if old is not None:
            self._tile_bytes -= old[0].sizeInBytes()

    def _draw_chunk(self, painter: QPainter, ch: int) -> None:
        raise NotImplementedError

    def _tile(self, ch: int, scale: float) -> tuple[QImage, QRectF]:
        got = self._tiles.pop(ch, None)
        if got is None:
            cells = self.chunk_cells(ch)
            c = geo.centers(self.gmap.grid, cells[[0, -1]])
            pad = 1.01
            # whole device pixels, so the tile lands exactly where the paths would
            x0 = np.floor((c[:, 0].min() - pad) * scale) / scale
            y0 = np.floor((c[:, 1].min() - pad) * scale) / scale
            w = int(np.ceil((c[:, 0].max() + pad - x0) * scale))
            h = int(np.ceil((c[:, 1].max() + pad - y0) * scale))
            image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(0)
            p = QPainter(image)
            p.scale(scale, scale)
            p.translate(-x0, -y0)
            p.setPen(Qt.PenStyle.NoPen)
            self._draw_chunk(p, ch)
            p.end()
            got = (image, QRectF(x0, y0, w / scale, h / scale))
            self._tile_bytes += image.sizeInBytes()
            while self._tiles and self._tile_bytes > TILE_BYTES:
                old = self._tiles.pop(next(iter(self._tiles)))  # least recently used
                self._tile_bytes -= old[0].sizeInBytes()
        self._tiles[ch] = got
        return got

    def paint_chunks(self, painter: QPainter, option) -> None:
        """Draw the visible chunks, from cached tiles while the zoom holds still."""
        scale = round(painter.worldTransform().m11(), 6)
        steady, self._last_scale = scale == self._last_scale, scale
        if scale != self._tile_scale:
            self._tiles.clear()
            self._tile_bytes = 0
            self._tile_scale = scale
        side = self.chunk * geo.cell_extent(self.gmap.grid) * 1.2 * scale
        t = painter.worldTransform()
        use_tiles = self.tiles_enabled and steady and side <= TILE_MAX_PX and abs(t.m12()) < 1e-9 and abs(t.m21()) < 1e-9
        for ch in self.visible_chunks(visible_area(painter, option)):
            if use_tiles:
                image, rect = self._tile(ch, scale)
                painter.drawImage(rect, image)
            else:
                self._draw_chunk(painter, ch)


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

    # ---- changes --------------------------------------------------------------------

    def cells_changed(self, cells: np.ndarray) -> None:
        self._colours()
        if self._tiles:
            self._patch_tiles(cells)
        self.invalidate(cells)
        if self._pixels is not None:
            rows, cols = self._pixel_index(cells)
            self._pixels[rows, cols] = np.tile(self._rgb[self.gmap.terrain[cells]],
                                               len(rows) // max(len(cells), 1))
        for fn in self.image_listeners:
            fn(cells)

    def chunk_changed(self, chunk: int) -> None:
        pass  # tiles are patched in place by _patch_tiles, not dropped

    def _patch_tiles(self, cells: np.ndarray) -> None:
        """Paint just the changed cells into the cached tiles (cheaper than re-rendering)."""
        gw = geo.grid_size(self.gmap.grid)[0]
        chunk_of = (cells // gw // self.chunk) * self.chunks_x + (cells % gw) // self.chunk
        scale = self._tile_scale
        for ch in np.unique(chunk_of):
            tile = self._tiles.get(int(ch))
            if tile is None:
                continue
            image, rect = tile
            mine = cells[chunk_of == ch]
            codes = self.gmap.terrain[mine]
            polys = geo.polygons(self.gmap.grid, mine)
            p = QPainter(image)
            p.scale(scale, scale)
            p.translate(-rect.x(), -rect.y())
            p.setPen(Qt.PenStyle.NoPen)
            for code in np.unique(codes):
                p.setBrush(self._brushes[int(code)])
                p.drawPath(polygons_path(polys[codes == code]))
            p.end()

    def reset(self) -> None:
        self._cache.clear()
        self._tiles.clear()
        self._tile_bytes = 0
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
        if ppc < IMAGE_BELOW_PX or self.exact_image:
            # square cells are exactly the pixels of the image, at any zoom
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, ppc < 1.0)
            painter.drawImage(self._image_rect, self.pixel_image())
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        self.paint_chunks(painter, option)

    def _draw_chunk(self, painter: QPainter, ch: int) -> None:
        for code, path in self.chunk_paths(ch):
            painter.setBrush(self._brushes[code])
            painter.drawPath(path)

def polylines_path(lines: np.ndarray) -> QPainterPath:
    """(n, k, 2) open polylines as one path."""
    from pyqtgraph.functions import arrayToQPath

    n, k, _ = lines.shape
    if n == 0:
        return QPainterPath()
    connect = np.ones((n, k), dtype=np.int8)
    connect[:, -1] = 0
    return arrayToQPath(lines[:, :, 0].ravel(), lines[:, :, 1].ravel(), connect.ravel(),
                        finiteCheck=False)


class GridLayer(ChunkedLayer):
    """Cell outlines, only when cells are big enough on screen for them to help.

    Each cell draws only its upper edges (every inner edge once, not twice) and small
    chunks keep the stroked length close to what is visible: hairlines cost per segment.
    """

    chunk = 16

    def __init__(self, gmap: GameMap):
        super().__init__(gmap)
        self.setZValue(1)
        self.pen = QPen(QColor(0, 0, 0, 70), 0)  # cosmetic hairline
        grid = gmap.grid
        if isinstance(grid, HexGrid):
            start = 3 if grid.orientation == "flat" else 2
            self._edges = [(start + i) % 6 for i in range(4)]
        else:
            self._edges = [3, 0, 1]

    def _build(self, chunk: int) -> QPainterPath:
        grid = self.gmap.grid
        cells = self.chunk_cells(chunk)
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
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.paint_chunks(painter, option)

    def _draw_chunk(self, painter: QPainter, ch: int) -> None:
        path = self._cache.get(ch)
        if path is None:
            path = self._build(ch)
            self._cache[ch] = path
        painter.setPen(self.pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
