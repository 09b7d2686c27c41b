"""Toolbar icons: simple SVG drawings in resources/icons/ (made for Realmsmith, no downloads).

icon("run") is the QIcon of resources/icons/run.svg; a missing file gives an empty icon
(the action keeps its text), so a damaged install degrades instead of failing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtGui import QIcon

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


@lru_cache(maxsize=64)
def icon(name: str) -> QIcon:
    path = ICONS / f"{name}.svg"
    return QIcon(str(path)) if path.exists() else QIcon()


def names() -> list[str]:
    """Every icon there is (tests check each one renders)."""
    return sorted(p.stem for p in ICONS.glob("*.svg"))
