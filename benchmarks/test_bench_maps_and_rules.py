"""Map generation, vector export and bare King of Kings adjudication on large maps.

    python -m pytest benchmarks/test_bench_maps_and_rules.py --benchmark-only -s
"""

from __future__ import annotations

import pytest

from engine.mapgen import generate
from engine.mapio import export_map


@pytest.fixture(scope="module")
def hex500():
    return generate("hex", 500, 500, seed=2)


def test_bench_generate_hex_500(benchmark):
    m = benchmark.pedantic(generate, args=("hex", 500, 500, 1), rounds=2, iterations=1)
    assert len(m.grid) == 250_000


def test_bench_svg_export_hex_500(benchmark, hex500, tmp_path):
    path = benchmark.pedantic(export_map, args=(hex500, tmp_path / "big.svg"), rounds=3, iterations=1)
    assert path.stat().st_size > 0


def test_bench_geojson_merged_hex_200(benchmark, tmp_path):
    m = generate("hex", 200, 200, seed=3)
    benchmark.pedantic(export_map, args=(m, tmp_path / "big.geojson"), rounds=2, iterations=1)


def test_bench_kok_adjudicate_100x100(benchmark):
    """Phases only (no parsing, database or reports): 20 tribes, about 5,000 armies."""
    from engine.dice import Dice
    from engine.events import EventLog
    from engine.registry import get
    from engine.rulesets.kok.generate import generate_game

    rs = get("kok")
    scen, orders = generate_game()
    state = rs.initial_state(scen)
    sheets = {f: rs.parse_orders(t, f"SP{f}") for f, t in orders.items()}

    def turn():
        from engine.ruleset import TurnContext as Ctx

        new = state.copy()
        new.step = state.step + 1
        ctx = Ctx(rs, scen, new, state, dict(sheets), Dice(scen.seed, new.step), EventLog())
        rs.run_step(ctx)
        return ctx.events

    events = benchmark.pedantic(turn, rounds=3, iterations=1)
    assert len(events) > 1000
