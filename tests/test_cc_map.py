"""The Continental Conquest North America map (maps/cc): built by its script, every terrain of
the book, a few hundred cities, rivers and highways, and connected the way convoys move."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import deque
from pathlib import Path

import pytest

from engine.mapfile import load_map
from engine.rulesets.cc.catalog import default_catalogs

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "maps" / "cc" / "north-america.rsmap"


@pytest.fixture(scope="module")
def script():
    sys.path.insert(0, str(MAP.parent))
    try:
        spec = importlib.util.spec_from_file_location("cc_make_map", MAP.parent / "make_map.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(str(MAP.parent))


@pytest.fixture(scope="module")
def gmap():
    return load_map(MAP)


@pytest.fixture(scope="module")
def cities(gmap):
    return {s.name.casefold(): s for s in gmap.sites.values()}


@pytest.mark.parametrize("module,file", [("north_america", "north-america.rsmap"), ("europe", "europe.rsmap")])
def test_the_file_is_what_the_script_builds(script, module, file):
    builder = script.Builder(script.load(module))
    built = builder.build()
    assert builder.problems == []
    saved = load_map(MAP.parent / file)
    assert json.dumps(built.to_dict(), sort_keys=True) == json.dumps(saved.to_dict(), sort_keys=True)


def test_every_terrain_of_the_book_and_nothing_else(gmap):
    book = {t["id"] for t in default_catalogs()["terrain"]}
    used = {gmap.terrains[int(i)] for i in set(gmap.terrain.tolist())}
    assert used == book
    assert gmap.grid.kind == "hex" and gmap.grid.orientation == "flat"
    assert gmap.grid.label(gmap.grid.cell(7, 24), "ccrr") == "0825"


def test_cities_are_plausible(gmap, cities):
    cat = default_catalogs()
    goods = set(cat["goods"].by("id"))
    experts = set(cat["experts"].by("code"))
    assert 250 <= len(cities) <= 500
    majors = [s for s in gmap.sites.values() if s.attrs["major"]]
    assert 20 <= len(majors) <= 30 and all(s.name == s.name.upper() for s in majors)
    for s in gmap.sites.values():
        a = s.attrs
        assert gmap.terrain_at(s.cell) not in ("water", "sea_lane"), s.name
        assert 10_000 <= a["population"] <= (200_000 if a["major"] else 60_000), s.name
        assert a["fortification"] == 5 if a["major"] else 1 <= a["fortification"] <= 3
        assert a["produces"] in goods and a["needs"] in goods | {"anything"} and a["needs"] != a["produces"]
        assert a["guild"] in experts | {""}
    for name in ("new york", "los angeles", "chicago", "mexico city", "toronto", "havana"):
        assert name in cities
    assert gmap.terrain_at(cities["new york"].cell) == "metropolis"


def test_places_are_where_they_belong(gmap, cities):
    g = gmap.grid

    def colrow(name):
        return g.colrow(cities[name].cell)

    assert colrow("seattle")[0] < colrow("chicago")[0] < colrow("new york")[0]
    assert colrow("winnipeg")[1] < colrow("dallas")[1] < colrow("mexico city")[1] < colrow("panama city")[1]
    assert gmap.terrain_at(cities["denver"].cell) in ("mountains", "plains")
    assert gmap.terrain_at(cities["phoenix"].cell) == "metropolis"
    assert any(gmap.terrain_at(n) == "mountains" for n in g.within(cities["denver"].cell, 2))
    assert any(gmap.terrain_at(n) == "swamp" for n in g.within(cities["new orleans"].cell, 2))


def land_component(gmap, start):
    t = [gmap.terrains[int(i)] for i in gmap.terrain]
    drive = [x not in ("water", "sea_lane", "islands") for x in t]
    seen, q = {start}, deque([start])
    while q:
        u = q.popleft()
        for v in gmap.grid.neighbours(u):
            if v not in seen and t[v] not in ("water", "sea_lane") and (
                    (drive[u] and drive[v]) or gmap.has_link("road", u, v)):
                seen.add(v)
                q.append(v)
    return seen


def test_land_convoys_reach_the_continent(gmap, cities, script):
    main = land_component(gmap, cities["chicago"].cell)
    for name in ("los angeles", "new york", "miami", "key west", "mexico city", "panama city",
                 "caracas", "vancouver", "halifax", "quebec"):
        assert cities[name].cell in main, name
    for name in ("havana", "honolulu", "san juan", "st john's"):
        assert cities[name].cell not in main, name  # islands: by sea only
    assert script.check(gmap) == []  # every city by land or sea, rivers on land, the book's hexes


def test_the_books_road_example(gmap):
    """[MOVING ON A ROAD]: a land convoy in Miami may go south along the road to 5034, but
    not from 4934 to 5034 (no road joins them)."""
    g = gmap.grid
    miami, keys, glades = g.parse("5033"), g.parse("5034"), g.parse("4934")
    assert g.step(miami, "S") == keys and g.step(miami, "SW") == glades and g.step(glades, "SE") == keys
    assert gmap.terrain_at(keys) == "islands" and gmap.has_link("road", miami, keys)
    assert not gmap.has_link("road", glades, keys)
    assert keys in land_component(gmap, miami)


def test_rivers_and_roads(gmap, cities):
    rivers, roads = gmap.links["river"], gmap.links["road"]
    assert len(rivers) >= 250 and len(roads) >= 600
    river_cells = {c for ab in rivers for c in ab}
    for name in ("st louis", "memphis", "new orleans", "minneapolis", "montreal", "portland"):
        assert any(n in river_cells for n in gmap.grid.within(cities[name].cell, 1)), name
    # the Mississippi reaches the Gulf: a river hex near New Orleans touches water
    near = gmap.grid.within(cities["new orleans"].cell, 2)
    assert any(c in river_cells and any(gmap.terrain_at(n) == "water" for n in gmap.grid.neighbours(c))
               for c in near)


# ---- generated continents (engine/mapgen, ruleset="cc": engine/rulesets/cc/mapstyle.py) ---------

@pytest.mark.parametrize("size", [(12, 10), (70, 50), (150, 110)])
def test_generated_continents_use_the_books_terrains(size):
    from engine.mapgen import generate

    m = generate("hex", *size, seed=11, ruleset="cc")
    book = {t["id"] for t in default_catalogs()["terrain"]}
    used = {m.terrains[int(i)] for i in set(m.terrain.tolist())}
    assert used <= book and {"water", "plains"} <= used
    for s in m.sites.values():
        assert m.terrain_at(s.cell) not in ("water", "sea_lane")
        assert (m.terrain_at(s.cell) == "metropolis") == s.attrs["major"] == (s.name == s.name.upper())
        assert s.attrs["population"] >= 25_000
    if size[0] >= 70:
        land = int((m.terrain != m.terrains.index("water")).sum())
        assert len(m.sites) >= land // 16 and len(m.links["river"]) > 10 and len(m.links["road"]) > 50
        assert any(s.attrs["major"] for s in m.sites.values()) and "sea_lane" in used


def test_generated_continents_are_repeatable():
    from engine.mapgen import generate

    a, b = generate("hex", 60, 40, seed="x", ruleset="cc"), generate("hex", 60, 40, seed="x", ruleset="cc")
    c = generate("hex", 60, 40, seed="y", ruleset="cc")
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict()) != json.dumps(c.to_dict())


def test_the_books_hex_numbering():
    """The book's examples fix the layout: flat-topped odd-q columns, CCRR labels."""
    from engine.topology import HexGrid

    g = HexGrid(60, 60)
    oceania = g.parse("0616")
    assert g.label(g.step(oceania, "NW"), "ccrr") == "0516" and g.label(g.step(oceania, "SE"), "ccrr") == "0717"
    assert g.label(g.step(g.parse("5456"), "N"), "ccrr") == "5455"
    assert g.label(g.step(g.parse("4934"), "SE"), "ccrr") == "5034"


