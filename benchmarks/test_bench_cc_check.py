"""Continental Conquest: checking a whole orders sheet, the dry run through every pulse
included (engine/rulesets/cc/dryrun.py), on the North America map with eight clans. The
viewer checks as the player types, so a sheet should check well under 100 ms: timed on the
GM's whole state (the console's check) and on the clan's bundle view (the player's viewer).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.mapfile import load_map
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.setup import assign_starts
from engine.rulesets.cc.state import Convoy, Vehicle
from engine.rulesets.cc.view import visible_state
from engine.scenario import Faction, Scenario

MAP = Path(__file__).resolve().parents[1] / "maps" / "cc" / "north-america.rsmap"
CLAN, CONVOYS = 100, 5
MOVES = ("N", "NE", "SE", "S", "SW", "NW")
PRE = ("BUY 500 FUEL", "ENLIST 20", "BUY 1 TRUCK #2", "FORTIFY {city}", "ERECT {city} BAR")
POST = ("BUY 100 PARTS", "ASSIGN {city} 10", "CREATE {city} LAND", "GARRISON 2 {city}",
        "DEFEND {city}", "BUY 50 FOOD", "TRAIN 1", "VIGILANCE 20", "SLOGAN \"onward\"", "SELL 5 FUEL")


@pytest.fixture(scope="module")
def game():
    m = load_map(MAP)
    facs = [Faction(100 + 37 * i, f"Clan {i}", password=str(4000 + i)) for i in range(8)]
    scen = Scenario("cc", "bench", m, RULESET.default_catalogs(), RULESET.default_options(), facs, seed=11)
    assign_starts(scen)
    state = RULESET.initial_state(scen)
    clan = next(c for c in state["clans"] if c.number == CLAN)
    clan.money, clan.fuel, clan.food_tenths = 10**6, 10**5, 10**5
    home = next(c for c in state["convoys"] if c.owner == CLAN)
    next_id = 1 + max(c.id for c in state["convoys"])
    for n in range(2, CONVOYS + 1):
        state["convoys"].append(Convoy(id=next_id, owner=CLAN, number=n, cell=home.cell, troops=20))
        state["vehicles"].append(Vehicle(next_id, "bus", 2))
        next_id += 1
    city = m.grid.label(home.cell, "ccrr")
    lines = [f"CLAN {CLAN} ACCOUNT {clan.account} TURN 1", "PRE-TURN CLAN ORDERS"]
    lines += [f"{i}: {x.format(city=city)}" for i, x in enumerate(PRE, 1)]
    for n in range(1, CONVOYS + 1):
        lines.append(f"CONVOY #{n}")
        lines += [f"{p}: {MOVES[(p // 2 + n) % 6]}" for p in range(1, 9)] + ["9: PICKUP", "10: DROPOFF"]
    lines.append("POST-TURN CLAN ORDERS")
    lines += [f"{i}: {x.format(city=city)}" for i, x in enumerate(POST, 1)]
    sheet = RULESET.parse_orders("\n".join(lines) + "\n", "bench.txt")
    return scen, state, sheet


def test_bench_check_a_whole_sheet_gm_state(benchmark, game, record):
    scen, state, sheet = game
    found = benchmark(RULESET.check, sheet, state, CLAN, scen)
    record(f"cc: check of a whole sheet (GM state: {len(state['hexes'])} hexes, "
           f"{len(sheet.orders)} orders): {len(found)} findings")


def test_bench_check_a_whole_sheet_viewer_bundle(benchmark, game, record):
    scen, state, sheet = game
    view = visible_state(state, CLAN, scen)
    checker = RULESET.checker(view, scen)
    found = benchmark(checker, sheet, CLAN)
    record(f"cc: check of a whole sheet (the clan's bundle: {len(view['hexes'])} hexes): "
           f"{len(found)} findings")
