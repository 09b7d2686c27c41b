"""Atlantis battle statistics over many dice: the skill contest follows the book's odds
table (1:1, 2:1, 4:1, 8:1, 1:2 ...) after the 50% lethal opportunity, chain armour saves
1 in 3 and plate 2 in 3, crossbows go through armour, buildings add 2 against bows; whole
battles between equals are even, and half the dead losers' things are found.

Bounds: each observed rate must lie within 6 standard deviations of the book's figure
(sigma = sqrt(p(1 - p) / n) for n trials). A correct engine strays that far with a chance
of about 2 in 10^9 per check; and the seeds are fixed, so the test is deterministic and
cannot flake - the bounds only decide whether a change to the rules' dice is plausible."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from engine.dice import Dice
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis.combat import ATTACKERS, DEFENDERS, BattleOptions, Combatant, fight
from engine.rulesets.atlantis.combat import battle as bt

N = 20_000


def within_six_sigma(hits: int, n: int, p: float) -> bool:
    sigma = math.sqrt(p * (1 - p) / n)
    return abs(hits / n - p) <= 6 * sigma


SEEDS, BLOWS = 200, 100   # N = 20,000 blows: 100 in each of 200 battles, one seed each


def _kill_rate(attacker: Combatant, target: Combatant, seed: int, terrain="forest") -> int:
    """Kills in N blows of `attacker`'s man on armies of men like `target`: 200 battles
    (one seed each) of 100 blows on 100 men."""
    target = Combatant(target.unit, target.faction, BLOWS, levels=target.levels,
                       items={k: v * BLOWS for k, v in target.items.items()},
                       protected=BLOWS if target.protected else 0)
    kills = 0
    for n in range(SEEDS):
        b = bt._Battle("battle", [attacker], [target], terrain, Dice(seed, "odds", n), None,
                       BattleOptions())
        a, d = b.armies[ATTACKERS], b.armies[DEFENDERS]
        a.round = 1   # crossbows fire
        man = a.soldiers[0]
        for _ in range(BLOWS):
            b.attack(man, d)
        kills += d.killed
    return kills


def _p(attack: int, defence: int) -> Fraction:
    return rules.hit_chance(attack, defence)   # the book's odds table as exact fractions


HALF = Fraction(1, 2)
CASES = [
    # (what, attacker, target, chance of a kill per attack)
    ("1:1", Combatant(1, 1, 1), Combatant(2, 2, 1), HALF * _p(0, 0)),
    ("2:1", Combatant(1, 1, 1, levels={"combat": 1}), Combatant(2, 2, 1), HALF * _p(1, 0)),
    ("4:1 sword", Combatant(1, 1, 1, items={"sword": 1}), Combatant(2, 2, 1), HALF * _p(2, 0)),
    ("8:1", Combatant(1, 1, 1, levels={"combat": 3}), Combatant(2, 2, 1), HALF * _p(3, 0)),
    ("1:2", Combatant(1, 1, 1), Combatant(2, 2, 1, levels={"combat": 1}), HALF * _p(0, 1)),
    ("1:4", Combatant(1, 1, 1), Combatant(2, 2, 1, items={"sword": 1}), HALF * _p(0, 2)),
    ("riding 3 of 5 in a plain", Combatant(1, 1, 1, levels={"riding": 5}, items={"horse": 1}),
     Combatant(2, 2, 1, levels={"combat": 3}), HALF * _p(3, 3)),
    ("chain", Combatant(1, 1, 1, levels={"combat": 5}),
     Combatant(2, 2, 1, items={"chain armor": 1}), HALF * _p(5, 0) * Fraction(2, 3)),
    ("plate", Combatant(1, 1, 1, levels={"combat": 5}),
     Combatant(2, 2, 1, items={"plate armor": 1}), HALF * _p(5, 0) * Fraction(1, 3)),
    ("crossbow through plate", Combatant(1, 1, 1, levels={"crossbow": 2},
                                         items={"crossbow": 1}),
     Combatant(2, 2, 1, items={"plate armor": 1}), HALF * _p(2, 0)),
    ("longbow against 2", Combatant(1, 1, 1, levels={"longbow": 1}, items={"longbow": 1}),
     Combatant(2, 2, 1, levels={"combat": 5}), HALF * _p(1, 2)),
    ("longbow against a building", Combatant(1, 1, 1, levels={"longbow": 1},
                                             items={"longbow": 1}),
     Combatant(2, 2, 1, protected=1), HALF * _p(1, 4)),
]


@pytest.mark.parametrize("what, attacker, target, p", CASES, ids=[c[0] for c in CASES])
def test_kill_rates_follow_the_odds_table_and_armour(what, attacker, target, p):
    terrain = "plain" if "plain" in what else "forest"
    kills = _kill_rate(attacker, target, seed=len(what), terrain=terrain)
    assert within_six_sigma(kills, N, float(p)), (what, kills / N, float(p))


def test_battles_between_equals_are_even_and_half_the_spoils_are_found():
    """2,000 one-against-one battles (no free round): each side wins about half; of the
    dead loser's 10 silver about half is found."""
    wins = found = left = 0
    battles = 2000
    for seed in range(battles):
        r = fight([Combatant(1, 1, 1, items={"silver": 10})],
                  [Combatant(2, 2, 1, items={"silver": 10})], terrain="forest",
                  dice=Dice(seed, "even"))
        wins += r.winner == ATTACKERS
        found += r.found.get("silver", 0)
        left += sum(v.get("silver", 0) for u, v in r.lost_items.items()
                    if r.side_of(u) == r.loser)
    assert within_six_sigma(wins, battles, 0.5)
    assert left == 10 * battles and within_six_sigma(found, left, 0.5)


def test_the_better_tactician_wins_more_often():
    """The free round is worth something: Tactics 1 against 0 wins clearly more than half
    of 1,000 battles of five men a side (one-sided test, far beyond 6 sigma of 0.5)."""
    wins = sum(fight([Combatant(1, 1, 5, levels={"tactics": 1})], [Combatant(2, 2, 5)],
                     terrain="forest", dice=Dice(seed, "tactics")).winner == ATTACKERS
               for seed in range(1000))
    assert wins / 1000 > 0.5 + 6 * math.sqrt(0.25 / 1000)


def test_defenders_win_as_often_when_the_sides_swap():
    """Sides are symmetric: with the armies swapped the strong side still wins."""
    strong = Combatant(1, 1, 10, levels={"combat": 2}, items={"sword": 10})
    weak = Combatant(2, 2, 10)
    a = sum(fight([strong], [weak], terrain="forest", dice=Dice(s, "a")).winner == ATTACKERS
            for s in range(300))
    d = sum(fight([weak], [strong], terrain="forest", dice=Dice(s, "d")).winner == DEFENDERS
            for s in range(300))
    assert a > 290 and d > 290


def test_a_large_pile_is_found_half_and_half():
    """A pile over 8 items is rolled as fair coins 30 at a time: 600,000 silver pieces
    give half found within 6 sigma; small piles keep one d100 an item."""
    from engine.rulesets.atlantis.combat import spoils as sl

    pile = 600_000
    n = sl.found([(1, {"silver": pile})], Dice(3, "pile"))["silver"]
    assert within_six_sigma(n, pile, 0.5)
    dice = Dice(4, "pile")
    sl.found([(1, {"silver": 40, "sword": 8})], dice)
    assert [w for w, _ in dice.log] == ["silver found"] * 2 + ["sword found"] * 8
