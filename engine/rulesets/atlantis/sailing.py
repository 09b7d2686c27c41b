"""SAIL (Movement: Sailing, Order of Movement): ships sail one at a time, each its whole
course, carrying everyone aboard.

The book's rules as the code keeps them:
- the owner (the first unit aboard) gives the course with `SAIL dir ...`; other units aboard
  help with `SAIL`; everyone aboard travels, whatever their orders;
- the crew that SAILs must bring men x Sailing level at least the ship's sailors, and the
  weight of everyone and everything aboard must be within the ship's capacity;
- a ship has 4 movement points and every region costs 1; it goes ocean to ocean, coast to
  ocean or ocean to coast (a coast is land next to ocean);
- ships sail in region order (cell number: the map's rows north to south, each west to
  east) and within a region in the report's order (structure number); a ship that has
  sailed does not sail again when the sweep reaches the region it arrived in;
- units aboard a ship that sailed lose GUARD and may not MOVE later this month; the units
  that SAILed have done their month's work.
Failures are the server's "SAIL:" errors (OrderFailed), for every unit whose SAIL order the
failure undoes.
"""

from __future__ import annotations

from collections import defaultdict

from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.turn import Turn

DIRECTION_WORDS = {"N": "north", "NE": "northeast", "SE": "southeast", "S": "south",
                   "SW": "southwest", "NW": "northwest"}


# ---- where ships may go ---------------------------------------------------------------------

def terrain_of(t: Turn, cell: int) -> str:
    """A region's terrain: its row's (land), else the map's (oceans have no row)."""
    r = t.regions.get(cell)
    return r.terrain if r is not None else t.ctx.map.terrain_at(cell)


def is_ocean(t: Turn, cell: int) -> bool:
    return bool(t.terrain_rows.get(terrain_of(t, cell), {}).get("ocean"))


def coastal(t: Turn, cell: int) -> bool:
    """Land with at least one ocean neighbour (where ships are built and land)."""
    return not is_ocean(t, cell) and any(is_ocean(t, n) for n in t.ctx.map.grid.neighbours(cell))


# ---- the sailing step -------------------------------------------------------------------------

def weight(t: Turn, u: st.Unit) -> int:
    """Everything a unit weighs: its men, horses and goods."""
    return rules.load(u.men, t.items[u.number], t.item_rows).total


def run(t: Turn) -> set[int]:
    """Sail every ship whose SAIL orders allow it; the units aboard ships that moved (they
    may not MOVE later this month)."""
    sails: dict[int, list[tuple[st.Unit, o.Sail]]] = defaultdict(list)
    for u, order in t.acting(o.Sail):
        x = t.structures.get(u.structure)
        kind = t.object_rows.get(x.kind, {}).get("kind") if x is not None else None
        if kind != "ship":
            t.fail(u, order, "the unit is not aboard a ship")
            continue
        sails[x.number].append((u, order))
    aboard: dict[int, list[st.Unit]] = defaultdict(list)  # report order: the owner first
    for u in t.in_report_order():
        if u.structure in sails:
            aboard[u.structure].append(u)
    moved: set[int] = set()
    ships = sorted((t.structures[n] for n in sails), key=lambda x: (x.cell, x.number))
    for ship in ships:  # cells are fixed before any ship sails: each sails once, in turn
        moved |= _sail(t, ship, sails[ship.number], aboard[ship.number])
    return moved


def _sail(t: Turn, ship: st.Structure, crew: list[tuple[st.Unit, o.Sail]],
          aboard: list[st.Unit]) -> set[int]:
    row = t.object_rows[ship.kind]
    owner = aboard[0] if aboard else None
    course = next((order for u, order in crew if owner is not None and u.number == owner.number),
                  None)

    def refuse(reason: str) -> set[int]:
        for u, order in crew:
            t.fail(u, order, reason)
        return set()

    if course is None:
        return refuse(f"the owner of [{ship.number}] must SAIL it (with its course)")
    if not course.steps:
        return refuse(f"the owner of [{ship.number}] gives no course: SAIL N NW ...")
    if ship.work < int(row["cost"]):
        return refuse(f"[{ship.number}] is not finished")
    load = sum(weight(t, u) for u in aboard)
    if load > int(row["capacity"]):
        return refuse(f"[{ship.number}] is overloaded: {load} weight aboard, capacity "
                      f"{row['capacity']}")
    sailors = sum(u.men * t.level(u.number, "sailing") for u, _ in crew)
    if sailors < int(row["sailors"]):
        return refuse(f"not enough sailors: the crew that SAILs has {sailors} (men x Sailing "
                      f"level), a {ship.kind} needs {row['sailors']}")
    points, steps = rules.SHIP_POINTS, 0
    for i, d in enumerate(course.steps):
        here = ship.cell
        there = t.ctx.map.grid.step(here, d)
        why = ""
        if there is None:
            why = f"there is no region to the {DIRECTION_WORDS.get(d, d)}"
        elif not rules.ship_may_sail(is_ocean(t, here), is_ocean(t, there)):
            why = "can't sail inland: ships go ocean to ocean, coast to ocean or ocean to coast"
        elif points < 1:
            why = f"can't sail that far: a ship has {rules.SHIP_POINTS} movement points"
        if why:
            left = len(course.steps) - i
            t.fail(owner, course, f"{why} (stops after {steps} of its course; {left} "
                   f"step{'s' if left != 1 else ''} not sailed)")
            break
        points -= 1
        steps += 1
        ship.cell = there
        for u in aboard:
            u.cell, u.seq, u.guard = there, t.next_seq(there), False
        t.emit(ev.Sailed(owner.faction, owner.number, ship.number, ship.name or ship.kind.title(),
                         here, there, tuple(sorted({u.faction for u in aboard}))))
    return {u.number for u in aboard} if steps else set()
