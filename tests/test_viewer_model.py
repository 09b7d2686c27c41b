"""The player viewer's model without Qt: opening bundles, merging turns (last-seen state of
regions out of sight), generic units/regions, reachable cells and order drafting."""

from __future__ import annotations

import dataclasses
import email
from email import policy
from pathlib import Path

import pytest

from engine import orderdraft as od
from engine import registry
from engine.viewer_model import (
    ViewerModel,
    ViewError,
    board_cell,
    cells_named,
    load_turn,
    turn_units,
)

SAMPLES = Path(__file__).resolve().parents[1] / "resources" / "samples"
T3 = SAMPLES / "kok-demo-t003-f01.rsbundle"
T4 = SAMPLES / "kok-demo-t004-f01.rsbundle"


@pytest.fixture(scope="module")
def t3():
    return load_turn(T3)


@pytest.fixture(scope="module")
def t4():
    return load_turn(T4)


def test_bundle_opens_as_the_faction_turn(t4):
    assert (t4.ruleset.name, t4.faction, t4.step) == ("kok", 1, 4)
    assert t4.faction_name == "Achaeans"
    assert "KING OF KINGS" in t4.report_text
    assert t4.report_data and t4.report_data["turn"] == 4
    assert "BEGIN" in t4.template and "SP1.R5" in t4.template
    assert t4.visible is None  # King of Kings hides nothing


def test_units_and_regions_read_from_state(t4):
    units = turn_units(t4)
    armies = [a for a in t4.state["armies"] if a.count > 0]
    assert sum(u.count for u in units) == sum(a.count for a in armies)
    own = {(u.cell, u.kind): u.count for u in units if u.own}
    assert own == {(a.cell, a.troop): a.count for a in armies if a.tribe == 1}
    regions = {r.cell: r for r in ViewerModel([t4]).regions()}
    argos = t4.gmap.grid.cell(3, 2)
    assert regions[argos].name == "Argos" and regions[argos].owner == 1
    assert regions[argos].owner_name == "Achaeans"


def test_merge_keeps_last_seen_state_of_regions_out_of_sight(t3, t4):
    n = len(t4.gmap.grid)
    west = frozenset(c for c in range(n) if t4.gmap.grid.xy(c)[0] < 12)
    # turn 3 saw the whole map, turn 4 only the west half
    t4w = dataclasses.replace(t4, visible=west)
    m = ViewerModel([t4w, t3])  # order of opening does not matter
    assert m.steps == [3, 4]
    stale = m.stale()
    assert set(stale) == set(range(n)) - west and set(stale.values()) == {3}
    assert m.unseen() == []
    by_cell = {}
    for u in m.units():
        by_cell.setdefault(u.cell, set()).add(u.seen)
    for cell, seen in by_cell.items():
        assert seen == ({4} if cell in west else {3})
    east_units = [u for u in m.units() if u.cell not in west]
    assert east_units == sorted((u for u in turn_units(t3) if u.cell not in west),
                                key=lambda u: (u.cell, u.owner, u.kind))
    persepolis = t4.gmap.grid.cell(17, 2)
    row = next(r for r in m.regions() if r.cell == persepolis)
    assert row.seen == 3 and row.name == "Persepolis"


def test_never_seen_cells_are_fog(t4):
    seen = frozenset(range(10))
    m = ViewerModel([dataclasses.replace(t4, visible=seen)])
    assert set(m.unseen()) == set(range(len(t4.gmap.grid))) - seen
    assert m.stale() == {}
    assert all(u.cell in seen for u in m.units())


def test_merged_map_fills_unknown_terrain_from_earlier_turn(t3, t4):
    g = t4.gmap.copy()
    hidden = [c for c in range(len(g.grid)) if c >= 100]
    g.set_terrain(hidden, "unknown")
    scen = dataclasses.replace(t4.scenario, map=g)
    t4h = dataclasses.replace(t4, scenario=scen, visible=frozenset(range(100)))
    merged = ViewerModel([t3, t4h]).merged_map()
    assert merged is not g and "unknown" not in {merged.terrain_at(c) for c in hidden}
    assert [merged.terrain_at(c) for c in hidden] == [t3.gmap.terrain_at(c) for c in hidden]


def test_a_later_bundle_of_the_same_turn_replaces_it(t4):
    m = ViewerModel([t4, dataclasses.replace(t4, report_text="again")])
    assert m.steps == [4] and m.latest.report_text == "again"


