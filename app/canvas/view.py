"""MapCanvas: the QGraphicsView every workspace uses to show a MapScene.

Zoom with the wheel (around the cursor), keys or fit; pan by dragging with the middle
button or with Space held, or with the arrow keys. Mouse events on cells go to the
active tool (app.editor.tools), which the canvas knows only by its duck-typed methods.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QImage, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QToolTip

from app.canvas import geometry as geo
from app.canvas.scene import MapScene

MIN_PPU, MAX_PPU = 0.05, 160.0  # pixels per map unit


class MapCanvas(QGraphicsView):
    cellHovered = Signal(object)  # cell index or None  # noqa: N815 (Qt naming)
    zoomChanged = Signal(float)  # pixels per map unit  # noqa: N815
    viewMoved = Signal()  # noqa: N815

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tool = None
        self._pan_from: QPoint | None = None
        self._space = False
        self._last_cell: int | None = None
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setMouseTracking(True)
        self.setAcceptDrops(False)  # the main window takes dropped files
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.horizontalScrollBar().valueChanged.connect(self.viewMoved)
        self.verticalScrollBar().valueChanged.connect(self.viewMoved)

    # ---- scene -----------------------------------------------------------------------

    def map_scene(self) -> MapScene | None:
        s = self.scene()
        return s if isinstance(s, MapScene) else None

    def set_map_scene(self, scene: MapScene) -> None:
        self.setScene(scene)
        self.fit()
        # A newly opened map stays fitted while the window and its panels settle (the first
        # layout happens after opening), until the user zooms.
        self.auto_fit = True
        self._fitted_for = self.size()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        # Keyed on the outer size: fitting may toggle the scroll bars, which resizes the
        # viewport but not the widget, and must not fit again (that would never settle).
        if getattr(self, "auto_fit", False) and self.viewport().width() > 100 \
                and self.size() != getattr(self, "_fitted_for", None):
            self._fitted_for = self.size()
            self.fit()

    # ---- zoom and pan -------------------------------------------------------------------

    def ppu(self) -> float:
        return self.transform().m11()

    def set_ppu(self, ppu: float, anchor: QPointF | None = None) -> None:
        self.auto_fit = False
        ppu = min(max(ppu, MIN_PPU), MAX_PPU)
        factor = ppu / self.ppu()
        if abs(factor - 1.0) < 1e-9:
            return
        if anchor is not None:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
            before = self.mapToScene(anchor.toPoint())
            self.scale(factor, factor)
            after = self.mapToScene(anchor.toPoint())
            d = after - before
            self.translate(d.x(), d.y())
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        else:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
            self.scale(factor, factor)
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.zoomChanged.emit(self.ppu())
        self.viewMoved.emit()

    def zoom_in(self) -> None:
        self.set_ppu(self.ppu() * 1.25)

    def zoom_out(self) -> None:
        self.set_ppu(self.ppu() / 1.25)

    def zoom_reset(self) -> None:
        """About 32 pixels per cell."""
        s = self.map_scene()
        self.set_ppu(32.0 / (geo.cell_extent(s.gmap.grid) if s else 1.0))

    def _fit_rect(self) -> QRectF:
        x, y, w, h = geo.map_bounds(self.map_scene().gmap.grid)
        m = max(w, h) * 0.015
        return QRectF(x - m, y - m, w + 2 * m, h + 2 * m)

    def fit_ppu(self) -> float:
        """The zoom `fit` gives in the viewport as it is now (as QGraphicsView.fitInView
        computes it, 2 pixels of margin each side)."""
        if self.map_scene() is None:
            return 1.0
        r, v = self._fit_rect(), self.viewport().rect().adjusted(2, 2, -2, -2)
        return max(1e-6, min(v.width() / r.width(), v.height() / r.height()))

    def zoom_text(self) -> str:
        """The zoom for the status bar: pixels a cell on grid maps (what coordinates and
        symbols depend on), a percentage of the fitted map on region maps, whose cells are
        only the canvas the regions are painted on."""
        s = self.map_scene()
        if s is None:
            return ""
        if s.gmap.kind == "regions":
            return f"{100 * self.ppu() / self.fit_ppu():.0f}% of fit"
        return f"{self.ppu() * geo.cell_extent(s.gmap.grid):.1f} px/cell"

    def fit(self) -> None:
        if self.map_scene() is None:
            return
        self.fitInView(self._fit_rect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomChanged.emit(self.ppu())
        self.viewMoved.emit()

    def centre_on(self, x: float, y: float) -> None:
        self.centerOn(QPointF(x, y))

    def visible_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def pan_by(self, dx: int, dy: int) -> None:
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + dx)
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + dy)

    def render_view(self, image: QImage | None = None, complete: bool = True) -> QImage:
        """The visible part of the map drawn into an image (screenshots, tests, benchmarks).
        complete: build every tile it needs; otherwise draw as the screen does, within the
        frame's tile-building budget (stand-ins for the rest)."""
        vp = self.viewport().rect()
        if image is None:
            image = QImage(vp.width(), vp.height(), QImage.Format.Format_ARGB32_Premultiplied)
        s = self.map_scene()
        budget = s.budget if s is not None else None
        if budget is not None:
            budget.unlimited = complete
        p = QPainter(image)
        try:
            self.render(p, QRectF(image.rect()), vp)
        finally:
            p.end()
            if budget is not None:
                budget.unlimited = False
        return image

    # ---- cells under the mouse ---------------------------------------------------------

    def cell_at_view(self, pos: QPointF | QPoint) -> int | None:
        s = self.map_scene()
        if s is None:
            return None
        p = self.mapToScene(pos.toPoint() if isinstance(pos, QPointF) else pos)
        return geo.cell_at(s.gmap.grid, p.x(), p.y())

    def scene_pos(self, event: QMouseEvent) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    # ---- events ---------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.set_ppu(self.ppu() * (1.2 ** steps), event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.MiddleButton or (
                self._space and event.button() == Qt.MouseButton.LeftButton):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if self.tool is not None and self.map_scene() is not None:
            self.tool.press(self.cell_at_view(event.position()), event)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None:
            d = event.position().toPoint() - self._pan_from
            self._pan_from = event.position().toPoint()
            self.pan_by(-d.x(), -d.y())
            event.accept()
            return
        cell = self.cell_at_view(event.position())
        if cell != self._last_cell:
            self._last_cell = cell
            self.cellHovered.emit(cell)
        if self.tool is not None and self.map_scene() is not None:
            self.tool.move(cell, event)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton,
                                                              Qt.MouseButton.LeftButton):
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        if self.tool is not None and self.map_scene() is not None:
            self.tool.release(self.cell_at_view(event.position()), event)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802
        self._last_cell = None
        self.cellHovered.emit(None)
        if self.tool is not None:
            self.tool.move(None, None)
        super().leaveEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if self.tool is not None and self.tool.key(event):
            return
        step = 60
        moves = {Qt.Key.Key_Left: (-step, 0), Qt.Key.Key_Right: (step, 0),
                 Qt.Key.Key_Up: (0, -step), Qt.Key.Key_Down: (0, step)}
        if event.key() in moves:
            self.pan_by(*moves[event.key()])
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    def viewportEvent(self, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ToolTip:
            cell = self.cell_at_view(event.pos())
            text = self.cell_description(cell) if cell is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def cell_description(self, cell: int) -> str:
        """Everything the map knows about a cell, for the hover tooltip."""
        s = self.map_scene()
        if s is None:
            return ""
        m = s.gmap
        lines = [f"<b>{m.grid.label(cell, s.coords.notation)}</b> {m.terrain_at(cell)}"]
        area = m.area_of(cell)
        if area is not None:
            lines.append(f"area: {area.name} ({area.kind})")
        for site in m.sites_at(cell):
            extra = ", ".join(f"{k}={v}" for k, v in sorted(site.attrs.items()))
            lines.append(f"{site.kind}: {site.name or '(unnamed)'}" + (f" — {extra}" if extra else ""))
        for kind, links in sorted(m.links.items()):
            n = sum(1 for nb in m.grid.neighbours(cell) if (min(cell, nb), max(cell, nb)) in links)
            if n:
                lines.append(f"{kind}: {n} link{'s' if n > 1 else ''}")
        for k, v in sorted(m.cell_attrs.get(cell, {}).items()):
            lines.append(f"{k}: {v}")
        return "<br>".join(lines)
