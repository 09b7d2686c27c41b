"""The game database: one SQLite file per game by default, any SQLAlchemy URL in general.

`schema` holds the fixed tables, `dynamic` builds typed tables for a ruleset's
catalogs and state, `store` and `journal` read and write them with batched Core
statements. The game service (engine.service) is the API the app and the CLI use.

The store (and with it SQLAlchemy) is imported on first use, so that importing
`engine.db.errors` stays cheap for the command line's start-up.
"""

from __future__ import annotations

from typing import Any

from engine.db.errors import (
    CorruptGame,
    DiskFull,
    GameDbError,
    GameExists,
    GameLocked,
    GameNotFound,
    NewerFormat,
    NotAGame,
    ReadOnlyGame,
    RunCancelled,
    RunFailed,
    UnknownGame,
)

_LAZY = {"FORMAT": "engine.db.schema", "GameStore": "engine.db.store",
         "connect": "engine.db.store", "StoredSubmission": "engine.db.journal"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'engine.db' has no attribute {name!r}")


__all__ = ["FORMAT", "CorruptGame", "DiskFull", "ReadOnlyGame", "GameDbError", "GameExists",
           "GameLocked", "GameNotFound", "NewerFormat", "NotAGame", "UnknownGame", "RunCancelled",
           "RunFailed", "GameStore", "StoredSubmission", "connect"]
