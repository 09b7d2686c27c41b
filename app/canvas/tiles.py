"""Screen tiles for map layers, as map viewers keep them: built a few per frame, reused while
panning, evicted least-recently-used within one memory budget.

A tile is a TILE x TILE pixel square of a layer drawn at one zoom (pixels per map unit):
tile (i, j) at zoom s covers device pixels [i*TILE, (i+1)*TILE) of the map scaled by s, so
tiles never overlap (translucent layers blend once) and each is blitted 1:1. A tile draws
everything of its layer that touches its square, clipped to it, so there are no seams.

Frames stay short: a paint builds missing tiles only until the frame's building budget is
spent (FrameBudget, reset when the scene starts drawing a frame); a tile it cannot build
yet is drawn from the layer's tiles at another zoom (scaled) or its coarse stand-in (the
terrain's one-pixel-per-cell image), and a repaint is queued so the rest is built in the
event loop's idle turns. settle() waits for that when a complete picture is needed. A
layer whose paint built nothing it lacked (items below it spent the frame's budget) builds
one tile in its next paint whatever the budget says: else a map whose other items always
take the budget would repaint forever and never show that layer.
"""

from __future__ import annotations

import math
import time
import weakref
from collections import OrderedDict

from PySide6.QtCore import QPoint, QRectF, Qt, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

TILE = 256  # pixels a side
BUILD_MS = 5.0  # tile building per frame; the rest waits for idle time
LAYER_SHARE = 0.4  # of it, the most one layer may take
CACHE_BYTES = 40 * 2**20  # all tiles of all layers of all open maps
EMPTY = None  # a tile with nothing on it: remembered, never blitted


class FrameBudget:
    """Time for building tiles in the frame being drawn: what the tiled layers spent
    building this frame, not the time since the frame began. Layers without tiles
    (ownership, coordinates, troop badges) are painted between the tiled ones; counted in,
    they used up the frame before the sites layer above them was reached, on every frame,
    so the viewer's and console's maps never showed a site."""

    def __init__(self, ms: float = BUILD_MS, unlimited: bool = False):
        self.ms = ms
        self.spent = 0.0  # seconds of building in this frame
        self.unlimited = unlimited  # items outside a MapScene: nobody starts their frames

    def begin(self) -> None:
        self.spent = 0.0
        CACHE.frame += 1

    def left(self, since: float | None = None) -> bool:
        """Building time left in this frame; with since (when the asking layer started
        building, not yet spent), that too counts, and the layer stays within its share,
        so the first layer drawn cannot starve the others."""
        if self.unlimited:
            return True
        mine = time.perf_counter() - since if since is not None else 0.0
        return self.spent + mine < self.ms / 1000 and mine < self.ms * LAYER_SHARE / 1000

    def spend(self, since: float) -> None:
        """Count the building done since `since` (a perf_counter time) against this frame."""
        self.spent += time.perf_counter() - since


class TileCache:
    """Least-recently-used tiles of every layer, bounded in bytes. Layers are held by weak
    references, so a closed map's tiles go with its layers."""

    def __init__(self, max_bytes: int = CACHE_BYTES):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._lru: OrderedDict[tuple, tuple[int, int]] = OrderedDict()  # key -> (bytes, frame)
        self.frame = 0  # frames begun; what the current frame shows is never evicted
        self.pending: set[weakref.ref] = set()  # layers still waiting for tiles
        self.paints = 0  # tiled paints so far (settle() stops when nothing repaints)

    def touch(self, key: tuple) -> None:
        self._lru[key] = (self._lru[key][0], self.frame)
        self._lru.move_to_end(key)

    def added(self, key: tuple, size: int) -> None:
        self._lru[key] = (size, self.frame)
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._lru) > 1:
            oldest = next(iter(self._lru))
            if self._lru[oldest][1] == self.frame:
                break  # a screen needs more than the budget: keep it whole
            (ref, scale, i, j), (n, _) = self._lru.popitem(last=False)
            self.bytes -= n
            layer = ref()
            if layer is not None:
                layer.forget(scale, i, j)

    def removed(self, key: tuple) -> None:
        self.bytes -= self._lru.pop(key, (0, 0))[0]

    def purge(self, ref: weakref.ref) -> None:
        """Forget every tile of one layer (it is gone or released)."""
        for key in [k for k in self._lru if k[0] is ref]:
            self.bytes -= self._lru.pop(key)[0]
        self.pending.discard(ref)


CACHE = TileCache()


