"""The main window: opening files (good, damaged, foreign), saving, recent files, drag and
drop, workspaces; the gui --screenshot command; PNG export."""

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl

from engine.map import new_map
from engine.mapfile import load_map, save_map

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def win(qtbot):
    from app.main_window import MainWindow

    w = MainWindow(interactive=False)
    qtbot.addWidget(w)
    w.show()
    return w


def small_map(path: Path, kind="hex"):
    m = new_map(kind, 12, 9, "plains")
    m.set_terrain([0, 1, 2], "forest")
    m.add_site(5, "city", "Ur")
    save_map(m, path)
    return m


def test_open_save_round_trip_and_recent(win, tmp_path):
    from app import settings

    p = tmp_path / "a.rsmap"
    small_map(p)
    assert win.open_path(p)
    assert win.editor.gmap.sites[1].name == "Ur"
    assert settings.recent_files()[0] == str(p.resolve())
    win.editor.set_tool("brush")
    win.editor.set_terrain("desert")
    from tests.gui.conftest import click

    win.editor.canvas.zoom_reset()
    click(win.editor, 40)
    assert win.isWindowModified()
    assert win.save()
    assert not win.isWindowModified()
    assert load_map(p).terrain_at(40) == "desert"


def test_damaged_file_keeps_the_open_map(win, tmp_path):
    good = tmp_path / "good.rsmap"
    small_map(good)
    win.open_path(good)
    before = win.editor.gmap
    bad = tmp_path / "bad.rsmap"
    bad.write_text('{"grid": {"kind": "hex", "width": 3', encoding="utf-8")
    assert not win.open_path(bad)
    assert "bad.rsmap" in win.statusBar().currentMessage()
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\xff" * 100)
    assert not win.open_path(junk)
    assert not win.open_path(tmp_path / "missing.rsmap")
    assert win.editor.gmap is before


def test_foreign_format_through_mapio(win, tmp_path):
    pytest.importorskip("engine.mapio")
    from engine.mapio import export_map

    m = small_map(tmp_path / "a.rsmap")
    export_map(m, tmp_path / "a.tmj")
    assert win.open_path(tmp_path / "a.tmj")
    assert win.editor.gmap.terrain_names() == m.terrain_names()


def test_drop_a_file_onto_the_window(win, tmp_path):
    from PySide6.QtGui import QDropEvent

    p = tmp_path / "dropped.rsmap.gz"
    small_map(p, "square")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p))])
    ev = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    win.dropEvent(ev)
    assert win.editor.gmap.kind == "square"
    assert win.doc.path == p


def test_workspaces_and_undo_shortcuts(win, qtbot):
    from app.main_window import WORKSPACES

    for key in ("console", "viewer", "scenario", "editor"):
        win.set_workspace(key)
        assert win.tabs.currentIndex() == WORKSPACES.index(key)
    assert win.tabs.currentWidget() is win.editor
    assert [s.toString() for s in win.redo_action.shortcuts()] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    ed = win.editor
    ed.set_terrain("forest")
    ed.set_tool("brush")
    ed.canvas.zoom_reset()
    from tests.gui.conftest import click

    click(ed, 30)
    assert ed.gmap.terrain_at(30) == "forest"
    win.undo_action.trigger()
    assert ed.gmap.terrain_at(30) == "ocean"
    win.redo_action.trigger()
    assert ed.gmap.terrain_at(30) == "forest"


def test_undo_follows_the_workspace_in_front(win):
    from PySide6.QtGui import QUndoCommand

    done = []

    class Mark(QUndoCommand):
        def redo(self):
            done.append(1)

        def undo(self):
            done.pop()

    win.set_workspace("scenario")
    win.designer.stack.push(Mark("designer edit"))
    assert done == [1] and win.undo_action.isEnabled()
    win.undo_action.trigger()  # Ctrl+Z while the designer is in front
    assert done == [] and win.designer.stack.index() == 0
    win.set_workspace("editor")
    assert win.undo_group.activeStack() is win.editor.stack
    assert not win.undo_action.isEnabled()  # the editor has nothing to undo
    win.set_workspace("console")
    assert win.undo_group.activeStack() is None


def test_generate_map_through_mapgen(win):
    mapgen = pytest.importorskip("engine.mapgen")
    from app.editor.dialogs import GenerateDialog

    dlg = GenerateDialog(mapgen, win)
    dlg.style.setCurrentText("atlantis")
    dlg.width.setValue(40)
    dlg.height.setValue(32)
    m = dlg.make_map()
    assert m.kind == "hex" and len(m.cells_with("ocean")) > 0
    win.set_map(m)
    assert win.editor.gmap is m


