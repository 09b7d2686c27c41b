"""Continental Conquest 5.0 dress for generated maps (engine.mapgen): the book's thirteen
terrains, a city every few hexes with major cities on Metropolis hexes, specks of land as
Islands, and sea lanes to other maps on the east and west edges."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap
from engine.mapgen.common import component
from engine.mapgen.profile import MapProfile

RENAME = {"ocean": "water", "hills": "wilderness", "tundra": "barren"}
PALETTE = ("water", "plains", "agricultural", "forest", "desert", "mountains", "swamp",
           "wilderness", "jungle", "barren", "metropolis", "islands", "sea_lane")


@dataclass(frozen=True)
class CcMapProfile(MapProfile):
    palette: tuple[str, ...] = PALETTE
    rename: Any = field(default_factory=lambda: dict(RENAME))
    per_city: int = 8          # the book's maps have a city every few hexes
    max_cities: int = 5000

    def terrains(self, names: np.ndarray, moisture: np.ndarray) -> np.ndarray:
        names[(names == "plains") & (moisture > 0.55)] = "agricultural"
        return super().terrains(names, moisture)

    def finish(self, m: GameMap, water: np.ndarray, dice: Dice) -> None:
        """Specks of land become Islands, the largest cities (one in twelve) stand on
        Metropolis hexes as the book's major cities, populations follow the book's bands,
        and the open sea on the east and west edges is marked as sea lanes to other maps."""
        seen = water.copy()
        islands = m.terrain_code("islands")
        for c in np.flatnonzero(~water):
            if not seen[c]:
                part = component(m.grid, ~water, int(c))
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


PROFILE = CcMapProfile()
