"""Continental Conquest: one clan's turn (ten pulses) and one whole game turn (every clan's
turn, then the end of the game turn) on a generated continent of 150 x 110 hexes with 40
clans and 280 convoys, of which 40 drive into another clan's convoy and fight (no bombing).

Two ways: the bare adjudication in memory (`run_step`, no database), and through the same
calls as `realmsmith import` and `realmsmith run` (GameService: load, check each sheet,
adjudicate, save state and events, every report), on a copy of a fresh game database each
round. Figures: wall time (pytest-benchmark), CPU time (user+sys, min and median over the
rounds), peak traced memory of one more round, and the battles fought.

    python -m pytest benchmarks/test_bench_cc_turn.py --benchmark-only -s
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import time
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
from engine.service import GameService

CLANS, EXTRA_CONVOYS = 40, 6
MOVES = ("N", "NE", "SE", "S", "SW", "NW")
NOW = "2026-03-02T12:00:00Z"


def _raider_start(scen: Scenario, target: int) -> tuple[int, str] | None:
    """A drivable hex next to `target` and the move from it into `target`."""
    grid, gmap = scen.map.grid, scen.map
    drivable = {t["id"] for t in scen.catalogs["terrain"] if t["drivable"] in (True, "yes")}
    for d in MOVES:
        n = grid.step(target, d)
        back = MOVES[(MOVES.index(d) + 3) % 6]
        if n is not None and gmap.terrain_at(n) in drivable and grid.step(n, back) == target:
            return n, back
    return None


@pytest.fixture(scope="module")
def game():
    """(scenario with the start state as its `initial`, state, sheets text by clan): every
    clan rich, with five buses of troops beside its convoy #1, and a raider (a truck and 30
    troops) next to the next clan's convoy #1, which drives into it first and fights."""
    m = generate("hex", 150, 110, seed=7, ruleset="cc")
    facs = [Faction(10 + i, f"Clan {i}", password=str(50000 + i)) for i in range(CLANS)]
    scen = Scenario("cc", "bench", m, RULESET.default_catalogs(), RULESET.default_options(), facs, seed=7)
    assign_starts(scen)
    state = RULESET.initial_state(scen)
    next_id = 1 + max(c.id for c in state["convoys"])
    homes = {c.owner: c for c in state["convoys"] if c.number == 1}
    order = sorted(homes)
    raids: dict[int, str] = {}
    for k, clan in enumerate(order):
        row = next(c for c in state["clans"] if c.number == clan)
        row.money, row.fuel, row.parts, row.food_tenths = 10**7, 10**6, 10**6, 10**6
        home = homes[clan]
        for n in range(2, EXTRA_CONVOYS + 1):
            state["convoys"].append(Convoy(id=next_id, owner=clan, number=n, cell=home.cell, troops=30))
            state["vehicles"].append(Vehicle(next_id, "bus", 2))
            next_id += 1
        victim = homes[order[(k + 1) % len(order)]]
        spot = _raider_start(scen, victim.cell)
        if spot is not None:
            n = EXTRA_CONVOYS + 1
            state["convoys"].append(Convoy(id=next_id, owner=clan, number=n, cell=spot[0], troops=30))
            state["vehicles"].append(Vehicle(next_id, "truck", 1))
            raids[clan] = spot[1]
            next_id += 1
    scen.initial = state
    sheets = {}
    for f in facs:
        lines = [f"CLAN {f.number} ACCOUNT {f.password} TURN 1", "PRE-TURN CLAN ORDERS",
                 " 1: BUY 100 FUEL", " 2: ENLIST 20"]
        for n in range(1, EXTRA_CONVOYS + 1):
            lines.append(f"CONVOY #{n}")
            lines += [f"{p:2d}: {MOVES[(p + n) % 6]}" for p in range(1, 11)]
        if f.number in raids:
            lines += [f"CONVOY #{EXTRA_CONVOYS + 1}", f" 1: {raids[f.number]}", " 2: PAUSE"]
        sheets[f.number] = "\n".join(lines) + "\n"
    return scen, state, sheets


# ---- the bare adjudication, in memory --------------------------------------------------------

def _clan_turn(scen, state, parsed, clan, step=1):
    new = state.copy()
    new.step = step
    ctx = TurnContext(RULESET, scen, new, state, {clan: parsed[clan]}, Dice(7, step), EventLog())
    RULESET.run_step(ctx)
    return new, ctx


def _battles(events) -> int:
    return sum(1 for e in events if e.kind == "cc.convoy_battle")


def test_bench_one_clan_turn_adjudication(benchmark, game, record):
    scen, state, sheets = game
    parsed = {f: RULESET.parse_orders(t, f"c{f}") for f, t in sheets.items()}
    clan = sorted(sheets)[0]
    _new, ctx = benchmark(_clan_turn, scen, state, parsed, clan)
    assert sum(1 for e in ctx.events if e.kind == "cc.moved") > 10 and _battles(ctx.events) >= 1
    assert not [e for e in ctx.events if e.kind == "cc.not_built"]
    record(f"cc: one clan turn, adjudication only: {len(state['convoys'])} convoys in the game, "
           f"{len(state['hexes'])} hexes, {len(ctx.events)} events, {_battles(ctx.events)} battles")


