"""Pure rule functions of the book that need no turn: carrying and movement mode, entering
costs, combat readiness, the skill contest odds. The checker uses them now; the turn's
phases will use the same functions (they are not adjudication by themselves).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


def ship_may_sail(from_ocean: bool, to_ocean: bool) -> bool:
    """Ships go ocean to ocean, coast to ocean or ocean to coast: one end at least is ocean
    (a ship is only ever in an ocean or a coastal region, and land next to ocean is coast)."""
    return from_ocean or to_ocean


def entry_cost(terrain: Mapping) -> int | None:
    """Movement points to walk into a region (plain 1, others 2); None for ocean."""
    return None if terrain["ocean"] or terrain["move_cost"] <= 0 else int(terrain["move_cost"])


# ---- seeing, catching, denying entry (Combat: Attacking; shared with the combat muster) -----

MAX_RIDING = 3


def attack_riding(riding: int, mounts: int) -> int:
    """Effective Riding to catch someone: the Riding level (at most 3) when at least one man
    can ride, i.e. the unit has a horse; else 0."""
    return min(max(riding, 0), MAX_RIDING) if mounts > 0 else 0


def defence_riding(riding: int, men: int, mounts: int, can_ride: bool, inside: bool) -> int:
    """Effective Riding to ride away: the whole unit must ride (a horse a man, and the horses
    carry the load); nobody rides away from inside a building or ship."""
    if inside or men <= 0 or mounts < men or not can_ride:
        return 0
    return min(max(riding, 0), MAX_RIDING)


def catches(attacker_riding: int, target_riding: int) -> bool:
    """A unit catches another when its effective Riding is at least the target's."""
    return attacker_riding >= target_riding


HOSTILITY = {"hostile": 0, "unfriendly": 1, "neutral": 2, "friendly": 3, "ally": 4}


def attitude_seen(declared: str, default: str, identified: bool) -> str:
    """How a faction treats a unit it sees: its declared attitude to the unit's faction when
    it can name the faction; otherwise its default, unless it declared that faction Friendly
    or Ally (the unit shows proof of identity)."""
    if identified or HOSTILITY.get(declared, 2) >= HOSTILITY["friendly"]:
        return declared
    return default


def denies_entry(attitude: str, sees: bool, attack: int, target: int) -> bool:
    """A guard keeps a unit out when it is Unfriendly (or Hostile) towards it, sees it and
    can catch it."""
    return sees and HOSTILITY.get(attitude, 2) <= HOSTILITY["unfriendly"] and catches(attack, target)


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


# ---- skills (days: 30 a man-month, the whole unit's total; catalog.level_of) ----------------

DAYS = 30


def study_days(student_men: int, teacher_men: int | Fraction = 0) -> int:
    """Days each student gains in a month of STUDY: 30, up to twice that with teachers; a
    teacher teaches at most 10 students, more dilute (1 teacher, 20 students: 45 days).
    `teacher_men` may be a fraction: a teacher's share when it teaches several units."""
    if student_men <= 0:
        return 0
    bonus = min(DAYS, DAYS * 10 * max(0, teacher_men) // student_men)
    return DAYS + bonus


def split_days(days: int, men: int, leaving: int) -> tuple[int, int]:
    """(days kept, days going) when `leaving` of `men` leave a unit that has `days` in a
    skill: divided as evenly as whole days allow, none lost (the leavers' share rounded
    down, so the unit keeps the odd days)."""
    if men <= 0 or leaving <= 0:
        return days, 0
    going = days * min(leaving, men) // men
    return days - going, going


def teachers_share(teacher_men: int, student_men: int, all_students: int) -> Fraction:
    """The part of a teaching unit's men that teaches one of the units it teaches: its men
    are spread over all its students in proportion to their men."""
    if all_students <= 0:
        return Fraction(0)
    return Fraction(teacher_men * student_men, all_students)


def share(available: int, wants: list[int]) -> list[int]:
    """`available` split among claims `wants` in proportion to them, in whole units, none
    lost: each gets its floor share, the units left over go one each to the first claims
    with a remainder (report order: units higher on the report first). Claims that fit
    are met in full."""
    total = sum(max(0, w) for w in wants)
    if total <= available:
        return [max(0, w) for w in wants]
    if available <= 0:
        return [0] * len(wants)
    got = [max(0, w) * available // total for w in wants]
    left = available - sum(got)
    for i, w in enumerate(wants):
        if left <= 0:
            break
        if w > 0 and got[i] < w and w * available % total:
            got[i] += 1
            left -= 1
    return got


# ---- income and production -------------------------------------------------------------------

def production(men: int, level: int, item: Mapping, material_left: int | None = None) -> int:
    """Items a unit makes in a month: men x skill level (plate armor: skill 3 needed and at
    most one a man), no more than its material allows."""
    if men <= 0 or level < max(1, int(item["level"])):
        return 0
    out = men * (int(item["per_man_cap"]) if item["per_man_cap"] else level)
    if item["material"] and material_left is not None:
        out = min(out, material_left // max(1, int(item["material_qty"])))
    return out


def work_done(men: int, level: int) -> int:
    """Units of work on a building or ship in a month: men x Building/Shipbuilding level
    (each takes one unit of stone or wood)."""
    return max(0, men) * max(0, level)


def entertainment_wanted(men: int, level: int, per_level: int = 20) -> int:
    """Silver a unit could earn entertaining: 20 a man per level (limited by the region)."""
    return max(0, men) * max(0, level) * per_level


# ---- pillaging ------------------------------------------------------------------------------

def tax_silver(silver: int, pillaged: int, recovery: int) -> int:
    """A region's taxable silver this month: its figure `silver`, less the damage of a
    pillage `pillaged` months of recovery ago (nothing just after, then back by equal steps
    over `recovery` months)."""
    left = min(max(pillaged, 0), recovery)
    return silver * (recovery - left) // recovery if recovery > 0 else silver


def pillage_needs(available: int, per_man: int) -> int:
    """Combat-ready men a faction needs in a region to pillage it: enough to tax half the
    region's silver at `per_man` a man."""
    half = -(-available // 2)
    return -(-half // per_man) if per_man > 0 else 0


def game_over(factions: Iterable, victory: str = "last_faction") -> bool:
    """The book's closed-ended game (option `victory` = last_faction) is over when a game
    of two factions or more has at most one left in it (neither out of units nor QUIT)."""
    if victory != "last_faction":
        return False
    rows = list(factions)
    return len(rows) >= 2 and sum(1 for f in rows if not f.eliminated) <= 1
