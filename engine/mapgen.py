"""Map generator: continents, islands and the Atlantis Conquest layout, deterministic per seed.

    generate("hex", 60, 40, seed=7, style="continents", ruleset="kok")
    generate("atlantis", 40, 32, seed=1, players=8)     # a style name works as `kind` too

All randomness comes from engine.dice.Dice sub-generators (numpy generators are seeded from
them), so the same arguments always give the same map. Terrain names are generic (ocean,
plains, forest, hills, mountains, desert, swamp, tundra, jungle) unless ruleset="kok"
(KoK 4.10 names), ruleset="cc" (the thirteen Continental Conquest terrains, with major
cities on metropolis hexes) or the style is atlantis (ocean, plain, forest, mountain, swamp).
"""

from __future__ import annotations

import heapq
import math
from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap, new_map
from engine.topology import HexGrid

STYLES = ("continents", "islands", "atlantis")
GRID_KINDS = ("hex", "square", "regions")
WATER = "ocean"
KOK = {"ocean": "sea", "tundra": "steppes", "jungle": "forest", "swamp": "swamps"}
CC = {"ocean": "water", "hills": "wilderness", "tundra": "barren"}
ATLANTIS = {"plains": "plain", "desert": "plain", "tundra": "plain", "hills": "mountain",
            "mountains": "mountain", "jungle": "forest"}
SYLLABLES = ("an", "bel", "cor", "dra", "el", "fen", "gar", "hal", "is", "kar", "lor", "mar", "nor",
             "os", "par", "quel", "ros", "sal", "tur", "ul", "val", "wen", "yar", "zan", "ith", "ia",
             "mon", "del", "bar", "ka")


def generate(kind: str, width: int, height: int, seed: int | str, **params: Any) -> GameMap:
    """A generated map; `kind` is a grid kind (style in params) or a style name (grid in params)."""
    if kind in STYLES:
        style, kind = kind, params.pop("grid", "hex")
    else:
        style = params.pop("style", "continents")
    if style not in STYLES:
        raise ValueError(f"unknown map style {style!r}; choose one of {', '.join(STYLES)}")
    if kind not in GRID_KINDS:
        raise ValueError(f"unknown map kind {kind!r}; choose one of {', '.join(GRID_KINDS)}")
    if width < 4 or height < 4 or width * height > 4_000_000:
        raise ValueError("generated maps are 4x4 to 2000x2000 cells")
    dice = Dice(seed, "mapgen", style)
    record = {"style": style, "seed": seed, **{k: v for k, v in sorted(params.items())}}
    if style == "atlantis":
        m = _atlantis(width, height, dice, **params)
    else:
        m = _terrain_map(kind, style, width, height, dice, **params)
    m.meta["generator"] = record
    return m


# ---- noise -----------------------------------------------------------------------------

def _rng(dice: Dice, *keys: Any) -> np.random.Generator:
    return np.random.default_rng(dice.sub(*keys).d(2**62, "numpy seed"))


def value_noise(xy: np.ndarray, rng: np.random.Generator, scale: float, octaves: int = 5,
                persistence: float = 0.5) -> np.ndarray:
    """Fractal value noise at points xy (map units); features about `scale` units wide."""
    out = np.zeros(len(xy))
    amp, total = 1.0, 0.0
    lo = xy.min(axis=0)
    for o in range(octaves):
        f = (2**o) / scale
        u = (xy - lo) * f
        gx, gy = int(u[:, 0].max()) + 2, int(u[:, 1].max()) + 2
        lattice = rng.random((gy, gx))
        i = np.floor(u).astype(np.int64)
        fr = u - i
        s = fr * fr * (3 - 2 * fr)  # smoothstep, so no grid-aligned creases
        x0, y0 = i[:, 0], i[:, 1]
        a = lattice[y0, x0] * (1 - s[:, 0]) + lattice[y0, x0 + 1] * s[:, 0]
        b = lattice[y0 + 1, x0] * (1 - s[:, 0]) + lattice[y0 + 1, x0 + 1] * s[:, 0]
        out += amp * (a * (1 - s[:, 1]) + b * s[:, 1])
        total += amp
        amp *= persistence
    return out / total


