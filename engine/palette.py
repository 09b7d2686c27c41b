"""Map colours: terrains (resources/palettes/*.json, then families of terrain words), the
markers drawn over them, and the default faction colours, chosen apart from the markers.

One recipe for the canvas, PNG and SVG exports, so every picture of a map agrees. A terrain
never gets a random colour: a name the palette does not know is matched by the words in it
("Deep Sea" is water, "Dark Forest" a forest); a name with no known word gets a neutral
land colour, shaded a little per name so two unknown terrains stay distinguishable.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
from collections.abc import Collection
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


# ---- markers and faction colours --------------------------------------------------------------

# The fill of each kind of site marker (app/canvas/overlays.py draws them): a city is a red
# square, a capital a dark red star...
SITE_COLOURS = {
    "city": "#b8322a", "town": "#d2703a", "village": "#d9a273", "capital": "#7d1b1b",
    "port": "#2b5ea8", "castle": "#5b4a74", "ruin": "#6f6560", "start": "#f0c419",
}
NEUTRAL = "#777777"  # what nobody holds (engine/political)
# what else the canvas draws over holdings: the selection and "changed this turn" yellows, the
# viewer's reach preview green
MARKER_COLOURS = (*SITE_COLOURS.values(), NEUTRAL, "#ffea00", "#e0b800", "#3ddc84")
# Faction colours for a new scenario's factions, in order: each at least 30 (CIE76 delta E)
# from every marker colour, 25 from the palette's waters and 25 from each other
# (tests/test_palette.py), so a faction's holdings are never mistaken for neutral cities or a
# start marker, are seen on a coast, and are told from one another.
FACTION_COLOURS = ("#d81b9c", "#00a99d", "#8c52ff", "#9acd32", "#1a237e", "#ff6fb5",
                   "#6b8e23", "#00e5ff", "#004d40", "#e040fb", "#c2185b", "#b388ff")


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of '#rrggbb' (sRGB, D65)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i:i + 2], 16) / 255.0) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_difference(a: str, b: str) -> float:
    """How different two colours look (CIE76 delta E: about 2 is just noticeable)."""
    la, lb = _lab(a), _lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def faction_colour(taken: Collection[str] = (), number: int = 1) -> str:
    """The first faction colour not `taken` (case forgiven); once all twelve are taken,
    by the faction's number."""
    used = {c.casefold() for c in taken}
    return next((c for c in FACTION_COLOURS if c not in used),
                FACTION_COLOURS[(number - 1) % len(FACTION_COLOURS)])
