"""Terrain colours for the canvas: the engine's palette plus the pixel-image colour table."""

from __future__ import annotations

from engine.palette import PALETTES, hash_colour, load_palette, terrain_colour

__all__ = ["PALETTES", "hash_colour", "load_palette", "rgb_table", "terrain_colour"]


def rgb_table(names: list[str], palette: str = "default") -> list[int]:
    """0xffRRGGBB per terrain code, for the one-pixel-per-cell image."""
    out = []
    for n in names:
        c = terrain_colour(n, palette)
        out.append(0xFF000000 | int(c[1:], 16))
    return out
