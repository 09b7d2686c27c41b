"""Game database: persistence round trip, typed tables, many games, bad files."""

from __future__ import annotations

import sqlite3

import pytest
import tinyrules

from engine.db import (
    CorruptGame,
    GameExists,
    GameLocked,
    GameNotFound,
    NewerFormat,
    NotAGame,
    UnknownGame,
)
from engine.service import GameService
from engine.tables import Catalog


@pytest.fixture
def game(tmp_path):
    svc = GameService.create(tmp_path / "g.db", tinyrules.tiny_scenario(), busy_timeout=0.2)
    yield svc
    svc.close()


_dump = tinyrules.dump_db


def test_scenario_round_trip(game, tmp_path):
    scen = tinyrules.tiny_scenario()
    with GameService.open(tmp_path / "g.db") as again:
        got = again.scenario
        assert got.map.to_dict() == scen.map.to_dict()
        assert got.map.cell_attrs == {3: {"ore": True}}
        assert {n: c.rows for n, c in got.catalogs.items()} == {n: c.rows for n, c in scen.catalogs.items()}
        assert got.catalogs["units"].spec == scen.catalogs["units"].spec
        assert got.options.values == scen.options.values
        assert [f.to_dict() for f in got.factions] == [f.to_dict() for f in scen.factions]
        assert (got.name, got.seed, got.meta) == ("Tiny Demo", 42, {"game": "TINY", "deadline": "Friday"})
        assert again.ruleset.name == "tiny"


def test_every_step_state_is_kept_in_typed_tables(game, tmp_path):
    states = [game.state_json(0)]
    for _ in range(3):
        game.run()
        states.append(game.state_json())
    with GameService.open(tmp_path / "g.db") as again:
        assert [again.state_json(s) for s in range(4)] == states
        assert again.current_step == 3
    con = sqlite3.connect(tmp_path / "g.db")
    cols = {r[1]: r[2] for r in con.execute("PRAGMA table_info(st_tiny_bands)")}
    assert cols == {"rs_game": "INTEGER", "rs_step": "INTEGER", "rs_row": "INTEGER",
                    "faction": "INTEGER", "cell": "INTEGER", "strength": "INTEGER"}
    assert con.execute("SELECT count(DISTINCT rs_step) FROM st_tiny_bands").fetchone() == (4,)
    assert {r[1]: r[2] for r in con.execute("PRAGMA table_info(cat_tiny_units)")}["fancy"] == "BOOLEAN"
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()


def test_designer_edits_persist(game, tmp_path):
    m = game.scenario.map
    m.set_terrain([0], "mountain")
    game.save_map(m)
    cat = game.scenario.catalogs["units"].copy()
    cat.add({"kind": "giant", "cost": 9, "power": 50})
    game.save_catalog("units", cat)
    game.set_option("income", 3)
    with pytest.raises(ValueError, match="above the maximum"):
        game.set_option("income", 99)
    f = game.scenario.faction(2)
    f.name = "Azures"
    game.upsert_faction(f)
    game.upsert_faction(tinyrules.Faction(3, "Greens"))
    with GameService.open(tmp_path / "g.db") as again:
        s = again.scenario
        assert s.map.terrain_at(0) == "mountain"
        assert [r["kind"] for r in s.catalogs["units"]] == ["band", "elite", "giant"]
        assert s.options["income"] == 3
        assert [f.name for f in s.factions] == ["Reds", "Azures", "Greens"]


def test_two_games_in_one_database(tmp_path):
    path = tmp_path / "many.db"
    a = GameService.create(path, tinyrules.tiny_scenario())
    scen = tinyrules.tiny_scenario()
    scen.name, scen.seed = "Second", 7
    b = GameService.create(path, scen, add=True)
    with pytest.raises(GameExists):
        GameService.create(path, tinyrules.tiny_scenario(), add=True)
    a.run()
    a.run()
    b.run()
    assert (a.current_step, b.current_step) == (2, 1)
    b.rollback(0)
    assert a.current_step == 2 and a.state(2).step == 2
    with GameService.open(path, game="Second") as again:
        assert again.seed == 7 and again.current_step == 0
    with pytest.raises(UnknownGame, match="Tiny Demo, Second"):
        GameService.open(path, game="Third")
    a.close()
    b.close()


