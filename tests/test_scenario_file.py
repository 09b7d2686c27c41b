"""The text scenario file: round trips, a hand-written file, errors naming file and line."""

from __future__ import annotations

import pytest
import tinyrules

from engine import registry
from engine.map import new_map
from engine.scenario_file import ScenarioFileError, dump_scenario, load_scenario, parse_scenario
from engine.service import GameService


def _same(a, b):
    assert a.map.to_dict() == b.map.to_dict()
    assert {n: (c.spec, c.rows) for n, c in a.catalogs.items()} == \
        {n: (c.spec, c.rows) for n, c in b.catalogs.items()}
    assert a.options.values == b.options.values
    assert [f.to_dict() for f in a.factions] == [f.to_dict() for f in b.factions]
    assert (a.ruleset, a.name, a.seed, a.meta) == (b.ruleset, b.name, b.seed, b.meta)
    assert (a.initial is None) == (b.initial is None)
    if a.initial is not None:
        assert a.initial.to_json() == b.initial.to_json()


def _scenario():
    s = tinyrules.tiny_scenario()
    s.initial = registry.get("tiny").initial_state(s)
    s.initial["clock"][0].note = "quotes \" and ''' and \\ and\nnewline, comma"
    s.catalogs["units"].add({"kind": "odd, \"one\"", "cost": 0, "power": 100})
    s.options.set("fog", True)
    s.factions[0].name = "Rød Ørn"
    return s


def test_round_trip(tmp_path):
    s = _scenario()
    text = dump_scenario(s, tmp_path / "s.toml", with_seed=True)
    again = load_scenario(tmp_path / "s.toml")
    _same(s, again)
    assert dump_scenario(again, with_seed=True) == text  # stable


def test_round_trip_hex_map_and_external_map_file(tmp_path):
    s = _scenario()
    m = new_map("hex", 5, 4)
    m.set_terrain([3, 7], "forest-deep")  # a terrain without a ruleset letter
    m.add_link("river", 0, m.grid.neighbours(0)[0])
    m.add_site(6, "port", "Haven")
    m.add_area("North", "sea", [0, 1, 2])
    s.map = m
    _same(s, parse_scenario(dump_scenario(s, with_seed=True), tmp_path / "h.toml"))
    dump_scenario(s, tmp_path / "ext.toml", map_file=True, with_seed=True)
    assert (tmp_path / "ext.rsmap").exists()
    assert 'file = "ext.rsmap"' in (tmp_path / "ext.toml").read_text()
    _same(s, load_scenario(tmp_path / "ext.toml"))


def test_game_round_trip_through_the_file(tmp_path):
    s = _scenario()
    with GameService.create(tmp_path / "a.db", s) as a:
        dump_scenario(load_scenario_from(a), tmp_path / "a.toml", with_seed=True)
    with GameService.create(tmp_path / "b.db", load_scenario(tmp_path / "a.toml")) as b, \
            GameService.open(tmp_path / "a.db") as a:
        assert a.state_json(0) == b.state_json(0)
        a.run()
        b.run()
        assert a.state_json() == b.state_json()
        assert a.report(1, None) == b.report(1, None)


def load_scenario_from(svc):
    import dataclasses

    return dataclasses.replace(svc.scenario, initial=svc.state(0))


HAND_WRITTEN = """\
# a scenario written by hand
ruleset = "tiny"
name = "Hand made"
seed = 3

[map]
kind = "square"
grid = { width = 3, height = 2 }
terrain_rows = [
  "p m w",
  "p p p",
]
links = { road = [["0/0", "0/1"]] }
sites = [ { cell = "1/1", name = "Keep" } ]

[options]
income = 2

[catalogs.units]
rows = [ { kind = "band", cost = 2, power = 5 } ]

[[factions]]
number = 1
name = "Reds"

[[factions]]
number = 2
name = "Blues"

[state]
clock = [ { step = 0 } ]
purses = [ { faction = 1 }, { faction = 2, gold = 9 } ]
bands = [ { faction = 1, cell = "0/1", strength = 4 }, { faction = 2, cell = 2 } ]
"""


def test_hand_written_file():
    s = parse_scenario(HAND_WRITTEN, "hand.toml")
    assert [s.map.terrain_at(c) for c in range(6)] == ["plains", "mountain", "water"] + ["plains"] * 3
    assert s.map.has_link("road", 0, 3) and s.map.sites[1].name == "Keep" and s.map.sites[1].cell == 4
    assert s.options["income"] == 2 and s.options["fog"] is False
    assert s.catalogs["units"].rows == [{"kind": "band", "cost": 2, "power": 5, "fancy": False}]
    assert [(b.faction, b.cell, b.strength) for b in s.initial["bands"]] == [(1, 3, 4), (2, 2, 1)]
    assert s.initial["purses"][1].gold == 9 and s.initial["purses"][0].gold == 3


