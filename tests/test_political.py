"""The political map of a turn (engine.political): owners, troops and names given in play,
read from every ruleset's state; the editor palette's terrains (Ruleset.map_terrains)."""

import dataclasses

import pytest

from engine import registry
from engine.political import kind_abbreviations, kind_names, political_map
from engine.service import GameService
from engine.viewer_model import place_cell


@pytest.fixture
def demos(played_demos):
    return played_demos


@pytest.mark.parametrize("rs", ["kok", "artnes", "coi"])
def test_troops_and_owners_come_from_the_state_of_every_ruleset(demos, rs):
    svc = GameService.open(demos[rs])
    try:
        st = svc.state(svc.current_step)
        pm = political_map(svc.ruleset, svc.scenario, st, svc.current_step)
        assert pm.step == svc.current_step > 0
        assert pm.owners and pm.stacks
        # every troop of the state is on the map, per place, owner and kind
        units = {"kok": ("armies", "cell", "tribe", "troop"), "artnes": ("units", "location", "nation", "kind"),
                 "coi": ("units", "cell", "owner", "unit")}[rs]
        table, place, owner, kind = units
        want: dict = {}
        for r in st.tables[table]:
            if r.count > 0:
                key = (place_cell(svc.scenario.map, getattr(r, place)), getattr(r, owner), getattr(r, kind))
                want[key] = want.get(key, 0) + r.count
        assert {(s.cell, s.owner, s.kind): s.count for s in pm.stacks} == want
        # every owner has a side with a colour and a name (CoI players who joined in play too)
        for o in set(pm.owners.values()) | {s.owner for s in pm.stacks}:
            side = pm.side(o)
            assert side is not None and side.colour.startswith("#") and side.name
    finally:
        svc.close()


def test_names_given_in_play_and_renamed_factions_are_on_the_political_map(demos):
    svc = GameService.open(demos["kok"])
    try:
        st = svc.state(svc.current_step)
        pm = political_map(svc.ruleset, svc.scenario, st)
        named = {p.cell: p.name for p in st.tables["provinces"] if p.name}
        assert named and pm.names == named  # NAME orders of the demo (Korinthos...)
        assert "Korinthos" in pm.names.values()
        tribe = st.tables["tribes"][0]
        st.tables["tribes"][0] = dataclasses.replace(tribe, name="Sons of Hellas")
        pm = political_map(svc.ruleset, svc.scenario, st)
        assert pm.side(tribe.number).name == "Sons of Hellas"
    finally:
        svc.close()


def test_visible_cells_limit_what_a_faction_map_shows(demos):
    svc = GameService.open(demos["kok"])
    try:
        st = svc.state(svc.current_step)
        full = political_map(svc.ruleset, svc.scenario, st)
        seen = frozenset(list(full.owners)[:3])
        pm = political_map(svc.ruleset, svc.scenario, st, visible=seen)
        assert set(pm.owners) <= seen and all(s.cell in seen for s in pm.stacks)
        assert len(pm.owners) == 3 < len(full.owners)
    finally:
        svc.close()


def test_troop_symbols_are_short_distinct_and_named_from_the_catalogs():
    assert kind_abbreviations(["F", "H", "B"]) == {"F": "F", "H": "H", "B": "B"}
    assert kind_abbreviations(["knight", "spearman", "galley"]) == {"knight": "K", "spearman": "S",
                                                                    "galley": "G"}
    ab = kind_abbreviations(["swordsman", "spearman", "militia"])
    assert ab["militia"] == "M" and ab["swordsman"] != ab["spearman"]
    scen, _ = registry.get("kok").demo()
    assert kind_names(scen, {"H", "F"}) == {"H": "Horsemen", "F": "Foot Soldiers"}


def test_each_ruleset_names_its_map_terrains():
    assert registry.get("artnes").map_terrains() == ["land", "sea"]
    kok = registry.get("kok").map_terrains()
    assert kok[0] == "cultivated" and "sea" in kok and "metropolis" in kok
    assert registry.get("coi").map_terrains() == ["desert", "mountain", "forest", "field", "ruin",
                                                   "deep", "shallow"]


@pytest.mark.parametrize("rs, named", [("kok", "Turn 3"), ("artnes", "1303 AD"), ("coi", "Update 3")])
def test_each_ruleset_names_a_step_as_its_players_do(rs, named):
    from engine.ruleset import step_title

    ruleset = registry.get(rs)
    scen = ruleset.demo()[0]
    assert ruleset.step_name(3, scen) == named
    assert step_title(ruleset, 0, scen).endswith(" (the start)")
    if rs == "artnes":  # the year the map update of that turn is titled with
        scen.options.set("start_year", 1066)
        assert ruleset.step_name(3, scen) == "1069 AD"
        state = ruleset.initial_state(scen)
        state.step = 3
        from engine.events import EventLog

        rep = ruleset.report(state, EventLog(), None, scen)
        assert "map update 1069 AD" in ruleset.render(rep, "text")
