"""How a ruleset dresses a generated map: its terrain names, palette, cities and last touches.

The generator's styles make generic land (plains, forest, hills...); a ruleset declares a
MapProfile (`Ruleset.map_profile()`) to turn that into its own book's terrains and
sites. `generate(..., ruleset=...)` takes a profile, a Ruleset or a ruleset's name; a
name is looked up in engine.registry, or, for a ruleset package of the project not
registered yet, its module's RULESET.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.dice import Dice
from engine.map import GameMap

GENERIC_PALETTE = ("ocean", "plains", "forest", "hills", "mountains", "desert", "swamp", "tundra",
                   "jungle")


@dataclass(frozen=True)
class MapProfile:
    """The generic profile; a ruleset subclasses it (or fills `rename`/`palette`) for its
    book. Hooks are called in a fixed order, so the same seed gives the same map."""

    palette: tuple[str, ...] = GENERIC_PALETTE  # terrain codes in this order (stable files)
    rename: Mapping[str, str] = field(default_factory=dict)  # generic name -> the book's
    per_city: int = 250      # one city for this many land cells...
    max_cities: int = 200    # ...at most this many (unless the caller says `cities=`)

    def terrains(self, names: np.ndarray, moisture: np.ndarray) -> np.ndarray:
        """The book's terrain of each cell from the generic names (and moisture ranks)."""
        if not self.rename:
            return names
        return np.array([self.rename.get(t, t) for t in names], dtype=object)

    def site_kind(self, size: int) -> str:
        """The site kind of a city of size 1 (town) to 3 (the first, biggest)."""
        return "city"

    def city_placed(self, m: GameMap, cell: int, kind: str) -> None:
        """After a city is placed (a ruleset may change the land around it)."""

    def finish(self, m: GameMap, water: np.ndarray, dice: Dice) -> None:
        """Last touches after cities and roads."""


GENERIC = MapProfile()


def profile_of(ruleset: Any) -> MapProfile:
    """The profile for `ruleset`: None (generic), a MapProfile, a Ruleset or a name."""
    if ruleset is None or ruleset == "":
        return GENERIC
    if isinstance(ruleset, MapProfile):
        return ruleset
    if not isinstance(ruleset, str):
        return ruleset.map_profile() or GENERIC
    from engine import registry

    try:
        rs = registry.get(ruleset)
    except registry.UnknownRuleset:
        try:  # a ruleset package of this project that is not registered yet (being built)
            rs = importlib.import_module(f"engine.rulesets.{ruleset.lower()}").RULESET
        except (ImportError, AttributeError, ValueError):
            return GENERIC  # as before: an unknown name gives the generic terrains
    return rs.map_profile() or GENERIC
