"""Tiled TMJ/TMX: round trips, the cell layout Tiled uses, hand-written foreign files, damage."""

from __future__ import annotations

import base64
import json
import math
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mapio_fixtures import GRID_IDS, GRIDS, sample_map

from engine.map import new_map
from engine.mapfile import MapFileError
from engine.mapio import export_map, import_map
from engine.mapio.tiled import to_tiled

DATA = Path(__file__).parent / "data" / "maps"


@pytest.mark.parametrize("fmt", ["tmj", "tmx"])
@pytest.mark.parametrize("kind,opts", GRIDS, ids=GRID_IDS)
def test_round_trip(tmp_path, fmt, kind, opts):
    m = sample_map(kind, **opts)
    path = export_map(m, tmp_path / f"map.{fmt}")
    assert import_map(path).to_dict() == m.to_dict()


@pytest.mark.parametrize("fmt", ["tmj", "tmx"])
@pytest.mark.parametrize("layer_format", ["csv", "base64", "zlib", "gzip"])
def test_round_trip_layer_encodings(tmp_path, fmt, layer_format):
    m = sample_map("hex", orientation="pointy")
    path = export_map(m, tmp_path / f"map.{fmt}", layer_format=layer_format)
    text = path.read_text()
    if layer_format != "csv":
        assert "base64" in text
    assert import_map(path).to_dict() == m.to_dict()


def tiled_tile_centre(doc, x, y):
    """Tile centre in pixels, written from Tiled's HexagonalRenderer::tileToScreenCoords."""
    tw, th, side = doc["tilewidth"], doc["tileheight"], doc.get("hexsidelength", 0)
    if doc["orientation"] == "orthogonal":
        return x * tw + tw / 2, y * th + th / 2
    odd = doc["staggerindex"] == "odd"
    if doc["staggeraxis"] == "x":
        col_w = (tw - side) / 2 + side
        py = y * th + (th / 2 if (x % 2 == 1) == odd else 0)
        return x * col_w + tw / 2, py + th / 2
    row_h = (th - side) / 2 + side
    px = x * tw + (tw / 2 if (y % 2 == 1) == odd else 0)
    return px + tw / 2, y * row_h + th / 2


@pytest.mark.parametrize("kind,opts", GRIDS[:3], ids=GRID_IDS[:3])
def test_tiled_tile_x_y_is_the_engine_col_row(kind, opts):
    """Tiled's tile (x, y) must be drawn where the engine's cell (col, row) is."""
    m = new_map(kind, 7, 5, **opts)
    doc = to_tiled(m)
    g = m.grid
    for cell in range(len(g)):
        x, y = cell % g.width, cell // g.width
        tx, ty = tiled_tile_centre(doc, x, y)
        cx, cy = g.center(cell)
        # the pixel scale is uniform per axis: dividing gives the same factor for every cell
        sx = tx / cx
        sy = ty / cy
        assert sx == pytest.approx(tiled_tile_centre(doc, 0, 0)[0] / g.center(0)[0])
        assert sy == pytest.approx(tiled_tile_centre(doc, 0, 0)[1] / g.center(0)[1])
    if kind == "hex":
        assert doc["staggeraxis"] == ("x" if opts["orientation"] == "flat" else "y")
        assert doc["staggerindex"] == "odd"
        # regular hexes: flat side is half the tile width (flat) / height (pointy)
        long_side = doc["tilewidth"] if opts["orientation"] == "flat" else doc["tileheight"]
        assert doc["hexsidelength"] * 2 == long_side
        short = doc["tileheight"] if opts["orientation"] == "flat" else doc["tilewidth"]
        assert short == round(long_side * math.sqrt(3) / 2)


