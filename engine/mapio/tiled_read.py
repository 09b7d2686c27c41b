"""Reading Tiled maps: the TMJ-shaped document (from tmj.py or tmx.py) into a GameMap.

The layout is described in tiled.py and docs/map-formats.md. Everything is checked, and any
problem raises FormatError (turned into MapFileError with the file name by the dispatcher).
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

import numpy as np

from engine.map import Area, GameMap, Label, Site
from engine.mapfile import inflate
from engine.mapio.common import add_chain, bad, check_cell, parse_json_prop, text_to_cells, validate
from engine.mapio.tiled import (
    AREA_LAYERS,
    AREA_PROPS,
    GID_MASK,
    LABEL_LAYERS,
    LABEL_PROPS,
    LINK_LAYERS,
    MAP_PROPS,
    SITE_LAYERS,
    SITE_PROPS,
    SQRT3,
    TILE,
    VOID,
    decode_props,
)
from engine.topology import HexGrid, SquareGrid, topology_from_dict
from engine.topology.base import check_size


def pixel_transform(doc: dict[str, Any], grid: Any) -> tuple[float, float, float, float]:
    """(ax, bx, ay, by) with map units = pixels * a + b, from the file's own tile geometry
    (so hand-made hex tilesets of other proportions still land objects on the right cells)."""
    tw, th = float(doc.get("tilewidth") or TILE), float(doc.get("tileheight") or TILE)
    if tw <= 0 or th <= 0:
        raise bad(f"tile size {tw}x{th} is not positive")
    if isinstance(grid, HexGrid):
        side = float(doc.get("hexsidelength") or 0)
        if grid.orientation == "flat":
            ax = 1.5 / ((tw + (side or tw / 2)) / 2)
            return ax, 1.0 - tw / 2 * ax, SQRT3 / th, 0.0
        ay = 1.5 / ((th + (side or th / 2)) / 2)
        return SQRT3 / tw, 0.0, ay, 1.0 - th / 2 * ay
    return 1.0 / tw, 0.0, 1.0 / th, 0.0


def decode_data(layer: dict[str, Any], count: int) -> np.ndarray:
    name = layer.get("name", "?")
    if "chunks" in layer:
        raise bad(f"layer {name!r} is an infinite-map layer (chunks); in Tiled untick "
                  "Map > Map Properties > Infinite and save again")
    data = layer.get("data")
    enc = layer.get("encoding") or ("csv" if isinstance(data, str) else "")
    try:
        if isinstance(data, list):
            gids = np.array([int(g) for g in data], dtype=np.int64)
        elif isinstance(data, str) and enc == "csv":
            gids = np.array([int(t) for t in data.replace("\n", "").split(",") if t.strip()], dtype=np.int64)
        elif isinstance(data, str) and enc == "base64":
            raw = base64.b64decode("".join(data.split()), validate=True)
            comp = layer.get("compression") or ""
            if comp in ("zlib", "gzip"):  # a map of `count` tiles needs 4 bytes a tile, no more
                raw = inflate(raw, comp, 4 * count)
            elif comp:
                raise bad(f"layer {name!r} uses {comp} compression; save it with zlib, gzip or none")
            if len(raw) % 4:
                raise bad(f"layer {name!r}: base64 data is {len(raw)} bytes, not a multiple of 4")
            gids = np.frombuffer(raw, dtype="<u4").astype(np.int64)
        else:
            raise bad(f"layer {name!r} has no tile data I can read (encoding {enc!r})")
    except (ValueError, zlib.error, OSError, EOFError) as e:
        raise bad(f"layer {name!r}: damaged tile data ({e})") from None
    if gids.size != count:
        raise bad(f"layer {name!r} has {gids.size} tiles for a {count}-cell map")
    if gids.size and (gids.min() < 0 or gids.max() > 0xFFFFFFFF):
        raise bad(f"layer {name!r}: tile ids out of range")
    return gids & GID_MASK


def tileset_names(tilesets: list[dict[str, Any]]) -> tuple[dict[int, str], list[str]]:
    """gid -> terrain name, and the names in tileset order (our export's palette order)."""
    names: dict[int, str] = {}
    order: list[str] = []
    for ts in sorted(tilesets, key=lambda t: int(t.get("firstgid", 1))):
        first = int(ts.get("firstgid", 1))
        tsname = str(ts.get("name") or "tile")
        tiles = ts.get("tiles") or []
        if not isinstance(tiles, list):
            raise bad(f"tileset {tsname!r}: tiles are not a list")
        named: dict[int, str] = {}
        for t in tiles:
            if not isinstance(t, dict) or "id" not in t:
                raise bad(f"tileset {tsname!r}: a tile without an id")
            props, _ = decode_props(t.get("properties"), f"tileset {tsname!r} tile {t.get('id')}",
                                    ("name", "terrain"))
            label = props.get("name") or props.get("terrain") or t.get("type") or t.get("class")
            if label:
                named[int(t["id"])] = str(label)
        count = int(ts.get("tilecount") or 0)
        for tid in range(max([count] + [k + 1 for k in named])):
            nm = named.get(tid, f"{tsname}:{tid}")
            names[first + tid] = nm
            if nm not in order:
                order.append(nm)
    return names, order


def grid_from(doc: dict[str, Any], props: dict[str, Any]) -> Any:
    w, h = doc.get("width"), doc.get("height")
    if not isinstance(w, int) or not isinstance(h, int) or w < 1 or h < 1:
        raise bad(f"map size {w!r}x{h!r} is not a positive whole number of tiles")
    try:
        check_size(w, h)
    except ValueError as e:
        raise bad(str(e)) from None
    if doc.get("infinite"):
        raise bad("infinite Tiled maps are not supported; in Tiled untick Map > Map Properties > "
                  "Infinite and save again")
    orient = doc.get("orientation")
    if "grid" in props:
        g = props["grid"]
        g = parse_json_prop("grid", g) if isinstance(g, str) else g
        grid = topology_from_dict(g)
        if (grid.width, grid.height) != (w, h):
            raise bad(f"grid property says {grid.width}x{grid.height} but the map is {w}x{h}")
        return grid
    if orient == "orthogonal":
        return SquareGrid(w, h)
    if orient == "hexagonal":
        axis, index = doc.get("staggeraxis", "y"), doc.get("staggerindex", "odd")
        if index != "odd":
            raise bad("hexagonal map with stagger index 'even': Realmsmith uses 'odd' (set it in "
                      "Tiled under Map > Map Properties)")
        return HexGrid(w, h, "flat" if axis == "x" else "pointy")
    raise bad(f"Tiled orientation {orient!r} is not supported (use hexagonal or orthogonal)")


def walk_layers(layers: Any) -> list[dict[str, Any]]:
    if not isinstance(layers, list):
        raise bad("layers are not a list")
    out = []
    for lay in layers:
        if not isinstance(lay, dict):
            raise bad("a layer is not an object")
        if lay.get("type") == "group":
            out.extend(walk_layers(lay.get("layers", [])))
        else:
            out.append(lay)
    return out


def from_tiled(doc: Any) -> GameMap:
    """A GameMap from a TMJ-shaped document (external tilesets already resolved)."""
    if not isinstance(doc, dict) or doc.get("type", "map") != "map" or "layers" not in doc:
        raise bad("not a Tiled map (no map with layers)")
    props, meta = decode_props(doc.get("properties"), "map", MAP_PROPS)
    ours = "realmsmith" in props
    grid = grid_from(doc, props)
    kind = str(props.get("kind") or grid.kind)
    if kind not in ("hex", "square", "regions") or (kind == "hex") != isinstance(grid, HexGrid):
        raise bad(f"map kind {kind!r} does not fit a {grid.kind} grid")
    m = GameMap(grid, kind=kind, name=str(props.get("name") or ""))
    tilesets = doc.get("tilesets") or []
    if not isinstance(tilesets, list):
        raise bad("tilesets are not a list")
    gid_names, order = tileset_names(tilesets)
    layers = walk_layers(doc["layers"])
    tile_layers = [lay for lay in layers if lay.get("type") == "tilelayer"]
    if not tile_layers:
        raise bad("no tile layer with terrain")
    tl = next((lay for lay in tile_layers if str(lay.get("name", "")).lower() == "terrain"), tile_layers[0])
    if (tl.get("width", grid.width), tl.get("height", grid.height)) != (grid.width, grid.height):
        raise bad(f"layer {tl.get('name')!r} is {tl.get('width')}x{tl.get('height')}, the map "
                  f"{grid.width}x{grid.height}")
    gids = decode_data(tl, len(grid))
    used = np.unique(gids)
    missing = [int(g) for g in used if g and int(g) not in gid_names]
    if missing:
        raise bad(f"layer {tl.get('name')!r} uses tile {missing[0]}, which is in no tileset")
    if ours:
        terrains = list(order) or ["plains"]
    else:
        terrains = []
        for g in used:
            nm = VOID if g == 0 else gid_names[int(g)]
            if nm not in terrains:
                terrains.append(nm)
        terrains = terrains or [VOID]
    if 0 in used and VOID not in terrains:
        terrains.append(VOID)
    code_of = {nm: i for i, nm in enumerate(terrains)}
    lut = np.zeros(int(used.max()) + 1 if used.size else 1, dtype=np.uint16)
    for g in used:
        lut[int(g)] = code_of[VOID if g == 0 else gid_names[int(g)]]
    m.terrains = terrains
    m.terrain = lut[gids].astype(np.uint16) if gids.size else m.terrain
    reader = _ObjectReader(m, pixel_transform(doc, grid))
    for lay in layers:
        if lay.get("type") == "objectgroup":
            reader.layer(lay)
    m.labels = reader.labels
    for k in ("cell_attrs", "adjacency_added", "adjacency_removed"):
        if isinstance(props.get(k), str):
            props[k] = parse_json_prop(k, props[k])
    try:
        m.cell_attrs = {int(c): dict(a) for c, a in (props.get("cell_attrs") or {}).items()}
        m.adjacency_added = {(str(a), str(b)) for a, b in props.get("adjacency_added") or []}
        m.adjacency_removed = {(str(a), str(b)) for a, b in props.get("adjacency_removed") or []}
    except (TypeError, ValueError, AttributeError):
        raise bad("damaged cell_attrs or adjacency property") from None
    for c in m.cell_attrs:
        check_cell(m, c, "cell_attrs")
    m.meta = meta
    if not ours:
        m.meta.setdefault("source", "tiled")
    return validate(m)


class _ObjectReader:
    MOVED = 0.3  # map units: an object this far from its recorded cell was moved in Tiled

    def __init__(self, m: GameMap, transform: tuple[float, float, float, float]):
        self.m, self.t = m, transform
        self.centres = m.grid.centers_array()
        self.labels: list[Label] = []

    def unit(self, x: Any, y: Any) -> tuple[float, float]:
        ax, bx, ay, by = self.t
        return float(x) * ax + bx, float(y) * ay + by

    def position(self, o: dict[str, Any], where: str) -> tuple[float, float]:
        try:
            return self.unit(o.get("x", 0), o.get("y", 0))
        except (TypeError, ValueError):
            raise bad(f"{where}: position is not a number") from None

    def far(self, xy: tuple[float, float], cell: int) -> bool:
        return bool(np.hypot(*(np.asarray(xy) - self.centres[cell])) > self.MOVED)

    def nearest(self, x: float, y: float) -> int:
        d = np.hypot(self.centres[:, 0] - x, self.centres[:, 1] - y)
        return int(np.argmin(d))

    def points(self, o: dict[str, Any], key: str) -> list[tuple[float, float]]:
        try:
            ox, oy = float(o.get("x", 0)), float(o.get("y", 0))
            return [self.unit(ox + float(p["x"]), oy + float(p["y"])) for p in o[key]]
        except (TypeError, KeyError, ValueError):
            raise bad(f"object {o.get('id')}: damaged {key} points") from None

    def layer(self, lay: dict[str, Any]) -> None:
        lname = str(lay.get("name", "")).strip().lower()
        objs = lay.get("objects") or []
        if not isinstance(objs, list):
            raise bad(f"object layer {lname!r}: objects are not a list")
        for o in objs:
            if not isinstance(o, dict):
                raise bad(f"object layer {lname!r}: an object is not an object")
            where = f"layer {lname!r} object {o.get('id')} {o.get('name') or ''}".rstrip()
            reserved = SITE_PROPS + AREA_PROPS + LABEL_PROPS
            props, attrs = decode_props(o.get("properties"), where, reserved)
            if lname in LABEL_LAYERS or "text" in o:
                self.label(o, props, where)
            elif lname in LINK_LAYERS or ("polyline" in o and lname not in AREA_LAYERS | SITE_LAYERS):
                self.link(o, props, where, lname)
            elif lname in SITE_LAYERS or (o.get("point") and not (lname in AREA_LAYERS and "cells" in props)):
                self.site(o, props, attrs, where)
            elif lname in AREA_LAYERS or "polygon" in o or (o.get("width") and o.get("height")):
                self.area(o, props, attrs, where)

    def label(self, o: dict[str, Any], props: dict[str, Any], where: str) -> None:
        text = o.get("text")
        text = text.get("text", "") if isinstance(text, dict) else str(text or o.get("name", ""))
        pos = self.position(o, where)
        try:
            x, y = (float(props["map_x"]), float(props["map_y"])) if "map_x" in props and "map_y" in props else pos
            if np.hypot(x - pos[0], y - pos[1]) > 0.02:  # moved in Tiled: the new place wins
                x, y = pos
            size = float(props["size"]) if "size" in props else float(
                (o.get("text") or {}).get("pixelsize", 12) if isinstance(o.get("text"), dict) else 12) / 12
        except (TypeError, ValueError):
            raise bad(f"{where}: label position or size is not a number") from None
        self.labels.append(Label(str(text), x, y, size))

    def link(self, o: dict[str, Any], props: dict[str, Any], where: str, lname: str) -> None:
        kind = str(o.get("type") or o.get("class") or o.get("name") or "")
        if not kind:
            kind = {"rivers": "river", "roads": "road"}.get(lname, lname if lname in ("river", "road") else "road")
        cells = []
        if "cells" in props:
            cells = [check_cell(self.m, c, where) for c in str(props["cells"]).split(",") if c.strip()]
            if "polyline" in o:  # a polyline reshaped in Tiled no longer matches its cells: it wins
                pts = self.points(o, "polyline")
                if len(pts) != len(cells) or any(self.far(p, c) for p, c in zip(pts, cells, strict=True)):
                    cells = []
        if not cells:
            if "polyline" not in o:
                raise bad(f"{where}: a link needs a polyline or a cells property")
            snapped = [self.nearest(x, y) for x, y in self.points(o, "polyline")]
            cells = snapped[:1]
            for c in snapped[1:]:
                if c != cells[-1]:
                    path = self.m.grid.path(cells[-1], c) or [cells[-1], c]
                    cells.extend(path[1:])
        add_chain(self.m, kind, cells, where)

    def site(self, o: dict[str, Any], props: dict[str, Any], attrs: dict[str, Any], where: str) -> None:
        try:
            sid = int(props.pop("id", o.get("id", 0)))
        except (TypeError, ValueError):
            raise bad(f"{where}: site id is not a number") from None
        pos = self.position(o, where)
        if "cell" in props:
            cell = check_cell(self.m, props.pop("cell"), where)
            if ("x" in o or "y" in o) and self.far(pos, cell):  # moved in Tiled
                cell = self.nearest(*pos)
        else:
            cell = self.nearest(*pos)
        while sid in self.m.sites:
            sid += 1_000_000  # a foreign file may reuse ids; never drop a site
        kind = str(o.get("type") or o.get("class") or "city")
        for k in ("cells", "map_x", "map_y", "size"):  # reserved elsewhere, plain attributes here
            if k in props:
                attrs[k] = props[k]
        self.m.sites[sid] = Site(sid, cell, kind, str(o.get("name") or ""), attrs)

    def area(self, o: dict[str, Any], props: dict[str, Any], attrs: dict[str, Any], where: str) -> None:
        if "cells" in props:
            cells = text_to_cells(props.pop("cells"), len(self.m.grid))
        else:
            import shapely

            if "polygon" in o:
                poly = shapely.Polygon(self.points(o, "polygon"))
            else:
                try:
                    x, y, w, h = (float(o.get(k, 0)) for k in ("x", "y", "width", "height"))
                except (TypeError, ValueError):
                    raise bad(f"{where}: area rectangle is not numeric") from None
                poly = shapely.box(*self.unit(x, y), *self.unit(x + w, y + h))
            inside = shapely.contains_xy(poly.buffer(0), self.centres[:, 0], self.centres[:, 1])
            cells = np.flatnonzero(inside).tolist()
        name = str(o.get("name") or f"area {o.get('id')}")
        base, k = name, 2
        while name in self.m.areas:
            name, k = f"{base} ({k})", k + 1
        for k in ("id", "cell", "map_x", "map_y", "size"):
            if k in props:
                attrs[k] = props[k]
        self.m.areas[name] = Area(name, str(o.get("type") or o.get("class") or "region"), set(cells), attrs)


