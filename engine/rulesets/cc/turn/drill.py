"""What a turn does to each convoy's spirit and skills at maintenance ([CONVOY STATISTICS],
[CONVOY EXPERTS]): morale "drops steadily" each turn, a Trainer and a Sergeant raise training
"by a few points" and "at a slow but noticeable rate", an Armsmaster makes rifles "at slow
rates". The book gives no figures; the options do (house values, X206-X208):
`morale_decay`, `trainer_training`, `sergeant_training`, `armsmaster_rifles`.

The decay comes before morale over 100 is cut back, so a convoy that celebrated past 100
still ends its turn at 100; a convoy created this turn does not decay (it starts at about 30).
The Armsmaster's rifles go into his convoy up to its rifle capacity, the rest to the clan's
stock (he makes them whether or not the convoy can carry them: X208).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own


@dataclass(frozen=True)
class Drilled(_Own, Event):
    """A convoy's turn-end changes: morale lost to the turn's decay, training its Trainer and
    Sergeant added, rifles its Armsmaster made (and the morale and training after)."""

    kind = "cc.drilled"
    clan: int
    convoy: int
    morale_lost: int
    morale: int
    training_gained: int
    training: int
    rifles: int

    def describe(self, label=None, width: int = 80) -> str:
        parts = []
        if self.morale_lost:
            parts.append(f"morale fell {self.morale_lost} over the turn")
        if self.training_gained:
            parts.append(f"its experts' drill raised training {self.training_gained} to {self.training}")
        if self.rifles:
            parts.append(f"its Armsmaster made {self.rifles} rifle{'s' if self.rifles != 1 else ''}")
        return f"Convoy #{self.convoy}: " + "; ".join(parts)


def drill(t: ClanTurn, cv: st.Convoy) -> None:
    """The turn's decay and the experts' slow work on one convoy (before the cut to 100)."""
    experts = t.experts(cv)
    lost = 0 if cv.created_turn == t.turn else min(cv.morale, int(t.opts.morale_decay))
    cv.morale -= lost
    gain = (int(t.opts.trainer_training) if "TRA" in experts else 0) + (
        int(t.opts.sergeant_training) if "SER" in experts else 0)
    gain = max(0, min(gain, 100 - cv.training))
    cv.training += gain
    rifles = int(t.opts.armsmaster_rifles) if "ARM" in experts else 0
    if rifles:
        room = 0 if cv.mode == "empty" else max(0, t.weapon_caps(cv)["rifles"] - cv.rifles)
        cv.rifles += min(rifles, room)
        t.clan.rifles += rifles - min(rifles, room)
    if lost or gain or rifles:
        t.emit(Drilled(t.number, cv.number, lost, cv.morale, gain, cv.training, rifles))
