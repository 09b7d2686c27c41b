"""Atlantis: reading and checking 1,000 factions' orders files (10 units each), the way the
GM's intake does before a turn. The issue's goal: checking 1,000 orders files under 1 s."""

from __future__ import annotations

import pytest

from engine import registry
from engine.rulesets.atlantis import state as st
from engine.state import State

FACTIONS, UNITS = 1000, 10
RS = registry.get("atlantis")

ORDERS = [
    "MOVE N NE", "STUDY combat", "@WORK", "PRODUCE swords", "ENTERTAIN", "TEACH {a} {b}",
    "BUILD tower", "SAIL N NW", "STUDY \"Horse Training\"", "WORK",
]


def orders_file(faction: int) -> str:
    lines = [f"Orders for my faction, turn 5\n#atlantis {faction} \"pw{faction}\""]
    base = (faction - 1) * UNITS + 1
    for i in range(UNITS):
        u = base + i
        lines += [f"unit {u}", "; my unit", f"GIVE {base} 10 silver", "GUARD 1" if i % 3 else
                  "AVOID 1", "DECLARE 7 friendly", "CLAIM 10",
                  ORDERS[i].format(a=base, b=base + 1)]
        if i == 0:
            lines += ["FORM 1", "  NAME UNIT \"Recruits\"", "  BUY 5 men", "  STUDY combat",
                      "END", "GIVE NEW 1 300 silver"]
    lines.append("#end\n-- \nsent from my phone")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def texts():
    return [orders_file(f) for f in range(1, FACTIONS + 1)]


@pytest.fixture(scope="module")
def state():
    s = State(st.SCHEMA)
    for f in range(1, FACTIONS + 1):
        s["factions"].append(st.Faction(f, f"F{f}", unclaimed=5000))
        for i in range(UNITS):
            n = (f - 1) * UNITS + 1 + i
            s["units"].append(st.Unit(n, f, n % 2000, men=10, seq=n))
            s["unit_skills"].append(st.UnitSkill(n, "combat", 300))
    s.tables["regions"] = [st.Region(c, "plain", 800, 2500, 15, 125, 50, 60) for c in range(2000)]
    return s


def test_bench_atlantis_parse_1000_files(benchmark, texts, record):
    sheets = benchmark(lambda: [RS.parse_orders(t, f"f{i}.txt") for i, t in enumerate(texts)])
    lines = sum(t.count("\n") + 1 for t in texts)
    assert all(not s.errors for s in sheets)
    record(f"atlantis: parsed {len(texts)} orders files, {lines} lines, "
           f"{sum(len(s.orders) for s in sheets)} orders")


def test_bench_atlantis_parse_and_check_1000_files(benchmark, texts, state, record):
    def run():
        out = 0
        for i, t in enumerate(texts):
            sheet = RS.parse_orders(t, f"f{i}.txt")
            out += len(RS.check(sheet, state, i + 1, None))
        return out

    found = benchmark(run)
    record(f"atlantis: parsed and checked {len(texts)} files against a {len(state['units'])}-unit "
           f"state; {found} findings")
