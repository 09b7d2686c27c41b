"""Named areas on the canvas: translucent fill and outline (from shapely) in tiles, the name
at the pole of inaccessibility drawn over them, biggest areas first where names fit."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas import geometry as geo
from app.canvas.palette import hash_colour, terrain_colour
from app.canvas.terrain import cells_rect, map_rect
from app.canvas.text import screen_text
from app.canvas.tiles import FrameBudget, TiledLayer, ppu_of, visible_area
from engine.map import GameMap
from engine.palette import is_water


def shapely_path(geom) -> QPainterPath:
    path = QPainterPath()
    polys = getattr(geom, "geoms", [geom])
    for poly in polys:
        if poly.is_empty:
            continue
        for ring in [poly.exterior, *poly.interiors]:
            xy = np.asarray(ring.coords)
            path.addPolygon(QPolygonF([QPointF(float(a), float(b)) for a, b in xy]))
    return path


def area_outline(gmap: GameMap, cells):
    """Same result as GameMap.area_outline, with the cell polygons built by numpy
    (an area of thousands of cells is redrawn while it is being painted)."""
    import shapely

    if not cells:
        return shapely.Polygon()
    polys = np.round(geo.polygons(gmap.grid, np.fromiter(sorted(cells), dtype=np.int64)), 6)
    return shapely.coverage_union_all(shapely.polygons(polys))


def label_point(outline) -> tuple[float, float]:
    from shapely.ops import polylabel

    if outline.is_empty:
        return (0.0, 0.0)
    if outline.geom_type != "Polygon":
        outline = max(getattr(outline, "geoms", [outline]), key=lambda g: g.area)
    p = polylabel(outline, tolerance=0.05)
    return (float(p.x), float(p.y))


class AreasLayer(TiledLayer):
    """Named areas: translucent fill, outline from shapely, name at the pole of inaccessibility.
    Fills and outlines come from tiles; the names are drawn over them at screen size."""

    def __init__(self, gmap: GameMap, z: float, budget: FrameBudget | None = None):
        super().__init__(map_rect(gmap, 2.0), budget)
        self.gmap = gmap
        self.setZValue(z)
        self._cache: dict[str, tuple[int, QPainterPath, tuple[float, float]]] = {}
        self._dirty: set[str] = set(gmap.areas)
        self._placed: tuple[float, list] | None = None
        self._selected: str | None = None
        self._drawn_list: list | None = None
        # region maps are drawn as regions: land and sea colours, or an owner's colour
        self.regions_mode = gmap.kind == "regions"
        self.fills: dict[str, str] = {}  # area -> owner colour
        self.display_names: dict[str, str] = {}  # area -> name given in play

    def set_fills(self, fills: dict[str, str], names: dict[str, str] | None = None) -> None:
        """Paint these areas in these colours (owners) and show these names instead."""
        names = dict(names or {})
        if fills == self.fills and names == self.display_names:
            return
        self.fills, self.display_names = dict(fills), names
        if hasattr(self, "_widths"):
            self._widths.clear()
        self._drawn_list = None
        self._placed = None
        self.drop_tiles()

    def shown_name(self, name: str) -> str:
        return self.display_names.get(name, name)

    @property
    def selected(self) -> str | None:
        return self._selected

    @selected.setter
    def selected(self, name: str | None) -> None:
        if name != self._selected:
            for n in (self._selected, name):  # their outlines change width
                if n in self._cache:
                    self.refresh(self._cache[n][1].boundingRect(), 3.0)  # half the widest line
            self._selected = name

    def changed(self, cells) -> None:
        cells = set(int(c) for c in cells)
        gone = [name for name in self._cache if name not in self.gmap.areas]
        for name, area in self.gmap.areas.items():
            cached = self._cache.get(name)
            if cached is None or cached[0] != len(area.cells) or not cells.isdisjoint(area.cells):
                self._dirty.add(name)
        rect = QRectF()
        for name in gone:
            rect = rect.united(self._cache.pop(name)[1].boundingRect())
        if cells:  # outlines change only around the changed cells
            rect = rect.united(cells_rect(self.gmap.grid, np.fromiter(cells, dtype=np.int64), 1.5))
        self._placed = None
        self._drawn_list = None
        if len(cells) > len(self.gmap.grid) // 2:
            self.drop_tiles()
        elif not rect.isEmpty():
            self.refresh(rect, 3.0)
        self.update()

    def entry(self, name: str) -> tuple[int, QPainterPath, tuple[float, float]]:
        if name in self._dirty or name not in self._cache:
            area = self.gmap.areas[name]
            outline = area_outline(self.gmap, area.cells)
            path = shapely_path(outline) if area.cells else QPainterPath()
            point = label_point(outline) if area.cells else (0.0, 0.0)
            if "label_x" in area.attrs:
                point = (float(area.attrs["label_x"]), float(area.attrs["label_y"]))
            self._cache[name] = (len(area.cells), path, point)
            self._dirty.discard(name)
            self._drawn_list = None
        return self._cache[name]

    def _outlines_ready(self) -> bool:
        """Compute outlines still missing while the frame's budget lasts (a map's hundreds
        of areas take a few hundred ms: they appear over the first frames, not in one)."""
        todo = [n for n in sorted(self.gmap.areas) if n in self._dirty or n not in self._cache]
        for k, name in enumerate(todo):
            # one-pass renders want all; a starved paint (tiles.py) computes one anyway
            if self.tiles_enabled and not self.budget.left() and not (self.starved and k == 0):
                self.starved = k == 0  # computed none this paint
                return False
            start = time.perf_counter()
            self.entry(name)
            self.budget.spend(start)  # outlines take building time from the tiles
        return True

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.gmap.areas:
            return
        if not self._outlines_ready():
            self.cache.paints += 1  # a paint that wants more (tiles.settle() waits for it)
            self._queue_refresh()
            return
        self.paint_tiles(painter, option)

    def paint_names(self, painter: QPainter, option) -> None:
        """The areas' names (drawn by AreaNamesLayer, above troops and sites' symbols)."""
        if not self.gmap.areas or not self.isVisible() or self._dirty or not self._cache:
            return
        ppu = ppu_of(painter)
        m = 150 / ppu  # half a label's width, at most
        vis = visible_area(painter, option).adjusted(-m, -m, m, m)
        ink, sea_ink = QColor(30, 20, 60), QColor(20, 50, 110)
        for name, (x, y) in self.placed_labels(ppu):
            if vis.contains(x, y):
                area = self.gmap.areas.get(name)
                sea = self.regions_mode and area is not None and is_water(area.kind)
                screen_text(painter, ppu, x, y, self.shown_name(name), 13,
                            sea_ink if sea else ink, bold=True)

    def _drawn(self) -> list[tuple[str, QPainterPath, QRectF, QColor, QColor]]:
        """(name, outline, its bounds, fill, line colour) of every area in drawing order,
        kept until an outline is recomputed (tiles draw from it many times a frame)."""
        if self._drawn_list is None:
            out = []
            for name in sorted(self.gmap.areas):
                _, path, _ = self.entry(name)
                if path.isEmpty():
                    continue
                if self.regions_mode:
                    fill, line = self._region_colours(name)
                else:
                    colour = QColor(hash_colour(name))
                    fill = QColor(colour)
                    fill.setAlpha(40)
                    line = colour.darker(160)
                out.append((name, path, path.boundingRect(), fill, line))
            self._drawn_list = out
        return self._drawn_list

    def _region_colours(self, name: str) -> tuple[QColor, QColor]:
        """A region's fill and border: its owner's colour over the land, else the colour of
        its kind ("realm": land, "sea": sea, or a terrain name); borders in a darker ink."""
        kind = self.gmap.areas[name].kind
        water = is_water(kind)
        base = QColor(terrain_colour("sea" if water else (kind or "land")))
        if kind.casefold() in ("realm", "region", "province", "land", ""):
            base = QColor(terrain_colour("land"))
        if name in self.fills and not water:
            owner = QColor(self.fills[name])
            # mostly the owner's colour, a little of the land's: readable names on top
            base = QColor(round(owner.red() * 0.8 + base.red() * 0.2),
                          round(owner.green() * 0.8 + base.green() * 0.2),
                          round(owner.blue() * 0.8 + base.blue() * 0.2))
        line = QColor("#2c5a8c") if water else QColor(45, 40, 35)
        return base, line

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        drew = False
        thin = 0.9 if self.regions_mode else 1.6
        for name, path, bounds, fill, line in self._drawn():
            if not bounds.intersects(rect):
                continue
            painter.setBrush(fill)
            width = 3.0 if name == self._selected else thin
            painter.setPen(QPen(line, width / ppu))
            painter.drawPath(path)
            drew = True
        return drew

    def placed_labels(self, ppu: float) -> list[tuple[str, tuple[float, float]]]:
        """Names that fit without overlapping, biggest areas first. Decided over all areas
        (not just the exposed part) so partial repaints agree with each other. Placed boxes
        are kept in buckets of the largest box's size, so each name is checked against its
        neighbours only (every zoom step places them all again)."""
        from PySide6.QtGui import QFontMetrics

        if self._placed is not None and self._placed[0] == ppu:
            return self._placed[1]
        if not hasattr(self, "_widths"):
            font = QFont()
            font.setPixelSize(13)
            font.setBold(True)
            self._fm = QFontMetrics(font)
            self._widths: dict[str, int] = {}
        fm, widths = self._fm, self._widths
        order = sorted(self.gmap.areas.values(), key=lambda a: (-len(a.cells), a.name))
        for area in order:
            if area.name not in widths:
                widths[area.name] = fm.horizontalAdvance(self.shown_name(area.name)) + 6
        h = (fm.height() + 2) / ppu
        bx, by, bw, bh = geo.map_bounds(self.gmap.grid)
        side = max([widths[a.name] / ppu for a in order] + [h])
        buckets: dict[tuple[int, int], list[QRectF]] = {}
        out = []
        for area in order:
            n, _, (x, y) = self.entry(area.name)
            if not n:
                continue
            w = widths[area.name] / ppu
            # never clipped at the map's edge: slide the name inside the map
            x = min(max(x, bx + w / 2), bx + bw - w / 2) if w < bw else bx + bw / 2
            y = min(max(y, by + h / 2), by + bh - h / 2) if h < bh else by + bh / 2
            box = QRectF(x - w / 2, y - h / 2, w, h)
            keys = [(bx, by) for bx in range(int((x - w / 2) // side), int((x + w / 2) // side) + 1)
                    for by in range(int((y - h / 2) // side), int((y + h / 2) // side) + 1)]
            if any(box.intersects(t) for k in keys for t in buckets.get(k, ())):
                continue
            for k in keys:
                buckets.setdefault(k, []).append(box)
            out.append((area.name, (x, y)))
        self._placed = (ppu, out)
        return out


class AreaNamesLayer(QGraphicsItem):
    """The names of an AreasLayer, as their own item so they sit above troops and sites."""

    def __init__(self, areas: AreasLayer, z: float):
        super().__init__()
        self.areas = areas
        self.setZValue(z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self.areas.boundingRect()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        self.areas.paint_names(painter, option)
