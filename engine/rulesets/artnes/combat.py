"""Land and sea combat: odds columns, column shifts, the d6 table and casualties."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from engine.dice import Dice
from engine.tables import Catalog, Options


def pick(dice: Dice, items: list, why: str):
    """A random item; no die is rolled when every item is the same (scripts stay short)."""
    if all(x == items[0] for x in items):
        return items[0]
    return dice.choice(items, why)


@dataclass(frozen=True)
class OddsColumn:
    label: str
    ratio: Fraction
    results: str   # six letters, die faces 1..6


def _label(r: Fraction) -> str:
    return f"{r.numerator}:{r.denominator}"


def ladder(crt: Catalog, reading: str = "book") -> list[OddsColumn]:
    """The table's columns from weakest to strongest under a reading of the printed order.

    book:    printed order; a column whose odds do not rise over its left neighbour (the
             printed 5:3 after 2:1) sits halfway between its neighbours (5:2).
    numeric: the headers sorted by value over the printed result columns (the headers of
             2:1 and 5:3 were transposed in print).
    swapped: each printed column keeps its header and results, sorted by odds value.
    """
    cols = [OddsColumn(r["column"], Fraction(r["attack"], r["defence"]),
                       "".join(r[f"r{i}"] for i in range(1, 7))) for r in crt]
    if reading == "numeric":
        ratios = sorted(c.ratio for c in cols)
        return [OddsColumn(_label(q), q, c.results) for q, c in zip(ratios, cols, strict=True)]
    if reading == "swapped":
        return sorted(cols, key=lambda c: c.ratio)
    out = list(cols)
    for i in range(1, len(out)):
        if out[i].ratio <= out[i - 1].ratio:
            hi = out[i + 1].ratio if i + 1 < len(out) else out[i - 1].ratio + 1
            mid = (out[i - 1].ratio + hi) / 2
            out[i] = OddsColumn(_label(mid), mid, out[i].results)
    return out


@dataclass(frozen=True)
class Odds:
    attack: int
    defence: int
    base: str        # column before shifts ('' when off the table to the left)
    shift: int
    column: str      # column fought on ('' = automatic result)
    index: int       # index of `column` in the ladder, -1 for an automatic result
    automatic: str   # '' or the result given without a roll


def odds(attack: int, defence: int, shift: int, cols: list[OddsColumn], opts: Options) -> Odds:
    """Round attack:defence down to a column, then move `shift` columns left."""
    top = len(cols) - 1
    if defence <= 0:
        base = top + (3 if opts.above_highest == "extra" else 0)
    else:
        r = Fraction(attack, defence)
        hits = [i for i, c in enumerate(cols) if c.ratio <= r]
        if not hits:
            if opts.below_lowest == "A":
                return Odds(attack, defence, "", shift, "", -1, "A")
            base = 0
        else:
            base = hits[-1]
            if base == top and opts.above_highest == "extra":
                base += max(0, math.floor(r) - math.floor(cols[top].ratio))
    index = max(0, min(top, base - shift))
    return Odds(attack, defence, cols[min(base, top)].label, shift, cols[index].label, index, "")


def result(cols: list[OddsColumn], o: Odds, die: int) -> str:
    return o.automatic or cols[o.index].results[die - 1]


def shift_for(terrain: int, castle: bool, opts: Options) -> int:
    """Columns to the left: the terrain number, raised by 1 for a castle (to at most 2)."""
    if castle and opts.castle_shift == "extra":
        return terrain + 1
    return min(2, terrain + 1) if castle else terrain


def losses(units: int, share: float, rounding: str) -> int:
    """How many of `units` are lost for a share of losses."""
    if units <= 0 or share <= 0:
        return 0
    x = units * share
    n = math.ceil(x - 1e-9) if rounding == "up" else math.floor(x + 1e-9) if rounding == "down" \
        else math.floor(x + 0.5)
    return max(0, min(units, n))


def casualty_counts(res: str, attackers: int, defenders: int, opts: Options) -> tuple[int, int]:
    """Units each side loses on result `res`: the result's share of its fighting units.

    Result C is a standoff with equal losses: with `standoff_losses = equal` both sides
    lose the same number of units, the smaller of their two shares (so 8 against 2 at a
    quarter each loses 1 and 1, not 2 and 1)."""
    a = losses(attackers, getattr(opts, f"loss_{res}_attacker"), opts.loss_rounding)
    d = losses(defenders, getattr(opts, f"loss_{res}_defender"), opts.loss_rounding)
    if res == "C" and opts.standoff_losses == "equal":
        a = d = min(a, d)
    return a, d


def pick_casualties(stacks: dict[str, int], n: int, how: str, dice: Dice, why: str) -> dict[str, int]:
    """Remove `n` units from {kind: count}; returns {kind: lost}."""
    lost: dict[str, int] = {}
    pool = dict(stacks)
    for _ in range(min(n, sum(pool.values()))):
        if how == "cheapest":
            kind = "spearman" if pool.get("spearman") else next(k for k in sorted(pool) if pool[k])
        else:
            kind = pick(dice, [k for k in sorted(pool) for _ in range(pool[k])], why)
        pool[kind] -= 1
        lost[kind] = lost.get(kind, 0) + 1
    return lost


def sea_battle(fleets: dict[int, int], hostile, how: str, dice: Dice, why: str) -> dict[int, int]:
    """Remove galleys at random until no two nations at war share the sea.

    fleets: {nation: galleys}; hostile(a, b) -> bool. Returns {nation: lost}.
    """
    fleets = {n: c for n, c in sorted(fleets.items()) if c > 0}
    lost = {n: 0 for n in fleets}

    def fighting() -> list[int]:
        return [n for n in fleets if fleets[n] and any(fleets[m] and hostile(n, m) for m in fleets if m != n)]

    while (sides := fighting()):
        if how == "side":
            victim = pick(dice, sides, why)
        else:
            victim = pick(dice, [n for n in sides for _ in range(fleets[n])], why)
        fleets[victim] -= 1
        lost[victim] += 1
    return lost
