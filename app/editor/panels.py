"""Side panels of the map editor: terrain palette, tool options, site attributes, areas and
their adjacency, layer toggles. Each edit goes through the editor's undo stack."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.canvas.palette import terrain_colour
from app.editor import commands as cmd
from engine.topology import HexGrid

COMMON_TERRAINS = ["plains", "grassland", "steppes", "field", "cultivated", "forest", "jungle",
                   "hills", "mountains", "desert", "swamp", "marsh", "tundra", "town", "city",
                   "metropolis", "ruin", "lake", "shallow water", "sea", "ocean", "deep water"]
SITE_KINDS = ["city", "town", "village", "capital", "castle", "port", "ruin", "start"]


def swatch(name: str) -> QIcon:
    pm = QPixmap(14, 14)
    pm.fill(QColor(terrain_colour(name)))
    return QIcon(pm)


class TerrainPanel(QWidget):
    """Pick the brush terrain; weights (0 = not used) drive random and weighted fills."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["terrain", "weight"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self.table.setColumnWidth(1, 64)
        self.table.setToolTip("Click a terrain to paint with it. Weights above 0 take part in "
                              "random and weighted fills.")
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._picked)
        self.table.itemChanged.connect(self._weight)
        self.table.setMinimumHeight(120)
        lay.addWidget(self.table)
        self.others = QCheckBox("other terrains")
        self.others.setObjectName("otherTerrains")
        self.others.setToolTip("Also list terrains of other games (the ruleset's own come first)")
        self.others.toggled.connect(lambda _on: self.refresh())
        lay.addWidget(self.others)
        row = QHBoxLayout()
        self.new_name = QLineEdit(placeholderText="new terrain name")
        self.new_name.returnPressed.connect(self._add)
        row.addWidget(self.new_name)
        lay.addLayout(row)
        self._names: list[str] = []

    def terrain_names(self) -> list[str]:
        """The palette: a game's map lists its ruleset's terrains first and alone (then any the
        map uses that the ruleset does not know); other terrains only when asked for. A map
        without a ruleset lists its own terrains and the common ones."""
        own = list(getattr(self.editor, "ruleset_terrains", None) or [])
        used = list(self.editor.gmap.terrains)
        if not own:
            return list(dict.fromkeys(used + COMMON_TERRAINS))
        used_here = set(int(t) for t in np.unique(self.editor.gmap.terrain)) \
            if len(self.editor.gmap.terrain) else set()
        foreign = [t for i, t in enumerate(used) if t not in own and i in used_here]
        names = own + foreign
        if self.others.isChecked():
            names += [t for t in COMMON_TERRAINS if t not in names]
        return list(dict.fromkeys(names))

    def refresh(self) -> None:
        self.others.setVisible(bool(getattr(self.editor, "ruleset_terrains", None)))
        names = self.terrain_names()
        if names == self._names:
            return
        self._names = names
        self.table.blockSignals(True)
        self.table.setRowCount(len(names))
        for i, n in enumerate(names):
            it = QTableWidgetItem(swatch(n), n)
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, 0, it)
            self.table.setItem(i, 1, QTableWidgetItem(f"{self.editor.weights.get(n, 0.0):g}"))
        self.table.blockSignals(False)
        self.show_current()

    def _weight(self, item: QTableWidgetItem) -> None:
        if item.column() != 1:
            return
        name = self._names[item.row()]
        try:
            w = max(0.0, float(item.text().replace(",", ".")))
        except ValueError:
            w = 0.0
        self.editor.weights[name] = w
        if item.text() != f"{w:g}":
            item.setText(f"{w:g}")

    def show_current(self) -> None:
        if self.editor.terrain in self._names:
            self.table.blockSignals(True)
            self.table.selectRow(self._names.index(self.editor.terrain))
            self.table.blockSignals(False)

    def _picked(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.editor.set_terrain(self._names[rows[0].row()])

    def _add(self) -> None:
        name = " ".join(self.new_name.text().split())
        if name:
            self.new_name.clear()
            COMMON_TERRAINS.append(name) if name not in COMMON_TERRAINS else None
            self.refresh()
            self.editor.set_terrain(name)


class ToolOptions(QWidget):
    """Brush size, fill mode and seed, link erase mode, kind of new sites."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)
        self.brush = QComboBox()
        self.brush.currentIndexChanged.connect(self._brush)
        form.addRow("Brush", self.brush)
        self.fill = QComboBox()
        self.fill.addItems(["single", "random", "weighted"])
        self.fill.setToolTip("single: the brush terrain; random: every terrain with a weight, "
                             "equally; weighted: by the palette weights")
        self.fill.currentTextChanged.connect(lambda t: setattr(self.editor, "fill_mode", t))
        form.addRow("Fill", self.fill)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.valueChanged.connect(lambda v: setattr(self.editor, "seed", v))
        form.addRow("Seed", self.seed)
        self.erase = QCheckBox("erase rivers/roads")
        self.erase.toggled.connect(lambda b: setattr(self.editor, "link_erase", b))
        form.addRow(self.erase)
        self.kind = QComboBox()
        self.kind.setEditable(True)
        self.kind.addItems(SITE_KINDS)
        self.kind.currentTextChanged.connect(lambda t: setattr(self.editor, "site_kind", t or "city"))
        form.addRow("New site", self.kind)

    def refresh(self) -> None:
        self.brush.blockSignals(True)
        self.brush.clear()
        if isinstance(self.editor.gmap.grid, HexGrid):
            self.brush.addItems([f"{n} cell{'s' if n > 1 else ''}" for n in (1, 7, 19, 37)])
            self.editor.brush_size = min(self.editor.brush_size, 3)
            self.brush.setCurrentIndex(self.editor.brush_size)
        else:
            self.brush.addItems([f"{n}x{n}" for n in range(1, 10)])
            self.editor.brush_size = max(1, self.editor.brush_size)
            self.brush.setCurrentIndex(self.editor.brush_size - 1)
        self.brush.blockSignals(False)

    def _brush(self, index: int) -> None:
        hexmap = isinstance(self.editor.gmap.grid, HexGrid)
        self.editor.brush_size = index if hexmap else index + 1


class SitePanel(QWidget):
    """Attributes of the selected site: name, kind, size, population and free key/values."""

    FIXED = ("size", "population")

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("No site selected (Sites tool: click a cell)")
        lay.addWidget(self.title)
        form = QFormLayout()
        self.name = QLineEdit()
        self.kind = QComboBox()
        self.kind.setEditable(True)
        self.kind.addItems(SITE_KINDS)
        self.size = QLineEdit()
        self.population = QSpinBox()
        self.population.setRange(0, 10**9)
        self.population.setSingleStep(100)
        form.addRow("Name", self.name)
        form.addRow("Kind", self.kind)
        form.addRow("Size", self.size)
        form.addRow("Population", self.population)
        lay.addLayout(form)
        self.attrs = QTableWidget(0, 2)
        self.attrs.setHorizontalHeaderLabels(["key", "value"])
        self.attrs.horizontalHeader().setStretchLastSection(True)
        self.attrs.verticalHeader().hide()
        lay.addWidget(self.attrs)
        row = QHBoxLayout()
        add = QPushButton("+ key")
        add.clicked.connect(lambda: self.attrs.insertRow(self.attrs.rowCount()))
        self.apply_btn = QPushButton("Apply")
        self.apply_btn.clicked.connect(self.apply)
        delete = QPushButton("Delete site")
        delete.clicked.connect(self._delete)
        for b in (add, self.apply_btn, delete):
            row.addWidget(b)
        lay.addLayout(row)
        self.name.editingFinished.connect(self.apply)
        self.size.editingFinished.connect(self.apply)
        self.kind.activated.connect(lambda _i: self.apply())
        self.population.editingFinished.connect(self.apply)
        self.site_id: int | None = None
        self.show_site(None)

    def show_site(self, site_id: int | None) -> None:
        self.site_id = site_id if site_id in self.editor.gmap.sites else None
        for w in (self.name, self.kind, self.size, self.population, self.attrs, self.apply_btn):
            w.setEnabled(self.site_id is not None)
        if self.site_id is None:
            self.title.setText("No site selected (Sites tool: click a cell)")
            self.name.setText("")
            self.attrs.setRowCount(0)
            return
        s = self.editor.gmap.sites[self.site_id]
        self.title.setText(f"Site #{s.id} at {self.editor.gmap.grid.label(s.cell)}")
        self.name.setText(s.name)
        self.kind.setCurrentText(s.kind)
        self.size.setText(str(s.attrs.get("size", "")))
        try:
            self.population.setValue(int(s.attrs.get("population", 0)))
        except (TypeError, ValueError):
            self.population.setValue(0)
        extra = sorted((k, v) for k, v in s.attrs.items() if k not in self.FIXED)
        self.attrs.setRowCount(len(extra))
        for i, (k, v) in enumerate(extra):
            self.attrs.setItem(i, 0, QTableWidgetItem(str(k)))
            self.attrs.setItem(i, 1, QTableWidgetItem(str(v)))

    def values(self) -> tuple[str, str, dict]:
        attrs: dict = {}
        for i in range(self.attrs.rowCount()):
            k, v = self.attrs.item(i, 0), self.attrs.item(i, 1)
            if k is not None and k.text().strip():
                attrs[k.text().strip()] = _typed(v.text() if v is not None else "")
        if self.size.text().strip():
            attrs["size"] = _typed(self.size.text().strip())
        if self.population.value():
            attrs["population"] = self.population.value()
        return self.name.text().strip(), self.kind.currentText().strip() or "city", attrs

    def apply(self) -> None:
        if self.site_id is None or self.site_id not in self.editor.gmap.sites:
            return
        s = self.editor.gmap.sites[self.site_id]
        name, kind, attrs = self.values()
        if (name, kind, attrs) != (s.name, s.kind, s.attrs):
            self.editor.push(cmd.EditSite(self.editor.gmap, self.site_id, name, kind, attrs))

    def _delete(self) -> None:
        if self.site_id in self.editor.gmap.sites:
            self.editor.push(cmd.RemoveSite(self.editor.gmap, self.site_id))
            self.editor.select_site(None)


def _typed(text: str):
    """'12' -> 12, '1.5' -> 1.5, other text stays text."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


class AreaPanel(QWidget):
    """Areas of the map; the chosen one is what the Areas tool paints. For the chosen area,
    its neighbours: ticked = adjacent (from shared borders or the GM's edits)."""

    areaChosen = Signal(str)  # noqa: N815

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.list = QListWidget()
        self.list.currentTextChanged.connect(self._chosen)
        lay.addWidget(self.list)
        row = QHBoxLayout()
        self.new_name = QLineEdit(placeholderText="new area name")
        self.new_name.returnPressed.connect(self._add)
        self.kind = QComboBox()
        self.kind.setEditable(True)
        self.kind.addItems(["region", "realm", "province", "sea", "home"])
        row.addWidget(self.new_name)
        row.addWidget(self.kind)
        lay.addLayout(row)
        row = QHBoxLayout()
        for text, fn in (("Add", self._add), ("Rename", self._rename), ("Delete", self._delete)):
            b = QPushButton(text)
            b.clicked.connect(fn)
            row.addWidget(b)
        lay.addLayout(row)
        lay.addWidget(QLabel("Adjacent to the chosen area:"))
        self.adj = QListWidget()
        self.adj.itemChanged.connect(self._adj_changed)
        lay.addWidget(self.adj)

    def refresh(self) -> None:
        gmap = self.editor.gmap
        names = sorted(gmap.areas, key=str.casefold)
        current = self.editor.current_area
        self.list.blockSignals(True)
        self.list.clear()
        for n in names:
            it = QListWidgetItem(swatch(n), n)
            it.setToolTip(f"{gmap.areas[n].kind}, {len(gmap.areas[n].cells)} cells")
            self.list.addItem(it)
            if n == current:
                self.list.setCurrentItem(it)
        self.list.blockSignals(False)
        self._refresh_adjacency()

    def _refresh_adjacency(self) -> None:
        gmap = self.editor.gmap
        cur = self.editor.current_area
        self.adj.blockSignals(True)
        self.adj.clear()
        if cur in gmap.areas:
            regions = gmap.regions()
            me = regions.parse(cur)
            for n in sorted(gmap.areas, key=str.casefold):
                if n == cur:
                    continue
                it = QListWidgetItem(n)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                on = regions.are_neighbours(me, regions.parse(n))
                it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                self.adj.addItem(it)
        self.adj.blockSignals(False)

    def _chosen(self, name: str) -> None:
        if name:
            self.editor.select_area(name)

    def _add(self) -> None:
        name = " ".join(self.new_name.text().split())
        if not name:
            return
        if name.casefold() in {n.casefold() for n in self.editor.gmap.areas}:
            self.editor.status(f"An area named {name!r} exists already")
            return
        self.new_name.clear()
        self.editor.push(cmd.AddArea(self.editor.gmap, name, self.kind.currentText() or "region"))
        self.editor.select_area(name)

    def _rename(self) -> None:
        cur = self.editor.current_area
        if cur not in self.editor.gmap.areas:
            return
        new, ok = QInputDialog.getText(self, "Rename area", "New name:", text=cur)
        new = " ".join(new.split())
        if ok and new and new != cur and new not in self.editor.gmap.areas:
            self.editor.push(cmd.RenameArea(self.editor.gmap, cur, new))
            self.editor.select_area(new)

    def _delete(self) -> None:
        cur = self.editor.current_area
        if cur in self.editor.gmap.areas:
            self.editor.push(cmd.RemoveArea(self.editor.gmap, cur))
            self.editor.select_area(None)

    def _adj_changed(self, item: QListWidgetItem) -> None:
        cur = self.editor.current_area
        if cur in self.editor.gmap.areas:
            on = item.checkState() == Qt.CheckState.Checked
            self.editor.push(cmd.SetAdjacency(self.editor.gmap, cur, item.text(), on))


class LayersPanel(QWidget):
    """Show or hide each layer; choose the notation of the coordinate overlay."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        self.notation = QComboBox()
        self.notation.currentTextChanged.connect(self._notation)

    def refresh(self) -> None:
        while self.lay.count():
            w = self.lay.takeAt(0).widget()
            if w is not None and w is not self.notation:
                w.deleteLater()
        self.boxes.clear()
        scene = self.editor.scene
        for name in scene.layer_names():
            box = QCheckBox(name)
            box.setChecked(scene.layer_visible(name))
            box.toggled.connect(lambda on, n=name: self.editor.set_layer_visible(n, on))
            self.boxes[name] = box
            self.lay.addWidget(box)
        self.notation.blockSignals(True)
        self.notation.clear()
        self.notation.addItems(list(self.editor.gmap.grid.notations))
        self.notation.blockSignals(False)
        self.lay.addWidget(QLabel("Coordinates:"))
        self.lay.addWidget(self.notation)
        self.lay.addStretch(1)
        sync = getattr(self.editor, "sync_layer_actions", None)
        if sync is not None:
            sync()

    def _notation(self, text: str) -> None:
        if text:
            self.editor.scene.coords.notation = text
            self.editor.scene.coords.update()
