"""The player viewer on an Atlantis bundle of the demo: the faction's map and units, the
orders editor completing what an order takes and checking as the player types, and a unit
clicked in the list then a path of hexes clicked on the map written as its MOVE (SAIL for
a ship's owner) in its own orders."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import open_viewer, send

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bundles(demo_games):
    from engine.bundle import write_bundle
    from engine.service import GameService

    db = demo_games.db("atlantis")  # `realmsmith demo --ruleset atlantis`, once a session
    folder = db.parent
    with GameService.open(db) as svc:
        # month 6: the months every tree plays (the demo's later ones wait for the turn)
        return {f: write_bundle(svc, f, folder / f"atl-f{f}.rsbundle", 6) for f in (5, 6)}


def _terrain_ocean(tv, cell):
    return tv.scenario.catalogs["terrains"].by("name")[tv.gmap.terrain_at(cell)]["ocean"]


def test_units_listed_one_by_one_and_the_map_in_faction_colours(qtbot, bundles):
    ws = open_viewer(qtbot, bundles[6], reset_zoom=True)
    tv = ws.turn
    rows = ws.units.visible_rows()
    mine = [r for r in rows if "(you)" in r[1]]
    assert {r[2] for r in mine} >= {"Captain Vex (6)", "First Cohort (15)", "Smiths (16)"}
    assert all(r[2] for r in rows)
    legend = ws.legend.text()
    assert "The Iron Legion" in legend and "21" in legend
    assert "#888888" not in legend
    # nothing of the other islands: every unit listed is in a cell the faction sees
    assert all(u.cell in tv.visible for u in ws.model.units())
    # the regions list names each region's area; the map labels the area once, not per cell
    assert any(r[1] == "Marzan" for r in ws.regions.visible_rows())
    assert ws.political.names.names == [] and ws.political.model.names == {}


def test_completion_and_live_check_as_the_player_types(qtbot, bundles):
    ws = open_viewer(qtbot, bundles[6], reset_zoom=True)
    ed = ws.orders.edit
    text = ws.orders.text()
    at = text.index("#end")
    c = ed.textCursor()
    c.setPosition(at)
    c.insertText("\n")
    c.setPosition(at)
    ed.setTextCursor(c)
    qtbot.keyClicks(ed, "unit 1")
    popup = ed.completer.popup()
    assert popup.isVisible()  # own unit numbers
    words = [ed.completer.completionModel().index(i, 0).data()
             for i in range(ed.completer.completionCount())]
    assert words == ["15", "16"]
    popup.hide()
    qtbot.keyClicks(ed, "5")
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    qtbot.keyClicks(ed, "STUDY ta")
    assert popup.isVisible() and ed.completer.currentCompletion() == "tactics"
    qtbot.keyClick(ed, Qt.Key.Key_Tab)  # takes the word
    assert ed.textCursor().block().text() == "STUDY tactics"
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    qtbot.keyClicks(ed, "STUDY magik")  # a second month-long order, and an unknown skill
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("magik" in d.message or "magik" in (d.text or "")
                                for d in ws.orders.diagnostics), timeout=3000)
    line = next(i + 1 for i, t in enumerate(ws.orders.text().split("\n")) if t == "STUDY magik")
    assert any(d.line == line for d in ws.orders.diagnostics)


def test_a_unit_picked_then_a_path_clicked_writes_its_move(qtbot, bundles):
    ws = open_viewer(qtbot, bundles[6], reset_zoom=True)
    tv = ws.turn
    grid = tv.gmap.grid
    vex = next(u for u in tv.state["units"] if u.number == 6)
    goal = next(c for c in grid.neighbours(vex.cell) if not _terrain_ocean(tv, c))
    ws.pick_unit(6, vex.cell)
    assert ws.tool.path == [vex.cell] and ws.moving_unit == 6 and goal in ws.reach
    send(ws, "press", goal)
    send(ws, "press", goal)  # the last cell again: the order is written
    d = next(d for d in ("N", "NE", "SE", "S", "SW", "NW") if grid.step(vex.cell, d) == goal)
    lines = ws.orders.text().split("\n")
    assert f"MOVE {d}" in lines
    block = lines[lines.index("unit 6"):]
    assert block.index(f"MOVE {d}") < next(i for i, t in enumerate(block) if t.startswith("unit ") and i)
    qtbot.waitUntil(lambda: len(ws.routes.routes) == 1, timeout=3000)  # drawn as a route
    # several own units there and none picked: the viewer asks (here: the first listed)
    send(ws, "press", vex.cell)
    assert ws.moving_unit == 6
    ws.cancel_move()


def test_the_ships_owner_sails_a_path_of_ocean(qtbot, bundles):
    ws = open_viewer(qtbot, bundles[5], reset_zoom=True)
    tv = ws.turn
    grid = tv.gmap.grid
    ship = next(x for x in tv.state["structures"] if x.kind == "longboat")
    owner = min((u for u in tv.state["units"] if u.structure == ship.number), key=lambda u: u.seq)
    d = next(d for d in ("N", "NE", "SE", "S", "SW", "NW")
             if (c := grid.step(ship.cell, d)) is not None and _terrain_ocean(tv, c))
    sea = grid.step(ship.cell, d)
    ws.units.unitPicked.emit(owner.number, ship.cell)  # clicked in the Units list
    assert ws.moving_unit == owner.number and sea in ws.reach
    send(ws, "press", sea)
    qtbot.keyClick(ws.canvas.viewport(), Qt.Key.Key_Return)
    if ws.tool.path:  # the key went to another widget: finish as Enter would
        ws.tool.finish()
    assert f"SAIL {d}" in ws.orders.text().split("\n")
