"""Continental Conquest game set-up on the North America map: what the book's start-up
sections promise each clan, seeded and reproducible, and the scenario checks (validate)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.mapfile import load_map
from engine.rulesets.cc import RULESET
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.setup import assign_starts, initial_state, land_masses
from engine.scenario import Faction, Scenario
from engine.validation import ERROR, WARNING
from tests.test_cc_map import MAP


@pytest.fixture(scope="module")
def gmap():
    return load_map(MAP)


def scenario(gmap, n=15, seed=7, passwords=True, attrs=None):
    attrs = attrs or {}
    facs = [Faction(100 + 37 * i, f"Clan {i}", password=f"{4000 + i}" if passwords else "",
                    attrs=dict(attrs.get(i, {}))) for i in range(n)]
    sc = Scenario("cc", "test", gmap, RULESET.default_catalogs(), RULESET.default_options(), facs, seed=seed)
    assign_starts(sc)
    return sc


@pytest.fixture(scope="module")
def game(gmap):
    sc = scenario(gmap)
    return sc, initial_state(sc)


def test_the_same_seed_gives_the_same_game_and_another_seed_another(gmap, game):
    sc, state = game
    assert initial_state(scenario(gmap)).to_json() == state.to_json()
    assert initial_state(scenario(gmap, seed=8)).to_json() != state.to_json()


def test_each_clan_starts_with_a_station_city_of_50_to_60_thousand_and_its_hex(game):
    sc, state = game
    book = Book(sc.catalogs)
    hexes = {h.cell: h for h in state["hexes"]}
    assert len(state["clans"]) == 15
    for clan in state["clans"]:
        owned = [c for c in state["cities"] if c.owner == clan.number]
        assert len(owned) == 1
        city = owned[0]
        assert not city.major and city.fortification == 2
        assert 50_000 <= city.population <= 60_000
        assert 0 < city.troops <= book.fortifications[2]["capacity"]
        assert hexes[city.cell].owner == clan.number
        assert [h.cell for h in state["hexes"] if h.owner == clan.number] == [city.cell]
        assert clan.popularity == 100 and clan.money == sc.options.start_money
        assert clan.food_tenths == 10 * sc.options.start_food


def test_each_clan_has_one_small_land_convoy_in_its_city(game):
    """[CREATING CONVOYS]: one convoy, a car and two bikes; new convoys start hidden; it has
    picked up what troops it can carry from the clan's pool."""
    sc, state = game
    book = Book(sc.catalogs)
    cities = {c.owner: c.cell for c in state["cities"] if c.owner}
    for clan in state["clans"]:
        convoys = [c for c in state["convoys"] if c.owner == clan.number]
        assert len(convoys) == 1
        c = convoys[0]
        assert (c.number, c.type, c.cell, c.hidden, c.mode) == (1, "land", cities[clan.number], True, "capture")
        fleet = {v.type: v.count for v in state["vehicles"] if v.convoy == c.id}
        assert fleet == {"car": 1, "bike": 2}
        assert c.troops == min(sc.options.start_troops, cs.troop_capacity(book, fleet))
        assert clan.troops + c.troops == sc.options.start_troops


def test_accounts_and_hidden_sequence_numbers(gmap, game):
    sc, state = game
    assert [c.account for c in state["clans"]] == [f.password for f in sc.factions]
    seqs = [c.sequence for c in state["clans"]]
    assert len(set(seqs)) == len(seqs) and all(1000 <= s < 2000 for s in seqs)
    assert seqs != sorted(seqs)  # hidden: not the clans' order
    drawn = initial_state(scenario(gmap, passwords=False))
    accounts = [c.account for c in drawn["clans"]]
    assert all(a.isdigit() and len(a) == 6 for a in accounts) and len(set(accounts)) == len(accounts)


def test_the_sequential_runner_hooks(game):
    """The clans' turns go by hidden sequence number (X1 "sequence"), at least
    min_days_between_turns apart; a sheet's TURN line names the clan's turn."""
    sc, state = game
    keys = {f.number: RULESET.sequence_key(state, f.number, sc) for f in sc.factions}
    assert keys == {c.number: c.sequence for c in state["clans"]}
    assert RULESET.turn_interval_days(sc) == 7
    sheet = RULESET.parse_orders("CLAN 3\nTURN 4\n")
    assert RULESET.orders_turn(sheet) == 4
    arrival = sc.options.copy()
    arrival.set("turn_order", "arrival")
    assert RULESET.sequence_key(state, sc.factions[0].number, sc.__class__(**{
        **sc.__dict__, "options": arrival})) is None


def test_starts_are_widely_spaced_on_the_mainland(gmap, game):
    sc, state = game
    cells = [c.cell for c in state["cities"] if c.owner]
    closest = min(gmap.grid.distance(a, b) for i, a in enumerate(cells) for b in cells[i + 1:])
    assert closest >= 8  # 15 clans on 80 x 58 hexes
    masses = land_masses(gmap, Book(sc.catalogs))
    assert len({masses[c] for c in cells}) == 1