def test_tileset_and_layers_follow_the_documented_layout(tmp_path):
    m = sample_map("hex")
    doc = json.loads(export_map(m, tmp_path / "m.tmj").read_text())
    ts = doc["tilesets"][0]
    names = [next(p["value"] for p in t["properties"] if p["name"] == "name") for t in ts["tiles"]]
    assert names == m.terrains
    layers = {lay["name"]: lay for lay in doc["layers"]}
    assert set(layers) == {"terrain", "areas", "links", "sites", "labels"}
    assert layers["terrain"]["data"] == (m.terrain + 1).tolist()
    turia = next(o for o in layers["sites"]["objects"] if o["name"] == "Turia")
    assert turia["point"] and turia["type"] == "city"
    props = {p["name"]: p for p in turia["properties"]}
    assert props["cell"]["value"] == 10 and props["population"] == {"name": "population", "type": "int", "value": 800}
    assert props["tags@json"]["value"] == '["port","walls"]'
    rivers = [o for o in layers["links"]["objects"] if o["type"] == "river"]
    assert sum(len(o["polyline"]) - 1 for o in rivers) == len(m.links["river"])
    north = next(o for o in layers["areas"]["objects"] if o["name"] == "North")
    assert {"name": "cells", "type": "string", "value": "0-2,8-9"} in north["properties"]
    assert len(north["polygon"]) >= 6


