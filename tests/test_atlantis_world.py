"""Atlantis Conquest: the book's tables as catalogs, the Conquest world generator and the
state a game starts from."""

from __future__ import annotations

import numpy as np
import pytest

from engine import registry
from engine.mapgen import ATLANTIS_ISLAND as ISLAND_TERRAINS
from engine.rulesets.atlantis.catalog import Names, level_of
from engine.rulesets.atlantis.world import conquest_map, region_title
from engine.scenario import Faction, Scenario

RS = registry.get("atlantis")


def by(cat: str) -> dict:
    return RS.default_catalogs()[cat].by("name")


# ---- the book's tables --------------------------------------------------------------------

def test_items_table():
    it = by("items")
    book = {"silver": (0, None, ""), "iron": (5, "mining", ""), "wood": (5, "lumberjack", ""),
            "stone": (50, "quarrying", ""), "horse": (50, "horse training", ""),
            "sword": (1, "weaponsmith", "iron"), "crossbow": (1, "weaponsmith", "wood"),
            "longbow": (1, "weaponsmith", "wood"), "chain armor": (1, "armorer", "iron"),
            "plate armor": (3, "armorer", "iron")}
    for name, (weight, skill, material) in book.items():
        assert it[name]["weight"] == weight and it[name]["material"] == material, name
        if skill:
            assert it[name]["skill"] == skill
    assert it["horse"]["capacity"] == 20
    assert (it["man"]["weight"], it["man"]["capacity"]) == (10, 5)
    assert (it["plate armor"]["level"], it["plate armor"]["material_qty"],
            it["plate armor"]["per_man_cap"]) == (3, 3, 1)


def test_buildings_and_ships_tables():
    ob = by("objects")
    assert {k: (ob[k]["size"], ob[k]["cost"]) for k in ("tower", "fort", "keep", "castle")} == {
        "tower": (10, 10), "fort": (50, 40), "keep": (250, 160), "castle": (1250, 640)}
    assert {k: (ob[k]["capacity"], ob[k]["cost"], ob[k]["sailors"])
            for k in ("longboat", "clipper", "galleon")} == {
        "longboat": (200, 25, 5), "clipper": (800, 50, 10), "galleon": (1800, 75, 15)}
    assert {r["material"] for r in ob.values() if r["kind"] == "building"} == {"stone"}
    assert {r["material"] for r in ob.values() if r["kind"] == "ship"} == {"wood"}


def test_skills_and_spells():
    sk = by("skills")
    normal = ["mining", "lumberjack", "quarrying", "horse training", "weaponsmith", "armorer",
              "building", "shipbuilding", "entertainment", "tactics", "combat", "riding",
              "crossbow", "longbow", "stealth", "observation", "sailing"]
    assert [n for n in sk if not sk[n]["magic"]] == normal
    cost = {n: sk[n]["cost"] for n in normal}
    assert cost.pop("stealth") == cost.pop("observation") == 50 and cost.pop("tactics") == 200
    assert set(cost.values()) == {10}
    magic = [n for n in sk if sk[n]["magic"]]
    assert len(magic) == 15 and all(sk[n]["cost"] == 100 for n in magic)  # Magic + 14 spells
    sp = by("spells")
    assert len(sp) == 14 and set(sp) == set(magic) - {"magic"}
    levels = {n: r["magic_level"] for n, r in sp.items()}
    assert levels["dazzle"] == levels["lightning bolt"] == 1 and levels["black wind"] == 5
    assert all(sk[n]["requires"] == "magic" and sk[n]["requires_level"] == levels[n] for n in sp)
    assert {n for n, r in sp.items() if r["use"] == "automatic"} == {"invisibility", "true seeing"}
    assert sp["create staff of fire"]["cost"] == 600 and sp["teleport"]["use"] == "cast"