def test_europe_follows_the_books_irish_samples(script):
    """[CITY REPORTS] and [HEX REPORTS] samples come from Ireland on the Europe map: the five
    cities on their hexes (DUBLIN major), the sample hexes' terrain and roads."""
    eu = load_map(MAP.parent / "europe.rsmap")
    g = eu.grid
    by_hex = {g.label(s.cell, "ccrr"): s for s in eu.sites.values()}
    for label, name in (("0825", "Limerick"), ("0927", "Cork"), ("1022", "Londonderry"),
                        ("1125", "DUBLIN"), ("1222", "Belfast")):
        assert by_hex[label].name == name
    assert by_hex["1125"].attrs["major"] and not by_hex["0825"].attrs["major"]
    geo = script.load("europe")
    sample = {g.parse(label) for label in geo.BOOK_HEXES}
    joined = 0
    for label, (terrain, roads) in geo.BOOK_HEXES.items():
        cell = g.parse(label)
        assert eu.terrain_at(cell) == terrain, label
        for d in roads.split():
            other = g.step(cell, d)
            if other in sample:  # roads to hexes outside the sample exist where our coast has land
                assert eu.has_link("road", cell, other), (label, d)
                joined += 1
    assert joined >= 14
    book = {t["id"] for t in default_catalogs()["terrain"]}
    assert {eu.terrains[int(i)] for i in set(eu.terrain.tolist())} <= book
    assert script.check(eu, geo) == []
    cities = {s.name.casefold(): s for s in eu.sites.values()}
    main = land_component(eu, cities["paris"].cell)
    for name in ("madrid", "moscow", "rome", "berlin", "athens", "warsaw", "stockholm", "istanbul"):
        assert cities[name].cell in main, name
    for name in ("london", "dublin", "palermo", "cagliari"):
        assert cities[name].cell not in main, name  # islands
    assert cities["tunis"].cell in main  # Africa joins Asia at Suez, Asia Europe at the Bosporus
