"""The GM console workspace: collect orders, run the turn, read the results, send reports.

Everything goes through engine.service.GameService and the ruleset interface, so the
console works for every ruleset. The turn runs in a worker thread (app.console.runner);
the window keeps painting, and the console measures how long the GUI thread was ever
blocked meanwhile (`last_run`: seconds from click to results, longest timer gap).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.console.charts import Charts
from app.console.dashboard import Dashboard, deadline, when
from app.console.export import ExportResult, export_files, export_images, export_turn
from app.console.gm import InterventionDialog
from app.console.intake import IntakeTable, PasteDialog, ReassignDialog, SubmissionView
from app.console.results import ResultsPage
from app.console.runner import TurnRunner
from app.console.sequence_bar import SequenceControls
from app.icons import icon
from engine.ruleset import step_title

GAME_SUFFIXES = (".rsgame", ".db", ".sqlite")


@dataclass
class RunTiming:
    step: int = 0
    seconds: float = 0.0          # click to results on screen
    worker_seconds: float = 0.0   # the run itself, in its thread
    longest_gap: float = 0.0      # longest pause between 10 ms timer ticks on the GUI thread
    gap_while_running: float = 0.0  # the same, while the worker ran (before the refresh)
    refresh_seconds: float = 0.0  # showing the results on the GUI thread
    ticks: int = 0
    outcome: str = ""


BUTTON_ICONS = {"openGame": "open", "importOrders": "import", "importFolder": "folder",
                "pasteOrders": "paste", "reassign": "reassign", "runTurn": "run",
                "cancelRun": "cancel", "exportTurn": "export", "exportCharts": "chart",
                "exportMap": "map", "gmIntervene": "add"}


class ConsoleWorkspace(QWidget):
    statusMessage = Signal(str)  # noqa: N815 (Qt naming)
    runFinished = Signal(str)    # noqa: N815  'done', 'failed', 'cancelled'
    exportFinished = Signal(object)  # noqa: N815  ExportResult, or None if it failed

    def __init__(self, parent: QWidget | None = None, interactive: bool = True):
        super().__init__(parent)
        self.setObjectName("consoleWorkspace")
        self.interactive = interactive
        self.service = None
        self.path: Path | None = None
        self._summary: dict[int, dict] = {}   # step -> ruleset.summary (steps never change
        self._charts_dirty = True             # except by rollback, which drops the later ones)
        self.last_error = ""
        self.last_run = RunTiming()
        self.setAcceptDrops(True)
        self.runner = TurnRunner(self)
        self.runner.progress.connect(self._progress)
        self.runner.finished.connect(
            lambda r: self._export_done(r) if self.runner.kind == "export" else self._run_done(r))
        self.runner.failed.connect(
            lambda w: self._export_failed(w) if self.runner.kind == "export" else self._run_failed(w))
        self.runner.cancelled.connect(
            lambda w: self._export_failed(w) if self.runner.kind == "export" else self._run_cancelled(w))
        self._tick = QTimer(self)
        self._tick.setInterval(10)
        self._tick.timeout.connect(self._on_tick)
        self._build()
        self._set_enabled()
        app = QApplication.instance()
        if app is not None:  # never leave a run's thread behind when the app quits
            app.aboutToQuit.connect(self.close_game)

    # ---- building ------------------------------------------------------------------------

    def _button(self, text: str, fn, name: str, tip: str = "") -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setIcon(icon(BUTTON_ICONS.get(name, "")))
        b.clicked.connect(lambda _=False: fn())
        b.setToolTip(tip or text.rstrip("…"))
        return b

    def _build(self) -> None:
        self.title = QLabel("<b>No game open.</b> Open a game database (or drop one here) to "
                            "collect orders and run turns.")
        self.title.setObjectName("consoleTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.open_button = self._button("Open game…", self.open_game_dialog, "openGame")
        self.import_button = self._button("Import orders…", self.import_dialog, "importOrders",
                                          "Orders files, .eml messages or mbox mailboxes "
                                          "(or drop files and folders on the console)")
        self.folder_button = self._button("Import folder…", self.import_folder_dialog, "importFolder")
        self.paste_button = self._button("Paste orders…", self.paste_dialog, "pasteOrders")
        self.reassign_button = self._button("Reassign…", self.reassign_dialog, "reassign",
                                            "Give the selected submission to another faction or turn")
        self.accept_button = self._button("Accept", lambda: self.decide_held("accept"), "acceptHeld",
                                          "Count the selected held orders (sender not verified) "
                                          "as the faction's")
        self.reject_button = self._button("Reject", lambda: self.decide_held("reject"), "rejectHeld",
                                          "Refuse the selected held orders: kept, never used")
        self.gm_button = self._button("GM…", self.intervene_dialog, "gmIntervene",
                                      "Intervene between turns: add a unit, give or take items "
                                      "and silver, let a new player join, change a password or "
                                      "address (kept in the history, tab GM)")
        self.run_button = self._button("Run turn", self.run_turn, "runTurn")
        self.cancel_button = self._button("Cancel", self.cancel_run, "cancelRun",
                                          "Stop the run; the game stays as it was")
        self.export_button = self._button("Export…", self.export_dialog, "exportTurn",
                                          "Reports, bundles, map PNG and outbox into a folder")
        self.chart_button = self._button("Charts PNG…", self.export_charts_dialog, "exportCharts",
                                         "Save the charts as a PNG image")
        self.map_button = self._button("Map PNG…", self.export_map_dialog, "exportMap",
                                       "Save the political map of the turn shown (owners, troops, "
                                       "names, legend) as a PNG for a forum post or a mail")
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(260)
        self.progress.setVisible(False)  # shown while a turn runs
        self.run_label = QLabel("")
        self.run_label.setObjectName("runLabel")
        # a tool bar, not a row of buttons: on a narrow window the rest folds into its
        # extension menu instead of forcing the whole main window wider
        top = QToolBar()
        top.setObjectName("consoleTools")
        for b in (self.open_button, self.import_button, self.folder_button, self.paste_button,
                  self.reassign_button, self.accept_button, self.reject_button, self.gm_button):
            top.addWidget(b)
        top.addSeparator()
        self.sequence = SequenceControls(self)  # sequential games only (CC)
        top.addWidget(self.run_button)
        self.sequence.action = top.addWidget(self.sequence)  # a tool bar shows it by its action
        self.sequence.action.setVisible(False)
        for w in (self.cancel_button, self.progress, self.run_label):
            top.addWidget(w)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        top.addWidget(spacer)
        top.addWidget(self.export_button)
        top.addWidget(self.map_button)
        top.addWidget(self.chart_button)

        self.dashboard = Dashboard()
        self.intake = IntakeTable()
        self.intake.itemSelectionChanged.connect(self._show_selected)
        self.intake.doubleClicked.connect(lambda _i: self.reassign_dialog())
        self.view = SubmissionView()
        self.problems = QLabel("")
        self.problems.setWordWrap(True)
        self.problems.setObjectName("intakeProblems")
        turn = QSplitter(Qt.Orientation.Vertical)
        dash = QWidget()
        dl = QVBoxLayout(dash)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(QLabel("<b>Orders for this turn</b>"))
        dl.addWidget(self.dashboard)
        intake = QWidget()
        il = QVBoxLayout(intake)
        il.setContentsMargins(0, 0, 0, 0)
        head = QLabel("<b>Intake</b> — every submission received, newest first; "
                      "double-click to reassign")
        head.setWordWrap(True)
        il.addWidget(head)
        il.addWidget(self.intake, 1)
        il.addWidget(self.problems)
        turn.addWidget(dash)
        turn.addWidget(intake)
        turn.addWidget(self.view)
        turn.setSizes([200, 220, 320])
        self.results = ResultsPage()
        self.results.rollbackRequested.connect(lambda step: self.rollback(step))
        self.charts = Charts()
        self.tabs = QTabWidget()
        self.tabs.setObjectName("consoleTabs")
        self.tabs.addTab(turn, "Turn && intake")
        self.tabs.addTab(self.results, "Results && history")
        self.tabs.addTab(self.charts, "Charts")
        self.tabs.currentChanged.connect(
            lambda _i: self.update_charts() if self.tabs.currentWidget() is self.charts else None)
        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(top)
        lay.addWidget(self.tabs, 1)

    def _set_enabled(self) -> None:
        has, running = self.service is not None, self.runner.running
        for b in (self.import_button, self.folder_button, self.paste_button, self.reassign_button,
                  self.export_button, self.chart_button, self.map_button, self.gm_button):
            b.setEnabled(has and not running)
        s = self.intake.current() if has else None
        held = s is not None and s.faction is not None and s.held
        self.accept_button.setEnabled(held and not running)
        self.reject_button.setEnabled(held and not running
                                      and s.submission.meta.get("verify") != "rejected")
        self.open_button.setEnabled(not running)
        self.run_button.setEnabled(has and not running)
        self.sequence.update_for(self.service, running)
        self.cancel_button.setEnabled(running)
        self.results.rollback_button.setEnabled(has and not running
                                                and self.results.slider.value() < self._current())

    def _current(self) -> int:
        try:
            return self.service.current_step if self.service is not None else 0
        except Exception:  # noqa: BLE001
            return 0

    # ---- the game ------------------------------------------------------------------------

    def set_game(self, path: str | Path) -> bool:
        from engine.service import GameService

        if self.runner.running:
            self.error("Open game", "A turn is running; wait for it or cancel it first.")
            return False
        try:
            svc = GameService.open(path)
            svc.scenario  # noqa: B018 (load now: a broken game fails here, not later)
        except Exception as e:  # noqa: BLE001 (the service says what is wrong)
            self.error("Open game", f"{path}: {e}" if str(path) not in str(e) else str(e))
            return False
        if self.service is not None:
            self.service.close()
        self.service, self.path = svc, Path(path).resolve()
        self._summary = {}
        self.refresh(results=True, new_game=True)
        if self.intake.rowCount() and self.intake.currentRow() < 0:
            self.intake.selectRow(0)
        # nothing collected yet for the next turn: the GM is most likely reviewing the last one
        waiting = any(f.submitted for f in self.dashboard.status.factions) if self.dashboard.status else False
        self.tabs.setCurrentWidget(self.results if svc.current_step > 0 and not waiting else
                                   self.tabs.widget(0))
        self.say(f"Opened {self.path.name}")
        return True

    def sync_with_window(self) -> None:
        """Follow the game the main window has open (File > Open of a game database)."""
        doc = getattr(self.window(), "doc", None)
        if doc is None or getattr(doc, "kind", "") != "game" or doc.path is None:
            return
        target = Path(doc.path).resolve()
        if self.path != target and not self.runner.running:
            self.set_game(target)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.sync_with_window()
        if self.service is not None:
            QTimer.singleShot(0, self.results.map.fit)

    def refresh(self, results: bool = False, new_game: bool = False) -> None:
        svc = self.service
        if svc is None:
            return
        try:
            scen, status = svc.scenario, svc.status()
            subs = svc.submissions()
            problems = svc.problems()
        except Exception as e:  # noqa: BLE001
            self.error("Refresh", str(e))
            return
        dl = deadline(scen.meta, status.pending_step)
        sent = len(status.factions) - len(status.missing)
        plain = step_title(svc.ruleset, 1, scen).startswith(("Turn ", "Step "))  # no own names
        self.title.setText(
            f"<b>{status.game}</b> &nbsp;·&nbsp; {svc.ruleset.title or svc.ruleset.name} "
            f"({status.turn_model}) &nbsp;·&nbsp; last turn run: <b>{status.current_step}</b>"
            + (f" ({step_title(svc.ruleset, status.current_step, scen)})" if status.current_step
               and not plain else "")
            + f" &nbsp;·&nbsp; collecting orders for turn <b>{status.pending_step}</b>"
            + (f" &nbsp;·&nbsp; deadline <b>{dl}</b>" if dl else "")
            + (f" &nbsp;·&nbsp; game turns ended: <b>{status.game_turns}</b>"
               + (f", the next ends by <b>{when(status.game_turn_due)}</b>" if status.game_turn_due else "")
               if status.turn_model == "sequential" else "")
            + f" &nbsp;·&nbsp; {sent} of {len(status.factions)} factions have sent orders")
        self.run_button.setText(f"Run turn {status.pending_step}")
        self.dashboard.show_status(status)
        self.intake.show_submissions(subs, status.pending_step, {f.number for f in scen.factions})
        self.problems.setText("\n".join(d.format() for d in problems[-5:]))
        self.problems.setVisible(bool(problems))
        self._show_selected()
        if results or new_game:
            self.results.load(svc)
            self._charts_dirty = True
            if self.tabs.currentWidget() is self.charts:
                self.update_charts()
        self._set_enabled()

    def summary(self) -> dict[int, dict[int, dict[str, float]]]:
        """service.summary(), computed once per step (a 30-turn game reloads nothing)."""
        svc = self.service
        cur = svc.current_step
        for step in [s for s in self._summary if s > cur]:
            del self._summary[step]
        scen = svc.scenario
        for step in range(cur + 1):
            if step not in self._summary:
                try:
                    self._summary[step] = svc.ruleset.summary(svc.state(step), scen)
                except Exception:  # noqa: BLE001 (charts are a view; never fail the console)
                    self._summary[step] = {}
        return {s: self._summary[s] for s in range(cur + 1)}

    def update_charts(self) -> None:
        """Rebuild the charts if turns were run or rolled back since they were drawn."""
        if self.service is None or not self._charts_dirty:
            return
        scen = self.service.scenario
        self.charts.show_summary(self.summary(), {f.number: f.name for f in scen.factions},
                                 {f.number: f.colour for f in scen.factions})
        self._charts_dirty = False

    # ---- intake --------------------------------------------------------------------------

    def import_paths(self, paths: list[str | Path]):
        if self.service is None:
            self.error("Import", "Open a game first.")
            return None
        try:
            rep = self.service.import_paths([str(p) for p in paths])
        except Exception as e:  # noqa: BLE001
            self.error("Import", str(e))
            return None
        self.refresh()
        if rep.results:
            self.intake.select_id(rep.results[-1].submission_id)
        lines = [r.line() for r in rep.results] + [d.format() for d in rep.problems]
        self.say(f"Imported {len(rep.results)} submission(s)"
                 + (f", {len(rep.unmatched)} unmatched" if rep.unmatched else "")
                 + (f", {len(rep.problems)} problem(s)" if rep.problems else ""))
        self.last_import = lines
        return rep

    def paste_text(self, text: str, faction: int | None = None):
        if self.service is None or not text.strip():
            return None
        try:
            res = self.service.import_text(text, "paste", "pasted", faction=faction)
        except Exception as e:  # noqa: BLE001
            self.error("Paste orders", str(e))
            return None
        self.refresh()
        self.intake.select_id(res.submission_id)
        self.say(res.line().splitlines()[0])
        return res

    def reassign(self, submission_id: int, faction: int | None, step: int | None = None):
        try:
            res = self.service.reassign(submission_id, faction, step)
        except Exception as e:  # noqa: BLE001
            self.error("Reassign", str(e))
            return None
        self.refresh()
        self.intake.select_id(submission_id)
        self.say(f"Submission {submission_id} now for "
                 + (f"faction {faction}, turn {res.submission.step}" if faction else "nobody"))
        return res

    def decide_held(self, decision: str, submission_id: int | None = None):
        """Accept or reject a held submission (the selected one by default)."""
        if submission_id is None:
            s = self.intake.current()
            if s is None:
                self.say("Select a held submission in the intake list first")
                return None
            submission_id = s.id
        act = self.service.accept if decision == "accept" else self.service.reject
        try:
            res = act(submission_id)
        except Exception as e:  # noqa: BLE001
            self.error(decision.title(), str(e))
            return None
        self.refresh()
        self.intake.select_id(submission_id)
        self.say(f"Submission {submission_id}: {res.note}")
        return res

    def _show_selected(self) -> None:
        self.view.show_submission(self.intake.current())
        self._set_enabled()

    def _factions(self) -> list[tuple[int, str]]:
        return [(f.number, f.name) for f in self.service.scenario.factions] if self.service else []

    def open_game_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game", "", "Game databases (*.rsgame *.db "
                                              "*.sqlite);;All files (*)")
        if path:
            self.set_game(path)

    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Import orders", "", "Orders and mail (*.txt "
                                                "*.eml *.mbox *.mbx *.r* *.json *.csv);;All files (*)")
        if paths:
            self.import_paths(paths)

    def import_folder_dialog(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Import a folder of orders")
        if path:
            self.import_paths([path])

    def paste_dialog(self) -> None:
        if self.service is None:
            return
        dlg = PasteDialog(self._factions(), self)
        if dlg.exec():
            self.paste_text(dlg.text.toPlainText(), dlg.faction.currentData())

    def reassign_dialog(self) -> None:
        s = self.intake.current()
        if s is None or self.service is None:
            self.say("Select a submission in the intake list first")
            return
        dlg = ReassignDialog(self._factions(), s.faction, s.step, self.service.pending_step, self)
        if dlg.exec():
            faction, step = dlg.choice()
            self.reassign(s.id, faction, step)

    def intervene(self, iv):
        """Make a GM intervention (engine.interventions) at the current turn boundary."""
        if self.service is None:
            return None
        from engine.interventions import InterventionRefused

        try:
            rec = self.service.intervene(iv)
        except InterventionRefused as e:
            self.error("GM intervention", f"Refused: {e}. Nothing was changed.")
            return None
        self.refresh(results=True)
        self.say(rec.line())
        return rec

    def intervene_dialog(self, kind: str = "") -> None:
        if self.service is None:
            return
        dlg = InterventionDialog(self._factions(), parent=self)
        if kind:
            dlg.set_kind(kind)
        if dlg.exec():
            self.intervene(dlg.intervention())

    # ---- drag and drop -------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        self.drop_paths(paths)

    def drop_paths(self, paths: list[Path]) -> None:
        """A game database opens the game; anything else is imported as orders."""
        from app.documents import is_sqlite

        if len(paths) == 1 and paths[0].is_file() and is_sqlite(paths[0]) and \
                not paths[0].name.endswith(".rsbundle"):
            self.set_game(paths[0])
        else:
            self.import_paths(paths)

    # ---- running -------------------------------------------------------------------------

    def run_turn(self) -> bool:
        due = self.service.pending_step if self.service is not None else 0
        early = self.sequence.early.isChecked() and self.sequence.shown()
        # the turn the GM asked for, not whatever is next then; early: `run --early`
        return self.start_job(f"running turn {due}…", lambda svc, progress, cancel: svc.run(
            progress, cancel, for_step=due, early=early))

    def start_job(self, label: str, job) -> bool:
        """Run a job on the game off the GUI thread (a turn, or a GM step of a sequential
        game); its RunResult comes back to _run_done like a turn's."""
        if self.service is None or self.runner.running:
            return False
        self.last_error = ""
        self._t0 = time.perf_counter()
        self._last_tick = self._t0
        self.last_run = RunTiming(step=self.service.pending_step)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.run_label.setText(label)
        self.runner.start(self.service.where, self.service.name, job)
        self._tick.start()
        self._set_enabled()
        return True

    def cancel_run(self) -> None:
        if self.runner.running:
            self.runner.cancel()
            self.run_label.setText("cancelling…")

    def _on_tick(self) -> None:
        now = time.perf_counter()
        self.last_run.longest_gap = max(self.last_run.longest_gap, now - self._last_tick)
        self.last_run.ticks += 1
        self._last_tick = now

    def _progress(self, frac: float, msg: str) -> None:
        self.progress.setValue(int(frac * 1000))
        self.run_label.setText(msg)

    def _finish(self, outcome: str) -> None:
        self._tick.stop()
        self.progress.setVisible(False)
        self._on_tick()
        self.last_run.worker_seconds = self.runner.seconds
        self.last_run.seconds = time.perf_counter() - self._t0
        self.last_run.refresh_seconds = time.perf_counter() - self._refresh_t0
        self.last_run.outcome = outcome
        self._set_enabled()
        self.runFinished.emit(outcome)

    def _worker_returned(self) -> None:
        self._on_tick()
        self.last_run.gap_while_running = self.last_run.longest_gap
        self._refresh_t0 = time.perf_counter()

    def _run_done(self, result) -> None:
        self._worker_returned()
        self.progress.setValue(1000)
        if result.steps:
            self.refresh(results=True)
            self.tabs.setCurrentWidget(self.results)
            nmr = {s: v for s, v in result.nmr.items() if v}
            text = (f"turn {', '.join(map(str, result.steps))} run: {result.events} events, "
                    f"{result.reports} reports" + (f"; no orders from {nmr}" if nmr else "")
                    + (f" ({result.note})" if result.note and result.steps else ""))
        else:
            self.refresh()
            text = result.note or "nothing to run"
        self._finish("done")
        self.run_label.setText(f"{text} ({self.last_run.seconds:.1f} s)")
        self.say(text)

    def _run_failed(self, why: str) -> None:
        self._worker_returned()
        self.last_error = why
        self.progress.setValue(0)
        self.refresh()
        self._finish("failed")
        self.run_label.setText("run failed; the game is unchanged")
        self.error("Run failed", why)

    def _run_cancelled(self, why: str) -> None:
        self._worker_returned()
        self.progress.setValue(0)
        self.refresh()
        self._finish("cancelled")
        self.run_label.setText(why)
        self.say(why)

    # ---- history -------------------------------------------------------------------------

    def rollback(self, step: int, confirm: bool | None = None) -> bool:
        if self.service is None or self.runner.running:
            return False
        cur = self.service.current_step
        if step >= cur:
            return False
        if confirm if confirm is not None else self.interactive:
            r = QMessageBox.question(
                self, "Roll back", f"Forget turns {step + 1} to {cur} of {self.service.name}?\n\n"
                f"Their events and reports are deleted; the orders received for them stay and "
                f"wait to be run again (import corrected or late orders first if you like).")
            if r != QMessageBox.StandardButton.Yes:
                return False
        try:
            self.service.rollback(step)
        except Exception as e:  # noqa: BLE001
            self.error("Roll back", str(e))
            return False
        self._summary = {s: v for s, v in self._summary.items() if s <= step}
        self.refresh(results=True)
        self.tabs.setCurrentIndex(0)
        self.say(f"Rolled back to turn {step}; run turn {step + 1} again when ready")
        return True

    # ---- export --------------------------------------------------------------------------

    def export_to(self, folder: str | Path, step: int | None = None) -> ExportResult | None:
        if self.service is None:
            return None
        try:
            res = export_turn(self.service, folder, step)
        except Exception as e:  # noqa: BLE001
            self.error("Export", f"{folder}: {e}")
            return None
        try:
            self.update_charts()
            res.charts = self.charts.export_png(Path(folder) / "charts.png") if self.charts.plots else None
        except Exception as e:  # noqa: BLE001
            res.notes.append(f"charts not written ({type(e).__name__}: {e})")
        self.say(res.summary().splitlines()[0])
        return res

    def export_in_background(self, folder: str | Path, step: int | None = None) -> bool:
        """Reports, bundles and outbox in the worker thread (a big game has many bundles);
        the map PNG and the charts follow on the GUI thread. exportFinished tells the end."""
        if self.service is None or self.runner.running:
            return False
        folder = Path(folder)
        self._export_step = self.service.current_step if step is None else step
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.run_label.setText(f"exporting turn {self._export_step}…")
        self.runner.start(self.service.where, self.service.name,
                          lambda svc, progress, cancel: export_files(
                              svc, folder, self._export_step, "", progress, cancel), "export")
        self._set_enabled()
        return True

    def _export_done(self, res: ExportResult) -> None:
        self.progress.setVisible(False)
        export_images(self.service, res, self._export_step)
        try:
            self.update_charts()
            res.charts = self.charts.export_png(res.folder / "charts.png") if self.charts.plots else None
        except Exception as e:  # noqa: BLE001
            res.notes.append(f"charts not written ({type(e).__name__}: {e})")
        self._set_enabled()
        self.run_label.setText(res.summary().splitlines()[0])
        self.say(res.summary().splitlines()[0])
        if self.interactive:
            QMessageBox.information(self, "Export", res.summary())
        self.exportFinished.emit(res)

    def _export_failed(self, why: str) -> None:
        self.progress.setVisible(False)
        self._set_enabled()
        self.run_label.setText("export stopped")
        self.error("Export", why)
        self.exportFinished.emit(None)

    def export_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the turn into a folder")
        if folder:
            self.export_in_background(folder)

    def export_map_dialog(self, path: str | None = None) -> bool:
        """The political map of the turn shown in Results (the latest if none) as a PNG."""
        if self.service is None:
            return False
        step = self.results.slider.value() if self.results.service is self.service \
            else self.service.current_step
        if path is None:
            from engine.service import export_stem

            name = f"{export_stem(self.service.name)}-t{step:03d}-map.png"
            path, _ = QFileDialog.getSaveFileName(self, "Save map", name, "PNG image (*.png)")
            if not path:
                return False
        try:
            from app.render import export_political_png

            export_political_png(self.service, path, step)
        except Exception as e:  # noqa: BLE001 (disk full, a ruleset hook failing: say so)
            self.error("Save map", f"{path}: {e}")
            return False
        self.say(f"Saved {path}")
        return True

    def export_charts_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save charts", "charts.png", "PNG image (*.png)")
        if path:
            try:
                self.update_charts()
                self.charts.export_png(path)
            except Exception as e:  # noqa: BLE001
                self.error("Save charts", f"{path}: {e}")
            else:
                self.say(f"Saved {path}")

    # ---- messages ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.statusMessage.emit(text)

    def error(self, title: str, text: str) -> None:
        self.last_error = text
        self.statusMessage.emit(text)
        if self.interactive:
            QMessageBox.warning(self, title, text)

    def close_game(self) -> None:
        self.runner.cancel()
        self.runner.wait()
        if self.service is not None:
            self.service.close()
            self.service = None
