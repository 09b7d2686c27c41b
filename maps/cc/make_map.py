"""Builds maps/cc/north-america.rsmap: the Continental Conquest map of North America.

How: the hand-drawn coastlines, lakes, terrain zones, cities, rivers and highways of
maps/cc/geography.py (longitude/latitude) are projected with a Lambert conformal conic
projection onto a flat-topped hex grid labelled CCRR as the book writes hexes. The scale
and offset put Miami on hex 5033 with the Keys road south to 5034 and the Everglades on
4934, as in the book's road example. A hex is about 110 km across. Hexes take the terrain
of the last zone containing their centre; lakes and small islands are kept even when
narrower than a hex. Cities take the hex they fall in (the larger city keeps a crowded
hex, the smaller moves to a free neighbour or is left out), the largest are the book's
major cities; rivers and highways become river and road links between neighbouring hexes.
The script checks the result (every mainland city reachable by land, every city by land
or sea, rivers reaching water, the book's example hexes) and refuses to write a map that
fails.

Run: .venv/bin/python maps/cc/make_map.py [--show]
then refresh the picture in docs/continental.md:
     .venv/bin/realmsmith map export maps/cc/north-america.rsmap --png maps/cc/north-america.png --scale 6
"""

from __future__ import annotations

import math
import re
import sys
from collections import deque
from pathlib import Path

import numpy as np
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.dice import Dice  # noqa: E402
from engine.map import GameMap, Label, new_map  # noqa: E402
from engine.mapfile import save_map  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import geography as geo  # noqa: E402

W, H = 80, 58
LON0, LAT1, LAT2, LATC = -96.0, 20.0, 45.0, 30.0
KM_PER_UNIT = 64.0              # a hex's circumradius; hexes are about 110 km across
ANCHOR = ("Miami", -80.19, 25.77, 49, 32)   # the book's Miami is hex 5033 (0-based 49, 32)
SEED = "continental-conquest-north-america"
OUT = Path(__file__).with_name("north-america.rsmap")
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

def _lcc_constants() -> tuple[float, float, float]:
    p1, p2, pc = (math.radians(v) for v in (LAT1, LAT2, LATC))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = 6371.0 * f / math.tan(math.pi / 4 + pc / 2) ** n
    return n, f, rho0


N_, F_, RHO0 = _lcc_constants()


