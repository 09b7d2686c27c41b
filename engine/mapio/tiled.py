"""Tiled maps in memory: GameMap -> the TMJ-shaped document that tmj.py and tmx.py write
(tiled_read.py reads it back), plus the property encoding both directions share.

Layout (documented for users in docs/map-formats.md):
- hex maps are Tiled "hexagonal" maps with staggerindex odd: staggeraxis x for flat-topped
  (odd columns half a hex lower, engine odd-q) and y for pointy-topped (odd rows half a hex
  to the right, engine odd-r), so Tiled's (x, y) tile is the engine's (col, row) cell;
  square and region maps are "orthogonal".
- tile layer "terrain": gid = firstgid + terrain code; the embedded tileset "terrain" has one
  tile per terrain with a string property `name`.
- object layers: "areas" (one polygon per area, property `cells` = '0-4,9'), "links"
  (polylines through cell centres, type = river/road/..., property `cells` = the path),
  "sites" (point objects, type = kind, properties `id`, `cell` and the site's attributes),
  "labels" (text objects, properties `map_x`, `map_y`, `size`).
- map properties: name, kind, grid, cell_attrs, adjacency; every other one is map meta.
Properties that are not plain str/int/float/bool are written as JSON text under `<key>@json`.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.map import GameMap
from engine.mapio.common import (
    bad,
    cells_to_text,
    json_text,
    link_chains,
    parse_json_prop,
)
from engine.topology import HexGrid

SQRT3 = math.sqrt(3.0)
GID_MASK = 0x0FFFFFFF  # the top four bits are Tiled's flip/rotation flags
MAP_PROPS = ("realmsmith", "name", "kind", "grid", "cell_attrs", "adjacency_added", "adjacency_removed")
SITE_PROPS = ("id", "cell")
AREA_PROPS = ("cells",)
LINK_PROPS = ("cells",)
LABEL_PROPS = ("map_x", "map_y", "size")
VOID = "void"  # terrain of empty (gid 0) tiles in foreign files
TILE = 32

SITE_LAYERS = {"sites", "site", "cities", "towns", "places"}
AREA_LAYERS = {"areas", "area", "regions", "realms", "provinces", "zones"}
LINK_LAYERS = {"links", "rivers", "roads", "river", "road"}
LABEL_LAYERS = {"labels", "label", "text"}


# ---- geometry: Tiled pixels <-> map units ------------------------------------------------

def tile_geometry(grid: Any) -> dict[str, Any]:
    """Tiled map header fields and the pixel scale (sx, sy) per map unit."""
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":  # width 2 units, height sqrt3, flat side 1 unit
            w, h = TILE, round(TILE * SQRT3 / 2)
            return {"orientation": "hexagonal", "tilewidth": w, "tileheight": h,
                    "hexsidelength": TILE // 2, "staggeraxis": "x", "staggerindex": "odd",
                    "scale": (w / 2, h / SQRT3)}
        w, h = round(TILE * SQRT3 / 2), TILE
        return {"orientation": "hexagonal", "tilewidth": w, "tileheight": h,
                "hexsidelength": TILE // 2, "staggeraxis": "y", "staggerindex": "odd",
                "scale": (w / SQRT3, h / 2)}
    return {"orientation": "orthogonal", "tilewidth": TILE, "tileheight": TILE, "scale": (TILE, TILE)}


# ---- properties ---------------------------------------------------------------------------

def encode_props(values: dict[str, Any], reserved: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    out = []
    for k, v in values.items():
        k = str(k)
        plain = isinstance(v, (str, int, float)) and not (isinstance(v, float) and not math.isfinite(v))
        if k in reserved or k.endswith("@json") or not plain:
            out.append({"name": f"{k}@json", "type": "string", "value": json_text(v)})
        elif isinstance(v, bool):
            out.append({"name": k, "type": "bool", "value": v})
        elif isinstance(v, int):
            out.append({"name": k, "type": "int", "value": v})
        elif isinstance(v, float):
            out.append({"name": k, "type": "float", "value": v})
        else:
            out.append({"name": k, "type": "string", "value": v})
    return out


def decode_props(props: Any, where: str, reserved: tuple[str, ...] = ()
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(reserved properties, the others); `<key>@json` always lands among the others."""
    special: dict[str, Any] = {}
    out: dict[str, Any] = {}
    if props is None:
        return special, out
    if isinstance(props, dict):  # very old Tiled JSON: {"name": value}
        props = [{"name": k, "value": v} for k, v in props.items()]
    if not isinstance(props, list):
        raise bad(f"{where}: properties are not a list")
    for p in props:
        if not isinstance(p, dict) or "name" not in p:
            raise bad(f"{where}: a property without a name")
        name, kind, value = str(p["name"]), p.get("type", "string"), p.get("value")
        try:
            if name.endswith("@json"):
                out[name[:-5]] = parse_json_prop(name, value)
                continue
            if kind == "int" or kind == "object":
                value = int(value)
            elif kind == "float":
                value = float(value)
            elif kind == "bool":
                value = value if isinstance(value, bool) else str(value).lower() in ("true", "1")
            elif kind != "class":
                value = "" if value is None else str(value)
        except (TypeError, ValueError):
            raise bad(f"{where}: property {name!r} value {value!r} is not a valid {kind}") from None
        (special if name in reserved else out)[name] = value
    return special, out


