"""A small Atlantis position for the report tests, as a scenario file a GM would write: the
book's sample region, plain in Turia (11,15), with Hans Shadowspawn (15) of faction 14 and
Vox Populi (13) of faction 3, and a second island where only faction 3 stands."""

from __future__ import annotations

from engine.scenario import Scenario
from engine.scenario_file import parse_scenario

WIDTH, HEIGHT = 13, 9
LAND = {(11, 15): "p", (11, 13): "f", (10, 14): "m", (12, 16): "s", (3, 5): "p", (3, 7): "f"}


def terrain_rows() -> list[str]:
    rows = [["o"] * WIDTH for _ in range(HEIGHT)]
    for (x, y), t in LAND.items():
        rows[(y - x % 2) // 2][x] = t
    return ["".join(r) for r in rows]


SCENARIO = f'''format = 1
ruleset = "atlantis"
name = "The book's sample region"
[map]
kind = "hex"
grid = {{ kind = "hex", width = {WIDTH}, height = {HEIGHT}, orientation = "flat" }}
terrain_rows = {terrain_rows()!r}
areas = [ {{ name = "Turia", kind = "province", cells = ["(11,15)", "(11,13)", "(10,14)", "(12,16)"] }},
          {{ name = "Ves'kel", kind = "province", cells = ["(3,5)", "(3,7)"] }} ]
[[factions]]
number = 14
name = "Hans and his Merry Pranksters"
password = "xyzzy"
[[factions]]
number = 3
name = "The Silent"
[[factions]]
number = 7
name = "Red Dragon Clan"
[state.world]
rows = [ {{ month = 0, next_unit = 200, next_object = 4, next_faction = 15 }} ]
[state.factions]
rows = [ {{ number = 14, name = "Hans and his Merry Pranksters", password = "xyzzy", unclaimed = 4500 }},
         {{ number = 3, name = "The Silent", unclaimed = 5000 }},
         {{ number = 7, name = "Red Dragon Clan", unclaimed = 5000 }} ]
[state.regions]
rows = [ {{ cell = "(11,15)", terrain = "plain", peasants = 800, silver = 2500, wages = 15, entertainment = 125, recruits = 50, recruit_price = 60 }},
         {{ cell = "(3,5)", terrain = "plain", peasants = 800, silver = 2500, wages = 15, entertainment = 125, recruits = 50, recruit_price = 60 }} ]
[state.products]
rows = [ {{ cell = "(11,15)", item = "horse", amount = 20 }} ]
[state.units]
rows = [ {{ number = 15, faction = 14, cell = "(11,15)", name = "Hans Shadowspawn", men = 1, seq = 1 }},
         {{ number = 13, faction = 3, cell = "(11,15)", name = "Vox Populi", men = 1, seq = 2 }},
         {{ number = 40, faction = 3, cell = "(3,5)", name = "Far Away Scouts", men = 5, seq = 3 }} ]
[state.unit_items]
rows = [ {{ unit = 15, item = "silver", count = 500 }}, {{ unit = 13, item = "silver", count = 200 }},
         {{ unit = 40, item = "sword", count = 5 }} ]
'''


def scenario(tmp_path, layout: str = "server") -> Scenario:
    scen = parse_scenario(SCENARIO, tmp_path / "sample.toml")
    scen.options.set("report_layout", layout)
    return scen
