"""The map: a grid of cells with terrain, link layers (rivers, roads), sites, areas, labels.

The map knows nothing about any ruleset. Terrain is a string id per cell (stored as a
small integer into `terrains` so a 1000x1000 map is one numpy array). A region-graph
map is a grid on which named areas (realms, seas) are painted; the game then plays on
`regions()`, whose adjacency follows from shared borders plus the GM's explicit edits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.topology import HexGrid, RegionGraph, SquareGrid, Topology, topology_from_dict
from engine.topology.regions import name_key

if TYPE_CHECKING:  # numpy is imported where it is used: `status` and `--help` need none
    import numpy as np


MAP_FORMAT = 1
Listener = Callable[[str, Iterable[int]], None]  # (layer, cells changed)


@dataclass
class Site:
    """A named point on a cell: city, port, ruin, starting position..."""

    id: int
    cell: int
    kind: str = "city"
    name: str = ""
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Area:
    """A named set of cells: a realm, a sea, a province, a faction's home."""

    name: str
    kind: str = "region"
    cells: set[int] = field(default_factory=set)
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Label:
    text: str
    x: float
    y: float
    size: float = 1.0


def link_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class GameMap:
    """Cells with terrain on a grid, plus link layers, sites, areas and labels."""

    def __init__(self, grid: Topology, default_terrain: str = "plains", kind: str | None = None,
                 name: str = ""):
        if isinstance(grid, RegionGraph):
            raise TypeError("paint a region map on a hex or square grid; regions() derives the graph")
        self.grid = grid
        self.kind = kind or grid.kind  # 'hex', 'square' or 'regions'
        self.name = name
        self.terrains: list[str] = [default_terrain]
        import numpy as np

        self.terrain = np.zeros(len(grid), dtype=np.uint16)
        self.cell_attrs: dict[int, dict[str, Any]] = {}
        self.links: dict[str, set[tuple[int, int]]] = {"river": set(), "road": set()}
        self.sites: dict[int, Site] = {}
        self.areas: dict[str, Area] = {}
        self.labels: list[Label] = []
        self.adjacency_added: set[tuple[str, str]] = set()
        self.adjacency_removed: set[tuple[str, str]] = set()
        self.meta: dict[str, Any] = {}
        self._listeners: list[Listener] = []
        self._regions: RegionGraph | None = None

    def __repr__(self) -> str:
        return f"GameMap({self.kind}, {self.grid!r}, {len(self.areas)} areas, {len(self.sites)} sites)"

    # ---- change notification (the canvas repaints only what changed) ---------------

    def subscribe(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def unsubscribe(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def _changed(self, layer: str, cells: Iterable[int]) -> None:
        if layer in ("areas", "terrain"):
            self._regions = None
        for fn in list(self._listeners):
            fn(layer, cells)

    # ---- terrain ----------------------------------------------------------------

    def terrain_code(self, name: str) -> int:
        try:
            return self.terrains.index(name)
        except ValueError:
            self.terrains.append(name)
            return len(self.terrains) - 1

    def terrain_at(self, cell: int) -> str:
        return self.terrains[int(self.terrain[cell])]

    def set_terrain(self, cells: Iterable[int], terrain: str | Iterable[str]) -> dict[int, str]:
        """Paint cells; returns the previous terrain of each changed cell (for undo)."""
        cells = list(cells)
        if isinstance(terrain, str):
            names = [terrain] * len(cells)
        else:
            names = list(terrain)
        old: dict[int, str] = {}
        for c, t in zip(cells, names, strict=True):
            code = self.terrain_code(t)
            if self.terrain[c] != code:
                old[c] = self.terrains[int(self.terrain[c])]
                self.terrain[c] = code
        if old:
            self._changed("terrain", old.keys())
        return old

    def terrain_names(self) -> list[str]:
        return [self.terrains[int(i)] for i in self.terrain]

    def cells_with(self, terrain: str) -> np.ndarray:
        import numpy as np

        if terrain not in self.terrains:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(self.terrain == self.terrains.index(terrain))

    # ---- links ----------------------------------------------------------------

    def add_link(self, kind: str, a: int, b: int) -> bool:
        if not self.grid.are_neighbours(a, b):
            raise ValueError(f"{kind} link between non-neighbouring cells {a} and {b}")
        layer = self.links.setdefault(kind, set())
        k = link_key(a, b)
        if k in layer:
            return False
        layer.add(k)
        self._changed(kind, k)
        return True

    def remove_link(self, kind: str, a: int, b: int) -> bool:
        k = link_key(a, b)
        layer = self.links.get(kind, set())
        if k not in layer:
            return False
        layer.remove(k)
        self._changed(kind, k)
        return True

    def has_link(self, kind: str, a: int, b: int) -> bool:
        return link_key(a, b) in self.links.get(kind, ())

    # ---- sites ----------------------------------------------------------------

    def add_site(self, cell: int, kind: str = "city", name: str = "", site_id: int | None = None,
                 **attrs: Any) -> Site:
        sid = site_id if site_id is not None else max(self.sites, default=0) + 1
        site = Site(sid, cell, kind, name, dict(attrs))
        self.sites[sid] = site
        self._changed("sites", [cell])
        return site

    def remove_site(self, site_id: int) -> Site:
        site = self.sites.pop(site_id)
        self._changed("sites", [site.cell])
        return site

    def move_site(self, site_id: int, cell: int) -> int:
        site = self.sites[site_id]
        old, site.cell = site.cell, cell
        self._changed("sites", [old, cell])
        return old

    def sites_at(self, cell: int) -> list[Site]:
        return [s for s in self.sites.values() if s.cell == cell]

    # ---- areas ------------------------------------------------------------------

    def add_area(self, name: str, kind: str = "region", cells: Iterable[int] = (), **attrs: Any) -> Area:
        if name in self.areas:
            raise ValueError(f"an area named {name!r} exists already")
        clash = [a for a in self.areas if name_key(a) == name_key(name)]
        if clash:  # orders could not tell them apart
            raise ValueError(f"an area named {name!r} is too like {clash[0]!r}")
        area = Area(name, kind, set(cells), dict(attrs))
        self.areas[name] = area
        self._changed("areas", area.cells)
        return area

    def remove_area(self, name: str) -> Area:
        area = self.areas.pop(name)  # its adjacency edits stay, for undo; regions() skips them
        self._changed("areas", area.cells)
        return area

    def paint_area(self, name: str, cells: Iterable[int]) -> dict[int, str | None]:
        """Assign cells to an area (taking them from any other); returns previous owners."""
        target = self.areas[name]
        owner = self.area_index()
        old: dict[int, str | None] = {}
        for c in cells:
            prev = owner.get(c)
            if prev == name:
                continue
            old[c] = prev
            if prev is not None:
                self.areas[prev].cells.discard(c)
            target.cells.add(c)
        if old:
            self._changed("areas", old.keys())
        return old

    def unpaint_area(self, cells: Iterable[int]) -> dict[int, str | None]:
        owner = self.area_index()
        old: dict[int, str | None] = {}
        for c in cells:
            prev = owner.get(c)
            if prev is not None:
                self.areas[prev].cells.discard(c)
                old[c] = prev
        if old:
            self._changed("areas", old.keys())
        return old

    def area_index(self) -> dict[int, str]:
        return {c: a.name for a in self.areas.values() for c in a.cells}

    def area_of(self, cell: int) -> Area | None:
        for a in self.areas.values():
            if cell in a.cells:
                return a
        return None

    def area_outline(self, name: str):
        """The area's outline as a shapely (Multi)Polygon, from vectorised cell polygons."""
        import numpy as np
        import shapely

        cells = sorted(self.areas[name].cells)
        if not cells:
            return shapely.Polygon()
        rings = np.round(np.array([self.grid.corners(c) for c in cells]), 6)
        return shapely.coverage_union_all(shapely.polygons(rings))

    def area_label_point(self, name: str) -> tuple[float, float]:
        """A point well inside the area for its label (pole of inaccessibility)."""

        outline = self.area_outline(name)
        if outline.is_empty:
            return (0.0, 0.0)
        if outline.geom_type == "MultiPolygon":
            outline = max(outline.geoms, key=lambda g: g.area)
        from shapely.ops import polylabel

        p = polylabel(outline, tolerance=0.05)
        return (float(p.x), float(p.y))

    # ---- the board a ruleset plays on ------------------------------------------------

    def board(self) -> Topology:
        return self.regions() if self.kind == "regions" else self.grid

    def regions(self) -> RegionGraph:
        """Areas as a region graph: neighbours where painted cells touch, plus GM edits."""
        if self._regions is not None:
            return self._regions
        names = sorted(self.areas, key=str.casefold)
        owner = self.area_index()
        pairs: set[tuple[str, str]] = set()
        for c, a in owner.items():
            for n in self.grid.neighbours(c):
                b = owner.get(n)
                if b is not None and b != a:
                    pairs.add((a, b) if a < b else (b, a))
        pairs |= {tuple(sorted(p)) for p in self.adjacency_added if set(p) <= self.areas.keys()}
        pairs -= {tuple(sorted(p)) for p in self.adjacency_removed}
        positions = {}
        centers = self.grid.centers_array()
        for n in names:
            cells = list(self.areas[n].cells)
            if "label_x" in self.areas[n].attrs:
                positions[n] = (self.areas[n].attrs["label_x"], self.areas[n].attrs["label_y"])
            elif cells:
                positions[n] = tuple(centers[cells].mean(axis=0))
        self._regions = RegionGraph(names, sorted(pairs), positions)
        return self._regions

    def set_adjacent(self, a: str, b: str, adjacent: bool) -> None:
        for n in (a, b):
            if n not in self.areas:
                raise KeyError(f"no area named {n!r}")
        key = (a, b) if a < b else (b, a)
        self.adjacency_added.discard(key)
        self.adjacency_removed.discard(key)
        self._regions = None
        natural = self.regions().are_neighbours(self._regions.parse(a), self._regions.parse(b))
        if adjacent and not natural:
            self.adjacency_added.add(key)
        elif not adjacent and natural:
            self.adjacency_removed.add(key)
        self._regions = None
        self._changed("areas", self.areas[a].cells | self.areas[b].cells)

    # ---- persistence ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": MAP_FORMAT, "name": self.name, "kind": self.kind,
            "grid": self.grid.to_dict(), "terrains": list(self.terrains),
            "terrain": self.terrain.tolist(),
            "cell_attrs": {str(c): a for c, a in sorted(self.cell_attrs.items())},
            "links": {k: sorted(list(p) for p in v) for k, v in sorted(self.links.items())},
            "sites": [{"id": s.id, "cell": s.cell, "kind": s.kind, "name": s.name, "attrs": s.attrs}
                      for s in sorted(self.sites.values(), key=lambda s: s.id)],
            "areas": [{"name": a.name, "kind": a.kind, "cells": sorted(a.cells), "attrs": a.attrs}
                      for a in sorted(self.areas.values(), key=lambda a: a.name)],
            "labels": [{"text": lb.text, "x": lb.x, "y": lb.y, "size": lb.size} for lb in self.labels],
            "adjacency_added": sorted(list(p) for p in self.adjacency_added),
            "adjacency_removed": sorted(list(p) for p in self.adjacency_removed),
            "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameMap:
        if d.get("format", 1) > MAP_FORMAT:
            raise ValueError(f"map format {d.get('format')} is newer than this Realmsmith reads")
        grid = topology_from_dict(d["grid"])
        m = cls(grid, kind=d.get("kind"), name=d.get("name", ""))
        m.terrains = list(d.get("terrains") or ["plains"])
        import numpy as np

        terrain = np.asarray(d.get("terrain", []), dtype=np.uint16)
        if terrain.size:
            if terrain.size != len(grid):
                raise ValueError(f"map has {terrain.size} terrain values for {len(grid)} cells")
            if int(terrain.max()) >= len(m.terrains):
                raise ValueError("map terrain refers to a terrain missing from its palette")
            m.terrain = terrain
        m.cell_attrs = {int(c): a for c, a in d.get("cell_attrs", {}).items()}
        m.links = {k: {link_key(int(a), int(b)) for a, b in v} for k, v in d.get("links", {}).items()}
        for k in ("river", "road"):
            m.links.setdefault(k, set())
        for s in d.get("sites", []):
            m.sites[int(s["id"])] = Site(int(s["id"]), int(s["cell"]), s.get("kind", "city"),
                                         s.get("name", ""), dict(s.get("attrs", {})))
        for a in d.get("areas", []):
            m.areas[a["name"]] = Area(a["name"], a.get("kind", "region"), set(a.get("cells", [])),
                                      dict(a.get("attrs", {})))
        m.labels = [Label(lb["text"], lb["x"], lb["y"], lb.get("size", 1.0)) for lb in d.get("labels", [])]
        m.adjacency_added = {tuple(p) for p in d.get("adjacency_added", [])}
        m.adjacency_removed = {tuple(p) for p in d.get("adjacency_removed", [])}
        m.meta = dict(d.get("meta", {}))
        return m

    def copy(self) -> GameMap:
        return GameMap.from_dict(self.to_dict())


def new_map(kind: str, width: int, height: int, terrain: str = "plains", **grid_opts: Any) -> GameMap:
    """A blank map: kind 'hex', 'square' or 'regions' (regions are painted on a square grid)."""
    if kind == "hex":
        grid: Topology = HexGrid(width, height, **grid_opts)
    elif kind in ("square", "regions"):
        grid = SquareGrid(width, height, **grid_opts)
    else:
        raise ValueError(f"unknown map kind {kind!r}")
    return GameMap(grid, terrain, kind=kind)
