"""Convoy statistics from the catalogs: capacities, fuel rate, size, combat strength, speed.

The book's [CONVOY STATISTICS], [OPTIONAL WEAPONS], [CONVOY EXPERTS] and movement charts as
pure functions of a convoy's vehicles (`fleet`: vehicle id -> count) and experts (codes).
Fractions are dropped, as the book's sample convoy shows (172.5 troops -> 172). Training and
health modifiers are applied when fuel or food is spent, not here (checklist X22).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from engine.rulesets.cc.catalog import Book

Fleet = Mapping[str, int]
_DICE = re.compile(r"^(\d+)d(\d+)(?:\+(\d+))?$")


def expert_pct(book: Book, code: str, experts: Collection[str]) -> int:
    """The expert's bonus in percent if present (doubled by a Priest where the book says so)."""
    if code not in experts or code not in book.experts:
        return 0
    e = book.experts[code]
    return e["bonus_pct"] * (2 if e["priest_doubles"] and "PRI" in experts else 1)


def more_morale(gain: int, pct: int) -> int:
    """X251 (house, `gourmet_morale`): a morale gain raised by a Gourmet's share (`pct`,
    expert_pct's 15 or 30 with a Priest), rounded up so a Gourmet always adds something."""
    return gain + (gain * pct + 99) // 100 if gain > 0 and pct > 0 else gain


def _sum(book: Book, fleet: Fleet, column: str) -> int:
    return sum(book.vehicles[v][column] * n for v, n in fleet.items())


def troop_capacity(book: Book, fleet: Fleet, experts: Collection[str] = ()) -> int:
    return _sum(book, fleet, "troops") * (100 + expert_pct(book, "POL", experts)) // 100


def cargo_capacity(book: Book, fleet: Fleet, experts: Collection[str] = (), empty_mode: bool = False) -> int:
    pct = 100 + expert_pct(book, "MER", experts)
    cap = _sum(book, fleet, "cargo") * pct // 100
    return cap * 125 // 100 if empty_mode else cap


def fuel_rate(book: Book, fleet: Fleet, experts: Collection[str] = ()) -> int:
    """Fuel to move once on x1 terrain (the orders sheet's "Fuel Cost")."""
    return _sum(book, fleet, "fuel") * (100 - expert_pct(book, "CHE", experts)) // 100


def size(book: Book, fleet: Fleet) -> int:
    return _sum(book, fleet, "size")


def size_category(book: Book, total: int) -> str:
    """Tiny, Small... Monstrous (the spotting report's [size])."""
    for s in book.sizes:
        if s["size_min"] <= total and (not s["size_max"] or total <= s["size_max"]):
            return s["id"]
    return book.sizes[0]["id"] if book.sizes else ""


def max_damage(dice: str) -> int:
    """Highest roll of a damage expression such as 8d6+4 (0 if it is not one)."""
    m = _DICE.match(dice.strip().lower())
    return int(m[1]) * int(m[2]) + int(m[3] or 0) if m else 0


def rocket_capacity(book: Book, fleet: Fleet) -> int:
    return sum(book.classes[book.vehicles[v]["class"]]["rockets"] * n for v, n in fleet.items())


def bomb_capacity(book: Book, fleet: Fleet) -> int:
    return sum(book.classes[book.vehicles[v]["class"]]["bombs_air"] * n for v, n in fleet.items()
               if book.vehicles[v]["convoy_type"] == "air")


def rifle_capacity(troop_cap: int) -> int:
    return troop_cap // 25


def grenade_capacity(troop_cap: int) -> int:
    return troop_cap // 10


def combat_strength(book: Book, fleet: Fleet, troops: int, rockets: int = 0,
                    experts: Collection[str] = ()) -> int:
    """Most damage the convoy can do in a round: vehicles' best rolls, 1 a troop, 20 a rocket,
    then +10% for a Gunner and +10% for a Pilot."""
    base = sum(max_damage(book.vehicles[v]["damage"]) * n for v, n in fleet.items()) + troops + 20 * rockets
    pct = 100 + expert_pct(book, "GUN", experts) + expert_pct(book, "PIL", experts)
    return round(base * pct / 100)


def all_scouts(book: Book, fleet: Fleet) -> bool:
    return bool(fleet) and all(book.vehicles[v]["class"] == "fast_scout" for v, n in fleet.items() if n)


def moves_per_turn(book: Book, convoy_type: str, fleet: Fleet, experts: Collection[str] = (),
                   airport_start: bool = False) -> int:
    """Hexes a turn (air: range), with the all-scout, Engineer, Pilot and Airport bonuses."""
    t = book.convoy_types[convoy_type]
    moves = t["moves"] + (t["all_scout_bonus"] if all_scouts(book, fleet) else 0)
    moves += t["engineer_bonus"] if "ENG" in experts else 0
    moves += t["pilot_bonus"] if "PIL" in experts else 0
    return moves + (t["airport_bonus"] if airport_start else 0)


def pulses(book: Book, convoy_type: str, experts: Collection[str] = ()) -> int:
    t = book.convoy_types[convoy_type]
    return t["engineer_pulses"] if "ENG" in experts else t["pulses"]