def test_catalog_column_added_by_a_newer_ruleset(game, tmp_path):
    from engine.tables import Column, TableSpec

    wider = TableSpec("units", tinyrules.UNITS.columns + (Column("speed", "int", 2),), ("kind",))
    game.save_catalog("units", Catalog(wider, [{"kind": "runner", "speed": 5}]))
    with GameService.open(tmp_path / "g.db") as again:
        assert again.scenario.catalogs["units"].rows == [
            {"kind": "runner", "cost": 1, "power": 1, "fancy": False, "speed": 5}]


# ---- files that are not (good) games ------------------------------------------------------

def test_missing_file_is_not_created(tmp_path):
    with pytest.raises(GameNotFound, match="no such file"):
        GameService.open(tmp_path / "typo.db")
    assert not (tmp_path / "typo.db").exists()


def test_create_refuses_an_existing_file(game, tmp_path):
    before = _dump(tmp_path / "g.db")
    with pytest.raises(GameExists, match="exists already"):
        GameService.create(tmp_path / "g.db", tinyrules.tiny_scenario())
    assert _dump(tmp_path / "g.db") == before


@pytest.mark.parametrize("content, error, words", [
    (b"", NotAGame, "empty file"),
    (b"hello, this is a text file\n" * 50, NotAGame, "not a Realmsmith"),
    (None, NotAGame, "other_stuff"),
])
def test_foreign_files(tmp_path, content, error, words):
    p = tmp_path / "x.db"
    if content is None:
        con = sqlite3.connect(p)
        con.execute("CREATE TABLE other_stuff (a)")
        con.commit()
        con.close()
    else:
        p.write_bytes(content)
    with pytest.raises(error, match=words):
        GameService.open(p)


def test_folder_is_not_a_game(tmp_path):
    with pytest.raises(NotAGame, match="folder"):
        GameService.open(tmp_path)


def test_corrupt_file(game, tmp_path):
    game.run()
    game.close()
    p = tmp_path / "g.db"
    con = sqlite3.connect(p)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(p.read_bytes())
    page = 4096
    for i in range(2 * page, len(data) - page, page):  # scribble over every page but the header
        data[i + 8:i + 400] = b"\xa5" * 392
    p.write_bytes(bytes(data))
    with pytest.raises((CorruptGame, NotAGame)):
        svc = GameService.open(p)
        svc.state_json()
        svc.run()


def test_truncated_file(game, tmp_path):
    game.run()
    game.close()
    p = tmp_path / "g.db"
    con = sqlite3.connect(p)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 3])
    with pytest.raises(CorruptGame):
        svc = GameService.open(p)
        for s in range(2):
            svc.state_json(s)
        svc.run()


def test_newer_format_is_refused(game, tmp_path):
    game.close()
    con = sqlite3.connect(tmp_path / "g.db")
    con.execute("UPDATE rs_info SET value='99' WHERE key='format'")
    con.commit()
    con.close()
    with pytest.raises(NewerFormat, match="newer Realmsmith.*format 99"):
        GameService.open(tmp_path / "g.db")


def test_locked_by_another_process(game, tmp_path):
    before = _dump(tmp_path / "g.db")
    other = sqlite3.connect(tmp_path / "g.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the game
    try:
        assert game.current_step == 0  # reading still works (WAL)
        with pytest.raises(GameLocked, match="locked by another process"):
            game.import_text("#tiny 1 1\nGROW 1\n")
        with pytest.raises(GameLocked):
            game.run()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert _dump(tmp_path / "g.db") == before
    game.run()  # and works once the other writer is gone
    assert game.current_step == 1


def test_events_of_an_unknown_kind_still_load(game, tmp_path):
    game.run()
    con = sqlite3.connect(tmp_path / "g.db")
    con.execute("UPDATE rs_event SET kind='gone_kind' WHERE seq=1")
    con.commit()
    con.close()
    ev = game.events(1).records[0].event
    assert (ev.kind, ev.original_kind) == ("rs_unknown_event", "gone_kind")


@pytest.mark.parametrize("kind", ["hex", "regions"])
def test_other_map_kinds_round_trip(tmp_path, kind):
    from engine.map import new_map

    scen = tinyrules.tiny_scenario()
    m = new_map(kind, 8, 5)
    m.set_terrain(range(0, 40, 3), "forest")
    m.add_area("North", "realm", range(0, 16))
    m.add_area("South", "sea", range(16, 40))
    if kind == "regions":
        m.set_adjacent("North", "South", False)
    else:
        m.add_link("river", 9, m.grid.neighbours(9)[2])
    m.meta["author"] = "test"
    scen.map = m
    GameService.create(tmp_path / "m.db", scen).close()
    with GameService.open(tmp_path / "m.db") as svc:
        assert svc.scenario.map.to_dict() == m.to_dict()
