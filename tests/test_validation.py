"""Scenario validation (engine.validation): each kind of problem found, placed, and fixed."""

from __future__ import annotations

import dataclasses

import pytest

from engine import registry
from engine.map import new_map
from engine.rulesets.kok import KingOfKings
from engine.scenario import Faction
from engine.validation import (
    ERROR,
    WARNING,
    add_asset,
    assets_of,
    remove_assets_at,
    starts_of,
    toggle_start,
    validate_scenario,
)


@pytest.fixture()
def kok():
    rs = registry.get("kok")
    scen, _ = rs.demo()
    return rs, scen


def errors(problems):
    return [p for p in problems if p.severity == ERROR]


def test_demo_scenarios_have_no_errors():
    for name in ("kok", "artnes", "coi"):
        rs = registry.get(name)
        scen, _ = rs.demo()
        assert errors(validate_scenario(scen, rs)) == [], name


def test_faction_without_start(kok):
    rs, scen = kok
    scen.factions.append(Faction(9, "Latecomers", "late@example.org"))
    probs = validate_scenario(scen, rs)
    hit = [p for p in probs if p.faction == 9 and "no start" in p.message]
    assert len(hit) == 1 and hit[0].severity == ERROR
    scen.factions[-1] = toggle_start(scen, rs, scen.factions[-1], scen.map.grid.parse("10/10"))
    assert not [p for p in validate_scenario(scen, rs) if p.faction == 9 and p.severity == ERROR]


def test_overlapping_starts_name_the_cell(kok):
    rs, scen = kok
    first = scen.factions[0].attrs["provinces"][0]
    scen.factions[1].attrs["provinces"].append(first)
    probs = [p for p in validate_scenario(scen, rs) if "both start" in p.message]
    assert len(probs) == 1
    assert probs[0].cell == scen.map.grid.parse(first)
    assert probs[0].severity == ERROR


def test_start_on_sea_and_cut_off_start():
    rs = registry.get("kok")
    m = new_map("square", 6, 6, "sea")
    m.set_terrain([m.grid.parse("1/1"), m.grid.parse("2/1")], "plains")
    m.set_terrain([m.grid.parse("4/4")], "hills")
    cats = rs.default_catalogs()
    from engine.scenario import Scenario

    scen = Scenario("kok", "Islands", m, cats, rs.default_options(), [
        Faction(1, "A", "a@x.org", attrs={"provinces": ["1/1", "2/1"]}),
        Faction(2, "B", "b@x.org", attrs={"provinces": ["3/3"]}),
        Faction(3, "C", "c@x.org", attrs={"provinces": ["4/4"]}),
        Faction(4, "D", "d@x.org", attrs={"provinces": ["99/99"]}),
    ])
    probs = validate_scenario(scen, rs)
    sea = [p for p in probs if p.faction == 2]
    assert sea and sea[0].severity == ERROR and "not land" in sea[0].message
    assert sea[0].cell == m.grid.parse("3/3")
    cut = [p for p in probs if p.faction == 3]
    assert [p.severity for p in cut] == [WARNING] and "cut off" in cut[0].message
    assert not [p for p in probs if p.faction == 1]
    off = [p.message for p in probs if p.faction == 4]
    assert any("no cell of this map" in t for t in off) and any("no start" in t for t in off)


def test_duplicate_numbers_names_and_emails(kok):
    rs, scen = kok
    f = scen.factions
    f.append(dataclasses.replace(f[0], attrs={"provinces": ["10/10"]}))
    f.append(Faction(7, f[1].name.upper(), f[2].email.upper(), attrs={"provinces": ["12/12"]}))
    text = [p.message for p in errors(validate_scenario(scen, rs))]
    assert any(f"faction number {f[0].number} is used twice" in t for t in text)
    assert any("has the name" in t for t in text)
    assert any("has the e-mail" in t for t in text)


