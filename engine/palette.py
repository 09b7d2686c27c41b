"""Terrain colours: resources/palettes/*.json, then families of terrain words.

One recipe for the canvas, PNG and SVG exports, so every picture of a map agrees. A terrain
never gets a random colour: a name the palette does not know is matched by the words in it
("Deep Sea" is water, "Dark Forest" a forest); a name with no known word gets a neutral
land colour, shaded a little per name so two unknown terrains stay distinguishable.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
from functools import lru_cache
from pathlib import Path

PALETTES = Path(__file__).resolve().parents[1] / "resources" / "palettes"
LAND = "#d8cc9f"  # neutral land: unknown terrains, region maps' unowned land
SEA = "#4a7fb8"
# word in a terrain name -> the palette entry it borrows (first match wins; water first,
# so "sea of grass" stays a sea only if nobody wrote "grass" before it... keep it simple)
FAMILIES = (
    ("sea", "sea"), ("ocean", "ocean"), ("water", "water"), ("lake", "lake"), ("bay", "sea"),
    ("strait", "sea"), ("gulf", "sea"), ("channel", "sea"), ("coast", "coast"),
    ("shallow", "shallow water"), ("deep", "deep water"), ("river", "river"),
    ("mount", "mountains"), ("peak", "peaks"), ("hill", "hills"), ("forest", "forest"),
    ("wood", "woods"), ("jungle", "jungle"), ("swamp", "swamp"), ("marsh", "marsh"),
    ("bog", "marsh"), ("desert", "desert"), ("sand", "dunes"), ("dune", "dunes"),
    ("tundra", "tundra"), ("ice", "ice"), ("snow", "snow"), ("glacier", "glacier"),
    ("steppe", "steppes"), ("grass", "grassland"), ("plain", "plains"), ("field", "field"),
    ("farm", "farmland"), ("city", "city"), ("town", "town"), ("village", "village"),
    ("ruin", "ruin"), ("castle", "castle"), ("cave", "cavern"), ("waste", "wasteland"),
)


@lru_cache(maxsize=8)
def load_palette(name: str = "default") -> dict[str, str]:
    """Terrain colours of resources/palettes/<name>.json; empty when missing or damaged."""
    try:
        data = json.loads((PALETTES / f"{name}.json").read_text(encoding="utf-8"))
        return {str(k).casefold(): str(v) for k, v in data.get("terrains", {}).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def hash_colour(name: str) -> str:
    """A pleasant colour that depends only on the name (sha256, not hash(): stable per run).
    For things that are told apart by colour alone (areas of an editor map, link kinds);
    never for terrain."""
    h = hashlib.sha256(name.casefold().encode()).digest()
    r, g, b = colorsys.hsv_to_rgb(h[0] / 255.0, 0.35 + h[1] / 255.0 * 0.3, 0.55 + h[2] / 255.0 * 0.3)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _shade(colour: str, name: str) -> str:
    """colour made slightly lighter or darker, by name (unknown terrains side by side)."""
    h = hashlib.sha256(name.encode()).digest()[0] / 255.0
    r, g, b = (int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
    hh, ll, ss = colorsys.rgb_to_hls(r, g, b)
    r, g, b = colorsys.hls_to_rgb(hh, min(0.9, max(0.25, ll + (h - 0.5) * 0.25)), ss)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def is_water(name: str) -> bool:
    """A terrain (or region kind) that is water by its name."""
    key = name.casefold()
    return any(word in key for word, entry in FAMILIES[:12])


def terrain_colour(name: str, palette: str = "default") -> str:
    """'#rrggbb' for a terrain name (case and a plural 's' forgiven); never random."""
    key = name.casefold().replace("_", " ").strip()
    pal = load_palette(palette)
    if key in pal:
        return pal[key]
    if key.endswith("s") and key[:-1] in pal:
        return pal[key[:-1]]
    for word, entry in FAMILIES:
        if word in key and entry in pal:
            return pal[entry]
    return _shade(LAND, key) if key else LAND
