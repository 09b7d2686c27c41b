"""Map generator: continents, islands and the Atlantis Conquest layout, deterministic per seed.

    generate("hex", 60, 40, seed=7, style="continents", ruleset="kok")
    generate("atlantis", 40, 32, seed=1, players=8)     # a style name works as `kind` too

All randomness comes from engine.dice.Dice sub-generators (numpy generators are seeded from
them), so the same arguments always give the same map. Terrain names are generic (ocean,
plains, forest, hills, mountains, desert, swamp, tundra, jungle) unless a ruleset is given:
its MapProfile (`Ruleset.map_profile()`, engine/mapgen/profile.py) names them as its book
does and places its sites. The atlantis style always has the Atlantis Conquest terrains
(ocean, plain, forest, mountain, swamp).

Modules: common (noise, names), profile (what a ruleset declares), terrain (continents and
islands), conquest (the Atlantis Conquest layout).
"""

from __future__ import annotations

from typing import Any

from engine.dice import Dice
from engine.map import GameMap
from engine.mapgen.common import value_noise
from engine.mapgen.conquest import ATLANTIS_ISLAND, ATLANTIS_LAND, atlantis, atlantis_size
from engine.mapgen.profile import GENERIC_PALETTE, MapProfile, profile_of
from engine.mapgen.terrain import WATER, terrain_map

STYLES = ("continents", "islands", "atlantis")
GRID_KINDS = ("hex", "square", "regions")


def generate(kind: str, width: int, height: int, seed: int | str, **params: Any) -> GameMap:
    """A generated map; `kind` is a grid kind (style in params) or a style name (grid in params).
    `ruleset` (a name, a Ruleset or a MapProfile) dresses it in that ruleset's terrains."""
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
    ruleset = params.pop("ruleset", None)
    named = ruleset if isinstance(ruleset, str) else getattr(ruleset, "name", None)
    kept = {**params, "ruleset": named} if named is not None else params
    record = {"style": style, "seed": seed, **{k: v for k, v in sorted(kept.items())}}
    if style == "atlantis":
        m = atlantis(width, height, dice, **params)
    else:
        m = terrain_map(kind, style, width, height, dice, profile_of(ruleset), **params)
    m.meta["generator"] = record
    return m


__all__ = ["ATLANTIS_ISLAND", "ATLANTIS_LAND", "GENERIC_PALETTE", "GRID_KINDS", "STYLES", "WATER",
           "MapProfile", "atlantis_size", "generate", "profile_of", "value_noise"]
