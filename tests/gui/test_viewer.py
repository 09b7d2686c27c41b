"""The player viewer end to end on a King of Kings bundle: lists with filters, orders with
live checking, a move drawn on the map, saving, and the GM importing the saved file."""

from __future__ import annotations

import email
import subprocess
import sys
from email import policy
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import open_viewer, send

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The KoK demo run for two turns and player 1's bundle of turn 2."""
    from app.viewer.sample import make_demo_game
    from engine.bundle import write_bundle
    from engine.service import GameService

    folder = tmp_path_factory.mktemp("kok")
    db = make_demo_game(folder, turns=2)
    with GameService.open(db) as svc:
        bundle = write_bundle(svc, 1, folder / "demo-t002-f01.rsbundle")
    return db, bundle


@pytest.fixture
def viewer(qtbot, game):
    ws = open_viewer(qtbot, game[1])
    ws.canvas.zoom_reset()
    return ws


def _own_land_start(ws):
    """A land cell with own troops that can step onto a land neighbour."""
    tv = ws.turn
    grid = tv.gmap.grid
    for a in sorted({a.cell for a in tv.state["armies"] if a.tribe == 1 and a.count > 0}):
        if tv.gmap.terrain_at(a) == "sea":
            continue
        reach = ws.model.reachable(a)
        for n in grid.neighbours(a):
            if n in reach and n != a:
                return a, n
    raise AssertionError("no own army can move")


def _expected_line(tv, start, goal):
    grid = tv.gmap.grid
    order = ["F", "B", "H", "C", "G", "S"]
    abbr = {"F": "FO", "B": "BO", "H": "HO", "C": "CA", "G": "GE", "S": "SH"}
    units = {a.troop: a.count for a in tv.state["armies"] if a.cell == start and a.tribe == 1}
    words = " ".join(f"{abbr[s]} {units[s]}" for s in order if units.get(s) and s not in "CS")
    x, y = grid.xy(start)
    return f"LAND {x} {y} {words} {grid.direction(start, goal)[0]}"


def test_opens_map_lists_report_and_template(viewer):
    ws = viewer
    tv = ws.turn
    assert tv.step == 2 and tv.faction == 1
    assert ws.scene is not None and ws.gmap is tv.gmap
    assert "KING OF KINGS" in ws.report.toPlainText()
    assert ws.orders.text().startswith("# King of Kings") and "SP1.R3" in ws.orders.text()
    assert not ws.orders_unsaved()
    assert ws.units.model.rowCount() == len([a for a in tv.state["armies"] if a.count > 0])
    assert ws.events.list.count() > 0 and "Achaeans places" in " ".join(ws.events.visible_lines())
    assert ws.political.stacks.groups and ws.political.ownership.paths


def test_filter_the_lists(viewer, qtbot):
    ws = viewer
    total = ws.regions.proxy.rowCount()
    qtbot.keyClicks(ws.regions.filter, "Argos")
    rows = ws.regions.visible_rows()
    assert [r[1] for r in rows] == ["Argos"] and total > 1
    ws.regions.filter.clear()
    assert ws.regions.proxy.rowCount() == total
    qtbot.keyClicks(ws.units.filter, "Persians")
    rows = ws.units.visible_rows()
    assert rows and all(r[1] == "Persians" for r in rows)
    ws.units.view.sortByColumn(3, Qt.SortOrder.DescendingOrder)
    counts = [r[3] for r in ws.units.visible_rows()]
    assert counts == sorted(counts, reverse=True)


