"""One King of Kings turn on a generated 100x100 map, 20 tribes, ~5,000 armies.

    python -m pytest benchmarks/test_bench_kok_turn.py --benchmark-only -s

- turn: open the game database, load scenario and state, check the 20 orders sets,
  adjudicate, save the new state, events and every report (20 tribes + GM, 3 formats);
- check: read 20 orders files, match them and check them against the state (nothing stored).

Peak memory is the process's peak resident set during the measured call (VmHWM reset
through /proc/self/clear_refs on Linux; elsewhere ru_maxrss, the peak of the whole run).
One round each: a turn takes tens of seconds on the shared 2-core machine.
"""

from __future__ import annotations

import gc
import resource
import time
from pathlib import Path

import pytest

from engine.service import GameService

generate = pytest.importorskip("engine.rulesets.kok.generate")

SIZE, TRIBES, ARMIES = (100, 100), 20, 5000


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
def big(tmp_path_factory, record):
    folder = tmp_path_factory.mktemp("kok-bench")
    t = time.perf_counter()
    scen, orders = generate.generate_game(*SIZE, TRIBES, ARMIES, seed=1)
    record(f"generate {SIZE[0]}x{SIZE[1]}, {TRIBES} tribes, {len(scen.initial['armies'])} armies, "
           f"{len(scen.initial['provinces'])} provinces: {time.perf_counter() - t:.2f} s")
    inbox = folder / "orders"
    inbox.mkdir()
    for faction, text in orders.items():
        (inbox / f"SP{faction}.R1").write_text(text, encoding="utf-8")
    db = folder / "bench.db"
    svc, secs, peak, _ = _measured(lambda: GameService.create(db, scen))
    size = sum(p.stat().st_size for p in folder.glob("bench.db*"))
    record(f"create the game database: {secs:.2f} s, {size / 1e6:.1f} MB on disk (with WAL)")
    rep, secs, peak, _ = _measured(lambda: svc.import_paths([inbox]))
    matched = sum(r.matched for r in rep.results)
    record(f"import 20 orders files (match, parse, check, store): {secs:.2f} s, {matched}/20 matched")
    assert matched == TRIBES, [r.line() for r in rep.results if not r.matched]
    svc.close()
    return db, sorted(inbox.iterdir())


def test_bench_kok_turn(benchmark, big, record):
    db, _files = big

    def setup():
        with GameService.open(db) as svc:
            if svc.current_step:
                svc.rollback(0)

    def turn():
        with GameService.open(db) as svc:
            return svc.run()

    measured = {}

    def timed_turn():
        measured["v"] = _measured(turn)
        return measured["v"][0]

    res = benchmark.pedantic(timed_turn, setup=setup, rounds=1, iterations=1)
    _, secs, peak, before = measured["v"]
    assert res.steps == [1]
    benchmark.extra_info.update(peak_rss_mb=round(peak), rss_before_mb=round(before),
                                events=res.events, reports=res.reports)
    record(f"one turn (open, load, check 20 sets, adjudicate, save, {res.reports} reports): "
           f"{secs:.2f} s; peak RSS {peak:.0f} MB (was {before:.0f} MB before); {res.events} events")
    with GameService.open(db) as svc:
        sizes = {fmt: len(svc.report(1, None, fmt)) for fmt in svc.ruleset.report_formats}
    record(f"GM report sizes: {sizes}")


def test_bench_kok_check_20_files(benchmark, big, record):
    db, files = big
    from engine.intake import read_path

    def check():
        with GameService.open(db) as svc:
            subs = [s for f in files for s in read_path(f).submissions]
            return svc.check_submissions(subs)

    measured = {}

    def timed():
        measured["v"] = _measured(check)
        return measured["v"][0]

    out = benchmark.pedantic(timed, rounds=1, iterations=1)
    _, secs, peak, before = measured["v"]
    assert len(out) == TRIBES and all(s.faction is not None for s, _ in out)
    n = sum(len(d) for _, d in out)
    benchmark.extra_info.update(peak_rss_mb=round(peak), diagnostics=n)
    record(f"check 20 orders files (read, match, parse, check; nothing stored): {secs:.2f} s; "
           f"peak RSS {peak:.0f} MB (was {before:.0f} MB); {n} diagnostics")


class _Abort(Exception):
    pass


def test_bench_kok_turn_breakdown(benchmark, big, record):
    """Where one turn's time goes: load, check, adjudicate, reports, database writes."""
    db, _files = big
    from engine.dice import Dice
    from engine.ruleset import TurnContext

    with GameService.open(db) as svc:
        if svc.current_step:
            svc.rollback(0)
    parts: dict[str, float] = {}

    def lap(name, t):
        parts[name] = time.perf_counter() - t
        return time.perf_counter()

    def turn():
        t = time.perf_counter()
        with GameService.open(db) as svc:
            rs, scen = svc.ruleset, svc.scenario
            prev = svc.state(0)
            subs = [s for s in svc.submissions(step=1) if s.active]
            t = lap("open + load scenario, state, submissions", t)
            sheets = {}
            for s in subs:
                sheet = svc._parse(s.submission)
                svc._check_sheet(sheet, prev, s.faction, scen)
                sheets[s.faction] = sheet
            t = lap("parse + check 20 orders sets", t)
            new = prev.copy()
            new.step = 1
            ctx = TurnContext(rs, scen, new, prev, sheets, Dice(scen.seed, 1))
            ctx.scratch["diagnostics"] = []
            rs.run_step(ctx)
            t = lap("adjudicate (all phases)", t)
            reports = []
            for f in [x.number for x in scen.factions] + [None]:
                data = rs.report(new, ctx.events, f, scen, [])
                reports += [(f, fmt, rs.render(data, fmt)) for fmt in rs.report_formats]
            t = lap(f"build + render {len(reports)} reports", t)
            try:
                with svc.store.transaction() as c:
                    svc.store.save_state(c, new)
                    svc.store.save_events(c, 1, ctx.events)
                    for f, fmt, text in reports:
                        svc.store.save_report(c, 1, f, fmt, text)
                    t = lap("database writes (state, events, reports)", t)
                    raise _Abort  # leave the benchmark game as it was
            except _Abort:
                pass

    benchmark.pedantic(turn, rounds=1, iterations=1)
    total = sum(parts.values())
    for name, secs in parts.items():
        record(f"  {name}: {secs:.2f} s ({100 * secs / total:.0f}%)")
    benchmark.extra_info.update({k: round(v, 3) for k, v in parts.items()})