def test_invalid_catalog_rows_and_options_are_listed(kok):
    rs, scen = kok
    scen.catalogs["troops"].rows[2]["hit"] = 120       # slipped past the editor (a file)
    scen.catalogs["troops"].rows[3]["symbol"] = scen.catalogs["troops"].rows[0]["symbol"]
    scen.options.values["start_gold"] = -5
    probs = errors(validate_scenario(scen, rs))
    rows = {(p.catalog, p.row) for p in probs if p.catalog}
    assert ("troops", 2) in rows and ("troops", 3) in rows
    assert any("above the maximum" in p.message for p in probs if p.row == 2)
    assert any("used already" in p.message for p in probs if p.row == 3)
    assert [p.option for p in probs if p.option] == ["start_gold"]


def test_map_kind_the_ruleset_does_not_play(kok):
    rs, scen = kok
    scen.map = new_map("hex", 10, 10, "plains")
    probs = errors(validate_scenario(scen, rs))
    assert any("square" in p.message and "hex" in p.message for p in probs)


def test_ruleset_hook_adds_its_problems(kok):
    _, scen = kok

    class Picky(KingOfKings):
        def validate(self, scenario):
            return [f"{len(scenario.factions)} tribes are too few"]

    probs = validate_scenario(scen, Picky())
    assert [p.message for p in probs] == ["4 tribes are too few"]

    class Broken(KingOfKings):
        def validate(self, scenario):
            raise RuntimeError("oops")

    assert "checks failed" in validate_scenario(scen, Broken())[0].message


def test_toggle_start_in_each_ruleset_form():
    # KoK: a list of cell labels; CoI: one "col,row" label; ARTNES: realm names
    rs = registry.get("kok")
    scen, _ = rs.demo()
    f = scen.factions[0]
    c = scen.map.grid.parse("10/10")
    g = toggle_start(scen, rs, f, c)
    assert g.attrs["provinces"][-1] == "10/10" and "10/10" not in f.attrs["provinces"]
    assert toggle_start(scen, rs, g, c).attrs["provinces"] == f.attrs["provinces"]

    coi = registry.get("coi")
    scen, _ = coi.demo()
    f = scen.factions[0]
    g = toggle_start(scen, coi, f, 3)
    assert g.attrs["port"] == scen.map.grid.label(3, "col,row")
    assert [s.cells for s in starts_of(scen, coi, g)] == [(3,)]

    art = registry.get("artnes")
    scen, _ = art.demo()
    f = scen.factions[0]
    area = scen.map.areas["Paris"]
    g = toggle_start(scen, art, f, min(area.cells))
    assert g.attrs["realms"][-1] == "Paris"
    assert "Paris" not in toggle_start(scen, art, g, max(area.cells)).attrs["realms"]


def test_assets_added_counted_and_removed(kok):
    rs, scen = kok
    f = scen.factions[0]
    c = scen.map.grid.parse(f.attrs["provinces"][0])
    g = add_asset(scen, rs, f, c, "F", 2)
    g = add_asset(scen, rs, g, c, "F", 1)
    a = assets_of(scen, rs, g)
    assert [(x.kind, x.count, x.cells) for x in a] == [("F", 3, (c,))]
    h = add_asset(scen, rs, g, c, "Q", 1)
    assert any("not in the troops catalog" in p.message for p in validate_scenario(
        dataclasses.replace(scen, factions=[h, *scen.factions[1:]]), rs))
    assert assets_of(scen, rs, remove_assets_at(scen, rs, h, c)) == []


def test_terrain_missing_from_the_terrain_table(kok):
    rs, scen = kok
    cell = scen.map.grid.parse("10/10")
    scen.map.set_terrain([cell], "lava")
    probs = [p for p in validate_scenario(scen, rs) if "lava" in p.message]
    assert len(probs) == 1 and probs[0].severity == WARNING
    assert probs[0].cell == cell and probs[0].catalog == "terrain"


def test_a_given_initial_state_holds_the_starts(kok):
    rs, scen = kok
    scen.initial = rs.initial_state(scen)
    for f in scen.factions:
        f.attrs.pop("provinces")
    assert validate_scenario(scen, rs) == []
    scen.initial = None
    assert len([p for p in validate_scenario(scen, rs) if "no start" in p.message]) == 4
