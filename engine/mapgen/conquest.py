"""The Atlantis Conquest layout: one small starting island per faction, each a few regions'
sail from a large central island, ocean between (the book's "The World of Atlantis
Conquest"). Two arrangements, both seeded and reproducible (docs/atlantis.md, "The world"):

- ring (up to RING_MAX factions): the islands on one ring around a round central island
  whose radius follows the map's size (at least 6 regions by `atlantis_size`);
- rings (more factions): the central island is a round core of CORE regions' radius with
  concentric bands of land around it, RING regions wide, joined to each other by land
  bridges and cut by straits so that both the land and the sea stay one piece. Between two
  bands runs a channel CHANNEL regions wide holding one row of starting islands, each with
  one region of ocean between it and the central island's coast on either side. Sailing
  from any island towards the middle of the map reaches the central island at the second
  region. The world grows by one band and channel at a time, so land and ocean grow with
  the number of factions (1,000 factions: 8,000 island and about 11,400 central regions on a 295x255 map)
  instead of with the square of a single ring's radius.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap, new_map
from engine.mapgen.common import component, nearest, numpy_rng, paint, place_name, rank, value_noise

ATLANTIS_LAND = ("plain", "forest", "mountain", "swamp")
ATLANTIS_ISLAND = ("plain", "mountain", "forest", "swamp", "plain", "forest", "mountain", "swamp")
S = math.sqrt(3.0)  # distance between neighbouring hex centres, in map units
# the ring arrangement holds this many islands around a central island of 6 regions' radius
RING_MAX = 11
# the rings arrangement, in regions (hexes)
CORE = 6              # radius of the central island's round core
CHANNEL = 6           # sea between two bands of land: coast, island row, coast
RING = 1.5            # width of a band of land
PITCH = 5.5           # length of coast per starting island (3-4 regions across, ocean between)
BRIDGE_EVERY = 90     # about one land bridge (and one strait) per this many regions of coast
BRIDGE, STRAIT = 2, 2.5  # their widths


def atlantis(width: int, height: int, dice: Dice, **p: Any) -> GameMap:
    """Small 8-region starting islands around a large central island, ocean between."""
    players = int(p.get("players", 8))
    size = int(p.get("island_size", 8))
    if players < 1 or size < 1:
        raise ValueError("atlantis maps need at least one player and islands of at least one region")
    m = new_map("hex", width, height, "ocean", orientation="flat")
    m.name = str(p.get("name") or f"Atlantis {dice.seed}")
    m.meta["notation"] = "atlantis"
    grid = m.grid
    xy = grid.centers_array()
    mid = (xy.min(axis=0) + xy.max(axis=0)) / 2
    d = dice.sub("islands")
    if _layout(players, p) == "rings":
        rng = numpy_rng(dice, "atlantis rings")
        land, targets, groups = _rings(grid, xy, mid, players, width, height)
        islands = [_compact_island(grid, land, _nearest_cell(grid, xy, t), size, d, i, players)
                   for i, t in enumerate(targets)]
    else:
        rng = numpy_rng(dice, "atlantis")
        land, targets = _one_ring(grid, xy, mid, players, rng, dice, width, height, float(p.get("gap", 4)),
                                  float(p.get("central_depth", 12)))
        islands = []
        for i, target in enumerate(targets):
            cells = _grow_island(grid, land, _nearest_cell(grid, xy, target), size, d)
            if cells is None:
                raise ValueError(f"no room for starting island {i + 1} of {players}; make the map bigger")
            land[cells] = True
            islands.append(cells)
        groups = None
    kinds = rank(value_noise(xy, numpy_rng(dice, "terrain"), 5.0, octaves=3))
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
    paint(m, names, ["ocean", *ATLANTIS_LAND])
    taken: set[str] = set()
    for i, cells in enumerate(islands):
        m.add_area(place_name(d, taken), "island", cells, start=i + 1)
        m.add_site(cells[0], "start", f"Start {i + 1}", player=i + 1)
    core = np.flatnonzero(land & ~np.isin(np.arange(len(grid)), [c for isl in islands for c in isl]))
    per = int(p.get("province_size", 24))
    # provinces: nearest of random seeds; in the rings arrangement band by band, so that no
    # province reaches across a channel
    for part in ([core] if groups is None else [core[groups[core] == g] for g in np.unique(groups[core])]):
        n_prov = max(1, len(part) // per)
        seeds = np.sort(rng.choice(part, size=min(n_prov, len(part)), replace=False))
        owner = nearest(xy[part], xy[seeds])
        for j, seed_cell in enumerate(seeds):
            name = place_name(d, taken)
            m.add_area(name, "province", part[owner == j].tolist(), central=True)
            m.add_site(int(seed_cell), "town", name)
    return m


def _layout(players: int, p: dict[str, Any]) -> str:
    layout = str(p.get("layout") or ("ring" if players <= RING_MAX else "rings"))
    if layout not in ("ring", "rings"):
        raise ValueError(f"unknown atlantis layout {layout!r}; choose ring or rings")
    return layout


def atlantis_size(players: int, gap: float = 4, central_min: float = 6,
                  layout: str | None = None) -> tuple[int, int]:
    """The smallest (width, height) of an atlantis map for `players` starting islands: one
    ring around a central island reaching at least `central_min` regions from its middle to
    its coast, or (more than RING_MAX players) the rings arrangement."""
    if _layout(players, {"layout": layout}) == "rings":
        outer = _geometry(players)[-1].r + CHANNEL + 2  # an ocean rim outside the last islands
        return math.ceil(2 * outer * S / 1.5) + 2, math.ceil(2 * outer) + 2
    for w in range(8, 4002, 2):
        h = math.ceil(w * 1.5 / S)
        if _fits(w, h, players, gap) and _radii(w, h, gap)[1] >= central_min * S:
            return w, h
    raise ValueError(f"no atlantis map up to 4000 columns holds {players} players")


# ---- one ring ----------------------------------------------------------------------------------

def _one_ring(grid: Any, xy: np.ndarray, mid: np.ndarray, players: int, rng: np.random.Generator,
              dice: Dice, width: int, height: int, gap: float,
              central_depth: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The central island's land and each island's target point, on one ring."""
    ring, central = _radii(width, height, gap)
    if not _fits(width, height, players, gap):
        w_min = next(w for w in range(4, 4000) if _fits(w, math.ceil(w * 1.5 / S), players, gap))
        raise ValueError(f"an atlantis map for {players} players needs at least about "
                         f"{w_min}x{math.ceil(w_min * 1.5 / S)} hexes; got {width}x{height}")
    dist = np.hypot(*(xy - mid).T)
    wobble = value_noise(xy, rng, 6.0, octaves=3)
    depth = central_depth * S
    if depth <= 0 or central <= 2 * depth:
        # wobble only bites inwards (the gap stays ocean), and at most a few regions, so the
        # central coast stays a few regions' sail from every starting island
        land = dist + wobble * min(0.45 * central, 2.5 * S) < central
        centre_cell = int(np.argmin(dist))
    else:  # a big map with few islands: the central island is a broad ring of land
        inner = value_noise(xy, numpy_rng(dice, "inland sea"), 6.0, octaves=3)
        land = (dist + wobble * 2.5 * S < central) & (dist - inner * 0.3 * depth > central - depth)
        centre_cell = int(np.argmin(np.abs(dist - (central - depth / 2)) + np.abs(xy[:, 1] - mid[1])))
    land[centre_cell] = True
    land = component(grid, land, centre_cell)
    turn = rng.random() * 2 * math.pi
    targets = [mid + ring * np.array([math.cos(a), math.sin(a)])
               for a in (turn + 2 * math.pi * i / players for i in range(players))]
    return land, targets