def test_turns_of_another_faction_or_game_are_refused(t4):
    other = dataclasses.replace(t4, faction=2, source="x.rsbundle")
    with pytest.raises(ViewError, match="faction 2"):
        ViewerModel([t4, other])
    scen = dataclasses.replace(t4.scenario, name="Another game")
    with pytest.raises(ViewError, match="Another game"):
        ViewerModel([t4, dataclasses.replace(t4, scenario=scen, step=5)])


def test_bad_files_say_which_and_why(tmp_path):
    with pytest.raises(ViewError, match="no such file"):
        load_turn(tmp_path / "missing.rsbundle")
    junk = tmp_path / "junk.rsbundle"
    junk.write_bytes(b"\x00garbage" * 100)
    with pytest.raises(ViewError, match="junk.rsbundle"):
        load_turn(junk)
    empty = tmp_path / "empty.rsbundle"
    empty.write_bytes(b"")
    with pytest.raises(ViewError, match="empty.rsbundle"):
        load_turn(empty)


def test_reachable_uses_kok_movement_points(t4):
    m = ViewerModel([t4])
    grid = t4.gmap.grid
    start = grid.cell(3, 4)  # two horsemen: 3 movement points
    reach = m.reachable(start)
    assert start in reach and max(reach.values()) <= 3
    assert all(not t4.gmap.terrain_at(c) == "sea" for c in reach)
    assert max(grid.distance(start, c) for c in reach) >= 2
    slow = m.reachable(grid.cell(3, 1))  # one foot soldier: 2 points
    assert max(grid.distance(grid.cell(3, 1), c) for c in slow) <= 2


def test_kok_move_order_and_path_completion(t4):
    grid = t4.gmap.grid
    start, goal = grid.cell(2, 2), grid.cell(2, 4)
    line = od.move_order(t4.ruleset, t4.state, 1, t4.scenario, [start, goal])
    assert line == "LAND 2 2 FO 1 BO 2 HO 1 S S"
    sheet = t4.ruleset.parse_orders(f"BEGIN\n{line}\nEND\n", "SP1.R5")
    diags = list(sheet.diagnostics) + t4.ruleset.check(sheet, t4.state, 1, t4.scenario)
    assert [d for d in diags if d.severity == "error"] == []
    with pytest.raises(ValueError):
        od.move_order(t4.ruleset, t4.state, 1, t4.scenario, [start])
    with pytest.raises(ValueError, match="no units"):
        od.move_order(t4.ruleset, t4.state, 1, t4.scenario, [grid.cell(10, 10), grid.cell(10, 11)])


@pytest.mark.parametrize("name", ["artnes", "coi"])
def test_other_rulesets_move_orders_read_back(name):
    rs = registry.get(name)
    scen, _ = rs.demo()
    state = rs.initial_state(scen)
    f = scen.factions[0].number
    board = scen.map.board()
    if name == "artnes":
        here = next(u for u in state["units"] if u.nation == f and u.kind != "galley").location
        start = board.parse(here)
    else:
        start = next(u for u in state["units"] if u.owner == f).cell
    path = [start, board.neighbours(start)[0]]
    text = od.move_order(rs, state, f, scen, path)
    assert text.lower().startswith("move")
    header = f"Nation: {scen.factions[0].name}\n" if name == "artnes" else ""
    sheet = rs.parse_orders(header + text + "\n", "t")
    assert [d for d in sheet.diagnostics if d.kind == "invalid"] == []
    assert len(sheet.orders) >= 1


def test_insert_order_goes_before_end():
    t = "# head\nBEGIN\n\nEND\n"
    t1, at = od.insert_order(t, "LAND 1 1 FO 1 E")
    assert t1 == "# head\nBEGIN\nLAND 1 1 FO 1 E\nEND\n" and at == 3
    t2, at = od.insert_order(t1, "DEF 1 1 C")
    assert t2.splitlines()[2:5] == ["LAND 1 1 FO 1 E", "DEF 1 1 C", "END"] and at == 4
    t3, at = od.insert_order("Nation: France\n", "Move knight Paris - Champagne")
    assert t3 == "Nation: France\nMove knight Paris - Champagne\n" and at == 2


