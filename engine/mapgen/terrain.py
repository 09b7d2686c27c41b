"""The continents and islands styles: fractal height and moisture, rivers, cities and roads,
optionally cut into provinces; the ruleset's MapProfile names the terrains."""

from __future__ import annotations

import heapq
import math
from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap, new_map
from engine.mapgen.common import nearest, numpy_rng, paint, place_name, rank, value_noise
from engine.mapgen.profile import MapProfile
from engine.topology import HexGrid

WATER = "ocean"


def terrain_map(kind: str, style: str, width: int, height: int, dice: Dice, profile: MapProfile,
                **p: Any) -> GameMap:
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
    rng = numpy_rng(dice, "height")
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
    water = rank(h) < sea
    land = ~water
    lh = np.zeros(len(h))
    lh[land] = rank(h[land])
    moist = rank(value_noise(norm, numpy_rng(dice, "moisture"), 0.12))
    lat = np.abs(norm[:, 1] / max(ext[1], 1e-9) * 2 - 1)  # 0 at the equator row, 1 at the poles
    temp = 1 - lat + (value_noise(norm, numpy_rng(dice, "temperature"), 0.25) - 0.5) * 0.3 - lh * 0.15
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
    names = profile.terrains(names, moist)
    paint(m, names, list(profile.palette))
    heights = h
    _rivers(m, heights, water, lh, dice, int(p.get("rivers", min(150, max(1, int(land.sum()) // 350)))))
    per_city = profile.per_city
    _cities(m, water, dice, int(p.get("cities", min(profile.max_cities,
                                                       max(2, int(land.sum()) // per_city)))), profile)
    profile.finish(m, water, dice)
    if kind == "regions":
        _provinces(m, water, dice, int(p.get("region_size", 30)))
    return m




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




def _cities(m: GameMap, water: np.ndarray, dice: Dice, count: int, profile: MapProfile) -> None:
    """Cities on open land, preferring coasts and rivers, spread apart; roads to near neighbours."""
    if count <= 0:
        return
    d = dice.sub("cities")
    rng_ = numpy_rng(dice, "city scores")
    n = len(m.grid)
    bad = {"mountains", "mountain", "swamp", "swamps", "marsh", "tundra", "barren", "wilderness"}
    ok = ~water & np.array([t not in bad for t in m.terrains])[m.terrain]
    river_cells = {c for ab in m.links["river"] for c in ab}
    score = rng_.random(n)
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
        kind = profile.site_kind(size)
        m.add_site(c, kind, place_name(d, taken), size=size, population=1000 * size * size)
        profile.city_placed(m, c, kind)
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
    rng = numpy_rng(dice, "provinces")
    xy = m.grid.centers_array()
    taken: set[str] = set()
    d = dice.sub("province names")
    for is_water, kind, per in ((False, "province", size), (True, "sea", size * 4)):
        cells = np.flatnonzero(water == is_water)
        if not len(cells):
            continue
        k = max(1, len(cells) // per)
        seeds = np.sort(rng.choice(cells, size=min(k, len(cells)), replace=False))
        owner = nearest(xy[cells], xy[seeds])
        for j in range(len(seeds)):
            name = place_name(d, taken) + (" Sea" if is_water else "")
            m.add_area(name, kind, cells[owner == j].tolist())


