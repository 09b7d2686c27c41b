"""The Realmsmith main window: four workspaces (map editor now), menus, recent files,
drag and drop, and a status bar with the cell under the cursor."""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtGui import QAction, QKeySequence, QUndoGroup
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from app import settings
from app.documents import Document, OpenError, export_map, open_document
from app.editor.dialogs import GenerateDialog, NewMapDialog, mapgen_module
from app.editor.workspace import MapEditor
from engine.map import GameMap, new_map

WORKSPACES = ("editor", "scenario", "console", "viewer")
OPEN_FILTER = ("Maps, games and bundles (*.rsmap *.rsmap.gz *.rsgame *.db *.sqlite *.rsbundle "
               "*.rsbundle.gz *.tmj *.tmx);;"
               "Realmsmith maps (*.rsmap *.rsmap.gz);;Game databases (*.rsgame *.db *.sqlite);;"
               "Report bundles (*.rsbundle *.rsbundle.gz);;"
               "Tiled maps (*.tmj *.tmx);;All files (*)")
DEMO_MAP = Path(__file__).resolve().parents[1] / "maps" / "kok-demo" / "map.rsmap"


class MainWindow(QMainWindow):
    def __init__(self, interactive: bool = True):
        super().__init__()
        self.interactive = interactive  # False: never block on dialogs (screenshots, tests)
        self.setObjectName("realmsmithMain")
        self.setAcceptDrops(True)
        self.doc = Document(new_map("hex", 40, 30, "ocean"))
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        from app.console import ConsoleWorkspace  # issue 7
        from app.designer.workspace import ScenarioDesigner  # issue 7
        from app.viewer.workspace import ViewerWorkspace  # issue 4

        self.editor = MapEditor(self, self.doc.gmap)
        self.designer = ScenarioDesigner(self)
        self.console = ConsoleWorkspace(self, interactive=interactive)
        self.viewer = ViewerWorkspace(self, interactive=interactive)
        for page, title in ((self.editor, "Map editor"), (self.designer, "Scenario designer"),
                            (self.console, "GM console"), (self.viewer, "Player viewer")):
            self.tabs.addTab(page, title)
        self.console.statusMessage.connect(lambda t: self.statusBar().showMessage(t, 6000))
        self.viewer.attach(self)
        # Undo/Redo (menu and shortcuts) act on the workspace in front.
        self.undo_group = QUndoGroup(self)
        self._stacks = {self.editor: self.editor.stack, self.designer: self.designer.stack}
        for stack in self._stacks.values():
            self.undo_group.addStack(stack)
        self.undo_group.setActiveStack(self.editor.stack)
        self.tabs.currentChanged.connect(self._workspace_changed)
        self.setCentralWidget(self.tabs)
        self._build_status()
        self._build_menus()
        self.editor.statusMessage.connect(lambda t: self.statusBar().showMessage(t, 4000))
        self.designer.attach(self)
        # the status bar's hover text and zoom belong to the workspace in front
        for cv in self.canvases().values():
            cv.cellHovered.connect(lambda cell, cv=cv: self._hovered(cell, cv))
            cv.zoomChanged.connect(lambda ppu, cv=cv: self._zoomed(ppu, cv))
        self.editor.stack.cleanChanged.connect(self._clean_changed)
        self.resize(*initial_size())
        self._update_title()
        geom = settings.value("geometry")
        if geom is not None and interactive:
            self.restoreGeometry(geom)
        state = settings.value("editorState")
        if state is not None and interactive:
            self.editor.restoreState(state)

    # ---- building ----------------------------------------------------------------------

    def _build_status(self) -> None:
        self.cell_label = QLabel("")
        self.cell_label.setMinimumWidth(260)
        self.zoom_label = QLabel("")
        self.statusBar().addPermanentWidget(self.cell_label)
        self.statusBar().addPermanentWidget(self.zoom_label)

    def _action(self, menu, text: str, fn, shortcut=None, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                a.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(lambda _=False: fn())
        menu.addAction(a)
        return a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        ed = self.editor
        f = mb.addMenu("&File")
        self._action(f, "&New map…", self.new_map_dialog, QKeySequence.StandardKey.New)
        self._action(f, "&Generate map…", self.generate_dialog, "Ctrl+G")
        self._action(f, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(f, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs)
        exp = f.addMenu("&Export")
        for fmt, label in (("png", "PNG image…"), ("svg", "SVG drawing…"), ("geojson", "GeoJSON…"),
                           ("tmj", "Tiled JSON (TMJ)…"), ("tmx", "Tiled TMX…")):
            self._action(exp, label, lambda fmt=fmt: self.export_dialog(fmt))
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        e = mb.addMenu("&Edit")
        undo = self.undo_group.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_group.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addAction(undo)
        e.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        e.addSeparator()
        self._action(e, "Cu&t", ed.cut, QKeySequence.StandardKey.Cut)
        self._action(e, "&Copy", ed.copy, QKeySequence.StandardKey.Copy)
        self._action(e, "&Paste", ed.paste, QKeySequence.StandardKey.Paste)
        self._action(e, "&Delete (fill with background)", ed.delete_selection,
                     QKeySequence.StandardKey.Delete)
        self._action(e, "&Rotate clipboard", ed.rotate_clipboard, "Ctrl+R",
                     "60 degrees on hex maps, 90 on square maps (R while pasting)")
        self._action(e, "&Flip clipboard", ed.flip_clipboard, "Ctrl+Shift+F",
                     "Mirror left to right (F while pasting)")
        e.addSeparator()
        self._action(e, "Select &all", ed.select_all, QKeySequence.StandardKey.SelectAll)
        self._action(e, "Select &none", ed.select_none, "Ctrl+Shift+A")

        v = mb.addMenu("&View")
        def on_front(what: str):  # the map of the workspace in front
            return lambda: getattr(self.front_canvas() or ed.canvas, what)()

        self._action(v, "Zoom &in", on_front("zoom_in"), ["+", "=", QKeySequence.StandardKey.ZoomIn])
        self._action(v, "Zoom &out", on_front("zoom_out"), ["-", QKeySequence.StandardKey.ZoomOut])
        self._action(v, "&Fit map", on_front("fit"), "0")
        self._action(v, "&Actual size (32 px a cell)", on_front("zoom_reset"), "Ctrl+0")
        v.addSeparator()
        self._action(v, "Show/hide &coordinates", lambda: self._toggle_layer("coords"), "Ctrl+K")
        self._action(v, "Show/hide &grid", lambda: self._toggle_layer("grid"), "Ctrl+Shift+G")
        v.addSeparator()
        for d in ed.docks:
            v.addAction(d.toggleViewAction())

        w = mb.addMenu("&Workspace")
        for i in range(len(WORKSPACES)):
            self._action(w, self.tabs.tabText(i), lambda i=i: self.tabs.setCurrentIndex(i),
                         f"Ctrl+{i + 1}")
        h = mb.addMenu("&Help")
        self._action(h, "&About Realmsmith", self.about)

    # ---- documents ------------------------------------------------------------------------

    def set_document(self, doc: Document) -> None:
        self.doc.close()
        self.doc = doc
        rs = getattr(doc.service, "ruleset", None) if doc.kind == "game" else None
        self.editor.ruleset_terrains = rs.map_terrains() if rs is not None else []
        self.editor.set_map(doc.gmap)
        if doc.path is not None:
            settings.add_recent(doc.path)
        self._update_title()

    def open_path(self, path: str | Path) -> bool:
        """Open a map file, game database or foreign map; on failure the open map stays."""
        if str(path).lower().endswith(".rsbundle.gz"):
            # the outbox attaches bundles compressed; only the viewer reads them, and the
            # map being edited stays open
            if not self.viewer.open_paths([path]):
                return False
            self.tabs.setCurrentWidget(self.viewer)
            return True
        if not self.confirm_discard():
            return False
        try:
            doc = open_document(path)
        except OpenError as e:
            self.error("Cannot open", str(e))
            return False
        self.set_document(doc)
        self.statusBar().showMessage(f"Opened {doc.path}", 5000)
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open map or game", "", OPEN_FILTER)
        if path:
            self.open_path(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for p in files:
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, p=p: self.open_path(p))
        if files:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear list").triggered.connect(settings.clear_recent)
        else:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def save(self) -> bool:
        if self.doc.kind == "map" and self.doc.path is not None or self.doc.kind == "game":
            try:
                self.doc.save()
            except Exception as e:  # noqa: BLE001 (disk full, locked database... say so)
                self.error("Cannot save", f"{self.doc.path}: {e}")
                return False
            self.editor.stack.setClean()
            self.statusBar().showMessage(f"Saved {self.doc.path}", 4000)
            return True
        return self.save_as()

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save map", "", "Realmsmith map (*.rsmap);;"
                                              "Compressed map (*.rsmap.gz)")
        if not path:
            return False
        if not path.endswith((".rsmap", ".rsmap.gz")):
            path += ".rsmap"
        try:
            self.doc.save(Path(path))
        except Exception as e:  # noqa: BLE001
            self.error("Cannot save", f"{path}: {e}")
            return False
        settings.add_recent(path)
        self.editor.stack.setClean()
        self._update_title()
        return True

    def export_dialog(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export {fmt.upper()}", "", f"*.{fmt}")
        if not path:
            return
        if not path.lower().endswith("." + fmt):
            path += "." + fmt
        try:
            export_map(self.editor.gmap, Path(path), fmt)
        except OpenError as e:
            self.error("Cannot export", str(e))
        except Exception as e:  # noqa: BLE001
            self.error("Cannot export", f"{path}: {type(e).__name__}: {e}")
        else:
            self.statusBar().showMessage(f"Exported {path}", 5000)

    def new_map_dialog(self) -> None:
        dlg = NewMapDialog(self)
        if dlg.exec() and self.confirm_discard():
            self.set_document(Document(dlg.make_map()))

    def generate_dialog(self) -> None:
        mapgen = mapgen_module()
        if mapgen is None:
            self.error("Generate map", "The map generator (engine.mapgen) is not part of this "
                       "build yet. Use File > New map and paint.")
            return
        dlg = GenerateDialog(mapgen, self)
        if dlg.exec() and self.confirm_discard():
            try:
                gmap = dlg.make_map()
            except Exception as e:  # noqa: BLE001
                self.error("Generate map", f"{type(e).__name__}: {e}")
                return
            self.set_document(Document(gmap))

    def set_map(self, gmap: GameMap) -> None:
        self.set_document(Document(gmap))

    def confirm_discard(self) -> bool:
        if self.editor.stack.isClean() or not self.interactive:
            return True
        r = QMessageBox.question(self, "Unsaved changes", f"Save changes to {self.doc.title}?",
                                 QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                 | QMessageBox.StandardButton.Cancel)
        if r == QMessageBox.StandardButton.Save:
            return self.save()
        return r == QMessageBox.StandardButton.Discard

    def error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        if self.interactive:
            QMessageBox.warning(self, title, text)
        else:
            import sys

            print(f"{title}: {text}", file=sys.stderr)

    def about(self) -> None:
        QMessageBox.about(self, "About Realmsmith", "<b>Realmsmith</b><br>A game-master studio "
                          "for play-by-email strategy games.")

    # ---- workspaces, status -----------------------------------------------------------------

    def set_workspace(self, key: str) -> None:
        self.tabs.setCurrentIndex(WORKSPACES.index(key))

    def _clean_changed(self, clean: bool) -> None:
        # A QUndoStack clears itself in its destructor, after this window's C++ side is gone.
        if shiboken6.isValid(self):
            self.setWindowModified(not clean)

    def _workspace_changed(self, _index: int) -> None:
        self.undo_group.setActiveStack(self._stacks.get(self.tabs.currentWidget()))
        self.cell_label.setText("")
        cv = self.front_canvas()
        if cv is not None and cv.map_scene() is not None:
            self._zoomed(cv.ppu(), cv)
        else:
            self.zoom_label.setText("")

    def canvases(self) -> dict:
        """workspace -> its map canvas."""
        return {self.editor: self.editor.canvas, self.designer: self.designer.canvas,
                self.console: self.console.results.map.canvas, self.viewer: self.viewer.canvas}

    def front_canvas(self):
        return self.canvases().get(self.tabs.currentWidget())

    def _toggle_layer(self, name: str) -> None:
        cv = self.front_canvas() or self.editor.canvas
        scene = cv.map_scene()
        if scene is None:
            return
        scene.set_layer_visible(name, not scene.layer_visible(name))
        if scene is self.editor.scene:
            self.editor.layers_panel.refresh()
        for owner in (self.viewer, self.console.results.map):  # their toolbar toggles follow
            a = getattr(owner, "coords_action", None)
            if name == "coords" and a is not None and cv is getattr(owner, "canvas", None):
                a.blockSignals(True)
                a.setChecked(scene.layer_visible("coords"))
                a.blockSignals(False)

    def _hovered(self, cell, cv=None) -> None:
        cv = cv or self.editor.canvas
        if cv is not self.front_canvas():
            return  # a map behind another workspace does not speak
        scene = cv.map_scene()
        if cell is None or scene is None:
            self.cell_label.setText("")
            return
        m = scene.gmap
        note = scene.coords.notation
        area = m.area_of(cell)
        if m.kind == "regions":
            text = f"{area.name} ({area.kind})" if area is not None else m.terrain_at(cell)
        else:
            text = f"{m.grid.label(cell, note)}  {m.terrain_at(cell)}"
            if area is not None:
                text += f"  [{area.name}]"
        self.cell_label.setText(text)

    def _zoomed(self, ppu: float, cv=None) -> None:
        cv = cv or self.editor.canvas
        if cv is not self.front_canvas() or cv.map_scene() is None:
            return
        self.zoom_label.setText(cv.zoom_text())

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.doc.title}[*] — Realmsmith")

    # ---- drag and drop, closing -------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def closeEvent(self, event) -> None:  # noqa: N802
        if not self.confirm_discard():
            event.ignore()
            return
        if self.interactive:
            settings.set_value("geometry", self.saveGeometry())
            settings.set_value("editorState", self.editor.saveState())
        self.editor.scene.detach()
        self.doc.close()
        event.accept()


def initial_size() -> tuple[int, int]:
    """1400x900, or the screen's free area when smaller (every workspace fits 1280x720)."""
    from PySide6.QtGui import QGuiApplication

    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return 1400, 900
    free = screen.availableGeometry()
    return min(1400, free.width()), min(900, free.height())


def demo_path() -> Path | None:
    return DEMO_MAP if DEMO_MAP.exists() else None


