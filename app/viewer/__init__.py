"""The player viewer: `realmsmith-viewer [BUNDLE...]`.

Opens a report bundle (.rsbundle) the GM sent: the map as the faction sees it, units,
events and battles, the report, and an orders editor with the GM's own checker.
Several bundles of one game open merged (regions no longer seen keep their last known
state, marked with the turn seen). `--selftest` opens the packaged sample offscreen.

Qt is imported inside main() so `--help` starts without it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

SAMPLE_NAME = "kok-demo-t004-f01.rsbundle"


def resources_dir() -> Path:
    """resources/ beside the packages, or inside a PyInstaller bundle (sys._MEIPASS)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def sample_bundle() -> Path:
    return resources_dir() / "samples" / SAMPLE_NAME


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="realmsmith-viewer",
        description="Open your turn report (.rsbundle), read the map and write checked orders.")
    p.add_argument("bundles", nargs="*", metavar="BUNDLE",
                   help="report bundles; several turns of one game are merged")
    p.add_argument("--faction", type=int,
                   help="faction to view when opening a GM's game database instead of a bundle")
    p.add_argument("--selftest", action="store_true",
                   help="open a bundle (default: the packaged sample) offscreen, check the map, "
                        "report and order checker, print OK and exit 0")
    p.add_argument("--screenshot", metavar="PNG", help="render the window to PNG and exit")
    p.add_argument("--size", default="1400x900", metavar="WxH")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    headless = args.selftest or args.screenshot
    if headless and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.selftest:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from app.viewer.selftest import run_selftest

        return run_selftest(args.bundles[0] if args.bundles else None)
    from app.startup import parse_size, qt_app, screenshot

    size = parse_size(args.size, "realmsmith-viewer")
    if size is None:
        return 2
    app = qt_app("Realmsmith Viewer")
    from app.viewer.window import ViewerWindow

    win = ViewerWindow(interactive=not args.screenshot)
    ok = True
    if args.bundles:
        ok = win.workspace.open_paths(args.bundles, faction=args.faction)
    if args.screenshot:
        rc = screenshot(app, win, size, args.screenshot, "realmsmith-viewer", win.workspace.canvas.fit)
        return rc or (0 if ok else 1)
    win.show()
    return app.exec()


__all__ = ["main", "sample_bundle", "resources_dir"]
