"""The New map and Generate map dialogs."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
)

from app.editor.panels import COMMON_TERRAINS
from engine.map import GameMap, new_map


class NewMapDialog(QDialog):
    """Kind (hex, square, regions), size, hex orientation, default terrain."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New map")
        form = QFormLayout(self)
        self.kind = QComboBox()
        self.kind.addItems(["hex", "square", "regions"])
        self.width = QSpinBox()
        self.width.setRange(1, 1000)
        self.width.setValue(40)
        self.height = QSpinBox()
        self.height.setRange(1, 1000)
        self.height.setValue(30)
        self.orientation = QComboBox()
        self.orientation.addItems(["flat", "pointy"])
        self.neighbours = QComboBox()
        self.neighbours.addItems(["4", "8"])
        self.terrain = QComboBox()
        self.terrain.setEditable(True)
        self.terrain.addItems(COMMON_TERRAINS)
        self.terrain.setCurrentText("ocean")
        form.addRow("Kind", self.kind)
        form.addRow("Width", self.width)
        form.addRow("Height", self.height)
        form.addRow("Hex orientation", self.orientation)
        form.addRow("Square neighbours", self.neighbours)
        form.addRow("Terrain", self.terrain)
        form.addRow(QLabel("Region maps are painted on a square grid: paint areas, "
                           "their borders give the adjacency."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.kind.currentTextChanged.connect(self._kind)
        self._kind("hex")

    def _kind(self, kind: str) -> None:
        self.orientation.setEnabled(kind == "hex")
        self.neighbours.setEnabled(kind != "hex")

    def make_map(self) -> GameMap:
        kind = self.kind.currentText()
        opts = {"orientation": self.orientation.currentText()} if kind == "hex" else {
            "neighbours": int(self.neighbours.currentText())}
        return new_map(kind, self.width.value(), self.height.value(),
                       self.terrain.currentText().strip() or "plains", **opts)


def mapgen_module():
    """engine.mapgen if it is installed (another part of the project provides it)."""
    try:
        import engine.mapgen as mapgen
    except ImportError:
        return None
    return mapgen


class GenerateDialog(QDialog):
    """Seeded map generation through engine.mapgen: continents and islands, or the
    Atlantis Conquest layout. Offers whatever generators the module exposes."""

    def __init__(self, mapgen, parent=None):
        super().__init__(parent)
        self.mapgen = mapgen
        self.setWindowTitle("Generate map")
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.style = QComboBox()
        self.style.addItems(self.styles())
        self.kind = QComboBox()
        self.kind.addItems(["hex", "square"])
        self.width = QSpinBox()
        self.width.setRange(8, 1000)
        self.width.setValue(64)
        self.height = QSpinBox()
        self.height.setRange(8, 1000)
        self.height.setValue(48)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.land = QSpinBox()
        self.land.setRange(5, 95)
        self.land.setValue(40)
        self.land.setSuffix(" % land")
        self.players = QSpinBox()
        self.players.setRange(1, 64)
        self.players.setValue(8)
        self.players.setToolTip("Atlantis layout: one small starting island per player")
        for label, w in (("Layout", self.style), ("Grid", self.kind), ("Width", self.width),
                         ("Height", self.height), ("Seed", self.seed), ("Land", self.land),
                         ("Players", self.players)):
            form.addRow(label, w)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def styles(self) -> list[str]:
        return list(getattr(self.mapgen, "STYLES", ("continents", "islands", "atlantis")))

    def make_map(self) -> GameMap:
        """engine.mapgen.generate(kind, width, height, seed, style=..., sea_level=..., players=...)."""
        style = self.style.currentText()
        params = {"style": style, "sea_level": round(1.0 - self.land.value() / 100.0, 2)}
        if style == "atlantis":
            params["players"] = self.players.value()
        return self.mapgen.generate(self.kind.currentText(), self.width.value(), self.height.value(),
                                    self.seed.value(), **params)
