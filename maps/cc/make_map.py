"""Builds the Continental Conquest maps: maps/cc/north-america.rsmap and maps/cc/europe.rsmap
(from the geography modules north_america.py and europe.py; another map is another module).

How: the hand-drawn coastlines, lakes, terrain zones, cities, rivers and highways of a
geography module (maps/cc/north_america.py: longitude/latitude) are projected with a Lambert
conformal conic projection onto a flat-topped hex grid labelled CCRR as the book writes
hexes. The module's anchor pins one place to the book's hex (North America: Miami on 5033,
with the Keys road south to 5034 and the Everglades on 4934, as in the book's road
example). Hexes take the terrain of the last zone containing their centre; lakes and small
islands are kept even when narrower than a hex. Cities take the hex they fall in (the
larger city keeps a crowded hex, the smaller moves to a free neighbour or is left out),
the largest are the book's major cities; rivers and highways become river and road links
between neighbouring hexes. The script checks the result (every mainland city reachable by
land, every city by land or sea, rivers on land, the book's examples) and refuses to write
a map that fails.

Run: .venv/bin/python maps/cc/make_map.py [north_america] [europe] [--show]
then refresh the pictures in docs/continental.md:
     .venv/bin/realmsmith map export maps/cc/europe.rsmap --png maps/cc/europe.png --scale 6
"""

from __future__ import annotations

import importlib
import math
import re
import sys
from collections import deque
from pathlib import Path
from types import ModuleType

import numpy as np
import shapely

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from engine.dice import Dice  # noqa: E402
from engine.map import GameMap, Label, new_map  # noqa: E402
from engine.mapfile import save_map  # noqa: E402

WATER, ISLANDS, SEA_LANE = "water", "islands", "sea_lane"
PALETTE = ["water", "plains", "agricultural", "forest", "desert", "mountains", "swamp",
           "wilderness", "jungle", "barren", "metropolis", "islands", "sea_lane"]
MOVE_COST = {"plains": 1.0, "agricultural": 1.0, "forest": 1.25, "desert": 1.25, "mountains": 2.0,
             "swamp": 1.5, "wilderness": 3.0, "jungle": 2.5, "barren": 5.0, "metropolis": 0.5,
             "islands": 1.5}
CITY_RE = re.compile(r"\b([A-Z]{2})\|([^|]+?)\|(-?\d+(?:\.\d+)?)\|(-?\d+(?:\.\d+)?)\|(\d+)")
GOODS = ("milk", "wool", "ores", "minerals", "coal", "steel", "alcohol", "gas", "cloth", "gems")
EXPERTS = ("ARM", "CHE", "DEA", "DOC", "ENG", "GOU", "GUN", "MER", "PIL", "POL", "PRI", "SCO",
           "SER", "SPY", "TIN", "TRA")


# ---- projection ----------------------------------------------------------------------------

class Projection:
    """Lambert conformal conic, scaled to map units and pinned so the anchor sits on its hex."""

    def __init__(self, lon0: float, lat1: float, lat2: float, latc: float, km_per_unit: float,
                 anchor: tuple) -> None:
        p1, p2, pc = (math.radians(v) for v in (lat1, lat2, latc))
        self.n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        self.f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** self.n / self.n
        self.rho0 = 6371.0 * self.f / math.tan(math.pi / 4 + pc / 2) ** self.n
        self.lon0, self.km = lon0, km_per_unit
        _, lon, lat, col, row = anchor
        x, y = self.lcc(lon, lat)
        cx, cy = 1.5 * col + 1.0, math.sqrt(3) * (row + 0.5 * (col & 1)) + math.sqrt(3) / 2
        self.ox, self.oy = cx - float(x) / self.km, cy + float(y) / self.km

    def lcc(self, lon, lat) -> tuple[np.ndarray, np.ndarray]:
        """Kilometres east and north of the projection centre."""
        rho = 6371.0 * self.f / np.tan(np.pi / 4 + np.radians(lat) / 2) ** self.n
        t = self.n * np.radians(np.asarray(lon) - self.lon0)
        return rho * np.sin(t), self.rho0 - rho * np.cos(t)

    def __call__(self, points) -> np.ndarray:
        """(lon, lat) pairs -> map units (the grid's centre coordinates)."""
        a = np.asarray(points, dtype=float).reshape(-1, 2)
        x, y = self.lcc(a[:, 0], a[:, 1])
        return np.stack([x / self.km + self.ox, -y / self.km + self.oy], axis=1)