def test_tileset_image_is_written_next_to_the_map(tmp_path):
    m = sample_map("hex")
    export_map(m, tmp_path / "m.tmx", tileset_image=True)
    png = (tmp_path / "m.terrain.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert 'source="m.terrain.png"' in (tmp_path / "m.tmx").read_text()
    assert import_map(tmp_path / "m.tmx").to_dict() == m.to_dict()


@pytest.mark.parametrize("name,kind,opts", [
    ("tiled182_hex_flat.json", "hex", {"orientation": "flat"}),
    ("tiled182_hex_pointy.tmx", "hex", {"orientation": "pointy"}),
    ("tiled182_square.json", "square", {}),
])
def test_files_resaved_by_tiled_itself(name, kind, opts):
    """Our exports, opened and saved again by Tiled 1.8.2 (`tiled --export-map`), read back equal."""
    assert import_map(DATA / name).to_dict() == sample_map(kind, **opts).to_dict()


def test_foreign_hex_tmx_written_by_hand():
    m = import_map(DATA / "foreign_hex_flat.tmx")
    assert m.kind == "hex" and m.grid.orientation == "flat" and (m.grid.width, m.grid.height) == (4, 3)
    assert m.terrain_names() == ["ocean", "plain", "plain", "forest",
                                 "ocean", "plain", "atlantis:3", "forest",
                                 "ocean", "ocean", "ocean", "plain"]  # last tile is flipped: flags ignored
    (site,) = m.sites.values()
    assert (site.name, site.kind, site.cell, site.attrs) == ("Turia", "city", 6, {"population": 800})
    assert m.links["river"] == {(0, 4), (4, 8)}  # a two-point polyline snapped and filled in
    assert m.areas["Westmark"].cells == {0, 1, 4, 5, 8, 9} and m.areas["Westmark"].kind == "realm"
    assert m.labels[0].text == "Sea of Storms" and m.labels[0].size == 2.0
    assert m.meta == {"author": "a GM", "turn": 1, "source": "tiled"}


def test_foreign_square_tmj_with_external_tsx_and_group():
    m = import_map(DATA / "foreign_square.tmj")
    assert m.kind == "square"
    assert m.terrain_names() == ["plains", "plains", "forest", "void",
                                 "sea", "plains", "forest", "void",
                                 "sea", "sea", "plains", "mountains"]
    assert m.areas["Lowlands"].cells == {4, 5, 8, 9}
    assert m.areas["Lowlands"].attrs == {"owner": "Kingdom of Ur"}
    (capital,) = m.sites.values()
    assert capital.name == "Capital" and capital.cell == 4


def test_objects_moved_in_tiled_take_their_new_place(tmp_path):
    """A GM who drags a city, a label or a river vertex in Tiled gets that edit back."""
    m = sample_map("hex")
    doc = to_tiled(m)
    layers = {lay["name"]: lay for lay in doc["layers"]}
    turia = next(o for o in layers["sites"]["objects"] if o["name"] == "Turia")
    turia["x"], turia["y"] = tiled_tile_centre(doc, 4, 3)  # drag to cell (4,3)
    label = layers["labels"]["objects"][0]
    label["x"] += 32  # two hex columns' worth of pixels to the right
    road = next(o for o in layers["links"]["objects"] if o["type"] == "road")
    start = road["polyline"][0]
    ex, ey = tiled_tile_centre(doc, 3, 0)
    road["polyline"] = [start, {"x": ex - road["x"], "y": ey - road["y"]}]  # now runs 1 -> 3 along row 0
    p = tmp_path / "edited.tmj"
    p.write_text(json.dumps(doc))
    back = import_map(p)
    assert next(s for s in back.sites.values() if s.name == "Turia").cell == 3 * 8 + 4
    assert back.labels[0].x == pytest.approx(m.labels[0].x + 2.0)
    assert back.links["road"] == {(1, 2), (2, 3)}
    assert back.links["river"] == m.links["river"]  # untouched objects keep their recorded cells


def test_foreign_hex_tile_proportions(tmp_path):
    """Objects in a hex map with other tile proportions still land on the right cells."""
    doc = to_tiled(new_map("hex", 6, 5, orientation="pointy"))
    doc["properties"] = []  # a foreign file: positions, not recorded cells, place things
    doc.update(tilewidth=40, tileheight=50, hexsidelength=30)
    x, y = tiled_tile_centre(doc, 3, 3)
    doc["layers"][3]["objects"] = [{"id": 1, "name": "Far", "x": x, "y": y, "point": True}]
    p = tmp_path / "odd.tmj"
    p.write_text(json.dumps(doc))
    (site,) = import_map(p).sites.values()
    assert site.cell == 3 * 6 + 3


def _tmj(tmp_path, mutate, name="bad.tmj"):
    doc = to_tiled(sample_map("square"))
    mutate(doc)
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def _set_layer(doc, **kw):
    doc["layers"][0].update(kw)


BAD_DOCS = {
    "isometric": (lambda d: d.update(orientation="isometric", properties=[]), "orientation 'isometric'"),
    "stagger even": (lambda d: d.update(orientation="hexagonal", staggerindex="even", staggeraxis="x",
                                        properties=[]), "stagger index 'even'"),
    "short layer": (lambda d: _set_layer(d, data=[1, 2, 3]), "3 tiles for a 48-cell map"),
    "unknown gid": (lambda d: _set_layer(d, data=[99] * 48), "tile 99, which is in no tileset"),
    "bad base64": (lambda d: _set_layer(d, data="!!!", encoding="base64"), "damaged tile data"),
    "bad zlib": (lambda d: _set_layer(d, data=base64.b64encode(b"nonsense").decode(), encoding="base64",
                                      compression="zlib"), "damaged tile data"),
    "zstd": (lambda d: _set_layer(d, data=base64.b64encode(zlib.compress(b"\0" * 192)).decode(),
                                  encoding="base64", compression="zstd"), "zstd compression"),
    "no tile layer": (lambda d: d.update(layers=d["layers"][1:]), "no tile layer"),
    "size": (lambda d: d.update(width=-3), "not a positive whole number"),
    "area cells": (lambda d: d["layers"][1]["objects"][0]["properties"][0].update(value="0-999"),
                   "outside the map's 48 cells"),
    "river jump": (lambda d: (d["layers"][2]["objects"][0]["properties"][0].update(value="0,47"),
                              d["layers"][2]["objects"][0].pop("polyline")), "not neighbours"),
    "site cell": (lambda d: next(p for p in d["layers"][3]["objects"][0]["properties"] if p["name"] == "cell")
                  .update(value=4800), "outside the map"),
    "int prop": (lambda d: next(p for p in d["layers"][3]["objects"][0]["properties"] if p["name"] == "population")
                 .update(value="many"), "'population' value 'many' is not a valid int"),
    "grid json": (lambda d: next(p for p in d["properties"] if p["name"] == "grid").update(value="{oops"),
                  "'grid' is not valid JSON"),
    "infinite": (lambda d: d.update(infinite=True), "infinite Tiled maps are not supported"),
    "missing tsx": (lambda d: d.update(tilesets=[{"firstgid": 1, "source": "nowhere.tsx"}]),
                    "external tileset 'nowhere.tsx' cannot be read"),
    "not a map": (lambda d: d.update(type="tileset"), "not a Tiled map"),
}


@pytest.mark.parametrize("case", sorted(BAD_DOCS))
def test_damaged_tmj_names_file_and_problem(tmp_path, case):
    mutate, message = BAD_DOCS[case]
    p = _tmj(tmp_path, mutate)
    with pytest.raises(MapFileError) as e:
        import_map(p)
    assert str(e.value).startswith(str(p) + ": ")
    assert message in str(e.value)
    assert e.value.__cause__ is None and e.value.__suppress_context__


def test_infinite_sample_file_is_refused():
    with pytest.raises(MapFileError, match="infinite.tmj: infinite Tiled maps are not supported"):
        import_map(DATA / "infinite.tmj")


@pytest.mark.parametrize("name,content,message", [
    ("empty.tmx", b"", "the file is empty"),
    ("trunc.tmx", b'<?xml version="1.0"?><map orientation="orthogonal" width="3"', "not well-formed XML"),
    ("html.tmx", b"<html><body>hello</body></html>", "not a Tiled map (root element <html>)"),
    ("bomb.tmx", b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaa">]><map>&a;</map>', "DTD"),
    ("trunc.tmj", b'{"type": "map", "layers": [', "not valid JSON"),
    ("binary.tmj", bytes(range(256)) * 4, "not valid JSON"),
    ("list.tmj", b"[1, 2, 3]", "not a Tiled map"),
    ("pic.png", b"\x89PNG\r\n\x1a\n....", "PNG is an export-only format"),
    ("notes.txt", b"hello", "unknown map format"),
    ("map.svg", b"<svg/>", "export-only"),
])
def test_foreign_and_broken_files(tmp_path, name, content, message):
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(MapFileError) as e:
        import_map(p)
    assert str(p) in str(e.value) and message in str(e.value)


def test_damaged_encoding_declaration_is_a_map_file_error(tmp_path):
    # hypothesis found it: one flipped byte turns UTF-8 into an unknown codec name
    good = tmp_path / "m.tmx"
    export_map(sample_map("hex"), good)
    bad = tmp_path / "bad.tmx"
    bad.write_bytes(good.read_bytes().replace(b'encoding="UTF-8"', b'encoding="TTF-8"', 1))
    assert b"TTF-8" in bad.read_bytes()
    with pytest.raises(MapFileError, match="encoding") as e:
        import_map(bad)
    assert str(bad) in str(e.value)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(MapFileError, match="cannot read"):
        import_map(tmp_path / "nope.tmx")
    with pytest.raises(MapFileError, match="is a folder"):
        import_map(tmp_path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damage_gives_map_file_error_or_a_whole_map(tmp_path_factory, data):
    """Flip, cut or insert bytes anywhere: the reader returns a valid map or MapFileError, nothing else."""
    fmt = data.draw(st.sampled_from(["tmj", "tmx"]))
    folder = tmp_path_factory.mktemp("fuzz")
    good = export_map(sample_map("hex"), folder / f"m.{fmt}").read_bytes()
    pos = data.draw(st.integers(0, len(good) - 1))
    how = data.draw(st.sampled_from(["cut", "flip", "insert"]))
    if how == "cut":
        bad = good[:pos]
    elif how == "flip":
        bad = good[:pos] + bytes([good[pos] ^ data.draw(st.integers(1, 255))]) + good[pos + 1:]
    else:
        bad = good[:pos] + data.draw(st.binary(min_size=1, max_size=8)) + good[pos:]
    p = folder / f"bad.{fmt}"
    p.write_bytes(bad)
    try:
        m = import_map(p)
    except MapFileError as e:
        assert str(p) in str(e)
        return
    assert m.terrain.shape == (len(m.grid),)
    assert int(m.terrain.max()) < len(m.terrains)
    assert all(m.grid.are_neighbours(a, b) for layer in m.links.values() for a, b in layer)
    assert all(0 <= s.cell < len(m.grid) for s in m.sites.values())
    assert np.all(np.isin(sorted(c for a in m.areas.values() for c in a.cells), np.arange(len(m.grid))))