def _radii(width: int, height: int, gap: float) -> tuple[float, float]:
    """(ring radius of the starting islands, central island radius) in map units."""
    half = min(1.5 * (width - 1) / 2, S * (height - 0.5) / 2)  # centre to the nearest edge centre
    ring = half - 2.5 * S
    return ring, ring - gap * S


def _fits(width: int, height: int, players: int, gap: float) -> bool:
    ring, central = _radii(width, height, gap)
    return central >= 2 * S and ring >= players * 5.5 * S / (2 * math.pi)


def _grow_island(grid: Any, land: np.ndarray, start: int, size: int, d: Dice, reach: int = 3,
                 compact: bool = False) -> list[int] | None:
    """`size` connected cells around start (or a free cell within `reach` of it), none
    touching other land or the map edge; `compact`: each next cell among the nearest to
    the start (a round island that keeps to its channel), else anywhere on the coast."""
    def free(c: int) -> bool:
        nb = grid.neighbours(c)
        return not land[c] and len(nb) == 6 and not any(land[n] for n in nb)

    if not free(start):
        near = sorted(grid.within(start, reach), key=lambda c: (grid.distance(start, c), c))
        start = next((c for c in near if free(c)), -1)
        if start < 0:
            return None
    cells = [start]
    member = {start}
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in grid.neighbours(c) if n not in member and free(n)})
        if not frontier:
            return None
        if compact:
            best = min(grid.distance(start, n) for n in frontier)
            frontier = [n for n in frontier if grid.distance(start, n) == best]
        n = frontier[d.d(len(frontier), "island growth") - 1]
        cells.append(n)
        member.add(n)
    return cells


