"""Terrain colours: resources/palettes/*.json, with a stable hash colour for unknown names.

One recipe for the canvas, PNG and SVG exports, so every picture of a map agrees.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
from functools import lru_cache
from pathlib import Path

PALETTES = Path(__file__).resolve().parents[1] / "resources" / "palettes"


@lru_cache(maxsize=8)
def load_palette(name: str = "default") -> dict[str, str]:
    """Terrain colours of resources/palettes/<name>.json; empty when missing or damaged."""
    try:
        data = json.loads((PALETTES / f"{name}.json").read_text(encoding="utf-8"))
        return {str(k).casefold(): str(v) for k, v in data.get("terrains", {}).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def hash_colour(name: str) -> str:
    """A pleasant colour that depends only on the name (sha256, not hash(): stable per run)."""
    h = hashlib.sha256(name.casefold().encode()).digest()
    r, g, b = colorsys.hsv_to_rgb(h[0] / 255.0, 0.35 + h[1] / 255.0 * 0.3, 0.55 + h[2] / 255.0 * 0.3)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def terrain_colour(name: str, palette: str = "default") -> str:
    """'#rrggbb' for a terrain name (case and a plural 's' forgiven)."""
    key = name.casefold().replace("_", " ").strip()
    pal = load_palette(palette)
    if key in pal:
        return pal[key]
    if key.endswith("s") and key[:-1] in pal:
        return pal[key[:-1]]
    return hash_colour(key)
