"""Import time on hostile-sized inputs (issue 14): linear, and the write lock only for the
writing. Inputs are generated (benchmarks/intake_inputs.py); each round imports into a
fresh game, so the figures are first imports (a re-import of the 10,000-post thread is
timed separately: everything "seen before").

    python dev.py bench -k intake
"""

from __future__ import annotations

import itertools
import resource

import pytest

from benchmarks.intake_inputs import many_attachments_mail, mbox, thread_text
from engine import registry
from engine.service import GameService

_n = itertools.count()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("intake")
    return {"mail": many_attachments_mail(d / "many.eml"), "mbox": mbox(d / "inbox.mbox"),
            "t10k": thread_text(d / "t10k.txt", 10_000), "t100k": thread_text(d / "t100k.txt", 100_000),
            "dir": d}


def _fresh(folder, ruleset):
    db = folder / f"g{next(_n)}.db"
    GameService.create(db, registry.get(ruleset).demo()[0]).close()
    return db


def _bench(benchmark, record, inputs, ruleset, key, rounds, expect):
    def setup():
        return (GameService.open(_fresh(inputs["dir"], ruleset)),), {}

    def go(svc):
        try:
            rep = svc.import_paths([inputs[key]])
            assert len(rep.results) == expect
        finally:
            svc.close()

    benchmark.pedantic(go, setup=setup, rounds=rounds, iterations=1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    record(f"import {key} ({ruleset}): min {benchmark.stats['min']:.2f} s, median "
           f"{benchmark.stats['median']:.2f} s; process peak RSS so far {peak} MB")


def test_bench_import_mail_with_2000_attachments(benchmark, record, inputs):
    _bench(benchmark, record, inputs, "kok", "mail", 3, 2000)


def test_bench_import_mbox_10000_messages(benchmark, record, inputs):
    _bench(benchmark, record, inputs, "kok", "mbox", 3, 10_000)


def test_bench_import_thread_10000_posts(benchmark, record, inputs):
    _bench(benchmark, record, inputs, "coi", "t10k", 3, 10_000)


def test_bench_import_thread_100000_posts(benchmark, record, inputs):
    _bench(benchmark, record, inputs, "coi", "t100k", 1, 100_000)


def test_bench_reimport_thread_10000_posts(benchmark, record, inputs):
    db = _fresh(inputs["dir"], "coi")
    with GameService.open(db) as svc:
        svc.import_paths([inputs["t10k"]])

    def go():
        with GameService.open(db) as svc:
            rep = svc.import_paths([inputs["t10k"]])
            assert all(r.status == "duplicate" for r in rep.results)

    benchmark.pedantic(go, rounds=3, iterations=1)
    record(f"re-import t10k (all seen before): min {benchmark.stats['min']:.2f} s, "
           f"median {benchmark.stats['median']:.2f} s")
