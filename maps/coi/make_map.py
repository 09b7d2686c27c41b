"""Generate the Conquest of Island demo map, maps/coi/island.rsmap, deterministically.

    /work/venv/bin/python maps/coi/make_map.py

A 16x12 flat-topped hex island: deep water at the rim, a shallow ring, fields on the
coast, forest, desert and mountain regions inland and the ancient ruin in the middle.
The four starting ports are map sites of kind "start" (one per corner).
"""

from __future__ import annotations

import math
from pathlib import Path

from engine.dice import derive_seed
from engine.map import new_map
from engine.mapfile import save_map

W, H = 16, 12
OUT = Path(__file__).with_name("island.rsmap")


def noise(col: int, row: int, salt: str) -> float:
    return (derive_seed("coi-island", salt, col, row) % 1000) / 1000.0


def build():
    m = new_map("hex", W, H, terrain="deep")
    m.name = "Conquest of Island demo"
    g = m.grid
    cx, cy = g.center(g.cell(W // 2, H // 2))
    land = set()
    for c in g.cells():
        x, y = g.center(c)
        d = math.hypot((x - cx) / 1.15, (y - cy))
        if d + 2.2 * noise(*g.colrow(c), "coast") < 9.0:
            land.add(c)
    terrain = {}
    for c in g.cells():
        if c in land:
            continue
        terrain[c] = "shallow" if any(n in land for n in g.neighbours(c)) else "deep"
    centre = g.cell(W // 2, H // 2)
    for c in sorted(land):
        x, y = g.center(c)
        coast = any(n not in land for n in g.neighbours(c))
        ang = math.degrees(math.atan2(y - cy, x - cx)) % 360
        r = noise(*g.colrow(c), "land")
        if c == centre:
            t = "ruin"
        elif coast:
            t = "field" if r < 0.8 else "forest"
        elif ang < 90:
            t = "mountain" if r < 0.7 else "forest"
        elif ang < 180:
            t = "forest" if r < 0.75 else "field"
        elif ang < 270:
            t = "desert" if r < 0.7 else "field"
        else:
            t = "field" if r < 0.6 else "mountain"
        terrain[c] = t
    for c in g.cells():
        m.set_terrain([c], terrain[c])
    # Starting ports: the coastal land hex nearest each corner that touches shallow water.
    for i, (col, row) in enumerate(((0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1)), start=1):
        corner = g.cell(col, row)
        coastal = [c for c in sorted(land) if any(terrain[n] == "shallow" for n in g.neighbours(c))
                   and terrain[c] not in ("ruin",)]
        best = min(coastal, key=lambda c: (g.distance(c, corner), c))
        m.set_terrain([best], "field")
        m.add_site(best, "start", f"Landing {i}", player=i)
    m.meta["notation"] = "col,row"
    return m


def main() -> None:
    m = build()
    save_map(m, OUT)
    letters = {"desert": "d", "mountain": "m", "forest": "f", "field": "p", "ruin": "r",
               "deep": "w", "shallow": "s"}
    for row in range(H):
        print(f"{row:2} " + " ".join(letters[m.terrain_at(m.grid.cell(c, row))] for c in range(W)))
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        print(s.name, m.grid.label(s.cell, "col,row"))


if __name__ == "__main__":
    main()
