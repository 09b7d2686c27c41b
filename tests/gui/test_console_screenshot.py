"""`realmsmith gui GAME --workspace console --screenshot PNG` on the demo game after a turn
(under Xvfb when it is installed, offscreen otherwise)."""

import os
import shutil
import subprocess
import sys

from PySide6.QtGui import QImage

from engine import registry
from engine.service import GameService


def test_console_screenshot(tmp_path):
    scen, script = registry.get("kok").demo()
    db = tmp_path / "demo.db"
    with GameService.create(db, scen) as svc:
        for f, text in script[1].items():
            svc.import_text(text, faction=f)
        svc.run()
    out = tmp_path / "console.png"
    cmd = [sys.executable, "-m", "app.cli", "gui", str(db), "--workspace", "console",
           "--screenshot", str(out)]
    env = dict(os.environ, REALMSMITH_SETTINGS=str(tmp_path / "s.ini"))
    if shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1400x900x24"] + cmd
        env.pop("QT_QPA_PLATFORM", None)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env)
    assert r.returncode == 0, r.stderr
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1400, 900)
    # the console's results page: the map's sea blue and the owner colours are on screen
    colours = {img.pixel(x, y) for x in range(0, 1400, 7) for y in range(150, 850, 7)}
    assert len(colours) > 40
