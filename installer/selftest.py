"""`realmsmith --selftest`: proves a built studio bundle has what it needs.

Each check names what it looked for, so a failing bundle says which file or module the
spec left out. Runs offscreen (no display needed) and takes about a second.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path


def _rulesets() -> str:
    from engine import registry

    names = registry.available()
    missing = sorted(set(registry.BUILTIN) - set(names))
    if missing:
        raise RuntimeError(f"rulesets that do not load: {registry.problems()}")
    for name in sorted(registry.BUILTIN):
        rs = registry.get(name)
        if not rs.default_catalogs():  # reads resources/<ruleset>/*.csv
            raise RuntimeError(f"{name}: no catalogs")
        if "demo" in rs.capabilities:  # a ruleset still being built may have none yet
            rs.demo()  # reads maps/<ruleset>/...
    return ", ".join(names)


def _kok_report_template() -> str:
    from engine.rulesets.kok import reports

    path = reports.TEMPLATES / "report.html.j2"
    if not path.is_file():
        raise RuntimeError(f"missing {path}")
    return path.name


def _palette() -> str:
    from app.canvas.palette import PALETTES, load_palette

    pal = load_palette("default")
    if not pal:
        raise RuntimeError(f"empty palette in {PALETTES}")
    return f"{len(pal)} terrain colours"


def _demo_game() -> str:
    """One KoK turn through the whole stack: SQLite game database (SQLModel), orders
    intake, the turn, and the reports (Jinja templates)."""
    import contextlib
    import io
    import tempfile

    from app.cli import main as cli

    with tempfile.TemporaryDirectory(prefix="realmsmith-selftest-") as tmp:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = cli(["demo", "--ruleset", "kok", "--dir", tmp, "--turns", "1"])
        if code != 0:
            raise RuntimeError(f"realmsmith demo exit {code}: {out.getvalue()[-300:]}")
        reports = sorted(Path(tmp).rglob("*.html"))
        if not reports:
            raise RuntimeError("the demo turn wrote no HTML reports")
        return f"1 turn, {len(reports)} HTML reports"


def _studio_window() -> str:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.main_window import MainWindow, demo_path

    demo = demo_path()
    if demo is None:
        raise RuntimeError("the King of Kings demo map is not in the bundle (maps/kok-demo)")
    win = MainWindow(interactive=False)
    if not win.open_path(demo):
        raise RuntimeError(f"cannot open {demo}")
    win.resize(800, 600)
    win.show()
    app.processEvents()
    image = win.grab().toImage()
    win.close()
    if image.isNull():
        raise RuntimeError("the window did not render")
    return f"{demo.name} {image.width()}x{image.height()}"


CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("rulesets", _rulesets),
    ("kok report template", _kok_report_template),
    ("palette", _palette),
    ("demo game", _demo_game),
    ("studio window", _studio_window),
]


def run() -> int:
    """Print one line per check and a final OK line; exit code 0 only if all passed."""
    start = time.perf_counter()
    failed = 0
    for label, check in CHECKS:
        try:
            print(f"  {label}: {check()}")
        except Exception as e:  # report every broken part, not just the first
            failed += 1
            print(f"  {label}: FAILED {type(e).__name__}: {e}")
    took = time.perf_counter() - start
    frozen = "frozen" if getattr(sys, "frozen", False) else "source"
    if failed:
        print(f"realmsmith selftest FAILED: {failed} of {len(CHECKS)} checks ({frozen})")
        return 1
    print(f"realmsmith selftest OK ({frozen}, {took:.2f} s)")
    return 0
