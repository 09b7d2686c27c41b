"""Native map files: the map's to_dict() as JSON, `.rsmap`, or gzip-compressed `.rsmap.gz`.

Reading never half-loads: any damage raises MapFileError naming the file, and the caller's
open map is untouched.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

from engine.map import GameMap


class MapFileError(ValueError):
    pass


def load_map(path: str | Path) -> GameMap:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise MapFileError(f"{path}: cannot read ({e.strerror or e})") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise MapFileError(f"{path}: damaged gzip data ({e})") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MapFileError(f"{path}: not a Realmsmith map (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise MapFileError(f"{path}:{e.lineno}: not a Realmsmith map ({e.msg})") from None
    if not isinstance(data, dict) or "grid" not in data:
        raise MapFileError(f"{path}: not a Realmsmith map (no grid)")
    try:
        return GameMap.from_dict(data)
    except (KeyError, TypeError, ValueError) as e:
        raise MapFileError(f"{path}: damaged map ({type(e).__name__}: {e})") from None


def save_map(m: GameMap, path: str | Path) -> None:
    """Write atomically (temp file + rename) so a crash never leaves half a map."""
    path = Path(path)
    data = json.dumps(m.to_dict(), separators=(",", ":"), ensure_ascii=False).encode()
    if path.name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
