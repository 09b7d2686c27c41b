"""[RAZE]: a clan burns its own city with every convoy it has there.

The dice in order (X184-X187):
1. the people: one roll of 100-1,000 for each point of the convoys' total size and for each
   whole 10 troops of the convoys and the garrison together; never below `min_population`
   (X99), so the city stands (cities are never destroyed);
2. the buildings: each vehicle, convoy by convoy in number order, burns a random building
   left - a large assault vehicle surely, a large troop carrier at 50%, a medium vehicle at
   25% (vehicle_classes.csv `raze_building_pct`); a Battery burns like any other (only
   bombs spare it);
3. the troops: each troop of the convoys, then of the garrison, dies at 10%; the garrison's
   survivors go back to the clan's unallocated troops;
4. morale: one 2-8 roll a convoy, added to its morale and taken from its training;
5. the claymores: each is saved to the clan's stock at 50%, otherwise lost.
Then the fortification falls a level (not below an Outpost) and the city goes uncontrolled,
held by as many troops as its new level holds (a Barracks still standing counts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.bombing import book_name
from engine.rulesets.cc.combat.rules import CombatRules, roll_range


@dataclass
class Razer:
    """One of the clan's convoys in the city: its vehicles' classes (one entry a vehicle)."""

    id: int
    classes: list[str]
    size: int
    troops: int
    morale: int = 30
    training: int = 30


@dataclass
class RazedCity:
    cell: int
    owner: int
    fortification: int
    population: int
    troops: int
    claymores: int = 0
    buildings: tuple[str, ...] = ()


@dataclass
class RazeResult:
    population: int
    people_killed: int
    buildings: tuple[str, ...]           # left standing
    burnt: tuple[str, ...]               # codes, in the order they burnt
    convoys: dict[int, tuple[int, int, int]]   # id -> (troops, morale, training) afterwards
    troops_killed: int
    troops_returned: int
    claymores_saved: int
    fortification: int
    garrison: int
    events: list[Event] = field(default_factory=list)


def _chance(dice: Dice, pct: int, why: str) -> bool:
    """Rolled only when it could go either way (a scripted case needs no roll for a certainty)."""
    return pct >= 100 or (pct > 0 and dice.chance(pct, why))


def raze_city(book: Book, convoy: int, clan: int, convoys: list[Razer], city: RazedCity,
              dice: Dice, rules: CombatRules | None = None, spy: bool = False) -> RazeResult:
    """Burn the city; nothing given is changed. `convoy` gave the order, `convoys` are all
    the clan's convoys there in number order, `spy` whether the clan's spy hid there."""
    rules = rules or CombatRules()
    units = sum(c.size for c in convoys)
    units += (sum(c.troops for c in convoys) + city.troops) // rules.raze_troops_per
    rolled = sum(roll_range(dice, *rules.raze_people, "people razed") for _ in range(units))
    killed = max(0, min(rolled, city.population - rules.min_population))
    left = list(city.buildings)
    burnt: list[str] = []
    for c in convoys:
        for vclass in c.classes:
            if not left:
                break
            if _chance(dice, int(book.classes[vclass]["raze_building_pct"]), "building razed"):
                pick = sorted(left)
                gone = pick[0] if len(pick) == 1 else dice.choice(pick, "building burnt")
                left.remove(gone)
                burnt.append(gone)
    dead = 0
    troops = {}
    for c in convoys:
        lost = sum(1 for _ in range(c.troops) if dice.chance(rules.raze_troop_death_pct, "troop razed"))
        troops[c.id] = c.troops - lost
        dead += lost
    garrison_lost = sum(1 for _ in range(city.troops)
                        if dice.chance(rules.raze_troop_death_pct, "garrison razed"))
    dead += garrison_lost
    after, gains = {}, []
    for c in convoys:
        gain = roll_range(dice, *rules.raze_morale, "razing morale")
        gains.append(gain)
        after[c.id] = (troops[c.id], c.morale + gain, max(0, c.training - gain))
    saved = sum(1 for _ in range(city.claymores) if dice.chance(rules.raze_claymore_pct, "claymore saved"))
    level = max(1, city.fortification - 1)
    row = book.fortifications[level]
    garrison = int(row["capacity_barracks" if "BAR" in left else "capacity"])
    event = ev.CityRazed(
        cell=city.cell, convoy=convoy, attacker=clan, defender=0,
        convoys=tuple(c.id for c in convoys), people_killed=killed,
        buildings=tuple(book_name(book, b) for b in burnt), troops_killed=dead,
        troops_returned=city.troops - garrison_lost, claymores_saved=saved,
        claymores_lost=city.claymores - saved, fortification=level, garrison=garrison,
        spy_lost=spy, morale=tuple(gains))
    return RazeResult(city.population - killed, killed, tuple(left), tuple(burnt), after, dead,
                      city.troops - garrison_lost, saved, level, garrison, [event])
