"""What the dead leave behind (Victory!): a unit's items shared out over its men, what its
dead carried, and the spoils the winners find.

Reading (docs/atlantis.md): a unit's items are spread over its men as evenly as whole
items allow, the men listed first taking the odd ones, so with 5 swords and 10 men the
first five hold one each (chain armour goes on after plate, crossbows after longbows);
a dead man's share is what his unit loses. The losers' dead
leave theirs on the field, where each single item (each silver piece too) is found with
the book's 50% chance and picked up by one surviving man of the winning side chosen at
random, so units gather spoils in proportion to their survivors. Winners (and both sides
of a draw) carry off their own dead men's things: a unit with survivors keeps them; a
unit wiped out loses them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence

from engine.dice import Dice

# Equipment of a kind is handed out so that no man holds two kinds while another holds
# none: plate first, then chain on the next men; longbows first, then crossbows (when the
# unit can shoot its longbows). Every other item starts at the first man.
_AFTER = {"chain armor": ("plate armor", None), "crossbow": ("longbow", "longbow")}


def offsets(items: Mapping[str, int], levels: Mapping[str, int]) -> dict[str, int]:
    """The man each item's sharing starts at (see `_AFTER`)."""
    out = {}
    for item, (before, skill) in _AFTER.items():
        if skill is None or levels.get(skill, 0) >= 1:
            out[item] = max(0, items.get(before, 0))
    return out


def share(count: int, men: int, man: int, offset: int = 0) -> int:
    """How many of a unit's `count` items man number `man` (0 = first) holds, the sharing
    starting at man `offset` and going round."""
    if men <= 0:
        return 0
    return count // men + (1 if (man - offset) % men < count % men else 0)


def holding(items: Mapping[str, int], men: int, man: int,
            levels: Mapping[str, int] | None = None) -> dict[str, int]:
    """Man `man`'s share of every item of his unit (`levels`: the unit's skill levels)."""
    start = offsets(items, levels or {})
    out = {}
    for item, count in items.items():
        n = share(count, men, man, start.get(item, 0))
        if n > 0:
            out[item] = n
    return out


def carried_by(items: Mapping[str, int], men: int, dead: Iterable[int],
               levels: Mapping[str, int] | None = None) -> dict[str, int]:
    """What the men numbered in `dead` held between them."""
    dead = list(dead)
    start = offsets(items, levels or {})
    out: dict[str, int] = {}
    for item, count in items.items():
        n = sum(share(count, men, m, start.get(item, 0)) for m in dead)
        if n > 0:
            out[item] = n
    return out


PILE, BITS = 8, 30   # above PILE items of a kind, the fair 50% chances are rolled 30 at a time


def _found_of(count: int, item: str, dice: Dice, percent: int) -> int:
    """How many of `count` items are found, each with a `percent` chance. A pile of more
    than PILE at the book's 50% is rolled as fair coins, BITS at a time (one die of 2^BITS
    faces is BITS independent coins; the same odds, 30 times fewer dice: a loser's 100,000
    silver pieces)."""
    if percent == 50 and count > PILE:
        n, left = 0, count
        while left > 0:
            k = min(BITS, left)
            n += (dice.d(1 << k, f"{item} found") - 1).bit_count()
            left -= k
        return n
    return sum(1 for _ in range(count) if dice.d(100, f"{item} found") <= percent)


def found(left: Sequence[tuple[int, Mapping[str, int]]], dice: Dice,
          percent: int = 50) -> dict[str, int]:
    """Of what the losers' dead left ((unit, items) in battle order), what the winners
    find: each single item with a `percent` chance."""
    out: dict[str, int] = {}
    for _unit, items in left:
        for item in sorted(items):
            n = _found_of(items[item], item, dice, percent)
            if n:
                out[item] = out.get(item, 0) + n
    return out


def hand_out(spoils: Mapping[str, int], survivors: Sequence[tuple[int, int]],
             dice: Dice) -> dict[int, dict[str, int]]:
    """Each found item to one surviving man chosen at random: `survivors` is (unit, men
    alive) of the winning side in battle order; returns unit -> items picked up."""
    units = [u for u, n in survivors if n > 0]
    cumulative: list[int] = []
    total = 0
    for _u, n in survivors:
        if n > 0:
            total += n
            cumulative.append(total)
    out: dict[int, dict[str, int]] = {}
    if total <= 0:
        return out
    if len(units) == 1:   # one unit survives: it picks up everything, no die needed
        return {units[0]: {k: v for k, v in spoils.items() if v > 0}}
    for item in sorted(spoils):
        for _ in range(spoils[item]):
            man = (dice.d(total, f"{item} picked up") if total > 1 else 1) - 1
            unit = units[bisect_right(cumulative, man)]
            got = out.setdefault(unit, {})
            got[item] = got.get(item, 0) + 1
    return out
