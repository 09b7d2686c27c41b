"""Combat spells (Magic Skills): which spell a mage casts in battle, at what level, and how
many soldiers it reaches each round it is cast.

The book's combat spells: Dazzle (-2 on the dazzled soldier's next attack), Lightning
Bolt, Fireball and Black Wind (kill), Cause Fear (-2 attack and defence for the rest of
the battle), Inspire Courage (lifts Cause Fear from friends). The ranges ("from 2 to 50
times his skill level") are the spells catalog's `low`, `high` and `per_level` columns,
read as the game's `spell_range` option says. A staff lets a mage cast its spell at
level 3 even without knowing it (Create Staff of ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.dice import Dice

KILL = frozenset({"lightning bolt", "fireball", "black wind"})
DAZZLE, FEAR, COURAGE = "dazzle", "cause fear", "inspire courage"


@cache
def staffs() -> dict[str, tuple[str, int]]:
    """Item -> (the spell it casts, at what level): the items catalog's `casts` and
    `cast_level` (the staffs: Dazzle, Cause Fear, Fireball at 3), as magic.cast_level reads."""
    from engine.rulesets.atlantis.catalog import default_catalog

    return {name: (row["casts"], int(row["cast_level"]))
            for name, row in default_catalog("items").by("name").items() if row.get("casts")}


@cache
def _book_spells() -> dict[str, Mapping]:
    from engine.rulesets.atlantis.catalog import default_catalogs

    return dict(default_catalogs()["spells"].by("name"))


def book_spells() -> Mapping[str, Mapping]:
    """The spells catalog of the book, by name (what `fight` uses when given none)."""
    return _book_spells()


def casting_level(spell: str, levels: Mapping[str, int], items: Mapping[str, int],
                  spells: Mapping[str, Mapping]) -> int:
    """The level a unit casts its COMBAT `spell` at in battle: its level in the spell, or
    3 with a staff of that spell if it is a mage (Magic 1 or more); 0 = it cannot cast it
    (not a combat spell, not known, no staff)."""
    row = spells.get(spell)
    if not spell or row is None or row["use"] != "combat":
        return 0
    level = int(levels.get(spell, 0))
    if levels.get("magic", 0) >= 1:
        for staff, (casts, at) in staffs().items():
            if casts == spell and items.get(staff, 0) > 0:
                level = max(level, at)
    return level


def reach(row: Mapping, level: int, dice: Dice, spell_range: str = "level_both") -> int:
    """How many soldiers a cast reaches this round: uniform over the spell's range.
    `level_both`: level x low .. level x high; `level_top`: low .. level x high; a spell
    without `per_level` (Inspire Courage): low .. high."""
    low, high = int(row["low"]), int(row["high"])
    if row["per_level"]:
        high *= level
        if spell_range != "level_top":
            low *= level
    if high <= low:
        return max(0, low)
    return low + dice.d(high - low + 1, f"{row['name']} reach") - 1
