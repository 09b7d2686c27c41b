"""Phase 8, movement (Movement: Normal Movement, Order of Movement; Combat: Attacking).

SAIL first, ship by ship (sailing.py); then MOVE and ADVANCE, one hex at a time across
the world: each round visits the regions in cell order (the map's rows north to south,
each west to east) and, within a region, its moving units in report order; every one
takes its next hex (entering and leaving structures on the way is free and happens as the
route says), then the ADVANCE battles of that region's movers are fought, then the next
region. Rounds repeat until nobody moves. A unit walks with 2 movement points or rides
with 4, the fastest its load allows (rules.load), recomputed at each step; entering a
region costs its terrain's points. A move stops, and the rest of its route is dropped,
at the ocean, at a hex it has not the points for, at a structure that refuses it, or at
a guard that denies it entry (an Unfriendly guard that sees and catches it); an ADVANCE
fights such guards instead (`Turn.advance_fight`). After each region's moves, the Hostile
attacks they bring about are fought (combat/attack.py `arrivals`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules, sailing, sight
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat import attack, muster
from engine.rulesets.atlantis.sailing import DIRECTION_WORDS, is_ocean, terrain_of
from engine.rulesets.atlantis.turn import Turn, turn_of


@dataclass
class Mover:
    unit: st.Unit
    order: o.Move
    steps: list[str] = field(default_factory=list)   # what is left of the route
    spent: int = 0                                    # movement points used

    @property
    def verb(self) -> str:
        return o.verb(self.order)


class Where:
    """Who is in which region while units move: every unit, and the units on guard, by
    cell (so a step looks at its own region, not at the whole world). Entries may go stale
    when a battle kills or moves units; readers check `cell` and `t.units`."""

    def __init__(self, t: Turn, cell: int | None = None) -> None:
        """The whole world, or only region `cell` (a battle asking about one border)."""
        self.units: dict[int, set[int]] = defaultdict(set)
        self.guards: dict[int, list[int]] = defaultdict(list)
        units = t.in_report_order() if cell is None else sorted(
            (u for u in t.units.values() if u.cell == cell), key=lambda u: (u.seq, u.number))
        for u in units:
            self.units[u.cell].add(u.number)
            if u.guard and u.men > 0:
                self.guards[u.cell].append(u.number)

    def at(self, t: Turn, cell: int) -> list[st.Unit]:
        return [t.units[n] for n in sorted(self.units.get(cell, ()))
                if n in t.units and t.units[n].cell == cell]

    def moved(self, u: st.Unit, frm: int) -> None:
        self.units[frm].discard(u.number)
        self.units[u.cell].add(u.number)


def run(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    aboard_sailed = sailing.run(t)
    movers = _movers(t, aboard_sailed)
    where = Where(t)
    while movers:
        by_cell: dict[int, list[Mover]] = defaultdict(list)
        for m in movers.values():  # where each mover starts the round: one hex a round
            by_cell[m.unit.cell].append(m)
        for cell in sorted(by_cell):
            here = sorted((m for m in by_cell[cell]
                           if m.unit.cell == cell and m.unit.number in t.units),
                          key=lambda m: (m.unit.seq, m.unit.number))
            battles: list[tuple[Mover, int]] = []
            for m in here:
                to = _step(t, m, where)
                if to is not None:
                    battles.append((m, to))
            for m, to in battles:  # all movement out of the region is done: the battles
                _advance(t, m, cell, to, where)
            # and the battles the moves bring about: Hostile units meeting (combat/attack.py)
            attack.arrivals(t, [m.unit for m in here if m.unit.cell != cell])
            for m in here:  # a winner that took losses stops where it is
                if m.unit.number in t.no_move:
                    m.steps.clear()
        for n in [n for n, m in movers.items() if not m.steps or n not in t.units]:
            del movers[n]


def _movers(t: Turn, aboard_sailed: set[int]) -> dict[int, Mover]:
    """The units with a MOVE or ADVANCE that may set out, in report order."""
    out: dict[int, Mover] = {}
    for u, order in t.acting(o.Move):
        why = ""
        if u.number in aboard_sailed:
            why = "the unit was aboard a ship that sailed this month"
        elif u.number in t.no_move:
            why = "the unit fought and took losses this month"
        elif isinstance(order, o.Advance) and u.given_from \
                and t.attitude(u.faction, u.given_from) != "ally":
            why = "a unit given by a faction that is not an ally may not ADVANCE"
        elif _load(t, u).points == 0:
            have = _load(t, u)
            why = (f"too heavy to move: {have.goods} weight of goods, the men and horses carry "
                   f"{have.walk_capacity}")
        if why:
            t.fail(u, order, why)
        elif u.number not in out:
            out[u.number] = Mover(u, order, list(order.steps))
    return out


def _load(t: Turn, u: st.Unit) -> rules.Load:
    return rules.load(u.men, t.items[u.number], t.item_rows)


def _stop(t: Turn, m: Mover, reason: str) -> None:
    left = len(m.steps)
    t.fail(m.unit, m.order, f"{reason}; the rest of the route ({left} "
           f"step{'s' if left != 1 else ''}) is dropped" if left else reason)
    m.steps.clear()


def _structures(t: Turn, m: Mover) -> bool:
    """Carry out the structure steps at the head of the route (they cost nothing); False
    when one fails (the move ends there)."""
    u = m.unit
    while m.steps and m.steps[0] not in DIRECTION_WORDS:
        s = m.steps.pop(0)
        if s == "OUT":
            if u.structure and is_ocean(t, u.cell):
                _stop(t, m, "can't leave a ship at sea")
                return False
            if u.structure:
                was, u.structure = u.structure, 0
                t.emit(ev.StructureChanged(u.faction, u.number, was, "LEAVE", ""))
        elif s == "IN":
            _stop(t, m, "no structure of this world has an inner passage to move IN through")
            return False
        else:
            x = t.structures.get(int(s))
            if x is None or x.cell != u.cell:
                _stop(t, m, f"there is no object [{s}] here")
                return False
            owner = t.owner(x.number)
            if u.structure == x.number:
                continue
            if owner is not None and not t.declared_friendly(owner.faction, u.faction):
                _stop(t, m, f"the owner of [{x.number}] does not admit the unit")
                return False
            u.structure, u.seq = x.number, t.next_seq(u.cell)
            t.emit(ev.StructureChanged(u.faction, u.number, x.number, "ENTER", ""))
    return True


def _step(t: Turn, m: Mover, where: Where) -> int | None:
    """The mover's turn in this round: structure steps, then one hex. Returns the region an
    ADVANCE must fight its way into (the unit waits at the border), else None."""
    u = m.unit
    if not _structures(t, m) or not m.steps:
        return None
    d = m.steps.pop(0)
    here = u.cell
    there = t.ctx.map.grid.step(here, d)
    if is_ocean(t, here):
        _stop(t, m, "can't move while at sea: ships move by SAIL")
        return None
    if there is None:
        _stop(t, m, f"there is no region to the {DIRECTION_WORDS[d]}")
        return None
    if is_ocean(t, there):
        t.emit(ev.MoveStopped(u.faction, u.number, m.verb, m.order.line, here, there, "ocean"))
        m.steps.clear()
        return None
    cost = rules.entry_cost(t.terrain_rows[terrain_of(t, there)]) or 0
    have = _load(t, u).points - m.spent
    if have < cost:
        _stop(t, m, f"not enough movement points to enter {terrain_of(t, there)} to the "
              f"{DIRECTION_WORDS[d]} (needs {cost}, {max(have, 0)} left)")
        return None
    guard = denying_guard(t, u, there, where)
    if guard is not None:
        if not isinstance(m.order, o.Advance):
            t.emit(ev.MoveStopped(u.faction, u.number, m.verb, m.order.line, here, there,
                                  "forbidden", guard.number))
            t.emit(ev.EntryForbidden(guard.faction, guard.number, u.number, there))
            m.steps.clear()
            return None
        if t.attitude(u.faction, guard.faction) == "ally":
            t.emit(ev.MoveStopped(u.faction, u.number, m.verb, m.order.line, here, there,
                                  "ally", guard.number))
            m.steps.clear()
            return None
        m.steps.insert(0, d)  # fought for after the region's movement (`_advance`)
        return there
    _enter(t, m, there, cost, where)
    return None


def _enter(t: Turn, m: Mover, there: int, cost: int, where: Where) -> None:
    """The mover takes the hex: out of any structure, last on the region's list, off guard
    (a guard keeps watch where it stands; the server's custom), then free structure steps."""
    u = m.unit
    here, mode = u.cell, "ride" if _load(t, u).can_ride else "walk"
    m.spent += cost
    u.cell, u.structure, u.seq, u.guard = there, 0, t.next_seq(there), False
    where.moved(u, here)
    points = _load(t, u).points
    t.emit(ev.Moved(u.faction, u.number, m.verb, m.order.line, here, there, mode, cost,
                    max(points - m.spent, 0)))
    _structures(t, m)


def _advance(t: Turn, m: Mover, here: int, there: int, where: Where) -> None:
    """An ADVANCE at the border of a guarded region, once the region's movement is done."""
    u = m.unit
    if u.number not in t.units or u.cell != here:
        m.steps.clear()
        return
    cost = rules.entry_cost(t.terrain_rows[terrain_of(t, there)]) or 0
    if denying_guard(t, u, there, where) is None:  # the guards fell in an earlier battle
        m.steps.pop(0)
        _enter(t, m, there, cost, where)
        return
    result = t.advance_fight(u, here, there)
    if u.number not in t.units or u.men <= 0:
        m.steps.clear()
        return
    m.steps.pop(0)
    if result == "retreat":
        m.steps.clear()
        return
    _enter(t, m, there, cost, where)
    if result != "continue":
        m.steps.clear()


# ---- guards --------------------------------------------------------------------------------

def denying_guard(t: Turn, mover: st.Unit, cell: int, where: Where | None = None
                  ) -> st.Unit | None:
    """The first unit on guard in `cell` (report order) that keeps `mover` out: Unfriendly
    or worse towards it as its faction perceives it, able to see it and to catch it.
    Without `where`, the region is looked at as it is now (for the ADVANCE battle).
    Seeing and catching are the muster's (combat/muster.py), but a mover on its way is
    never inside a structure and only its REVEAL shows it whatever its Stealth."""
    if where is None:
        where = Where(t, cell)
    guards = [t.units[n] for n in where.guards.get(cell, ()) if n in t.units]
    guards = [g for g in guards
              if g.cell == cell and g.guard and g.men > 0 and g.faction != mover.faction]
    if not guards:
        return None
    stealth = muster.unit_stealth(t, mover)
    target = rules.defence_riding(t.level(mover.number, "riding"), mover.men,
                                  muster.mounts(t, mover), _load(t, mover).can_ride,
                                  inside=False)
    best: dict[int, int] = {}
    watching = {g.faction for g in guards}
    for u in where.at(t, cell):
        if u.faction in watching:
            best[u.faction] = max(best.get(u.faction, -1), muster.unit_observation(t, u))
    for g in sorted(guards, key=lambda g: (g.seq, g.number)):
        look = sight.sighting(best.get(g.faction), stealth, reveal=mover.reveal)
        attitude = muster.attitude_towards(t, g.faction, mover, look)
        attack = rules.attack_riding(t.level(g.number, "riding"), muster.mounts(t, g))
        if rules.denies_entry(attitude, look.seen, attack, target):
            return g
    return None
