"""Sortable, filterable tables of regions and units (QSortFilterProxyModel over a flat model)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTableView, QVBoxLayout, QWidget

from engine.viewer_model import RegionRow, UnitRow

CELL_ROLE = Qt.ItemDataRole.UserRole + 1


class RowsModel(QAbstractTableModel):
    """Rows of values under headers; each row carries the board cell it is about."""

    def __init__(self, headers: list[str], parent=None):
        super().__init__(parent)
        self.headers = headers
        self.rows: list[tuple[Any, ...]] = []
        self.cells: list[int] = []
        self.dim: list[bool] = []

    def set_rows(self, rows: list[tuple[Any, ...]], cells: list[int], dim: list[bool],
                 keys: list[Any] | None = None) -> None:
        self.beginResetModel()
        self.rows, self.cells, self.dim = list(rows), list(cells), list(dim)
        self.keys = list(keys) if keys is not None else [None] * len(self.rows)
        self.haystack = [" ".join("" if v is None else str(v) for v in r).casefold() for r in rows]
        self.endResetModel()
        if self.sorted_by is not None:
            self.sort(*self.sorted_by)

    sorted_by: tuple[int, Qt.SortOrder] | None = None
    haystack: list[str] = []
    keys: list[Any] = []  # what each row stands for, beside its cell (a unit's number)

    def sort_key(self, i: int, column: int) -> tuple:
        if column == 0:  # places sort in map order, not as text
            return (0, self.cells[i], "")
        v = self.rows[i][column]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return (0, v, "")
        return (1, 0, str(v or "").casefold())

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        """Sorted in Python in one go: a proxy sorting row pairs through data() is
        ~100x slower on a few thousand rows."""
        if not 0 <= column < len(self.headers):
            return
        self.sorted_by = (column, order)
        self.layoutAboutToBeChanged.emit()
        idx = sorted(range(len(self.rows)), key=lambda i: self.sort_key(i, column),
                     reverse=order == Qt.SortOrder.DescendingOrder)
        self.rows = [self.rows[i] for i in idx]
        self.cells = [self.cells[i] for i in idx]
        self.dim = [self.dim[i] for i in idx]
        self.keys = [self.keys[i] for i in idx]
        self.haystack = [self.haystack[i] for i in idx]
        self.layoutChanged.emit()

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
        if role == CELL_ROLE:
            return self.cells[index.row()]
        if role == Qt.ItemDataRole.ForegroundRole and self.dim[index.row()]:
            return QColor("#888888")
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(v, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class RowsFilter(QSortFilterProxyModel):
    """Filters on a row's whole text (one string test a row); sorting is the source's."""

    needle = ""

    def set_needle(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.10+; invalidateFilter is deprecated
            self.beginFilterChange()
            self.needle = text.strip().casefold()
            self.endFilterChange()
        else:
            self.needle = text.strip().casefold()
            self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent) -> bool:  # noqa: N802 (Qt API)
        return not self.needle or self.needle in self.sourceModel().haystack[row]

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


class FilteredTable(QWidget):
    """A filter box over a sortable table; a click on a row says which cell it is about."""

    cellPicked = Signal(int)  # noqa: N815

    def __init__(self, headers: list[str], placeholder: str, parent=None):
        super().__init__(parent)
        self.model = RowsModel(headers, self)
        self.proxy = RowsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(placeholder)
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_needle)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.horizontalHeader().setResizeContentsPrecision(200)  # measure 200 rows, not all
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

    def set_regions(self, regions: list[RegionRow], latest: int,
                    turn_no: dict[int, int] | None = None) -> None:
        """`turn_no`: step -> the turn as the faction counts it (a sequential game's clan)."""
        no = turn_no or {}
        rows = [(r.where, r.name, r.terrain, r.owner_name or ("-" if not r.owner else r.owner),
                 r.units, no.get(r.seen, r.seen)) for r in regions]
        self.model.set_rows(rows, [r.cell for r in regions],
                            [r.seen is not None and r.seen != latest for r in regions])
        self.view.resizeColumnsToContents()


class UnitsTable(FilteredTable):
    HEADERS = ["Where", "Owner", "Unit", "Count", "Seen"]
    unitPicked = Signal(int, int)  # noqa: N815 (unit number, board cell): units moved one by one

    def __init__(self, parent=None):
        super().__init__(self.HEADERS, "Filter units (place, owner, kind…)", parent)

    def set_units(self, units: list[UnitRow], latest: int, names: dict[str, str],
                  turn_no: dict[int, int] | None = None) -> None:
        no = turn_no or {}
        rows = [(u.where, u.owner_name + (" (you)" if u.own else ""), u.label or names.get(u.kind, u.kind),
                 u.count, no.get(u.seen, u.seen)) for u in units]
        self.model.set_rows(rows, [u.cell for u in units], [u.seen != latest for u in units],
                            [u.unit if u.own and u.seen == latest else 0 for u in units])
        self.view.resizeColumnsToContents()

    def _clicked(self, index: QModelIndex) -> None:
        super()._clicked(index)
        row = self.proxy.mapToSource(index).row()
        if 0 <= row < len(self.model.keys) and self.model.keys[row]:
            self.unitPicked.emit(int(self.model.keys[row]), int(self.model.cells[row]))
