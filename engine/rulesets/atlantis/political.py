"""The Atlantis political map: who holds each region, and the men standing there.

Atlantis has no owned provinces: a region is held, on the map, by the faction whose unit
guards it (the first guard in the region's list), else by the faction with the most men
there (ties: the faction whose unit is listed first). Troops are men, one stack per
faction and region. The console draws the GM's whole state; a player's viewer gets the
state pruned to what the faction sees (view.py), where other factions' units whose
faction the player cannot tell have faction 0 and are drawn as unknown (neutral grey).

Factions the scenario left in the default grey (every generated world) get a colour
from a fixed palette by number, so 6 or 1,000 factions are told apart on the map.
"""

from __future__ import annotations

import colorsys
from collections import defaultdict

from engine.palette import FACTION_COLOURS
from engine.political import NEUTRAL, PoliticalMap, Side, Stack
from engine.scenario import Scenario
from engine.state import State

DEFAULT_GREY = "#888888"
PALETTE = FACTION_COLOURS  # apart from the map's markers (engine/palette.py)
MEN = "men"


def faction_colour(number: int, colour: str = DEFAULT_GREY) -> str:
    """The scenario's colour, else one of twelve distinct colours, then golden-ratio hues."""
    if colour and colour.lower() != DEFAULT_GREY:
        return colour
    if 1 <= number <= len(PALETTE):
        return PALETTE[number - 1]
    h = (number * 0.618033988749895) % 1.0
    r, g, b = colorsys.hsv_to_rgb(h, 0.75, 0.85)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def holders(state: State) -> dict[int, int]:
    """Region cell -> the faction holding it (guard first, else most men); 0-faction units
    (unknown to a player) hold nothing."""
    men: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    first: dict[tuple[int, int], int] = {}
    guard: dict[int, tuple[int, int]] = {}
    for u in state["units"]:
        if u.men <= 0 or not u.faction:
            continue
        men[u.cell][u.faction] += u.men
        key = (u.cell, u.faction)
        first[key] = min(first.get(key, u.seq), u.seq)
        if u.guard and (u.cell not in guard or u.seq < guard[u.cell][0]):
            guard[u.cell] = (u.seq, u.faction)
    out: dict[int, int] = {}
    for cell, by_faction in men.items():
        if cell in guard:
            out[cell] = guard[cell][1]
        else:
            out[cell] = min(by_faction, key=lambda f: (-by_faction[f], first[(cell, f)]))
    return out


def political_map(state: State, scenario: Scenario) -> PoliticalMap:
    """The PoliticalMap of an Atlantis state (engine.political's `political_map` hook)."""
    totals: dict[tuple[int, int], int] = defaultdict(int)
    for u in state["units"]:
        if u.men > 0:
            totals[(u.cell, u.faction or 0)] += u.men
    pm = PoliticalMap(owners=holders(state),
                      stacks=[Stack(c, f, MEN, n) for (c, f), n in sorted(totals.items())],
                      kind_names={MEN: "men"})
    names = {f.number: f.name for f in state["factions"] if f.name}
    colours = {f.number: f.colour for f in scenario.factions}
    numbers = sorted({f.number for f in scenario.factions} | {f.number for f in state["factions"]})
    for n in numbers:
        sf = scenario.faction(n)
        name = names.get(n) or (sf.name if sf is not None else f"Faction {n}")
        pm.sides.append(Side(n, name, faction_colour(n, colours.get(n, DEFAULT_GREY))))
    if any(s.owner == 0 for s in pm.stacks):  # units the player cannot name
        pm.sides.append(Side(0, "unknown factions", NEUTRAL))
    return pm


def unit_rows(state: State, scenario: Scenario) -> list[tuple[int, int, str, int, int, str]]:
    """(cell, faction, kind, men, unit number, `Name (number)`) of every unit of the state,
    for the viewer's list of units (one row per unit, not per stack)."""
    return [(u.cell, u.faction or 0, MEN, u.men, u.number, f"{u.name or 'Unit'} ({u.number})")
            for u in sorted(state["units"], key=lambda u: (u.cell, u.seq, u.number))]


def summary(state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
    """Per faction measures for the console's charts: men, units, regions held, and silver
    (carried by its units and unclaimed)."""
    out: dict[int, dict[str, float]] = {
        f.number: {"men": 0.0, "units": 0.0, "regions held": 0.0, "silver": float(f.unclaimed)}
        for f in state["factions"] if not f.eliminated}
    owner = {u.number: u.faction for u in state["units"]}
    for u in state["units"]:
        if u.faction in out:
            out[u.faction]["men"] += u.men
            out[u.faction]["units"] += 1
    for r in state["unit_items"]:
        f = owner.get(r.unit)
        if r.item == "silver" and f in out:
            out[f]["silver"] += r.count
    for f in holders(state).values():
        if f in out:
            out[f]["regions held"] += 1
    return out
