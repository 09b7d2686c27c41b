"""Results and history: any step's map (owners, what changed), events, reports and state.

A slider picks the step (0 = the start, the last = the turn just run). "Roll back to
this turn" forgets the later turns (the service keeps their orders waiting) so the GM
can import corrected or late orders and run again.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.canvas.political import legend_html
from app.chronicle import BattlesView, EventsView
from app.console.gm import InterventionsView
from app.console.mapview import ConsoleMap, cell_records
from engine.chronicle import Chronicle, chronicle_of
from engine.events import EventRecord
from engine.political import political_map
from engine.ruleset import step_title
from engine.state import State
from engine.viewer_model import notation_of


def mono() -> QFont:
    f = QFont("monospace")
    f.setStyleHint(QFont.StyleHint.TypeWriter)
    return f


class ResultsPage(QWidget):
    rollbackRequested = Signal(int)  # noqa: N815 (Qt naming)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.service = None
        self._states: dict[int, State] = {}
        self._cells: dict[int, dict[int, list[tuple]]] = {}
        # history bar
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("historySlider")
        self.slider.setRange(0, 0)
        self.slider.setPageStep(1)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.step_label = QLabel("turn 0")
        self.step_label.setMinimumWidth(200)
        self.rollback_button = QPushButton("Roll back to this turn…")
        self.rollback_button.setObjectName("rollbackButton")
        self.rollback_button.clicked.connect(lambda: self.rollbackRequested.emit(self.slider.value()))
        bar = QHBoxLayout()
        bar.addWidget(QLabel("History:"))
        bar.addWidget(self.slider, 1)
        bar.addWidget(self.step_label)
        bar.addWidget(self.rollback_button)
        # map
        self.map = ConsoleMap()
        bar.insertWidget(0, self.map.toolbar)
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.map, 1)
        ll.addWidget(self.legend)
        # events and battles, told as the report tells them; a click goes to the place
        self.events = EventsView()
        self.events.placePicked.connect(self.map.go_to)
        self.battles = BattlesView()
        self.battles.placePicked.connect(self.map.go_to)
        self.report_who = QComboBox()
        self.report_fmt = QComboBox()
        self.report = QPlainTextEdit()
        self.report.setObjectName("reportText")
        self.report.setReadOnly(True)
        self.report.setFont(mono())
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.report_who.currentIndexChanged.connect(self._show_report)
        self.report_fmt.currentIndexChanged.connect(self._show_report)
        rep = QWidget()
        rl = QVBoxLayout(rep)
        row = QHBoxLayout()
        row.addWidget(QLabel("Report of"))
        row.addWidget(self.report_who, 1)
        row.addWidget(self.report_fmt)
        rl.addLayout(row)
        rl.addWidget(self.report, 1)
        self.table_pick = QComboBox()
        self.state_table = QTableWidget()
        self.state_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.state_table.setSortingEnabled(True)
        self.table_pick.currentTextChanged.connect(self._show_table)
        stw = QWidget()
        sl = QVBoxLayout(stw)
        sl.addWidget(self.table_pick)
        sl.addWidget(self.state_table, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.events, "Events")
        self.tabs.addTab(self.battles, "Battles")
        self.tabs.addTab(rep, "Reports")
        self.tabs.addTab(stw, "State")
        self.interventions = InterventionsView()  # the GM's hand (app/console/gm.py)
        self.tabs.addTab(self.interventions, "GM")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        self.slider.valueChanged.connect(self.show_step)
        self._records: list[EventRecord] = []
        self.chronicle = Chronicle()

    # ---- loading ----------------------------------------------------------------------

    def load(self, service, step: int | None = None) -> None:
        """A game was opened, or turns were run or rolled back: rebuild for it."""
        new_game = self.service is not service
        self.service = service
        cur = service.current_step
        if new_game:
            self._states, self._cells = {}, {}
        # earlier steps never change (rollback only forgets later ones); the last may be new
        self._states = {k: v for k, v in self._states.items() if k < cur}
        self._cells = {k: v for k, v in self._cells.items() if k < cur}
        scen = service.scenario
        if new_game or self.map.scene is None:
            self.map.set_map(scen.map, notation=notation_of(service.ruleset))
        self.report_who.blockSignals(True)
        self.report_who.clear()
        self.report_who.addItem("the GM", None)
        for f in scen.factions:
            self.report_who.addItem(f"{f.number}: {f.name}", f.number)
        self.report_who.blockSignals(False)
        self.report_fmt.blockSignals(True)
        self.report_fmt.clear()
        self.report_fmt.addItems(list(service.ruleset.formats(scen)))
        self.report_fmt.blockSignals(False)
        self.slider.blockSignals(True)
        self.slider.setRange(0, cur)
        self.slider.setValue(cur if step is None else min(step, cur))
        self.slider.blockSignals(False)
        self.show_step(self.slider.value())

    def state(self, step: int) -> State:
        if step not in self._states:
            self._states[step] = self.service.state(step)
        return self._states[step]

    def records(self, step: int) -> dict[int, list[tuple]]:
        if step not in self._cells:
            self._cells[step] = cell_records(self.state(step), self.service.scenario.map.areas)
        return self._cells[step]

    def show_step(self, step: int) -> None:
        svc = self.service
        if svc is None:
            return
        cur = svc.current_step
        st = self.state(step)
        now = self.records(step)
        before = self.records(step - 1) if step > 0 else now
        changed = {c for c in set(now) | set(before) if now.get(c) != before.get(c)}
        pm = political_map(svc.ruleset, svc.scenario, st, step)
        self.map.show_state(pm, changed)
        self.legend.setText(legend_html(pm))
        named = step_title(svc.ruleset, step, svc.scenario)
        self.step_label.setText(named + ("" if named.lower().startswith(("turn", "step", "game turn")) else f" (turn {step})")
                                + f" of {cur} · {len(changed)} cells changed")
        self.rollback_button.setEnabled(step < cur)
        log = svc.events(step)
        self._records = list(log.records)
        names = {f.number: f.name for f in svc.scenario.factions}
        self.chronicle = chronicle_of(svc.ruleset, log, st, svc.scenario)
        self.events.set_chronicle(self.chronicle, names)
        self.battles.set_chronicle(self.chronicle, names, f"No battles in {named}.")
        self._show_report()
        keep_table = self.table_pick.currentText()
        self.table_pick.blockSignals(True)
        self.table_pick.clear()
        self.table_pick.addItems(sorted(st.tables))
        if keep_table in st.tables:
            self.table_pick.setCurrentText(keep_table)
        self.table_pick.blockSignals(False)
        self._show_table(self.table_pick.currentText())
        self.interventions.show_history(svc, step)

    # ---- panes --------------------------------------------------------------------------

    def visible_events(self) -> list[str]:
        return self.events.visible_lines()

    def _show_report(self, *_args) -> None:
        svc = self.service
        if svc is None:
            return
        step = self.slider.value()  # turn 0: the starting position, made when asked
        try:
            text = svc.report(step, self.report_who.currentData(), self.report_fmt.currentText() or "text")
        except Exception as e:  # noqa: BLE001 (a missing report is said, not raised)
            text = str(e)
        self.report.setPlainText(text)

    def _show_table(self, name: str) -> None:
        self.state_table.setSortingEnabled(False)
        st = self._states.get(self.slider.value())
        rows = st.tables.get(name, []) if st is not None and name else []
        cls = st.schema.get(name) if st is not None and name else None
        cols = [f.name for f in dataclasses.fields(cls)] if cls is not None else []
        self.state_table.clear()
        self.state_table.setColumnCount(len(cols))
        self.state_table.setHorizontalHeaderLabels(cols)
        shown = rows[:5000]  # a view, not a dump: a 5,000-army table is the big case
        self.state_table.setRowCount(len(shown))
        for i, r in enumerate(shown):
            for j, c in enumerate(cols):
                item = QTableWidgetItem()
                item.setData(Qt.ItemDataRole.DisplayRole, getattr(r, c))
                self.state_table.setItem(i, j, item)
        self.state_table.setSortingEnabled(True)
