"""The GM's controls for a sequential game (Continental Conquest) in the console: run early
(as `realmsmith run --early`), close the game turn (where option close_game_turn = gm: as
`realmsmith close`), drop a clan and give its position to a standby player (as `realmsmith
drop` and `realmsmith standby`). Each runs through the console's TurnRunner, off the GUI
thread, and shows in the history as a step of its own (engine/db/gm_steps.py)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QInputDialog, QLineEdit, QPushButton, QWidget

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
        faction = self._pick_faction("Standby player")
        if faction is None:
            return
        name, ok = QInputDialog.getText(self, "Standby player", "The new player's name:")
        if not ok:
            return
        email, ok = QInputDialog.getText(self, "Standby player", "The new player's address:")
        if not ok:
            return
        password, ok = QInputDialog.getText(self, "Standby player", "The new password (account number):",
                                            QLineEdit.EchoMode.Normal)
        if ok and password.strip():
            self.standby(faction, password.strip(), name.strip(), email.strip())
