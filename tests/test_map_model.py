"""engine.map (terrain, links, sites, areas, regions) and engine.mapfile (damaged files)."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest
import shapely

from engine.map import GameMap, Label, new_map
from engine.mapfile import MapFileError, load_map, save_map
from engine.topology import HexGrid, RegionGraph, SquareGrid


def square(w=4, h=3, **kw) -> GameMap:
    return new_map("square", w, h, **kw)


# ---- terrain ------------------------------------------------------------------------------

def test_paint_terrain_returns_undo_and_notifies():
    m = square()
    seen = []
    m.subscribe(lambda layer, cells: seen.append((layer, sorted(cells))))
    old = m.set_terrain([0, 1, 2], "forest")
    assert old == {0: "plains", 1: "plains", 2: "plains"}
    assert m.set_terrain([1], "forest") == {}  # nothing changed, nobody told
    assert seen == [("terrain", [0, 1, 2])]
    assert [m.terrain_at(c) for c in range(4)] == ["forest"] * 3 + ["plains"]
    assert m.cells_with("forest").tolist() == [0, 1, 2]
    assert m.cells_with("swamp").tolist() == []
    m.set_terrain([0, 3], ["hills", "sea"])
    assert m.terrain_names()[:4] == ["hills", "forest", "forest", "sea"]
    assert m.terrains == ["plains", "forest", "hills", "sea"]
    m.set_terrain(old.keys(), old.values())  # undo
    assert m.terrain_names()[:3] == ["plains"] * 3


def test_terrain_list_must_match_cells():
    with pytest.raises(ValueError):
        square().set_terrain([0, 1], ["hills"])


def test_unsubscribe():
    m = square()
    seen = []

    def fn(layer, cells):
        seen.append(layer)
    m.subscribe(fn)
    m.unsubscribe(fn)
    m.unsubscribe(fn)  # twice is harmless
    m.set_terrain([0], "sea")
    assert seen == []


# ---- links and sites -------------------------------------------------------------------

def test_links_are_undirected_and_need_neighbours():
    m = square()
    assert m.add_link("road", 1, 0) is True
    assert m.add_link("road", 0, 1) is False
    assert m.has_link("road", 0, 1) and m.has_link("road", 1, 0)
    assert not m.has_link("river", 0, 1)
    with pytest.raises(ValueError, match="non-neighbouring cells 0 and 5"):
        m.add_link("road", 0, 5)
    m.add_link("canal", 4, 5)  # new layers appear on use
    assert m.links["canal"] == {(4, 5)}
    assert m.remove_link("road", 1, 0) is True
    assert m.remove_link("road", 1, 0) is False
    assert m.remove_link("nothing", 1, 0) is False


def test_sites():
    m = square()
    a = m.add_site(5, "city", "Ur", pop=3)
    b = m.add_site(5, "port", "Ur harbour")
    c = m.add_site(7, site_id=10)
    assert (a.id, b.id, c.id) == (1, 2, 10)
    assert m.add_site(0).id == 11
    assert [s.name for s in m.sites_at(5)] == ["Ur", "Ur harbour"]
    assert a.attrs == {"pop": 3}
    assert m.move_site(1, 6) == 5
    assert [s.id for s in m.sites_at(6)] == [1]
    assert m.remove_site(2).name == "Ur harbour"
    with pytest.raises(KeyError):
        m.remove_site(2)


# ---- areas and regions -------------------------------------------------------------------

def three_realms() -> GameMap:
    """4x3 square grid: A = column 0, B = columns 1-2, C = column 3; row 2 of C unpainted."""
    m = new_map("regions", 4, 3)
    m.add_area("A", cells=[0, 4, 8])
    m.add_area("B", cells=[1, 2, 5, 6, 9, 10])
    m.add_area("C", "sea", cells=[3, 7])
    return m


def test_paint_area_moves_cells_and_returns_owners():
    m = three_realms()
    assert m.paint_area("A", [1, 0, 11]) == {1: "B", 11: None}
    assert m.areas["A"].cells == {0, 1, 4, 8, 11}
    assert 1 not in m.areas["B"].cells
    assert m.area_of(11).name == "A" and m.area_of(3).name == "C"
    assert m.unpaint_area([11, 3]) == {11: "A", 3: "C"}
    assert m.area_of(11) is None
    with pytest.raises(ValueError, match="exists already"):
        m.add_area("A")
    assert m.remove_area("C").kind == "sea"


def test_regions_adjacency_from_painted_areas():
    m = three_realms()
    g = m.regions()
    assert isinstance(g, RegionGraph) and g.names == ["A", "B", "C"]
    assert [g.names[a] + g.names[b] for a, b in g.edges()] == ["AB", "BC"]
    assert m.board() is g
    assert m.regions() is g  # cached until areas change
    m.paint_area("C", [11])
    assert m.regions() is not g


def test_regions_diagonal_touch_counts_only_with_8_neighbours():
    for n, expected in ((4, []), (8, ["AB"])):
        m = GameMap(SquareGrid(2, 2, n), kind="regions")
        m.add_area("A", cells=[0])
        m.add_area("B", cells=[3])
        g = m.regions()
        assert [g.names[a] + g.names[b] for a, b in g.edges()] == expected


def test_gm_overrides_add_and_remove_adjacency():
    m = three_realms()
    m.set_adjacent("A", "C", True)      # a strait across B
    m.set_adjacent("B", "A", False)     # mountains between
    g = m.regions()
    assert [g.names[a] + g.names[b] for a, b in g.edges()] == ["AC", "BC"]
    assert m.adjacency_added == {("A", "C")} and m.adjacency_removed == {("A", "B")}
    m.set_adjacent("A", "B", True)      # back to nature: no override kept
    m.set_adjacent("C", "A", False)
    assert m.adjacency_added == set() and m.adjacency_removed == set()
    g = m.regions()
    assert [g.names[a] + g.names[b] for a, b in g.edges()] == ["AB", "BC"]


def test_region_positions_are_area_centres_or_label_points():
    m = three_realms()
    m.remove_area("C")
    m.add_area("C", "sea", cells=[3, 7], label_x=9.0, label_y=9.0)
    g = m.regions()
    assert g.center(0) == pytest.approx((0.5, 1.5))
    assert g.center(2) == (9.0, 9.0)


def test_area_outline_and_label_point():
    m = three_realms()
    outline = m.area_outline("B")
    assert outline.area == pytest.approx(6.0)
    assert outline.bounds == pytest.approx((1.0, 0.0, 3.0, 3.0))
    x, y = m.area_label_point("B")
    assert outline.contains(shapely.Point(x, y))
    m.add_area("Empty")
    assert m.area_outline("Empty").is_empty and m.area_label_point("Empty") == (0.0, 0.0)


def test_region_map_cannot_sit_on_a_region_graph():
    with pytest.raises(TypeError):
        GameMap(RegionGraph(["A"]))


def test_new_map_kinds():
    assert new_map("hex", 3, 2, orientation="pointy").grid.orientation == "pointy"
    assert new_map("regions", 3, 2).kind == "regions"
    with pytest.raises(ValueError, match="unknown map kind"):
        new_map("octagon", 2, 2)


# ---- persistence ---------------------------------------------------------------------------

def rich_map() -> GameMap:
    m = GameMap(HexGrid(6, 5, "flat", wrap_x=True), "sea", name="Test Isles")
    m.set_terrain(range(7, 14), "plains")
    m.set_terrain([8, 9], "mountains")
    m.cell_attrs[8] = {"gold": 3}
    m.add_link("road", 7, 8)
    m.add_link("river", 8, 9)
    m.add_site(8, "city", "Ur", pop=2)
    m.add_area("Isle", "island", cells=[7, 8, 9], home=1)
    m.labels.append(Label("Isles", 3.0, 4.5, 2.0))
    m.meta["author"] = "GM"
    return m


def test_to_dict_from_dict_round_trip():
    m = rich_map()
    d = m.to_dict()
    n = GameMap.from_dict(json.loads(json.dumps(d)))
    assert n.to_dict() == d
    assert np.array_equal(n.terrain, m.terrain) and n.terrain.dtype == np.uint16
    assert n.sites[1].attrs == {"pop": 2} and n.areas["Isle"].attrs == {"home": 1}
    assert n.copy().to_dict() == d


def test_regions_map_round_trip_keeps_overrides():
    m = three_realms()
    m.set_adjacent("A", "C", True)
    n = GameMap.from_dict(json.loads(json.dumps(m.to_dict())))
    assert n.regions().edges() == m.regions().edges()


def test_newer_format_refused():
    d = square().to_dict()
    d["format"] = 99
    with pytest.raises(ValueError, match="newer"):
        GameMap.from_dict(d)


@pytest.mark.parametrize("suffix", [".rsmap", ".rsmap.gz"])
def test_save_load_round_trip(tmp_path, suffix):
    m = rich_map()
    p = tmp_path / f"isles{suffix}"
    save_map(m, p)
    assert load_map(p).to_dict() == m.to_dict()
    first = p.read_bytes()
    save_map(m, p)
    assert p.read_bytes() == first  # byte-identical: no time stamps in the gzip header
    assert sorted(x.name for x in tmp_path.iterdir()) == [p.name]  # no temp file left


def damaged_cases():
    good = square().to_dict()
    return {
        "truncated.rsmap": (json.dumps(good)[:40].encode(), r":1: not a Realmsmith map"),
        "latin1.rsmap": ('{"n": "Köln"}'.encode("latin-1"), "not UTF-8 text"),
        "list.rsmap": (b"[1, 2]", r"not a Realmsmith map \(no grid\)"),
        "grid_text.rsmap": (json.dumps({**good, "grid": "x"}).encode(), r"\(no grid\)"),
        "deep.rsmap": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        "kind.rsmap": (json.dumps({**good, "grid": {"kind": "oct"}}).encode(),
                       "unknown topology kind 'oct'"),
        "count.rsmap": (json.dumps({**good, "terrain": [0, 0]}).encode(),
                        "2 terrain values for 12 cells"),
        "palette.rsmap": (json.dumps({**good, "terrain": [5] * 12}).encode(),
                          "terrain missing from its palette"),
        "negative.rsmap": (json.dumps({**good, "terrain": [-1] * 12}).encode(), "OverflowError"),
        "attrs.rsmap": (json.dumps({**good, "cell_attrs": []}).encode(), "AttributeError"),
        "site.rsmap": (json.dumps({**good, "sites": [{"id": 1, "cell": 99}]}).encode(),
                       "site 1 is on cell 99, outside the 12-cell grid"),
        "area.rsmap": (json.dumps({**good, "areas": [{"name": "A", "cells": [-1]}]}).encode(),
                       "area 'A' has cell -1"),
        "link.rsmap": (json.dumps({**good, "links": {"road": [[0, 11]]}}).encode(),
                       "road link 0-11 does not join two neighbouring cells"),
        "huge.rsmap": (json.dumps({**good, "grid": {"kind": "square", "width": 10**6,
                                                    "height": 10**6}}).encode(),
                       "a grid of 1,000,000,000,000 cells"),
        "format.rsmap": (json.dumps({**good, "format": 2}).encode(), "newer than"),
        "broken.rsmap.gz": (gzip.compress(json.dumps(good).encode())[:30], "damaged gzip data"),
    }


@pytest.mark.parametrize("name", sorted(damaged_cases()))
def test_damaged_files_give_map_file_error_naming_the_file(tmp_path, name):
    data, pattern = damaged_cases()[name]
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(MapFileError, match=pattern) as e:
        load_map(p)
    assert str(e.value).startswith(str(p))


def test_missing_file(tmp_path):
    with pytest.raises(MapFileError, match="cannot read"):
        load_map(tmp_path / "nothing.rsmap")


def test_deleting_an_area_keeps_regions_working_and_undo_restores_edits():
    m = three_realms()
    m.set_adjacent("A", "C", True)
    m.remove_area("C")
    g = m.regions()
    assert g.names == ["A", "B"] and g.edges() == [(0, 1)]
    m.add_area("C", "sea", cells=[3, 7])  # undo of the delete
    g = m.regions()
    assert [g.names[a] + g.names[b] for a, b in g.edges()] == ["AB", "AC", "BC"]


def test_set_adjacent_with_unknown_area_changes_nothing():
    m = three_realms()
    with pytest.raises(KeyError, match="no area named 'Zed'"):
        m.set_adjacent("A", "Zed", True)
    assert m.adjacency_added == set()
    assert len(m.regions().edges()) == 2


def test_area_names_orders_cannot_tell_apart_are_refused():
    m = three_realms()
    for name in ("a", "b ", "C"):
        with pytest.raises(ValueError):
            m.add_area(name)
    m.add_area("North Sea")
    with pytest.raises(ValueError, match="'north_sea' is too like 'North Sea'"):
        m.add_area("north_sea")
