"""Atlantis: one big battle - 1,801 men a side in 10 units each (swords, chain, longbows, a
building, two mages casting Fireball) - with its spoils and its report for one faction.
Battles run inside the turn's combat and movement phases, so their cost adds up there."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.atlantis.combat import Combatant, fight
from engine.rulesets.atlantis.combat.report import battle_lines


def _armies():
    attackers = [Combatant(i, 1, 200, levels={"combat": 2, "tactics": 1},
                           items={"sword": 200, "chain armor": 100, "silver": 2000})
                 for i in range(1, 10)]
    attackers.append(Combatant(10, 1, 1, levels={"magic": 3, "fireball": 3},
                               combat_spell="fireball", behind=True))
    defenders = [Combatant(100 + i, 2, 200, levels={"combat": 1, "longbow": 2},
                           items={"longbow": 100, "plate armor": 50, "silver": 3000},
                           protected=250 if i == 1 else 0)
                 for i in range(1, 10)]
    defenders.append(Combatant(110, 2, 1, levels={"magic": 3, "fireball": 3},
                               combat_spell="fireball", behind=True))
    return attackers, defenders


def test_bench_atlantis_battle_1800_a_side(benchmark, record):
    a, d = _armies()

    def run():
        r = fight(a, d, terrain="plain", dice=Dice(1, "bench"))
        return r, battle_lines(r, 1, where="plain (1,1) in Turia")

    r, lines = benchmark(run)
    assert r.winner is not None or r.rounds
    record(f"atlantis battle: {sum(c.men for c in a)} against {sum(c.men for c in d)} men, "
           f"{r.rounds} rounds, {sum(r.losses.values())} dead, "
           f"{sum(r.found.values())} things found, {len(lines)} report lines")