# ---- export -------------------------------------------------------------------------------

def encode_data(gids: np.ndarray, layer_format: str) -> dict[str, Any]:
    if layer_format == "csv":
        return {"data": gids.tolist()}
    raw = gids.astype("<u4").tobytes()
    comp = {"base64": "", "zlib": "zlib", "gzip": "gzip"}.get(layer_format)
    if comp is None:
        raise ValueError(f"layer data format {layer_format!r}: use csv, base64, zlib or gzip")
    if comp == "zlib":
        raw = zlib.compress(raw, 6)
    elif comp == "gzip":
        raw = gzip.compress(raw, 6, mtime=0)
    return {"data": base64.b64encode(raw).decode("ascii"), "encoding": "base64", "compression": comp}


def to_tiled(m: GameMap, layer_format: str = "csv", tileset_image: str | None = None) -> dict[str, Any]:
    """The TMJ document of a map (tmx.py writes the same document as XML)."""
    geo = tile_geometry(m.grid)
    sx, sy = geo.pop("scale")
    centres = m.grid.centers_array()
    tw, th = geo["tilewidth"], geo["tileheight"]
    n_t = len(m.terrains)
    tileset: dict[str, Any] = {
        "firstgid": 1, "name": "terrain", "tilewidth": tw, "tileheight": th, "tilecount": n_t,
        "columns": n_t if tileset_image else 0, "margin": 0, "spacing": 0,
        "tiles": [{"id": i, "type": t, "properties": [{"name": "name", "type": "string", "value": t}]}
                  for i, t in enumerate(m.terrains)],
    }
    if tileset_image:
        tileset.update(image=tileset_image, imagewidth=tw * n_t, imageheight=th)
    if geo["orientation"] == "hexagonal":
        tileset["grid"] = {"orientation": "orthogonal", "width": tw, "height": th}
    next_id = 1

    def obj(**kw: Any) -> dict[str, Any]:
        nonlocal next_id
        o = {"id": next_id, "name": "", "type": "", "x": 0.0, "y": 0.0, "width": 0, "height": 0,
             "rotation": 0, "visible": True}
        o.update(kw)
        next_id += 1
        return o

    def px(x: float, y: float) -> tuple[float, float]:
        return round(float(x) * sx, 3), round(float(y) * sy, 3)

    areas = []
    for a in sorted(m.areas.values(), key=lambda a: a.name):
        props = [{"name": "cells", "type": "string", "value": cells_to_text(a.cells)}]
        props += encode_props(a.attrs, AREA_PROPS)
        outline = m.area_outline(a.name) if a.cells else None
        if outline is None or outline.is_empty:
            areas.append(obj(name=a.name, type=a.kind, point=True, properties=props))
            continue
        if outline.geom_type == "MultiPolygon":
            outline = max(outline.geoms, key=lambda g: g.area)
        ring = list(outline.exterior.coords)[:-1]
        x0, y0 = px(*ring[0])
        pts = [{"x": round(px(x, y)[0] - x0, 3), "y": round(px(x, y)[1] - y0, 3)} for x, y in ring]
        areas.append(obj(name=a.name, type=a.kind, x=x0, y=y0, polygon=pts, properties=props))
    links = []
    for kind in sorted(m.links):
        for chain in link_chains(m.links[kind]):
            x0, y0 = px(*centres[chain[0]])
            pts = [{"x": round(px(*centres[c])[0] - x0, 3), "y": round(px(*centres[c])[1] - y0, 3)}
                   for c in chain]
            links.append(obj(name=kind, type=kind, x=x0, y=y0, polyline=pts, properties=[
                {"name": "cells", "type": "string", "value": ",".join(map(str, chain))}]))
    sites = []
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        x, y = px(*centres[s.cell])
        props = [{"name": "id", "type": "int", "value": s.id}, {"name": "cell", "type": "int", "value": s.cell}]
        props += encode_props(s.attrs, SITE_PROPS)
        sites.append(obj(name=s.name, type=s.kind, x=x, y=y, point=True, properties=props))
    labels = []
    for lb in m.labels:
        x, y = px(lb.x, lb.y)
        size = max(1, round(12 * lb.size))
        props = [{"name": "map_x", "type": "float", "value": float(lb.x)},
                 {"name": "map_y", "type": "float", "value": float(lb.y)},
                 {"name": "size", "type": "float", "value": float(lb.size)}]
        labels.append(obj(name="", x=x, y=y, width=max(8, size * len(lb.text)) * 0.6, height=size * 1.3,
                          text={"text": lb.text, "pixelsize": size, "wrap": False}, properties=props))
    gids = m.terrain.astype(np.uint32) + 1
    terrain_layer = {"id": 1, "name": "terrain", "type": "tilelayer", "x": 0, "y": 0,
                     "width": m.grid.width, "height": m.grid.height, "opacity": 1, "visible": True}
    terrain_layer.update(encode_data(gids, layer_format))
    layers = [terrain_layer]
    for i, (name, objs) in enumerate((("areas", areas), ("links", links), ("sites", sites),
                                      ("labels", labels)), start=2):
        layers.append({"id": i, "name": name, "type": "objectgroup", "draworder": "topdown",
                       "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objs})
    header = {
        "realmsmith": 1, "name": m.name, "kind": m.kind, "grid": json_text(m.grid.to_dict()),
        "cell_attrs": json_text({str(c): a for c, a in sorted(m.cell_attrs.items())}),
        "adjacency_added": json_text(sorted(list(p) for p in m.adjacency_added)),
        "adjacency_removed": json_text(sorted(list(p) for p in m.adjacency_removed)),
    }
    props = [{"name": k, "type": "int" if isinstance(v, int) else "string", "value": v}
             for k, v in header.items()]
    props += encode_props(m.meta, MAP_PROPS)
    doc: dict[str, Any] = {
        "type": "map", "version": "1.10", "tiledversion": "1.10.2", "renderorder": "right-down",
        "width": m.grid.width, "height": m.grid.height, "infinite": False,
        "nextlayerid": len(layers) + 1, "nextobjectid": next_id, "compressionlevel": -1,
    }
    doc.update(geo)
    doc.update(properties=props, tilesets=[tileset], layers=layers)
    return doc


def tileset_png(m: GameMap, colour: Callable[[str], str]) -> bytes:
    """A one-row tileset image with a cell-shaped swatch per terrain (so Tiled shows colours)."""
    geo = tile_geometry(m.grid)
    tw, th = geo["tilewidth"], geo["tileheight"]
    yy, xx = np.mgrid[0:th, 0:tw] + 0.5
    if geo["orientation"] == "hexagonal":
        if geo["staggeraxis"] == "x":  # flat top: |dy| <= h/2 and slanted sides
            u, v = np.abs(xx - tw / 2) / (tw / 2), np.abs(yy - th / 2) / (th / 2)
        else:
            u, v = np.abs(yy - th / 2) / (th / 2), np.abs(xx - tw / 2) / (tw / 2)
        mask = (v <= 1) & (u + v / 2 <= 1)
    else:
        mask = np.ones((th, tw), dtype=bool)
    img = np.zeros((th, tw * len(m.terrains), 4), dtype=np.uint8)
    for i, t in enumerate(m.terrains):
        c = colour(t)
        rgb = [int(c[k:k + 2], 16) for k in (1, 3, 5)]
        tile = img[:, i * tw:(i + 1) * tw]
        tile[mask] = rgb + [255]
    return png_bytes(img)


def png_bytes(rgba: np.ndarray) -> bytes:
    import struct

    h, w = rgba.shape[:2]
    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def loads_json(text: str | bytes, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise bad(f"{what} is not valid JSON ({e})") from None
    except UnicodeDecodeError:
        raise bad(f"{what} is not valid JSON (not UTF-8 text)") from None
