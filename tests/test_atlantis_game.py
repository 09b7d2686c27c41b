"""An Atlantis game through the game service: created from a Conquest world, orders
imported, matched by their #atlantis line and checked against the state; turns run with
their reports."""

from __future__ import annotations

import pytest

from engine import registry
from engine.orders import Severity
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService

RS = registry.get("atlantis")


@pytest.fixture
def svc(tmp_path):
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org", "secret" if n == 1 else "")
                for n in (1, 2, 3, 4)]
    scen = Scenario("atlantis", "Conquest test", conquest_map(4, seed=9), RS.default_catalogs(),
                    RS.default_options(), factions, 9)
    with GameService.create(tmp_path / "atl.db", scen) as s:
        yield s


def test_orders_are_matched_and_checked_against_the_game(svc):
    svc.import_text('Hello GM\n#atlantis 1 "secret"\nunit 1\nCLAIM 100\nTAX\nGIVE 7 5 silver\n'
                    'unit 2\nWORK\n#end\n-- my signature\n', "email", "mail-1")
    svc.import_text("#atlantis 1 wrong\nunit 1\nWORK\n#end\n", "email", "mail-2")
    # faction 3 has no password: its mail counts from its registered address (docs/security.md)
    svc.import_text("#atlantis 3\nunit 3\nMOVE E\n#end\n", "email", "mail-3",
                    sender="p3@example.org")
    st = svc.status()
    assert [s.source_name for s in st.rejected] == ["mail-2"]  # the wrong password
    found = svc.check()
    f1 = {(d.line, d.severity): d.message for d in found[1]}
    assert "only combat-ready units" in f1[(5, Severity.ERROR)]
    assert "unit 7 is not here (or you cannot see it)" in f1[(6, Severity.WARNING)]
    assert "unit 2 is not a unit of faction 1" in f1[(8, Severity.ERROR)]
    assert (4, Severity.WARNING) not in f1  # 100 of 5,000 unclaimed silver is fine
    assert ["bad direction 'E'" in d.message for d in found[3]] == [True]


def test_a_turn_without_orders_runs_and_every_unit_works(svc):
    """No faction sent orders: each one-man unit WORKs (option nmr_work) for the plain's $15
    and pays its $10 upkeep; the reports go out."""
    svc.run()
    assert svc.current_step == 1
    state = svc.state()
    assert state.one("world").month == 1 and len(state["units"]) == 4
    assert sorted((r.unit, r.item, r.count) for r in state["unit_items"]) == [
        (n, "silver", 5) for n in (1, 2, 3, 4)]
    assert all(f.unclaimed == 5000 for f in state["factions"])
    assert "Unclaimed silver: 5000." in svc.report(1, 1)


def test_a_scenario_file_sets_up_a_position_mid_game(tmp_path):
    """Regions, factions with passwords and silver, attitudes, units with items, skills
    (study days), flags and a structure: any position, as a GM starts a game mid-way."""
    from engine.scenario_file import parse_scenario

    text = '''format = 1
ruleset = "atlantis"
name = "Mid-game"
[map]
kind = "hex"
grid = { kind = "hex", width = 4, height = 3, orientation = "flat" }
terrain_rows = ["oppo", "ofmo", "osso"]
areas = [ { name = "Turia", kind = "province", cells = ["(1,1)", "(2,0)", "(1,3)", "(2,2)"] } ]
[[factions]]
number = 14
name = "Hans and his Merry Pranksters"
password = "xyzzy"
[state.factions]
rows = [ { number = 14, name = "Hans and his Merry Pranksters", password = "xyzzy", unclaimed = 1200 } ]
[state.attitudes]
rows = [ { faction = 14, other = 3, attitude = "hostile" } ]
[state.regions]
rows = [ { cell = "(1,1)", terrain = "plain", peasants = 800, silver = 2500, wages = 15 } ]
[state.units]
rows = [ { number = 15, faction = 14, cell = "(1,1)", name = "Hans Shadowspawn", men = 1, guard = true, structure = 3 } ]
[state.unit_items]
rows = [ { unit = 15, item = "silver", count = 500 }, { unit = 15, item = "sword", count = 1 } ]
[state.unit_skills]
rows = [ { unit = 15, skill = "combat", days = 90 } ]
[state.structures]
rows = [ { number = 3, kind = "tower", cell = "(1,1)", name = "Temple of Agrik", work = 10 } ]
'''
    scen = parse_scenario(text, tmp_path / "mid.toml")
    state = RS.initial_state(scen)
    grid = scen.map.grid
    u = state["units"][0]
    assert (u.number, u.faction, u.cell, u.guard, u.structure) == (15, 14, grid.from_atlantis(1, 1),
                                                                  True, 3)
    assert state["unit_skills"][0].days == 90 and state["factions"][0].unclaimed == 1200
    from engine.rulesets.atlantis.world import region_title
    assert region_title(scen.map, u.cell) == "plain in Turia (1,1)"
    sheet = RS.parse_orders('#atlantis 14 "xyzzy"\nunit 15\nTAX\nGUARD 1\n#end\n')
    assert RS.check(sheet, state, 14, scen) == []  # combat 3 months = level 2: combat-ready


def test_the_demo_game_runs_its_first_turn_through_the_service(tmp_path):
    """`realmsmith new --ruleset atlantis`, the demo's orders imported and checked clean, then
    `run`: every phase runs and the turn is saved with its reports."""
    from app.cli import main

    assert main(["new", str(tmp_path / "g.db"), "--ruleset", "atlantis"]) == 0
    scen, script = RS.demo()
    with GameService.open(tmp_path / "g.db") as s:
        mail = {f.number: f.email for f in scen.factions}
        for f, text in script[1].items():  # from the registered address, or it is held
            s.import_text(text, "email", f"demo-{f}", mail[f])
        assert all(not [d for d in ds if d.severity == Severity.ERROR]
                   for ds in s.check().values())
        s.run()
        state = s.state()
        assert s.current_step == 1 and state.one("world").month == 1
        assert {u.name for u in state["units"]} >= {"Merlin's Guards", "Quarrymen"}