def _rank(v: np.ndarray) -> np.ndarray:
    """Values replaced by their rank in [0, 1] (so thresholds are proportions)."""
    r = np.empty(len(v))
    r[np.argsort(v, kind="stable")] = np.linspace(0.0, 1.0, len(v)) if len(v) > 1 else 0.0
    return r


# ---- continents and islands ----------------------------------------------------------------

def _terrain_map(kind: str, style: str, width: int, height: int, dice: Dice, **p: Any) -> GameMap:
    grid_opts = {"orientation": p.get("orientation", "flat")} if kind == "hex" else {}
    m = new_map(kind, width, height, WATER, **grid_opts)
    m.name = str(p.get("name") or f"{style.title()} {dice.seed}")
    xy = m.grid.centers_array()
    span = float(np.ptp(xy, axis=0).max()) or 1.0
    norm = (xy - xy.min(axis=0)) / span  # longest side spans 0..1
    ext = norm.max(axis=0)
    islands = style == "islands"
    sea = float(p.get("sea_level", 0.72 if islands else 0.58))
    if not 0.0 <= sea < 1.0:
        raise ValueError("sea_level is the fraction of water, 0 to below 1")
    rng = _rng(dice, "height")
    noise = value_noise(norm, rng, 0.08 if islands else 0.22, octaves=6, persistence=0.55)
    n_blobs = int(p.get("continents", p.get("islands", 0)) or (
        max(6, width * height // 150) if islands else 3))
    r0 = (0.045 if islands else 0.28 / math.sqrt(n_blobs)) * float(p.get("land_size", 1.0))
    placed: list[np.ndarray] = []
    bumps = np.zeros(len(xy))
    for _ in range(n_blobs):
        best, best_gap = None, -1.0
        for _try in range(30):  # the most isolated of a few tries: continents stay apart
            c = np.array([0.15, 0.15]) * ext + rng.random(2) * 0.7 * ext
            gap = min((float(np.hypot(*(c - q))) for q in placed), default=9.0)
            if gap > best_gap:
                best, best_gap = c, gap
            if gap > 3.2 * r0:
                break
        placed.append(best)
        r = r0 * (0.7 + 0.6 * rng.random())
        bump = np.exp(-np.sum((norm - best) ** 2, axis=1) / (2 * r * r))
        # islands pile up; continents take the nearest bump only, so sea runs between them
        bumps = bumps + bump if islands else np.maximum(bumps, bump)
    h = noise * 0.45 + bumps * 0.8 if islands else noise * 0.5 + bumps * 0.75
    edge = np.minimum(norm, ext - norm).min(axis=1)
    h -= np.clip(0.08 - edge, 0, None) * 6  # keep the map's rim mostly sea
    water = _rank(h) < sea
    land = ~water
    lh = np.zeros(len(h))
    lh[land] = _rank(h[land])
    moist = _rank(value_noise(norm, _rng(dice, "moisture"), 0.12))
    lat = np.abs(norm[:, 1] / max(ext[1], 1e-9) * 2 - 1)  # 0 at the equator row, 1 at the poles
    temp = 1 - lat + (value_noise(norm, _rng(dice, "temperature"), 0.25) - 0.5) * 0.3 - lh * 0.15
    mountains, hills = float(p.get("mountains", 0.08)), float(p.get("hills", 0.12))
    names = np.full(len(h), "plains", dtype=object)
    forest = float(p.get("forests", 0.5))
    names[moist > 1 - forest * 0.8] = "forest"
    names[(moist > 0.6) & (lh < 0.12)] = "swamp"
    names[(temp > 0.75) & (moist < 0.3 * float(p.get("deserts", 1.0)))] = "desert"
    names[(temp > 0.8) & (moist > 0.75)] = "jungle"
    names[temp < 0.12] = "tundra"
    names[lh > 1 - mountains - hills] = "hills"
    names[lh > 1 - mountains] = "mountains"
    names[water] = WATER
    ruleset = p.get("ruleset")
    if ruleset == "kok":
        names[(names == "plains") & (moist < 0.2)] = "steppes"
        names[(names == "plains") & (moist > 0.45)] = "grassland"
        names[(names == "swamp") & (moist < 0.8)] = "marsh"
        names = np.array([KOK.get(t, t) for t in names], dtype=object)
    elif ruleset == "atlantis":
        names = np.array([ATLANTIS.get(t, t) for t in names], dtype=object)
    elif ruleset == "cc":
        names[(names == "plains") & (moist > 0.55)] = "agricultural"
        names = np.array([CC.get(t, t) for t in names], dtype=object)
    _paint(m, names, _palette(ruleset))
    heights = h
    _rivers(m, heights, water, lh, dice, int(p.get("rivers", min(150, max(1, int(land.sum()) // 350)))))
    per_city = 8 if ruleset == "cc" else 250  # the book's maps have a city every few hexes
    _cities(m, water, dice, int(p.get("cities", min(200 if per_city > 8 else 5000,
                                                       max(2, int(land.sum()) // per_city)))), ruleset)
    if ruleset == "cc":
        _cc_finish(m, water, dice)
    if kind == "regions":
        _provinces(m, water, dice, int(p.get("region_size", 30)))
    return m


def _palette(ruleset: Any) -> list[str]:
    if ruleset == "kok":
        return ["sea", "plains", "grassland", "cultivated", "steppes", "desert", "forest", "hills",
                "mountains", "marsh", "swamps", "town", "city", "metropolis"]
    if ruleset == "atlantis":
        return ["ocean", "plain", "forest", "mountain", "swamp"]
    if ruleset == "cc":
        return ["water", "plains", "agricultural", "forest", "desert", "mountains", "swamp",
                "wilderness", "jungle", "barren", "metropolis", "islands", "sea_lane"]
    return ["ocean", "plains", "forest", "hills", "mountains", "desert", "swamp", "tundra", "jungle"]


def _paint(m: GameMap, names: np.ndarray, palette: list[str]) -> None:
    """Set every cell's terrain at once, with a fixed palette order (deterministic codes)."""
    m.terrains = list(palette)
    for t in sorted(set(names.tolist()) - set(palette)):
        m.terrains.append(t)
    code = {t: i for i, t in enumerate(m.terrains)}
    m.terrain = np.array([code[t] for t in names], dtype=np.uint16)


def _rivers(m: GameMap, h: np.ndarray, water: np.ndarray, lh: np.ndarray, dice: Dice, count: int) -> None:
    """Rivers from high ground downhill (lowest unvisited neighbour) until they reach the sea."""
    d = dice.sub("rivers")
    sources = np.flatnonzero(~water & (lh > 0.8))
    if not len(sources) or count <= 0:
        return
    on_river: set[int] = set()
    limit = 4 * max(m.grid.width, m.grid.height)
    tries = 0
    made = 0
    while made < count and tries < count * 5:
        tries += 1
        c = int(sources[d.d(len(sources), "river source") - 1])
        if c in on_river:
            continue
        path, seen = [c], {c}
        ok = False
        while len(path) < limit:
            nbrs = [n for n in m.grid.neighbours(path[-1]) if n not in seen]
            if not nbrs:
                break
            n = min(nbrs, key=lambda k: (h[k], k))
            path.append(n)
            seen.add(n)
            if water[n] or n in on_river:
                ok = True
                break
        if ok and len(path) >= 4:
            for a, b in zip(path, path[1:], strict=False):
                m.links["river"].add((a, b) if a < b else (b, a))
            on_river.update(path[:-1])
            made += 1


def _name(d: Dice, taken: set[str]) -> str:
    for _ in range(50):
        name = "".join(d.choice(SYLLABLES, "name") for _ in range(d.d(2, "name length") + 1)).capitalize()
        if name not in taken:
            taken.add(name)
            return name
    name = f"Place {len(taken) + 1}"
    taken.add(name)
    return name


def _cities(m: GameMap, water: np.ndarray, dice: Dice, count: int, ruleset: Any) -> None:
    """Cities on open land, preferring coasts and rivers, spread apart; roads to near neighbours."""
    if count <= 0:
        return
    d = dice.sub("cities")
    rng = _rng(dice, "city scores")
    n = len(m.grid)
    bad = {"mountains", "mountain", "swamp", "swamps", "marsh", "tundra", "barren", "wilderness"}
    ok = ~water & np.array([t not in bad for t in m.terrains])[m.terrain]
    river_cells = {c for ab in m.links["river"] for c in ab}
    score = rng.random(n)
    for c in river_cells:
        score[c] += 0.5
    cand = np.flatnonzero(ok)
    if not len(cand):
        return
    xy = m.grid.centers_array()
    spacing = max(3.0, math.sqrt(len(cand) / count) * 0.9) * (1.5 if isinstance(m.grid, HexGrid) else 1.0)
    chosen: list[int] = []
    buckets: dict[tuple[int, int], list[int]] = {}  # spatial hash: only nearby cities are compared
    for c in cand[np.argsort(-score[cand], kind="stable")][: 200 * count]:
        x, y = xy[c]
        bx, by = int(x // spacing), int(y // spacing)
        near = [o for i in (-1, 0, 1) for j in (-1, 0, 1) for o in buckets.get((bx + i, by + j), ())]
        if any((xy[o, 0] - x) ** 2 + (xy[o, 1] - y) ** 2 < spacing * spacing for o in near):
            continue
        chosen.append(int(c))
        buckets.setdefault((bx, by), []).append(int(c))
        if len(chosen) >= count:
            break
    taken: set[str] = set()
    for i, c in enumerate(chosen):
        size = 3 if i == 0 else 2 if i < max(1, len(chosen) // 4) else 1
        kind = {3: "metropolis", 2: "city", 1: "town"}[size] if ruleset == "kok" else "city"
        m.add_site(c, kind, _name(d, taken), size=size, population=1000 * size * size)
        if ruleset == "kok":
            m.terrain[c] = m.terrain_code(kind)
            farmland = (m.terrains.index("plains"), m.terrains.index("grassland"))
            for n in m.grid.neighbours(c):  # the fields around a town are cultivated
                if m.terrain[n] in farmland:
                    m.terrain[n] = m.terrain_code("cultivated")
    _roads(m, chosen, water, spacing)


def _roads(m: GameMap, cities: list[int], water: np.ndarray, spacing: float) -> None:
    """Each city to its nearest neighbour by a cheap land path (bounded search, so it is fast)."""
    xy = m.grid.centers_array()
    cost = {"mountains": 3.0, "mountain": 3.0, "hills": 2.0, "forest": 2.0, "swamp": 3.0, "swamps": 3.0,
            "marsh": 2.0, "jungle": 3.0, "wilderness": 3.0, "barren": 5.0}
    step = np.array([cost.get(t, 1.0) for t in m.terrains])[m.terrain]
    done: set[tuple[int, int]] = set()
    unit = math.sqrt(3.0) if isinstance(m.grid, HexGrid) else 1.0
    nbr_cache: dict[int, list[int]] = {}
    pts = xy[cities]
    for i, a in enumerate(cities):
        if len(cities) < 2:
            return
        d2 = ((pts - xy[a]) ** 2).sum(axis=1)
        d2[i] = np.inf
        b = cities[int(np.argmin(d2))]
        if (min(a, b), max(a, b)) in done:
            continue
        done.add((min(a, b), max(a, b)))
        steps = float(np.hypot(*(xy[b] - xy[a]))) / unit
        if steps > 3 * spacing:
            continue
        path = _bounded_path(m, a, b, water, step, 1.6 * steps + 4, nbr_cache)
        for u, v in zip(path or [], (path or [])[1:], strict=False):
            m.links["road"].add((u, v) if u < v else (v, u))


def _cc_finish(m: GameMap, water: np.ndarray, dice: Dice) -> None:
    """Continental Conquest touches: specks of land become Islands, the largest cities (one in
    twelve) stand on Metropolis hexes as the book's major cities, populations follow the book's
    bands, and the open sea on the east and west edges is marked as sea lanes to other maps."""
    seen = water.copy()
    islands = m.terrain_code("islands")
    for c in np.flatnonzero(~water):
        if not seen[c]:
            part = _component(m.grid, ~water, int(c))
            seen |= part
            if part.sum() <= 2:
                m.terrain[part] = islands
    d = dice.sub("cc cities")
    majors = max(1, len(m.sites) // 12)
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        major = s.id <= majors  # sites are numbered best place first
        s.attrs["major"] = major
        s.attrs["population"] = (100_000 if major else 25_000) * (100 + d.d(100, "population")) // 100
        if major:
            s.name = s.name.upper()  # the book prints major cities in capitals
            m.terrain[s.cell] = m.terrain_code("metropolis")
    w, h = m.grid.width, m.grid.height
    lane = m.terrain_code("sea_lane")
    for col in (0, w - 1):
        for row in range(h // 3, h - h // 3):
            c = row * w + col
            if water[c] and all(water[n] for n in m.grid.neighbours(c)):
                m.terrain[c] = lane


def _bounded_path(m: GameMap, a: int, b: int, water: np.ndarray, step: np.ndarray,
                  budget: float, nbr_cache: dict[int, list[int]]) -> list[int] | None:
    best = {a: 0.0}
    came: dict[int, int] = {}
    heap = [(0.0, a)]
    while heap:
        dist, c = heapq.heappop(heap)
        if c == b:
            out = [b]
            while out[-1] != a:
                out.append(came[out[-1]])
            return out[::-1]
        if dist > best[c]:
            continue
        nbrs = nbr_cache.get(c)
        if nbrs is None:
            nbrs = nbr_cache[c] = m.grid.neighbours(c)
        for n in nbrs:
            if water[n]:
                continue
            nd = dist + float(step[n])
            if nd <= budget and nd < best.get(n, math.inf):
                best[n], came[n] = nd, c
                heapq.heappush(heap, (nd, n))
    return None


def _provinces(m: GameMap, water: np.ndarray, dice: Dice, size: int) -> None:
    """Region maps: land cut into provinces and the sea into sea zones (nearest seed)."""
    rng = _rng(dice, "provinces")
    xy = m.grid.centers_array()
    taken: set[str] = set()
    d = dice.sub("province names")
    for is_water, kind, per in ((False, "province", size), (True, "sea", size * 4)):
        cells = np.flatnonzero(water == is_water)
        if not len(cells):
            continue
        k = max(1, len(cells) // per)
        seeds = np.sort(rng.choice(cells, size=min(k, len(cells)), replace=False))
        owner = _nearest(xy[cells], xy[seeds])
        for j in range(len(seeds)):
            name = _name(d, taken) + (" Sea" if is_water else "")
            m.add_area(name, kind, cells[owner == j].tolist())


def _nearest(points: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Index of the nearest seed for each point (shapely STRtree; ties to the lowest index)."""
    import shapely

    tree = shapely.STRtree(shapely.points(seeds))
    src, dst = tree.query_nearest(shapely.points(points), all_matches=True)
    owner = np.full(len(points), len(seeds), dtype=np.int64)
    np.minimum.at(owner, src, dst)
    return owner


# ---- Atlantis Conquest -----------------------------------------------------------------------

ATLANTIS_LAND = ("plain", "forest", "mountain", "swamp")
ATLANTIS_ISLAND = ("plain", "mountain", "forest", "swamp", "plain", "forest", "mountain", "swamp")


def _atlantis(width: int, height: int, dice: Dice, **p: Any) -> GameMap:
    """Small 8-region starting islands on a ring around a large central island, ocean between."""
    players = int(p.get("players", 8))
    size = int(p.get("island_size", 8))
    if players < 1 or size < 1:
        raise ValueError("atlantis maps need at least one player and islands of at least one region")
    m = new_map("hex", width, height, "ocean", orientation="flat")
    m.name = str(p.get("name") or f"Atlantis {dice.seed}")
    m.meta["notation"] = "atlantis"
    grid = m.grid
    xy = grid.centers_array()
    s = math.sqrt(3.0)  # distance between neighbouring hex centres
    mid = (xy.min(axis=0) + xy.max(axis=0)) / 2
    gap = float(p.get("gap", 4))
    ring, central = _atlantis_radii(width, height, gap)
    if not _atlantis_fits(width, height, players, gap):
        w_min = next(w for w in range(4, 4000) if _atlantis_fits(w, math.ceil(w * 1.5 / s), players, gap))
        raise ValueError(f"an atlantis map for {players} players needs at least about "
                         f"{w_min}x{math.ceil(w_min * 1.5 / s)} hexes; got {width}x{height}")
    rng = _rng(dice, "atlantis")
    dist = np.hypot(*(xy - mid).T)
    wobble = value_noise(xy, rng, 6.0, octaves=3)
    depth = float(p.get("central_depth", 12)) * s
    if depth <= 0 or central <= 2 * depth:
        # wobble only bites inwards (the gap stays ocean), and at most a few regions, so the
        # central coast stays a few regions' sail from every starting island
        land = dist + wobble * min(0.45 * central, 2.5 * s) < central
        centre_cell = int(np.argmin(dist))
    else:  # many players: the central island is a broad ring of land around an inland sea,
        # so its coast holds every starting island without a million regions inside
        inner = value_noise(xy, _rng(dice, "inland sea"), 6.0, octaves=3)
        land = (dist + wobble * 2.5 * s < central) & (dist - inner * 0.3 * depth > central - depth)
        centre_cell = int(np.argmin(np.abs(dist - (central - depth / 2)) + np.abs(xy[:, 1] - mid[1])))
    land[centre_cell] = True
    land = _component(grid, land, centre_cell)
    d = dice.sub("islands")
    taken: set[str] = set()
    islands: list[list[int]] = []
    turn = rng.random() * 2 * math.pi
    for i in range(players):
        ang = turn + 2 * math.pi * i / players
        target = mid + ring * np.array([math.cos(ang), math.sin(ang)])
        start = _nearest_cell(grid, xy, target)
        cells = _grow_island(grid, land, start, size, d)
        if cells is None:
            raise ValueError(f"no room for starting island {i + 1} of {players}; make the map bigger")
        land[cells] = True
        islands.append(cells)
    kinds = _rank(value_noise(xy, _rng(dice, "terrain"), 5.0, octaves=3))
    names = np.full(len(grid), "ocean", dtype=object)
    cuts = np.cumsum([float(p.get(t, w)) for t, w in zip(ATLANTIS_LAND, (0.45, 0.25, 0.15, 0.15), strict=True)])
    cuts = cuts / cuts[-1]
    pick = np.searchsorted(cuts, kinds, side="right").clip(0, 3)
    names[land] = np.array(ATLANTIS_LAND, dtype=object)[pick[land]]
    # Every starting island gets the same land, so no player starts richer: the start (a
    # plain one can recruit and move from) first, the others by distance from it.
    mix = tuple(p.get("island_terrains", ATLANTIS_ISLAND))
    for cells in islands:
        names[cells[0]] = "plain"
        rest = sorted(cells[1:], key=lambda c: (grid.distance(cells[0], c), c))
        for c, t in zip(rest, mix[1:], strict=False):
            names[c] = t
    _paint(m, names, ["ocean", *ATLANTIS_LAND])
    for i, cells in enumerate(islands):
        name = _name(d, taken)
        m.add_area(name, "island", cells, start=i + 1)
        m.add_site(cells[0], "start", f"Start {i + 1}", player=i + 1)
    core = np.flatnonzero(land & ~np.isin(np.arange(len(grid)), [c for isl in islands for c in isl]))
    n_prov = max(1, len(core) // int(p.get("province_size", 24)))
    seeds = np.sort(rng.choice(core, size=min(n_prov, len(core)), replace=False))
    owner = _nearest(xy[core], xy[seeds])
    for j, seed_cell in enumerate(seeds):
        name = _name(d, taken)
        m.add_area(name, "province", core[owner == j].tolist(), central=True)
        m.add_site(int(seed_cell), "town", name)
    return m


def atlantis_size(players: int, gap: float = 4, central_min: float = 6) -> tuple[int, int]:
    """The smallest (width, height) of an atlantis map for `players` starting islands whose
    central island reaches at least `central_min` regions from its middle to its coast."""
    s = math.sqrt(3.0)
    for w in range(8, 4002, 2):
        h = math.ceil(w * 1.5 / s)
        if _atlantis_fits(w, h, players, gap) and _atlantis_radii(w, h, gap)[1] >= central_min * s:
            return w, h
    raise ValueError(f"no atlantis map up to 4000 columns holds {players} players")


def _atlantis_radii(width: int, height: int, gap: float) -> tuple[float, float]:
    """(ring radius of the starting islands, central island radius) in map units."""
    s = math.sqrt(3.0)
    half = min(1.5 * (width - 1) / 2, s * (height - 0.5) / 2)  # centre to the nearest edge centre
    ring = half - 2.5 * s
    return ring, ring - gap * s


def _atlantis_fits(width: int, height: int, players: int, gap: float) -> bool:
    s = math.sqrt(3.0)
    ring, central = _atlantis_radii(width, height, gap)
    return central >= 2 * s and ring >= players * 5.5 * s / (2 * math.pi)


def _nearest_cell(grid: Any, xy: np.ndarray, point: np.ndarray) -> int:
    """The cell whose centre is nearest to a point: only the cells of the few columns and
    rows around it are compared (a whole-map argmin per island is slow on huge maps)."""
    col = int(round((point[0] - 1.0) / 1.5))
    row = int(round((point[1] - math.sqrt(3.0) / 2) / math.sqrt(3.0)))
    near = [c for dc in range(-2, 3) for dr in range(-2, 3)
            if (c := grid.cell(col + dc, row + dr)) is not None]
    if not near:
        return int(np.argmin(np.hypot(*(xy - point).T)))
    near.sort()
    d = np.hypot(*(xy[near] - point).T)
    return near[int(np.argmin(d))]


def _component(grid: Any, mask: np.ndarray, start: int) -> np.ndarray:
    out = np.zeros_like(mask)
    out[start] = True
    stack = [start]
    while stack:
        c = stack.pop()
        for n in grid.neighbours(c):
            if mask[n] and not out[n]:
                out[n] = True
                stack.append(n)
    return out


def _grow_island(grid: Any, land: np.ndarray, start: int, size: int, d: Dice) -> list[int] | None:
    """`size` connected cells around start, none touching other land or the map edge."""
    def free(c: int) -> bool:
        nb = grid.neighbours(c)
        return not land[c] and len(nb) == 6 and not any(land[n] for n in nb)

    if not free(start):
        near = sorted(grid.within(start, 3), key=lambda c: (grid.distance(start, c), c))
        start = next((c for c in near if free(c)), -1)
        if start < 0:
            return None
    cells = [start]
    member = {start}
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in grid.neighbours(c) if n not in member and free(n)})
        if not frontier:
            return None
        n = frontier[d.d(len(frontier), "island growth") - 1]
        cells.append(n)
        member.add(n)
    return cells