def test_error_listed_then_fixed_then_move_drawn_saved_and_imported(viewer, qtbot, game, tmp_path):
    ws = viewer
    ed = ws.orders.edit
    # one error: a misspelt order, typed into the editor
    cursor = ed.textCursor()
    end_block = ed.document().findBlockByNumber(
        next(i for i, ln in enumerate(ws.orders.text().split("\n")) if ln.strip() == "END"))
    cursor.setPosition(end_block.position())
    ed.setTextCursor(cursor)
    qtbot.keyClicks(ed, "DEF 3 2 X")
    qtbot.keyClick(ed, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("line" in ws.orders.problems.item(i).text()
                                for i in range(ws.orders.problems.count())), timeout=3000)
    errors = ws.orders.errors()
    assert len(errors) == 1 and errors[0].text.startswith("DEF 3 2 X")
    bad_line = errors[0].line
    # the problem list jumps to the line
    ws.orders._activated(ws.orders.problems.item(0))
    assert ed.textCursor().blockNumber() + 1 == bad_line
    assert ws.scene.selection.cells.tolist() == [ws.gmap.grid.cell(3, 2)]
    # fix it
    text = ws.orders.text().replace("DEF 3 2 X", "DEF 3 2 C")
    ed.setPlainText(text)
    qtbot.waitUntil(lambda: not ws.orders.errors() and ws.orders.problems.count() == 1, timeout=3000)
    # draw a move: own army, one step, click the goal again to write the order
    start, goal = _own_land_start(ws)
    send(ws, "press", start)
    assert ws.tool.path == [start] and goal in ws.reach
    assert len(ws.reach_overlay.cells) >= 2
    send(ws, "press", goal)
    send(ws, "press", goal)
    expected = _expected_line(ws.turn, start, goal)
    lines = ws.orders.text().split("\n")
    assert expected in lines
    assert lines.index(expected) < lines.index("END")
    assert ws.tool.path == [] and not ws.orders.errors()
    qtbot.waitUntil(lambda: len(ws.routes.routes) == 1, timeout=3000)  # drawn as a route
    pts, bad = ws.routes.routes[0]
    assert len(pts) == 2 and not bad
    # save with the GM's file name, write the e-mail
    assert ws.orders_unsaved()
    out = ws.save_orders(tmp_path)
    assert not ws.orders_unsaved()
    assert out.name == "SP1.R3" and out.read_text(encoding="utf-8") == ws.orders.text()
    eml = ws.write_email(tmp_path / "orders.eml")
    msg = email.message_from_bytes(eml.read_bytes(), policy=policy.default)
    assert msg["Subject"] == "DEMO 3"
    assert [p.get_filename() for p in msg.iter_attachments()] == ["SP1.R3"]
    # the GM imports the saved file: matched to player 1, turn 3, no errors
    from engine.service import GameService

    with GameService.open(game[0]) as svc:
        rep = svc.import_paths([out])
        assert len(rep.results) == 1
        res = rep.results[0]
        assert (res.submission.faction, res.submission.step) == (1, 3)
        assert [d for d in res.diagnostics if d.severity == "error"] == []
        assert not rep.problems


def test_escape_cancels_and_clicking_foreign_cell_only_shows_it(viewer):
    ws = viewer
    tv = ws.turn
    foreign = next(a.cell for a in tv.state["armies"] if a.tribe != 1 and a.count > 0
                   and not any(b.cell == a.cell and b.tribe == 1 for b in tv.state["armies"]))
    send(ws, "press", foreign)
    assert ws.tool.path == [] and ws.scene.selection.cells.tolist() == [foreign]
    start, _goal = _own_land_start(ws)
    send(ws, "press", start)
    assert ws.tool.path == [start]
    from PySide6.QtTest import QTest

    ws.canvas.setFocus()
    QTest.keyClick(ws.canvas, Qt.Key.Key_Escape)
    assert ws.tool.path == [] and len(ws.reach_overlay.cells) == 0
    before = ws.orders.text()
    assert ws.commit_move() == "" and ws.orders.text() == before


def test_completion_offers_keywords(viewer, qtbot):
    ed = viewer.orders.edit
    ed.moveCursor(ed.textCursor().MoveOperation.End)
    qtbot.keyClicks(ed, "LA")
    assert ed.completer.popup().isVisible()
    assert ed.completer.currentCompletion() == "LAND"
    qtbot.keyClick(ed.completer.popup(), Qt.Key.Key_Return)
    assert ed.toPlainText().endswith("LAND")


def test_two_turns_merge_in_the_viewer(qtbot):
    from app.viewer import sample_bundle
    from app.viewer.workspace import ViewerWorkspace

    ws = ViewerWorkspace(interactive=False)
    qtbot.addWidget(ws)
    t4 = sample_bundle()
    assert ws.open_paths([t4.with_name("kok-demo-t003-f01.rsbundle"), t4])
    assert ws.model.steps == [3, 4] and ws.turn.step == 4
    assert ws.turn_box.count() == 2
    ws.turn_box.setCurrentIndex(0)
    assert "Turn 3" in ws.report.toPlainText()
    assert not ws.open_paths([Path("/nonexistent.rsbundle")], add=True)
    assert ws.model.steps == [3, 4]