def load(name: str = "north_america") -> ModuleType:
    """A geography module of maps/cc by name."""
    return importlib.import_module(name)


# ---- the grid ---------------------------------------------------------------------------------

class Builder:
    def __init__(self, geo: ModuleType | None = None) -> None:
        self.geo = geo = geo or load()
        self.project = Projection(**geo.PROJECTION, anchor=geo.ANCHOR)
        self.inset = set(getattr(geo, "INSET_NAMES", ()))
        self.m: GameMap = new_map("hex", geo.WIDTH, geo.HEIGHT, WATER)
        self.grid = self.m.grid
        self.xy = self.grid.centers_array()
        self.pts = shapely.points(self.xy)
        rings = np.round(np.array([self.grid.corners(c) for c in range(len(self.grid))]), 6)
        self.hexes = shapely.polygons(rings)
        self.terrain = np.full(len(self.grid), WATER, dtype=object)
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.city_cells: dict[str, int] = {}
        self.dice = Dice(geo.SEED, "cc-map")

    def place(self, name: str, points) -> list:
        """Points moved by the inset shift when they belong to the inset (Hawaii)."""
        if name not in self.inset:
            return list(points)
        dx, dy = self.geo.INSET_SHIFT
        return [(lon + dx, lat + dy) for lon, lat in points]

    def polygon(self, ring) -> shapely.Polygon:
        return shapely.Polygon(self.project(ring))

    def cell_at(self, lon: float, lat: float) -> int:
        x, y = self.project([(lon, lat)])[0]
        d = (self.xy[:, 0] - x) ** 2 + (self.xy[:, 1] - y) ** 2
        return int(np.argmin(d))

    def covered(self, poly: shapely.Polygon, share: float) -> np.ndarray:
        """Cells whose centre is inside, or whose hex is at least `share` covered."""
        inside = shapely.contains(poly, self.pts)
        near = np.flatnonzero(shapely.intersects(poly, self.hexes) & ~inside)
        if len(near):
            area = shapely.area(shapely.intersection(self.hexes[near], poly)) / shapely.area(self.hexes[near])
            inside[near[area >= share]] = True
        return inside

    # ---- land and terrain --------------------------------------------------------------------

    def paint_land(self) -> None:
        geo = self.geo
        land = self.covered(self.polygon(geo.MAINLAND), 0.35)
        for ring in geo.LAKES + geo.GULFS:
            land &= ~self.covered(self.polygon(ring), 0.3)
        islands = {}
        for name, ring in geo.ISLANDS.items():
            islands[name] = self.covered(self.polygon(self.place(name, ring)), 0.3)
            land |= islands[name]
        for line in geo.LAND_SPINES:
            land[[c for c in self.trace(line) if c is not None]] = True
        for line in geo.WATER_AXES:
            land[[c for c in self.trace(line) if c is not None]] = False
        self.terrain[land] = "plains"
        for kind, ring in geo.ZONES:
            self.terrain[land & shapely.contains(self.polygon(ring), self.pts)] = kind
        for name, kind in getattr(geo, "INSET_TERRAIN", {}).items():
            self.terrain[islands[name]] = kind
        for label, (kind, _) in getattr(geo, "BOOK_HEXES", {}).items():
            self.terrain[self.grid.parse(label)] = kind  # the book's own sample hexes
        for name, lon, lat in geo.SMALL_ISLANDS:
            ((lon, lat),) = self.place(name, [(lon, lat)])
            c = self.cell_at(lon, lat)
            if self.terrain[c] == WATER or name in getattr(geo, "FORCE_ISLANDS", ()):
                self.terrain[c] = ISLANDS
        self.sea_lanes()

    def sea_lanes(self) -> None:
        """The book's lanes to other maps: open ocean on the map's edges."""
        for col, first, end in self.geo.SEA_LANES:
            for row in range(first, end):
                c = self.grid.cell(col, row)
                if self.terrain[c] == WATER and all(self.terrain[n] in (WATER, SEA_LANE)
                                                    for n in self.grid.neighbours(c)):
                    self.terrain[c] = SEA_LANE

    def is_water(self, c: int) -> bool:
        return self.terrain[c] in (WATER, SEA_LANE)

    # ---- cities --------------------------------------------------------------------------------

    def place_cities(self) -> list[dict]:
        rows = []
        for m in CITY_RE.finditer(self.geo.CITIES):
            country, name, lat, lon, pop = m.groups()
            rows.append({"country": country, "name": name, "lat": float(lat),
                         "lon": float(lon), "metro": int(pop)})
        names = [r["name"] for r in rows]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            self.problems.append(f"city names used twice: {sorted(dupes)}")
        fixed = {n: self.grid.parse(h) for n, h in getattr(self.geo, "CITY_HEXES", {}).items()}
        rows.sort(key=lambda r: (r["name"] not in fixed, -r["metro"], r["name"]))
        taken: dict[int, str] = {}
        placed = []
        for r in rows:
            if r["name"] in fixed:  # the book's own hex for this city
                r["cell"] = taken_cell = fixed[r["name"]]
                taken[taken_cell] = r["name"]
                placed.append(r)
                continue
            ((lon, lat),) = self.place(r["name"], [(r["lon"], r["lat"])])
            c = self.cell_at(lon, lat)
            x, y = self.project([(lon, lat)])[0]
            if not self.on_map(x, y):
                continue  # beyond the map's edge
            spot = self._free_land(c, taken, x, y)
            if spot is None:
                continue  # a crowded metro area: the larger neighbour keeps the name
            taken[spot] = r["name"]
            r["cell"] = spot
            placed.append(r)
        extra = getattr(self.geo, "MAJOR_EXTRA", set())
        ranked = sorted(placed, key=lambda r: (-r["metro"], r["name"]))
        for i, r in enumerate(ranked):
            r["major"] = ((i < self.geo.MAJOR_COUNT or r["name"] in extra)
                          and r["country"] != getattr(self.geo, "INSET_COUNTRY", ""))
        self.city_cells = {r["name"]: r["cell"] for r in placed}
        for name in self.geo.METROPOLIS:
            if name in self.city_cells:
                self.terrain[self.city_cells[name]] = "metropolis"
            else:
                self.problems.append(f"metropolis {name} has no hex")
        return placed

    def _free_land(self, c: int, taken: dict[int, str], x: float, y: float) -> int | None:
        """The city's own hex, else the free land hex nearest its true place (2 hexes at most
        from a water hex, 1 from land); never next to another city, so cities stay apart."""
        own_island = self.terrain[c] == ISLANDS  # only island towns move onto island hexes
        near = [n for n in self.grid.within(c, 2 if self.is_water(c) else 1)
                if not self.is_water(n) and n not in taken
                and (own_island or self.terrain[n] != ISLANDS or n == c)
                and not any(k in taken for k in self.grid.neighbours(n))]
        if not near:
            return None
        return min(near, key=lambda n: ((self.xy[n, 0] - x) ** 2 + (self.xy[n, 1] - y) ** 2, n))

    def city_attrs(self, r: dict) -> dict:
        d = self.dice.sub("city", r["name"])
        if r["major"]:
            pop = 100_000 + 25_000 * math.log2(max(r["metro"], 2000) / 2000)
            value = 80_000 + 1000 * d.d(31, "value")
            fort = 5
        else:
            pop = 20_000 + 6_000 * math.log2(max(r["metro"], 10) / 50)
            value = 9_000 + 250 * d.d(25, "value")
            fort = 1 if d.d(100, "fort") <= 70 else 2 if d.d(100, "fort2") <= 90 else 3
        pop = int(pop * (0.9 + d.d(21, "pop jitter") / 100)) // 10 * 10
        pop = max(12_000, min(pop, 200_000 if r["major"] else 60_000))
        produces = d.choice(GOODS, "produces")
        remote = r["metro"] < 10
        needs = "anything" if remote and d.d(3, "remote") == 1 else d.choice(
            [g for g in GOODS if g != produces], "needs")
        guild = "" if d.d(10, "guild") <= 3 else d.choice(EXPERTS, "guild")
        return {"population": pop, "major": r["major"], "value": value, "fortification": fort,
                "produces": produces, "needs": needs, "guild": guild, "country": r["country"]}

    # ---- links -----------------------------------------------------------------------------------

    def on_map(self, x: float, y: float) -> bool:
        """A projected point within the grid (not beyond its edge by more than half a hex)."""
        return (0.0 <= x <= 1.5 * self.grid.width + 0.5
                and 0.0 <= y <= math.sqrt(3) * (self.grid.height + 0.5))

    def trace(self, points) -> list[int | None]:
        """The hexes a polyline passes through, as chains of neighbours; None where it
        leaves the map (so nothing is drawn along the edge)."""
        pts = self.project(points)
        cells: list[int | None] = []
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            steps = max(2, int(math.hypot(x1 - x0, y1 - y0) * 3))
            for t in np.linspace(0, 1, steps):
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                if not self.on_map(x, y):
                    if cells and cells[-1] is not None:
                        cells.append(None)
                    continue
                c = int(np.argmin((self.xy[:, 0] - x) ** 2 + (self.xy[:, 1] - y) ** 2))
                if not cells or cells[-1] != c:
                    if cells and cells[-1] is not None and not self.grid.are_neighbours(cells[-1], c):
                        cells.extend(self.grid.path(cells[-1], c)[1:-1])
                    cells.append(c)
        return cells

    def rivers(self) -> None:
        for name, line in self.geo.RIVERS.items():
            chain = self.trace(line)
            made = 0
            for a, b in zip(chain, chain[1:], strict=False):
                if a is not None and b is not None and not self.is_water(a) and not self.is_water(b) and a != b:
                    self.m.links["river"].add((min(a, b), max(a, b)))
                    made += 1
            if not made:
                self.problems.append(f"river {name}: no land hexes")

    def roads(self) -> None:
        road = self.m.links["road"]

        towns = set(self.city_cells.values())

        def cost(a: int, b: int) -> float | None:
            t = self.terrain[b]
            if t in (WATER, SEA_LANE):
                return None
            island_hop = t == ISLANDS and self.terrain[a] != ISLANDS and a not in towns
            if island_hop and b not in towns:
                return None  # causeways leave from a city (Miami to the Keys)
            step = MOVE_COST.get(t, 1.0) + 0.6 + (5.0 if island_hop else 0.0)  # roads stay short
            return step * (0.35 if (min(a, b), max(a, b)) in road else 1.0)

        for hw, names in self.geo.HIGHWAYS.items():
            cells = [self.city_cells[n] for n in names if n in self.city_cells]
            missing = [n for n in names if n not in self.city_cells]
            if missing:  # left out where a larger city took the hex
                self.notes.append(f"highway {hw}: skips {', '.join(missing)} (no hex)")
            for a, b in zip(cells, cells[1:], strict=False):
                path = self.grid.path(a, b, cost)
                if path is None:
                    self.problems.append(f"highway {hw}: no land route {self.label(a)}-{self.label(b)}")
                    continue
                for u, v in zip(path, path[1:], strict=False):
                    road.add((min(u, v), max(u, v)))

    def book_roads(self) -> None:
        """Roads of the book's sample hex list (each hex names the directions its roads leave by)."""
        for label, (_, dirs) in getattr(self.geo, "BOOK_HEXES", {}).items():
            a = self.grid.parse(label)
            for d in dirs.split():
                b = self.grid.step(a, d)
                if b is not None and not self.is_water(a) and not self.is_water(b):
                    self.m.links["road"].add((min(a, b), max(a, b)))

    def label(self, c: int) -> str:
        return self.grid.label(c, "ccrr")

    # ---- the whole map ----------------------------------------------------------------------------

    def build(self) -> GameMap:
        self.paint_land()
        cities = self.place_cities()
        code = {t: i for i, t in enumerate(PALETTE)}
        self.m.terrains = list(PALETTE)
        self.m.terrain = np.array([code[t] for t in self.terrain], dtype=np.uint16)
        for i, r in enumerate(sorted(cities, key=lambda r: r["cell"]), start=1):
            self.m.add_site(r["cell"], "city", r["name"].upper() if r["major"] else r["name"], site_id=i,
                            **self.city_attrs(r))
        self.rivers()
        self.roads()
        self.book_roads()
        geo = self.geo
        self.m.name = geo.NAME
        self.m.meta.update({
            "ruleset": "cc", "notation": "ccrr",
            "projection": {"kind": "lambert conformal conic", **geo.PROJECTION, "anchor": list(geo.ANCHOR)},
            **geo.META,
        })
        for text, lon, lat, size in geo.LABELS:
            x, y = self.project([(lon, lat)])[0]
            self.m.labels.append(Label(text, float(x), float(y), size))
        self.problems += check(self.m, geo)
        return self.m


