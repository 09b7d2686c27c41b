"""The map generator: determinism, sane proportions, rivers, cities, and the Atlantis layout."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from engine.mapgen import generate

GENERIC = {"ocean", "plains", "forest", "hills", "mountains", "desert", "swamp", "tundra", "jungle"}
KOK = {"cultivated", "plains", "grassland", "desert", "steppes", "forest", "hills", "mountains", "marsh",
       "swamps", "town", "city", "metropolis", "sea"}
ATLANTIS = {"ocean", "plain", "forest", "mountain", "swamp"}


@pytest.mark.parametrize("kind,style", [("hex", "continents"), ("square", "islands"), ("regions", "continents"),
                                        ("atlantis", None)])
def test_same_seed_same_map_and_different_seeds_differ(kind, style):
    params = {"style": style} if style else {}
    a = generate(kind, 48, 36, 7, **params).to_dict()
    b = generate(kind, 48, 36, 7, **params).to_dict()
    c = generate(kind, 48, 36, 8, **params).to_dict()
    assert a == b
    assert a["terrain"] != c["terrain"]
    assert a["meta"]["generator"]["seed"] == 7


def test_string_seeds_work():
    assert generate("hex", 20, 20, "game-42").to_dict() == generate("hex", 20, 20, "game-42").to_dict()


@pytest.mark.parametrize("style,sea", [("continents", 0.58), ("islands", 0.72)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_proportions_are_sane(style, sea, seed):
    m = generate("hex", 80, 60, seed, style=style)
    counts = Counter(m.terrain_names())
    n = len(m.grid)
    assert set(counts) <= GENERIC
    assert counts["ocean"] / n == pytest.approx(sea, abs=0.02)
    land = n - counts["ocean"]
    assert 0.03 < counts["mountains"] / land < 0.15
    assert counts["forest"] > 0 and counts["plains"] > 0
    assert max(counts[t] for t in GENERIC - {"ocean"}) / land < 0.6  # no single terrain swallows the land


def test_continents_are_separate_and_islands_many():
    """Several seeds: continents give two or more big landmasses on most maps, islands many small."""
    big_cont, big_isl = [], []
    for seed in range(1, 7):
        for style, out in (("continents", big_cont), ("islands", big_isl)):
            m = generate("hex", 80, 60, seed, style=style)
            land = m.terrain != m.terrains.index("ocean")
            comps = [len(c) for c in _land_components(m, land)]
            out.append((len([c for c in comps if c >= 50]), len(comps)))
    assert sum(n >= 2 for n, _ in big_cont) >= 4
    assert min(total for _, total in big_isl) >= 6


def test_sea_level_param_and_edges_are_water():
    m = generate("square", 60, 60, 4, sea_level=0.3)
    water = m.terrain == m.terrains.index("ocean")
    assert water.mean() == pytest.approx(0.3, abs=0.02)
    with pytest.raises(ValueError, match="sea_level"):
        generate("square", 20, 20, 1, sea_level=1.5)


def test_rivers_run_downhill_to_the_sea_and_cities_stand_on_land():
    m = generate("hex", 100, 70, 5, rivers=12, cities=8)
    water = {int(c) for c in m.cells_with("ocean")}
    rivers = m.links["river"]
    assert rivers
    assert all(m.grid.are_neighbours(a, b) for a, b in rivers | m.links["road"])
    ends = Counter(c for ab in rivers for c in ab)
    assert any(c in water for c in ends)  # some river reaches the sea
    assert all(c not in water for ab in m.links["road"] for c in ab)
    assert 2 <= len(m.sites) <= 8
    assert all(s.cell not in water and s.name for s in m.sites.values())
    assert len({s.name for s in m.sites.values()}) == len(m.sites)


def test_kok_terrain_names():
    m = generate("square", 50, 50, 3, ruleset="kok", cities=6)
    names = set(m.terrain_names())
    assert names <= KOK and "sea" in names and {"town", "city", "metropolis"} & names
    for s in m.sites.values():  # KoK cities are terrain too, with cultivated land around
        assert m.terrain_at(s.cell) == s.kind
    assert "cultivated" in names


def test_regions_map_has_provinces_and_seas_covering_every_cell():
    m = generate("regions", 40, 30, 6)
    owner = Counter(c for a in m.areas.values() for c in a.cells)
    assert set(owner) == set(range(len(m.grid))) and set(owner.values()) == {1}
    kinds = Counter(a.kind for a in m.areas.values())
    assert kinds["province"] > 5 and kinds["sea"] >= 1
    assert len(m.regions()) == len(m.areas)


def _land_components(m, land):
    seen, comps = set(), []
    for c in np.flatnonzero(land):
        if c in seen:
            continue
        comp, stack = set(), [int(c)]
        while stack:
            x = stack.pop()
            if x in comp:
                continue
            comp.add(x)
            stack.extend(n for n in m.grid.neighbours(x) if land[n] and n not in comp)
        seen |= comp
        comps.append(comp)
    return comps


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_atlantis_layout(seed):
    m = generate("atlantis", 40, 32, seed)
    assert m.kind == "hex" and m.grid.orientation == "flat" and m.meta["notation"] == "atlantis"
    assert m.grid.label(0) == "(0,0)" and m.grid.label(41) == "(1,3)"
    assert set(m.terrain_names()) <= ATLANTIS
    land = m.terrain != m.terrains.index("ocean")
    islands = [a for a in m.areas.values() if a.kind == "island"]
    assert len(islands) == 8
    comps = _land_components(m, land)
    centre = max(comps, key=len)
    for isl in islands:
        assert len(isl.cells) == 8 and all(land[c] for c in isl.cells)
        assert isl.cells in comps  # a whole island of its own: ocean all around it
        assert not isl.cells & centre
    assert len(centre) > 4 * 8  # the central island is the large one
    assert len(comps) == 9
    starts = [s for s in m.sites.values() if s.kind == "start"]
    assert sorted(s.attrs["player"] for s in starts) == list(range(1, 9))
    assert all(m.terrain_at(s.cell) == "plain" for s in starts)
    # sailing from a starting island towards the centre reaches it within a few regions
    for isl in islands:
        gap = min(m.grid.distance(a, b) for a in isl.cells for b in centre)
        assert 2 <= gap <= 8


def test_atlantis_players_and_too_small_maps():
    m = generate("atlantis", 30, 26, 1, players=4)
    assert len([a for a in m.areas.values() if a.kind == "island"]) == 4
    with pytest.raises(ValueError, match="atlantis map for 8 players needs at least") as e:
        generate("atlantis", 12, 12, 1)
    w, h = (int(v) for v in str(e.value).split("at least about ")[1].split(" ")[0].split("x"))
    for seed in (1, 2, 3):  # the size the message suggests does work
        assert len([a for a in generate("atlantis", w, h, seed).areas.values() if a.kind == "island"]) == 8


def test_unknown_style_and_kind():
    with pytest.raises(ValueError, match="unknown map style"):
        generate("hex", 10, 10, 1, style="craters")
    with pytest.raises(ValueError, match="unknown map kind"):
        generate("octagon", 10, 10, 1)


def test_large_map_generates():
    # Generation time of 500x500 is measured in benchmarks/test_bench_maps_and_rules.py.
    m = generate("hex", 200, 150, 1)
    assert len(m.grid) == 30_000
