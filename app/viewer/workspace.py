"""The player viewer workspace: the faction's map (fog of war, last-seen marks, units),
lists of regions and units, events and battles, the full report, and the orders editor
with live checking; moves drawn on the map become order lines."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QAction, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.canvas.minimap import Minimap
from app.canvas.overlays import CellsOverlay
from app.canvas.political import PoliticalView, legend_html
from app.canvas.scene import MapScene
from app.canvas.view import MapCanvas
from app.chronicle import BattlesView, EventsView
from app.icons import icon
from app.viewer.lists import RegionsTable, UnitsTable
from app.viewer.orders import OrdersPanel
from app.viewer.overlays import FogLayer, PathLayer, RoutesLayer, board_point
from engine import orderdraft as od
from engine.chronicle import chronicle_of
from engine.orders import Diagnostic
from engine.ruleset import faction_step_title, next_orders_turn
from engine.viewer_model import (
    TurnView,
    ViewerModel,
    ViewError,
    board_cell,
    cell_label,
    cells_named,
    grid_cells,
    load_turn,
    notation_of,
)

OPEN_FILTER = ("Report bundles (*.rsbundle *.rsbundle.gz);;Game databases (*.rsgame *.db *.sqlite);;"
               "All files (*)")


COORDS_AT_START = 2500  # cells: bigger grids open with coordinates off

class ViewerCanvas(MapCanvas):
    """The shared canvas (it keeps a newly opened map fitted until the player zooms); a
    faction that has seen only a small part of a big map (an Atlantis island) gets that
    part fitted, not the whole map of fog around it."""

    focus: QRectF | None = None

    def _fit_rect(self) -> QRectF:
        return self.focus if self.focus is not None else super()._fit_rect()

    def focus_on(self, gmap, cells) -> None:
        """Fit to `cells` (with two cells of margin) when they are under a quarter of the map."""
        import numpy as np

        from app.canvas import geometry as geo

        cells = np.asarray(sorted(cells), dtype=np.int64)
        if gmap.kind == "regions" or not len(cells) or len(cells) * 4 > len(gmap.grid):
            self.focus = None
            return
        c = geo.centers(gmap.grid, cells)
        m = 2 * geo.cell_extent(gmap.grid)
        x0, y0 = c.min(axis=0) - m
        x1, y1 = c.max(axis=0) + m
        self.focus = QRectF(float(x0), float(y0), float(x1 - x0), float(y1 - y0))


class MoveTool:
    """Click a cell with your units, then the cells of the path; click the last cell again
    (or right-click, or press Enter) to write the order; Esc cancels."""

    def __init__(self, ws: ViewerWorkspace):
        self.ws = ws
        self.path: list[int] = []

    def press(self, cell: int | None, event) -> None:
        b = board_cell(self.ws.gmap, cell) if self.ws.gmap is not None else None
        right = event is not None and event.button() == Qt.MouseButton.RightButton
        if right:
            self.finish()
            return
        if b is None:
            return
        self.ws.click_cell(b)

    def move(self, cell: int | None, event) -> None: ...
    def release(self, cell: int | None, event) -> None: ...

    def key(self, event) -> bool:
        if event.key() == Qt.Key.Key_Escape and self.path:
            self.ws.cancel_move()
            return True
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.path:
            self.finish()
            return True
        return False

    def finish(self) -> None:
        if len(self.path) >= 2:
            self.ws.commit_move()
        else:
            self.ws.cancel_move()


class ViewerWorkspace(QMainWindow):
    """Not a top-level window: a QMainWindow used as a widget so panels can dock."""

    statusMessage = Signal(str)  # noqa: N815
    turnLoaded = Signal()  # noqa: N815

    def __init__(self, parent: QWidget | None = None, interactive: bool = True):
        super().__init__(parent)
        self.setWindowFlags(Qt.WindowType.Widget)  # a page inside a window, not a window
        self.setObjectName("playerViewer")
        self.interactive = interactive
        self.model = ViewerModel()
        self.scene: MapScene | None = None
        self.gmap = None
        self.canvas = ViewerCanvas(self)
        self.tool = MoveTool(self)
        self.canvas.tool = self.tool
        self.legend = QLabel("")
        self.legend.setObjectName("mapLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        centre = QWidget()
        cl = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(2)
        cl.addWidget(self.canvas, 1)
        cl.addWidget(self.legend)
        self.setCentralWidget(centre)
        self.picked: int | None = None
        self.moving_unit: int | None = None  # rulesets whose units move one by one
        self.reach: dict[int, float] = {}
        self.turn_no: dict[int, int] = {}  # step -> the turn as the faction counts it
        self._loaded_key: tuple | None = None
        self._build_docks()
        self._build_toolbar()
        self._empty_note()

    # ---- building ----------------------------------------------------------------------

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        d.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                      | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(area, d)
        return d

    def _build_docks(self) -> None:
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.minimap = Minimap(self.canvas)
        self.regions = RegionsTable()
        self.regions.setObjectName("regionsTable")
        self.units = UnitsTable()
        self.units.setObjectName("unitsTable")
        self.events = EventsView()
        self.battles = BattlesView()
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        f = QFont("monospace")
        f.setStyleHint(QFont.StyleHint.TypeWriter)
        f.setPointSize(9)
        self.report.setFont(f)
        self.orders = OrdersPanel()
        d_min = self._dock("Minimap", self.minimap, left, "viewerMinimap")
        d_reg = self._dock("Regions", self.regions, left, "viewerRegions")
        d_uni = self._dock("Units", self.units, left, "viewerUnits")
        ev_tabs = QTabWidget()
        ev_tabs.addTab(self.events, "Events")
        ev_tabs.addTab(self.battles, "Battles")
        d_ev = self._dock("Events and battles", ev_tabs, left, "viewerEvents")
        d_ord = self._dock("Orders", self.orders, right, "viewerOrders")
        d_rep = self._dock("Report", self.report, right, "viewerReport")
        self.tabifyDockWidget(d_reg, d_uni)
        self.tabifyDockWidget(d_reg, d_ev)
        d_reg.raise_()
        self.tabifyDockWidget(d_ord, d_rep)
        d_ord.raise_()
        self.docks = [d_min, d_reg, d_uni, d_ev, d_ord, d_rep]
        self._sized = False
        self.regions.cellPicked.connect(self.show_cell)
        self.units.cellPicked.connect(self.show_cell)
        self.units.unitPicked.connect(self.pick_unit)
        self.events.placePicked.connect(self.show_cell)
        self.battles.placePicked.connect(self.show_cell)
        self.orders.problemActivated.connect(self._problem_activated)
        self.orders.checked.connect(self._draw_routes)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if not self._sized:  # dock sizes only stick once the window has a size
            self._sized = True
            d_min, d_reg, _u, _e, d_ord, _r = self.docks
            self.resizeDocks([d_min, d_reg], [180, max(300, self.height() - 200)],
                             Qt.Orientation.Vertical)
            self.resizeDocks([d_reg, d_ord], [330, 430], Qt.Orientation.Horizontal)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Viewer", self)
        bar.setObjectName("viewerBar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.addToolBar(bar)

        def act(text: str, fn, tip: str, name: str = "") -> QAction:
            a = QAction(icon(name), text, self) if name else QAction(text, self)
            a.setStatusTip(tip)
            a.setToolTip(tip)
            a.triggered.connect(lambda _=False: fn())
            bar.addAction(a)
            return a

        act("Open report…", self.open_dialog, "Open a report bundle (.rsbundle)", "open")
        act("Add turn…", lambda: self.open_dialog(add=True),
            "Add the bundle of another turn: regions no longer seen keep their last known state",
            "add")
        bar.addSeparator()
        bar.addWidget(QLabel(" Report of turn "))
        self.turn_box = QComboBox()
        self.turn_box.currentIndexChanged.connect(self._turn_chosen)
        bar.addWidget(self.turn_box)
        self.faction_label = QLabel(" Faction ")
        self.faction_box = QComboBox()
        self.faction_box.setToolTip("A game database holds every faction: choose whose view to show")
        self.faction_box.activated.connect(self._faction_chosen)
        self._faction_actions = [bar.addWidget(self.faction_label), bar.addWidget(self.faction_box)]
        for a in self._faction_actions:
            a.setVisible(False)
        bar.addSeparator()
        act("Cancel move", self.cancel_move, "Forget the path being drawn (Esc)", "undo-move")
        self.coords_action = act("Coordinates", self.toggle_coords,
                                 "Show each cell's coordinates as orders write them", "coords")
        self.coords_action.setCheckable(True)
        bar.addSeparator()
        act("Check", self.orders.run_check, "Check the orders now (they are checked as you type)", "check")
        act("Save orders…", self.save_dialog, "Save the orders with the file name the GM expects", "save")
        act("Copy", self.copy_orders, "Copy the orders to the clipboard", "copy")
        act("E-mail…", self.email_dialog, "Write an .eml message to the GM, ready to send", "mail")
        self.info = QLabel("")  # above the map (the tool bar stays within 1280 pixels)
        self.info.setObjectName("turnInfo")
        self.centralWidget().layout().insertWidget(0, self.info)

    def toggle_coords(self) -> None:
        if self.scene is not None:
            self.scene.set_layer_visible("coords", self.coords_action.isChecked())

    def _empty_note(self) -> None:
        self.report.setPlainText("Open a report bundle (.rsbundle) your GM sent you:\n"
                                 "  File > Open, or drop it on the window, or\n"
                                 "  realmsmith-viewer BUNDLE [MORE BUNDLES...]")

    # ---- in the studio's main window ------------------------------------------------------

    def attach(self, win) -> None:
        """Follow the studio's open document: a report bundle opens here (and shows this
        workspace); a game database opens here, as its first faction, when this tab shows."""
        self._win = win
        self._shown_path: str | None = None
        self.statusMessage.connect(lambda t: win.statusBar().showMessage(t, 6000))
        win.editor.mapReplaced.connect(self._document_changed)
        win.tabs.currentChanged.connect(lambda _i: self._document_changed(tab=True))

    def _document_changed(self, tab: bool = False) -> None:
        win = getattr(self, "_win", None)
        doc = getattr(win, "doc", None)
        path = getattr(doc, "path", None)
        if doc is None or path is None or getattr(doc, "kind", "") != "game":
            return
        bundle = str(path).lower().endswith(".rsbundle")
        here = win.tabs.currentWidget() is self
        if str(path) == self._shown_path or not (bundle or here):
            return
        self._shown_path = str(path)
        if self.open_paths([path]) and bundle and not here:
            win.tabs.setCurrentWidget(self)

    # ---- opening -------------------------------------------------------------------------

    @property
    def turn(self) -> TurnView | None:
        return self.model.turns[-1] if self.model.turns else None

    def open_paths(self, paths: list[str | Path], add: bool = False,
                   faction: int | None = None) -> bool:
        """Open bundles (several: merged as turns of one game). Errors go to error()."""
        model = self.model if add else ViewerModel()
        self._paths = ([*getattr(self, "_paths", [])] if add else []) + [Path(p) for p in paths]
        ok = True
        for p in paths:
            try:
                model.add(load_turn(p, faction))
            except ViewError as e:
                self.error("Cannot open", str(e))
                ok = False
            except Exception as e:  # noqa: BLE001 (a corrupt file must not crash the viewer)
                self.error("Cannot open", f"{p}: {type(e).__name__}: {e}")
                ok = False
        if not model.turns:
            return False
        self.model = model
        self.refresh()
        self.turnLoaded.emit()
        return ok

    def open_dialog(self, add: bool = False) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Open report bundle", "", OPEN_FILTER)
        if paths and (add or self.confirm_discard()):
            self.open_paths(paths, add=add)

    # ---- showing -------------------------------------------------------------------------

    def refresh(self) -> None:
        tv = self.turn
        if tv is None:
            return
        gmap = self.model.merged_map()
        if self.scene is None or self.gmap is not gmap:
            self._new_scene(gmap)
        self.fog.set_cells(self.model.unseen(), self.model.stale())
        self.scene.coords.skip = self.fog.dark_cells
        self.scene.coords.update()
        units = self.model.units()
        regions = self.model.regions()
        self.political.own = tv.faction
        pm = viewer_political_map(tv, regions, units)
        self.political.show(pm)
        self.legend.setText(legend_html(pm, changed=False))
        self.turn_no = {t.step: next_orders_turn(t.ruleset, t.state, t.faction, t.scenario) - 1
                        for t in self.model.turns}  # the faction's own count (a sequential game)
        self.regions.set_regions(regions, tv.step, self.turn_no)
        self.units.set_units(units, tv.step, _unit_names(tv), self.turn_no)
        self.turn_box.blockSignals(True)
        self.turn_box.clear()
        for t in self.model.turns:
            self.turn_box.addItem(faction_step_title(t.ruleset, t.state, t.faction, t.step, t.scenario),
                                  t.step)
        self.turn_box.setCurrentIndex(len(self.model.turns) - 1)
        self.turn_box.blockSignals(False)
        self._show_report(tv)
        key = (tv.scenario.name, tv.faction, tv.step)
        if self._loaded_key != key:  # a new turn, game or faction: orders from its template
            self._loaded_key = key
            self.orders.set_turn(tv, od.order_keywords(tv.ruleset), self.orders_filename(),
                                 context=lambda line, tv=tv: od.order_completions(
                                     tv.ruleset, tv.state, tv.faction, tv.scenario, line))
            self.orders.edit.document().setModified(False)
        game_db = not tv.bundle
        for a in self._faction_actions:
            a.setVisible(game_db)
        if game_db:
            self.faction_box.blockSignals(True)
            self.faction_box.clear()
            for f in tv.scenario.factions:
                self.faction_box.addItem(f"{f.number} {f.name}", f.number)
            self.faction_box.setCurrentIndex(max(0, self.faction_box.findData(tv.faction)))
            self.faction_box.blockSignals(False)
        self.info.setText(f"  {tv.scenario.name} · {tv.faction_name} (#{tv.faction}) · "
                          f"{faction_step_title(tv.ruleset, tv.state, tv.faction, tv.step, tv.scenario)}"
                          f" · orders for turn {next_orders_turn(tv.ruleset, tv.state, tv.faction, tv.scenario)}  ")
        self.cancel_move()

    def _new_scene(self, gmap) -> None:
        old = self.scene
        self.gmap = gmap
        self.scene = MapScene(gmap, self)
        self.fog = FogLayer(gmap)
        self.political = PoliticalView(self.scene, tv_faction(self.turn))
        self.reach_overlay = CellsOverlay(gmap, 11.5, "#3ddc84", 60)
        self.path_layer = PathLayer(gmap)
        self.routes = RoutesLayer(gmap)
        for item in (self.fog, self.reach_overlay, self.routes,
                     self.path_layer):
            self.scene.addItem(item)
        tv = self.turn
        if tv is not None:  # coordinates on where orders name cells by them (grid maps)
            self.scene.coords.notation = notation_of(tv.ruleset)
        # on at first on small grids only: fitted in the window, a continent of thousands of
        # hexes (the CC North America map) would be a carpet of numbers; a click shows them
        coords = gmap.kind != "regions" and len(gmap.grid) <= COORDS_AT_START
        self.scene.set_layer_visible("coords", coords)
        self.coords_action.setEnabled(gmap.kind != "regions")
        self.coords_action.setChecked(coords)
        self.canvas.focus_on(gmap, self.model.seen())
        self.canvas.set_map_scene(self.scene)
        self.minimap.attach()
        if old is not None:
            old.detach()
            old.deleteLater()

    def _show_report(self, tv: TurnView) -> None:
        self.report.setPlainText(tv.report_text or f"(no text report for turn {tv.step})")
        names = {f.number: f.name for f in tv.scenario.factions}
        told = chronicle_of(tv.ruleset, tv.events, tv.state, tv.scenario)
        self.events.set_chronicle(told, names)
        self.battles.set_chronicle(told, names, f"No battles you know of in turn {tv.step}.")

    def _faction_chosen(self, index: int) -> None:
        number = self.faction_box.itemData(index)
        if number is not None and self.turn is not None and number != self.turn.faction:
            self.open_paths(list(self._paths), faction=int(number))

    def _turn_chosen(self, index: int) -> None:
        if 0 <= index < len(self.model.turns):
            self._show_report(self.model.turns[index])

    def show_cell(self, cell: int) -> None:
        """Centre the map on a board cell and mark it."""
        if self.scene is None:
            return
        x, y = board_point(self.gmap, cell)
        self.canvas.centre_on(x, y)
        self.scene.selection.set_cells(grid_cells(self.gmap, cell))
        self.statusMessage.emit(self.describe_cell(cell))

    def label(self, cell: int) -> str:
        """A place's name as the ruleset's orders write it."""
        tv = self.turn
        return cell_label(self.gmap, cell, notation_of(tv.ruleset) if tv else None)

    def describe_cell(self, cell: int) -> str:
        here = self.model.units_at(cell)
        seen = self.model.seen().get(cell)
        text = self.label(cell)
        if seen is None:
            return text + ": never seen"
        if here:
            text += ": " + ", ".join(f"{u.owner_name} {u.count} {u.kind}" for u in here)
        if self.turn is not None and seen != self.turn.step:
            text += f" (as seen in turn {self.turn_no.get(seen, seen)})"
        return text

    def _draw_routes(self, diags: list) -> None:
        """The moves of the orders as written, redrawn after every check."""
        tv = self.turn
        if tv is None or self.scene is None:
            return
        bad = {d.line for d in diags if d.line and d.severity == "error"}
        paths = od.order_paths(tv.ruleset, tv.state, tv.faction, tv.scenario, self.orders.text())
        self.routes.set_routes([(cells, line in bad) for line, cells in paths])

    def _problem_activated(self, d: Diagnostic) -> None:
        if self.gmap is None:
            return
        cells = cells_named(self.gmap, f"{d.text} {d.message}")
        if cells:
            self.show_cell(cells[0])

    # ---- moves ---------------------------------------------------------------------------

    def pick_unit(self, unit: int, cell: int | None = None) -> None:
        """Choose the unit the next path moves (a click on it in the Units list), and start
        its path at its region."""
        tv = self.turn
        if tv is None:
            return
        if cell is None:
            cell = next((u.cell for u in self.model.units() if u.unit == unit and u.own), None)
            if cell is None:
                return
        self.cancel_move()
        self._start_path(cell, unit)

    def choose_mover(self, cell: int, choices: list[tuple[int, str]]) -> int | None:
        """Which of several own units at a cell to move: the one picked in the Units list,
        the only one, or the player's choice from a menu (None: they chose none)."""
        if self.moving_unit in {n for n, _ in choices}:
            return self.moving_unit
        if len(choices) == 1 or not self.interactive:
            return choices[0][0]
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QMenu

        menu = QMenu(self)
        menu.addSection(f"Move which unit from {self.label(cell)}?")
        acts = {menu.addAction(label): n for n, label in choices}
        chosen = menu.exec(QCursor.pos())
        return acts.get(chosen)

    def _start_path(self, cell: int, unit: int | None) -> None:
        self.moving_unit = unit
        self.reach = self.model.reachable(cell, unit, self.orders.text())
        # the reach's origin (cost 0): where the moves already written leave the unit, which
        # is where the lines of a new path will take it from
        if self.reach.get(cell) != 0:
            cell = min(self.reach, key=self.reach.__getitem__, default=cell)
        self.tool.path = [cell]
        cells = [g for c in self.reach for g in grid_cells(self.gmap, c)]
        self.reach_overlay.set_cells(cells)
        self.scene.selection.set_cells(grid_cells(self.gmap, cell))
        self.path_layer.set_path([cell])
        who = f"unit {unit}" if unit else "your units"
        self.statusMessage.emit(f"Moving {who} from {self.label(cell)}: click the "
                                "path, then the last cell again (or Enter)")

    def click_cell(self, cell: int) -> None:
        """A click on the map: pick own units, extend the path, or finish it."""
        tv = self.turn
        if tv is None:
            return
        path = self.tool.path
        if not path:
            if self.model.own_units_at(cell):
                choices = od.movers(tv.ruleset, tv.state, tv.faction, tv.scenario, cell)
                unit = self.choose_mover(cell, choices) if choices else None
                if choices and unit is None:
                    return
                self._start_path(cell, unit)
            else:
                self.show_cell(cell)
            return
        if cell == path[-1]:
            self.tool.finish()
            return
        try:
            self.tool.path = od.complete_path(self.gmap.board(), path + [cell])
        except ValueError as e:
            self.statusMessage.emit(str(e))
            return
        self.path_layer.set_path(self.tool.path)
        far = [c for c in self.tool.path if c not in self.reach]
        if far:
            self.statusMessage.emit(f"{self.label(far[0])} is beyond this turn's reach")

    def commit_move(self) -> str:
        tv = self.turn
        path, unit = list(self.tool.path), self.moving_unit
        self.cancel_move()
        if tv is None or len(path) < 2:
            return ""
        try:
            line = od.move_order(tv.ruleset, tv.state, tv.faction, tv.scenario, path, unit)
            self.orders.append_order(line, unit)
        except Exception as e:  # noqa: BLE001 (say why, never crash on a click)
            self.statusMessage.emit(f"No move order: {e}")
            return ""
        self.statusMessage.emit(f"Added: {line.splitlines()[0]}")
        return line

    def cancel_move(self) -> None:
        self.tool.path = []
        self.moving_unit = None
        self.reach = {}
        if self.scene is not None:
            self.reach_overlay.set_cells([])
            self.path_layer.set_path([])

    # ---- orders out ------------------------------------------------------------------------

    def orders_filename(self) -> str:
        tv = self.turn
        if tv is None:
            return "orders.txt"
        return od.orders_filename(tv.ruleset, tv.state, tv.faction, tv.scenario)

    def save_orders(self, path: str | Path) -> Path:
        path = Path(path)
        if path.is_dir():
            path = path / self.orders_filename()
        path.write_text(self.orders.text(), encoding="utf-8")
        self.orders.edit.document().setModified(False)
        n = len(self.orders.errors())
        self.statusMessage.emit(f"Saved {path}" + (f" ({n} errors still listed)" if n else ""))
        return path

    def orders_unsaved(self) -> bool:
        return self.turn is not None and self.orders.edit.document().isModified()

    def confirm_discard(self) -> bool:
        """Ask before drafted orders that were never saved are replaced (interactive only)."""
        if not self.orders_unsaved() or not self.interactive:
            return True
        r = QMessageBox.question(self, "Unsaved orders", "Your orders are not saved. Save them?",
                                 QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                 | QMessageBox.StandardButton.Cancel)
        if r == QMessageBox.StandardButton.Save:
            self.save_dialog()
            return not self.orders_unsaved()
        return r == QMessageBox.StandardButton.Discard

    def save_dialog(self) -> None:
        if self.turn is None:
            return
        self.orders.run_check()
        n = len(self.orders.errors())
        if n and self.interactive and QMessageBox.question(
                self, "Orders with errors", f"The checker lists {n} error(s); the GM's intake "
                "will report the same. Save anyway?") != QMessageBox.StandardButton.Yes:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save orders", self.orders_filename(),
                                              "Orders (*)")
        if path:
            try:
                self.save_orders(path)
            except OSError as e:
                self.error("Cannot save", f"{path}: {e}")

    def copy_orders(self) -> None:
        QGuiApplication.clipboard().setText(self.orders.text())
        self.statusMessage.emit("Orders copied to the clipboard")

    def write_email(self, path: str | Path) -> Path:
        tv = self.turn
        if tv is None:
            raise ViewError("no report open")
        data = od.orders_email(self.orders.text(), tv.gm_address,
                               od.orders_subject(tv.ruleset, tv.state, tv.faction, tv.scenario),
                               self.orders_filename())
        path = Path(path)
        path.write_bytes(data)
        note = "" if tv.gm_address else " (no GM address in the game: fill in To)"
        self.statusMessage.emit(f"Wrote {path}: open it in your mail program and send{note}")
        return path

    def email_dialog(self) -> None:
        if self.turn is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Write e-mail", self.orders_filename() + ".eml",
                                              "E-mail message (*.eml)")
        if path:
            try:
                self.write_email(path)
            except OSError as e:
                self.error("Cannot write", f"{path}: {e}")

    def error(self, title: str, text: str) -> None:
        self.statusMessage.emit(text)
        if self.interactive and self.isVisible():
            QMessageBox.warning(self, title, text)
        else:
            import sys

            print(f"{title}: {text}", file=sys.stderr)