def test_levels_from_months_merge_and_split():
    d = 30  # days a month
    assert [level_of(m * d, 1) for m in (0, 1, 2, 3, 5, 6, 9, 10, 14, 15, 99)] == \
        [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    # merging: 10 men of 3 months (level 2) with 10 of 0 months -> 1.5 months each: level 1
    assert level_of(10 * 3 * d + 0, 20) == 1
    # a man taught 1 1/2 months (one teacher, 20 students) keeps the half month
    assert level_of(45, 1) == 1 and level_of(45 + 45, 1) == 2


def test_names_singular_plural_code_alias():
    n = Names.of(RS.default_catalogs())
    assert n.item("swords") == n.item("SWOR") == n.item("Sword") == "sword"
    assert n.item("men") == n.item("MAN") == "man"
    assert n.item("Chain_Mail") == n.item("chain armor") == n.item("CARM") == "chain armor"
    assert n.skill("HORS") == "horse training" and n.item("HORS") == "horse"
    assert n.skill("xbow") == "crossbow" and n.item("xbow") == "crossbow"
    assert n.object("Galleon") == "galleon" and n.spell("LIGH") == "lightning bolt"


# ---- the world -------------------------------------------------------------------------------

def islands(m):
    return [a for a in m.areas.values() if a.kind == "island"]


@pytest.mark.parametrize("factions", [4, 8, 11, 12, 40, 100])
def test_conquest_world(factions):
    m = conquest_map(factions, seed=7)
    grid, land = m.grid, m.terrain != m.terrains.index("ocean")
    assert m.meta["notation"] == "atlantis"
    for c in range(0, len(grid), 7):  # coordinates: x+y even, and back again
        x, y = grid.atlantis(c)
        assert (x + y) % 2 == 0 and grid.from_atlantis(x, y) == c
        assert grid.label(c) == f"({x},{y})"
    isl = islands(m)
    assert len(isl) == factions
    on_islands = set().union(*(a.cells for a in isl))
    central = set(np.flatnonzero(land).tolist()) - on_islands
    assert len(central) > 4 * 8  # a large central island
    for a in isl:
        assert len(a.cells) == 8 and all(land[c] for c in a.cells)
        for c in a.cells:  # ocean all around: no land of anyone else next to it
            assert all(n in a.cells or not land[n] for n in grid.neighbours(c))
        gap = min(grid.distance(c, k) for c in a.cells for k in central)
        assert 2 <= gap <= 8  # a few regions' sail to the central island
        start = [s for s in m.sites.values() if s.kind == "start" and s.cell in a.cells]
        assert len(start) == 1 and m.terrain_at(start[0].cell) == "plain"
        # every faction's island has the same land (a fair start)
        assert sorted(m.terrain_at(c) for c in a.cells) == sorted(ISLAND_TERRAINS)
    assert all(m.area_of(c) is not None for c in central)  # every region is in a named area
    assert component(grid, land, next(iter(central))).sum() == len(central)  # one central island
    sea = component(grid, ~land, 0)  # one ocean: a ship reaches every coast from the map's corner
    for a in [*isl, type("Central", (), {"cells": central})]:
        assert any(sea[n] for c in a.cells for n in grid.neighbours(c))


def component(grid, mask, start):
    seen, todo = {start}, [start]
    while todo:
        for n in grid.neighbours(todo.pop()):
            if mask[n] and n not in seen:
                seen.add(n)
                todo.append(n)
    out = np.zeros(len(mask), dtype=bool)
    out[list(seen)] = True
    return out


@pytest.mark.parametrize("factions", [6, 30, 200])
def test_sailing_towards_the_middle_reaches_the_central_island(factions):
    """The book: sailing from a starting island towards the centre of the map leads to the
    central island within a few regions. Here: within 8, two months of a ship's sailing (the
    one-ring layout of up to 11 factions, whose coast is a little ragged), and within 4,
    one month, in the rings layout of more factions."""
    m = conquest_map(factions, seed=5)
    grid, land = m.grid, m.terrain != m.terrains.index("ocean")
    xy = grid.centers_array()
    middle = (xy.min(axis=0) + xy.max(axis=0)) / 2
    on_islands = {c for a in islands(m) for c in a.cells}
    for a in islands(m):
        cells = sorted(a.cells)
        here = xy[cells].mean(axis=0)
        way = (middle - here) / np.linalg.norm(middle - here)
        hit = None
        for k in range(1, 60):  # half a region at a time along the straight course
            p = here + way * k * 0.5 * np.sqrt(3)
            c = int(np.argmin(((xy - p) ** 2).sum(axis=1)))
            if land[c] and c not in a.cells:
                hit = c
                break
        assert hit is not None and hit not in on_islands, a.name
        assert min(grid.distance(hit, c) for c in cells) <= (8 if factions <= 11 else 4), a.name


def test_conquest_world_is_reproducible():
    a, b, c = conquest_map(12, seed=3), conquest_map(12, seed=3), conquest_map(12, seed=4)
    assert np.array_equal(a.terrain, b.terrain) and a.to_dict() == b.to_dict()
    assert not np.array_equal(a.terrain, c.terrain)


def test_conquest_world_bounds():
    with pytest.raises(ValueError, match="1 to 1,000 factions"):
        conquest_map(1001)
    with pytest.raises(ValueError, match="1 to 1,000 factions"):
        conquest_map(0)


@pytest.mark.slow
def test_conquest_world_for_a_thousand_factions():
    m = conquest_map(1000, seed=1)
    isl = islands(m)
    assert len(isl) == 1000 and all(len(a.cells) == 8 for a in isl)
    land = int((m.terrain != m.terrains.index("ocean")).sum())
    # 8,000 island regions and a central island of bands about as big (not 56,000 regions),
    # on a map of about 300x260 regions (not 2,030x1,759)
    assert land < 25_000 and len(m.grid) < 100_000


def test_directions_follow_the_books_diagram():
    grid = conquest_map(4).grid
    c = grid.from_atlantis(10, 10)
    steps = {d: grid.atlantis(grid.step(c, d)) for d in ("N", "NE", "SE", "S", "SW", "NW")}
    assert steps == {"N": (10, 8), "NE": (11, 9), "SE": (11, 11), "S": (10, 12),
                     "SW": (9, 11), "NW": (9, 9)}


# ---- the state a game starts from ------------------------------------------------------------

def test_initial_state():
    m = conquest_map(4, seed=2)
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org", "pw" if n == 2 else "")
                for n in (1, 2, 3, 4)]
    scen = Scenario("atlantis", "t", m, RS.default_catalogs(), RS.default_options(), factions, 2)
    s = RS.initial_state(scen)
    land = int((m.terrain != m.terrains.index("ocean")).sum())
    assert len(s["regions"]) == land
    units = s["units"]
    assert [(u.number, u.faction, u.men) for u in units] == [(1, 1, 1), (2, 2, 1), (3, 3, 1),
                                                           (4, 4, 1)]
    for u in units:
        assert m.terrain_at(u.cell) == "plain"
        assert any(u.cell in a.cells for a in islands(m))
    assert [f.unclaimed for f in s["factions"]] == [5000] * 4
    assert s["factions"][1].password == "pw"
    assert s.one("world").next_unit == 5
    plains = [r for r in s["regions"] if r.terrain == "plain"]
    assert (plains[0].peasants, plains[0].silver, plains[0].wages, plains[0].recruits,
            plains[0].recruit_price, plains[0].entertainment) == (800, 2500, 15, 50, 60, 125)
    horses = [p for p in s["products"] if p.cell == plains[0].cell]
    assert [(p.item, p.amount) for p in horses] == [("horse", 20)]
    title = region_title(m, units[0].cell)
    assert title.startswith("plain in ") and title.endswith(f"{m.grid.label(units[0].cell)}")
    scen.factions.append(Faction(9, "Latecomers"))
    with pytest.raises(ValueError, match="faction 9 .* has no starting region"):
        RS.initial_state(scen)


