"""Catalog editors built from a ruleset's TableSpec: one table model for any catalog, editors
by column type, refusals with their reason beside the cell. No ruleset-specific code."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine.tables import Catalog, Column, TableError

INT_LIMIT = 2**31 - 1
ROOT = QModelIndex()
REFUSED_BG = QColor("#f6c6c0")


def column_title(c: Column) -> str:
    return c.label or c.name.replace("_", " ").capitalize()


def column_tip(c: Column) -> str:
    limits = []
    if c.min is not None:
        limits.append(f"at least {c.min:g}")
    if c.max is not None:
        limits.append(f"at most {c.max:g}")
    if c.choices:
        limits.append("one of " + ", ".join(c.choices))
    if c.unique:
        limits.append("unique")
    if c.required:
        limits.append("required")
    tip = f"<b>{column_title(c)}</b> ({c.name}, {c.type})"
    if c.help:
        tip += f"<br>{c.help}"
    if limits:
        tip += "<br><i>" + "; ".join(limits) + "</i>"
    return tip


class CatalogModel(QAbstractTableModel):
    """Rows of one game catalog. Edits go through the designer as undoable commands;
    a value the spec refuses is not applied and `refused` carries the reason."""

    refused = Signal(int, int, str)  # row, column, reason

    def __init__(self, designer: Any, name: str, catalog: Catalog):
        super().__init__()
        self.designer, self.name, self.catalog = designer, name, catalog
        self.spec = catalog.spec
        self.problems: dict[tuple[int, int], str] = {}

    # ---- reading ---------------------------------------------------------------------

    def rowCount(self, parent=ROOT) -> int:  # noqa: N802 (Qt API)
        return 0 if parent.isValid() else len(self.catalog.rows)

    def columnCount(self, parent=ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.spec.columns)

    def column(self, i: int) -> Column:
        return self.spec.columns[i]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self.column(index.column())
        v = self.catalog.rows[index.row()].get(c.name)
        key = (index.row(), index.column())
        if role == Qt.ItemDataRole.CheckStateRole and c.type == "bool":
            return Qt.CheckState.Checked if v else Qt.CheckState.Unchecked
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if c.type == "bool":
                return None if role == Qt.ItemDataRole.DisplayRole else bool(v)
            if role == Qt.ItemDataRole.DisplayRole and c.type == "float" and v is not None:
                return f"{v:g}"
            return "" if v is None else v
        if role == Qt.ItemDataRole.TextAlignmentRole and c.type in ("int", "float"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and key in self.problems:
            return REFUSED_BG
        if role == Qt.ItemDataRole.ToolTipRole:
            return ("<b>Refused:</b> " + self.problems[key] + "<br>") if key in self.problems \
                else column_tip(c)
        return None

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal:
            c = self.column(section)
            if role == Qt.ItemDataRole.DisplayRole:
                return column_title(c)
            if role == Qt.ItemDataRole.ToolTipRole:
                return column_tip(c)
        elif role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self.column(index.column()).type == "bool":
            return f | Qt.ItemFlag.ItemIsUserCheckable
        return f | Qt.ItemFlag.ItemIsEditable

    # ---- editing -----------------------------------------------------------------------

    def check(self, row: int, col: int, value: Any) -> dict[str, Any]:
        """The row as it would be with the value; TableError with the reason if refused."""
        c = self.column(col)
        return self.catalog.check({**self.catalog.rows[row], c.name: value}, row)

    def setData(self, index: QModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid():
            return False
        r, col = index.row(), index.column()
        c = self.column(col)
        if role == Qt.ItemDataRole.CheckStateRole:
            value = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
        elif role != Qt.ItemDataRole.EditRole:
            return False
        try:
            new = self.check(r, col, value)
        except TableError as e:
            self.problems[(r, col)] = str(e)
            self.dataChanged.emit(index, index)
            self.refused.emit(r, col, str(e))
            return False
        old = self.catalog.rows[r]
        if self.problems.pop((r, col), None) is not None:
            self.dataChanged.emit(index, index)
        if new == old:
            return False
        label = self.spec.title or self.name
        self.designer.edit_row(self.name, r, old, new,
                               f"{label} row {r + 1}: {column_title(c)} = {new[c.name]!r}")
        return True

    def row_changed(self, r: int) -> None:
        self.dataChanged.emit(self.index(r, 0), self.index(r, self.columnCount() - 1))

    def reset(self) -> None:
        self.beginResetModel()
        self.problems.clear()
        self.endResetModel()


class CatalogDelegate(QStyledItemDelegate):
    """Spin boxes within the column's limits, combo boxes for choices, line edits that
    say as you type why a value would be refused (a duplicate symbol...)."""

    def __init__(self, model: CatalogModel, status: Any, parent=None):
        super().__init__(parent)
        self.model, self.status = model, status

    def createEditor(self, parent, option, index):  # noqa: N802 (Qt API)
        c = self.model.column(index.column())
        if c.choices:
            w = QComboBox(parent)
            w.addItems(list(c.choices))
            return w
        if c.type == "int":
            w = QSpinBox(parent)
            w.setRange(int(c.min) if c.min is not None else -INT_LIMIT,
                       int(c.max) if c.max is not None else INT_LIMIT)
            return w
        if c.type == "float":
            w = QDoubleSpinBox(parent)
            w.setDecimals(3)
            w.setRange(c.min if c.min is not None else -1e12, c.max if c.max is not None else 1e12)
            return w
        if c.type == "str":
            w = QLineEdit(parent)
            row, col = index.row(), index.column()
            w.textEdited.connect(lambda text, w=w: self._live(w, row, col, text))
            return w
        return super().createEditor(parent, option, index)

    def _live(self, w: QLineEdit, row: int, col: int, text: str) -> None:
        try:
            self.model.check(row, col, text)
        except TableError as e:
            w.setStyleSheet("background: #f6c6c0;")
            w.setToolTip(str(e))
            self.status(str(e), True)
        else:
            w.setStyleSheet("")
            w.setToolTip("")
            self.status("", False)

    def setEditorData(self, editor, index) -> None:  # noqa: N802
        v = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(v))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.setValue(v if v not in (None, "") else 0)
        elif isinstance(editor, QLineEdit):
            editor.setText("" if v is None else str(v))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText())
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.interpretText()
            model.setData(index, editor.value())
        elif isinstance(editor, QLineEdit):
            model.setData(index, editor.text())
        else:
            super().setModelData(editor, model, index)


class CatalogPage(QWidget):
    """One catalog: its table, add/duplicate/remove buttons and a line for refusals."""

    def __init__(self, designer: Any, name: str, catalog: Catalog, parent=None):
        super().__init__(parent)
        self.designer, self.name = designer, name
        self.setObjectName(f"catalog_{name}")
        self.model = CatalogModel(designer, name, catalog)
        self.view = QTableView()
        self.view.setObjectName(f"catalogView_{name}")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.delegate = CatalogDelegate(self.model, self.show_reason, self.view)
        self.view.setItemDelegate(self.delegate)
        self.reason = QLabel("")
        self.reason.setObjectName(f"catalogReason_{name}")
        self.reason.setStyleSheet("color: #a4231a;")
        self.reason.setWordWrap(True)
        self.model.refused.connect(self._refused)
        bar = QHBoxLayout()
        for text, fn, tip in (("Add row", self.add_row, "Append a row of default values"),
                              ("Duplicate", self.duplicate_row, "Copy the selected row"),
                              ("Remove", self.remove_row, "Delete the selected row")):
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, fn=fn: fn())
            bar.addWidget(b)
        bar.addStretch(1)
        if catalog.spec.help:
            bar.addWidget(QLabel(catalog.spec.help))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.reason)

    def _refused(self, row: int, col: int, reason: str) -> None:
        c = self.model.column(col)
        self.show_reason(f"Row {row + 1}, {column_title(c)}: {reason} — not applied", True)

    def show_reason(self, text: str, bad: bool) -> None:
        self.reason.setText(text)
        if text:
            self.designer.status(text, bad)

    def current_row(self) -> int | None:
        idx = self.view.currentIndex()
        rows = self.view.selectionModel().selectedRows()
        if rows:
            return rows[0].row()
        return idx.row() if idx.isValid() else None

    def select_row(self, r: int) -> None:
        if 0 <= r < self.model.rowCount():
            self.view.selectRow(r)
            self.view.scrollTo(self.model.index(r, 0))

    def add_row(self) -> None:
        spec, cat = self.model.spec, self.model.catalog
        row = {c.name: c.default for c in spec.columns}
        row = _fill_unique(cat, row)
        try:
            row = cat.check(row)
        except TableError as e:
            self.show_reason(f"Cannot add a row: {e}", True)
            return
        self.designer.insert_row(self.name, len(cat.rows), row, f"{spec.title or self.name}: add row")

    def duplicate_row(self) -> None:
        r = self.current_row()
        cat = self.model.catalog
        if r is None:
            self.show_reason("Select a row to duplicate", True)
            return
        row = _fill_unique(cat, dict(cat.rows[r]))
        try:
            row = cat.check(row)
        except TableError as e:
            self.show_reason(f"Cannot duplicate row {r + 1}: {e}", True)
            return
        self.designer.insert_row(self.name, r + 1, row,
                                 f"{self.model.spec.title or self.name}: duplicate row {r + 1}")

    def remove_row(self) -> None:
        r = self.current_row()
        if r is None:
            self.show_reason("Select a row to remove", True)
            return
        self.designer.remove_row(self.name, r, f"{self.model.spec.title or self.name}: "
                                 f"remove row {r + 1}")


def _fill_unique(cat: Catalog, row: dict[str, Any]) -> dict[str, Any]:
    """Unique text columns get a fresh value ("name 2", "X1"...), so the row can be added."""
    for c in cat.spec.columns:
        if not (c.unique or c.required) or c.type != "str" or c.choices:
            continue
        taken = {str(r.get(c.name, "")).casefold() for r in cat.rows}
        base = str(row.get(c.name) or "") or ("new" if c.name != "symbol" else "N")
        if base.casefold() not in taken and (base or not c.required):
            row[c.name] = base
            continue
        for i in range(2, 10_000):
            cand = f"{base}{i}" if len(base) <= 2 else f"{base} {i}"
            if cand.casefold() not in taken:
                row[c.name] = cand
                break
    for c in cat.spec.columns:  # unique numbers: one above the largest
        if c.unique and c.type == "int":
            row[c.name] = max([int(r[c.name]) for r in cat.rows if r.get(c.name) is not None] or [0]) + 1
    return row
