"""Big maps with every layer for the canvas benchmarks: terrain, rivers, roads, sites,
named areas and map labels, as a real campaign map has them (deterministic per seed)."""

from __future__ import annotations

import numpy as np

from engine.map import GameMap, Label
from engine.mapgen import generate


def full_map(kind: str, width: int, height: int, seed: int = 1, area_cells: int = 600) -> GameMap:
    """A generated map (terrain, rivers, roads between cities) plus land cut into named areas
    of about `area_cells` cells (nearest of random seeds) and a label per tenth area."""
    import shapely

    m = generate(kind, width, height, seed=seed, cities=min(400, width * height // 600))
    water = m.terrain == m.terrain_code("ocean")
    land = np.flatnonzero(~water)
    rng = np.random.default_rng(seed)
    seeds = np.sort(rng.choice(land, size=max(1, len(land) // area_cells), replace=False))
    xy = m.grid.centers_array()
    tree = shapely.STRtree(shapely.points(xy[seeds]))
    src, dst = tree.query_nearest(shapely.points(xy[land]), all_matches=False)
    owner = np.empty(len(land), dtype=np.int64)
    owner[src] = dst
    for j in range(len(seeds)):
        m.add_area(f"Area {j + 1}", "province", land[owner == j].tolist())
        if j % 10 == 0:
            x, y = xy[seeds[j]]
            m.labels.append(Label(f"Land {j // 10 + 1}", float(x), float(y)))
    return m


def describe(m: GameMap) -> str:
    links = ", ".join(f"{len(v)} {k} links" for k, v in sorted(m.links.items()))
    return (f"{m.kind} {m.grid.width}x{m.grid.height}: {links}, {len(m.sites)} sites, "
            f"{len(m.areas)} areas, {len(m.labels)} labels")
