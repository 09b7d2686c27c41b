"""Terrain colours: resources/palettes/*.json, with a stable hash colour for unknown names."""

from __future__ import annotations

import colorsys
import hashlib
import json
from functools import lru_cache
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
PALETTES = RESOURCES / "palettes"


@lru_cache(maxsize=8)
def load_palette(name: str = "default") -> dict[str, str]:
    path = PALETTES / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k.casefold(): v for k, v in data.get("terrains", {}).items()}


def hash_colour(name: str) -> str:
    """A pleasant colour that depends only on the name (sha256, not hash(): stable per run)."""
    h = hashlib.sha256(name.casefold().encode()).digest()
    hue = h[0] / 255.0
    sat = 0.35 + h[1] / 255.0 * 0.3
    val = 0.55 + h[2] / 255.0 * 0.3
    r, g, b = colorsys.hsv_to_rgb(hue, sat, val)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def terrain_colour(name: str, palette: str = "default") -> str:
    """'#rrggbb' for a terrain name."""
    key = name.casefold().replace("_", " ").strip()
    pal = load_palette(palette)
    if key in pal:
        return pal[key]
    if key.endswith("s") and key[:-1] in pal:
        return pal[key[:-1]]
    return hash_colour(key)


def rgb_table(names: list[str], palette: str = "default") -> list[int]:
    """0xffRRGGBB per terrain code, for the one-pixel-per-cell image."""
    out = []
    for n in names:
        c = terrain_colour(n, palette)
        out.append(0xFF000000 | int(c[1:], 16))
    return out
