"""Intake: the submissions received, how each was matched, and its text with diagnostics.

IntakeTable lists every stored submission (service.submissions()); SubmissionView shows
one text with each diagnostic's line highlighted and the messages in a list beside it
(clicking a message jumps to its line). ReassignDialog and PasteDialog are the GM's two
manual intake actions; held submissions (sender not verified) are accepted or rejected with
the console's Accept and Reject buttons.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from engine.db.journal import StoredSubmission
from engine.intake import verify
from engine.orders import Diagnostic, Severity

COLUMNS = ("#", "Source", "From", "Received", "Faction", "Turn", "Status", "Errors",
           "Warnings", "Matched by")
LINE_COLOUR = {Severity.ERROR: "#f7c6c2", Severity.WARNING: "#fbe6b3"}


def submission_status(s: StoredSubmission, pending: int, factions: set[int]) -> str:
    """What will happen to a submission, in a few words."""
    return s.state_words(pending, factions)


class IntakeTable(QTableWidget):
    def __init__(self, parent=None):
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("consoleIntake")
        self.setHorizontalHeaderLabels(COLUMNS)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        h = self.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.subs: list[StoredSubmission] = []

    def show_submissions(self, subs: list[StoredSubmission], pending: int, factions: set[int]) -> None:
        keep = self.current_id()
        self.subs = list(reversed(subs))  # newest first: what the GM just dropped is on top
        self.setRowCount(len(self.subs))
        for row, s in enumerate(self.subs):
            sub = s.submission
            errors = sum(d.severity == Severity.ERROR for d in s.diagnostics)
            warnings = sum(d.severity == Severity.WARNING for d in s.diagnostics)
            status = submission_status(s, pending, factions)
            name = sub.source_name or sub.source_kind
            values = (str(s.id), name.rsplit("/", 1)[-1], sub.sender, sub.received_at or s.imported_at,
                      str(sub.meta.get("role", "")) if sub.faction is None else str(sub.faction),
                      "" if sub.step is None else str(sub.step), status, str(errors),
                      str(warnings), sub.matched_by)
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                item.setData(Qt.ItemDataRole.UserRole, s.id)
                if col == 1:
                    item.setToolTip(name)
                if col == 6 and status not in ("waiting for the run", sub.meta.get("role")) \
                        and not status.startswith("used"):
                    item.setForeground(QColor("#b03a2e"))
                if col == 7 and errors:
                    item.setForeground(QColor("#c0392b"))
                self.setItem(row, col, item)
        if keep is not None:
            self.select_id(keep)

    def current_id(self) -> int | None:
        row = self.currentRow()
        return self.subs[row].id if 0 <= row < len(self.subs) else None

    def current(self) -> StoredSubmission | None:
        row = self.currentRow()
        return self.subs[row] if 0 <= row < len(self.subs) else None

    def select_id(self, sid: int) -> bool:
        for row, s in enumerate(self.subs):
            if s.id == sid:
                self.selectRow(row)
                return True
        return False

    def row_of(self, source_name_part: str) -> int:
        for row, s in enumerate(self.subs):
            if source_name_part in (s.submission.source_name or ""):
                return row
        return -1

    def values(self, row: int) -> dict[str, str]:
        return {COLUMNS[c]: self.item(row, c).text() for c in range(self.columnCount())}


class SubmissionView(QWidget):
    """The orders text, diagnostic lines highlighted, messages in a list beside it."""

    lineActivated = Signal(int)  # noqa: N815 (Qt naming)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.header = QLabel("Select a submission to see its text and what the checker found.")
        self.header.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setObjectName("submissionText")
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        f = QFont("monospace")
        f.setStyleHint(QFont.StyleHint.TypeWriter)
        self.text.setFont(f)
        self.problems = QListWidget()
        self.problems.setObjectName("submissionProblems")
        self.problems.setWordWrap(True)
        self.problems.currentRowChanged.connect(self._jump)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.text)
        split.addWidget(self.problems)
        split.setSizes([600, 360])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.header)
        lay.addWidget(split, 1)
        self.diagnostics: list[Diagnostic] = []

    def show_submission(self, s: StoredSubmission | None) -> None:
        self.problems.clear()
        self.diagnostics = []
        if s is None:
            self.text.setPlainText("")
            self.header.setText("Select a submission to see its text and what the checker found.")
            return
        sub = s.submission
        self.header.setText(f"<b>{sub.source_name or sub.source_kind}</b> — {sub.source_kind}"
                            + (f" from {sub.sender}" if sub.sender else "")
                            + (f", subject “{sub.subject}”" if sub.subject else "")
                            + f"<br>matched by: {sub.matched_by or 'nothing'}"
                            + (f"<br><b>held for you</b>: {sub.meta.get(verify.NOTE, '')} — "
                               "Accept or Reject" if s.faction is not None and
                               verify.state_of(sub.meta) == verify.HELD else ""))
        self.text.setPlainText(sub.text)
        self.diagnostics = sorted(s.diagnostics, key=lambda d: (d.line or 0, d.col or 0))
        selections = []
        doc = self.text.document()
        for d in self.diagnostics:
            where = f"line {d.line}" if d.line else "whole text"
            item = QListWidgetItem(f"{where} · {d.severity.value} ({d.kind}): {d.message}")
            item.setForeground(QColor("#c0392b" if d.severity == Severity.ERROR else "#9a6a00"
                                      if d.severity == Severity.WARNING else "#555555"))
            item.setToolTip(d.format())
            self.problems.addItem(item)
            if d.line and 0 < d.line <= doc.blockCount():
                sel = QTextEdit.ExtraSelection()
                sel.format.setBackground(QColor(LINE_COLOUR.get(d.severity, "#e3e3e3")))
                sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                sel.format.setToolTip(d.message)
                cur = QTextCursor(doc.findBlockByNumber(d.line - 1))
                sel.cursor = cur
                selections.append(sel)
        self.text.setExtraSelections(selections)

    def highlighted_lines(self) -> list[int]:
        return [s.cursor.blockNumber() + 1 for s in self.text.extraSelections()]

    def _jump(self, row: int) -> None:
        if not 0 <= row < len(self.diagnostics):
            return
        line = self.diagnostics[row].line
        if not line:
            return
        block = self.text.document().findBlockByNumber(line - 1)
        if block.isValid():
            cur = QTextCursor(block)
            self.text.setTextCursor(cur)
            self.text.centerCursor()
            self.lineActivated.emit(line)


class ReassignDialog(QDialog):
    """The GM's own match: a faction (or none) and the turn the orders are for."""

    def __init__(self, factions: list[tuple[int, str]], faction: int | None, step: int | None,
                 pending: int, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Reassign submission")
        self.faction = QComboBox()
        self.faction.addItem("— not matched —", None)
        for n, name in factions:
            self.faction.addItem(f"{n}: {name}", n)
        idx = self.faction.findData(faction)
        self.faction.setCurrentIndex(max(0, idx))
        self.step = QSpinBox()
        self.step.setRange(1, 100000)
        self.step.setValue(step if step is not None else pending)
        form = QFormLayout(self)
        form.addRow("Faction", self.faction)
        form.addRow("For turn", self.step)
        form.addRow(QLabel(f"The game is collecting orders for turn {pending}."))
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        form.addRow(box)

    def choice(self) -> tuple[int | None, int]:
        return self.faction.currentData(), self.step.value()


class PasteDialog(QDialog):
    """Orders pasted from anywhere: matched like any text, or given to a faction."""

    def __init__(self, factions: list[tuple[int, str]], parent=None):
        super().__init__(parent)
        self.setWindowTitle("Paste orders")
        self.resize(640, 480)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("Paste the orders (with their header) here")
        self.faction = QComboBox()
        self.faction.addItem("match from the text", None)
        for n, name in factions:
            self.faction.addItem(f"{n}: {name}", n)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        form = QFormLayout()
        form.addRow("Faction", self.faction)
        lay.addLayout(form)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