def lcc(lon: np.ndarray | float, lat: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Kilometres east and north of the projection centre."""
    rho = 6371.0 * F_ / np.tan(np.pi / 4 + np.radians(lat) / 2) ** N_
    t = N_ * np.radians(np.asarray(lon) - LON0)
    return rho * np.sin(t), RHO0 - rho * np.cos(t)


def _offset() -> tuple[float, float]:
    _, lon, lat, col, row = ANCHOR
    x, y = lcc(lon, lat)
    cx, cy = 1.5 * col + 1.0, math.sqrt(3) * (row + 0.5 * (col & 1)) + math.sqrt(3) / 2
    return cx - float(x) / KM_PER_UNIT, cy + float(y) / KM_PER_UNIT


OX, OY = _offset()


def project(points) -> np.ndarray:
    """(lon, lat) pairs -> map units (the grid's centre coordinates)."""
    a = np.asarray(points, dtype=float).reshape(-1, 2)
    x, y = lcc(a[:, 0], a[:, 1])
    return np.stack([x / KM_PER_UNIT + OX, -y / KM_PER_UNIT + OY], axis=1)


def shifted(points, shift=geo.HAWAII_SHIFT):
    return [(lon + shift[0], lat + shift[1]) for lon, lat in points]


def polygon(ring) -> shapely.Polygon:
    return shapely.Polygon(project(ring))


# ---- the grid ---------------------------------------------------------------------------------

class Builder:
    def __init__(self) -> None:
        self.m: GameMap = new_map("hex", W, H, WATER)
        self.grid = self.m.grid
        self.xy = self.grid.centers_array()
        self.pts = shapely.points(self.xy)
        rings = np.round(np.array([self.grid.corners(c) for c in range(len(self.grid))]), 6)
        self.hexes = shapely.polygons(rings)
        self.terrain = np.full(len(self.grid), WATER, dtype=object)
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.city_cells: dict[str, int] = {}
        self.dice = Dice(SEED, "cc-map")

    def cell_at(self, lon: float, lat: float) -> int:
        x, y = project([(lon, lat)])[0]
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
        land = self.covered(polygon(geo.MAINLAND), 0.35)
        for ring in geo.GREAT_LAKES + geo.GULFS:
            land &= ~self.covered(polygon(ring), 0.3)
        islands = {}
        for name, ring in geo.ISLANDS.items():
            ring = shifted(ring) if name in geo.HAWAII_NAMES else ring
            islands[name] = self.covered(polygon(ring), 0.3)
            land |= islands[name]
        for line in geo.LAND_SPINES:
            land[self.trace(line)] = True
        for line in geo.WATER_AXES:
            land[self.trace(line)] = False
        self.terrain[land] = "plains"
        for kind, ring in geo.ZONES:
            self.terrain[land & shapely.contains(polygon(ring), self.pts)] = kind
        self.terrain[islands["Hawaii"]] = "jungle"
        for name, lon, lat in geo.SMALL_ISLANDS:
            if name in geo.HAWAII_NAMES:
                lon, lat = shifted([(lon, lat)])[0]
            c = self.cell_at(lon, lat)
            if self.terrain[c] == WATER or name in ("Key Largo", "Key West"):
                self.terrain[c] = ISLANDS
        self.sea_lanes()

    def sea_lanes(self) -> None:
        """The book's lanes to other maps: open ocean on the Pacific and Atlantic edges."""
        for col, rows in ((0, range(24, H)), (W - 1, range(8, 40))):
            for row in rows:
                c = self.grid.cell(col, row)
                if self.terrain[c] == WATER and all(self.terrain[n] in (WATER, SEA_LANE)
                                                    for n in self.grid.neighbours(c)):
                    self.terrain[c] = SEA_LANE

    def is_water(self, c: int) -> bool:
        return self.terrain[c] in (WATER, SEA_LANE)

    # ---- cities --------------------------------------------------------------------------------

    def place_cities(self) -> list[dict]:
        rows = []
        for m in CITY_RE.finditer(geo.CITIES):
            country, name, lat, lon, pop = m.groups()
            rows.append({"country": country, "name": name, "lat": float(lat),
                         "lon": float(lon), "metro": int(pop)})
        names = [r["name"] for r in rows]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            self.problems.append(f"city names used twice: {sorted(dupes)}")
        rows.sort(key=lambda r: (-r["metro"], r["name"]))
        taken: dict[int, str] = {}
        placed = []
        for r in rows:
            lon, lat = (shifted([(r["lon"], r["lat"])])[0] if r["name"] in geo.HAWAII_NAMES
                        else (r["lon"], r["lat"]))
            c = self.cell_at(lon, lat)
            x, y = project([(lon, lat)])[0]
            spot = self._free_land(c, taken, x, y)
            if spot is None:
                continue  # a crowded metro area: the larger neighbour keeps the name
            taken[spot] = r["name"]
            r["cell"] = spot
            placed.append(r)
        for i, r in enumerate(placed):
            r["major"] = i < geo.MAJOR_COUNT and r["country"] != "HI"
        self.city_cells = {r["name"]: r["cell"] for r in placed}
        for name in geo.METROPOLIS:
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

    def trace(self, points) -> list[int]:
        """The hexes a polyline passes through, as a chain of neighbours."""
        pts = project(points)
        cells: list[int] = []
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            steps = max(2, int(math.hypot(x1 - x0, y1 - y0) * 3))
            for t in np.linspace(0, 1, steps):
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                c = int(np.argmin((self.xy[:, 0] - x) ** 2 + (self.xy[:, 1] - y) ** 2))
                if not cells or cells[-1] != c:
                    if cells and not self.grid.are_neighbours(cells[-1], c):
                        cells.extend(self.grid.path(cells[-1], c)[1:-1])
                    cells.append(c)
        return cells

    def rivers(self) -> None:
        for name, line in geo.RIVERS.items():
            chain = self.trace(line)
            made = 0
            for a, b in zip(chain, chain[1:], strict=False):
                if not self.is_water(a) and not self.is_water(b) and a != b:
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
            if t == ISLANDS and self.terrain[a] != ISLANDS and a not in towns:
                return None  # causeways leave from a city (Miami to the Keys)
            step = MOVE_COST.get(t, 1.0) + 0.6  # + a constant: roads stay short
            return step * (0.35 if (min(a, b), max(a, b)) in road else 1.0)

        for hw, names in geo.HIGHWAYS.items():
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
        self.m.name = "North America (Continental Conquest)"
        self.m.meta.update({
            "ruleset": "cc", "notation": "ccrr",
            "projection": {"kind": "lambert conformal conic", "lon0": LON0, "lat1": LAT1, "lat2": LAT2,
                           "latc": LATC, "km_per_unit": KM_PER_UNIT, "anchor": list(ANCHOR)},
            "insets": {"Hawaii": "drawn south-west of Baja California, not at its true place"},
            "sea_lanes": "Pacific lane on the west edge, Atlantic lane on the east edge",
        })
        for text, lon, lat, size in (("Pacific Ocean", -128, 30, 2.0), ("Gulf of Mexico", -91, 25.5, 1.5),
                                     ("Atlantic Ocean", -62, 36, 2.0), ("Caribbean Sea", -76, 15, 1.5),
                                     ("Hudson Bay", -86, 58.5, 1.2), ("HAWAII (inset)", -118.5, 18.5, 1.0)):
            x, y = project([(lon, lat)])[0]
            self.m.labels.append(Label(text, float(x), float(y), size))
        self.problems += check(self.m)
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


def check(m: GameMap) -> list[str]:
    problems = []
    g = m.grid
    t = [m.terrains[i] for i in m.terrain]
    cities = sorted(m.sites.values(), key=lambda s: s.id)
    if len(cities) < 250:
        problems.append(f"only {len(cities)} cities; want at least 250")
    for s in cities:
        if t[s.cell] in (WATER, SEA_LANE):
            problems.append(f"{s.name} stands on water at {g.label(s.cell, 'ccrr')}")
    moves = land_moves(m)
    by_name = {s.name.lower(): s for s in cities}
    main = component(moves, by_name["chicago"].cell)
    sea = sea_reach(m)
    for s in cities:
        if s.cell not in main and s.cell not in sea:
            problems.append(f"{s.name} ({g.label(s.cell, 'ccrr')}) is reachable neither by land nor by sea")
    on_main = sum(s.cell in main for s in cities)
    if on_main < 0.85 * len(cities):
        problems.append(f"only {on_main} of {len(cities)} cities on the mainland road/land network")
    for a, b in sorted(m.links["river"]):
        if t[a] in (WATER, SEA_LANE) or t[b] in (WATER, SEA_LANE):
            problems.append(f"river link {g.label(a, 'ccrr')}-{g.label(b, 'ccrr')} touches water")
    # the book's examples: Miami 5033, the Keys road south to 5034, no road from 4934 to 5034
    miami, keys, glades = g.parse("5033"), g.parse("5034"), g.parse("4934")
    if by_name.get("miami") is None or by_name["miami"].cell != miami:
        problems.append("Miami is not on hex 5033")
    if t[keys] != ISLANDS or not m.has_link("road", miami, keys):
        problems.append("hex 5034 is not an island hex on the road from Miami")
    if t[glades] in (WATER, SEA_LANE, ISLANDS) or m.has_link("road", glades, keys):
        problems.append("hex 4934 should be land without a road to 5034")
    return problems


if __name__ == "__main__":
    b = Builder()
    gmap = b.build()
    if "--show" in sys.argv:
        counts = {n: int((gmap.terrain == i).sum()) for i, n in enumerate(gmap.terrains)}
        print(counts)
        print(len(gmap.sites), "cities,", len(gmap.links["river"]), "river links,",
              len(gmap.links["road"]), "road links")
    if b.problems and "--force" not in sys.argv:
        print("\n".join(b.problems))
        sys.exit(1)
    save_map(gmap, OUT)
    print(f"wrote {OUT.name}: {len(gmap.sites)} cities, {len(gmap.links['river'])} river and "
          f"{len(gmap.links['road'])} road links")
