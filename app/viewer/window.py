"""The viewer's own top-level window: the player viewer workspace with a reduced menu
(no map editing, no GM console), drag and drop of bundles, and a status bar."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox

from app import settings
from app.viewer.workspace import ViewerWorkspace
from engine.ruleset import faction_step_title


class ViewerWindow(QMainWindow):
    def __init__(self, interactive: bool = True):
        super().__init__()
        self.setObjectName("realmsmithViewer")
        self.interactive = interactive
        self.setAcceptDrops(True)
        self.workspace = ViewerWorkspace(self, interactive)
        self.setCentralWidget(self.workspace)
        self.cell_label = QLabel("")
        self.statusBar().addPermanentWidget(self.cell_label)
        self.workspace.statusMessage.connect(lambda t: self.statusBar().showMessage(t, 6000))
        self.workspace.canvas.cellHovered.connect(self._hovered)
        self.workspace.turnLoaded.connect(self._title)
        self._menus()
        self._title()
        self.resize(1400, 900)
        geom = settings.value("viewerGeometry") if interactive else None
        if geom is not None:
            self.restoreGeometry(geom)

    def _menus(self) -> None:
        ws = self.workspace
        mb = self.menuBar()

        def add(menu, text, fn, key=None):
            a = QAction(text, self)
            if key is not None:
                a.setShortcut(QKeySequence(key))
            a.triggered.connect(lambda _=False: fn())
            menu.addAction(a)
            return a

        f = mb.addMenu("&File")
        add(f, "&Open report…", ws.open_dialog, QKeySequence.StandardKey.Open)
        add(f, "&Add turn…", lambda: ws.open_dialog(add=True), "Ctrl+Shift+O")
        f.addSeparator()
        add(f, "&Save orders…", ws.save_dialog, QKeySequence.StandardKey.Save)
        add(f, "&Copy orders", ws.copy_orders, "Ctrl+Shift+C")
        add(f, "Write &e-mail…", ws.email_dialog, "Ctrl+E")
        f.addSeparator()
        add(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        v = mb.addMenu("&View")
        add(v, "Zoom &in", ws.canvas.zoom_in, QKeySequence.StandardKey.ZoomIn)
        add(v, "Zoom &out", ws.canvas.zoom_out, QKeySequence.StandardKey.ZoomOut)
        add(v, "&Fit map", ws.canvas.fit, "0")
        v.addSeparator()
        for d in ws.docks:
            v.addAction(d.toggleViewAction())
        h = mb.addMenu("&Help")
        add(h, "&How to…", self.help)

    def _title(self) -> None:
        tv = self.workspace.turn
        who = (f"{tv.scenario.name} — {tv.faction_name}, "
               f"{faction_step_title(tv.ruleset, tv.state, tv.faction, tv.step, tv.scenario)} — ") if tv else ""
        self.setWindowTitle(f"{who}Realmsmith Viewer")

    def _hovered(self, cell) -> None:
        ws = self.workspace
        if cell is None or ws.gmap is None:
            self.cell_label.setText("")
            return
        from engine.viewer_model import board_cell

        b = board_cell(ws.gmap, cell)
        self.cell_label.setText(ws.describe_cell(b) if b is not None else "")

    def help(self) -> None:
        QMessageBox.information(self, "Realmsmith Viewer", (
            "Open the report bundle (.rsbundle) your GM sent. Add the bundles of earlier turns "
            "to keep what you saw of regions now out of sight.\n\n"
            "Moves: click one of your armies on the map, click the cells of the path, then "
            "click the last cell again (or press Enter). Esc cancels.\n\n"
            "Orders are checked as you type with the GM's own checker; click a problem to "
            "go to its line and place. Save the orders with the file name the GM expects, "
            "copy them, or write an e-mail (.eml) to send from your mail program."))

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths and self.workspace.confirm_discard():
            self.workspace.open_paths(paths)  # several files: turns of one game, merged
            event.acceptProposedAction()

    def closeEvent(self, event) -> None:  # noqa: N802
        if not self.workspace.confirm_discard():
            event.ignore()
            return
        if self.interactive:
            settings.set_value("viewerGeometry", self.saveGeometry())
        if self.workspace.scene is not None:
            self.workspace.scene.detach()
        event.accept()
