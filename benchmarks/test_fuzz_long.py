"""The long fuzz runs: the same generators and checks as tests/test_fuzz_service.py with a
budget of thousands of cases and several seeds (`python3 dev.py bench`, or directly:
    python -m pytest benchmarks/test_fuzz_long.py --benchmark-disable -s).
A failure names the seed; REALMSMITH_FUZZ_SEED=<seed> reruns it in tests/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_fuzz_service as fz  # noqa: E402

SEEDS = (1, 2002, 20261125)


@pytest.mark.parametrize("seed", SEEDS)
def test_long_envelope_fuzz(tmp_path, seed, benchmark):
    gap = fz._known_intake_gap(tmp_path)
    if gap:
        pytest.xfail(gap)
    n = benchmark.pedantic(fz.run_envelopes, args=(tmp_path, seed, 2000), rounds=1, iterations=1)
    assert n == 2000


@pytest.mark.parametrize("seed", SEEDS)
def test_long_content_fuzz(tmp_path, seed, benchmark, monkeypatch):
    monkeypatch.setattr(fz, "SEED", seed)
    monkeypatch.setattr(fz, "BUDGET", 400)

    def both() -> None:
        for rs in ("kok", "artnes"):
            d = tmp_path / rs
            d.mkdir()
            fz.test_content_fuzz(d, rs)

    benchmark.pedantic(both, rounds=1, iterations=1)
