"""Atlantis movement beyond the rule cases: the ADVANCE battle hook's three outcomes (the
combat phases will fill `Turn.advance_fight`), `Turn.no_move`, the order events happen in
across the world, and the pure riding and attitude rules the combat muster shares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.casefile import Case, load_case, run_case
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis.turn import Turn

CASES = Path(__file__).resolve().parent / "cases" / "atlantis"


def _case(name: str, **orders: str) -> Case:
    case = load_case(CASES / name)
    data = json.loads(json.dumps(case.data))
    data.pop("expect", None)
    for faction, text in orders.items():
        data["orders"][faction] = text
    return Case(case.path, data)


def _cells(result) -> dict[int, int]:
    return {u.number: u.cell for u in result.state["units"]}


@pytest.mark.parametrize("outcome,cell", [("continue", 0), ("stop", 1), ("retreat", 4)])
def test_the_advance_battle_outcome_places_the_advancer(monkeypatch, outcome, cell):
    calls = []

    def fight(self, unit, from_cell, to_cell):
        calls.append((unit.number, from_cell, to_cell, unit.cell))
        return outcome

    monkeypatch.setattr(Turn, "advance_fight", fight)
    # Vanguard (1) advances N into the region Gate (10) guards, then NW beyond it
    result = run_case(_case("movement-advance.toml", **{"1": "#atlantis 1\nunit 1\nADVANCE N NW\n#end\n"}))
    assert calls == [(1, 4, 1, 4)]        # fought from the border: still in its region
    assert _cells(result)[1] == cell
    moved = [(e.origin, e.destination) for e in result.events if e.kind == "atlantis.moved"]
    assert moved == {"continue": [(4, 1), (1, 0)], "stop": [(4, 1)], "retreat": []}[outcome]


def test_the_advance_battle_is_fought_and_the_winner_goes_in():
    result = run_case(_case("movement-advance.toml"))
    assert _cells(result)[1] == 1
    fought = [e for e in result.events if e.kind == "atlantis.battle" and e.faction == 1]
    assert [(e.attacking_unit, e.target_unit, e.winner) for e in fought] == [(1, 10, "attackers")]


def test_units_that_fought_with_losses_may_not_move(monkeypatch):
    init = Turn.__init__

    def losers(self, ctx):
        init(self, ctx)
        self.no_move.add(2)

    monkeypatch.setattr(Turn, "__init__", losers)
    result = run_case(_case("movement-advance.toml"))
    assert _cells(result)[2] == 4
    assert any(e.kind == "atlantis.failed" and e.unit == 2 and "fought" in e.reason
               for e in result.events)


def test_movement_goes_one_hex_a_round_region_by_region():
    result = run_case(load_case(CASES / "movement-order.toml"))
    steps = [(e.unit, e.origin, e.destination) for e in result.events
             if e.kind == "atlantis.moved"]
    # round 1: region 0 (Far), region 1 (First, then Second: report order), region 6 (Near);
    # round 2: region 2 (Far again)
    assert steps == [(1, 0, 2), (4, 1, 3), (3, 1, 3), (2, 6, 4), (1, 2, 4)]


def test_effective_riding_and_catching():
    assert rules.attack_riding(5, mounts=1) == 3          # at most 3
    assert rules.attack_riding(2, mounts=0) == 0          # nobody can ride
    assert rules.defence_riding(2, men=2, mounts=2, can_ride=True, inside=False) == 2
    assert rules.defence_riding(2, men=2, mounts=1, can_ride=True, inside=False) == 0
    assert rules.defence_riding(2, men=1, mounts=1, can_ride=True, inside=True) == 0
    assert rules.defence_riding(2, men=1, mounts=1, can_ride=False, inside=False) == 0
    assert rules.catches(1, 1) and not rules.catches(0, 1)


def test_attitude_towards_an_unidentified_unit():
    assert rules.attitude_seen("unfriendly", "neutral", identified=True) == "unfriendly"
    assert rules.attitude_seen("unfriendly", "neutral", identified=False) == "neutral"
    assert rules.attitude_seen("friendly", "hostile", identified=False) == "friendly"
    assert rules.attitude_seen("neutral", "unfriendly", identified=False) == "unfriendly"
    assert rules.denies_entry("unfriendly", sees=True, attack=0, target=0)
    assert rules.denies_entry("hostile", sees=True, attack=1, target=1)
    assert not rules.denies_entry("neutral", sees=True, attack=3, target=0)
    assert not rules.denies_entry("unfriendly", sees=False, attack=3, target=0)
    assert not rules.denies_entry("unfriendly", sees=True, attack=0, target=1)


def test_ships_go_by_sea():
    assert rules.ship_may_sail(from_ocean=True, to_ocean=True)
    assert rules.ship_may_sail(from_ocean=False, to_ocean=True)
    assert rules.ship_may_sail(from_ocean=True, to_ocean=False)
    assert not rules.ship_may_sail(from_ocean=False, to_ocean=False)


def test_a_battle_may_ask_who_denies_entry_as_the_region_is_now(monkeypatch):
    from engine.rulesets.atlantis.movement import denying_guard

    asked = []

    def fight(self, unit, from_cell, to_cell):
        asked.append(denying_guard(self, unit, to_cell))
        return "retreat"

    monkeypatch.setattr(Turn, "advance_fight", fight)
    run_case(_case("movement-advance.toml"))
    assert [g.number for g in asked] == [10]     # Gate keeps Vanguard out of cell 1
