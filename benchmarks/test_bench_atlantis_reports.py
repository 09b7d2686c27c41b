"""Atlantis: every faction's turn report and orders template on a generated 1,000-faction
Conquest world (engine.rulesets.atlantis.world.conquest_map), with 10 units a faction
(10,000 units), items and skills, and one scout of each faction on its neighbour's start
region so Stealth and Observation are worked. The reference server takes about 4 s of its
5 s turn to write some 10 MB of reports for such a game."""

from __future__ import annotations

import pytest

from engine import registry
from engine.events import EventLog
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario

FACTIONS, UNITS = 1000, 10
RS = registry.get("atlantis")


@pytest.fixture(scope="module")
def game():
    scen = Scenario("atlantis", "Bench", conquest_map(FACTIONS, seed=3), RS.default_catalogs(),
                    RS.default_options(), [Faction(n, f"Faction {n}", password=f"pw{n}")
                                           for n in range(1, FACTIONS + 1)], 3)
    s = RS.initial_state(scen)
    grid = scen.map.grid
    land = {r.cell for r in s["regions"]}
    starts = {u.faction: u.cell for u in s["units"]}
    number = max(u.number for u in s["units"]) + 1
    for f, cell in starts.items():
        near = [c for d in ("N", "NE", "SE", "S", "SW", "NW")
                if (c := grid.step(cell, d)) is not None and c in land] or [cell]
        for i in range(UNITS - 1):
            scout = i == UNITS - 2
            where = starts[f % FACTIONS + 1] if scout else (cell if i % 2 else near[i % len(near)])
            s["units"].append(st.Unit(number, f, where, f"Unit {number}", men=1 + i, seq=number))
            s["unit_items"].extend([st.UnitItem(number, "silver", 100 * i),
                                    st.UnitItem(number, "sword", i)])
            s["unit_skills"].append(st.UnitSkill(number, "stealth" if scout else "combat",
                                                 30 * (1 + i)))
            if i == 0:
                s["repeat_orders"].append(st.RepeatOrder(number, 1, "WORK"))
            number += 1
    return scen, s


def test_bench_atlantis_1000_reports(benchmark, game, record):
    scen, state = game

    def run():
        size = 0
        for f in range(1, FACTIONS + 1):
            size += len(RS.render(RS.report(state, EventLog(), f, scen), "text"))
            size += len(RS.orders_template(state, f, scen))
        return size

    size = benchmark.pedantic(run, rounds=5, iterations=1)
    assert size > FACTIONS * 1000
    record(f"atlantis: {FACTIONS} factions' text reports and templates, "
           f"{len(state['units'])} units, {size / 1e6:.1f} MB")
