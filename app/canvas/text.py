"""Map text of a fixed screen size (names, labels), drawn from cached sprites.

Laying out a label and its white halo costs five drawText calls; a map repaints the same
few hundred names every frame, so each (text, size, colour, halo, weight) is rendered once
into a small image and blitted after that. The cache keeps the most recently used sprites.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

SPRITES_KEPT = 4000
HALO = QColor(255, 255, 255, 190)
_sprites: OrderedDict[tuple, QImage] = OrderedDict()


def text_sprite(text: str, px: float, colour: QColor, halo: bool, bold: bool,
                dpr: float = 1.0) -> QImage:
    """The text centred in a transparent image (with a one-pixel halo around it)."""
    key = (text, int(px), colour.rgba(), halo, bold, dpr)
    image = _sprites.get(key)
    if image is not None:
        _sprites.move_to_end(key)
        return image
    font = QFont()
    font.setPixelSize(max(6, int(px)))
    font.setBold(bold)
    fm = QFontMetrics(font)
    w, h = fm.horizontalAdvance(text) + 6, fm.height() + 2
    image = QImage(max(1, round(w * dpr)), max(1, round(h * dpr)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(dpr)
    image.fill(0)
    p = QPainter(image)
    p.setFont(font)
    r = QRectF(0, 0, w, h)
    if halo:
        p.setPen(HALO)
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            p.drawText(r.translated(dx, dy), Qt.AlignmentFlag.AlignCenter, text)
    p.setPen(colour)
    p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    _sprites[key] = image
    while len(_sprites) > SPRITES_KEPT:
        _sprites.popitem(last=False)
    return image


def screen_text(painter: QPainter, ppu: float, x: float, y: float, text: str, px: float,
                colour: QColor, halo: bool = True, bold: bool = False) -> None:
    """Text of a fixed pixel size centred on a map point, whatever the zoom."""
    dev = painter.device()
    dpr = dev.devicePixelRatioF() if dev is not None else 1.0
    image = text_sprite(text, px, colour, halo, bold, dpr)
    at = painter.worldTransform().map(QPointF(x, y))
    w, h = image.width() / dpr, image.height() / dpr
    painter.save()
    painter.resetTransform()
    painter.drawImage(QPointF(round(at.x() - w / 2), round(at.y() - h / 2)), image)
    painter.restore()
