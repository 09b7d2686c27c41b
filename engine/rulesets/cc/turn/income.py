"""[INCOME PHASE]: everything the clan owns produces at the start of its turn, usable at once.

Owned hexes pay their value and resources (rolled once at setup, option `hex_production` =
fixed, X15), their special structure's rolled output and their custom structure's fixed
output; owned cities of 10,000 people or more pay their value, +50% when another owned
city (of 10,000 or more) produces what they need (or they need "anything"), a Marketplace's
$2,000-3,000 (X60) and an Armory's rifles and grenades. What was lost between turns is no
longer owned, so it pays nothing; what is taken during the turn pays from the next.

`production` serves both the phase (with dice) and the report's income estimate (with the
middle of each range), so the estimate is the same sum the next turn will make.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.state import State

Roll = Callable[[int, int, str], int]
ITEMS = ("money", "food", "fuel", "parts", "vaccine", "troops", "rifles", "grenades")


def middle(lo: int, hi: int, _why: str = "") -> int:
    """The estimate's roll: the middle of the range, rounded down."""
    return (lo + hi) // 2


def production(state: State, catalogs: dict[str, Any], options: Any, clan: int,
               roll: Roll = middle) -> dict[str, int]:
    """What clan `clan` owns produces now: ITEMS plus counts hexes, cities, bonuses."""
    special = catalogs["special_structures"].by("code")
    custom = catalogs["custom_structures"].by("id")
    out = dict.fromkeys(ITEMS, 0) | {"hexes": 0, "cities": 0, "bonuses": 0}
    for h in state["hexes"]:
        if h.owner != clan:
            continue
        out["hexes"] += 1
        out["money"] += h.value
        for item in ("food", "fuel", "parts", "vaccine"):
            out[item] += getattr(h, item)
        s = special.get(h.special) if h.special else None
        if s is not None:
            for item in ITEMS:
                lo, hi = s.get(f"{item}_min", 0), s.get(f"{item}_max", 0)
                if hi:
                    out[item] += roll(lo, hi, f"{h.special} {item} at {h.cell}")
        c = custom.get(h.custom) if h.custom else None
        if c is not None:
            for item in ("food", "fuel", "parts", "vaccine", "troops"):
                out[item] += int(c[item])
    floor = int(options.no_production_below)
    mine = [c for c in state["cities"] if c.owner == clan]
    producing = [c for c in mine if c.population >= floor]
    made = {c.produces for c in producing}
    buildings: dict[int, set[str]] = {}
    for b in state["buildings"]:
        buildings.setdefault(b.cell, set()).add(b.code)
    bonus_pct = int(options.income_bonus_pct)
    # cc-cycle: cities whose production a spy wrecked for this turn of the clan (SABOTAGE)
    turn = next((x.turns_run + 1 for x in state["clans"] if x.number == clan), 0)
    wrecked = {m.cell for m in state["turn_marks"]
               if m.clan == clan and m.game_turn == turn and m.kind == "sabotage income"}
    for c in mine:
        out["cities"] += 1
        if c.population < floor or c.cell in wrecked:
            continue  # [POPULATION]: below 10,000 a city produces nothing at all
        # cc-cycle: an afflicted city's production falls (X68)
        value = c.value * (100 - int(options.plague_income_loss_pct)) // 100 if c.plague else c.value
        out["money"] += value
        if c.needs == "anything" or (c.needs in made and any(
                x.produces == c.needs and x.cell != c.cell for x in producing)):
            out["money"] += value * bonus_pct // 100
            out["bonuses"] += 1
        here = buildings.get(c.cell, set())
        if "MAR" in here:
            out["money"] += roll(2000, 3000, f"marketplace at {c.cell}")
        if "ARM" in here:
            out["rifles"] += roll(1, 2, f"armory rifles at {c.cell}")
            out["grenades"] += roll(1, 3, f"armory grenades at {c.cell}")
    return out


def city_value(catalogs: dict[str, Any], city: Any, population: int) -> int:
    """[POPULATION] (X61, X243): the city's dollar value once its people number `population`.
    Inside the normal band (25,000-50,000; majors 100,000-200,000) people do not change it;
    below the band's floor it falls, above its ceiling it rises, in proportion to the people
    beyond the edge. Path-independent: growing and shrinking back restores the value."""
    band = catalogs["population"].by("id")["major" if city.major else "minor"]
    lo, hi = int(band["normal_min"]), int(band["normal_max"])

    def weight(p: int) -> float:
        return p / lo if p < lo else p / hi if p > hi else 1.0

    if city.population <= 0 or population <= 0:
        return city.value
    return round(city.value * weight(population) / weight(city.population))


def income_phase(t: ClanTurn) -> None:
    got = production(t.ctx.state, t.ctx.catalogs, t.opts, t.number, t.roll)
    for item in ITEMS:
        t.put(item, got[item])
    t.emit(ev.Income(t.number, got["money"], got["food"], got["fuel"], got["parts"],
                     got["vaccine"], got["troops"], got["rifles"], got["grenades"],
                     got["hexes"], got["cities"], got["bonuses"]))
