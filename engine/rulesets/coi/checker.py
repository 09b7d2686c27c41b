"""Live checking of a drafted post: its actions tried in order on a copy of the state.

The AP are those last recorded for the player (the clock of the real post decides), so the
checker warns rather than promises when AP run short.
"""

from __future__ import annotations

from engine.events import EventLog
from engine.orders import ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.posts import HANDLERS
from engine.rulesets.coi.rules import Act
from engine.rulesets.coi.world import Impossible, World
from engine.scenario import Scenario
from engine.state import State


def check_sheet(sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list[Diagnostic]:
    trial = state.copy()
    log = EventLog()
    out: list[Diagnostic] = []
    w = World(trial, scenario.map, Rules.from_catalogs(scenario.catalogs), scenario.options,
              log.emit, [])
    player = next((p for p in trial["players"] if p.number == faction), None)
    if player is None:
        return [Diagnostic(ILLEGAL, f"faction {faction} is not a player of this game")]
    time = trial.one("game").clock if trial["game"] else ""
    for order in sheet.orders:
        try:
            HANDLERS[type(order)](Act(w, player, time), order)
        except Impossible as e:
            sev = Severity.WARNING if str(e).startswith("needs ") else Severity.ERROR
            out.append(Diagnostic(ILLEGAL, str(e), order.line, 0, order.text, sheet.source, sev, faction))
    return out