def test_studio_opens_bundle_in_viewer_workspace(qtbot, game):
    from app.main_window import MainWindow

    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.open_path(game[1])
    assert win.tabs.currentWidget() is win.viewer
    assert win.viewer.turn.step == 2


def test_studio_opens_compressed_bundle_from_the_outbox(qtbot, game, tmp_path):
    from app.main_window import MainWindow
    from engine.outbox import compressed

    gz = tmp_path / (Path(game[1]).name + ".gz")
    gz.write_bytes(compressed(Path(game[1]).read_bytes()))
    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.open_path(gz)
    assert win.tabs.currentWidget() is win.viewer
    assert win.viewer.turn.step == 2
    assert not win.open_path(tmp_path / "missing.rsbundle.gz")


def test_selftest_exits_zero():
    r = subprocess.run([sys.executable, "-m", "app.viewer", "--selftest"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("OK ")
    bad = subprocess.run([sys.executable, "-m", "app.viewer", "--selftest", "/nonexistent.rsbundle"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "nonexistent" in bad.stderr


def test_gui_screenshot_of_viewer_workspace(game, tmp_path):
    png = tmp_path / "viewer.png"
    r = subprocess.run([sys.executable, "-m", "app.cli", "gui", str(game[1]), "--workspace", "viewer",
                        "--screenshot", str(png), "--size", "1200x800"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert (img.width(), img.height()) == (1200, 800)


def _colours(img, step=16):
    return {img.pixel(x, y) for x in range(0, img.width(), step) for y in range(0, img.height(), step)}


@pytest.mark.slow
@pytest.mark.skipif(__import__("shutil").which("xvfb-run") is None, reason="needs xvfb-run")
def test_viewer_screenshot_under_xvfb(tmp_path):
    """A real X server: the window shows the map, lists and editor (not a blank frame)."""
    from app.viewer import sample_bundle

    png = tmp_path / "xvfb.png"
    env = {k: v for k, v in __import__("os").environ.items() if k != "QT_QPA_PLATFORM"}
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", sys.executable, "-m",
                        "app.viewer", str(sample_bundle()), "--screenshot", str(png)],
                       cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert (img.width(), img.height()) == (1400, 900)
    assert len(_colours(img)) > 40  # terrain, owners, markers, text: a blank window has ~3
    centre = img.copy(450, 250, 400, 350)
    assert len(_colours(centre, 8)) > 15


def test_game_database_shows_a_chosen_faction(qtbot, game):
    from app.viewer.workspace import ViewerWorkspace

    ws = ViewerWorkspace(interactive=False)
    qtbot.addWidget(ws)
    ws.show()
    assert ws.open_paths([game[0]])
    assert ws.turn.faction == 1 and not ws.turn.bundle
    assert ws._faction_actions[1].isVisible()
    i = ws.faction_box.findData(3)
    ws.faction_box.setCurrentIndex(i)
    ws.faction_box.activated.emit(i)
    assert ws.turn.faction == 3 and "player 3" in ws.orders.text()
    assert ws.open_paths([game[1]])  # a bundle: no faction choice
    assert ws.turn.bundle and not ws._faction_actions[1].isVisible()
    assert "player 1" in ws.orders.text()


def test_the_viewer_window_title_names_the_turn_as_players_do(qtbot):
    from app.viewer import sample_bundle
    from app.viewer.window import ViewerWindow

    win = ViewerWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.workspace.open_paths([sample_bundle()])
    assert ", Turn 4 — Realmsmith Viewer" in win.windowTitle()
    assert win.workspace.turn_box.currentText() == "Turn 4"


def test_coordinates_leave_the_fog_of_war_blank(qtbot, tmp_path):
    """An Atlantis faction sees only its own region: the coordinate labels must not be
    drawn over the dark fog (they read as noise there), only over what the faction sees."""
    import numpy as np

    from app.cli import main
    from app.main_window import MainWindow

    assert main(["demo", "--ruleset", "atlantis", "--dir", str(tmp_path), "--turns", "1"]) == 0
    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.open_path(tmp_path / "atlantis-demo.db")
    win.tabs.setCurrentWidget(win.viewer)
    ws = win.viewer
    assert ws.turn is not None
    dark = ws.fog.dark_cells
    assert len(dark) > 0
    r = ws.scene.itemsBoundingRect()
    labelled = ws.scene.coords.cells_to_label(40.0, r.left(), r.top(), r.right(), r.bottom())
    assert len(labelled) > 0 and not np.isin(labelled, dark).any()
