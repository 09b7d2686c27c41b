"""Offscreen map images: render_map_image() for a QImage, export_png() for files of any size.

export_png renders strips of at most `tile` pixels and streams them into one PNG with
zlib, so a 500x500 hex map at 8 px per unit (6000x6900 px) never needs the whole image
in memory at once. Used by `realmsmith map export --png` and the File > Export menu.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

from engine.map import GameMap
from engine.ruleset import faction_step_title


def ensure_app():
    """A QApplication (offscreen if there is no display) for command-line rendering;
    QGraphicsScene needs the widgets application, a QGuiApplication is not enough."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication([])
    return app


def _scene(gmap: GameMap, layers: set[str] | None):
    from app.canvas.scene import MapScene

    scene = MapScene(gmap)
    scene.set_layers(layers)
    scene.set_tiles_enabled(False)
    return scene


def _image_size(gmap: GameMap, scale: float) -> tuple[int, int]:
    from app.canvas.geometry import map_bounds

    _, _, w, h = map_bounds(gmap.grid)
    return max(1, round(w * scale)), max(1, round(h * scale))


def render_map_image(gmap: GameMap, scale: float, layers: set[str] | None = None):
    """The whole map as a QImage at `scale` pixels per map unit (a square cell is 1 unit,
    a hex has circumradius 1). layers: names from app.canvas.scene.LAYERS; None = defaults."""
    ensure_app()
    from PySide6.QtGui import QImage

    w, h = _image_size(gmap, scale)
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    scene = _scene(gmap, layers)
    try:
        _render_rows(scene, gmap, scale, img, 0, h)
    finally:
        scene.detach()
    return img


def _render_rows(scene, gmap: GameMap, scale: float, img, y0: int, rows: int) -> None:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QPainter

    from app.canvas.geometry import map_bounds

    bx, by, _, _ = map_bounds(gmap.grid)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    try:
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        w = img.width()
        source = QRectF(bx, by + y0 / scale, w / scale, rows / scale)
        scene.render(p, QRectF(0, 0, w, rows), source, Qt.AspectRatioMode.IgnoreAspectRatio)
    finally:
        p.end()


