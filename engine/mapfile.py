"""Native map files: the map's to_dict() as JSON, `.rsmap`, or gzip-compressed `.rsmap.gz`.

Reading never half-loads: any damage raises MapFileError naming the file, and the caller's
open map is untouched.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import zlib
from pathlib import Path

from engine.map import GameMap
from engine.topology.base import MAX_CELLS as _MAX_CELLS


class MapFileError(ValueError):
    pass


MAX_CELLS = _MAX_CELLS
MAX_MAP_BYTES = 512 * 1024 * 1024  # a map file, or what a .rsmap.gz unpacks to


class TooBig(ValueError):
    """Compressed data that unpacks to more than it may."""


def inflate(data: bytes, kind: str, limit: int) -> bytes:
    """zlib or gzip data unpacked, but never to more than `limit` bytes: ValueError says so
    before a small file (a decompression bomb) can fill the memory."""
    d = zlib.decompressobj(zlib.MAX_WBITS | (16 if kind == "gzip" else 0))
    out = d.decompress(data, limit + 1)
    if len(out) > limit or d.unconsumed_tail:
        raise TooBig(f"the {kind} data unpacks to more than {limit:,} bytes")
    if not d.eof:
        raise ValueError(f"the {kind} data is cut short")
    return out


def load_map(path: str | Path) -> GameMap:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_MAP_BYTES:
            raise MapFileError(f"{path}: {path.stat().st_size:,} bytes is too big for a map file "
                               f"(the limit is {MAX_MAP_BYTES:,})")
        raw = path.read_bytes()
    except OSError as e:
        raise MapFileError(f"{path}: cannot read ({e.strerror or e})") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = inflate(raw, "gzip", MAX_MAP_BYTES)
        except TooBig as e:
            raise MapFileError(f"{path}: {e}; not a map (a decompression bomb?)") from None
        except (ValueError, zlib.error) as e:
            raise MapFileError(f"{path}: damaged gzip data ({e})") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MapFileError(f"{path}: not a Realmsmith map (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise MapFileError(f"{path}:{e.lineno}: not a Realmsmith map ({e.msg})") from None
    except RecursionError:
        raise MapFileError(f"{path}: not a Realmsmith map (nested too deeply)") from None
    if not isinstance(data, dict) or not isinstance(data.get("grid"), dict):
        raise MapFileError(f"{path}: not a Realmsmith map (no grid)")
    try:
        cells = int(data["grid"].get("width", 0)) * int(data["grid"].get("height", 0))
        if cells > MAX_CELLS:
            raise MapFileError(f"{path}: damaged map (a grid of {cells:,} cells; "
                               f"the limit is {MAX_CELLS:,})")
        m = GameMap.from_dict(data)
    except MapFileError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError) as e:
        raise MapFileError(f"{path}: damaged map ({type(e).__name__}: {e})") from None
    problem = _dangling(m)
    if problem:
        raise MapFileError(f"{path}: damaged map ({problem})")
    return m


def _dangling(m: GameMap) -> str:
    """The first reference to a cell the grid does not have, or a link between non-neighbours."""
    n = len(m.grid)
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        if not 0 <= s.cell < n:
            return f"site {s.id} is on cell {s.cell}, outside the {n}-cell grid"
    for a in sorted(m.areas.values(), key=lambda a: a.name):
        bad = sorted((c for c in a.cells if not (isinstance(c, int) and 0 <= c < n)), key=str)
        if bad:
            return f"area {a.name!r} has cell {bad[0]}, outside the {n}-cell grid"
    for kind, pairs in sorted(m.links.items()):
        for a, b in sorted(pairs):
            if not (0 <= a < n and 0 <= b < n) or not m.grid.are_neighbours(a, b):
                return f"{kind} link {a}-{b} does not join two neighbouring cells"
    return ""


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
