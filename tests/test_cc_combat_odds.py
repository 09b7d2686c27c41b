"""Continental Conquest combat statistics over many seeded dice: the city's and the
attacker's hits follow their to-hit chances (over 100% too), salvos have the mean and
spread of their dice plus half the troops, damage points find troops 1 time in 5 (1 in 2 in
kill mode T) and vehicles take 5-10, the hex requirement has its two dice's mean.

Bounds: each observed figure must lie within 6 standard deviations of the book's (computed
from the rule: sigma = sqrt(variance / n)). A correct engine strays that far with a chance of
about 2 in 10^9 per check, and the seeds are fixed, so the tests are deterministic and cannot
flake; the bounds only decide whether a change to the dice is plausible."""

from __future__ import annotations

import math

from engine.dice import Dice
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import (
    CityDefence,
    CombatConvoy,
    CombatRules,
    Invader,
    attack_hex,
    invade_city,
)
from engine.rulesets.cc.combat.convoy_battle import apply_salvo, salvo

BOOK = Book()
R = CombatRules()


def within_six_sigma(observed: float, expected: float, variance: float, n: int) -> bool:
    return abs(observed - expected) <= 6 * math.sqrt(variance / n)


def test_city_rounds_hit_at_their_chances_over_100_too():
    """A fortress with a Shelter and 25 claymores (185%, less as claymores are used up)
    against attackers at 68%; 200 sieges of 100 rounds: the expected hits of each round come
    from the to-hit the round printed."""
    rules = CombatRules(city_round_cap=100)
    hits_a = hits_d = 0
    exp_a = exp_d = var_a = var_d = 0.0
    rounds = 0
    for seed in range(200):
        inv = Invader(1, 1, 100_000, rifles=4, training=50, morale=80)   # 50 + 4 + 4 + 10
        town = CityDefence(9, 2, 5, 100_000, 10**7, claymores=25, shelter=True)
        r = invade_city(BOOK, inv, town, Dice(seed, "city odds"), rules)
        for e in r.events:
            if e.kind != "cc.city_round":
                continue
            rounds += 1
            hits_a += e.defenders_killed
            hits_d += e.attackers_killed
            pa, pd = e.attacker_to_hit / 100, (e.defender_to_hit - 100) / 100
            exp_a += pa
            var_a += pa * (1 - pa)
            exp_d += 1 + pd
            var_d += pd * (1 - pd)
    assert rounds == 20_000
    assert within_six_sigma(hits_a / rounds, exp_a / rounds, var_a / rounds, rounds)
    assert within_six_sigma(hits_d / rounds, exp_d / rounds, var_d / rounds, rounds)
    assert 1.8 < exp_d / rounds < 1.86    # the claymores wear away only slowly


def test_salvos_have_the_mean_and_spread_of_the_dice_and_half_the_troops():
    """A truck with 20 troops: 8d6+4 plus 20 troops hitting half the time: mean 42,
    variance 8 x 35/12 + 20 x 1/4."""
    n, total, squares = 20_000, 0, 0
    enemy = CombatConvoy.build(BOOK, 2, {"car": 1})
    for i in range(n):
        truck = CombatConvoy.build(BOOK, 1, {"truck": 1}, troops=20)
        x = salvo(truck, enemy, 2, False, Dice(i, "salvo odds"), R)
        total += x
        squares += x * x
    mean = total / n
    var = 8 * 35 / 12 + 20 / 4
    assert within_six_sigma(mean, 42, var, n)
    observed_var = squares / n - mean * mean
    assert abs(observed_var - var) < 0.1 * var


def _points(kill_mode: str, seeds: int = 200, damage: int = 500):
    """Troop checks, troops hit and the vehicle hits' sizes over many salvos on a convoy too
    big to run out of troops or vehicles."""
    checks = troops = 0
    sizes: list[int] = []
    for seed in range(seeds):
        target = CombatConvoy.build(BOOK, 2, {"truck": 60}, troops=1200)
        killed, hits, _ = apply_salvo(damage, kill_mode, target, Dice(seed, "points"), R)
        troops += killed
        checks += killed + len(hits)
        sizes += [p for _, p in hits[:-1]]     # the last hit may be cut short by the salvo's end
    return checks, troops, sizes


def test_a_point_finds_a_troop_one_time_in_five_and_vehicles_take_5_to_10():
    checks, troops, sizes = _points("N")
    assert within_six_sigma(troops / checks, 0.2, 0.2 * 0.8, checks)
    n = len(sizes)
    assert set(sizes) == set(range(5, 11))
    assert within_six_sigma(sum(sizes) / n, 7.5, 35 / 12, n)


def test_kill_mode_t_finds_troops_one_time_in_two():
    checks, troops, _ = _points("T", seeds=100)
    assert within_six_sigma(troops / checks, 0.5, 0.25, checks)


def test_the_hex_requirement_has_the_mean_of_its_rolls():
    """Defence 5 (5-11) and 5 guards on plains (2-4 each): mean 8 + 15 = 23,
    variance (7^2 - 1)/12 + 5 x (3^2 - 1)/12."""
    n, total = 20_000, 0
    for i in range(n):
        r = attack_hex(BOOK, cell=1, convoy=1, clan=1, troops=40, owner=2, defense=5,
                       terrain="plains", guards=5, dice=Dice(i, "hex odds"))
        total += r.needed
    assert within_six_sigma(total / n, 23, 4 + 5 * 8 / 12, n)
