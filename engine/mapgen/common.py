"""What every map style shares: seeded noise, ranks, painting terrains, names, nearest seeds."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap

SYLLABLES = ("an", "bel", "cor", "dra", "el", "fen", "gar", "hal", "is", "kar", "lor", "mar", "nor",
             "os", "par", "quel", "ros", "sal", "tur", "ul", "val", "wen", "yar", "zan", "ith", "ia",
             "mon", "del", "bar", "ka")


def numpy_rng(dice: Dice, *keys: Any) -> np.random.Generator:
    """A numpy generator seeded from a Dice sub-generator (the same keys, the same numbers)."""
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


def rank(v: np.ndarray) -> np.ndarray:
    """Values replaced by their rank in [0, 1] (so thresholds are proportions)."""
    r = np.empty(len(v))
    r[np.argsort(v, kind="stable")] = np.linspace(0.0, 1.0, len(v)) if len(v) > 1 else 0.0
    return r


def paint(m: GameMap, names: np.ndarray, palette: list[str]) -> None:
    """Set every cell's terrain at once, with a fixed palette order (deterministic codes)."""
    m.terrains = list(palette)
    for t in sorted(set(names.tolist()) - set(palette)):
        m.terrains.append(t)
    code = {t: i for i, t in enumerate(m.terrains)}
    m.terrain = np.array([code[t] for t in names], dtype=np.uint16)


def place_name(d: Dice, taken: set[str]) -> str:
    """A new made-up place name (syllables), not one of `taken`."""
    for _ in range(50):
        name = "".join(d.choice(SYLLABLES, "name") for _ in range(d.d(2, "name length") + 1)).capitalize()
        if name not in taken:
            taken.add(name)
            return name
    name = f"Place {len(taken) + 1}"
    taken.add(name)
    return name


def nearest(points: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Index of the nearest seed for each point (shapely STRtree; ties to the lowest index)."""
    import shapely

    tree = shapely.STRtree(shapely.points(seeds))
    src, dst = tree.query_nearest(shapely.points(points), all_matches=True)
    owner = np.full(len(points), len(seeds), dtype=np.int64)
    np.minimum.at(owner, src, dst)
    return owner


# ---- Atlantis Conquest -----------------------------------------------------------------------

def component(grid: Any, mask: np.ndarray, start: int) -> np.ndarray:
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


