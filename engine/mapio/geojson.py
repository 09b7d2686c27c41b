"""GeoJSON export (and import of GeoJSON we wrote): cells or terrain patches, areas, links,
sites and labels as features; coordinates in map units (hex circumradius 1, square side 1,
y growing downwards). A top-level "realmsmith" member keeps the grid and palette, so the
file reads back into the same map.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from engine.map import Area, GameMap, Label, Site
from engine.mapio.common import (
    add_chain,
    bad,
    cell_rings,
    cells_to_text,
    check_cell,
    link_chains,
    text_to_cells,
    validate,
)
from engine.topology import topology_from_dict

PER_CELL_LIMIT = 10_000  # above this many cells, terrain is merged per terrain by default


def _geometry(geom: Any) -> dict[str, Any] | None:
    import shapely

    if geom is None or geom.is_empty:
        return None
    return json.loads(shapely.to_geojson(geom))


def terrain_patches(m: GameMap) -> list[tuple[str, Any]]:
    """(terrain, shapely geometry) per terrain in use: cells merged with coverage_union_all."""
    import shapely

    out = []
    rings = np.round(cell_rings(m.grid), 6)  # rounding makes shared edges match exactly
    for code in np.unique(m.terrain):
        cells = np.flatnonzero(m.terrain == code)
        polys = shapely.polygons(rings[cells])
        out.append((m.terrains[int(code)], shapely.coverage_union_all(polys)))
    return out


def features(m: GameMap, per_cell: bool | None = None) -> list[dict[str, Any]]:
    n = len(m.grid)
    if per_cell is None:
        per_cell = n <= PER_CELL_LIMIT
    feats: list[dict[str, Any]] = []
    if per_cell:
        rings = np.round(cell_rings(m.grid), 6).tolist()
        for c in range(n):
            ring = rings[c] + [rings[c][0]]
            feats.append({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]},
                          "properties": {"layer": "cell", "cell": c, "terrain": m.terrain_at(c),
                                         "label": m.grid.label(c)}})
    else:
        for terrain, geom in terrain_patches(m):
            feats.append({"type": "Feature", "geometry": _geometry(geom),
                          "properties": {"layer": "terrain", "terrain": terrain}})
    for a in sorted(m.areas.values(), key=lambda a: a.name):
        geom = m.area_outline(a.name) if a.cells else None
        feats.append({"type": "Feature", "geometry": _geometry(geom),
                      "properties": {"layer": "area", "name": a.name, "kind": a.kind,
                                     "cells": cells_to_text(a.cells), "attrs": a.attrs}})
    centres = m.grid.centers_array()
    for kind in sorted(m.links):
        for chain in link_chains(m.links[kind]):
            feats.append({"type": "Feature",
                          "geometry": {"type": "LineString", "coordinates": centres[chain].round(6).tolist()},
                          "properties": {"layer": "link", "kind": kind, "cells": chain}})
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        feats.append({"type": "Feature",
                      "geometry": {"type": "Point", "coordinates": centres[s.cell].round(6).tolist()},
                      "properties": {"layer": "site", "id": s.id, "name": s.name, "kind": s.kind,
                                     "cell": s.cell, "attrs": s.attrs}})
    for lb in m.labels:
        feats.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [lb.x, lb.y]},
                      "properties": {"layer": "label", "text": lb.text, "size": lb.size}})
    return feats


def header(m: GameMap) -> dict[str, Any]:
    return {"format": 1, "name": m.name, "kind": m.kind, "grid": m.grid.to_dict(),
            "terrains": list(m.terrains), "units": "map units: hex circumradius 1 or square side 1, y down",
            "cell_attrs": {str(c): a for c, a in sorted(m.cell_attrs.items())},
            "adjacency_added": sorted(list(p) for p in m.adjacency_added),
            "adjacency_removed": sorted(list(p) for p in m.adjacency_removed), "meta": m.meta}


def write_geojson(m: GameMap, per_cell: bool | None = None) -> bytes:
    doc = {"type": "FeatureCollection", "realmsmith": header(m), "features": features(m, per_cell)}
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def read_geojson(path: Path, raw: bytes) -> GameMap:
    import shapely

    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise bad(f"not valid JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        raise bad("not a GeoJSON FeatureCollection")
    head = doc.get("realmsmith")
    if not isinstance(head, dict) or not isinstance(head.get("grid"), dict):
        raise bad("GeoJSON without a Realmsmith header: only GeoJSON written by Realmsmith can be "
                  "read back (a map needs its grid)")
    grid = topology_from_dict(head["grid"])
    m = GameMap(grid, kind=head.get("kind"), name=str(head.get("name", "")))
    terrains = head.get("terrains")
    if not isinstance(terrains, list) or not terrains:
        raise bad("the Realmsmith header has no terrain list")
    m.terrains = [str(t) for t in terrains]
    code = {t: i for i, t in enumerate(m.terrains)}
    covered = np.zeros(len(grid), dtype=bool)
    centres = grid.centers_array()
    feats = doc.get("features")
    if not isinstance(feats, list):
        raise bad("features are not a list")
    for i, f in enumerate(feats):
        where = f"feature {i + 1}"
        if not isinstance(f, dict) or not isinstance(f.get("properties"), dict):
            raise bad(f"{where} has no properties")
        p, layer = f["properties"], f["properties"].get("layer")
        if layer in ("cell", "terrain"):
            t = p.get("terrain")
            if t not in code:
                raise bad(f"{where}: terrain {t!r} is not in the header's terrain list")
            if layer == "cell":
                c = check_cell(m, p.get("cell"), where)
                m.terrain[c], covered[c] = code[t], True
            else:
                geom = shapely.from_geojson(json.dumps(f.get("geometry")))
                inside = shapely.contains_xy(geom, centres[:, 0], centres[:, 1])
                m.terrain[inside], covered[inside] = code[t], True
        elif layer == "area":
            name = str(p.get("name", ""))
            if not name or name in m.areas:
                raise bad(f"{where}: area without a name or named twice ({name!r})")
            m.areas[name] = Area(name, str(p.get("kind", "region")),
                                 set(text_to_cells(p.get("cells", ""), len(grid))), dict(p.get("attrs") or {}))
        elif layer == "link":
            cells = [check_cell(m, c, where) for c in p.get("cells") or []]
            add_chain(m, str(p.get("kind", "road")), cells, where)
        elif layer == "site":
            sid = int(p.get("id"))
            if sid in m.sites:
                raise bad(f"{where}: site id {sid} used twice")
            m.sites[sid] = Site(sid, check_cell(m, p.get("cell"), where), str(p.get("kind", "city")),
                                str(p.get("name", "")), dict(p.get("attrs") or {}))
        elif layer == "label":
            x, y = f["geometry"]["coordinates"][:2]
            m.labels.append(Label(str(p.get("text", "")), float(x), float(y), float(p.get("size", 1.0))))
    if not covered.all():
        raise bad(f"terrain features cover {int(covered.sum())} of the map's {len(grid)} cells")
    m.cell_attrs = {int(c): dict(a) for c, a in (head.get("cell_attrs") or {}).items()}
    m.adjacency_added = {(str(a), str(b)) for a, b in head.get("adjacency_added") or []}
    m.adjacency_removed = {(str(a), str(b)) for a, b in head.get("adjacency_removed") or []}
    m.meta = dict(head.get("meta") or {})
    return validate(m)
