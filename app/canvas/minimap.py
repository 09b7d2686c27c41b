"""Minimap: the terrain's one-pixel-per-cell image with the visible rectangle; click to go.

It repaints from the image the terrain layer keeps up to date cell by cell, so an edit
costs the minimap only a redraw of a small image, never a rebuild of the map.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from app.canvas.view import MapCanvas


class Minimap(QWidget):
    def __init__(self, canvas: MapCanvas, parent=None):
        super().__init__(parent)
        self.canvas = canvas
        self.setMinimumSize(120, 90)
        self.setMaximumHeight(320)
        canvas.viewMoved.connect(self.update)
        self._scene = None

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(220, 160)

    def attach(self) -> None:
        """Follow the canvas's current scene."""
        if self._scene is not None:
            try:
                self._scene.signals.changed.disconnect(self._changed)
            except (RuntimeError, TypeError):
                pass
        self._scene = self.canvas.map_scene()
        if self._scene is not None:
            self._scene.signals.changed.connect(self._changed)
        self.update()

    def _changed(self, layer: str, cells) -> None:
        if layer == "terrain" or layer == "reset":
            self.update()

    def _target(self) -> tuple[QRectF, QRectF]:
        """(map rectangle in scene units, where it is drawn in the widget)."""
        s = self._scene
        src = s.terrain.image_rect()
        scale = min(self.width() / src.width(), self.height() / src.height())
        w, h = src.width() * scale, src.height() * scale
        return src, QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#30343a"))
        if self._scene is None:
            return
        src, dst = self._target()
        # smooth when shrinking a big map, crisp cells when enlarging a small one
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, dst.width() < src.width() * 2)
        p.drawImage(dst, self._scene.terrain.pixel_image())
        vis = self.canvas.visible_rect()
        sx, sy = dst.width() / src.width(), dst.height() / src.height()
        r = QRectF(dst.left() + (vis.left() - src.left()) * sx, dst.top() + (vis.top() - src.top()) * sy,
                   vis.width() * sx, vis.height() * sy).intersected(dst.adjusted(-1, -1, 1, 1))
        p.setPen(QPen(QColor("#ffea00"), 1.5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(r)
        p.end()

    def _go(self, pos: QPointF) -> None:
        if self._scene is None:
            return
        src, dst = self._target()
        x = src.left() + (pos.x() - dst.left()) * src.width() / dst.width()
        y = src.top() + (pos.y() - dst.top()) * src.height() / dst.height()
        self.canvas.centre_on(x, y)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self._go(event.position())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if event.buttons():
            self._go(event.position())
