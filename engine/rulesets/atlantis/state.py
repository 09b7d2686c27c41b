"""Atlantis Conquest state: flat typed tables designed for the whole book.

Every table is a list of small records of ints, strings and booleans, one row per thing
(no nested lists), so a 10,000-unit, 1,000-faction game is a few tables of plain rows the
database stores column by column. Relations are by number: a unit's items are rows of
`unit_items` keyed by unit number, its skills rows of `unit_skills`.

Readings this schema fixes (docs/atlantis.md):
- skill training is kept as total study *days* of the whole unit (30 a man-month), so
  merging units averages exactly and splitting divides without losing any (the book's
  "no rounding off"); the level is computed from days per man (catalog.level_of);
- people are `Unit.men`, not rows of `unit_items` (the catalog's item "man" is what BUY
  and GIVE name; everything else a unit carries is a `unit_items` row);
- regions hold only land: oceans have no economy, their names come from the map;
- `seq` orders units within a region as the report lists them (who arrived first), which
  decides building protection and the order units act in within a phase.
"""

from __future__ import annotations

from dataclasses import dataclass

ATTITUDES = ("hostile", "unfriendly", "neutral", "friendly", "ally")


@dataclass
class World:
    month: int = 0            # turns run so far; the report shows month and year from it
    next_unit: int = 1        # unit numbers are game-wide and never reused
    next_object: int = 1      # structures (buildings and ships) share one numbering
    next_faction: int = 1


@dataclass
class Faction:
    number: int
    name: str = ""
    email: str = ""
    password: str = ""        # the current one; PASSWORD orders change it when the turn runs
    default_attitude: str = "neutral"
    unclaimed: int = 0        # faction-wide silver, safe from battle; taken with CLAIM
    times: bool = True        # OPTION TIMES / NOTIMES
    template: str = "long"    # OPTION TEMPLATE off | short | long
    kind: str = ""            # "" | war | trade (only with the faction_types option)
    quit: bool = False        # QUIT or RESTART given: gone after this turn
    eliminated: int = 0       # the month it lost its last unit (0 = still in)
    joined: int = 0           # the month it joined


@dataclass
class Attitude:
    faction: int              # who declares
    other: int                # towards whom
    attitude: str = "neutral"


@dataclass
class Region:
    cell: int                 # map cell; (x,y) and the area name come from the map
    terrain: str = "plain"
    peasants: int = 0
    silver: int = 0           # taxable silver this month
    wages: int = 0
    entertainment: int = 0
    recruits: int = 0         # men for sale this month
    recruit_price: int = 0
    pillaged: int = 0         # months of recovery left after a PILLAGE


@dataclass
class Product:
    cell: int
    item: str
    amount: int = 0           # producible per month


@dataclass
class Unit:
    number: int
    faction: int
    cell: int
    name: str = ""
    description: str = ""
    men: int = 0
    structure: int = 0        # building or ship it is in (0 = none)
    seq: int = 0              # place in the region's list (lower = listed first / arrived first)
    guard: bool = False
    avoid: bool = False
    behind: bool = False
    hold: bool = False
    noaid: bool = False
    autotax: bool = False
    reveal: str = ""          # "" | unit | faction
    consume: str = ""         # "" | unit | faction
    combat_spell: str = ""
    given_from: int = 0       # faction that gave it away this month (GIVE n UNIT limits)
    formed: int = 0           # the month it was formed


@dataclass
class UnitSkill:
    unit: int
    skill: str
    days: int = 0             # total study days of the whole unit (30 a man-month)


@dataclass
class UnitItem:
    unit: int
    item: str
    count: int = 0


@dataclass
class Structure:
    number: int
    kind: str                 # objects catalog name: tower, fort... longboat...
    cell: int
    name: str = ""
    description: str = ""
    work: int = 0             # work done so far; finished when work >= the object's cost


@dataclass
class KnownSkill:
    faction: int
    skill: str
    level: int = 0            # highest level whose skill report the faction has had


@dataclass
class RepeatOrder:
    unit: int
    seq: int
    text: str                 # an `@` order, shown again in next month's template


SCHEMA: dict[str, type] = {
    "world": World,
    "factions": Faction,
    "attitudes": Attitude,
    "regions": Region,
    "products": Product,
    "units": Unit,
    "unit_skills": UnitSkill,
    "unit_items": UnitItem,
    "structures": Structure,
    "known_skills": KnownSkill,
    "repeat_orders": RepeatOrder,
}
