"""Site markers (cities, towns, landings) on the player viewer's and the GM console's maps,
as on the map editor's: their political layers (ownership, coordinates, troop badges) are
painted below the sites but must not take the frame's tile-building time from them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF

from tests.gui.conftest import open_viewer

pytestmark = pytest.mark.gui

# rulesets whose demo maps have sites on a grid (ARTNES is a region map without sites)
RULESETS = ["kok", "coi", "atlantis", "cc"]


@pytest.fixture(scope="module")
def demo_games(tmp_path_factory):
    """Each ruleset's demo game after its first turn (CoI: before, it has no scripted turn)."""
    from app.cli import main

    out = {}
    for name in RULESETS:
        folder = tmp_path_factory.mktemp(name)
        assert main(["demo", "--ruleset", name, "--dir", str(folder), "--turns", "1"]) == 0
        out[name] = folder / f"{name}-demo.db"
    return out


def markers_shown(canvas, skip=frozenset()) -> dict[str, bool]:
    """{site name: its marker shows} for the sites whose cell centre is on screen (and not
    in `skip`): the screen as painted, once idle time has built what the frames asked for,
    against the same screen with the sites layer hidden."""
    from PySide6.QtWidgets import QApplication

    from app.canvas.tiles import settle

    scene = canvas.map_scene()
    settle(QApplication.instance())
    vp = canvas.viewport()
    shown = vp.grab().toImage()
    scene.sites.setVisible(False)
    try:
        bare = vp.grab().toImage()
    finally:
        scene.sites.setVisible(True)
    out = {}
    gmap = scene.gmap
    for site in gmap.sites.values():
        at = canvas.mapFromScene(QPointF(*gmap.grid.center(site.cell)))
        if site.cell in skip or not vp.rect().adjusted(4, 4, -4, -4).contains(at):
            continue
        out[site.name or f"#{site.id}"] = shown.pixel(at) != bare.pixel(at)
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_the_viewer_map_shows_the_sites(qtbot, demo_games, name):
    ws = open_viewer(qtbot, demo_games[name])
    assert ws.scene.sites.isVisible()
    dark = {int(c) for c in ws.fog.dark_cells}  # out of the faction's sight: fogged over
    got = markers_shown(ws.canvas, dark)
    assert got, "no site on screen to look at"
    assert all(got.values()), f"site markers missing: {sorted(k for k, v in got.items() if not v)}"


@pytest.mark.parametrize("name", RULESETS)
def test_the_console_map_shows_the_sites(qtbot, console, demo_games, name):
    w = console
    assert w.set_game(demo_games[name])
    w.tabs.setCurrentWidget(w.results)
    qtbot.waitExposed(w.results.map.canvas)
    got = markers_shown(w.results.map.canvas)
    assert got, "no site on screen to look at"
    assert all(got.values()), f"site markers missing: {sorted(k for k, v in got.items() if not v)}"