def settle(app, timeout_s: float = 10.0) -> None:
    """Run the event loop until every layer has all the tiles its last paint wanted."""
    end = time.perf_counter() + timeout_s
    app.processEvents()
    while CACHE.pending and time.perf_counter() < end:
        before = CACHE.paints
        app.processEvents()
        if CACHE.paints == before:  # nothing on screen wants them (hidden view)
            app.processEvents()
            if CACHE.paints == before:
                return


def ppu_of(painter: QPainter) -> float:
    """Device pixels per map unit of the painter's current transform."""
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def tile_range(rect: QRectF, s: float) -> tuple[int, int, int, int]:
    """Inclusive-exclusive (i0, i1, j0, j1) of the tiles at zoom s touching a map rectangle."""
    return (math.floor(rect.left() * s / TILE), math.floor(rect.right() * s / TILE) + 1,
            math.floor(rect.top() * s / TILE), math.floor(rect.bottom() * s / TILE) + 1)


def tile_rect(s: float, i: int, j: int) -> QRectF:
    return QRectF(i * TILE / s, j * TILE / s, TILE / s, TILE / s)


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


class TiledLayer(QGraphicsItem):
    """A map layer drawn from tiles. Subclasses implement draw_region (everything touching a
    map rectangle, at pixels-per-unit ppu) and may implement coarse (a cheap stand-in)."""

    def __init__(self, bounds: QRectF, budget: FrameBudget | None = None,
                 cache: TileCache = CACHE):
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._bounds = bounds
        self.budget = budget or FrameBudget(unlimited=True)
        self.cache = cache
        self.ref = weakref.ref(self, cache.purge)
        self._tiles: dict[float, dict[tuple[int, int], QImage | None]] = {}
        self.tiles_enabled = True  # off for one-pass renders (PNG export) where tiles are waste
        self._refresh_queued = False
        self.starved = False  # the last paint lacked tiles and built none: the next builds one

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    # ---- what subclasses draw -------------------------------------------------------------

    def draw_region(self, painter: QPainter, rect: QRectF, ppu: float) -> bool:
        """Draw what touches rect; False if there was nothing to draw."""
        raise NotImplementedError

    def coarse(self, painter: QPainter, rect: QRectF) -> None:
        """Stand-in for a tile not built yet (none by default)."""

    # ---- cache bookkeeping ----------------------------------------------------------------

    def forget(self, scale: float, i: int, j: int) -> None:
        tiles = self._tiles.get(scale)
        if tiles is not None:
            tiles.pop((i, j), None)
            if not tiles:
                del self._tiles[scale]

    def drop_tiles(self) -> None:
        """Forget every tile of this layer (its look changed everywhere)."""
        self.cache.purge(self.ref)
        self._tiles.clear()
        self.update()

    def tile_count(self) -> int:
        return sum(len(t) for t in self._tiles.values())

    def refresh(self, rect: QRectF, pad_px: float = 0.0) -> None:
        """Redraw the part of the cached tiles inside rect (an edit there), and repaint it.
        pad_px: how far in screen pixels what is drawn reaches beyond rect (symbols and
        names of a fixed screen size). Tiles at other zooms than the newest are dropped
        where they touch it."""
        newest = next(reversed(self._tiles), None) if self._tiles else None
        for scale in list(self._tiles):
            m = pad_px / scale
            part = rect.adjusted(-m, -m, m, m)
            i0, i1, j0, j1 = tile_range(part, scale)
            tiles = self._tiles[scale]
            for key in [k for k in tiles if i0 <= k[0] < i1 and j0 <= k[1] < j1]:
                if scale == newest:
                    self._redraw_part(scale, key, part)
                else:
                    self.cache.removed((self.ref, scale, *key))
                    del tiles[key]
            if not tiles:
                del self._tiles[scale]
        if pad_px:
            self.update()  # how far pad_px reaches depends on each view's zoom
        else:
            self.update(rect)

    def _redraw_part(self, scale: float, key: tuple[int, int], rect: QRectF) -> None:
        tiles = self._tiles[scale]
        image = tiles[key]
        if image is None:  # was empty: build it whole (it may stay empty)
            self.cache.removed((self.ref, scale, *key))
            del tiles[key]
            self._build_tile(scale, *key)
            return
        trect = tile_rect(scale, *key)
        part = rect.intersected(trect)
        p = QPainter(image)
        p.scale(scale, scale)
        p.translate(-trect.left(), -trect.top())
        p.setClipRect(part)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        p.fillRect(part, Qt.GlobalColor.transparent)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        self.draw_region(p, part, scale)
        p.end()

    def _build_tile(self, scale: float, i: int, j: int) -> QImage | None:
        rect = tile_rect(scale, i, j)
        image = QImage(TILE, TILE, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        p = QPainter(image)
        p.scale(scale, scale)
        p.translate(-rect.left(), -rect.top())
        drew = self.draw_region(p, rect, scale)
        p.end()
        got = image if drew else EMPTY
        self._tiles.setdefault(scale, {})[(i, j)] = got
        self.cache.added((self.ref, scale, i, j), image.sizeInBytes() if drew else 64)
        return got

    # ---- painting ----------------------------------------------------------------------------

    def paint_tiles(self, painter: QPainter, option) -> None:
        """Draw the visible area from tiles (building what the frame's budget allows)."""
        t = painter.worldTransform()
        area = visible_area(painter, option)
        s = round(t.m11(), 9)
        if not self.tiles_enabled or abs(t.m12()) > 1e-9 or abs(t.m21()) > 1e-9 \
                or abs(t.m22() - t.m11()) > 1e-9 * t.m11() or area.isEmpty():
            self.draw_region(painter, area, t.m11())
            return
        self.cache.paints += 1
        tiles = self._tiles.pop(s, None)
        if tiles is None:
            tiles = {}
        self._tiles[s] = tiles  # newest zoom last (refresh and fallbacks rely on the order)
        i0, i1, j0, j1 = tile_range(area, s)
        ci, cj = (i0 + i1) / 2, (j0 + j1) / 2
        keys = sorted(((i, j) for j in range(j0, j1) for i in range(i0, i1)),
                      key=lambda k: (k[0] - ci) ** 2 + (k[1] - cj) ** 2)  # centre first
        ready: list[tuple[int, int, QImage]] = []
        missing: list[tuple[int, int]] = []
        start = time.perf_counter()
        built = 0
        for i, j in keys:
            if (i, j) in tiles:
                image = tiles[(i, j)]
                self.cache.touch((self.ref, s, i, j))
            elif self.budget.left(start) or (self.starved and not built):
                image = self._build_tile(s, i, j)
                built += 1
            else:
                missing.append((i, j))
                continue
            if image is not None:
                ready.append((i, j, image))
        self.budget.spend(start)
        self.starved = bool(missing) and not built
        if missing:
            self._stand_in(painter, s, missing)
            self._queue_refresh()
        else:
            self.cache.pending.discard(self.ref)
        if not tiles:
            del self._tiles[s]
        # blit 1:1 at whole device pixels
        dx, dy = t.dx(), t.dy()
        painter.save()
        painter.resetTransform()
        for i, j, image in ready:
            painter.drawImage(QPoint(round(i * TILE + dx), round(j * TILE + dy)), image)
        painter.restore()

    def _stand_in(self, painter: QPainter, s: float, missing: list[tuple[int, int]]) -> None:
        """Tiles not built yet: the layer's tiles at the nearest other zoom, scaled, over its
        coarse stand-in."""
        rects = [tile_rect(s, i, j) for i, j in missing]
        for r in rects:
            self.coarse(painter, r)
        others = [z for z in self._tiles if z != s and 0.25 <= z / s <= 4.0]
        if not others:
            return
        z = min(others, key=lambda z: abs(math.log(z / s)))
        tiles = self._tiles[z]
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        for r in rects:
            i0, i1, j0, j1 = tile_range(r, z)
            for j in range(j0, j1):
                for i in range(i0, i1):
                    image = tiles.get((i, j))
                    if image is None:
                        continue
                    src = tile_rect(z, i, j)
                    part = src.intersected(r)
                    if part.isEmpty():
                        continue
                    painter.drawImage(part, image, QRectF(
                        (part.left() - src.left()) * z, (part.top() - src.top()) * z,
                        part.width() * z, part.height() * z))

    def _queue_refresh(self) -> None:
        self.cache.pending.add(self.ref)
        if not self._refresh_queued:
            self._refresh_queued = True
            QTimer.singleShot(0, self._idle_refresh)

    def _idle_refresh(self) -> None:
        self._refresh_queued = False
        try:
            scene = self.scene()
            # only a view on screen will paint it: a hidden workspace's map must not stay
            # pending forever (settle() would wait on it)
            if scene is not None and self.isVisible() and any(v.isVisible() for v in scene.views()):
                self.update()
                return
        except RuntimeError:  # the item was deleted with its scene
            pass
        self.cache.pending.discard(self.ref)
