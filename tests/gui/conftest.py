"""pytest-qt helpers: a map editor on a small map, and mouse events aimed at cells."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _settings(tmp_path, monkeypatch):
    monkeypatch.setenv("REALMSMITH_SETTINGS", str(tmp_path / "settings.ini"))


@pytest.fixture
def console(qtbot):
    """A GM console workspace, shown, that never opens message boxes."""
    from app.console import ConsoleWorkspace

    w = ConsoleWorkspace(interactive=False)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.show()
    yield w
    w.close_game()


def open_viewer(qtbot, bundle, *, reset_zoom: bool = False):
    """A player viewer workspace at the tests' size, shown, with the bundle open (it never
    opens message boxes); `reset_zoom`: at 32 px a cell, so every cell is easy to hit."""
    from app.viewer.workspace import ViewerWorkspace

    ws = ViewerWorkspace(interactive=False)
    qtbot.addWidget(ws)
    ws.resize(1300, 850)
    ws.show()
    qtbot.waitExposed(ws)
    assert ws.open_paths([bundle])
    if reset_zoom:
        ws.canvas.zoom_reset()
    return ws


def make_editor(qtbot, gmap):
    from app.editor.workspace import MapEditor

    ed = MapEditor(gmap=gmap)
    qtbot.addWidget(ed)
    ed.resize(1000, 700)
    ed.show()
    qtbot.waitExposed(ed)
    ed.canvas.zoom_reset()  # 32 px a cell: every test cell is easy to hit
    return ed


def cell_pos(ed, cell):
    from PySide6.QtCore import QPointF

    x, y = ed.gmap.grid.center(cell)
    ed.canvas.centerOn(QPointF(x, y)) if not _visible(ed, x, y) else None
    return ed.canvas.mapFromScene(QPointF(x, y))


def _visible(ed, x, y):
    return ed.canvas.visible_rect().adjusted(2, 2, -2, -2).contains(x, y)


def send(ed, kind, cell, button=None, modifiers=None):
    """Send a real QMouseEvent to the canvas viewport at a cell's centre."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    button = button or Qt.MouseButton.LeftButton
    modifiers = modifiers or Qt.KeyboardModifier.NoModifier
    pos = QPointF(cell_pos(ed, cell))
    types = {"press": QEvent.Type.MouseButtonPress, "move": QEvent.Type.MouseMove,
             "release": QEvent.Type.MouseButtonRelease}
    vp = ed.canvas.viewport()
    glob = QPointF(vp.mapToGlobal(pos.toPoint()))
    btn = Qt.MouseButton.NoButton if kind == "move" else button
    buttons = Qt.MouseButton.NoButton if kind == "release" else button
    ev = QMouseEvent(types[kind], pos, glob, btn, buttons, modifiers)
    QApplication.sendEvent(vp, ev)


def drag(ed, cells, button=None, modifiers=None):
    send(ed, "press", cells[0], button, modifiers)
    for c in cells[1:]:
        send(ed, "move", c, button, modifiers)
    send(ed, "release", cells[-1], button, modifiers)


def click(ed, cell, button=None, modifiers=None):
    send(ed, "press", cell, button, modifiers)
    send(ed, "release", cell, button, modifiers)
