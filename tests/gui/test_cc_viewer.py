"""The player viewer on a Continental Conquest bundle (the demo's): the clan's convoys as
units, its report, and the orders sheet checked as it is typed (the cc reader and checker),
with completion of the book's order words."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import open_viewer

DIRS = ("N", "NE", "SE", "S", "SW", "NW")

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bundle(demo_games):
    from engine.bundle import write_bundles
    from engine.service import GameService

    d = demo_games.copy("cc")  # `realmsmith demo --ruleset cc`, played once a session
    with GameService.open(d / "cc-demo.db") as svc:
        paths = write_bundles(svc, d / "b")
    return next(p for p in paths if "-f100" in p.name)


@pytest.fixture
def viewer(qtbot, bundle):
    return open_viewer(qtbot, bundle)


def test_the_clan_sees_its_convoys_report_and_sheet(viewer):
    ws = viewer
    tv = ws.turn
    assert tv.faction == 100 and "CLAN 100 Robin's Hood" in tv.report_text
    kinds = {ws.units.model.index(r, 0).data() for r in range(ws.units.model.rowCount())}
    assert ws.units.model.rowCount() >= 2, kinds
    assert ws.orders.text().startswith("CONTINENTAL CONQUEST") and "ACCOUNT 48213" in ws.orders.text()
    assert not ws.orders.errors()
    # coordinates start off on a map of thousands of hexes (a click shows them)
    assert len(ws.gmap.grid) > 2500 and not ws.coords_action.isChecked()


def test_a_bad_order_is_flagged_with_its_line_then_fixed(viewer, qtbot):
    ws = viewer
    text = ws.orders.text().replace(" 1:\n", " 1: BUY 5 SPACESHIPS #1\n", 1)
    ws.orders.edit.setPlainText(text)
    qtbot.waitUntil(lambda: bool(ws.orders.errors()), timeout=3000)
    err = ws.orders.errors()[0]
    assert err.line == text.split("\n").index(" 1: BUY 5 SPACESHIPS #1") + 1
    assert "SPACESHIPS" in err.message
    ws.orders.edit.setPlainText(text.replace("BUY 5 SPACESHIPS #1", "BUY 5 FUEL"))
    qtbot.waitUntil(lambda: not ws.orders.errors(), timeout=3000)


def test_completion_knows_the_books_orders(viewer, qtbot):
    ed = viewer.orders.edit
    ed.moveCursor(ed.textCursor().MoveOperation.End)
    qtbot.keyClicks(ed, "CELEB")
    assert ed.completer.popup().isVisible()
    assert ed.completer.currentCompletion() == "CELEBRATE"
    qtbot.keyClick(ed.completer.popup(), Qt.Key.Key_Return)
    assert ed.toPlainText().endswith("CELEBRATE")


def test_the_turn_picker_counts_the_clans_own_turns(viewer):
    ws = viewer
    tv = ws.turn
    clan = next(c for c in tv.state["clans"] if c.number == tv.faction)
    assert tv.step > clan.turns_run  # a sequential game: the other clans' turns are steps too
    assert ws.turn_box.currentText() == f"Turn {clan.turns_run}"
    assert f"orders for turn {clan.turns_run + 1}" in ws.info.text()
    assert f"TURN {clan.turns_run + 1}" in ws.orders.text()


def test_a_convoy_clicked_then_hexes_writes_its_pulse_lines(viewer, qtbot):
    from tests.gui.conftest import send

    ws = viewer
    tv = ws.turn
    board = tv.gmap.board()
    cv = next(c for c in sorted(tv.state["convoys"], key=lambda c: c.number)
              if c.owner == tv.faction and c.number and c.type == "land")
    ws.canvas.zoom_reset()
    ws.show_cell(cv.cell)
    ws.pick_unit(cv.number, cv.cell)
    assert ws.moving_unit == cv.number and len(ws.reach) > 1
    first = dict(ws.reach)
    # the land convoy's reach: never a water hex off a road (the preview knows the terrain)
    water = {c for c in ws.reach if tv.gmap.terrain_at(c) == "water"}
    assert not water
    goal = next(c for c, d in ws.reach.items() if d == 2)
    path = board.path(cv.cell, goal)
    assert all(c in ws.reach for c in path)
    send(ws, "press", goal)
    send(ws, "press", goal)  # the last hex again: the lines are written
    steps = [next(d for d in DIRS if tv.gmap.grid.step(a, d) == b)
             for a, b in zip(path, path[1:], strict=False)]
    lines = ws.orders.text().split("\n")
    head = next(i for i, t in enumerate(lines) if t.startswith(f"ORDERS FOR LAND CONVOY #{cv.number} "))
    assert lines[head + 7:head + 9] == [f" 1: {steps[0]}", f" 2: {steps[1]}"]
    qtbot.waitUntil(lambda: len(ws.routes.routes) == 2, timeout=3000)  # drawn, pulse by pulse
    assert not ws.orders.errors()
    # a second path goes on after the first one's lines, from where they leave the convoy,
    # with the moves and fuel they leave (X253)
    ws.pick_unit(cv.number, cv.cell)
    assert ws.tool.path == [goal] and ws.reach[goal] == 0
    assert max(ws.reach.values()) <= max(first.values()) - 2
    back = path[1]   # one hex back the way it came
    assert ws.reach.get(back) == 1
    ws.click_cell(back)
    ws.tool.finish()
    lines = ws.orders.text().split("\n")
    assert lines[head + 9] == f" 3: {next(d for d in DIRS if tv.gmap.grid.step(goal, d) == back)}"


def test_the_orders_file_and_mail_name_the_clan_and_its_turn(viewer):
    from engine import orderdraft as od

    ws = viewer
    tv = ws.turn
    clan = next(c for c in tv.state["clans"] if c.number == tv.faction)
    name = ws.orders_filename()
    game = ws.orders.text().split("\n")[0].split("GAME ")[1].strip()  # the sheet's game code
    assert name == f"{game.lower()}-clan100-turn{clan.turns_run + 1:02d}.txt", name
    subject = od.orders_subject(tv.ruleset, tv.state, tv.faction, tv.scenario)
    assert f"clan 100 turn {clan.turns_run + 1}" in subject and clan.account not in subject


def test_the_editor_colours_order_words_not_the_s_of_a_name(viewer):
    rx = viewer.orders.highlighter.rx_keyword
    assert not rx.match("(Robin's Hood #1)").hasMatch()
    assert rx.match(" 3: S").captured(1) == "S"
    comment = viewer.orders.highlighter.rx_comment
    assert not comment.match("ORDERS FOR LAND CONVOY #1").hasMatch()  # `#1` is a convoy
    assert comment.match(" 1: N ; wait").captured(0) == "; wait"
