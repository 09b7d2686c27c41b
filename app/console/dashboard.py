"""The turn dashboard: game, turn, deadline, and per faction whether orders arrived."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from engine.db.results import Status

COLUMNS = ("Faction", "Name", "Orders", "Received", "From", "Errors", "Warnings")
OK_COLOUR, MISSING_COLOUR, ERROR_COLOUR, WARN_COLOUR = "#d8f0d8", "#f6d6d6", "#c0392b", "#b9770e"


def deadline(meta: dict, turn: int) -> str:
    """The deadline of `turn` from the scenario's meta: "deadline" (one text or a
    {turn: text} table) or "start_date" plus "days_per_turn"; "" if the game has none."""
    d = meta.get("deadline") or meta.get("deadlines")
    if isinstance(d, dict):
        return str(d.get(str(turn), d.get(turn, "")))
    if d:
        return str(d)
    start, days = meta.get("start_date"), meta.get("days_per_turn")
    if start and days:
        try:
            return (date.fromisoformat(str(start)) + timedelta(days=int(days) * turn)).isoformat()
        except (TypeError, ValueError):
            return ""
    return ""


class Dashboard(QTableWidget):
    """One row per faction, from service.status()."""

    def __init__(self, parent=None):
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("consoleDashboard")
        self.setHorizontalHeaderLabels(COLUMNS)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        h = self.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.status: Status | None = None

    def show_status(self, status: Status) -> None:
        self.status = status
        self.setRowCount(len(status.factions))
        for row, f in enumerate(status.factions):
            values = (str(f.faction), f.name, "yes" if f.submitted else "NO ORDERS",
                      f.received_at if f.submitted else "", f"{f.source_kind}: {f.source}"
                      if f.submitted else "", str(f.errors) if f.submitted else "",
                      str(f.warnings) if f.submitted else "")
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                if col == 2:
                    item.setBackground(QColor(OK_COLOUR if f.submitted else MISSING_COLOUR))
                if col == 5 and f.errors:
                    item.setForeground(QColor(ERROR_COLOUR))
                if col == 6 and f.warnings:
                    item.setForeground(QColor(WARN_COLOUR))
                if col in (0, 5, 6):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.setData(Qt.ItemDataRole.UserRole, f.submission_id)
                self.setItem(row, col, item)

    def row_values(self, row: int) -> list[str]:
        return [self.item(row, c).text() for c in range(self.columnCount())]
