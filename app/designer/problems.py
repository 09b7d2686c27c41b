"""The validation view: every problem of the scenario; activating one jumps to it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.validation import ERROR, Problem

COLOURS = {ERROR: "#b03a2e", "warning": "#9a7d0a"}


class ProblemsView(QWidget):
    def __init__(self, designer: Any, parent=None):
        super().__init__(parent)
        self.designer = designer
        self.setObjectName("problemsView")
        self.problems: list[Problem] = []
        self.summary = QLabel("")
        self.summary.setObjectName("problemsSummary")
        again = QPushButton("Check again")
        again.clicked.connect(lambda: designer.revalidate())
        self.tree = QTreeWidget()
        self.tree.setObjectName("problemsTree")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["", "Where", "Problem"])
        self.tree.setColumnWidth(0, 70)
        self.tree.setColumnWidth(1, 170)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemDoubleClicked.connect(self._activated)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(again)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.tree, 1)
        lay.addWidget(QLabel("Double-click a problem to go to the faction, cell, row or option."))

    def set_problems(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        self.tree.clear()
        for i, p in enumerate(self.problems):
            item = QTreeWidgetItem([p.severity, p.where, p.message])
            item.setForeground(0, QBrush(QColor(COLOURS.get(p.severity, "#333"))))
            item.setToolTip(2, p.message)
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            self.tree.addTopLevelItem(item)
        n_err = sum(1 for p in self.problems if p.severity == ERROR)
        n_warn = len(self.problems) - n_err
        if not self.problems:
            self.summary.setText("<b style='color:#1e8449'>No problems: the game is ready to start.</b>")
        else:
            self.summary.setText(f"<b>{n_err} error{'s' * (n_err != 1)}</b>, "
                                 f"{n_warn} warning{'s' * (n_warn != 1)}")

    def _activated(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        i = item.data(0, Qt.ItemDataRole.UserRole)
        if i is not None and 0 <= i < len(self.problems):
            self.designer.go_to(self.problems[i])
