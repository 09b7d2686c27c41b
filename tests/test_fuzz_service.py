"""Fuzzing the service with hostile envelopes and hostile orders (tests/fuzzing.py).

A fixed seed and a small budget here, so CI runs the same cases every time; a longer run:
    REALMSMITH_FUZZ_BUDGET=2000 python -m pytest tests/test_fuzz_service.py
(or `python3 dev.py bench`, which runs benchmarks/test_fuzz_long.py). A failure names the
seed and the case; `fuzzing.envelopes(seed, ...)[case]` gives it back.

What must hold whatever arrives: import never raises and stores the good mail that came
with the bad; status, check and run work; no report, in any format, carries a control or
bidi character or player markup.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fuzzing import envelopes, mutate, thread

from engine import markup, registry
from engine.service import GameService

SEED = int(os.environ.get("REALMSMITH_FUZZ_SEED", "20261125"))
BUDGET = int(os.environ.get("REALMSMITH_FUZZ_BUDGET", "0"))


def _write(folder: Path, name: str, data: bytes) -> Path | None:
    try:
        p = folder / name
        p.write_bytes(data)
        return p
    except (OSError, ValueError):  # a name this file system cannot hold
        return None


def _reports_clean(svc: GameService, step: int) -> None:
    for who in [None] + [f.number for f in svc.scenario.factions]:
        for fmt in svc.ruleset.report_formats:
            text = svc.report(step, who, fmt)
            assert markup.is_clean(text), (who, fmt)
            if fmt == "bbcode":
                assert "[url=http://evil" not in text and "[img]http://evil" not in text
            if fmt == "html":
                assert "<script" not in text.lower()


def run_envelopes(tmp_path: Path, seed: int, n: int, batch: int = 40) -> int:
    """Import n hostile envelopes in batches, each with one good mail; returns cases run."""
    rs = registry.get("kok")
    scen, orders = rs.demo()
    f1 = scen.factions[0]
    good = orders[1][f1.number]
    svc = GameService.create(tmp_path / "g.db", scen)
    done = 0
    for b in range(0, n, batch):
        inbox = tmp_path / f"inbox{b}"
        inbox.mkdir()
        cases = envelopes(seed + b, min(batch, n - b), "DEMO", f1.email, good)
        for c in cases:
            _write(inbox, c.name, c.data)
        marker = f"# good mail {b}"
        (inbox / "zz-good.eml").write_text(
            f"From: {f1.email}\nSubject: DEMO 1\nDate: Mon, 02 Mar 2026 10:00:00 +0000\n\n"
            f"{good}\n{marker}\n", encoding="utf-8")
        rep = svc.import_paths([inbox])  # must not raise, whatever is in the folder
        got = [r for r in rep.results if marker in r.submission.text]
        assert got and got[0].submission.faction == f1.number, \
            f"seed {seed + b}: the good mail was not stored and matched"
        svc.status()
        svc.check()
        done += len(cases)
    assert svc.run().steps == [1]
    _reports_clean(svc, 1)
    svc.close()
    return done


def test_envelope_fuzz(tmp_path):
    assert run_envelopes(tmp_path, SEED, BUDGET or 60) >= 60


def test_thread_fuzz(tmp_path):
    """Forum thread exports with hostile ids, authors, times and posts that try to be two."""
    rs = registry.get("coi")
    scen, _ = rs.demo()
    authors = [f.attrs.get("forum", f.name) for f in scen.factions] + ["IslandGM"]
    svc = GameService.create(tmp_path / "g.db", scen)
    real = Path(scen.meta["demo_thread"]).read_text(encoding="utf-8")
    (tmp_path / "real.txt").write_text(real, encoding="utf-8")
    svc.import_paths([tmp_path / "real.txt"])
    for i in range(max(1, (BUDGET or 60) // 20)):
        p = tmp_path / f"t{i}.txt"
        p.write_text(thread(SEED + i, 20, authors), encoding="utf-8", errors="surrogatepass")
        svc.import_paths([p])
        svc.status()
        res = svc.run()
        for step in res.steps:
            _reports_clean(svc, step)
    svc.close()


@pytest.mark.parametrize("rs_name", ["kok", "artnes"])
def test_content_fuzz(tmp_path, rs_name):
    """Real orders with hostile edits, through import, check, run and every report."""
    rs = registry.get(rs_name)
    scen, orders = rs.demo()
    rng = random.Random(SEED)
    svc = GameService.create(tmp_path / "g.db", scen)
    rounds = max(1, (BUDGET or 40) // 20)
    for r in range(rounds):
        if svc.status().finished:  # a longer run goes back to the start and plays on
            svc.rollback(0)
        due = svc.pending_step
        texts = orders.get(due) or orders[min(orders)]
        for faction, text in sorted(texts.items()):
            for k in range(2):  # a bad sheet first; the second (also hostile) one supersedes
                svc.import_text(mutate(rng, text), source_name=f"f{faction}-r{r}-{k}.txt",
                                faction=faction)
        svc.check()
        res = svc.run()
        assert res.steps == [due], f"seed {SEED} round {r}"
        _reports_clean(svc, due)
    svc.close()


def test_undecodable_header_bytes_are_stored(tmp_path):
    """Found by the envelope fuzzer: raw bytes in From/Subject reached the database as lone
    surrogates and the whole import failed."""
    scen = registry.get("kok").demo()[0]
    mail = tmp_path / "m.eml"
    mail.write_bytes(b"From: \xc2\x85\xff\nSubject: DEMO 1 \xff\xc3\xa9\n\nBEGIN\nEND\n")
    with GameService.create(tmp_path / "g.db", scen) as svc:
        rep = svc.import_paths([mail])
        assert len(rep.results) == 1
        sub = svc.submissions()[0].submission
        assert sub.subject.startswith("DEMO 1") and "\ufffd" in sub.subject + sub.sender
        assert all(not 0xD800 <= ord(ch) <= 0xDFFF for ch in sub.subject + sub.sender)
