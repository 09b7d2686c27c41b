"""The command line as a GM feels it: whole `realmsmith` processes, start-up included.

    python -m pytest benchmarks/test_bench_cli.py --benchmark-only -s

- `realmsmith run` on generated King of Kings games of 25x25 to 200x200 (20 tribes, one
  army record for every two cells: ~5,000 at 100x100), turn 1 with every tribe's orders;
- `realmsmith check` of 1,000 orders files against the 100x100 game;
- `realmsmith --help` and `realmsmith status` on the 100x100 game.

Bytecode is cached outside the tree (PYTHONPYCACHEPREFIX, as an installed copy has its
.pyc files) and one unmeasured run warms the cache. Each figure is the min and median of
several runs; the games come from benchmarks/kok_games.py.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROUNDS = 5


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e["PYTHONPYCACHEPREFIX"] = str(tmp_path_factory.mktemp("pyc"))
    return e


def _realmsmith(env: dict[str, str], *args: str | Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole `realmsmith ...` process, run by the
    console script's own entry point. CPU time (user + system) says more than the clock
    on a machine that other work is loading."""
    cmd = [sys.executable, "-c", "from app.cli import entry; entry()", *map(str, args)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    secs = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert out.returncode == 0, out.stderr[-2000:]
    return secs, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _report(record, what: str, times: list[tuple[float, float]]) -> None:
    wall, cpu = [t for t, _ in times], [c for _, c in times]
    record(f"{what}: wall min {min(wall):.2f} s, median {statistics.median(wall):.2f} s; "
           f"CPU min {min(cpu):.2f} s, median {statistics.median(cpu):.2f} s "
           f"({len(times)} whole processes)")


@pytest.mark.parametrize("size", [25, 50, 100, 200])
def test_bench_cli_run(benchmark, kok_game, env, record, tmp_path, size):
    game = kok_game(size)
    db = tmp_path / "run.db"
    times: list[tuple[float, float]] = []

    def setup():
        shutil.copy(game.db, db)

    def run():
        times.append(_realmsmith(env, "run", db, "-q"))

    setup()
    run()  # warm the bytecode cache; not counted
    times.clear()
    benchmark.pedantic(run, setup=setup, rounds=ROUNDS, iterations=1)
    _report(record, f"realmsmith run, {size}x{size} ({size * size // 2} armies)", times)


def test_bench_cli_check_1000_files(benchmark, kok_game, env, record):
    game = kok_game(100)
    times: list[tuple[float, float]] = []

    def check():
        times.append(_realmsmith(env, "check", game.db, game.check, "-q"))

    check()
    times.clear()
    benchmark.pedantic(check, rounds=ROUNDS, iterations=1)
    _report(record, "realmsmith check, 1,000 orders files, 100x100", times)


@pytest.mark.parametrize("command", ["--help", "status"])
def test_bench_cli_start(benchmark, kok_game, env, record, command):
    args = ["--help"] if command == "--help" else ["status", kok_game(100).db]
    times: list[tuple[float, float]] = []

    def start():
        times.append(_realmsmith(env, *args))

    start()
    times.clear()
    benchmark.pedantic(start, rounds=ROUNDS * 2, iterations=1)
    _report(record, f"realmsmith {command}" + (" (100x100 game)" if command == "status" else ""),
            times)