def test_render_and_tiled_png_export(tmp_path):
    from PySide6.QtGui import QImage

    from app.render import export_png, render_map_image

    m = new_map("hex", 30, 20, "plains")
    m.set_terrain(range(0, 600, 3), "sea")
    img = render_map_image(m, 6.0, {"terrain"})
    assert (img.width(), img.height()) == (round(45.5 * 6), round(3**0.5 * 20.5 * 6))
    whole, strips = tmp_path / "whole.png", tmp_path / "strips.png"
    export_png(m, whole, scale=6.0, tile=100000, layers={"terrain"})
    export_png(m, strips, scale=6.0, tile=37, layers={"terrain"})
    a, b = QImage(str(whole)), QImage(str(strips))
    assert a.size() == img.size() and b.size() == img.size()
    # same picture whether rendered whole or in strips (allow a few edge pixels)
    differ = sum(a.pixel(x, y) != b.pixel(x, y) for y in range(0, a.height(), 3)
                 for x in range(0, a.width(), 3))
    assert differ < a.width() * a.height() / 9 * 0.01
    colours = {a.pixel(x, y) for y in range(0, a.height(), 7) for x in range(0, a.width(), 7)}
    assert len(colours) >= 2


def test_gui_screenshot_command(tmp_path):
    p = tmp_path / "m.rsmap"
    small_map(p)
    out = tmp_path / "shot.png"
    env = {"QT_QPA_PLATFORM": "offscreen", "REALMSMITH_SETTINGS": str(tmp_path / "s.ini"),
           "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "app", str(p), "--screenshot", str(out),
                        "--size", "900x600"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert (img.width(), img.height()) == (900, 600)
    colours = {img.pixel(x, y) for y in range(0, 600, 5) for x in range(0, 900, 5)}
    assert len(colours) > 20  # a real picture, not a blank window


def test_gui_subcommand_is_discovered():
    cli = pytest.importorskip("app.cli")
    if not hasattr(cli, "main"):
        pytest.skip("app.cli has no main yet")
    r = subprocess.run([sys.executable, "-m", "app.cli", "gui", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--screenshot" in r.stdout


def test_game_database_open_edit_save(win, tmp_path):
    tinyrules = pytest.importorskip("tinyrules")
    from engine.service import GameService

    db = tmp_path / "g.db"
    GameService.create(db, tinyrules.tiny_scenario("tiny")).close()
    assert win.open_path(db)
    assert win.doc.kind == "game"
    m = win.editor.gmap
    from app.editor import commands as cmd

    win.editor.push(cmd.PaintTerrain(m, {0: "volcano"}))
    assert win.save()
    with GameService.open(db) as svc:
        assert svc.scenario.map.terrain_at(0) == "volcano"


def test_new_map_dialog_and_status_bar_coordinate(win):
    from app.editor.dialogs import NewMapDialog
    from tests.gui.conftest import send

    dlg = NewMapDialog(win)
    dlg.kind.setCurrentText("hex")
    dlg.orientation.setCurrentText("pointy")
    dlg.width.setValue(25)
    dlg.height.setValue(18)
    dlg.terrain.setCurrentText("tundra")
    m = dlg.make_map()
    assert (m.grid.width, m.grid.height, m.grid.orientation) == (25, 18, "pointy")
    assert set(m.terrain_names()) == {"tundra"}
    win.set_map(m)
    win.editor.canvas.zoom_reset()
    cell = m.grid.cell(7, 4)
    send(win.editor, "move", cell)
    assert win.cell_label.text().startswith(m.grid.label(cell))
    assert "tundra" in win.cell_label.text()


def test_an_opened_map_stays_fitted_while_the_window_settles(qtbot):
    """Interactively the first layout comes after opening: the map must still fill the view
    (it once opened as a speck at 1.4 px/cell), and must settle (no fit/scroll-bar loop)."""
    from app.main_window import MainWindow, demo_path

    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.open_path(demo_path())
    win.resize(600, 400)
    win.show()
    qtbot.wait(50)
    win.resize(1400, 900)
    qtbot.wait(100)
    canvas = win.editor.canvas
    grid = win.editor.gmap.grid
    view_w = canvas.viewport().width()
    assert canvas.ppu() * grid.width > 0.8 * view_w or canvas.ppu() * grid.height > 0.8 * canvas.viewport().height()
    canvas.zoom_in()  # the user zoomed: resizing no longer refits
    ppu = canvas.ppu()
    win.resize(1200, 800)
    qtbot.wait(50)
    assert canvas.ppu() == ppu
