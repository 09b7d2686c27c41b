"""What the studio and the player viewer share when they start: the Qt application, the
--size argument, and --screenshot (render the window, save a PNG, exit)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def parse_size(text: str, prog: str) -> tuple[int, int] | None:
    """'1400x900' -> (1400, 900); None after printing the usage error."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        return w, h
    except ValueError:
        print(f"{prog}: --size wants WIDTHxHEIGHT, got {text!r}", file=sys.stderr)
        return None


def qt_app(name: str) -> Any:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(name)
    app.setOrganizationName("Realmsmith")
    return app


def screenshot(app: Any, win: Any, size: tuple[int, int], path: str, prog: str,
               settle: Callable[[], None] | None = None) -> int:
    """Show the window at `size`, let it lay out, call `settle` (fit the map...), save PNG."""
    win.resize(*size)
    win.show()
    for _ in range(5):
        app.processEvents()
    if settle is not None:
        settle()
    from app.canvas.tiles import settle as build_tiles

    build_tiles(app)  # the map's tiles are built in idle time: wait for all of them
    image = win.grab().toImage()
    if not image.save(path):
        print(f"{prog}: cannot write {path}", file=sys.stderr)
        return 1
    print(f"{path}: {image.width()}x{image.height()}")
    win.close()
    return 0