def export_png(gmap: GameMap, path: str | Path, scale: float = 8.0, tile: int = 4096,
               layers: set[str] | None = None) -> None:
    """Write the whole map as a PNG, rendered in strips of `tile` rows (bounded memory)."""
    ensure_app()
    import numpy as np
    from PySide6.QtGui import QImage

    path = Path(path)
    w, h = _image_size(gmap, scale)
    scene = _scene(gmap, layers)
    tmp = path.with_name(path.name + ".part")
    try:
        with open(tmp, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            _chunk(f, b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            z = zlib.compressobj(4)
            strip = QImage(w, min(tile, h), QImage.Format.Format_RGBA8888)
            for y0 in range(0, h, tile):
                rows = min(tile, h - y0)
                if rows != strip.height():
                    strip = QImage(w, rows, QImage.Format.Format_RGBA8888)
                _render_rows(scene, gmap, scale, strip, y0, rows)
                buf = np.frombuffer(strip.constBits(), dtype=np.uint8)
                buf = buf.reshape(rows, strip.bytesPerLine())[:, : w * 4]
                for r0 in range(0, rows, 256):  # small blocks: no full-strip copies
                    block = buf[r0:r0 + 256]
                    raw = np.empty((len(block), w * 4 + 1), dtype=np.uint8)
                    raw[:, 0] = 0  # PNG filter: none
                    raw[:, 1:] = block
                    data = z.compress(raw.tobytes())
                    if data:
                        _chunk(f, b"IDAT", data)
            _chunk(f, b"IDAT", z.flush())
            _chunk(f, b"IEND", b"")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
        scene.detach()


def _chunk(f, kind: bytes, data: bytes) -> None:
    f.write(struct.pack(">I", len(data)) + kind + data)
    f.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


# ---- the political map of a turn -------------------------------------------------------------

POLITICAL_WIDTH = 1600  # pixels: readable on a forum, small enough for mail


def render_political(ruleset, scenario, state, step: int, width: int = POLITICAL_WIDTH,
                     visible=None):
    """A turn's political map as a QImage ready to post: a title bar with the game and the
    turn, the map with owners, troops and names (no cell grid), and a legend below."""
    ensure_app()
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

    from app.canvas.geometry import map_bounds
    from app.canvas.political import PoliticalView, kinds_legend, legend_entries
    from engine.political import political_map

    pm = political_map(ruleset, scenario, state, step, visible)
    gmap = scenario.map
    bx, by, bw, bh = map_bounds(gmap.grid)
    scale = min(width / bw, width * 0.75 / bh)
    mw, mh = max(1, round(bw * scale)), max(1, round(bh * scale))
    pad = 12
    title_font, text_font = QFont(), QFont()
    title_font.setPixelSize(20)
    title_font.setBold(True)
    text_font.setPixelSize(14)
    fm = QFontMetrics(text_font)
    entries = legend_entries(pm)
    kinds = kinds_legend(pm)
    # legend rows: swatches flow left to right, wrapping at the image width
    total_w = mw + 2 * pad
    rows, row, x = [], [], pad
    for colour, text in entries:
        w = 22 + fm.horizontalAdvance(text) + 18
        if row and x + w > total_w - pad:
            rows.append(row)
            row, x = [], pad
        row.append((colour, text, x))
        x += w
    if row:
        rows.append(row)
    line = fm.height() + 6
    legend_h = pad + line * (len(rows) + (1 if kinds else 0)) + pad
    title_h = 40
    img = QImage(total_w, title_h + mh + legend_h, QImage.Format.Format_RGB32)
    img.fill(QColor("#f4f1ea"))
    scene = _scene(gmap, None)
    try:
        scene.set_layer_visible("grid", False)  # a political map, not a painting grid
        scene.setBackgroundBrush(QColor("#f4f1ea"))  # paper around hex edges
        view = PoliticalView(scene)
        view.show(pm)
        p = QPainter(img)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            p.setFont(title_font)
            p.setPen(QColor("#222222"))
            ruleset_title = getattr(ruleset, "title", "") or getattr(ruleset, "name", "")
            p.drawText(QRectF(pad, 0, total_w - 2 * pad, title_h),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       f"{pm.title} — {faction_step_title(ruleset, state, 0, step, scenario)}")
            p.setFont(text_font)
            p.drawText(QRectF(pad, 0, total_w - 2 * pad, title_h),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, ruleset_title)
            scene.render(p, QRectF(pad, title_h, mw, mh), QRectF(bx, by, bw, bh),
                         Qt.AspectRatioMode.IgnoreAspectRatio)
            p.setPen(QColor("#555555"))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(pad, title_h, mw, mh))
            y = title_h + mh + pad
            for row in rows:
                for colour, text, x in row:
                    p.setPen(QColor("#222222"))
                    p.setBrush(QColor(colour))
                    p.drawRect(QRectF(x, y + 3, 16, line - 10))
                    p.drawText(QRectF(x + 22, y, total_w, line),
                               Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
                y += line
            if kinds:
                p.setPen(QColor("#222222"))
                p.drawText(QRectF(pad, y, total_w - 2 * pad, line),
                           Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                           f"Troops: {kinds}")
        finally:
            p.end()
    finally:
        scene.detach()
    return img


def export_political_png(service, path: str | Path, step: int | None = None,
                         width: int = POLITICAL_WIDTH) -> Path:
    """The political map of a game's turn (default: the latest) as a PNG file."""
    step = service.current_step if step is None else step
    img = render_political(service.ruleset, service.scenario, service.state(step), step, width)
    path = Path(path)
    tmp = path.with_name(path.name + ".part.png")
    if not palette_image(img).save(str(tmp), "PNG", 0):  # 8-bit, quality 0: a small file
        tmp.unlink(missing_ok=True)
        raise OSError(f"{path}: cannot write the PNG")
    os.replace(tmp, path)
    return path


def palette_image(image):
    """The image with the 256 colours it uses most, every other pixel as its nearest one:
    an 8-bit palette image (maps and windows are mostly a few flat colours), a third of the
    size of a full-colour PNG without visible change."""
    import numpy as np
    from PySide6.QtGui import QImage

    img = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    px = np.frombuffer(img.constBits(), dtype=np.uint32).reshape(h, img.bytesPerLine() // 4)[:, :w]
    colours, index, counts = np.unique(px.ravel() & 0xFFFFFF, return_inverse=True, return_counts=True)
    keep = colours[_palette(colours, counts)]
    # nearest kept colour of every colour used (in chunks: a photo-like map has many)
    nearest = np.empty(len(colours), dtype=np.uint8)
    kr = _rgb(keep)
    for i in range(0, len(colours), 4096):
        d = ((_rgb(colours[i:i + 4096])[:, None, :] - kr[None, :, :]) ** 2).sum(axis=2)
        nearest[i:i + 4096] = d.argmin(axis=1)
    data = np.ascontiguousarray(nearest[index].reshape(h, w))
    out = QImage(data.data, w, h, w, QImage.Format.Format_Indexed8)
    out.setColorTable([int(0xFF000000 | int(c)) for c in keep])
    return out.copy()  # own its pixels (data goes out of scope)


def _palette(colours, counts, size: int = 256, apart: int = 40, least: int = 16):
    """Indexes of the colours to keep: first, by use, every colour used on `least` pixels or
    more that stands `apart` from those kept (so a faction's rare hue, a legend swatch, is not
    folded into a common one: magenta into the cities' red), then the most used of the rest
    (the shades of antialiased edges)."""
    import numpy as np

    order = np.argsort(-counts, kind="stable")
    rgb = _rgb(colours)
    kept: list[int] = []
    for i in order[:20000]:
        if len(kept) == size or counts[i] < least:
            break
        if not kept or ((rgb[kept] - rgb[i]) ** 2).sum(axis=1).min() >= apart * apart:
            kept.append(int(i))
    chosen = set(kept)
    for i in order:
        if len(kept) == size:
            break
        if int(i) not in chosen:
            kept.append(int(i))
    return np.array(kept, dtype=np.int64)


def _rgb(c):
    import numpy as np

    return np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], axis=1).astype(np.int32)