# ---- rings ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Channel:
    r: float                     # inner coast (regions from the middle)
    bridges: int                 # land bridges across it to the band outside; 0: the outermost
    phase: float                 # angle of the first bridge
    cut: float                   # angle of the first strait of the band outside, beside it
    islands: tuple[float, ...]   # the starting islands' angles


@functools.cache
def _geometry(players: int) -> tuple[_Channel, ...]:
    """The channels from the middle outwards: each inner one as full as its coast allows
    (clear of bridges and straits), the outermost with the rest, spread around it. The
    same for the same number of players (the seed makes the land, not the plan), so the
    map's size is known before it is made."""
    out: list[_Channel] = []
    r, left, phase = float(CORE), players, 0.0
    inner: tuple[float, float, int] | None = None  # the band inside: radius, first strait, straits
    while left > 0:
        mid_r = r + CHANNEL / 2
        blocked = []  # (angle, half width in regions at mid_r) where no island may sit
        if inner is not None:  # the band's straits are open water, not a coast to sail to
            sr, s0, sn = inner
            blocked += [(s0 + 2 * math.pi * j / sn, STRAIT / 2 + 1 + PITCH / 2) for j in range(sn)]
        free = _free_slots(mid_r, blocked, phase)
        if left <= len(free):
            out.append(_Channel(r, 0, phase, phase, _spread(free, left)))
            break
        bridges = max(1, round(2 * math.pi * mid_r / BRIDGE_EVERY))
        phase = _bridge_phase(phase, bridges, inner)
        cut = phase + PITCH / (r + CHANNEL)  # each strait just beside its bridge
        # a bridge and its strait, with a region of sea either side of the pair
        blocked += [(phase + 2 * math.pi * j / bridges + PITCH / 2 / mid_r,
                     BRIDGE / 2 + 1 + PITCH) for j in range(bridges)]
        free = _free_slots(mid_r, blocked, phase)
        if not free:
            raise ValueError(f"no room for starting islands on a channel {r:.0f} regions out")
        take = min(left, len(free))
        out.append(_Channel(r, bridges, phase, cut, _spread(free, take)))
        left -= take
        inner = (r + CHANNEL, cut, bridges)
        r += CHANNEL + RING
    return tuple(out)


