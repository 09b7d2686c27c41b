"""The turn dashboard: game, turn, deadline, and per faction whether orders arrived."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from engine.db.results import Status
from engine.threads import parse_time

COLUMNS = ("Faction", "Name", "Orders", "Received", "From", "Errors", "Warnings")
# sequential games (Continental Conquest): each faction's own turns, when its next may run,
# and the turns of it that wait (the week between a clan's turns, a missing earlier turn)
SEQUENTIAL_COLUMNS = ("Turns", "Next turn from", "Waiting")
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


def when(iso: str) -> str:
    """A stored time ('2026-03-16T12:00:00Z') as the console shows it: '2026-03-16 12:00 UTC',
    in UTC to the minute as Continental Conquest's reports give a clan's due date (so the GM
    and the player quote the same words); a text that is no time is shown as it is."""
    t = parse_time(iso) if iso else None
    return t.strftime("%Y-%m-%d %H:%M UTC") if t else iso


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
        seq = status.turn_model == "sequential"
        columns = COLUMNS + (SEQUENTIAL_COLUMNS if seq else ())
        if self.columnCount() != len(columns):
            self.setColumnCount(len(columns))
            self.setHorizontalHeaderLabels(columns)
        waits: dict[int, list[str]] = {}
        for _sid, faction, turn, why, _ready in status.waiting:
            waits.setdefault(faction, []).append(f"turn {turn}: {why}")
        self.setRowCount(len(status.factions))
        for row, f in enumerate(status.factions):
            orders = "DROPPED" if f.dropped else "yes" if f.submitted else "NO ORDERS"
            values = (str(f.faction), f.name, orders,
                      f.received_at if f.submitted else "", f"{f.source_kind}: {f.source}"
                      if f.submitted else "", str(f.errors) if f.submitted else "",
                      str(f.warnings) if f.submitted else "")
            if seq:
                values += (str(f.turns), when(f.due) if f.due else "any time",
                           "; ".join(waits.get(f.faction, [])))
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                if col == 2:
                    item.setBackground(QColor(OK_COLOUR if f.submitted or f.dropped else MISSING_COLOUR))
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
