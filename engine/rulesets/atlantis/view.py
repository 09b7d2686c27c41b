"""What a faction's report bundle and player viewer may hold: the state pruned to what the
faction sees, by the same rule as its report (report.py, sight.py).

Kept: the regions where it has units and their neighbours (the report names their terrain
as exits; their economy is left out), its own units with everything, other factions' units
its units see (their faction set to 0 unless named, men and large items only, no skills,
no flags but guard), the structures in its regions, and its own faction row, attitudes,
known skills and `@` orders. Other factions' rows keep their number and name only: no
address, password, silver or settings. The world row keeps the month, not the next unit,
structure and faction numbers (they would count every faction's units).

The month's events count as they do for the report: a unit that fought in a region of the
faction's is on its map, as in its report (reading 77). Of the factions, the bundle lists
only those the faction knows (`known_factions`, reading 95): a list of everyone would tell
every player who joined the game.
"""

from __future__ import annotations

from dataclasses import replace

from engine.events import EventLog
from engine.rulesets.atlantis import report as rp
from engine.rulesets.atlantis.world import DIRECTION_NAMES
from engine.scenario import Scenario
from engine.state import State


def own_cells(state: State, faction: int) -> set[int]:
    return {u.cell for u in state["units"] if u.faction == faction}


def visible_cells(state: State, faction: int, scenario: Scenario) -> set[int]:
    grid = scenario.map.grid
    out = own_cells(state, faction)
    for cell in list(out):
        out.update(c for d in DIRECTION_NAMES if (c := grid.step(cell, d)) is not None)
    return out


def _seen(regions: list[dict]) -> dict[int, dict]:
    """{unit number: its report entry} of every unit the report's regions list."""
    seen: dict[int, dict] = {}
    for reg in regions:
        for u in reg["units"]:
            seen[u["number"]] = u
        for s in reg["structures"]:
            for u in s["units"]:
                seen[u["number"]] = u
    return seen


_LAST: list = []  # [faction, state, events, known] of the last visible_state (held: no id reuse)

# fields of an event (as the faction holds it, Event.seen_by) that name a faction
FACTION_FIELDS = ("faction", "to_faction", "culprit_faction", "caster_faction",
                  "target_faction", "old", "other")


def known_factions(state: State, faction: int, scenario: Scenario,
                   events: EventLog | None = None, seen: dict[int, dict] | None = None
                   ) -> set[int]:
    """The factions `faction` knows of: itself, the factions of the units its report names
    with their faction, those it declared an attitude to, and those its month's events
    name as it holds them (a battle's identified sides, a culprit named, a FIND, a gift of
    a unit, the winner of the game)."""
    if seen is None:
        if _LAST and _LAST[0] == faction and _LAST[1] is state and _LAST[2] is events:
            return set(_LAST[3])  # visible_state of this faction just made it (a bundle)
        seen = _seen(rp.regions(state, events, faction, scenario))
    out = {faction}
    out |= {u["faction"] for u in seen.values() if u["faction"]}
    out |= {a.other for a in state["attitudes"] if a.faction == faction}
    for rec in events.for_faction(faction) if events is not None else ():
        e = rec.event.seen_by(faction)
        for name in FACTION_FIELDS:
            v = getattr(e, name, 0)
            if isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
        out.update(getattr(e, "aboard", ()))
        out.update(getattr(e, "named", ()))
    out.discard(0)
    return out


def visible_state(state: State, faction: int, scenario: Scenario,
                  events: EventLog | None = None) -> State:
    regions = rp.regions(state, events, faction, scenario)
    seen = _seen(regions)
    cells = {reg["cell"] for reg in regions}
    known = known_factions(state, faction, scenario, events, seen)
    _LAST[:] = [faction, state, events, frozenset(known)]
    out = State(state.schema, state.step)
    # the month only: the next unit, structure and faction numbers would count everyone's
    out.tables["world"] = [replace(w, next_unit=0, next_object=0, next_faction=0)
                           for w in state["world"]]
    for f in state["factions"]:
        if f.number in known:
            out["factions"].append(f if f.number == faction else type(f)(f.number, f.name))
    for u in state["units"]:
        v = seen.get(u.number)
        if v is None:
            continue
        if u.faction == faction:
            out["units"].append(u)
        else:
            out["units"].append(type(u)(u.number, v["faction"] or 0, u.cell, u.name,
                                        u.description, u.men, u.structure, u.seq,
                                        guard=u.guard))
    large = {u: {e["item"] for e in v["items"]} for u, v in seen.items()}
    out.tables["unit_items"] = [r for r in state["unit_items"] if r.item in large.get(r.unit, ())]
    mine = {u.number for u in state["units"] if u.faction == faction}
    for table in ("unit_skills", "repeat_orders"):
        out.tables[table] = [r for r in state[table] if r.unit in mine]
    out.tables["regions"] = [r for r in state["regions"] if r.cell in cells]
    out.tables["products"] = [r for r in state["products"] if r.cell in cells]
    out.tables["structures"] = [r for r in state["structures"] if r.cell in cells]
    out.tables["attitudes"] = [r for r in state["attitudes"] if r.faction == faction]
    out.tables["known_skills"] = [r for r in state["known_skills"] if r.faction == faction]
    return out

