"""Writes testland.rsmap, the small map most ARTNES rule cases play on.

Each letter is a 2x2 block of cells (4-neighbour grid, so diagonals do not touch):

    A A B B C C D D        A Artois 0-2-2     B Burgundy 1-3-2   C Carinthia 2-2-1
    A A B B C C D D        D Dalmatia 1-1-1
    E E F F G G H H        E Aragon 1-2-3     F Flanders 0-4-4   G Genoa 0-3-3
    E E F F G G H H        H Hellas 2-2-2
    S S S S T T T T        S West Sea         T East Sea
    I I S S T T J J        I Ireland 1-2-1 (island in the West Sea)
                           J Sicily 1-3-2 (island in the East Sea)

Aragon and Flanders border the West Sea, Genoa and Hellas the East Sea; Flanders and
Genoa touch by land but not by a common sea. "Ar" is ambiguous (Aragon, Artois).

Run: /work/venv/bin/python tests/cases/artnes/make_testland.py
"""

from pathlib import Path

from engine.map import new_map
from engine.mapfile import save_map

ROWS = ["ABCD", "EFGH", "SSTT", "ISTJ"]
AREAS = {
    "A": ("Artois", "realm", (0, 2, 2)), "B": ("Burgundy", "realm", (1, 3, 2)),
    "C": ("Carinthia", "realm", (2, 2, 1)), "D": ("Dalmatia", "realm", (1, 1, 1)),
    "E": ("Aragon", "realm", (1, 2, 3)), "F": ("Flanders", "realm", (0, 4, 4)),
    "G": ("Genoa", "realm", (0, 3, 3)), "H": ("Hellas", "realm", (2, 2, 2)),
    "I": ("Ireland", "realm", (1, 2, 1)), "J": ("Sicily", "realm", (1, 3, 2)),
    "S": ("West Sea", "sea", None), "T": ("East Sea", "sea", None),
}


def build():
    m = new_map("regions", 8, 8)
    m.name = "ARTNES test land"
    cells: dict[str, list[int]] = {k: [] for k in AREAS}
    for by, row in enumerate(ROWS):
        for bx, ch in enumerate(row):
            for dy in (0, 1):
                for dx in (0, 1):
                    cells[ch].append((by * 2 + dy) * 8 + bx * 2 + dx)
    # the sea row is split into halves: S covers x 0-3 of row 4 and x 2-3 of row 5
    for ch, (name, kind, stats) in AREAS.items():
        attrs = {} if stats is None else dict(zip(("terrain", "population", "gold"), stats, strict=True))
        m.add_area(name, kind, cells[ch], **attrs)
    return m


if __name__ == "__main__":
    save_map(build(), Path(__file__).with_name("testland.rsmap"))