def test_bench_whole_game_turn_adjudication(benchmark, game, record):
    scen, state, sheets = game
    parsed = {f: RULESET.parse_orders(t, f"c{f}") for f, t in sheets.items()}

    def whole():
        s, battles = state, 0
        for i, f in enumerate(sorted(parsed), 1):
            s, ctx = _clan_turn(scen, s, parsed, f, i)
            battles += _battles(ctx.events)
        for phase in RULESET.cycle_phases():
            phase.run(ctx)
        return s, battles

    tracemalloc.start()
    end, battles = whole()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert end["world"][0].game_turn == 2 and battles >= CLANS // 2
    benchmark.pedantic(whole, rounds=3, iterations=1)
    record(f"cc: whole game turn of {CLANS} clans, adjudication only: {battles} battles; "
           f"peak traced memory {peak / 2**20:.0f} MiB")


# ---- as the CLI does it: GameService import and run on a game database ----------------------

@pytest.fixture(scope="module")
def fresh_db(game, tmp_path_factory):
    scen, _state, _sheets = game
    db = tmp_path_factory.mktemp("ccbench") / "fresh.db"
    GameService.create(db, scen).close()
    return db


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _fresh_service(fresh, folder, sheets, clans) -> GameService:
    """A copy of the fresh game with the clans' sheets imported (the untimed part of a round)."""
    db = folder / "round.db"
    for p in (db, folder / "round.db-wal", folder / "round.db-shm"):
        p.unlink(missing_ok=True)
    shutil.copy(fresh, db)
    svc = GameService.open(db)
    for f in clans:
        svc.import_text(sheets[f], "file", f"c{f}.txt", received_at="2026-03-02T10:00:00Z", faction=f)
    return svc


def _service_round(fresh, folder, sheets, clans, cpu: list[float], trace: bool = False):
    """Copy the fresh game, import the clans' sheets (untimed), then run: (result, service
    events of the run, peak traced bytes)."""
    svc = _fresh_service(fresh, folder, sheets, clans)
    if trace:
        tracemalloc.start()
    t0 = _cpu()
    res = svc.run(now=NOW)
    cpu.append(_cpu() - t0)
    peak = tracemalloc.get_traced_memory()[1] if trace else 0
    if trace:
        tracemalloc.stop()
    battles = sum(1 for s in res.steps for r in svc.events(s).records if r.event.kind == "cc.convoy_battle")
    svc.close()
    return res, battles, peak


def _timed(benchmark, fresh, folder, sheets, clans, rounds: int):
    cpu: list[float] = []
    state: dict = {}

    def setup():
        state["svc"] = _fresh_service(fresh, folder, sheets, clans)
        return (), {}

    def run():
        t0 = _cpu()
        state["res"] = state["svc"].run(now=NOW)
        cpu.append(_cpu() - t0)
        state["svc"].close()

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    return state["res"], cpu


def _cpu_line(cpu: list[float]) -> str:
    return f"CPU min {min(cpu):.2f} s, median {statistics.median(cpu):.2f} s over {len(cpu)} rounds"


def test_bench_one_clan_turn_as_the_cli(benchmark, game, fresh_db, tmp_path, record):
    _scen, state, sheets = game
    clan = sorted(sheets)[0]
    res, battles, peak = _service_round(fresh_db, tmp_path, sheets, [clan], [], trace=True)
    assert res.steps == [1] and battles >= 1
    res, cpu = _timed(benchmark, fresh_db, tmp_path, sheets, [clan], rounds=5)
    record(f"cc: one clan turn through GameService.run (check, adjudicate, save, reports; "
           f"{len(state['convoys'])} convoys): {_cpu_line(cpu)}; {battles} battles; "
           f"peak traced memory {peak / 2**20:.0f} MiB")


def test_bench_whole_game_turn_as_the_cli(benchmark, game, fresh_db, tmp_path, record):
    _scen, _state, sheets = game
    clans = sorted(sheets)
    t0 = time.perf_counter()
    res, battles, peak = _service_round(fresh_db, tmp_path, sheets, clans, [], trace=True)
    traced = time.perf_counter() - t0
    assert len(res.steps) == CLANS and battles >= CLANS // 2
    res, cpu = _timed(benchmark, fresh_db, tmp_path, sheets, clans, rounds=3)
    record(f"cc: whole game turn through GameService.run ({CLANS} clan turns, the end of the "
           f"game turn, {res.reports} reports): {_cpu_line(cpu)}; {battles} battles; peak traced "
           f"memory {peak / 2**20:.0f} MiB (that round, traced, took {traced:.0f} s); the "
           f"process's peak RSS so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
