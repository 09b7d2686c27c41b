"""The Game tab: what the game is (name, ruleset, seed, turn) and its free facts
(Scenario.meta: game code, deadline, days per turn, start date, end turn, GM name...)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

SUGGESTED = ("game", "deadline", "days_per_turn", "start_date", "end_turn", "gm")


class GamePanel(QWidget):
    def __init__(self, designer: Any, parent=None):
        super().__init__(parent)
        self.designer = designer
        self.setObjectName("gamePanel")
        self.facts = QLabel("")
        self.facts.setWordWrap(True)
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("gameMeta")
        self.table.setHorizontalHeaderLabels(["Fact", "Value"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.setToolTip("Free facts of the game that rulesets and reports read: game code, "
                              "deadline, days per turn, start date, end turn, GM name. Values are "
                              "read as JSON when they parse (numbers, lists), else as text.")
        self.table.cellChanged.connect(lambda r, _c: self._edited(r))
        add = QPushButton("Add fact")
        add.clicked.connect(lambda: self.add_fact())
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Game facts"))
        bar.addStretch(1)
        bar.addWidget(add)
        form = QFormLayout()
        form.addRow(self.facts)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(form)
        lay.addLayout(bar)
        lay.addWidget(self.table, 1)

    def refresh(self) -> None:
        d = self.designer
        if d.scen is None:
            return
        rs = d.rs
        self.facts.setText(f"<b>{d.scen.name}</b><br>{rs.title or rs.name} ({rs.name}), "
                           f"{rs.turn_model} turns<br>seed {d.scen.seed} · turn {d.service.current_step}"
                           f"<br>{d.service.where}")
        meta = d.scen.meta
        keys = sorted(meta)
        self.table.blockSignals(True)
        try:
            self.table.setRowCount(len(keys))
            for i, k in enumerate(keys):
                v = meta[k]
                self.table.setItem(i, 0, QTableWidgetItem(k))
                self.table.setItem(i, 1, QTableWidgetItem(v if isinstance(v, str) else json.dumps(v)))
        finally:
            self.table.blockSignals(False)

    def add_fact(self, key: str = "", value: str = "") -> None:
        self.table.blockSignals(True)
        r = self.table.rowCount()
        self.table.insertRow(r)
        self.table.setItem(r, 0, QTableWidgetItem(key))
        self.table.setItem(r, 1, QTableWidgetItem(value))
        self.table.blockSignals(False)
        if key:
            self._edited(r)
        else:
            self.table.editItem(self.table.item(r, 0))

    def _edited(self, r: int) -> None:
        k_item, v_item = self.table.item(r, 0), self.table.item(r, 1)
        key = k_item.text().strip() if k_item else ""
        if not key:
            return
        text = v_item.text() if v_item else ""
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        old = self.designer.scen.meta.get(key)
        if old != value:
            self.designer.edit_meta(key, old, value)