def test_validate_names_what_would_stop_the_start():
    from engine.validation import validate_scenario

    m = conquest_map(4, seed=3)
    scen = Scenario("atlantis", "t", m, RS.default_catalogs(), RS.default_options(),
                    [Faction(n, f"F{n}", f"f{n}@example.org") for n in (1, 2, 3, 4)], 3)
    assert validate_scenario(scen, RS) == []
    m.set_terrain([0], "lava")
    scen.factions[0].attrs["start"] = "(0,0)"
    scen.factions[1].attrs["start"] = "(0,0)"
    ocean = m.grid.label(int(np.flatnonzero(m.terrain == m.terrains.index("ocean"))[0]))
    scen.factions[2].attrs["start"] = ocean
    said = [p.message for p in validate_scenario(scen, RS)]
    assert "terrain 'lava' of the map is not in the terrains catalog" in said
    assert "faction 2 starts in the region of faction 1, (0,0)" in said
    assert f"faction 3 (F3) starts at sea, {ocean}" in said


# ---- rule functions (no turn needed) -----------------------------------------------------------

def test_the_books_rider_example():
    """One man with a horse, sword and chain mail: the horse carries 20, man and gear weigh
    12, so he rides with 4 points; north into a plain (1) then northeast into a forest (2)
    leaves one to spare."""
    from engine.rulesets.atlantis import rules

    items, terrains = by("items"), by("terrains")
    rider = rules.load(1, {"horse": 1, "sword": 1, "chain armor": 1}, items)
    assert (rider.ride_capacity, rider.people + rider.goods) == (20, 12)
    assert rider.can_ride and rider.points == 4
    assert rider.points - rules.entry_cost(terrains["plain"]) - rules.entry_cost(terrains["forest"]) == 1
    assert rules.entry_cost(terrains["ocean"]) is None
    walker = rules.load(1, {"sword": 1, "chain armor": 1}, items)
    assert walker.points == 2  # a man carries 5: two items of weight 1
    stone = rules.load(1, {"stone": 1}, items)
    assert stone.points == 0  # 50 stone, a man carries 5
    assert rules.load(2, {"stone": 1, "horse": 2}, items).points == 2  # men and horses carry 50
    assert rules.load(1, {"stone": 1, "horse": 2}, items).points == 0  # 45 < 50
    assert rules.load(1, {"stone": 1, "horse": 3}, items).points == 4  # horses carry man and stone
    # the book's test is by weight only: a horse (20) carries two men (20) but not three
    assert rules.load(2, {"horse": 1}, items).points == 4
    assert rules.load(3, {"horse": 1}, items).points == 2