def _rings(grid: Any, xy: np.ndarray, mid: np.ndarray, players: int, width: int,
           height: int) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """(land, island target points, band of each cell: 0 the core, k the k-th band)."""
    need = atlantis_size(players, layout="rings")
    if width < need[0] or height < need[1]:
        raise ValueError(f"an atlantis map for {players} players needs at least "
                         f"{need[0]}x{need[1]} hexes; got {width}x{height}")
    rel = xy - mid
    rho = np.hypot(*rel.T) / S
    theta = np.mod(np.arctan2(rel[:, 1], rel[:, 0]), 2 * math.pi)
    land = rho < CORE
    targets: list[np.ndarray] = []
    for ch in _geometry(players):
        if ch.bridges:
            band = (rho >= ch.r + CHANNEL) & (rho < ch.r + CHANNEL + RING)
            land |= band
            cross = (rho >= ch.r - 0.5) & (rho < ch.r + CHANNEL + 0.5)
            land |= cross & (_arc(theta, rho, ch.phase, ch.bridges) < BRIDGE / 2)
            land &= ~(band & (_arc(theta, rho, ch.cut, ch.bridges) < STRAIT / 2))
        mid_r = (ch.r + CHANNEL / 2) * S
        targets += [mid + mid_r * np.array([math.cos(a), math.sin(a)]) for a in ch.islands]
    land = component(grid, land, int(np.argmin(rho)))
    groups = np.clip(np.floor((rho - CORE + CHANNEL / 2) / (CHANNEL + RING)), 0, None).astype(np.int64)
    return land, targets, groups


def _arc(theta: np.ndarray, rho: np.ndarray, first: float, count: int) -> np.ndarray:
    """Distance along the circle (regions) from each cell to the nearest of `count` evenly
    spaced angles starting at `first`."""
    step = 2 * math.pi / count
    off = np.mod(theta - first, step)
    return np.minimum(off, step - off) * rho


def _bridge_phase(phase: float, bridges: int, inner: tuple[float, float, int] | None) -> float:
    """The first bridge's angle: `phase`, or turned a little until no bridge lands in a
    strait of the band it starts from (it would be cut off from the land inside)."""
    if inner is None:
        return phase
    sr, s0, sn = inner
    for k in range(64):
        a = phase + k * 2 * math.pi / bridges / 64
        angles = np.array([a + 2 * math.pi * j / bridges for j in range(bridges)])
        off = np.mod(angles - s0, 2 * math.pi / sn)
        if (np.minimum(off, 2 * math.pi / sn - off) * sr).min() >= STRAIT + BRIDGE:
            return a
    return phase


def _free_slots(mid_r: float, blocked: list[tuple[float, float]], start: float) -> list[float]:
    """Angles of island slots PITCH apart on a circle of radius mid_r (regions), packed
    from `start`, each clear of the blocked angles."""
    length = 2 * math.pi * mid_r
    free: list[float] = []
    pos = 0.0
    while pos + PITCH <= length:
        centre = start + (pos + PITCH / 2) / mid_r
        if all(abs((centre - a + math.pi) % (2 * math.pi) - math.pi) * mid_r >= half
               for a, half in blocked):
            free.append(centre)
            pos += PITCH
        else:
            pos += 0.5
    return free


def _spread(free: list[float], count: int) -> tuple[float, ...]:
    """`count` of the slots, evenly spread over all of them."""
    return tuple(free[i * len(free) // count] for i in range(count))


def _compact_island(grid: Any, land: np.ndarray, start: int, size: int, d: Dice, i: int,
                    players: int) -> list[int]:
    cells = _grow_island(grid, land, start, size, d, reach=2, compact=True)
    if cells is None:
        raise ValueError(f"no room for starting island {i + 1} of {players}")
    land[cells] = True
    return cells


def _nearest_cell(grid: Any, xy: np.ndarray, point: np.ndarray) -> int:
    """The cell whose centre is nearest to a point: only the cells of the few columns and
    rows around it are compared (a whole-map argmin per island is slow on huge maps)."""
    col = int(round((point[0] - 1.0) / 1.5))
    row = int(round((point[1] - S / 2) / S))
    near = [c for dc in range(-2, 3) for dr in range(-2, 3)
            if (c := grid.cell(col + dc, row + dr)) is not None]
    if not near:
        return int(np.argmin(np.hypot(*(xy - point).T)))
    near.sort()
    dist = np.hypot(*(xy[near] - point).T)
    return near[int(np.argmin(dist))]
