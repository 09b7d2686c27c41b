"""The factions list: number, name, player e-mail, password, colour, starts and units;
add, remove, pick a colour, and switch the map into place-start or place-units mode."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QColorDialog,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.palette import faction_colour
from engine.scenario import Faction

COLUMNS = (("number", "No."), ("name", "Name"), ("email", "Player e-mail"),
           ("password", "Password"), ("colour", "Colour"), ("starts", "Starts"), ("units", "Units"))
EDITABLE = {"name", "email", "password"}
ROOT = QModelIndex()


class FactionsModel(QAbstractTableModel):
    def __init__(self, designer: Any):
        super().__init__()
        self.designer = designer

    @property
    def factions(self) -> list[Faction]:
        return self.designer.scen.factions if self.designer.scen is not None else []

    def rowCount(self, parent=ROOT) -> int:  # noqa: N802 (Qt API)
        return 0 if parent.isValid() else len(self.factions)

    def columnCount(self, parent=ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        f = self.factions[index.row()]
        key = COLUMNS[index.column()][0]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if key == "starts":
                return self.designer.starts_text(f)
            if key == "units":
                return self.designer.units_text(f)
            if key == "password" and role == Qt.ItemDataRole.DisplayRole:
                return "•" * len(f.password)
            return getattr(f, key)
        if role == Qt.ItemDataRole.DecorationRole and key == "colour":
            return QColor(f.colour)
        if role == Qt.ItemDataRole.ToolTipRole:
            if key == "colour":
                return "Double-click to choose the faction's colour"
            if key in ("starts", "units"):
                return "Select the faction, then place on the map (Place start / Place units)"
        return None

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][1]
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if COLUMNS[index.column()][0] in EDITABLE:
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index: QModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        key = COLUMNS[index.column()][0]
        if role != Qt.ItemDataRole.EditRole or key not in EDITABLE:
            return False
        f = self.factions[index.row()]
        value = str(value).strip() if key != "password" else str(value)
        if getattr(f, key) == value:
            return False
        self.designer.edit_faction(f, dataclasses.replace(f, **{key: value}),
                                   f"faction {f.number}: {COLUMNS[index.column()][1].lower()}")
        return True

    def reset(self) -> None:
        self.beginResetModel()
        self.endResetModel()


class FactionsPanel(QWidget):
    def __init__(self, designer: Any, parent=None):
        super().__init__(parent)
        self.designer = designer
        self.setObjectName("factionsPanel")
        self.model = FactionsModel(designer)
        self.view = QTableView()
        self.view.setObjectName("factionsView")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.verticalHeader().hide()
        hh = self.view.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setStretchLastSection(True)
        self.view.doubleClicked.connect(self._double_clicked)
        self.add_button = QPushButton("Add faction")
        self.add_button.clicked.connect(lambda: self.add_faction())
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(lambda: self.remove_faction())
        self.colour_button = QPushButton("Colour…")
        self.colour_button.clicked.connect(lambda: self.choose_colour())
        self.start_button = QPushButton("Place start")
        self.start_button.setObjectName("placeStart")
        self.start_button.setCheckable(True)
        self.start_button.toggled.connect(lambda on: self._mode("start", on))
        self.units_button = QPushButton("Place units")
        self.units_button.setObjectName("placeUnits")
        self.units_button.setCheckable(True)
        self.units_button.toggled.connect(lambda on: self._mode("units", on))
        self.unit_kind = QComboBox()
        self.unit_kind.setObjectName("unitKind")
        self.unit_kind.setToolTip("Kind of starting unit placed by a click")
        self.unit_count = QSpinBox()
        self.unit_count.setRange(1, 9999)
        self.unit_count.setToolTip("How many units a click places")
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #555;")
        top = QHBoxLayout()
        for w in (self.add_button, self.remove_button, self.colour_button):
            top.addWidget(w)
        top.addStretch(1)
        place = QHBoxLayout()
        for w in (self.start_button, self.units_button, self.unit_kind, self.unit_count):
            place.addWidget(w)
        place.addStretch(1)
        self.extras = QTableWidget(0, 2)
        self.extras.setObjectName("factionExtras")
        self.extras.setHorizontalHeaderLabels(["Setting", "Value"])
        self.extras.horizontalHeader().setStretchLastSection(True)
        self.extras.verticalHeader().hide()
        self.extras.setMaximumHeight(130)
        self.extras.setToolTip("The ruleset's own faction settings (start gold, forum name…). "
                               "Values are read as JSON when they parse (numbers, lists), "
                               "else as text. Starts and units are placed on the map.")
        self.extras.cellChanged.connect(lambda _r, _c: self._extras_edited())
        add_extra = QPushButton("Add setting")
        add_extra.clicked.connect(lambda: self.add_extra())
        extras_bar = QHBoxLayout()
        extras_bar.addWidget(QLabel("Other settings of the selected faction"))
        extras_bar.addStretch(1)
        extras_bar.addWidget(add_extra)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        lay.addLayout(place)
        lay.addWidget(self.hint)
        lay.addLayout(extras_bar)
        lay.addWidget(self.extras)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self.show_extras())
        self.model.modelReset.connect(self.show_extras)

    def configure(self, start_label: str, unit_kinds: list[str] | None, hint: str) -> None:
        self.start_button.setText(f"Place {start_label.lower()}")
        self.units_button.setVisible(unit_kinds is not None)
        self.unit_kind.setVisible(unit_kinds is not None)
        self.unit_count.setVisible(unit_kinds is not None)
        self.unit_kind.clear()
        self.unit_kind.addItems(unit_kinds or [])
        self.hint.setText(hint)

    def _mode(self, mode: str, on: bool) -> None:
        other = self.units_button if mode == "start" else self.start_button
        if on and other.isChecked():
            other.blockSignals(True)
            other.setChecked(False)
            other.blockSignals(False)
        self.designer.set_place_mode(mode if on else None)

    def uncheck(self) -> None:
        for b in (self.start_button, self.units_button):
            b.blockSignals(True)
            b.setChecked(False)
            b.blockSignals(False)

    def current(self) -> Faction | None:
        rows = self.view.selectionModel().selectedRows()
        r = rows[0].row() if rows else (self.view.currentIndex().row()
                                        if self.view.currentIndex().isValid() else -1)
        fs = self.model.factions
        return fs[r] if 0 <= r < len(fs) else None

    def select_number(self, number: int) -> None:
        for i, f in enumerate(self.model.factions):
            if f.number == number:
                self.view.selectRow(i)
                self.view.scrollTo(self.model.index(i, 0))
                return

    def add_faction(self, name: str = "") -> Faction:
        fs = self.model.factions
        n = max([f.number for f in fs] or [0]) + 1
        colour = faction_colour([f.colour for f in fs], n)  # apart from the map's markers
        f = Faction(n, name or f"Faction {n}", colour=colour)
        self.designer.edit_faction(None, f, f"add faction {n}")
        self.select_number(n)
        return f

    def remove_faction(self) -> None:
        f = self.current()
        if f is None:
            self.designer.status("Select a faction to remove", True)
            return
        self.designer.edit_faction(f, None, f"remove faction {f.number}")

    def _double_clicked(self, index: QModelIndex) -> None:
        if COLUMNS[index.column()][0] == "colour":
            self.choose_colour()

    def choose_colour(self, colour: QColor | None = None) -> None:
        f = self.current()
        if f is None:
            self.designer.status("Select a faction first", True)
            return
        if colour is None:
            colour = QColorDialog.getColor(QColor(f.colour), self, f"Colour of {f.name}")
            if not colour.isValid():
                return
        name = colour.name()
        if name != f.colour:
            self.designer.edit_faction(f, dataclasses.replace(f, colour=name),
                                       f"faction {f.number}: colour {name}")

    # ---- the ruleset's other faction settings (Faction.attrs outside the start fields) ----

    def _extra_keys(self, f: Faction) -> list[str]:
        placed = self.designer.placed_keys()
        return sorted(k for k in f.attrs if k not in placed)

    def show_extras(self) -> None:
        f = self.current()
        self.extras.blockSignals(True)
        try:
            keys = self._extra_keys(f) if f is not None else []
            self.extras.setRowCount(len(keys))
            for i, k in enumerate(keys):
                v = f.attrs[k]
                self.extras.setItem(i, 0, QTableWidgetItem(k))
                self.extras.setItem(i, 1, QTableWidgetItem(v if isinstance(v, str) else json.dumps(v)))
            self.extras.setEnabled(f is not None)
        finally:
            self.extras.blockSignals(False)

    def add_extra(self, key: str = "", value: str = "") -> None:
        f = self.current()
        if f is None:
            self.designer.status("Select a faction first", True)
            return
        self.extras.blockSignals(True)
        r = self.extras.rowCount()
        self.extras.insertRow(r)
        self.extras.setItem(r, 0, QTableWidgetItem(key))
        self.extras.setItem(r, 1, QTableWidgetItem(value))
        self.extras.blockSignals(False)
        if key:
            self._extras_edited()
        else:
            self.extras.editItem(self.extras.item(r, 0))

    def _extras_edited(self) -> None:
        f = self.current()
        if f is None:
            return
        placed = self.designer.placed_keys()
        attrs = {k: v for k, v in f.attrs.items() if k in placed}
        for r in range(self.extras.rowCount()):
            k_item, v_item = self.extras.item(r, 0), self.extras.item(r, 1)
            key = k_item.text().strip() if k_item else ""
            if not key or key in placed:
                continue
            text = v_item.text() if v_item else ""
            try:
                attrs[key] = json.loads(text)
            except ValueError:
                attrs[key] = text
        if attrs != f.attrs:
            self.designer.edit_faction(f, dataclasses.replace(f, attrs=attrs),
                                       f"faction {f.number}: settings")
