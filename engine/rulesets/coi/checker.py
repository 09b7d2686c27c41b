"""Checking posts before they are applied, on a copy of the state.

`check_sheet`: a drafted post (the player viewer), its actions tried in order; the AP are
those last recorded for the player (the clock of the real post decides), so the checker
warns rather than promises when AP run short.

`check_posts`: a batch of imported posts, applied in time order exactly as the step will
apply them, so each is judged by the state the earlier posts of the batch leave (units
recruited or moved, hexes taken, offers made, the GM's start post and AP corrections).
"""

from __future__ import annotations

import dataclasses

from engine.events import EventLog
from engine.orders import ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.ruleset import Submission
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.posts import HANDLERS, apply_post, post_id, post_order
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


def check_posts(subs: list[Submission], state: State, scenario: Scenario) -> list[list[Diagnostic]]:
    """The findings of each post (same order as `subs`) when the batch is applied.

    A post is a fact once posted: an impossible action in it is ignored by the rules (and
    the report says so), not an error the GM could mend, so such findings come back as
    warnings; only what cannot be read at all stays an error. A cron job gated on
    `realmsmith check` (or `run --strict`) is then not stuck on a player's mistake."""
    trial = state.copy()
    rules = Rules.from_catalogs(scenario.catalogs)
    found: list[Diagnostic] = []
    w = World(trial, scenario.map, rules, scenario.options, EventLog().emit, found)
    names = rules.unit_names()
    applied = {p.post: p for p in trial["applied"]}
    out: list[list[Diagnostic]] = [[] for _ in subs]
    for index, sub in sorted(enumerate(subs), key=lambda iv: post_order(iv[1], iv[0])):
        start = len(found)
        apply_post(w, sub, post_id(sub, index), names, applied)
        out[index] = [dataclasses.replace(d, severity=Severity.WARNING)
                      if d.kind == ILLEGAL and d.severity == Severity.ERROR else d
                      for d in found[start:]]
    return out
