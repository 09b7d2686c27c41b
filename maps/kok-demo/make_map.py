"""Writes maps/kok-demo/map.rsmap, the King of Kings demo map (24 x 16 provinces).

Deterministic: the terrain is drawn below as letters of the default terrain table
(resources/kok/terrain.csv), so running this again gives the same file byte for byte.

    python maps/kok-demo/make_map.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from engine.map import GameMap, new_map  # noqa: E402
from engine.mapfile import save_map  # noqa: E402

# c cultivated  p plains  g grassland  d desert  s steppes  f forest  h hills
# m mountains  a marsh  w swamps  t town  y city  x metropolis  ~ sea
ROWS = [
    "~~~~~~~~~~~~~~~~~~~~~~~~",
    "~~cptpp~~~pgffhhmmhssdd~",
    "~cpycgpf~~ggffhhmysdsdd~",
    "~ppcpggh~gpgfhfhmmsstsd~",
    "~~pgpfgg~ggpgfhhhmssdds~",
    "~affggpp~~pgcgffhmmssdd~",
    "~wafgpcpp~~pcpgfhhmsdss~",
    "~~wapgppgh~~pgpcgghmmss~",
    "~~aagpypph~~pcgpgffhhsd~",
    "~wwaggcpphh~~ppgpgfhhms~",
    "~~wwapgppch~~pgxpgffmms~",
    "~~~apggpcpph~~pgcpffhhm~",
    "~~~~pgpcppgh~~ppgpfgmhm~",
    "~~~~~gppyppg~~~pgtpgghm~",
    "~~~~~~ggpcpg~~~~pcgpgfm~",
    "~~~~~~~~~~~~~~~~~~~~~~~~",
]
LETTERS = {
    "c": "cultivated", "p": "plains", "g": "grassland", "d": "desert", "s": "steppes",
    "f": "forest", "h": "hills", "m": "mountains", "a": "marsh", "w": "swamps",
    "t": "town", "y": "city", "x": "metropolis", "~": "sea",
}
SITES = {(4, 1): "Korinthos", (3, 2): "Argos", (17, 2): "Persepolis", (20, 3): "Susa",
         (6, 8): "Memphis", (15, 10): "Olbia", (8, 13): "Thebai", (17, 13): "Tanais"}
PATH = HERE / "map.rsmap"


def build() -> GameMap:
    width, height = len(ROWS[0]), len(ROWS)
    assert all(len(r) == width for r in ROWS), "every map row needs the same width"
    m = new_map("square", width, height, terrain="sea")
    m.name = "King of Kings demo: the Four Kingdoms"
    # register every terrain in table order so the palette is stable
    for name in LETTERS.values():
        m.terrain_code(name)
    for y, row in enumerate(ROWS):
        cells = [y * width + x for x in range(width)]
        m.set_terrain(cells, [LETTERS[ch] for ch in row])
    for (x, y), name in sorted(SITES.items()):
        ch = ROWS[y][x]
        assert ch in "tyx", f"site {name} at {x}/{y} is not a town or city"
        m.add_site(y * width + x, LETTERS[ch], name=name)
    m.meta["ruleset"] = "kok"
    return m


def main() -> None:
    save_map(build(), PATH)
    PATH.chmod(0o644)
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
