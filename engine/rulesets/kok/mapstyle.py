"""King of Kings 4.10 dress for generated maps (engine.mapgen): the book's terrains, towns,
cities and a metropolis on their own terrain, cultivated fields around them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.map import GameMap
from engine.mapgen.profile import MapProfile

RENAME = {"ocean": "sea", "tundra": "steppes", "jungle": "forest", "swamp": "swamps"}
PALETTE = ("sea", "plains", "grassland", "cultivated", "steppes", "desert", "forest", "hills",
           "mountains", "marsh", "swamps", "town", "city", "metropolis")


@dataclass(frozen=True)
class KokMapProfile(MapProfile):
    palette: tuple[str, ...] = PALETTE
    rename: Any = field(default_factory=lambda: dict(RENAME))

    def terrains(self, names: np.ndarray, moisture: np.ndarray) -> np.ndarray:
        names[(names == "plains") & (moisture < 0.2)] = "steppes"
        names[(names == "plains") & (moisture > 0.45)] = "grassland"
        names[(names == "swamp") & (moisture < 0.8)] = "marsh"
        return super().terrains(names, moisture)

    def site_kind(self, size: int) -> str:
        return {3: "metropolis", 2: "city", 1: "town"}[size]

    def city_placed(self, m: GameMap, cell: int, kind: str) -> None:
        m.terrain[cell] = m.terrain_code(kind)
        farmland = (m.terrains.index("plains"), m.terrains.index("grassland"))
        for n in m.grid.neighbours(cell):  # the fields around a town are cultivated
            if m.terrain[n] in farmland:
                m.terrain[n] = m.terrain_code("cultivated")


PROFILE = KokMapProfile()
