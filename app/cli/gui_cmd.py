"""`realmsmith gui [GAME] [--workspace ...] [--screenshot PNG]`: open the studio.

Qt is imported inside the handler only, so `realmsmith --help` and the other commands
start without it.
"""

from __future__ import annotations

import argparse
import os
import sys

WORKSPACES = ("editor", "scenario", "console", "viewer")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", help="a game database or a map file (.rsmap, .rsmap.gz, "
                   ".tmj, .tmx); default: the demo map when present")
    p.add_argument("--workspace", choices=WORKSPACES, default="editor",
                   help="workspace to show first (default: editor)")
    p.add_argument("--screenshot", metavar="PNG",
                   help="render the window offscreen to PNG and exit (docs, tests, bug reports)")
    p.add_argument("--size", default="1400x900", metavar="WxH",
                   help="window size for --screenshot (default 1400x900)")
    p.add_argument("--zoom", type=float, metavar="PX",
                   help="pixels per cell to show (default: fit the map)")


def register(sub) -> None:
    p = sub.add_parser("gui", help="open the Realmsmith studio (map editor and workspaces)",
                       description=__doc__.splitlines()[0])
    add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    headless = (sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
                and not os.environ.get("WAYLAND_DISPLAY"))
    if args.screenshot and headless:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    elif headless and not os.environ.get("QT_QPA_PLATFORM"):
        # Qt's own message here is a cryptic plug-in error; say what is going on instead.
        what = f" on {args.game}" if args.game else ""
        print(f"realmsmith gui: no display to open the studio{what} (DISPLAY is not set).\n"
              "  Run it on a desktop, over ssh -X, or under xvfb-run; or render the window\n"
              "  offscreen: realmsmith gui GAME --screenshot out.png", file=sys.stderr)
        return 1
    from app.startup import parse_size, qt_app, screenshot

    size = parse_size(args.size, "realmsmith gui")
    if size is None:
        return 2
    app = qt_app("Realmsmith")
    from app.main_window import MainWindow, demo_path

    win = MainWindow(interactive=not args.screenshot)
    ok = True
    target = args.game or demo_path()
    if target is not None:
        ok = win.open_path(target)
    win.set_workspace(args.workspace)
    if args.screenshot:
        def settle() -> None:
            win.editor.canvas.fit()
            app.processEvents()
            if args.zoom:
                win.editor.canvas.set_ppu(args.zoom / _cell_extent(win))

        rc = screenshot(app, win, size, args.screenshot, "realmsmith gui", settle)
        return rc or (0 if ok else 1)
    win.show()
    if args.zoom:
        win.editor.canvas.set_ppu(args.zoom / _cell_extent(win))
    return app.exec()


def _cell_extent(win) -> float:
    from app.canvas.geometry import cell_extent

    return cell_extent(win.editor.gmap.grid)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m app", description="Open the Realmsmith studio.")
    add_arguments(p)
    return run(p.parse_args(argv))
