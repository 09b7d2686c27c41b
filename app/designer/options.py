"""The options panel, built from the ruleset's OptionSpecs: check boxes, spin boxes within
the limits, combo boxes for choices; help texts as tooltips; every change undoable."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.tables import Options, OptionSpec

INT_LIMIT = 2**31 - 1


class OptionsPanel(QWidget):
    def __init__(self, designer: Any, options: Options, parent=None):
        super().__init__(parent)
        self.designer, self.options = designer, options
        self.setObjectName("optionsPanel")
        self.widgets: dict[str, QWidget] = {}
        inner = QWidget()
        form = QFormLayout(inner)
        for spec in options.specs:
            w = self._widget(spec)
            w.setObjectName(f"option_{spec.name}")
            tip = f"<b>{spec.label or spec.name}</b> ({spec.name})" + (f"<br>{spec.help}" if spec.help else "")
            w.setToolTip(tip)
            label = QLabel(spec.label or spec.name)
            label.setToolTip(tip)
            form.addRow(label, w)
            self.widgets[spec.name] = w
        if not options.specs:
            form.addRow(QLabel("This ruleset declares no options."))
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(scroll)
        for name in self.widgets:
            self.refresh(name)

    def _widget(self, spec: OptionSpec) -> QWidget:
        name = spec.name
        if spec.choices:
            w = QComboBox()
            w.addItems(list(spec.choices))
            w.currentTextChanged.connect(lambda v, n=name: self._changed(n, v))
        elif spec.type == "bool":
            w = QCheckBox()
            w.toggled.connect(lambda v, n=name: self._changed(n, bool(v)))
        elif spec.type == "int":
            w = QSpinBox()
            w.setRange(int(spec.min) if spec.min is not None else -INT_LIMIT,
                       int(spec.max) if spec.max is not None else INT_LIMIT)
            w.setKeyboardTracking(False)  # one undo step per value, not per key
            w.valueChanged.connect(lambda v, n=name: self._changed(n, int(v)))
        elif spec.type == "float":
            w = QDoubleSpinBox()
            w.setDecimals(3)
            w.setRange(spec.min if spec.min is not None else -1e12,
                       spec.max if spec.max is not None else 1e12)
            w.setKeyboardTracking(False)
            w.valueChanged.connect(lambda v, n=name: self._changed(n, float(v)))
        else:
            w = QLineEdit()
            w.editingFinished.connect(lambda n=name, w=w: self._changed(n, w.text()))
        return w

    def _changed(self, name: str, value: Any) -> None:
        old = self.options.values.get(name)
        if old == value:
            return
        spec = self.options.spec(name)
        self.designer.edit_option(name, old, value, f"option {spec.label or name} = {value!r}")

    def refresh(self, name: str) -> None:
        """Show the option's current value without making an edit."""
        w, v = self.widgets.get(name), self.options.values.get(name)
        if w is None:
            return
        w.blockSignals(True)
        try:
            if isinstance(w, QComboBox):
                w.setCurrentText(str(v))
            elif isinstance(w, QCheckBox):
                w.setChecked(bool(v))
            elif isinstance(w, (QSpinBox, QDoubleSpinBox)):
                w.setValue(v if v is not None else 0)
            elif isinstance(w, QLineEdit):
                w.setText("" if v is None else str(v))
        finally:
            w.blockSignals(False)
