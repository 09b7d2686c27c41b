"""Report bundles: round trip on the King of Kings demo, hidden information, bad files."""

import sqlite3

import pytest
import tinyrules

from engine import registry
from engine.bundle import (
    UNKNOWN,
    BundleError,
    bundle_name,
    open_bundle,
    write_bundle,
    write_bundles,
)
from engine.service import GameService


@pytest.fixture(scope="module")
def kok_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kok")
    rs = registry.get("kok")
    scen, script = rs.demo()
    svc = GameService.create(folder / "demo.db", scen)
    for f, text in sorted(script[1].items()):
        svc.import_text(text, "file", f"SP{f}.R1", faction=f)
    svc.run()
    yield svc
    svc.close()


def test_kok_round_trip(kok_game, tmp_path):
    svc = kok_game
    p = write_bundle(svc, 2, tmp_path / "b.rsbundle")
    b = open_bundle(p)
    assert (b.ruleset, b.game, b.step, b.orders_step) == ("kok", svc.name, 1, 2)
    assert (b.faction.number, b.faction.name) == (2, "Persians")
    assert b.faction.email == "persians@example.org"
    assert b.visible_cells is None  # a public game: the whole map
    assert b.state.to_json() == svc.state_json(1)
    for fmt in ("text", "html", "json"):
        assert b.reports[fmt] == svc.report(1, 2, fmt)
    assert [r.to_dict() for r in b.events.records] == \
        [r.to_dict() for r in svc.events(1).for_faction(2)]
    assert b.template and b.template == svc.ruleset.orders_template(svc.state(1), 2, svc.scenario)
    assert b.map.to_dict() == svc.scenario.map.to_dict()
    assert set(b.catalogs) == set(svc.scenario.catalogs)
    assert b.options.values == svc.scenario.options.values
    # other players' addresses never travel in someone's bundle
    others = {f.email for f in svc.scenario.factions if f.number != 2}
    raw = p.read_bytes()
    assert not any(e.encode() in raw for e in others)
    # the viewer's checker works from the bundle alone
    sheet = svc.ruleset.parse_orders(b.template)
    assert svc.ruleset.check(sheet, b.state, 2, b.scenario) is not None


def test_write_bundles_names(kok_game, tmp_path):
    paths = write_bundles(kok_game, tmp_path)
    assert [p.name for p in paths] == [bundle_name(kok_game.name, 1, f.number)
                                       for f in kok_game.scenario.factions]
    assert all(open_bundle(p).faction.number == f.number
               for p, f in zip(paths, kok_game.scenario.factions, strict=True))


class Fog(tinyrules.Tiny):
    """Each faction sees the cells of its bands and their neighbours, and only its bands."""

    name = "tiny-fog"

    def visible_cells(self, state, faction, scenario):
        mine = {b.cell for b in state["bands"] if b.faction == faction}
        grid = scenario.map.grid
        return mine | {n for c in mine for n in grid.neighbours(c)}

    def visible_state(self, state, faction, scenario, events=None):
        s = state.copy()
        s.tables["bands"] = [b for b in s["bands"] if b.faction == faction]
        s.tables["purses"] = [p for p in s["purses"] if p.faction == faction]
        return s


registry.register(Fog())


def test_hidden_cells_are_absent(tmp_path):
    from engine.map import Label

    scen = tinyrules.tiny_scenario("tiny-fog", width=12, height=6)
    far = 12 * 6 - 2
    scen.map.add_site(far, "city", "Xanadu")
    scen.map.labels.append(Label("Secretland", *scen.map.grid.center(far)))
    svc = GameService.create(tmp_path / "fog.db", scen)
    svc.import_text("#tiny 1 1\nGROW 1\n", faction=1)
    svc.run()
    state = svc.state()
    seen = Fog().visible_cells(state, 1, svc.scenario)
    assert far not in seen
    p = write_bundle(svc, 1, tmp_path / "f1.rsbundle")
    raw = p.read_bytes()
    for secret in (b"Xanadu", b"Secretland", b"blue@example.org"):
        assert secret not in raw
    con = sqlite3.connect(p)
    cells = {r[0] for r in con.execute("select cell from rs_map_cell")}
    con.close()
    assert cells == seen  # the other cells are not in the file at all
    b = open_bundle(p)
    assert b.visible_cells == seen
    assert b.map.terrain_at(far) == UNKNOWN
    assert {bd.faction for bd in b.state["bands"]} == {1}
    assert [p.faction for p in b.state["purses"]] == [1]
    assert b.faction.password == "pw1"
    # the other faction's bundle does not carry faction 1's password
    p2 = write_bundle(svc, 2, tmp_path / "f2.rsbundle")
    assert b"pw1" not in p2.read_bytes()
    svc.close()


def test_bad_files_are_named(tmp_path, kok_game):
    missing = tmp_path / "nope.rsbundle"
    with pytest.raises(BundleError, match="nope.rsbundle: no such file"):
        open_bundle(missing)
    junk = tmp_path / "junk.rsbundle"
    junk.write_bytes(b"hello, not a database\n" * 50)
    with pytest.raises(BundleError, match="junk.rsbundle"):
        open_bundle(junk)
    good = write_bundle(kok_game, 1, tmp_path / "cut.rsbundle")
    data = good.read_bytes()
    good.write_bytes(data[: len(data) // 3])
    with pytest.raises(BundleError, match="cut.rsbundle"):
        open_bundle(good)
    other = tmp_path / "other.rsbundle"
    con = sqlite3.connect(other)
    con.execute("create table t (x)")
    con.commit()
    con.close()
    with pytest.raises(BundleError, match="other.rsbundle"):
        open_bundle(other)
    # a GM's game database is not a bundle
    with pytest.raises(BundleError, match="not a player's report bundle"):
        open_bundle(kok_game.where)


def test_events_typed_in_a_fresh_process(kok_game, tmp_path):
    """A viewer opening a bundle has never run the ruleset: events still load typed."""
    import subprocess
    import sys

    p = write_bundle(kok_game, 3, tmp_path / "fresh.rsbundle")
    code = ("import sys; from engine.bundle import open_bundle; b = open_bundle(sys.argv[1]); "
            "print(sorted({type(r.event).__name__ for r in b.events.records}))")
    out = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "UnknownEvent" not in out.stdout and "MoveStep" in out.stdout
