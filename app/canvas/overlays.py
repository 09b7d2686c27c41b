"""Map layers drawn over the terrain: rivers, roads, sites, areas, labels, coordinates, selection."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas import geometry as geo
from app.canvas.areas import AreasLayer
from app.canvas.palette import hash_colour
from app.canvas.paths import polygons_path, segments_path
from app.canvas.terrain import Chunks, cells_rect, map_rect, px_per_cell
from app.canvas.text import screen_text
from app.canvas.tiles import FrameBudget, TiledLayer, visible_area
from app.canvas.tiles import ppu_of as _ppu
from engine.map import GameMap
from engine.palette import SITE_COLOURS

__all__ = ["AreasLayer", "CellsOverlay", "CoordsLayer", "LabelsLayer", "LinksLayer", "MapLayer",
           "SitesLayer", "screen_text"]

LINK_STYLE = {  # kind: (colour, width in map units, dashed)
    "river": ("#2f6fcf", 0.32, False),
    "road": ("#7a4a1e", 0.2, True),
}
NAME_PX = 11  # site names' pixel size
SITE_REACH_PX = 130.0  # how far a site's symbol and name reach from its cell, in pixels
SITE_SHAPES = {"city": "square", "town": "circle", "village": "circle", "capital": "star",
               "port": "circle", "castle": "square", "ruin": "diamond", "start": "star"}
SITE_STYLE = {kind: (SITE_COLOURS[kind], shape) for kind, shape in SITE_SHAPES.items()}  # fill, shape


class MapLayer(QGraphicsItem):
    """An item covering the whole map that draws itself only where exposed."""

    def __init__(self, gmap: GameMap, z: float):
        super().__init__()
        self.gmap = gmap
        self.setZValue(z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        x, y, w, h = geo.map_bounds(gmap.grid)
        self._bounds = QRectF(x - 2, y - 2, w + 4, h + 4)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds


class LinksLayer(TiledLayer):
    """One kind of link (river, road) as line segments between neighbouring cell centres.

    Segments are grouped by the chunk of their first cell, so a tile strokes only the
    segments near it (stroking a whole map's rivers costs ~0.035 ms a segment per paint)."""

    CHUNK = 16

    def __init__(self, gmap: GameMap, kind: str, z: float, budget: FrameBudget | None = None):
        super().__init__(map_rect(gmap, 2.0), budget)
        self.gmap = gmap
        self.setZValue(z)
        self.kind = kind
        self._by_chunk: dict[int, np.ndarray] | None = None  # chunk -> (n, 2) cell pairs
        self.chunks = Chunks(gmap, self.CHUNK, self._build, keep=512)
        colour, width, dashed = LINK_STYLE.get(kind, (hash_colour(kind), 0.2, False))
        self.pen = QPen(QColor(colour), width)
        self.pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        if dashed:
            self.pen.setStyle(Qt.PenStyle.DashLine)
        self.thin = QPen(QColor(colour), 0)

    def changed(self, cells=None) -> None:
        """Links of the given cells changed (None: any, anywhere)."""
        self._by_chunk = None
        self.chunks.clear()
        if cells is None or not len(cells):
            self.drop_tiles()
        else:
            self.refresh(cells_rect(self.gmap.grid, np.asarray(cells, dtype=np.int64), 2.0))

    def _index(self) -> dict[int, np.ndarray]:
        if self._by_chunk is None:
            links = np.array(sorted(self.gmap.links.get(self.kind, ())), dtype=np.int64).reshape(-1, 2)
            ch = self.chunks.of_cells(links[:, 0]) if len(links) else np.zeros(0, dtype=np.int64)
            gw = geo.grid_size(self.gmap.grid)[0]
            first = links[:, 0]
            owner = (first // gw // self.CHUNK) * self.chunks.nx + (first % gw) // self.CHUNK
            self._by_chunk = {int(c): links[owner == c] for c in ch}
        return self._by_chunk

    def _build(self, chunk: int) -> QPainterPath:
        pairs = self._index().get(chunk)
        if pairs is None:
            return QPainterPath()
        pts = geo.centers(self.gmap.grid, pairs.ravel()).reshape(-1, 2, 2)
        return segments_path(pts)

    def path(self) -> QPainterPath:
        """Every link of this kind as one path (for exports and tests)."""
        out = QPainterPath()
        for ch in sorted(self._index()):
            out.addPath(self.chunks.get(ch))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self._index():
            self.paint_tiles(painter, option)

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        index = self._index()
        # a segment reaches up to one cell spacing beyond its chunk
        pad = geo.cell_extent(self.gmap.grid) + 0.5
        chunks = [ch for ch in self.chunks.in_rect(rect.adjusted(-pad, -pad, pad, pad)) if ch in index]
        if not chunks:
            return False
        ppc = ppu * geo.cell_extent(self.gmap.grid)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, ppc > 4)
        painter.setPen(self.pen if ppc >= 4 else self.thin)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for ch in chunks:
            painter.drawPath(self.chunks.get(ch))
        return True


class SitesLayer(TiledLayer):
    """Sites as symbols of constant screen size; names once cells are big enough."""

    def __init__(self, gmap: GameMap, z: float, budget: FrameBudget | None = None):
        super().__init__(map_rect(gmap, 4.0), budget)
        self.gmap = gmap
        self.setZValue(z)
        self._pos: np.ndarray | None = None
        self._ids: list[int] = []
        self._selected: int | None = None
        self._names: dict[float, dict[int, tuple[float, float]]] = {}  # ppu -> name offsets
        self.keep_off = None  # ppu -> boxes of other text site names keep off (names given in play)

    @property
    def selected(self) -> int | None:
        return self._selected

    @selected.setter
    def selected(self, site_id: int | None) -> None:
        if site_id != self._selected:
            cells = [self.gmap.sites[i].cell for i in (self._selected, site_id) if i in self.gmap.sites]
            self._selected = site_id
            if cells:
                self.refresh(cells_rect(self.gmap.grid, np.array(cells, dtype=np.int64), 1.0),
                             SITE_REACH_PX)

    def changed(self, cells=None) -> None:
        """Sites on the given cells changed (None: anywhere)."""
        self._pos = None
        if cells is None or not len(cells):
            self.drop_tiles()
        else:
            self.refresh(cells_rect(self.gmap.grid, np.asarray(cells, dtype=np.int64), 1.0),
                         SITE_REACH_PX)

    def _index(self) -> None:
        if self._pos is None:
            sites = sorted(self.gmap.sites.values(), key=lambda s: s.id)
            self._ids = [s.id for s in sites]
            self._pos = geo.centers(self.gmap.grid, np.array([s.cell for s in sites], dtype=np.int64))
            self._names = {}

    def name_offsets(self, ppu: float, size: float) -> dict[int, tuple[float, float]]:
        """{site index: (dx, dy) in pixels} of the names shown at this zoom, placed so that
        none overlaps another or a marker (app/canvas/labels.py), the same for every tile."""
        from PySide6.QtGui import QFont, QFontMetrics

        from app.canvas.labels import importance, place_labels

        key = float(f"{ppu:.4g}")
        got = self._names.get(key)
        if got is None:
            font = QFont()
            font.setPixelSize(NAME_PX)
            fm = QFontMetrics(font)
            sites = [self.gmap.sites[i] for i in self._ids]
            sizes = [(fm.horizontalAdvance(s.name) + 2.0, float(fm.height())) if s.name else (0.0, 0.0)
                     for s in sites]
            order = sorted(range(len(sites)), key=lambda k: (importance(sites[k].kind, sites[k].attrs), k))
            points = [(float(x) * ppu, float(y) * ppu) for x, y in self._pos]
            bx, by, bw, bh = geo.map_bounds(self.gmap.grid)
            got = place_labels(points, sizes, order, size * ppu, reach=SITE_REACH_PX,
                               bounds=(bx * ppu, by * ppu, (bx + bw) * ppu, (by + bh) * ppu),
                               obstacles=self._label_boxes(ppu)
                               + (self.keep_off(ppu) if self.keep_off is not None else []))
            if len(self._names) > 16:
                self._names.clear()
            self._names[key] = got
        return got

    def _label_boxes(self, ppu: float) -> list[tuple[float, float, float, float]]:
        """The map's own labels (seas, regions) in pixels, as LabelsLayer draws them: site
        names keep off them."""
        from PySide6.QtGui import QFont, QFontMetrics

        ppc = ppu * geo.cell_extent(self.gmap.grid)
        out = []
        for lb in self.gmap.labels:
            font = QFont()
            font.setPixelSize(int(label_px(lb.size, ppc)))
            font.setBold(True)
            fm = QFontMetrics(font)
            w, h = fm.horizontalAdvance(lb.text) / 2 + 2, fm.height() / 2
            out.append((lb.x * ppu - w, lb.y * ppu - h, lb.x * ppu + w, lb.y * ppu + h))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        self._index()
        if self._ids:
            self.paint_tiles(painter, option)

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        """Symbols (and names) reach past their cell by a fixed number of pixels: a region
        draws every site whose symbol or name can touch it."""
        self._index()
        ppc = ppu * geo.cell_extent(self.gmap.grid)
        names = ppc >= 14
        m = (SITE_REACH_PX if names else 20.0) / ppu
        r = rect.adjusted(-m, -m, m, m)
        p = self._pos
        vis = np.flatnonzero((p[:, 0] >= r.left()) & (p[:, 0] <= r.right())
                             & (p[:, 1] >= r.top()) & (p[:, 1] <= r.bottom()))
        if not len(vis):
            return False
        size = min(max(ppc * 0.35, 3.0), 12.0) / ppu  # symbol half-size in map units
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        outline = QPen(QColor(20, 20, 20), 0)
        for i in vis[:20000]:
            site = self.gmap.sites[self._ids[i]]
            x, y = float(p[i, 0]), float(p[i, 1])
            fill, shape = SITE_STYLE.get(site.kind.casefold(), (hash_colour(site.kind), "circle"))
            painter.setPen(outline if site.id != self._selected else QPen(QColor("#ffea00"), 3 / ppu))
            painter.setBrush(QBrush(QColor(fill)))
            _symbol(painter, shape, x, y, size)
        if names:  # after every marker: a name is never painted over by a neighbour's marker
            placed = self.name_offsets(ppu, size)
            ink = QColor(20, 20, 20)
            for i in vis[:20000]:
                at = placed.get(int(i))
                if at is not None:
                    site = self.gmap.sites[self._ids[i]]
                    screen_text(painter, ppu, float(p[i, 0]) + at[0] / ppu, float(p[i, 1]) + at[1] / ppu,
                                site.name, NAME_PX, ink)
        return True


def label_px(size: float, ppc: float) -> float:
    """A map label's pixel size at `ppc` pixels a cell."""
    return max(9.0, min(36.0, size * ppc * 0.4))


def _symbol(painter: QPainter, shape: str, x: float, y: float, s: float) -> None:
    if shape == "square":
        painter.drawRect(QRectF(x - s, y - s, 2 * s, 2 * s))
    elif shape == "diamond":
        painter.drawPolygon(QPolygonF([QPointF(x, y - s), QPointF(x + s, y), QPointF(x, y + s),
                                       QPointF(x - s, y)]))
    elif shape == "star":
        a = np.radians(-90 + 36 * np.arange(10))
        rad = np.where(np.arange(10) % 2 == 0, s * 1.3, s * 0.55)
        painter.drawPolygon(QPolygonF([QPointF(x + float(rr * np.cos(t)), y + float(rr * np.sin(t)))
                                       for rr, t in zip(rad, a, strict=True)]))
    else:
        painter.drawEllipse(QPointF(x, y), s, s)


class LabelsLayer(MapLayer):
    def changed(self) -> None:
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        ppu = _ppu(painter)
        ppc = ppu * geo.cell_extent(self.gmap.grid)
        m = 400 / ppu  # half the widest label
        vis = visible_area(painter, option).adjusted(-m, -m, m, m)
        for lb in self.gmap.labels:
            if not vis.contains(lb.x, lb.y):
                continue
            px = label_px(lb.size, ppc)
            screen_text(painter, ppu, lb.x, lb.y, lb.text, px, QColor(60, 30, 10), bold=True)


class CoordsLayer(MapLayer):
    """Each cell's name in the grid's notation, small and haloed so that a fitted small map
    (the King of Kings demo's 24x16 squares, the Conquest of Island hexes) shows them:
    every cell from FULL_PX pixels a cell, every other row and column of cells from MIN_PX
    (the labels of neighbours would touch), none below. Only visible cells are labelled, and
    at most MAX_LABELS a frame (every fourth row and column, else none), so big maps stay fast."""

    MIN_PX = 10.0
    FULL_PX = 18.0
    MAX_LABELS = 1500  # about what a 1280x800 view at 28 px a cell showed before

    def __init__(self, gmap: GameMap, z: float):
        super().__init__(gmap, z)
        self.notation: str | None = None
        self.skip = np.zeros(0, dtype=np.int64)  # cells never labelled (under the fog of war)

    def cells_to_label(self, ppc: float, left: float, top: float, right: float,
                       bottom: float) -> np.ndarray:
        """The cells labelled at `ppc` pixels a cell in the map rectangle given. Long labels
        on hexes (Atlantis `(26,22)`) need proportionally bigger cells before they show."""
        grid = self.gmap.grid
        if self.gmap.kind == "hex" and len(grid):  # a hex row leaves a label one cell's width
            chars = len(grid.label(len(grid) - 1, self.notation))
            if chars > 5:  # `10,12`, `0825` as before
                ppc = ppc * 3.0 / chars
        if ppc < self.MIN_PX:
            return np.zeros(0, dtype=np.int64)
        cells = np.asarray(geo.cells_in_rect(grid, left, top, right, bottom), dtype=np.int64)
        if len(self.skip):
            cells = cells[~np.isin(cells, self.skip)]
        width = geo.grid_size(grid)[0]
        # a view of small cells would show thousands: every other cell (every fourth) then
        stride = 1 if ppc >= self.FULL_PX else 2
        while stride <= 4:
            picked = cells if stride == 1 else \
                cells[(cells % width % stride == 0) & (cells // width % stride == 0)]
            if len(picked) <= self.MAX_LABELS:
                return picked
            stride *= 2
        return np.zeros(0, dtype=np.int64)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        ppu = _ppu(painter)
        ext = geo.cell_extent(self.gmap.grid)
        ppc = ppu * ext
        r = visible_area(painter, option)
        cells = self.cells_to_label(ppc, r.left(), r.top(), r.right(), r.bottom())
        if not len(cells):
            return
        c = geo.centers(self.gmap.grid, cells)
        # near the top of the cell, clear of the troops and sites in its middle
        dy = 0.55 * ext * (0.5 if self.gmap.kind != "hex" else 0.62)
        px = 7.0 if ppc < 24 else max(8.0, min(12.0, ppc / 4.5))
        colour = QColor(40, 40, 40)
        for cell, (x, y) in zip(cells, c, strict=True):
            text = self.gmap.grid.label(int(cell), self.notation)
            screen_text(painter, ppu, float(x), float(y) - dy, text, px, colour)


class CellsOverlay(MapLayer):
    """A set of cells highlighted: the selection, the brush under the cursor, a paste preview.

    Small sets are one cached path. Big ones (select all on 500x500) would make a path of
    a quarter million polygons, so they are drawn as a mask image when zoomed out and as
    the polygons of just the visible selected cells when zoomed in.
    """

    BIG = 3000

    def __init__(self, gmap: GameMap, z: float, colour: str, alpha: int = 60):
        super().__init__(gmap, z)
        c = QColor(colour)
        self.pen = QPen(c, 0)
        fill = QColor(c)
        fill.setAlpha(alpha)
        self.brush = QBrush(fill)
        self.cells = np.zeros(0, dtype=np.int64)
        self._path = QPainterPath()
        self._mask: np.ndarray | None = None
        self._mask_pixels: np.ndarray | None = None
        self._mask_image = None

    def set_cells(self, cells) -> None:
        cells = geo.unique_cells(list(cells) if not isinstance(cells, np.ndarray) else cells,
                                 len(self.gmap.grid))
        if np.array_equal(cells, self.cells):
            return
        old = self._path.boundingRect() if self._mask is None else self.boundingRect()
        self.cells = cells
        self._mask = self._mask_pixels = self._mask_image = None
        if len(cells) > self.BIG:
            self._path = QPainterPath()
            self._mask = np.zeros(len(self.gmap.grid), dtype=bool)
            self._mask[cells] = True
            self.update()
            return
        self._path = polygons_path(geo.polygons(self.gmap.grid, cells)) if len(cells) else QPainterPath()
        self.update(old.united(self._path.boundingRect()).adjusted(-1, -1, 1, 1))

    def _image(self):
        from PySide6.QtGui import QImage

        if self._mask_image is None:
            grid = self.gmap.grid
            px = np.zeros(geo.pixel_shape(grid), dtype=np.uint32)
            rows, cols = geo.pixel_index(grid, self.cells)
            px[rows, cols] = self.brush.color().rgba()
            self._mask_pixels = px  # the image shares this buffer
            h, w = px.shape
            self._mask_image = QImage(px.data, w, h, w * 4, QImage.Format.Format_ARGB32)
        return self._mask_image

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self._mask is not None:
            ppc = px_per_cell(option, painter, self.gmap.grid)
            r = visible_area(painter, option)
            vis = geo.cells_in_rect(self.gmap.grid, r.left(), r.top(), r.right(), r.bottom())
            if ppc < 8 or len(vis) > 40000:
                painter.drawImage(QRectF(*geo.pixel_rect(self.gmap.grid)), self._image())
                return
            path = polygons_path(geo.polygons(self.gmap.grid, vis[self._mask[vis]]))
        else:
            path = self._path
        if path.isEmpty():
            return
        painter.setPen(self.pen)
        painter.setBrush(self.brush)
        painter.drawPath(path)