def _unit_names(tv: TurnView) -> dict[str, str]:
    """Unit symbols to names where the game's catalogs say (KoK's F -> Foot Soldiers)."""
    out: dict[str, str] = {}
    for cat in tv.scenario.catalogs.values():
        for row in getattr(cat, "rows", []):
            sym, name = row.get("symbol"), row.get("name")
            if isinstance(sym, str) and isinstance(name, str) and sym:
                out.setdefault(sym, name)
    return out


def tv_faction(tv: TurnView | None) -> int | None:
    return tv.faction if tv is not None else None


def viewer_political_map(tv: TurnView, regions, units):
    """What the player knows, as a political map: the latest owner, units and names seen of
    every place (last-seen ones included), in the turn's faction colours and names."""
    from engine.political import PoliticalMap, Stack, fill_sides, kind_names

    totals: dict[tuple[int, int, str], int] = {}
    for u in units:
        totals[(u.cell, u.owner, u.kind)] = totals.get((u.cell, u.owner, u.kind), 0) + u.count
    pm = PoliticalMap(
        owners={r.cell: r.owner for r in regions if r.owner},
        stacks=[Stack(c, o, k, n) for (c, o, k), n in sorted(totals.items())],
        names={r.cell: r.name for r in regions if r.name},
        step=tv.step, title=tv.scenario.name,
        kind_names=kind_names(tv.scenario, {k for _c, _o, k in totals}))
    hook = getattr(tv.ruleset, "political_map", None)
    if callable(hook):  # the ruleset's own sides (colours, names, unknown factions)
        own = hook(tv.state, tv.scenario)
        known = {tv.faction, *pm.owners.values(), *(s.owner for s in pm.stacks)}
        # the legend lists the factions the player has met, not every faction of the game
        pm.sides = [s for s in own.sides if s.number in known]
        # names given in play come from the ruleset, not the list's names (an Atlantis
        # region's row names its area, which the map already labels once)
        pm.names = {c: n for c, n in own.names.items() if c in pm.names}
        pm.kind_names = own.kind_names or pm.kind_names
        return pm
    return fill_sides(pm, tv.state, tv.scenario)
