"""Settings kept with QSettings: recent files, window layout, last workspace.

REALMSMITH_SETTINGS=/path/file.ini keeps them in an INI file instead (tests, portable use).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

MAX_RECENT = 10


def settings() -> QSettings:
    path = os.environ.get("REALMSMITH_SETTINGS")
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings("Realmsmith", "Realmsmith")


def recent_files() -> list[str]:
    value = settings().value("recentFiles", [])
    if isinstance(value, str):
        value = [value]
    return [str(v) for v in (value or []) if v]


def add_recent(path: str | Path) -> list[str]:
    p = str(Path(path).resolve())
    files = [p] + [f for f in recent_files() if f != p]
    files = files[:MAX_RECENT]
    settings().setValue("recentFiles", files)
    return files


def clear_recent() -> None:
    settings().setValue("recentFiles", [])


def value(key: str, default=None):
    return settings().value(key, default)


def set_value(key: str, v) -> None:
    settings().setValue(key, v)
