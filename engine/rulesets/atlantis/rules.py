"""Pure rule functions of the book that need no turn: carrying and movement mode, entering
costs, combat readiness, the skill contest odds. The checker uses them now; the turn's
phases will use the same functions (they are not adjudication by themselves).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

WALK_POINTS, RIDE_POINTS, SHIP_POINTS = 2, 4, 4


@dataclass(frozen=True)
class Load:
    """What a unit weighs and can carry (Movement: people weigh 10 and carry 5; horses
    weigh 50 and carry 20; the item table for the rest)."""

    people: int          # weight of the men
    goods: int           # weight of everything else but horses (and men)
    horses: int          # weight of the horses
    walk_capacity: int   # what men and horses carry
    ride_capacity: int   # what the horses carry

    @property
    def total(self) -> int:
        return self.people + self.goods + self.horses

    @property
    def can_ride(self) -> bool:
        """Horses carry the people and all other items (the book's test; at least one horse)."""
        return self.ride_capacity > 0 and self.ride_capacity >= self.people + self.goods

    @property
    def can_walk(self) -> bool:
        return self.walk_capacity >= self.goods

    @property
    def points(self) -> int:
        """Movement points a month: 4 riding, 2 walking, 0 too heavy to move."""
        return RIDE_POINTS if self.can_ride else WALK_POINTS if self.can_walk else 0


def load(men: int, items: Mapping[str, int], catalog: Mapping[str, Mapping]) -> Load:
    """The load of a unit of `men` carrying `items` ({item: count}); `catalog` is the items
    catalog by name (weight, capacity, kind)."""
    man = catalog["man"]
    people = men * man["weight"]
    goods = horses = 0
    walk = men * man["capacity"]
    ride = 0
    for name, count in items.items():
        row = catalog.get(name)
        if row is None or count <= 0:
            continue
        if row["kind"] == "mount":
            horses += count * row["weight"]
            ride += count * row["capacity"]
            walk += count * row["capacity"]
        else:
            goods += count * row["weight"]
    return Load(people, goods, horses, walk, ride)


def entry_cost(terrain: Mapping) -> int | None:
    """Movement points to walk into a region (plain 1, others 2); None for ocean."""
    return None if terrain["ocean"] or terrain["move_cost"] <= 0 else int(terrain["move_cost"])


def combat_ready(levels: Mapping[str, int], items: Mapping[str, int]) -> bool:
    """May TAX, PILLAGE and GUARD: Combat 1, or Longbow/Crossbow 1 with that bow (a sword
    alone is not enough)."""
    return (levels.get("combat", 0) >= 1
            or levels.get("longbow", 0) >= 1 and items.get("longbow", 0) > 0
            or levels.get("crossbow", 0) >= 1 and items.get("crossbow", 0) > 0)


def hit_chance(attack: int, defence: int) -> Fraction:
    """Chance that a lethal opportunity succeeds: equal skills 1:1, each level more doubles
    the odds (2:1, 4:1, 8:1 ...), each level less halves them (1:2 ...)."""
    d = attack - defence
    odds = Fraction(2) ** d
    return odds / (odds + 1)
