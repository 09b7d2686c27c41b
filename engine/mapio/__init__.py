"""Map files in every supported format, chosen by file name extension.

    import_map(path) -> GameMap        .rsmap .rsmap.gz .tmj .tmx .geojson (.json is sniffed)
    export_map(gmap, path, fmt=None)   the same plus .svg (PNG lives in app.render: it needs Qt)

Readers never half-load: any damage raises engine.mapfile.MapFileError naming the file.
Writers replace the target atomically.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from engine.map import GameMap
from engine.mapfile import MapFileError, load_map, save_map
from engine.mapio.common import FormatError, to_file_error

READ_FORMATS = ("rsmap", "tmj", "tmx", "geojson")
WRITE_FORMATS = ("rsmap", "tmj", "tmx", "geojson", "svg")
MAX_BYTES = 512 * 1024 * 1024
_EXT = {".rsmap": "rsmap", ".gz": "rsmap", ".tmj": "tmj", ".tmx": "tmx", ".geojson": "geojson",
        ".svg": "svg", ".xml": "tmx", ".png": "png"}

__all__ = ["import_map", "export_map", "format_of", "MapFileError", "READ_FORMATS", "WRITE_FORMATS"]


def format_of(path: str | Path, raw: bytes | None = None) -> str | None:
    """The format a file name (or, for .json and unknown names, its content) says."""
    p = Path(path)
    fmt = _EXT.get(p.suffix.lower())
    if fmt or raw is None:
        return fmt
    head = raw[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"<":
        return "tmx"
    if raw[:2] == b"\x1f\x8b":
        return "rsmap"
    if head[:1] == b"{":
        return "json?"
    return None


def import_map(path: str | Path) -> GameMap:
    """Read a map in any supported format; MapFileError (naming the file) on any problem."""
    p = Path(path)
    if p.is_dir():
        raise MapFileError(f"{p}: is a folder, not a map file")
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise MapFileError(f"{p}: {size // 2**20} MB is too big for a map file")
        raw = p.read_bytes()
    except OSError as e:
        raise MapFileError(f"{p}: cannot read ({e.strerror or e})") from None
    if not raw.strip():
        raise MapFileError(f"{p}: the file is empty")
    fmt = format_of(p, raw)
    if fmt == "json?":
        fmt = _json_kind(raw)
    if fmt in ("svg", "png"):
        raise MapFileError(f"{p}: {fmt.upper()} is an export-only format; open the map it was made from")
    if fmt is None:
        raise MapFileError(f"{p}: unknown map format; Realmsmith reads {', '.join(READ_FORMATS)}")
    if fmt == "rsmap":
        return load_map(p)
    try:
        if fmt == "tmj":
            from engine.mapio.tmj import read_tmj

            return read_tmj(p, raw)
        if fmt == "tmx":
            from engine.mapio.tmx import read_tmx

            return read_tmx(p, raw)
        from engine.mapio.geojson import read_geojson

        return read_geojson(p, raw)
    except MapFileError:
        raise
    except (FormatError, LookupError, TypeError, ValueError, AttributeError, OverflowError,
            UnicodeDecodeError, RecursionError, MemoryError) as e:
        raise to_file_error(p, e) from None


def _json_kind(raw: bytes) -> str:
    """Which of our JSON formats a .json file holds, from its top-level keys."""
    import json

    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError too
        return "rsmap"  # the native reader gives the clearest message about broken JSON
    if not isinstance(doc, dict):
        return "rsmap"
    if doc.get("type") == "FeatureCollection":
        return "geojson"
    if "layers" in doc and ("tilesets" in doc or "orientation" in doc or doc.get("type") == "map"):
        return "tmj"
    return "rsmap"


def export_map(gmap: GameMap, path: str | Path, fmt: str | None = None, **options: Any) -> Path:
    """Write `gmap` to `path` in `fmt` (default: from the extension). Options per format:
    tmj/tmx: layer_format=csv|base64|zlib|gzip, tileset_image=True (writes <name>.terrain.png);
    geojson: per_cell=False; svg: grid=False, coords=False, scale=..."""
    p = Path(path)
    fmt = (fmt or format_of(p) or "").lower().lstrip(".")
    if fmt == "json":
        fmt = "tmj"
    if fmt == "png":
        raise MapFileError(f"{p}: PNG needs the Qt renderer: app.render.export_png(gmap, path) "
                           "or `realmsmith map export MAP --png OUT`")
    if fmt not in WRITE_FORMATS:
        raise MapFileError(f"{p}: cannot tell the format from the name; use one of "
                           f"{', '.join('.' + f for f in WRITE_FORMATS)} or pass fmt")
    if fmt == "rsmap":
        save_map(gmap, p)
        return p
    if fmt in ("tmj", "tmx"):
        from engine.mapio.tiled import tileset_png

        image = None
        if options.pop("tileset_image", False):
            from engine.mapio.svg import terrain_colour

            image = p.stem + ".terrain.png"
            _atomic_write(p.with_name(image), tileset_png(gmap, terrain_colour))
        if fmt == "tmj":
            from engine.mapio.tmj import write_tmj

            data = write_tmj(gmap, p, tileset_image=image, **options)
        else:
            from engine.mapio.tmx import write_tmx

            data = write_tmx(gmap, p, tileset_image=image, **options)
    elif fmt == "geojson":
        from engine.mapio.geojson import write_geojson

        data = write_geojson(gmap, **options)
    else:
        from engine.mapio.svg import write_svg

        data = write_svg(gmap, **options)
    _atomic_write(p, data)
    return p


def _atomic_write(path: Path, data: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    except OSError as e:
        raise MapFileError(f"{path}: cannot write ({e.strerror or e})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; exports are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
