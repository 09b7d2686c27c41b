"""Minimap: the terrain's one-pixel-per-cell image with the visible rectangle; click to go.

It repaints from the image the terrain layer keeps up to date cell by cell, shrunk once to
the widget's size and kept; an edit re-shrinks only the pixels around the changed cells
(shrinking a 1000x1000-cell map's whole image smoothly costs ~20 ms, too much per brush step).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QWidget

from app.canvas import geometry as geo
from app.canvas.view import MapCanvas


class Minimap(QWidget):
    def __init__(self, canvas: MapCanvas, parent=None):
        super().__init__(parent)
        self.canvas = canvas
        self.setMinimumSize(120, 90)
        self.setMaximumHeight(320)
        canvas.viewMoved.connect(self.update)
        self._scene = None
        self._small: QImage | None = None  # the terrain image shrunk to the widget

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
        self._small = None
        if self._scene is not None:
            self._scene.signals.changed.connect(self._changed)
        self.update()

    def _changed(self, layer: str, cells) -> None:
        if layer == "reset":
            self._small = None
        elif layer == "terrain" and self._small is not None and len(cells):
            self._patch(np.asarray(cells, dtype=np.int64))
        if layer in ("terrain", "reset"):
            self.update()

    def _shrunk(self, dst: QRectF) -> QImage:
        """The terrain image at the size it is shown (kept until the widget resizes)."""
        w, h = max(1, round(dst.width())), max(1, round(dst.height()))
        if self._small is None or (self._small.width(), self._small.height()) != (w, h):
            image = self._scene.terrain.pixel_image()
            # smooth when shrinking a big map, crisp cells when enlarging a small one
            mode = (Qt.TransformationMode.SmoothTransformation if w < image.width() * 2
                    else Qt.TransformationMode.FastTransformation)
            self._small = image.scaled(w, h, Qt.AspectRatioMode.IgnoreAspectRatio, mode) \
                .convertToFormat(QImage.Format.Format_RGB32)
        return self._small

    def _patch(self, cells: np.ndarray) -> None:
        """Shrink again just the part of the terrain image around the changed cells."""
        image = self._scene.terrain.pixel_image()
        rows, cols = geo.pixel_index(self._scene.terrain.gmap.grid, cells)
        sx, sy = self._small.width() / image.width(), self._small.height() / image.height()
        pad_x, pad_y = 2 + 1 / sx, 2 + 1 / sy  # whole destination pixels, with their sources
        x0, x1 = int((cols.min() - pad_x) * sx), int((cols.max() + 1 + pad_x) * sx) + 1
        y0, y1 = int((rows.min() - pad_y) * sy), int((rows.max() + 1 + pad_y) * sy) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self._small.width()), min(y1, self._small.height())
        if x0 >= x1 or y0 >= y1:
            return
        p = QPainter(self._small)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, sx < 0.5)
        p.drawImage(QRectF(x0, y0, x1 - x0, y1 - y0), image,
                    QRectF(x0 / sx, y0 / sy, (x1 - x0) / sx, (y1 - y0) / sy))
        p.end()

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
        small = self._shrunk(dst)
        p.drawImage(QPointF(round(dst.left()), round(dst.top())), small)
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
