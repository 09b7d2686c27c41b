"""GeoJSON export/import and SVG export."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mapio_fixtures import GRID_IDS, GRIDS, sample_map

from engine.map import new_map
from engine.mapfile import MapFileError
from engine.mapgen import generate
from engine.mapio import export_map, import_map
from engine.mapio.svg import hash_colour, terrain_colour

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("per_cell", [True, False], ids=["per-cell", "merged"])
@pytest.mark.parametrize("kind,opts", GRIDS, ids=GRID_IDS)
def test_geojson_round_trip(tmp_path, kind, opts, per_cell):
    m = sample_map(kind, **opts)
    path = export_map(m, tmp_path / "m.geojson", per_cell=per_cell)
    assert import_map(path).to_dict() == m.to_dict()


def test_geojson_features(tmp_path):
    m = sample_map("hex")
    doc = json.loads(export_map(m, tmp_path / "m.geojson", per_cell=False).read_text())
    assert doc["type"] == "FeatureCollection"
    by_layer: dict[str, list] = {}
    for f in doc["features"]:
        by_layer.setdefault(f["properties"]["layer"], []).append(f)
    patches = {f["properties"]["terrain"]: shapely.from_geojson(json.dumps(f["geometry"]))
               for f in by_layer["terrain"]}
    assert set(patches) == {"ocean", "forest", "hills"}  # the unused palette entry has no patch
    hex_area = 3 * np.sqrt(3) / 2
    for t, geom in patches.items():
        assert geom.is_valid
        assert geom.area == pytest.approx(len(m.cells_with(t)) * hex_area, rel=1e-5)
    turia = next(f for f in by_layer["site"] if f["properties"]["name"] == "Turia")
    assert turia["geometry"]["coordinates"] == pytest.approx(list(m.grid.center(10)))
    assert turia["properties"]["attrs"]["tags"] == ["port", "walls"]
    north = next(f for f in by_layer["area"] if f["properties"]["name"] == "North")
    assert shapely.from_geojson(json.dumps(north["geometry"])).area == pytest.approx(5 * hex_area, rel=1e-5)
    assert sum(len(f["geometry"]["coordinates"]) - 1 for f in by_layer["link"]) == sum(
        len(v) for v in m.links.values())
    assert [f["properties"]["text"] for f in by_layer["label"]] == ["Mare Nostrum", "second\nline"]


def test_geojson_per_cell_default_for_small_maps(tmp_path):
    m = new_map("square", 5, 4)
    doc = json.loads(export_map(m, tmp_path / "m.geojson").read_text())
    cells = [f for f in doc["features"] if f["properties"]["layer"] == "cell"]
    assert len(cells) == 20 and cells[7]["properties"]["label"] == "2/1"
    assert cells[7]["geometry"]["coordinates"][0][0] == [2.0, 1.0]


def test_geojson_merged_big_map_round_trips(tmp_path):
    m = generate("hex", 120, 100, seed=3)
    export_map(m, tmp_path / "big.geojson")
    back = import_map(tmp_path / "big.geojson")
    assert np.array_equal(back.terrain, m.terrain)


@pytest.mark.parametrize("content,message", [
    (b'{"type": "FeatureCollection", "features": []}', "only GeoJSON written by Realmsmith"),
    (b'{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
    (b'{"type": "FeatureCollection", "realmsmith": {"grid": {"kind": "hex", "width": 2, "height": 2},'
     b' "terrains": ["sea"]}, "features": []}', "terrain features cover 0 of the map's 4 cells"),
    (b'{"type": "FeatureCollection", "realmsmith": {"grid": {"kind": "hex", "width": 2, "height": 2},'
     b' "terrains": ["sea"]}, "features": [{"type": "Feature", "properties": {"layer": "cell", "cell": 9,'
     b' "terrain": "sea"}}]}', "cell 9 is outside the map"),
    (b'{"type": "FeatureCollection", "realmsmith": {"grid": {"kind": "cube", "width": 2, "height": 2}}}',
     "unknown topology kind"),
])
def test_geojson_damage(tmp_path, content, message):
    p = tmp_path / "x.geojson"
    p.write_bytes(content)
    with pytest.raises(MapFileError) as e:
        import_map(p)
    assert str(p) in str(e.value) and message in str(e.value)


def test_json_extension_is_sniffed(tmp_path):
    m = sample_map("square")
    export_map(m, tmp_path / "a.json", "geojson")
    export_map(m, tmp_path / "b.json", "tmj")
    assert import_map(tmp_path / "a.json").to_dict() == m.to_dict()
    assert import_map(tmp_path / "b.json").to_dict() == m.to_dict()


# ---- SVG ---------------------------------------------------------------------------------------

def test_svg_content(tmp_path):
    m = sample_map("hex")
    root = ET.fromstring(export_map(m, tmp_path / "m.svg", grid=True, coords=True).read_bytes())
    xs, ys, w, h = map(float, root.get("viewBox").split())
    rings = np.array([m.grid.corners(c) for c in range(len(m.grid))]).reshape(-1, 2)
    assert xs == pytest.approx(rings[:, 0].min() - 0.5, abs=1e-3)
    assert xs + w == pytest.approx(rings[:, 0].max() + 0.5, abs=1e-3)
    assert ys + h == pytest.approx(rings[:, 1].max() + 0.5, abs=1e-3)
    terrain = {p.get("data-terrain"): p for p in root.find(f"{SVG}g[@id='terrain']")}
    assert set(terrain) == {"ocean", "forest", "hills"}
    assert terrain["forest"].get("fill") == "#3f7f3a"  # resources/palettes/default.json
    assert terrain["forest"].get("d").count("M") == len(m.cells_with("forest"))
    kinds = {p.get("data-kind") for p in root.find(f"{SVG}g[@id='links']")}
    assert kinds == {"river", "road", "canal"}
    assert len(root.find(f"{SVG}g[@id='sites']").findall(f"{SVG}circle")) == 3
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert 'Old <Keep> & "Co"' in texts and "Mare Nostrum" in texts and "North" in texts
    assert "(0,0)" in texts and "(7,11)" in texts  # Atlantis coordinates of the first and last cells
    assert root.find(f"{SVG}path[@id='grid']") is not None
    outlines = {p.get("data-area") for p in root.find(f"{SVG}g[@id='areas']")
                if p.tag == f"{SVG}path"}
    assert outlines == {"North", "Split"}  # the empty area has no outline


def test_unknown_terrain_gets_a_family_or_neutral_land_colour_never_a_random_one():
    from engine.palette import LAND, is_water

    assert terrain_colour("Forests") == "#3f7f3a"  # case and plural forgiven
    assert terrain_colour("land") == LAND and terrain_colour("sea") == "#4a7fb8"
    assert terrain_colour("Inland Sea") == terrain_colour("sea")  # by the words in it
    assert terrain_colour("Dark Forest") == terrain_colour("forest")
    odd = terrain_colour("glowing crystal")  # no known word: a shade of neutral land
    assert odd != hash_colour("glowing crystal") and odd == terrain_colour("Glowing Crystal")
    r, g, b = (int(odd[i:i + 2], 16) for i in (1, 3, 5))
    assert r >= g >= b and r - b < 90  # beige/grey, never a loud hue
    assert is_water("Adriatic Sea") and not is_water("realm")
    assert hash_colour("glowing crystal") == hash_colour("Glowing Crystal")
    assert hash_colour("a") != hash_colour("b")


def test_svg_of_big_hex_map(tmp_path):
    m = generate("hex", 200, 150, seed=2)
    path = export_map(m, tmp_path / "big.svg")
    head = path.read_bytes()[:400].decode()
    assert 'viewBox="' in head and path.stat().st_size < 60_000_000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_geojson_gives_map_file_error_or_a_whole_map(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fuzz")
    good = export_map(sample_map("square"), folder / "m.geojson").read_bytes()
    pos = data.draw(st.integers(0, len(good) - 1))
    if data.draw(st.booleans()):
        bad = good[:pos]
    else:
        bad = good[:pos] + bytes([good[pos] ^ data.draw(st.integers(1, 255))]) + good[pos + 1:]
    p = folder / "bad.geojson"
    p.write_bytes(bad)
    try:
        m = import_map(p)
    except MapFileError as e:
        assert str(p) in str(e)
        return
    assert m.terrain.shape == (len(m.grid),) and int(m.terrain.max()) < len(m.terrains)
