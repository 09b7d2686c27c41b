"""[BOMB]: an air convoy drops every bomb it carries on the city in its hex.

Each bomb, in turn (X179 gives the order of its dice):
1. its target: the order's letter (B buildings, P population, T troops, S Scourge), or with
   no letter one of B, P and T at random (never the Scourge);
2. a Battery's flak: 50% of bombs do nothing at all (`battery_pct`);
3. the hit: the fortification's `bomb_hit` (100% Outposts and Stations, 10% less a level
   above); a certain hit rolls nothing.
A building bomb that hits destroys a random building, never a Battery (X181); a population
bomb kills 8,000-16,000 on a hit and 4,000-8,000 on a miss, halved with a Shelter (X180),
nothing once the city is under 5,000 people (X53) and never below `min_population`; a troops
bomb kills 10-30 of the garrison on a hit, 5-10 on a miss (X178: the garrison, not guarding
convoys); a Scourge bomb kills nobody, and one hit is enough for the turn to infect the city
(turn/plague.py `scourge`: a Hospital stops it half the time, X183).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.rules import CombatRules, hits, roll_range

TARGETS = ("B", "P", "T")           # what a bomb with no target letter picks from
TARGET_WORDS = {"B": "buildings", "P": "population", "T": "troops", "S": "Scourge"}


@dataclass
class BombTarget:
    """The city under the bombs."""

    cell: int
    owner: int
    fortification: int
    population: int
    troops: int
    buildings: tuple[str, ...] = ()     # building codes
    plague: bool = False


@dataclass
class BombingResult:
    drops: list[tuple[str, str, int, str]]   # per bomb: (target, flak|hit|miss, killed, building)
    population: int                  # the city afterwards
    troops: int
    buildings: tuple[str, ...]       # the buildings left
    destroyed: tuple[str, ...]       # the building codes destroyed, in order
    people_killed: int
    troops_killed: int
    scourge_hits: int
    events: list[Event] = field(default_factory=list)


def bomb_city(book: Book, convoy: int, owner: int, bombs: int, target: str, city: BombTarget,
              dice: Dice, rules: CombatRules | None = None, shelter: bool = False,
              battery: bool = False) -> BombingResult:
    """Drop `bombs` bombs aimed at `target` ("" = at random among B, P, T); the city is not
    changed (the result holds it afterwards)."""
    rules = rules or CombatRules()
    chance = int(book.fortifications[city.fortification]["bomb_hit"])
    population, troops = city.population, city.troops
    left = list(city.buildings)
    drops: list[tuple[str, str, int, str]] = []
    destroyed: list[str] = []
    for _ in range(max(0, bombs)):
        aim = target or TARGETS[dice.d(len(TARGETS), "bomb target") - 1]
        if battery and dice.chance(rules.battery_pct, "flak"):
            drops.append((aim, "flak", 0, ""))
            continue
        hit = hits(dice, min(100, chance), "bomb hit") > 0
        killed, gone = 0, ""
        if aim == "B" and hit:
            burnable = sorted(b for b in left if b != "BAT")
            if burnable:
                gone = burnable[0] if len(burnable) == 1 else dice.choice(burnable, "building bombed")
                left.remove(gone)
                destroyed.append(gone)
        elif aim == "P" and population >= rules.bomb_people_below:
            lo, hi = rules.bomb_people_hit if hit else rules.bomb_people_miss
            killed = roll_range(dice, lo, hi, "people bombed")
            killed = killed // 2 if shelter else killed
            killed = max(0, min(killed, population - rules.min_population))
            population -= killed
        elif aim == "T" and troops > 0:
            lo, hi = rules.bomb_troops_hit if hit else rules.bomb_troops_miss
            killed = min(troops, roll_range(dice, lo, hi, "troops bombed"))
            troops -= killed
        drops.append((aim, "hit" if hit else "miss", killed, gone))
    people = city.population - population
    dead = city.troops - troops
    scourge = sum(1 for aim, how, _, _ in drops if aim == "S" and how == "hit")
    tally = Counter(how for _, how, _, _ in drops)
    events: list[Event] = [ev.CityBombed(
        cell=city.cell, convoy=convoy, attacker=owner, defender=city.owner, aim=target,
        bombs=len(drops), hits=tally["hit"], misses=tally["miss"], flak=tally["flak"],
        people_killed=people, troops_killed=dead,
        buildings=tuple(book_name(book, c) for c in destroyed), scourge_hits=scourge)]
    return BombingResult(drops, population, troops, tuple(left), tuple(destroyed), people, dead,
                         scourge, events)


def book_name(book: Book, code: str) -> str:
    row = book.buildings.get(code)
    return row["name"] if row else code