# ---- checks ----------------------------------------------------------------------------------------

def land_moves(m: GameMap) -> dict[int, list[int]]:
    """Hex steps a land convoy may take: between drivable hexes, or along any road."""
    t = [m.terrains[i] for i in m.terrain]
    drivable = [x not in (WATER, SEA_LANE, ISLANDS) for x in t]
    out: dict[int, list[int]] = {}
    for c in range(len(m.grid)):
        if t[c] in (WATER, SEA_LANE):
            continue
        out[c] = [n for n in m.grid.neighbours(c)
                  if (drivable[c] and drivable[n]) or m.has_link("road", c, n)]
    return out


def component(moves: dict[int, list[int]], start: int) -> set[int]:
    seen, q = {start}, deque([start])
    while q:
        u = q.popleft()
        for v in moves.get(u, ()):
            if v not in seen:
                seen.add(v)
                q.append(v)
    return seen


def sea_reach(m: GameMap) -> set[int]:
    """Hexes a sea convoy can reach from the open sea: water, islands, coasts, rivers."""
    t = [m.terrains[i] for i in m.terrain]
    navigable = {c for c in range(len(m.grid)) if t[c] in (WATER, SEA_LANE, ISLANDS)}
    g = m.grid
    edge = [c for c in range(len(g)) if c in navigable and t[c] != ISLANDS
            and (c % g.width in (0, g.width - 1) or c // g.width in (0, g.height - 1))]
    seen, q = set(edge), deque(edge)
    while q:
        u = q.popleft()
        for v in m.grid.neighbours(u):
            if v in seen:
                continue
            if v in navigable and u in navigable:
                pass
            elif u in navigable or (v in navigable and m.has_link("river", u, v)):
                pass  # a coast or river mouth
            elif m.has_link("river", u, v):
                pass  # up or down a river
            else:
                continue
            seen.add(v)
            q.append(v)
    return seen


def check(m: GameMap, geo: ModuleType | None = None) -> list[str]:
    geo = geo or load()
    problems = []
    g = m.grid
    t = [m.terrains[i] for i in m.terrain]
    cities = sorted(m.sites.values(), key=lambda s: s.id)
    if len(cities) < geo.MIN_CITIES:
        problems.append(f"only {len(cities)} cities; want at least {geo.MIN_CITIES}")
    for s in cities:
        if t[s.cell] in (WATER, SEA_LANE):
            problems.append(f"{s.name} stands on water at {g.label(s.cell, 'ccrr')}")
    moves = land_moves(m)
    by_name = {s.name.lower(): s for s in cities}
    main = component(moves, by_name[geo.HUB].cell)
    sea = sea_reach(m)
    landed: set[int] = set(main)  # land a convoy reaches from the hub, or after landing on a coast
    for s in cities:
        if s.cell not in landed:
            part = component(moves, s.cell)
            if part & sea:
                landed |= part
    for s in cities:
        if s.cell not in landed and s.cell not in sea:
            problems.append(f"{s.name} ({g.label(s.cell, 'ccrr')}) is reachable neither by land nor by sea")
    on_main = sum(s.cell in main for s in cities)
    if on_main < getattr(geo, "MAINLAND_SHARE", 0.85) * len(cities):
        problems.append(f"only {on_main} of {len(cities)} cities on the mainland road/land network")
    for a, b in sorted(m.links["river"]):
        if t[a] in (WATER, SEA_LANE) or t[b] in (WATER, SEA_LANE):
            problems.append(f"river link {g.label(a, 'ccrr')}-{g.label(b, 'ccrr')} touches water")
    return problems + geo.book_checks(m, by_name)


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")] or ["north_america"]
    for name in names:
        geo = load(name)
        b = Builder(geo)
        gmap = b.build()
        if "--show" in argv:
            counts = {n: int((gmap.terrain == i).sum()) for i, n in enumerate(gmap.terrains)}
            print(counts)
            print("\n".join(b.notes))
        if b.problems and "--force" not in argv:
            print("\n".join(b.problems))
            return 1
        save_map(gmap, HERE / geo.FILE)
        print(f"wrote {geo.FILE}: {len(gmap.sites)} cities, {len(gmap.links['river'])} river and "
              f"{len(gmap.links['road'])} road links")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
