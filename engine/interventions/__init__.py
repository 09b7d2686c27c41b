"""GM interventions: the changes a game master makes between turns by hand, as Atlantis GMs
do by editing the player file (a unit added, items or silver given or taken, a password or
address changed, a new player let in).

An intervention belongs to the turn boundary it is made at: made while the game is at turn
N, it changes the state of turn N in place (what the next run starts from) and is recorded
with step N in the game's history (`rs_intervention`, engine/db/interventions.py). A
rollback to N or later keeps it; a rollback to before N keeps the record, and when turn N
is made again the intervention is applied again to the new state of turn N, after that
turn's reports (as the first time). One that no longer fits the re-made state (its unit is
gone) is recorded as refused, with the reason.

Who learns of it: only the GM's history lists interventions. A player sees the outcome in
their own faction's next report (the unit, the items) and nothing else; a faction that
joins gets its first report at once. Other factions see a changed unit only as they see
any unit (a new unit in a region where they have units of their own).

The kinds every ruleset understands are `address` and `password` (the scenario's faction
record, which intake verifies mail against); a ruleset adds its own by overriding
`Ruleset.intervene` (Atlantis: `unit`, `give`, `join`, engine/rulesets/atlantis/gm.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.scenario import Faction, Scenario

GENERIC_KINDS = ("address", "password")


class InterventionRefused(ValueError):
    """The intervention cannot be made; str() says why, for the GM."""


@dataclass
class Intervention:
    kind: str                               # address | password | a ruleset's own kind
    faction: int | None = None              # the faction it concerns (None: none)
    params: dict[str, Any] = field(default_factory=dict)
    note: str = ""                          # the GM's reason, for the history

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "faction": self.faction, "params": self.params,
                "note": self.note}


@dataclass
class Applied:
    """What an intervention did: a sentence for the history, the scenario factions to save
    (new or changed), and a faction that joined (it gets a report at once)."""

    summary: str
    factions: list[Faction] = field(default_factory=list)
    joined: int | None = None


def pairs(values: str | list[str], what: str = "item") -> dict[str, str]:
    """`swords=3, obse=45d` (or a list of `NAME=N`) as {name: value}, for the command line
    and the console's dialog; InterventionRefused names the piece it cannot read."""
    parts = values.split(",") if isinstance(values, str) else list(values)
    out: dict[str, str] = {}
    for v in (p.strip() for p in parts):
        if not v:
            continue
        name, sep, n = v.rpartition("=")
        if not sep or not name.strip() or not n.strip():
            raise InterventionRefused(f"{what} {v!r}: write NAME=NUMBER")
        out[name.strip()] = n.strip()
    return out


def scenario_faction(scenario: Scenario, number: int | None) -> Faction:
    f = scenario.faction(number) if number is not None else None
    if f is None:
        raise InterventionRefused(f"no faction {number} in this game")
    return f


def generic(scenario: Scenario, iv: Intervention) -> Applied:
    """`address` (params: email) and `password` (params: password; "" clears it) on the
    scenario's faction record. Any other kind is refused."""
    if iv.kind not in GENERIC_KINDS:
        raise InterventionRefused(f"this ruleset has no GM intervention {iv.kind!r} "
                                  f"(it has: {', '.join(GENERIC_KINDS)})")
    f = scenario_faction(scenario, iv.faction)
    if iv.kind == "address":
        email = str(iv.params.get("email", "")).strip()
        if any(c in email for c in "\r\n"):
            raise InterventionRefused("an address is one line")
        return Applied(f"faction {f.number}'s address set to {email or '(none)'}",
                       [dataclasses.replace(f, email=email)])
    password = str(iv.params.get("password", ""))
    if any(c in password for c in "\r\n\""):
        raise InterventionRefused("a password is one line without double quotes")
    return Applied(f"faction {f.number}'s password {'changed' if password else 'cleared'}",
                   [dataclasses.replace(f, password=password)])


__all__ = ["Applied", "GENERIC_KINDS", "Intervention", "InterventionRefused", "generic",
           "pairs", "scenario_faction"]
