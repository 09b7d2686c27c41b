"""One King of Kings turn and order checks on the generated 100x100 game (20 tribes,
~5,000 armies), in process, through the same calls `realmsmith run` and `realmsmith
check` make. Whole processes, start-up included, are in test_bench_cli.py.

    python -m pytest benchmarks/test_bench_kok_turn.py --benchmark-only -s

- turn: GameService.open + run(progress), exactly what `realmsmith run` calls: load the
  scenario and state, check the 20 orders sets, adjudicate, save the new state, events
  and reports, re-check; the breakdown times the stretches between its progress reports;
- check: read 20 (and 1,000) orders files, match and check them against the state
  (`realmsmith check GAME FILES`: nothing stored).

Peak memory is the process's peak resident set during the measured call (VmHWM reset
through /proc/self/clear_refs on Linux; elsewhere ru_maxrss, the peak of the whole run).
The game comes from `python -m engine.rulesets.kok.generate` (benchmarks/kok_games.py).
"""

from __future__ import annotations

import gc
import resource
import shutil
import time
from pathlib import Path

import pytest

from engine.service import GameService

TRIBES = 20


def _proc_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _measured(fn):
    """(result, seconds, peak RSS MB during the call, RSS MB before)."""
    gc.collect()
    exact = _reset_peak()
    before = (_proc_kb("VmRSS") or 0) / 1024
    t = time.perf_counter()
    out = fn()
    secs = time.perf_counter() - t
    peak = (_proc_kb("VmHWM") if exact else None) or \
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return out, secs, peak / 1024, before


@pytest.fixture(scope="module")
def big(kok_game):
    return kok_game(100)


def test_bench_kok_turn(benchmark, big, record, tmp_path):
    db = tmp_path / "turn.db"
    laps: list[tuple[float, str]] = []

    def setup():
        shutil.copy(big.db, db)  # the game as imported, turn 1 not run
        laps.clear()

    def turn():
        def progress(_frac: float, msg: str) -> None:
            laps.append((time.perf_counter(), msg))

        laps.append((time.perf_counter(), "open the game"))
        with GameService.open(db) as svc:
            return svc.run(progress=progress)

    measured = {}

    def timed_turn():
        measured["v"] = _measured(turn)
        return measured["v"][0]

    res = benchmark.pedantic(timed_turn, setup=setup, rounds=3, iterations=1)
    _, secs, peak, before = measured["v"]
    assert res.steps == [1] and res.nmr[1] == []
    benchmark.extra_info.update(peak_rss_mb=round(peak), rss_before_mb=round(before),
                                events=res.events, reports=res.reports)
    record(f"one turn, in process (open, load, check 20 sets, adjudicate, save, "
           f"{res.reports} reports): {secs:.2f} s; peak RSS {peak:.0f} MB "
           f"(was {before:.0f} MB before); {res.events} events")
    # where the last round's time went: the stretches between progress reports
    total = laps[-1][0] - laps[0][0]
    for (t0, what), (t1, _) in zip(laps, laps[1:], strict=False):
        if t1 - t0 >= 0.01:
            record(f"  {what}: {t1 - t0:.3f} s ({100 * (t1 - t0) / total:.0f}%)")


def _check_files(db: Path, files: list[Path]):
    from engine.intake import read_path

    with GameService.open(db) as svc:
        subs = [s for f in files for s in read_path(f).submissions]
        return svc.check_submissions(subs)


@pytest.mark.parametrize("count", [20, 1000])
def test_bench_kok_check_files(benchmark, big, record, count):
    files = sorted(big.check.iterdir())[:count] if count > TRIBES else sorted(big.orders.iterdir())
    measured = {}

    def timed():
        measured["v"] = _measured(lambda: _check_files(big.db, files))
        return measured["v"][0]

    out = benchmark.pedantic(timed, rounds=3, iterations=1)
    _, secs, peak, before = measured["v"]
    assert len(out) == count and all(s.faction is not None for s, _ in out)
    n = sum(len(d) for _, d in out)
    benchmark.extra_info.update(peak_rss_mb=round(peak), diagnostics=n)
    record(f"check {count} orders files in process (read, match, parse, check; nothing "
           f"stored): {secs:.2f} s; peak RSS {peak:.0f} MB (was {before:.0f} MB); "
           f"{n} diagnostics")
