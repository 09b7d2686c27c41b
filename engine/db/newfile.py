"""A new game file appears whole or not at all.

`GameService.create` builds the database in a hidden part file beside the target
(`.<name>.<pid>.part`) and only then links it to its name: a `new` killed half way
(SIGKILL, power cut, disk full) leaves no half-made game under the name the GM asked for.
Part files of processes that are gone are removed by the next create of the same name.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine

from engine.db.errors import GameExists


def part_file(path: Path) -> Path:
    _remove_stale(path)
    return path.with_name(f".{path.name}.{os.getpid()}.part")


def _files(p: Path) -> list[Path]:
    return [p, Path(f"{p}-wal"), Path(f"{p}-shm"), Path(f"{p}-journal")]


def discard(part: Path) -> None:
    for p in _files(part):
        try:
            p.unlink(missing_ok=True)
        except OSError:
            pass


def _remove_stale(path: Path) -> None:
    for p in path.parent.glob(f".{path.name}.*.part"):
        pid = p.name[len(path.name) + 2:-len(".part")]
        if pid.isdigit() and not _alive(int(pid)):
            discard(p)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, not ours
        return True
    return True


def seal(engine: Engine) -> None:
    """Leave one self-contained file: WAL folded back in, the engine closed."""
    raw = engine.raw_connection()  # outside any transaction: the mode cannot change inside one
    try:
        cur = raw.cursor()
        cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cur.execute("PRAGMA journal_mode=DELETE")
        cur.close()
    finally:
        raw.close()
    engine.dispose()


def publish(part: Path, path: Path) -> None:
    """Give the finished part file its name; never replaces a game made meanwhile."""
    try:
        os.link(part, path)
    except FileExistsError:
        if path.stat().st_size > 0:
            discard(part)
            raise GameExists(f"{path}: exists already (made while this game was being "
                             "created); choose another name or delete it first") from None
        os.replace(part, path)  # an empty placeholder file (mktemp) is taken over
        return
    except OSError:  # a file system without hard links
        if path.exists() and path.stat().st_size > 0:
            discard(part)
            raise GameExists(f"{path}: exists already; choose another name") from None
        os.replace(part, path)
        return
    discard(part)
