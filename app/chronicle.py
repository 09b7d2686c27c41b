"""The events and battles of a turn, as the text report tells them (engine.chronicle).

Two thin widgets, used by the GM console's Events and Battles tabs and by the player
viewer: `EventsView` lists each event as its report sentence, filtered by faction, kind,
place and text (steps the report leaves out only on request); `BattlesView` shows each
battle's narrative. A click on a line with a place emits `placePicked(cell)`, a board
cell, so the workspace can centre its map there.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.chronicle import Chronicle

CELL_ROLE = Qt.ItemDataRole.UserRole + 7
ALL_FACTIONS = "every faction"
ALL_KINDS = "every kind"


def _filter_box(placeholder: str) -> QLineEdit:
    box = QLineEdit()
    box.setPlaceholderText(placeholder)
    box.setClearButtonEnabled(True)
    return box


def _faction_box(names: dict[int, str], keep: int | None) -> QComboBox:
    box = QComboBox()
    _fill_factions(box, names, keep)
    return box


def _fill_factions(box: QComboBox, names: dict[int, str], keep: int | None) -> None:
    box.blockSignals(True)
    box.clear()
    box.addItem(ALL_FACTIONS, None)
    for n in sorted(names):
        box.addItem(f"{n}: {names[n]}", n)
    i = box.findData(keep)
    box.setCurrentIndex(i if i >= 0 else 0)
    box.blockSignals(False)


class EventsView(QWidget):
    """Report sentences with filters; a click says where the event happened."""

    placePicked = Signal(int)  # noqa: N815 (Qt naming)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.chronicle = Chronicle()
        self.names: dict[int, str] = {}
        self.text = _filter_box("filter by text…")
        self.place = _filter_box("place…")
        self.place.setMaximumWidth(140)
        self.faction = _faction_box({}, None)
        self.kind = QComboBox()
        self.kind.addItem(ALL_KINDS)
        self.details = QCheckBox("steps")
        self.details.setToolTip("Also the steps the report leaves out (each square moved, "
                                "tactics set...)")
        self.list = QListWidget()
        self.list.setObjectName("eventList")
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        for w in (self.text, self.place):
            w.textChanged.connect(self.refilter)
        self.faction.currentIndexChanged.connect(self.refilter)
        self.kind.currentIndexChanged.connect(self.refilter)
        self.details.toggled.connect(self.refilter)
        self.list.itemClicked.connect(self._clicked)
        self.list.currentItemChanged.connect(lambda item, _old: self._clicked(item))
        row = QHBoxLayout()
        row.addWidget(self.text, 2)
        row.addWidget(self.place, 1)
        row2 = QHBoxLayout()
        row2.addWidget(self.faction, 1)
        row2.addWidget(self.kind, 1)
        row2.addWidget(self.details)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addLayout(row2)
        lay.addWidget(self.list, 1)

    def set_chronicle(self, chronicle: Chronicle, names: dict[int, str]) -> None:
        self.chronicle, self.names = chronicle, dict(names)
        _fill_factions(self.faction, self.names, self.faction.currentData())
        keep = self.kind.currentText()
        kinds = chronicle.kinds()
        self.kind.blockSignals(True)
        self.kind.clear()
        self.kind.addItem(ALL_KINDS)
        self.kind.addItems(kinds)
        self.kind.setCurrentText(keep if keep in kinds else ALL_KINDS)
        self.kind.blockSignals(False)
        self.details.setEnabled(any(t.detail for t in chronicle.told))
        self.refilter()

    def refilter(self, *_args) -> None:
        kind = self.kind.currentText()
        lines = self.chronicle.filter(
            faction=self.faction.currentData(), kind=None if kind == ALL_KINDS else kind,
            place=self.place.text().strip() or None, text=self.text.text().strip() or None,
            details=self.details.isChecked())
        self.list.blockSignals(True)
        self.list.clear()
        for t in lines:
            item = QListWidgetItem(t.text)
            item.setToolTip(f"{t.kind}" + (f" · {t.phase}" if t.phase else "")
                            + (f" · {t.place}" if t.place else ""))
            if t.cells:
                item.setData(CELL_ROLE, int(t.cells[0]))
            if t.detail:
                item.setForeground(Qt.GlobalColor.gray)
            self.list.addItem(item)
        self.list.blockSignals(False)

    def visible_lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _clicked(self, item: QListWidgetItem | None) -> None:
        cell = item.data(CELL_ROLE) if item is not None else None
        if cell is not None:
            self.placePicked.emit(int(cell))


class BattlesView(QWidget):
    """Each battle as the report narrates it: a title with the sides and the winner, then
    its lines, wrapped to the width; the title is a link to the place."""

    placePicked = Signal(int)  # noqa: N815

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.chronicle = Chronicle()
        self.names: dict[int, str] = {}
        self.faction = _faction_box({}, None)
        self.place = _filter_box("place…")
        self.text = QTextBrowser()
        self.text.setObjectName("battleList")
        self.text.setOpenLinks(False)
        self.faction.currentIndexChanged.connect(self.refilter)
        self.place.textChanged.connect(self.refilter)
        self.text.anchorClicked.connect(self._clicked)
        row = QHBoxLayout()
        row.addWidget(self.faction, 1)
        row.addWidget(self.place, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.text, 1)
        self.empty = "No battles this turn."
        self._plain: list[str] = []

    def set_chronicle(self, chronicle: Chronicle, names: dict[int, str], empty: str = "") -> None:
        self.chronicle, self.names = chronicle, dict(names)
        self.empty = empty or "No battles this turn."
        _fill_factions(self.faction, self.names, self.faction.currentData())
        self.refilter()

    def refilter(self, *_args) -> None:
        stories = self.chronicle.battles_of(self.faction.currentData(),
                                            self.place.text().strip() or None)
        self._plain, parts = [], []
        if not stories:
            self._plain = [self.empty]
            parts.append(f"<p>{escape(self.empty)}</p>")
        for b in stories:
            sides = " against ".join(self.names.get(n, f"#{n}") for n in b.sides if n)
            won = f"; {self.names.get(b.winner, f'#{b.winner}')} wins" if b.winner else ""
            head = b.title + (f" ({sides}{won})" if sides else "")
            self._plain += [head] + ["  " + ln for ln in b.lines]
            title = escape(head) if b.cell is None else \
                f"<a href='cell:{int(b.cell)}'>{escape(head)}</a>"
            parts.append(f"<p><b>{title}</b><br>"
                         + "<br>".join(escape(ln) for ln in b.lines) + "</p>")
        self.text.setHtml("".join(parts))

    def visible_text(self) -> str:
        return "\n".join(self._plain)

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("cell:") and text[5:].isdigit():
            self.placePicked.emit(int(text[5:]))


__all__ = ["BattlesView", "EventsView"]
