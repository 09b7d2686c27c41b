"""The orders editor: keyword completion, syntax colouring, and the GM's own checker
(ruleset.parse_orders + ruleset.check on the report's state) re-run as you type."""

from __future__ import annotations

import re

from PySide6.QtCore import QRegularExpression, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCompleter,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.orders import Diagnostic, Severity
from engine.viewer_model import TurnView

DEBOUNCE_MS = 300
LINE_ROLE = Qt.ItemDataRole.UserRole + 10


def check_orders(tv: TurnView, text: str, source: str = "") -> list[Diagnostic]:
    """Exactly what the GM's intake runs on a sheet: parse, then check against the state."""
    rs = tv.ruleset
    try:
        sheet = rs.parse_orders(text, source=source)
    except Exception as e:  # noqa: BLE001 (a parser must never raise; say so if it does)
        return [Diagnostic("invalid", f"the orders reader failed ({type(e).__name__}: {e})")]
    out = list(sheet.diagnostics)
    try:
        out += tv.check(sheet)
    except Exception as e:  # noqa: BLE001
        out.append(Diagnostic("illegal", f"the orders checker failed ({type(e).__name__}: {e})"))
    return sorted(out, key=lambda d: (d.line or 0, d.col or 0))


def _fmt(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    f = QTextCharFormat()
    f.setForeground(QColor(colour))
    if bold:
        f.setFontWeight(QFont.Weight.Bold)
    f.setFontItalic(italic)
    return f


class OrdersHighlighter(QSyntaxHighlighter):
    """Keywords, numbers, strings and comments; lines with an error get a red wave."""

    def __init__(self, document, keywords: list[str], comment: str | None = None,
                 quotes: str = "\"'"):
        super().__init__(document)
        self.keyword = _fmt("#1f4fb3", bold=True)
        self.number = _fmt("#a0522d")
        self.string = _fmt("#2e7d32")
        self.comment = _fmt("#808080", italic=True)
        self.bad_lines: dict[int, Severity] = {}
        self.rx_number = QRegularExpression(r"\b\d+\b")
        self.set_syntax(comment, quotes)
        self.set_keywords(keywords)

    def set_syntax(self, comment: str | None = None, quotes: str = "\"'") -> None:
        """The ruleset's comment pattern (Atlantis `;`) and quote characters."""
        self.rx_string = QRegularExpression("|".join(
            f"{re.escape(q)}[^{re.escape(q)}]*{re.escape(q)}?" for q in quotes) or r"(?!x)x")
        self.rx_comment = QRegularExpression(comment or r"(^\s*#|//|\s#).*$")

    def set_keywords(self, keywords: list[str]) -> None:
        words = sorted({re.escape(w) for w in keywords if w}, key=len, reverse=True)
        # whole words, and not the `s` of "Robin's" (S is a direction in CC)
        pattern = r"(?<![\w'])(" + "|".join(words) + r")(?![\w'])" if words else r"(?!x)x"
        self.rx_keyword = QRegularExpression(
            pattern, QRegularExpression.PatternOption.CaseInsensitiveOption)
        self.rehighlight()

    def set_problems(self, lines: dict[int, Severity]) -> None:
        if lines != self.bad_lines:
            self.bad_lines = lines
            self.rehighlight()

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt API)
        for rx, fmt in ((self.rx_keyword, self.keyword), (self.rx_number, self.number),
                        (self.rx_string, self.string)):
            it = rx.globalMatch(text)
            while it.hasNext():
                m = it.next()
                self.setFormat(m.capturedStart(), m.capturedLength(), fmt)
        m = self.rx_comment.match(text)
        if m.hasMatch():
            self.setFormat(m.capturedStart(), len(text) - m.capturedStart(), self.comment)
        sev = self.bad_lines.get(self.currentBlock().blockNumber() + 1)
        if sev is not None and text.strip():
            for i in range(len(text)):
                f = self.format(i)
                f.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                f.setUnderlineColor(QColor("#d32f2f" if sev == Severity.ERROR else "#e0a000"))
                self.setFormat(i, 1, f)


