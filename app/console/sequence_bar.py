"""The GM's controls for a sequential game (Continental Conquest) in the console: run early
(as `realmsmith run --early`), close the game turn (where option close_game_turn = gm: as
`realmsmith close`), drop a clan and give its position to a standby player (as `realmsmith
drop` and `realmsmith standby`). Each runs through the console's TurnRunner, off the GUI
thread, and shows in the history as a step of its own (engine/db/gm_steps.py)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QPushButton,
    QWidget,
)

from engine.ruleset import TurnModel


class SequenceControls(QWidget):
    def __init__(self, console, parent: QWidget | None = None):
        super().__init__(parent)
        self.console = console
        self.setObjectName("sequenceControls")
        self.early = QCheckBox("Run early")
        self.early.setObjectName("runEarly")
        self.early.setToolTip("Also run clan turns the week between a clan's turns still holds "
                              "back (as realmsmith run --early)")
        self.close_button = QPushButton("Close game turn")
        self.close_button.setObjectName("closeGameTurn")
        self.close_button.setToolTip("End the game turn under way now, whoever has not had a turn "
                                     "(games whose option close_game_turn is gm)")
        self.close_button.clicked.connect(lambda _=False: self.close_game_turn())
        self.drop_button = QPushButton("Drop clan…")
        self.drop_button.setObjectName("dropClan")
        self.drop_button.setToolTip("Drop a clan's position: it takes no more turns; its convoys "
                                    "and cities stay and defend themselves")
        self.drop_button.clicked.connect(lambda _=False: self.drop_dialog())
        self.standby_button = QPushButton("Standby…")
        self.standby_button.setObjectName("standbyPlayer")
        self.standby_button.setToolTip("Give a clan's position to a standby player (new password)")
        self.standby_button.clicked.connect(lambda _=False: self.standby_dialog())
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in (self.early, self.close_button, self.drop_button, self.standby_button):
            lay.addWidget(w)

    # ---- state ---------------------------------------------------------------------------

    action = None  # the tool bar's action holding this widget (it shows and hides it)

    def shown(self) -> bool:
        return self.action.isVisible() if self.action is not None else self.isVisible()

    def update_for(self, svc, running: bool) -> None:
        """Shown for sequential games only; Close only where the GM ends game turns."""
        seq = svc is not None and svc.ruleset.turn_model == TurnModel.SEQUENTIAL
        if self.action is not None:
            self.action.setVisible(seq)
        else:
            self.setVisible(seq)
        if not seq:
            return
        try:
            gm_closes = bool(svc.ruleset.gm_closes_cycle(svc.scenario))
        except Exception:  # noqa: BLE001 (a scenario being edited: no close)
            gm_closes = False
        self.close_button.setVisible(gm_closes)
        for b in (self.close_button, self.drop_button, self.standby_button):
            b.setEnabled(not running)

    # ---- actions ---------------------------------------------------------------------------

    def close_game_turn(self) -> bool:
        return self.console.start_job("closing the game turn…",
                                      lambda svc, _p, _c: svc.close_game_turn())

    def drop(self, faction: int, reason: str = "") -> bool:
        return self.console.start_job(f"dropping faction {faction}…",
                                      lambda svc, _p, _c: svc.drop_faction(faction, reason))

    def standby(self, faction: int, password: str, name: str = "", email: str = "") -> bool:
        return self.console.start_job(f"faction {faction}: standby player…",
                                      lambda svc, _p, _c: svc.standby(faction, name, email, password))

    def _pick_faction(self, title: str) -> int | None:
        items = [f"{n} {name}" for n, name in self.console._factions()]
        if not items:
            return None
        text, ok = QInputDialog.getItem(self, title, "Clan:", items, 0, False)
        return int(text.split()[0]) if ok and text else None

    def drop_dialog(self) -> None:
        faction = self._pick_faction("Drop a clan")
        if faction is None:
            return
        reason, ok = QInputDialog.getText(self, "Drop a clan", "Why (for the history):")
        if ok:
            self.drop(faction, reason.strip())

    def standby_dialog(self) -> None:
        factions = self.console._factions()
        if not factions:
            return
        dlg = StandbyDialog(factions, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.standby(*dlg.values())


class StandbyDialog(QDialog):
    """The standby player's clan, name, address and password in one form; the password is
    masked as it is typed (it is the clan's account number), with Show to check it."""

    def __init__(self, factions: list[tuple[int, str]], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Standby player")
        self.clan = QComboBox()
        for n, name in factions:
            self.clan.addItem(f"{n} {name}", n)
        self.name = QLineEdit()
        self.email = QLineEdit()
        self.email.setPlaceholderText("player@example.org")
        self.password = QLineEdit()
        self.password.setObjectName("standbyPassword")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_password = QCheckBox("Show")
        self.show_password.setObjectName("showPassword")
        self.show_password.setToolTip("Show the password as typed (mind who is watching)")
        self.show_password.toggled.connect(lambda on: self.password.setEchoMode(
            QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password))
        pw = QHBoxLayout()
        pw.addWidget(self.password, 1)
        pw.addWidget(self.show_password)
        form = QFormLayout(self)
        form.addRow("Clan:", self.clan)
        form.addRow("The new player's name:", self.name)
        form.addRow("Their address:", self.email)
        form.addRow("New password (account number):", pw)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.password.textChanged.connect(self._ready)
        self._ready()

    def _ready(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.password.text().strip()))
        ok.setToolTip("" if ok.isEnabled() else "A standby player needs a new password")

    def values(self) -> tuple[int, str, str, str]:
        """(clan, password, name, address), as SequenceControls.standby takes them."""
        return (int(self.clan.currentData()), self.password.text().strip(),
                self.name.text().strip(), self.email.text().strip())
