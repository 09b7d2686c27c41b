"""Atlantis: one whole turn through the command line's own functions, on generated games of
100, 300 and 1,000 factions with 10 units each (engine.rulesets.atlantis.generate):

    python -m pytest benchmarks/test_bench_atlantis_turn.py --benchmark-only -s

Each round starts from the freshly created game (app.cli.game_cmd.create_game, as
`realmsmith new` does) and runs `realmsmith import` of every faction's orders file,
`check` of them all, `run` (adjudicate, save, every report) and `export` (every report and
orders template written to files) through app.cli.main, in this process. The issue's goal:
a turn under 5 s at 1,000 factions (the reference server's figure), checking 1,000 files
under 1 s. Whole processes with peak memory: benchmarks/atlantis_turn.sh.
"""

from __future__ import annotations

import contextlib
import io
import resource
import shutil
import statistics
import time
from pathlib import Path

import pytest

STEPS = ("import", "check", "run", "export")


@pytest.fixture(scope="module")
def atlantis_game(tmp_path_factory):
    made: dict[int, tuple[Path, Path]] = {}

    def get(factions: int) -> tuple[Path, Path]:
        if factions not in made:
            from app.cli.game_cmd import create_game
            from engine.rulesets.atlantis.generate import generate_game

            folder = tmp_path_factory.mktemp(f"atlantis{factions}")
            scen, orders = generate_game(factions)
            (folder / "orders").mkdir()
            for f, text in orders.items():
                (folder / "orders" / f"f{f:04d}.txt").write_text(text, encoding="utf-8")
            with contextlib.redirect_stdout(io.StringIO()):
                create_game(str(folder / "fresh.db"), scen, "generated")
            made[factions] = folder / "fresh.db", folder / "orders"
        return made[factions]

    return get


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@pytest.mark.parametrize("factions", [100, 300, 1000])
def test_bench_atlantis_whole_turn(benchmark, atlantis_game, record, tmp_path, factions):
    from app.cli import main

    fresh, orders = atlantis_game(factions)
    db, out = tmp_path / "game.db", tmp_path / "out"
    times: dict[str, list[tuple[float, float]]] = {s: [] for s in STEPS}
    codes: dict[str, int] = {}

    def setup():
        shutil.copy(fresh, db)
        shutil.rmtree(out, ignore_errors=True)

    def turn():
        args = {"import": ["import", db, orders], "check": ["check", db, "-q"],
                "run": ["run", db, "-q"], "export": ["export", db, "--out", out]}
        for step in STEPS:
            t, c = time.perf_counter(), _cpu()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                codes[step] = main([str(a) for a in args[step]])
            times[step].append((time.perf_counter() - t, _cpu() - c))

    benchmark.pedantic(turn, setup=setup, rounds=3 if factions < 1000 else 2, iterations=1)
    # run and export succeed; import and check say 1 when some orders have errors (a finding)
    assert codes["import"] in (0, 1) and codes["run"] == 0 and codes["export"] == 0
    files = list(out.iterdir())
    size = sum(p.stat().st_size for p in files if p.suffix == ".txt")
    assert len([p for p in files if p.name.endswith("-orders.txt")]) == factions
    parts = ", ".join(f"{s} {min(w for w, _ in times[s]):.2f}/{statistics.median(w for w, _ in times[s]):.2f} s "
                      f"(CPU {min(c for _, c in times[s]):.2f})" for s in STEPS)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    record(f"atlantis whole turn, {factions} factions, {factions * 10} units: wall min/median {parts}; "
           f"{len(files)} files, {size / 1e6:.1f} MB of text reports and templates; "
           f"peak RSS of the benchmark process so far {peak:.0f} MB")


def _cpu_all() -> float:
    """This process and the forked copies it waited for (engine/parallel)."""
    return _cpu() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f)
                        for f in ("ru_utime", "ru_stime"))


@pytest.mark.parametrize("factions", [100, 1000])
def test_bench_atlantis_turn_in_one_command(benchmark, atlantis_game, record, tmp_path, factions):
    """`realmsmith run GAME --orders DIR --out DIR`: import (every set read and checked),
    run (adjudicate, save, every report and template) and export in one process, as the
    reference server runs a turn; CPU counts the forked copies that made reports."""
    from app.cli import main
    from engine.parallel import workers

    fresh, orders = atlantis_game(factions)
    db, out = tmp_path / "game.db", tmp_path / "out"
    times: list[tuple[float, float]] = []

    def setup():
        shutil.copy(fresh, db)
        shutil.rmtree(out, ignore_errors=True)

    def turn():
        t, c = time.perf_counter(), _cpu_all()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main([str(a) for a in ("run", db, "-q", "--orders", orders, "--out", out)])
        times.append((time.perf_counter() - t, _cpu_all() - c))
        assert code == 0

    benchmark.pedantic(turn, setup=setup, rounds=3, iterations=1)
    assert len([p for p in out.iterdir() if p.name.endswith("-orders.txt")]) == factions
    record(f"atlantis turn in one command, {factions} factions ({workers()} process(es) for "
           f"reports and checks): wall min/median {min(w for w, _ in times):.2f}/"
           f"{statistics.median(w for w, _ in times):.2f} s, CPU min "
           f"{min(c for _, c in times):.2f} s")
