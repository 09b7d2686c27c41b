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
