"""Continental Conquest combat at the book's largest scale: two monstrous land convoys (20
trucks, 20 buses and 400 troops a side, Gunners, rockets) fighting to the end, and a
citadel of 1,000 troops (Shelter, 100 claymores) attacked by 1,500. Battles run inside the
player turn's pulses, so their cost adds up there."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import (
    CityDefence,
    CombatConvoy,
    CombatRules,
    Invader,
    convoy_battle,
    invade_city,
)

BOOK = Book()


def test_bench_cc_convoy_battle_monstrous(benchmark, record):
    rules = CombatRules(flee_rule="never")
    a = CombatConvoy.build(BOOK, 1, {"truck": 20, "bus": 20}, ["GUN"], owner=1, troops=720,
                           rockets=20, kill_mode="V")
    d = CombatConvoy.build(BOOK, 2, {"truck": 20, "bus": 20}, ["GUN"], owner=2, troops=720,
                           rockets=20, kill_mode="T")
    r = benchmark(lambda: convoy_battle(a, d, Dice(1, "bench"), rules))
    assert r.engaged and r.rounds >= 1
    record(f"cc convoy battle: 40 vehicles and 720 troops a side, {r.rounds} rounds, "
           f"{len(r.events)} events, winner {r.winner}")


def test_bench_cc_citadel_siege(benchmark, record):
    inv = Invader(1, 1, 1500, rifles=60, grenades=150, training=60, morale=60, sergeant=True)
    city = CityDefence(5, 2, 6, 1000, 400_000, claymores=100, shelter=True, capacity=1200)
    r = benchmark(lambda: invade_city(BOOK, inv, city, Dice(1, "bench")))
    assert r.rounds > 100
    record(f"cc citadel siege: 1,500 against 1,000, {r.rounds} rounds, captured {r.captured}")