def test_every_map_city_is_in_the_cities_table_with_its_attributes(gmap, game):
    sc, state = game
    by_cell = {c.cell: c for c in state["cities"]}
    assert len(by_cell) == len(gmap.sites) == len(state["cities"])
    for s in gmap.sites.values():
        c = by_cell[s.cell]
        assert (c.name, c.major, c.produces, c.needs, c.guild) == (
            s.name, s.attrs["major"], s.attrs["produces"], s.attrs["needs"], s.attrs["guild"])
        if not c.owner:
            assert (c.population, c.value, c.fortification) == (
                s.attrs["population"], s.attrs["value"], s.attrs["fortification"])
            cap = Book(sc.catalogs).fortifications[c.fortification]["capacity"]
            assert cap * 20 // 100 <= c.troops <= cap // 2


def test_hexes_roll_production_in_the_terrain_ranges_with_road_and_river_bonuses(gmap, game):
    sc, state = game
    book = Book(sc.catalogs)
    roads = {c for link in gmap.links["road"] for c in link}
    rivers = {c for link in gmap.links["river"] for c in link}
    land = [h for h in state["hexes"] if book.terrain[gmap.terrain_at(h.cell)]["ownable"]]
    assert len(land) == sum(1 for c in gmap.grid.cells() if book.terrain[gmap.terrain_at(c)]["ownable"])
    for h in land:
        t = book.terrain[gmap.terrain_at(h.cell)]
        assert t["money_min"] <= h.value <= t["money_max"]
        road = (4, 6) if h.cell in roads else (0, 0)
        river = (8, 10) if h.cell in rivers else (0, 0)
        assert t["parts_min"] + road[0] <= h.parts <= t["parts_max"] + road[1]
        assert t["food_min"] + river[0] <= h.food <= t["food_max"] + river[1]
        assert t["fuel_min"] <= h.fuel <= t["fuel_max"] and t["vaccine_min"] <= h.vaccine <= t["vaccine_max"]
        bonus = t["defense_bonus"] + (1 if h.cell in rivers else 0)
        assert 1 + bonus <= h.defense <= 5 + bonus
    assert len(state["roads"]) == len(gmap.links["road"])


def test_special_structures_in_15_to_20_percent_never_on_barren_or_city_hexes(gmap, game):
    sc, state = game
    cities = {c.cell for c in state["cities"]}
    land = [h for h in state["hexes"] if h.defense > 0]
    eligible = [h for h in land if gmap.terrain_at(h.cell) != "barren" and h.cell not in cities]
    special = [h for h in eligible if h.special]
    assert 0.13 <= len(special) / len(eligible) <= 0.21
    assert not [h for h in land if h.special and (h.cell in cities or gmap.terrain_at(h.cell) == "barren")]
    assert "FIS" not in {h.special for h in land}
    fisheries = [h for h in state["hexes"] if h.special == "FIS"]
    assert fisheries and all(gmap.terrain_at(h.cell) == "water" and h.owner == 0 for h in fisheries)
    assert len(Counter(h.special for h in special)) == 14  # every land structure of the book occurs


def test_an_island_start_gets_a_sea_convoy(gmap):
    """Hawaii and Puerto Rico start at sea; Cuba, a large island, with a land convoy (CONVERT)."""
    sc = scenario(gmap, n=3, seed=3, attrs={0: {"city": _city(gmap, "Honolulu")},
                                            1: {"city": _city(gmap, "Havana")},
                                            2: {"city": _city(gmap, "San Juan")}})
    state = initial_state(sc)
    types = [next(c.type for c in state["convoys"] if c.owner == f.number) for f in sc.factions]
    assert types == ["sea", "land", "sea"]
    c = next(c for c in state["convoys"] if c.owner == sc.factions[0].number)
    assert {v.type: v.count for v in state["vehicles"] if v.convoy == c.id} == {"motorboat": 1, "jetski": 1}


def _city(gmap, name):
    s = next(s for s in gmap.sites.values() if s.name.casefold() == name.casefold())
    return gmap.grid.label(s.cell, "ccrr")


def test_validate_names_every_bad_start(gmap):
    sc = scenario(gmap, n=4, passwords=False, attrs={0: {"city": "0101"}, 1: {"city": _city(gmap, "NEW YORK")},
                                                      2: {"city": "9999"}})
    sc.factions[3].attrs["city"] = sc.factions[0].attrs["city"] = _city(gmap, "Churchill")
    problems = RULESET.validate(sc)
    errors = [p.message for p in problems if p.severity == ERROR]
    assert any("major city" in m for m in errors)
    assert any("'9999' is no hex" in m for m in errors)
    assert any("both start in Churchill" in m for m in errors)
    assert sum("no account number" in p.message for p in problems if p.severity == WARNING) == 4
    with pytest.raises(ValueError, match="major city"):
        initial_state(sc)
    sc.factions[0].number = 1234
    assert any("clan numbers run from 1 to 999" in p.message for p in RULESET.validate(sc))


def test_a_sound_scenario_validates_clean(game):
    sc, _ = game
    assert RULESET.validate(sc) == []
