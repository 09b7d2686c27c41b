"""The political map on the canvas: who holds what, and the troops standing there.

OwnershipLayer tints each faction's cells and strokes the outline of its territory (two
pens: a dark edge under the faction's colour, so it reads on sea, forest and desert
alike). On region maps ownership is the regions' own fill (AreasLayer.set_fills), so a
realm is painted in its owner's colour like a printed map.

StacksLayer draws a badge per faction per place: the faction's colour, the count, and the
troop kinds ("2K 1S") once there is room. Badges keep a fixed screen size and sit above a
cell's site symbol and below a region's name, so they never hide a site or a label; sites
and labels are drawn above them too.

PoliticalView wires both (and the names given in play) to a scene from an
engine.political.PoliticalMap; the console, the viewer and the PNG export use it.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen

from app.canvas import geometry as geo
from app.canvas.overlays import MapLayer, screen_text
from app.canvas.paths import polygons_path
from app.canvas.tiles import ppu_of, visible_area
from engine.map import GameMap
from engine.political import PoliticalMap, kind_abbreviations
from engine.viewer_model import grid_cells

BADGE_PX = 11  # badge text size, pixels
SITE_CLEAR_PX = 14  # a site symbol's half-height plus a gap: badges go above it


def board_point(gmap: GameMap, cell: int, areas=None) -> tuple[float, float]:
    """Where to draw things for a board cell: the cell centre, or a region's label point
    (the areas layer's, when given: it is cached there)."""
    if gmap.kind == "regions":
        name = gmap.regions().label(cell)
        if areas is not None and name in gmap.areas:
            return areas.entry(name)[2]
        return gmap.area_label_point(name)
    c = geo.centers(gmap.grid, np.array([cell]))[0]
    return float(c[0]), float(c[1])


class OwnershipLayer(MapLayer):
    """Owned cells of a grid map: a strong tint and the territory's outline, per faction."""

    def __init__(self, gmap: GameMap, z: float = 1.6):
        super().__init__(gmap, z)
        self.paths: list[tuple[QColor, QPainterPath]] = []

    def set_owners(self, owners: dict[int, str]) -> None:
        """owners: board cell -> colour."""
        by_colour: dict[str, list[int]] = {}
        for cell, colour in owners.items():
            by_colour.setdefault(colour, []).extend(grid_cells(self.gmap, cell))
        self.paths = []
        for colour, cells in sorted(by_colour.items()):
            polys = geo.polygons(self.gmap.grid, np.asarray(sorted(cells), dtype=np.int64))
            # simplified: one outline around the territory, not the grid of its cells
            self.paths.append((QColor(colour), polygons_path(polys).simplified()))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.paths:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for colour, path in self.paths:
            fill = QColor(colour)
            fill.setAlpha(120)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawPath(path)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for colour, path in self.paths:
            under = QPen(QColor(20, 20, 20, 200), 4.5)
            under.setCosmetic(True)
            painter.setPen(under)
            painter.drawPath(path)
            top = QPen(colour.lighter(115), 2.5)
            top.setCosmetic(True)
            painter.setPen(top)
            painter.drawPath(path)


class Badge:
    __slots__ = ("colour", "count", "kinds", "own", "x", "y")

    def __init__(self, x: float, y: float, colour: QColor, count: int, kinds: str, own: bool):
        self.x, self.y, self.colour, self.count, self.kinds, self.own = x, y, colour, count, kinds, own


class StacksLayer(MapLayer):
    """Troops: one badge per faction per place, in the faction's colour, with the count and
    (when it fits) the kinds. Fixed screen size; lifted above site symbols; detail by zoom:
    a dot far out, the count nearer, the kinds close up."""

    def __init__(self, gmap: GameMap, z: float = 4.8):
        super().__init__(gmap, z)
        self.groups: list[tuple[float, float, bool, list[Badge]]] = []  # x, y, lift, badges
        fnt = QFont()
        fnt.setPixelSize(BADGE_PX)
        fnt.setBold(True)
        self._fm = QFontMetrics(fnt)
        site_font = QFont()
        site_font.setPixelSize(11)
        self._site_fm = QFontMetrics(site_font)

    def set_stacks(self, by_cell: dict[int, list[tuple[str, int, str, bool]]], areas=None) -> None:
        """by_cell: board cell -> [(colour, count, kinds text, own)], one per faction there."""
        site_cells = {s.cell for s in self.gmap.sites.values()}
        groups = []
        for cell in sorted(by_cell):
            x, y = board_point(self.gmap, cell, areas)
            lift = self.gmap.kind != "regions" and cell in site_cells
            groups.append((x, y, lift, [Badge(x, y, QColor(c), n, k, own)
                                        for c, n, k, own in by_cell[cell]]))
        self.groups = groups
        self.update()

    def badge_text(self, b: Badge, detail: int) -> str:
        if b.kinds and (detail >= 3 or (detail == 2 and " " not in b.kinds)):
            return b.kinds
        return str(b.count)

    def detail(self, ppu: float) -> int:
        """0: a dot per faction; 1: counts; 2: also the kind where there is one ("3H");
        3: every kind ("2F 1H")."""
        if self.gmap.kind == "regions":
            return 3 if ppu >= 7 else 2 if ppu >= 2.5 else 0
        ppc = ppu * geo.cell_extent(self.gmap.grid)
        return 3 if ppc >= 56 else 2 if ppc >= 28 else 1 if ppc >= 12 else 0

    def layout(self, transform, detail: int, area: QRectF | None = None,
               keep_clear: list[QRectF] | None = None) -> list[tuple[QRectF, Badge, str]]:
        """Each badge's rectangle in device pixels (and its text) under `transform`; badges
        that would cover one of the `keep_clear` rectangles move up or down a row."""
        fm = self._fm
        h = fm.height() + 2
        out = []
        for x, y, lift, badges in self.groups:
            if area is not None and not area.contains(x, y):
                continue
            at = transform.map(QPointF(x, y))
            if detail == 0:  # far out: a dot per faction
                r = 3.5
                cy = at.y() - (6 if lift else 0) + (8 if self.gmap.kind == "regions" else 0)
                x0 = at.x() - len(badges) * r
                out += [(QRectF(x0 + i * 2 * r, cy - r, 2 * r, 2 * r), b, "")
                        for i, b in enumerate(badges)]
                continue
            texts = [self.badge_text(b, detail) for b in badges]
            widths = [max(h, fm.horizontalAdvance(t) + 8) for t in texts]
            total = sum(widths) + 2 * (len(widths) - 1)
            if self.gmap.kind == "regions":
                top = at.y() + 9  # below the region's name
            elif lift:
                top = at.y() - SITE_CLEAR_PX - h  # above the site symbol
            else:
                top = at.y() - h / 2
            left = at.x() - total / 2
            if keep_clear is not None:  # slide off site symbols and names
                top = _clear_spot(QRectF(left, top, total, h), keep_clear, h)
            for b, t, w in zip(badges, texts, widths, strict=True):
                out.append((QRectF(round(left), round(top), w, h), b, t))
                left += w + 2
        return out

    def site_rects(self, transform, ppu: float, area: QRectF | None = None) -> list[QRectF]:
        """Device rectangles of site symbols and names (as SitesLayer draws them): troop
        badges keep off them."""
        ppc = ppu * geo.cell_extent(self.gmap.grid)
        size = min(max(ppc * 0.35, 3.0), 12.0)
        fm = self._site_fm
        out: list[QRectF] = []
        sites = list(self.gmap.sites.values())
        if self.gmap.kind == "regions" or not sites:
            return out
        layer = getattr(self.scene(), "sites", None)
        if layer is not None and hasattr(layer, "name_offsets"):  # the names where they are drawn
            layer._index()
            placed = layer.name_offsets(ppu, size / ppu) if ppc >= 14 else {}
            for k, sid in enumerate(layer._ids):
                x, y = (float(v) for v in layer._pos[k])
                if area is not None and not area.contains(x, y):
                    continue
                at = transform.map(QPointF(x, y))
                out.append(QRectF(at.x() - size - 1, at.y() - size - 1, 2 * size + 2, 2 * size + 2))
                if k in placed:
                    w = fm.horizontalAdvance(self.gmap.sites[sid].name) + 6
                    dx, dy = placed[k]
                    out.append(QRectF(at.x() + dx - w / 2, at.y() + dy - fm.height() / 2 - 1, w,
                                      fm.height() + 2))
            return out
        pts = geo.centers(self.gmap.grid, np.array([st.cell for st in sites], dtype=np.int64))
        for site, (x, y) in zip(sites, pts.tolist(), strict=True):
            if area is not None and not area.contains(x, y):
                continue
            at = transform.map(QPointF(x, y))
            out.append(QRectF(at.x() - size - 1, at.y() - size - 1, 2 * size + 2, 2 * size + 2))
            if site.name and ppc >= 14:
                w = fm.horizontalAdvance(site.name) + 6
                out.append(QRectF(at.x() - w / 2, at.y() + size + 7 - fm.height() / 2 - 1, w,
                                  fm.height() + 2))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.groups:
            return
        ppu = max(ppu_of(painter), 1e-6)
        m = 80 / ppu
        vis = visible_area(painter, option).adjusted(-m, -m, m, m)
        t = painter.worldTransform()
        detail = self.detail(ppu)
        clear = self.site_rects(t, ppu, vis) if detail and self.gmap.sites else None
        rects = self.layout(t, detail, vis, clear)
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        font = QFont()
        font.setPixelSize(BADGE_PX)
        font.setBold(True)
        painter.setFont(font)
        for r, b, text in rects:
            painter.setPen(QPen(QColor("#ffffff") if b.own else QColor("#151515"), 1.2 if text else 1))
            painter.setBrush(b.colour)
            if not text:
                painter.drawEllipse(r)
                continue
            painter.drawRoundedRect(r, 4, 4)
            painter.setPen(_ink(b.colour))
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


def _clear_spot(box: QRectF, rects: list[QRectF], h: float) -> float:
    """The top of `box` moved the least number of rows (up first) so it covers none of
    `rects`; where every try covers something, the first place."""
    near = [r for r in rects if r.intersects(box.adjusted(0, -3 * h, 0, 3 * h))]
    for dy in (0, -(h + 2), h + 2, -2 * (h + 2), 2 * (h + 2)):
        b = box.translated(0, dy)
        if not any(b.intersects(r) for r in near):
            return box.top() + dy
    return box.top()


def _ink(colour: QColor) -> QColor:
    """Black or white, whichever reads on the colour."""
    lum = 0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue()
    return QColor("#111111") if lum > 150 else QColor("#ffffff")


class NamesLayer(MapLayer):
    """Names given in play (King of Kings NAME orders) on grid maps, under the cell centre;
    a site already showing the same name is not labelled twice. On region maps names
    given in play replace the region's name in the areas layer."""

    def __init__(self, gmap: GameMap, z: float = 6.2):
        super().__init__(gmap, z)
        self.names: list[tuple[float, float, str]] = []

    def set_names(self, names: dict[int, str]) -> None:
        shown = {(s.cell, s.name.casefold()) for s in self.gmap.sites.values() if s.name}
        out = []
        for cell, name in sorted(names.items()):
            if (cell, name.casefold()) in shown:
                continue
            x, y = board_point(self.gmap, cell)
            out.append((x, y, name))
        self.names = out
        self.update()

    def boxes(self, ppu: float) -> list[tuple[float, float, float, float]]:
        """The names' boxes in pixels at this zoom (SitesLayer keeps site names off them)."""
        ext = geo.cell_extent(self.gmap.grid)
        font = QFont()
        font.setPixelSize(11)
        font.setBold(True)
        fm = QFontMetrics(font)
        out = []
        for x, y, name in self.names:
            cx, cy = x * ppu, (y + 0.3 * ext) * ppu + 8
            w, h = fm.horizontalAdvance(name) / 2 + 2, fm.height() / 2
            out.append((cx - w, cy - h, cx + w, cy + h))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.names:
            return
        ppu = max(ppu_of(painter), 1e-6)
        ext = geo.cell_extent(self.gmap.grid)
        if ppu * ext < 14:
            return
        vis = visible_area(painter, option).adjusted(-ext, -ext, ext, ext)
        for x, y, name in self.names:
            if vis.contains(x, y):
                screen_text(painter, ppu, x, y + 0.3 * ext + 8 / ppu, name, 11,
                            QColor(70, 20, 10), bold=True)


class PoliticalView:
    """Ownership, troops and names of a PoliticalMap on one MapScene."""

    def __init__(self, scene, own_faction: int | None = None):
        self.scene = scene
        gmap = scene.gmap
        self.own = own_faction
        self.ownership = OwnershipLayer(gmap)
        self.stacks = StacksLayer(gmap)
        self.names = NamesLayer(gmap)
        for item in (self.ownership, self.stacks, self.names):
            scene.addItem(item)
        self.model: PoliticalMap | None = None

    def show(self, pm: PoliticalMap, stacks: dict[int, list[tuple[str, int, str, bool]]] | None = None) -> None:
        """Draw pm (stacks: the badges to draw instead of pm's, e.g. a viewer's last-seen ones)."""
        self.model = pm
        gmap = self.scene.gmap
        colours = {c: pm.colour(o) for c, o in pm.owners.items()}
        if gmap.kind == "regions":
            board = gmap.regions()
            self.scene.areas.set_fills({board.label(c): col for c, col in colours.items()},
                                       {board.label(c): n for c, n in pm.names.items()})
            self.ownership.set_owners({})
        else:
            self.ownership.set_owners(colours)
            before = self.names.names
            self.names.set_names(pm.names)
            sites = getattr(self.scene, "sites", None)
            if sites is not None and (self.names.names or before) and self.names.names != before:
                sites.keep_off = self.names.boxes if self.names.names else None
                sites.changed()  # site names make room for the names given in play
        self.stacks.set_stacks(stacks if stacks is not None else self.badges(pm), self.scene.areas)

    def badges(self, pm: PoliticalMap) -> dict[int, list[tuple[str, int, str, bool]]]:
        abbr = kind_abbreviations([s.kind for s in pm.stacks])
        out: dict[int, list[tuple[str, int, str, bool]]] = {}
        for cell, stacks in pm.stacks_by_cell().items():
            by_owner: dict[int, list] = {}
            for s in stacks:
                by_owner.setdefault(s.owner, []).append(s)
            out[cell] = [(pm.colour(o), sum(s.count for s in ss),
                          " ".join(f"{s.count}{abbr[s.kind]}" for s in ss), o == self.own)
                         for o, ss in sorted(by_owner.items())]
        return out

    def remove(self) -> None:
        for item in (self.ownership, self.stacks, self.names):
            if item.scene() is not None:
                item.scene().removeItem(item)


def legend_entries(pm: PoliticalMap) -> list[tuple[str, str]]:
    """(colour, text) for the legend: each side with what it holds."""
    held: dict[int, int] = {}
    for o in pm.owners.values():
        held[o] = held.get(o, 0) + 1
    troops: dict[int, int] = {}
    for s in pm.stacks:
        troops[s.owner] = troops.get(s.owner, 0) + s.count
    if not pm.stacks:  # a map without troops (Continental Conquest keeps convoys off it)
        return [(s.colour, f"{s.name} ({held.get(s.number, 0)} held)") for s in pm.sides]
    return [(s.colour, f"{s.name} ({held.get(s.number, 0)} held, {troops.get(s.number, 0)} troops)")
            for s in pm.sides]


def kinds_legend(pm: PoliticalMap) -> str:
    """'B Bowmen, F Foot Soldiers, H Horsemen': the troop symbols the badges use."""
    abbr = kind_abbreviations([s.kind for s in pm.stacks])
    return ", ".join(f"{a} {pm.kind_names.get(k, k)}" for k, a in sorted(abbr.items(), key=lambda kv: kv[1])
                     if a != pm.kind_names.get(k, k))


def legend_html(pm: PoliticalMap, changed: bool = True) -> str:
    """The map's legend as one line of rich text: each side's colour, name, what it holds;
    the troop symbols; the changed-cells mark. Names are escaped (players choose them)."""
    from html import escape

    parts = [f"<span style='color:{c}'>■</span> {escape(t)}" for c, t in legend_entries(pm)]
    kinds = kinds_legend(pm)
    if kinds:
        parts.append(f"troops: {escape(kinds)}")
    if changed:
        parts.append("<span style='color:#e0b800'>□</span> changed this turn")
    return "&nbsp;&nbsp; ".join(parts)
