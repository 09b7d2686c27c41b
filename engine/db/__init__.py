"""The game database: one SQLite file per game by default, any SQLAlchemy URL in general.

`schema` holds the fixed SQLModel tables, `dynamic` builds typed tables for a ruleset's
catalogs and state, `store` and `journal` read and write them with batched Core
statements. The game service (engine.service) is the API the app and the CLI use.
"""

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
    UnknownGame,
)
from engine.db.journal import StoredSubmission
from engine.db.schema import FORMAT
from engine.db.store import GameStore, connect

__all__ = ["FORMAT", "CorruptGame", "DiskFull", "ReadOnlyGame", "GameDbError", "GameExists", "GameLocked", "GameNotFound",
           "NewerFormat", "NotAGame", "UnknownGame", "GameStore", "StoredSubmission", "connect"]
