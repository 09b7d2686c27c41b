"""Refresh the screenshots in docs/screenshots/: every workspace (map editor, scenario
designer, GM console, player viewer) of every ruleset's demo game, in a 1280x720 window,
plus each demo's political map as `realmsmith map export GAME --png` draws it.

    python3 dev.py screenshots            (or: .venv/bin/python docs/screenshots/make_screenshots.py)
    python3 dev.py screenshots kok        (one ruleset)

Runs under the real X server when there is one, else under Xvfb (xvfb-run) when installed,
else offscreen. Look at every picture after refreshing: they are what a new user sees first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULESETS = ("kok", "artnes", "coi", "atlantis", "cc")
WORKSPACES = ("editor", "scenario", "console", "viewer")
SIZE = (1280, 720)


def main(argv: list[str]) -> int:
    rulesets = [a for a in argv if a in RULESETS] or list(RULESETS)
    if not os.environ.get("DISPLAY") and "--inner" not in argv:
        if shutil.which("xvfb-run"):  # a real X server's fonts and styles, as users see them
            return subprocess.call(["xvfb-run", "-a", "-s", "-screen 0 1280x720x24",
                                    sys.executable, __file__, "--inner", *rulesets])
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from app.startup import qt_app

    app = qt_app("Realmsmith")
    with tempfile.TemporaryDirectory(prefix="realmsmith-shots-") as tmp:
        for rs in rulesets:
            db = make_demo(rs, Path(tmp))
            for ws in WORKSPACES:
                out = HERE / f"{rs}-{ws}.png"
                shoot(app, db, ws, out, STAGES.get((rs, ws)))
                print(f"{out.relative_to(HERE.parent.parent)}: {out.stat().st_size // 1024} KB")
            out = HERE / f"{rs}-political-map.png"
            political(db, out)
            print(f"{out.relative_to(HERE.parent.parent)}: {out.stat().st_size // 1024} KB")
    return 0


def make_demo(ruleset: str, tmp: Path) -> Path:
    from app.cli import main as cli

    folder = tmp / ruleset
    rc = cli(["demo", "--ruleset", ruleset, "--dir", str(folder)])
    if rc:
        raise SystemExit(f"realmsmith demo --ruleset {ruleset} failed ({rc})")
    return next(folder.glob("*.db"))


def stage_cc_viewer(win, app) -> None:
    """Continental Conquest's viewer zoomed on clan 100's first land convoy, a three-hex path
    written into its pulse lines (drawn as a route) and its reach this turn shown."""
    from PySide6.QtTest import QTest

    from app.canvas import geometry as geo

    ws = win.viewer
    tv = ws.turn
    cv = min((c for c in tv.state["convoys"] if c.owner == tv.faction and c.number and c.type == "land"),
             key=lambda c: c.number)
    board = tv.gmap.board()
    ws.canvas.set_ppu(24.0 / geo.cell_extent(tv.gmap.grid))
    ws.pick_unit(cv.number, cv.cell)
    goal = max((c for c, d in ws.reach.items() if d == 3), key=lambda c: (board.distance(cv.cell, c), -c))
    for c in board.path(cv.cell, goal)[1:]:
        ws.click_cell(c)
    ws.tool.finish()
    QTest.qWait(500)  # the check after the edit draws the route
    ws.pick_unit(cv.number, cv.cell)  # the reach preview of the next path
    ws.show_cell(cv.cell)
    text = ws.orders.text().split("\n")
    head = next(i for i, t in enumerate(text) if t.startswith(f"ORDERS FOR LAND CONVOY #{cv.number} "))
    ws.orders.go_to_line(head + 8)  # the convoy's pulse lines in the middle of the pane
    for _ in range(5):
        app.processEvents()


STAGES = {("cc", "viewer"): stage_cc_viewer}  # what a workspace's picture shows, beyond the default


def shoot(app, db: Path, workspace: str, out: Path, stage=None) -> None:
    from app.canvas.tiles import settle
    from app.main_window import MainWindow

    win = MainWindow(interactive=False)
    try:
        win.resize(*SIZE)
        win.show()
        win.open_path(db)
        win.set_workspace(workspace)
        for _ in range(10):
            app.processEvents()
        cv = win.front_canvas()
        if cv is not None:
            cv.fit()
        if stage is not None:
            stage(win, app)
        settle(app)
        save(win.grab().toImage(), out)
    finally:
        win.close()
        win.deleteLater()
        app.processEvents()


def political(db: Path, out: Path) -> None:
    from app.render import export_political_png
    from engine.service import GameService

    svc = GameService.open(db)
    try:
        export_political_png(svc, out, width=1200)
    finally:
        svc.close()


def save(image, out: Path) -> None:
    """An 8-bit palette PNG at maximum compression (app.render.palette_image): a screenshot
    is well under 200 KB without visible change."""
    from app.render import palette_image

    if not palette_image(image).save(str(out), "PNG", 0):
        raise SystemExit(f"cannot write {out}")


if __name__ == "__main__":
    sys.exit(main([a for a in sys.argv[1:]]))