@pytest.mark.parametrize("change, line, words", [
    (('"p m w"', '"p x w"'), 10, "'x' is not a terrain letter"),
    (('"p p p"', '"p p"'), 11, "terrain row 2 has 2 letters"),
    (("cost = 2", "cost = -2"), 20, "cost: -2 is below the minimum 0"),
    (("[catalogs.units]", "[catalogs.spells]"), 19, "no catalog 'spells'"),
    (("income = 2", "income = 20"), 17, "income: 20 is above the maximum 10"),
    (("income = 2", "speed = 2"), 0, "unknown option 'speed'"),
    (("gold = 9", 'gold = "lots"'), 32, "gold: 'lots' is not an int"),
    (('cell = "0/1"', 'cell = "9/9"'), 33, "'9/9' is not a cell"),
    (("number = 2", "number = 1"), 26, "faction number 1 is used twice"),
    (("seed = 3", "seed = "), 4, "not valid TOML"),
    (('ruleset = "tiny"', 'ruleset = "chess"'), 2, "ruleset 'chess' does not load"),
    (('ruleset = "tiny"', 'format = 9\nruleset = "tiny"'), 2, "scenario format 9 is newer"),
    (('sites = [ { cell = "1/1", name = "Keep" } ]', 'sites = [ { cell = "7/7" } ]'), 0, "'7/7' is not a cell"),
    (("[options]", "[option]"), 16, "unknown section or key 'option'"),
    (("links =", "link ="), 13, "unknown map key 'link'"),
    (("terrain_rows = [", "terrain_rows = 5\nx = ["), 10, "unknown map key 'x'"),
    (('terrain_rows = [\n  "p m w",\n  "p p p",\n]', "terrain_rows = 5"), 6, "map: cannot read it"),
    (('sites = [ { cell = "1/1", name = "Keep" } ]', 'sites = [ { name = "Keep" } ]'), 6, "missing 'cell'"),
    (('links = { road = [["0/0", "0/1"]] }', 'links = { road = 7 }'), 6, "map: cannot read it"),
    (("seed = 3", 'seed = "x"'), 4, "seed must be a whole number"),
    (('name = "Reds"', "name = 5"), 22, "faction needs a number and a name"),
    (("[state]", "state = 5\n[statex]"), 0, "unknown section or key 'statex'"),
])
def test_errors_name_file_and_line(change, line, words):
    text = HAND_WRITTEN.replace(*change)
    assert text != HAND_WRITTEN
    with pytest.raises(ScenarioFileError) as e:
        parse_scenario(text, "hand.toml")
    msg = str(e.value)
    assert words in msg
    if line:
        assert msg.startswith(f"hand.toml:{line}: "), msg
    else:
        assert msg.startswith("hand.toml:"), msg


def test_csv_block_errors_point_at_the_row(tmp_path):
    text = dump_scenario(_scenario(), with_seed=True)
    lines = text.splitlines()
    n = next(i for i, x in enumerate(lines) if x.startswith("elite,")) + 1
    bad = text.replace("elite,3,10,yes", "elite,3,999,yes")
    with pytest.raises(ScenarioFileError, match=rf"^s.toml:{n}: catalog units: power: 999 is above"):
        parse_scenario(bad, "s.toml")
    bad = text.replace("elite,3,10,yes", "elite,3,10,yes,extra")
    with pytest.raises(ScenarioFileError, match=rf"^s.toml:{n}: catalogs.units: more values"):
        parse_scenario(bad, "s.toml")


def test_unreadable_files(tmp_path):
    with pytest.raises(ScenarioFileError, match="cannot read"):
        load_scenario(tmp_path / "none.toml")
    (tmp_path / "latin.toml").write_bytes("name = \"caf\xe9\"\n".encode("latin-1"))
    with pytest.raises(ScenarioFileError, match="not UTF-8"):
        load_scenario(tmp_path / "latin.toml")
    with pytest.raises(ScenarioFileError, match="no `ruleset"):
        parse_scenario("name = 'x'\n", "x.toml")
    with pytest.raises(ScenarioFileError, match="no \\[map\\]"):
        parse_scenario("ruleset = 'tiny'\n", "x.toml")


def test_round_trip_region_map_with_adjacency_edits(tmp_path):
    s = _scenario()
    m = new_map("regions", 6, 4)
    m.add_area("Gaul", "realm", [0, 1, 6, 7])
    m.add_area("Rome", "realm", [2, 3, 8, 9])
    m.add_area("Mare", "sea", [12, 13, 14, 15, 18, 19, 20, 21])
    m.add_area("Isle", "realm", [23])
    m.set_adjacent("Isle", "Mare", True)
    m.set_adjacent("Gaul", "Rome", False)
    m.areas["Gaul"].attrs["label_x"] = 1.0
    m.areas["Gaul"].attrs["label_y"] = 1.0
    s.map = m
    again = parse_scenario(dump_scenario(s, with_seed=True), tmp_path / "r.toml")
    _same(s, again)
    assert again.map.regions().edges() == m.regions().edges()


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["drop", "dup", "junk", "swap"]),
                          st.text(max_size=12)), min_size=1, max_size=4))
def test_mangled_files_give_messages_never_crashes(edits):
    lines = HAND_WRITTEN.splitlines()
    for pos, how, junk in edits:
        i = pos % len(lines)
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "junk":
            lines[i] = lines[i][: len(lines[i]) // 2] + junk
        else:
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        if not lines:
            lines = [""]
    try:
        parse_scenario("\n".join(lines), "m.toml")
    except ScenarioFileError as e:
        assert str(e).startswith("m.toml")


def test_the_seed_stays_secret_unless_asked_for(tmp_path):
    """Without with_seed the file has no seed, and each game made from it gets its own."""
    s = _scenario()
    text = dump_scenario(s)
    assert "seed" not in text and str(s.seed) not in text.split("[map]")[0]
    a, b = parse_scenario(text, tmp_path / "a.toml"), parse_scenario(text, tmp_path / "b.toml")
    assert a.seed != b.seed and s.seed not in (a.seed, b.seed)
    assert f"seed = {s.seed}" in dump_scenario(s, with_seed=True)
