"""Tiled JSON maps (.tmj, and .json written by Tiled). The mapping lives in tiled.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.map import GameMap
from engine.mapio import tiled, tiled_read
from engine.mapio.common import bad


def read_tmj(path: Path, raw: bytes) -> GameMap:
    doc = tiled.loads_json(raw, "the file")
    if isinstance(doc, dict):
        resolve_tilesets(doc, path.parent)
    return tiled_read.from_tiled(doc)


def resolve_tilesets(doc: dict[str, Any], folder: Path) -> None:
    """Load external tilesets (.tsj/.json or .tsx) next to the map, keeping their firstgid."""
    tilesets = doc.get("tilesets")
    if not isinstance(tilesets, list):
        return
    for i, ts in enumerate(tilesets):
        if isinstance(ts, dict) and "source" in ts:
            tilesets[i] = load_external_tileset(folder, str(ts["source"]), ts.get("firstgid", 1))


def load_external_tileset(folder: Path, source: str, firstgid: Any) -> dict[str, Any]:
    p = folder / source
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise bad(f"external tileset {source!r} cannot be read ({e.strerror or e})") from None
    if raw.lstrip()[:1] == b"<":
        from engine.mapio.tmx import parse_tileset_xml

        ts = parse_tileset_xml(raw, source)
    else:
        ts = tiled.loads_json(raw, f"tileset {source!r}")
        if not isinstance(ts, dict):
            raise bad(f"tileset {source!r} is not a tileset")
    ts["firstgid"] = firstgid
    return ts


def write_tmj(m: GameMap, path: Path, layer_format: str = "csv", tileset_image: str | None = None) -> bytes:
    doc = tiled.to_tiled(m, layer_format, tileset_image)
    return json.dumps(doc, indent=1, ensure_ascii=False).encode()
