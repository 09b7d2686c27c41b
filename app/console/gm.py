"""The GM's hand in the console: a dialog that makes one intervention (a unit added, items or
silver given or taken, a new player, a password or address) through the same engine call
as `realmsmith gm` (GameService.intervene), and the history list of those made.

The dialog only collects the fields; the ruleset checks them and says why it refuses.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.interventions import Intervention, InterventionRefused, pairs

KINDS = [("unit", "Add a unit"), ("give", "Give or take items / silver"),
         ("join", "A new player joins"), ("password", "Change a password"),
         ("address", "Change an e-mail address")]
FLAGS = ("guard", "avoid", "behind", "hold", "noaid", "autotax")


class InterventionDialog(QDialog):
    """Pick a kind, fill its form; `intervention()` is what was asked (InterventionRefused
    for a field it cannot read, said in the dialog)."""

    def __init__(self, factions: list[tuple[int, str]], kinds: list[str] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("interventionDialog")
        self.setWindowTitle("GM intervention")
        self.setMinimumWidth(560)
        self.kinds = [(k, label) for k, label in KINDS if kinds is None or k in kinds]
        self.kind = QComboBox()
        self.kind.setObjectName("interventionKind")
        for k, label in self.kinds:
            self.kind.addItem(label, k)
        self.faction = QComboBox()
        self.faction.setObjectName("interventionFaction")
        for n, name in factions:
            self.faction.addItem(f"{n}: {name}", n)
        self.pages = QStackedWidget()
        self.fields: dict[str, dict[str, QWidget]] = {}
        for k, _label in self.kinds:
            self.pages.addWidget(self._page(k))
        self.note = QLineEdit()
        self.note.setPlaceholderText("why (kept in the history)")
        self.problem = QLabel("")
        self.problem.setObjectName("interventionProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        top = QFormLayout()
        top.addRow("Intervention", self.kind)
        top.addRow("Faction", self.faction)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Make it")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        intro = QLabel("Made at this turn boundary: the next turn starts from it. It is kept "
                       "in the history and made again if the turn is rolled back and run "
                       "again; players see only its outcome, in their own report.")
        intro.setWordWrap(True)
        why = QFormLayout()
        why.addRow("Note", self.note)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(top)
        lay.addWidget(self.pages)
        lay.addLayout(why)
        lay.addWidget(self.problem)
        lay.addWidget(buttons)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed(0)

    def _page(self, kind: str) -> QWidget:
        w, form, f = QWidget(), QFormLayout(), {}
        w.setLayout(form)
        if kind == "unit":
            f["region"] = QLineEdit()
            f["region"].setPlaceholderText("(x,y)")
            f["men"] = QSpinBox()
            f["men"].setRange(1, 1_000_000)
            f["name"] = QLineEdit()
            f["items"] = QLineEdit()
            f["items"].setPlaceholderText("swords=5, silver=200")
            f["skills"] = QLineEdit()
            f["skills"].setPlaceholderText("combat=2 (months a man), obse=45d (days)")
            row = QHBoxLayout()
            for flag in FLAGS:
                f[flag] = QCheckBox(flag)
                row.addWidget(f[flag])
            row.addStretch(1)
            for label, key in (("Region", "region"), ("Men", "men"), ("Name", "name"),
                               ("Items", "items"), ("Skills", "skills")):
                form.addRow(label, f[key])
            form.addRow("Flags", row)
        elif kind == "give":
            f["unit"] = QSpinBox()
            f["unit"].setRange(0, 999_999_999)
            f["unit"].setSpecialValueText("the faction's unclaimed silver")
            f["item"] = QLineEdit("silver")
            f["count"] = QSpinBox()
            f["count"].setRange(-100_000_000, 100_000_000)
            f["count"].setToolTip("negative takes")
            form.addRow("Unit", f["unit"])
            form.addRow("Item", f["item"])
            form.addRow("Count (negative takes)", f["count"])
        elif kind == "join":
            for key, label in (("name", "Faction name"), ("email", "E-mail"),
                               ("password", "Password"), ("region", "Start region")):
                f[key] = QLineEdit()
                form.addRow(label, f[key])
            f["region"].setPlaceholderText("empty: a free starting island")
        elif kind == "password":
            f["password"] = QLineEdit()
            f["password"].setPlaceholderText("empty clears it")
            form.addRow("New password", f["password"])
        else:
            f["email"] = QLineEdit()
            form.addRow("New address", f["email"])
        for key, widget in f.items():
            widget.setObjectName(f"iv_{kind}_{key}")
        self.fields[kind] = f
        return w

    def _kind_changed(self, index: int) -> None:
        self.pages.setCurrentIndex(max(0, index))
        self.faction.setEnabled(self.kind.currentData() != "join")
        self.problem.setText("")

    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(max(0, self.kind.findData(kind)))

    def intervention(self) -> Intervention:
        k = self.kind.currentData()
        f = self.fields[k]
        text = {key: w.text().strip() for key, w in f.items() if isinstance(w, QLineEdit)}
        if k == "unit":
            params = {"region": text["region"], "men": f["men"].value(), "name": text["name"],
                      "items": pairs(text["items"], "item"),
                      "skills": pairs(text["skills"], "skill"),
                      "flags": [x for x in FLAGS if f[x].isChecked()]}
        elif k == "give":
            params = {"item": text["item"] or "silver", "count": f["count"].value()}
            if f["unit"].value():
                params["unit"] = f["unit"].value()
        elif k == "join":
            params = {**text, "password": f["password"].text()}
        elif k == "password":
            params = {"password": f["password"].text()}
        else:
            params = {"email": text["email"]}
        faction = None if k == "join" else self.faction.currentData()
        if k == "give" and "unit" in params:
            faction = None  # the unit says whose; the faction list is for unclaimed silver
        return Intervention(k, faction, params, self.note.text().strip())

    def _accept(self) -> None:
        try:
            self.intervention()
        except InterventionRefused as e:
            self.problem.setText(str(e))
            return
        self.accept()


class InterventionsView(QListWidget):
    """Every intervention of the game, oldest first; those of the turn shown come first in
    bold-free plain text (a list a GM reads, not a form)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("interventionsView")
        self.setWordWrap(True)

    def show_history(self, service, step: int) -> None:
        self.clear()
        try:
            rows = service.interventions()
        except Exception as e:  # noqa: BLE001 - a list, not a reason to fail the page
            self.addItem(str(e))
            return
        for r in rows:
            self.addItem(("▶ " if r.step == step else "   ") + r.line())
        if not rows:
            self.addItem("No GM interventions in this game.")

    def lines(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
