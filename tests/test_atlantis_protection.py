"""Building protection as the muster hands it out (the book: a building protects as many
men as its size; those in it longest - first on the report - get it). The state is the
rule case tests/cases/atlantis/combat-building-protection.toml, where the battle is fought."""

from __future__ import annotations

from pathlib import Path

from engine.casefile import build_scenario, load_case
from engine.dice import Dice
from engine.ruleset import TurnContext
from engine.rulesets.atlantis.combat import muster
from engine.rulesets.atlantis.turn import Turn

CASE = Path(__file__).parent / "cases" / "atlantis" / "combat-building-protection.toml"


def _turn() -> Turn:
    rs, scen = build_scenario(load_case(CASE))
    state = rs.initial_state(scen)
    return Turn(TurnContext(rs, scen, state.copy(), state, {}, Dice(1, "test")))


def test_a_towers_ten_men_go_in_report_order():
    t = _turn()
    units = [t.units[n] for n in (1, 11, 10)]      # not in report order on purpose
    assert muster.protection(t, units) == {10: 6, 11: 4}


def test_an_unfinished_tower_protects_nobody():
    t = _turn()
    assert muster.protection(t, [t.units[12]]) == {}


def test_the_books_fort_shelters_the_first_fifty_of_two_hundred():
    t = _turn()
    t.structures[1].kind, t.structures[1].work = "fort", 40
    t.units[10].men = 200
    assert muster.protection(t, [t.units[10], t.units[11]]) == {10: 50, 11: 0}


def test_the_protected_men_reach_the_battle():
    t = _turn()
    units = [t.units[n] for n in (10, 11)]
    shares = {c.unit: c.protected for c in muster.combatants(t, units, units, units)}
    assert shares == {10: 6, 11: 4}
