"""Runs an Atlantis battle case (tests/cases/atlantis/battles/*.toml) through the battle
engine with its scripted dice: the combatants, `fight` or `duel`, and the battle events
each faction in the battle would get. Used by the battle cases' test and by the turn's
test that every event kind is exercised by some case."""

from __future__ import annotations

import tomllib
from pathlib import Path

from engine.dice import ScriptedDice
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis.combat import BattleOptions, BattleResult, Combatant, duel, fight
from engine.rulesets.atlantis.combat.report import battle_events

CASES = Path(__file__).parent / "cases" / "atlantis" / "battles"
FIELDS = {"unit", "faction", "men", "name", "faction_name", "levels", "items", "behind",
          "protected", "combat_spell", "structure"}


def combatant(d: dict) -> Combatant:
    unknown = set(d) - FIELDS
    if unknown:
        raise ValueError(f"unknown combatant fields {sorted(unknown)}")
    return Combatant(**d)


def run(case: dict) -> tuple[BattleResult, ScriptedDice]:
    dice = ScriptedDice(case["dice"])
    attackers = [combatant(c) for c in case["attackers"]]
    defenders = [combatant(c) for c in case["defenders"]]
    options = BattleOptions(**case.get("options", {}))
    if case.get("kind") == "assassination":
        r = duel(attackers[0], defenders[0], terrain=case["terrain"], dice=dice,
                 options=options)
    else:
        r = fight(attackers, defenders, terrain=case["terrain"], dice=dice, options=options)
    return r, dice


def load(path: Path) -> dict:
    return tomllib.loads(path.read_text())


def events(path: Path) -> list[ev.Battle]:
    """The battle events of a case, for every faction with a unit in it."""
    case = load(path)
    r, _ = run(case)
    viewers = {c.faction for c in (*r.attackers, *r.defenders)}
    return battle_events(r, 0, viewers, where=case.get("where", "forest (1,1) in Turia"))
