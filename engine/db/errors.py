"""What can go wrong opening or writing a game database, as errors with plain messages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

# SQLAlchemy is imported where a driver error is handled, not here: the command line
# imports these classes at start-up, also for commands that never open a database.


class GameDbError(Exception):
    """Base: the message is meant for the GM as it stands."""


class GameNotFound(GameDbError):
    pass


class GameExists(GameDbError):
    pass


class NotAGame(GameDbError):
    """The file or database is not a Realmsmith game database."""


class CorruptGame(GameDbError):
    pass


class GameLocked(GameDbError):
    """Another process is writing the game; nothing was changed."""


class NewerFormat(GameDbError):
    pass


class ReadOnlyGame(GameDbError):
    """The game file (or its folder) cannot be written; refused before anything ran."""


class DiskFull(GameDbError):
    """The disk filled up while writing; the transaction was rolled back."""


class UnknownGame(GameDbError):
    """The database holds games, but not the one asked for."""


class RunFailed(GameDbError):
    """A step failed; the database is as it was before the run."""


class RunCancelled(GameDbError):
    pass


class TurnMoved(GameDbError):
    """The run was for a turn that another run made meanwhile; nothing was done."""


def _no_room(where: str) -> bool:
    """SQLite says "disk I/O error" when it cannot even make its -shm file: check the disk."""
    import shutil
    from pathlib import Path

    if "://" in where:
        return False
    try:
        return shutil.disk_usage(Path(where).parent).free < 1 << 20
    except OSError:
        return False


def translate(err: BaseException, where: str) -> GameDbError | None:
    """A database driver error as one of ours, or None if it is something else."""
    from sqlalchemy import exc

    if not isinstance(err, exc.DBAPIError):
        return None
    msg = str(getattr(err, "orig", err)).lower()
    if "could not connect" in msg or "connection" in msg and "failed" in msg or \
            ("database" in msg and "does not exist" in msg and "relation" not in msg):
        return GameNotFound(f"{where}: cannot connect to the database ({msg.strip()})")
    if "locked" in msg or "busy" in msg or "could not obtain lock" in msg:
        return GameLocked(f"{where}: the game is locked by another process "
                          "(another run or import is writing it); nothing was changed, try again")
    if "disk is full" in msg or "no space left" in msg or "disk full" in msg \
            or "could not extend file" in msg or ("disk i/o error" in msg and _no_room(where)):
        return DiskFull(f"{where}: the disk is full; nothing was changed (the game is as it "
                        "was). Free some space and try again")
    if "readonly" in msg or "read-only" in msg:
        return ReadOnlyGame(f"{where}: the game database is read-only (the file or its folder "
                            "cannot be written); nothing was run or changed")
    if "not a database" in msg or "file is encrypted" in msg:
        return NotAGame(f"{where}: not a Realmsmith game database (not an SQLite file)")
    if "malformed" in msg or "disk image" in msg or "corrupt" in msg:
        return CorruptGame(f"{where}: the game database is damaged ({msg}); "
                           "restore it from a backup")
    if "no such table" in msg or "no such column" in msg or "does not exist" in msg:
        return CorruptGame(f"{where}: the game database is incomplete ({msg})")
    if "disk i/o error" in msg:
        return GameDbError(f"{where}: the disk reported an input/output error ({msg}); "
                           "nothing was changed")
    if "unable to open" in msg:
        return GameNotFound(f"{where}: cannot open or write the database ({msg})")
    return None


@contextlib.contextmanager
def guarded(where: str) -> Iterator[None]:
    from sqlalchemy import exc

    try:
        yield
    except GameDbError:
        raise
    except exc.DBAPIError as e:
        ours = translate(e, where)
        if ours is None:
            raise
        raise ours from None