def test_combat_readiness_and_the_odds_table():
    from fractions import Fraction

    from engine.rulesets.atlantis import rules

    assert not rules.combat_ready({"combat": 0}, {"sword": 5})  # a sword alone is not enough
    assert rules.combat_ready({"combat": 1}, {})
    assert not rules.combat_ready({"longbow": 2}, {})
    assert rules.combat_ready({"longbow": 2}, {"longbow": 1})
    # 1:1 50%, 2:1 66%, 4:1 80%, 8:1 88%; 1:2 33%
    assert [rules.hit_chance(a, 0) for a in (0, 1, 2, 3)] == [
        Fraction(1, 2), Fraction(2, 3), Fraction(4, 5), Fraction(8, 9)]
    assert rules.hit_chance(0, 1) == Fraction(1, 3)
    assert rules.hit_chance(1, 2) == rules.hit_chance(3, 4)  # only the difference counts


def test_study_teaching_and_splitting():
    from engine.rulesets.atlantis import rules

    assert rules.study_days(1) == 30 and rules.study_days(5, 1) == 60  # up to twice as fast
    assert rules.study_days(20, 1) == 45  # the book: 1 1/2 months each
    assert rules.study_days(10, 1) == 60 and rules.study_days(30, 2) == 50
    assert rules.split_days(90, 3, 1) == (60, 30)
    kept, going = rules.split_days(100, 3, 2)
    assert kept + going == 100 and (kept, going) == (34, 66)  # no days lost


def test_production_and_work():
    from engine.rulesets.atlantis import rules

    items = by("items")
    # 5 longbows: a 5-man unit of skill 1 or a 1-man unit of skill 5
    assert rules.production(5, 1, items["longbow"]) == rules.production(1, 5, items["longbow"]) == 5
    assert rules.production(5, 1, items["longbow"], material_left=3) == 3  # one wood a bow
    assert rules.production(4, 2, items["plate armor"]) == 0  # needs skill 3
    assert rules.production(4, 5, items["plate armor"]) == 4  # one a man
    assert rules.production(4, 5, items["plate armor"], material_left=7) == 2  # 3 iron each
    assert rules.production(3, 2, items["iron"]) == 6
    assert rules.work_done(3, 2) == 6 and rules.entertainment_wanted(2, 2) == 80