def test_file_name_subject_and_email(t4):
    rs = t4.ruleset
    assert od.orders_filename(rs, t4.state, 1, t4.scenario) == "SP1.R5"
    assert od.orders_subject(rs, t4.state, 1, t4.scenario) == "DEMO 5"
    data = od.orders_email("BEGIN\nEND\n", "gm@example.org", "DEMO 5", "SP1.R5")
    msg = email.message_from_bytes(data, policy=policy.default)
    assert msg["To"] == "gm@example.org" and msg["Subject"] == "DEMO 5"
    parts = list(msg.iter_attachments())
    assert [p.get_filename() for p in parts] == ["SP1.R5"]
    assert parts[0].get_content() == "BEGIN\nEND\n"
    assert b"password" not in data.lower()
    coi = registry.get("coi")
    scen, _ = coi.demo()
    name = od.orders_filename(coi, coi.initial_state(scen), 2, scen)
    assert name.endswith("-f02-t001-orders.txt")


def test_keywords_for_every_ruleset():
    for name in ("kok", "artnes", "coi"):
        words = od.order_keywords(registry.get(name))
        assert "move" in {w.lower() for w in words} or "LAND" in words


def test_cells_named_in_diagnostics(t4):
    grid = t4.gmap.grid
    assert cells_named(t4.gmap, "LAND 2 2 FO 9 S S") == [grid.cell(2, 2)]
    assert cells_named(t4.gmap, "only 1 Foot Soldiers at 12 9, not 3") == [grid.cell(12, 9)]
    assert cells_named(t4.gmap, "no place here") == []
    art = registry.get("artnes").demo()[0].map
    found = cells_named(art, "Move knight Paris - Champagne")
    assert [art.regions().label(c) for c in found] == ["Paris", "Champagne"]
    assert board_cell(art, next(iter(art.areas["Paris"].cells))) == found[0]


def test_kok_fleet_moves_and_landings_check_clean(t4):
    grid, rs = t4.gmap.grid, t4.ruleset
    fleet = grid.cell(12, 9)  # a sea province with 1 foot soldier and 2 ships of player 1
    sail = od.move_order(rs, t4.state, 1, t4.scenario, [fleet, grid.cell(12, 10)])
    land = od.move_order(rs, t4.state, 1, t4.scenario, [fleet, grid.cell(12, 8)])
    assert (sail, land) == ("SEA 12 9 FO 1 SH 2 S", "LAND 12 9 FO 1 N")
    for line in (sail, land):
        sheet = rs.parse_orders(f"BEGIN\n{line}\nEND\n", "SP1.R5")
        assert list(sheet.diagnostics) + rs.check(sheet, t4.state, 1, t4.scenario) == []
    reach = ViewerModel([t4]).reachable(fleet)
    assert grid.cell(12, 8) in reach and grid.cell(12, 10) in reach
    sea = {c for c in reach if t4.gmap.terrain_at(c) == "sea"}
    ashore = set(reach) - sea
    assert ashore and all(any(n in sea for n in grid.neighbours(c)) for c in ashore)
    with pytest.raises(ValueError, match="no units"):  # land troops cannot sail without ships
        od.move_order(rs, t4.state, 1, t4.scenario, [grid.cell(3, 1), grid.cell(3, 0)])


def test_order_paths_for_drawing_routes(t4):
    grid, rs = t4.gmap.grid, t4.ruleset
    text = "BEGIN\nLAND 2 2 FO 1 S S\nDEF 3 2 C\nSEA 12 9 FO 1 SH 2 S W\nEND\n"
    paths = od.order_paths(rs, t4.state, 1, t4.scenario, text)
    assert paths == [(2, [grid.cell(2, 2), grid.cell(2, 3), grid.cell(2, 4)]),
                     (4, [grid.cell(12, 9), grid.cell(12, 10), grid.cell(11, 10)])]
    assert od.order_paths(rs, t4.state, 1, t4.scenario, "\x00garbage LAND") == []
    art = registry.get("artnes")
    scen, _ = art.demo()
    got = od.order_paths(art, art.initial_state(scen), 1, scen,
                         "Nation: England\nMove knight London - Wessex - Cornwall\n")
    board = scen.map.board()
    assert [[board.label(c) for c in cells] for _, cells in got] == [["London", "Wessex", "Cornwall"]]


def test_places_are_labelled_as_the_ruleset_writes_them():
    from engine.viewer_model import TurnView

    coi = registry.get("coi")
    scen, _ = coi.demo()
    state = coi.initial_state(scen)
    f = scen.factions[0].number
    tv = TurnView(coi, scen, state, 0, f)
    units = [u for u in turn_units(tv) if u.own]
    assert units
    col, row = scen.map.grid.colrow(units[0].cell)
    assert units[0].where == f"{col},{row}"
    assert cells_named(scen.map, f"Move all from {col},{row} to 1,1")[0] == units[0].cell
