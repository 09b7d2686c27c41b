"""The map editor and the scenario designer on the King of Kings demo game, in a real X
server (Xvfb), through the same `realmsmith gui --screenshot` a GM uses for bug reports.
(The console and the viewer have their own Xvfb tests beside their other tests.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from PySide6.QtGui import QColor, QImage

from engine import registry
from engine.palette import terrain_colour
from engine.service import GameService

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("xvfb-run") is None, reason="needs xvfb-run (python3 dev.py installs it as root)")]


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("xvfb") / "demo.db"
    scen, _ = registry.get("kok").demo()
    GameService.create(db, scen).close()
    return db


def _shot(db, workspace: str, out) -> QImage:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["REALMSMITH_SETTINGS"] = str(out.with_suffix(".ini"))
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", sys.executable, "-m",
                        "app.cli", "gui", str(db), "--workspace", workspace, "--screenshot", str(out)],
                       capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 0, r.stderr
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1400, 900)
    return img


def _share(img: QImage, hex_colour: str, box: tuple[int, int, int, int]) -> float:
    """Share of sampled pixels in box (x, y, w, h) within a few levels of a colour."""
    want = QColor(hex_colour)
    x0, y0, w, h = box
    hits = total = 0
    for x in range(x0, x0 + w, 5):
        for y in range(y0, y0 + h, 5):
            c = QColor(img.pixel(x, y))
            total += 1
            hits += max(abs(c.red() - want.red()), abs(c.green() - want.green()),
                        abs(c.blue() - want.blue())) <= 6
    return hits / total


@pytest.mark.parametrize("workspace", ["editor", "scenario"])
def test_workspace_shows_the_demo_map(demo_db, workspace, tmp_path):
    img = _shot(demo_db, workspace, tmp_path / f"{workspace}.png")
    # the map fills the centre (editor) or the right half (designer): the demo map's sea
    # rim and its plains are both drawn in their palette colours
    box = (300, 200, 700, 500) if workspace == "editor" else (800, 280, 550, 350)
    assert _share(img, terrain_colour("sea"), box) > 0.10
    assert _share(img, terrain_colour("plains"), box) > 0.03
    colours = {img.pixel(x, y) for x in range(0, 1400, 9) for y in range(0, 900, 9)}
    assert len(colours) > 40  # terrain, sites, panels and text: a blank window has a handful
