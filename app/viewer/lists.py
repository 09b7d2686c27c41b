"""Sortable, filterable tables of regions and units (QSortFilterProxyModel over a flat model)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTableView, QVBoxLayout, QWidget

from engine.viewer_model import RegionRow, UnitRow

CELL_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole


class RowsModel(QAbstractTableModel):
    """Rows of values under headers; each row carries the board cell it is about."""

    def __init__(self, headers: list[str], parent=None):
        super().__init__(parent)
        self.headers = headers
        self.rows: list[tuple[Any, ...]] = []
        self.cells: list[int] = []
        self.dim: list[bool] = []

    def set_rows(self, rows: list[tuple[Any, ...]], cells: list[int], dim: list[bool]) -> None:
        self.beginResetModel()
        self.rows, self.cells, self.dim = rows, cells, dim
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        v = self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if v is None else str(v)
        if role == SORT_ROLE:
            if index.column() == 0:  # places sort in map order, not as text
                return self.cells[index.row()]
            return v if isinstance(v, (int, float)) else str(v or "").casefold()
        if role == CELL_ROLE:
            return self.cells[index.row()]
        if role == Qt.ItemDataRole.ForegroundRole and self.dim[index.row()]:
            return QColor("#888888")
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(v, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class FilteredTable(QWidget):
    """A filter box over a sortable table; a click on a row says which cell it is about."""

    cellPicked = Signal(int)  # noqa: N815

    def __init__(self, headers: list[str], placeholder: str, parent=None):
        super().__init__(parent)
        self.model = RowsModel(headers, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(placeholder)
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.clicked.connect(self._clicked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.filter)
        lay.addWidget(self.view)

    def _clicked(self, index: QModelIndex) -> None:
        cell = self.proxy.data(index, CELL_ROLE)
        if cell is not None:
            self.cellPicked.emit(int(cell))

    def visible_rows(self) -> list[tuple[Any, ...]]:
        """The rows as shown (filtered and sorted), for tests and copying."""
        out = []
        for r in range(self.proxy.rowCount()):
            src = self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            out.append(self.model.rows[src])
        return out


class RegionsTable(FilteredTable):
    HEADERS = ["Where", "Name", "Terrain", "Owner", "Units", "Seen"]

    def __init__(self, parent=None):
        super().__init__(self.HEADERS, "Filter regions (name, owner, terrain…)", parent)

    def set_regions(self, regions: list[RegionRow], latest: int) -> None:
        rows = [(r.where, r.name, r.terrain, r.owner_name or ("-" if not r.owner else r.owner),
                 r.units, r.seen) for r in regions]
        self.model.set_rows(rows, [r.cell for r in regions],
                            [r.seen is not None and r.seen != latest for r in regions])
        self.view.resizeColumnsToContents()


class UnitsTable(FilteredTable):
    HEADERS = ["Where", "Owner", "Unit", "Count", "Seen"]

    def __init__(self, parent=None):
        super().__init__(self.HEADERS, "Filter units (place, owner, kind…)", parent)

    def set_units(self, units: list[UnitRow], latest: int, names: dict[str, str]) -> None:
        rows = [(u.where, u.owner_name + (" (you)" if u.own else ""), names.get(u.kind, u.kind),
                 u.count, u.seen) for u in units]
        self.model.set_rows(rows, [u.cell for u in units], [u.seen != latest for u in units])
        self.view.resizeColumnsToContents()
