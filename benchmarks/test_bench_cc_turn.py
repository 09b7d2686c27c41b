"""Continental Conquest: one clan's turn (ten pulses) and one whole game turn (every clan, then
the end of the game turn) on a generated continent of 150 x 110 hexes with 40 clans and 200
convoys, in memory (no database). The issue's goal: one clan's turn well under a second.
Peak memory of the whole game turn is recorded."""

from __future__ import annotations

import tracemalloc

import pytest

from engine.dice import Dice
from engine.events import EventLog
from engine.mapgen import generate
from engine.ruleset import TurnContext
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.setup import assign_starts
from engine.rulesets.cc.state import Convoy, Vehicle
from engine.scenario import Faction, Scenario

CLANS, EXTRA_CONVOYS = 40, 4
MOVES = ("N", "NE", "SE", "S", "SW", "NW")


@pytest.fixture(scope="module")
def game():
    m = generate("hex", 150, 110, seed=7, ruleset="cc")
    facs = [Faction(10 + i, f"Clan {i}", password=str(50000 + i)) for i in range(CLANS)]
    scen = Scenario("cc", "bench", m, RULESET.default_catalogs(), RULESET.default_options(), facs, seed=7)
    assign_starts(scen)
    state = RULESET.initial_state(scen)
    next_id = 1 + max(c.id for c in state["convoys"])
    for clan in list(state["clans"]):
        clan.money, clan.fuel, clan.parts, clan.food_tenths = 10**7, 10**6, 10**6, 10**6
        home = next(c for c in state["convoys"] if c.owner == clan.number)
        for k in range(EXTRA_CONVOYS):
            state["convoys"].append(Convoy(id=next_id, owner=clan.number, number=k + 2, cell=home.cell, troops=30))
            state["vehicles"].append(Vehicle(next_id, "bus", 2))
            next_id += 1
    sheets = {}
    for f in facs:
        lines = [f"CLAN {f.number} ACCOUNT {f.password} TURN 1", "PRE-TURN CLAN ORDERS",
                 " 1: BUY 100 FUEL", " 2: ENLIST 20"]
        for n in range(1, EXTRA_CONVOYS + 2):
            lines.append(f"CONVOY #{n}")
            lines += [f"{p:2d}: {MOVES[(p + n) % 6]}" for p in range(1, 11)]
        sheets[f.number] = RULESET.parse_orders("\n".join(lines) + "\n", f"c{f.number}")
    return scen, state, sheets


def _clan_turn(scen, state, sheets, clan, step=1):
    new = state.copy()
    new.step = step
    ctx = TurnContext(RULESET, scen, new, state, {clan: sheets[clan]}, Dice(7, step), EventLog())
    RULESET.run_step(ctx)
    return new, ctx


def test_bench_one_clan_turn(benchmark, game, record):
    scen, state, sheets = game
    new, ctx = benchmark(_clan_turn, scen, state, sheets, 10)
    assert sum(1 for e in ctx.events if e.kind == "cc.moved") > 10
    record(f"cc: one clan turn: {len(state['convoys'])} convoys in the game, "
           f"{len(state['hexes'])} hexes, {len(ctx.events)} events")


def test_bench_whole_game_turn(benchmark, game, record):
    scen, state, sheets = game

    def whole():
        s = state
        for i, f in enumerate(sorted(sheets), 1):
            s, ctx = _clan_turn(scen, s, sheets, f, i)
        for phase in RULESET.cycle_phases():
            phase.run(ctx)
        return s

    tracemalloc.start()
    end = whole()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert end["world"][0].game_turn == 2
    benchmark.pedantic(whole, rounds=3, iterations=1)
    record(f"cc: whole game turn of {CLANS} clans: peak traced memory {peak / 2**20:.0f} MiB")