class CompletingEdit(QPlainTextEdit):
    """A plain text editor with a keyword popup after two letters (Tab/Enter accepts)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.words = QStringListModel(self)
        self.completer = QCompleter(self.words, self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.activated.connect(self.insert_completion)
        self.keywords: list[str] = []
        # the words that fit after the text before the cursor (None: the keywords)
        self.context = None

    def set_keywords(self, words: list[str]) -> None:
        self.keywords = sorted(words, key=str.casefold)
        self.words.setStringList(self.keywords)

    def line_before_cursor(self) -> str:
        c = self.textCursor()
        return c.block().text()[:c.positionInBlock()]

    def word_before_cursor(self) -> str:
        m = re.search(r"[A-Za-z0-9_#]+$", self.line_before_cursor())
        return m.group(0) if m else ""

    def candidates(self) -> tuple[list[str], int]:
        """The words to offer here and how many typed characters open the list: the
        ruleset's words for this place in the order (one character: `STUDY co`, `unit 1`),
        else the order keywords (two letters)."""
        words = self.context(self.line_before_cursor()) if self.context is not None else None
        if words is None:
            return self.keywords, 2
        return list(dict.fromkeys(words)), 1  # in the ruleset's order (names before codes)

    def insert_completion(self, word: str) -> None:
        prefix = self.word_before_cursor()
        c = self.textCursor()
        c.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(prefix))
        # keep the writer's case style: upper-case words stay upper case
        c.insertText(word.upper() if prefix.isupper() and len(prefix) > 1 else word)
        self.setTextCursor(c)

    def show_completions(self, force: bool = False) -> bool:
        """Open the list for the word being typed (Ctrl+Space: even with nothing typed)."""
        popup = self.completer.popup()
        words, least = self.candidates()
        prefix = self.word_before_cursor()
        if not words or (len(prefix) < least and not force):
            popup.hide()
            return False
        self.words.setStringList(words)
        self.completer.setCompletionPrefix(prefix)
        n = self.completer.completionCount()
        if not n or (n == 1 and self.completer.currentCompletion().casefold() == prefix.casefold()):
            popup.hide()
            return False
        rect = self.cursorRect()
        rect.setWidth(220)
        popup.setCurrentIndex(self.completer.completionModel().index(0, 0))
        self.completer.complete(rect)
        return True

    def keyPressEvent(self, event) -> None:  # noqa: N802
        popup = self.completer.popup()
        if popup.isVisible() and event.key() in (Qt.Key.Key_Enter, Qt.Key.Key_Return,
                                                  Qt.Key.Key_Tab, Qt.Key.Key_Escape):
            if event.key() == Qt.Key.Key_Escape:
                popup.hide()
                return
            idx = popup.currentIndex()
            word = idx.data() if idx.isValid() else self.completer.currentCompletion()
            popup.hide()
            if word:
                self.insert_completion(word)
            return
        if event.key() == Qt.Key.Key_Space and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.show_completions(force=True)
            return
        super().keyPressEvent(event)
        if event.text() and (event.text().isalnum() or event.text() == "_"):
            self.show_completions()
            return
        popup.hide()


class OrdersPanel(QWidget):
    """Editor over a problem list. Problems jump to their line and say which cells they name."""

    problemActivated = Signal(object)  # noqa: N815 (Diagnostic)
    checked = Signal(list)  # noqa: N815

    def __init__(self, parent=None):
        super().__init__(parent)
        self.turn: TurnView | None = None
        self.source = ""
        self.edit = CompletingEdit()
        self.highlighter = OrdersHighlighter(self.edit.document(), [])
        self.problems = QListWidget()
        self.problems.setObjectName("orderProblems")
        self.problems.itemActivated.connect(self._activated)
        self.problems.itemClicked.connect(self._activated)
        self.diagnostics: list[Diagnostic] = []
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.run_check)
        self.edit.textChanged.connect(self.timer.start)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.edit)
        split.addWidget(self.problems)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)

    def set_turn(self, tv: TurnView, keywords: list[str], source: str, text: str | None = None,
                 context=None) -> None:
        self.turn, self.source = tv, source
        self.edit.set_keywords(keywords)
        self.edit.context = context
        self.highlighter.set_syntax(getattr(tv.ruleset, "order_comment", None),
                                    getattr(tv.ruleset, "order_quotes", "\"'"))
        self.highlighter.set_keywords(keywords)
        self.edit.setPlainText(tv.template if text is None else text)
        self.run_check()

    def text(self) -> str:
        return self.edit.toPlainText()

    def run_check(self) -> list[Diagnostic]:
        self.timer.stop()
        if self.turn is None:
            return []
        diags = check_orders(self.turn, self.text(), self.source)
        self.diagnostics = diags
        self.problems.clear()
        worst: dict[int, Severity] = {}
        for d in diags:
            sev = d.severity
            where = f"line {d.line}" if d.line else "sheet"
            item = QListWidgetItem(f"{where}: [{d.kind}] {d.message}")
            item.setData(LINE_ROLE, d)
            item.setForeground(QColor("#c62828" if sev == Severity.ERROR else "#a06a00"
                                      if sev == Severity.WARNING else "#555555"))
            self.problems.addItem(item)
            if d.line and (worst.get(d.line) != Severity.ERROR):
                worst[d.line] = sev
        if not diags:
            self.problems.addItem(QListWidgetItem("No problems found."))
        self.highlighter.set_problems(worst)
        self.checked.emit(diags)
        return diags

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.ERROR]

    def go_to_line(self, line: int) -> None:
        block = self.edit.document().findBlockByNumber(max(0, line - 1))
        c = QTextCursor(block)
        self.edit.setTextCursor(c)
        self.edit.centerCursor()
        self.edit.setFocus()

    def _activated(self, item: QListWidgetItem) -> None:
        d = item.data(LINE_ROLE)
        if d is None:
            return
        if d.line:
            self.go_to_line(d.line)
        self.problemActivated.emit(d)

    def append_order(self, line: str, unit: int | None = None) -> int:
        """Insert an order where the ruleset puts it: among the unit's orders (Atlantis),
        else before END (keeping the header and BEGIN/END intact)."""
        from engine.orderdraft import insert_order, place_order

        if self.turn is not None:
            text, at = place_order(self.turn.ruleset, self.text(), line, unit)
        else:
            text, at = insert_order(self.text(), line)
        c = self.edit.textCursor()
        c.select(QTextCursor.SelectionType.Document)
        c.insertText(text)  # one undo step, unlike setPlainText
        self.go_to_line(at)
        self.run_check()
        return at
