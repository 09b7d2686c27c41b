"""Phase 2, combat (Combat: Attitudes, Attacking, The Muster): ATTACK orders and the
automatic attacks of non-avoiding units on units they take for Hostile; and the battle of
an ADVANCE at a guarded border (`advance`, behind `Turn.advance_fight`).

Order (reading, docs/atlantis.md): regions in cell order; in a region, units in report
order, each with its ATTACK targets as written, then its automatic attacks on the units
of the region in report order. An attack is a faction's against a faction: the first
attack on a faction in a region musters one battle, joined by every faction that attacks
that faction there; two factions that met in a battle in a region do not fight again
there this phase, whichever attacks the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat import muster as m
from engine.rulesets.atlantis.combat.battle import ATTACKERS, BattleResult, fight
from engine.rulesets.atlantis.sailing import terrain_of
from engine.rulesets.atlantis.sight import unseen
from engine.rulesets.atlantis.turn import Turn, turn_of


@dataclass
class Attempt:
    unit: st.Unit
    target: st.Unit
    order: o.Attack | None      # None: an automatic attack on a Hostile unit


def refusal(t: Turn, u: st.Unit, target: st.Unit | None, best: dict[int, int],
            name: object = "") -> str:
    """Why `u` may not attack `target` (named `name` in the order) now ("" = it may). An
    unseen target reads as absent, so no player learns that a hidden unit is there."""
    if u.number not in t.units or u.men <= 0:
        return "the unit is gone"
    if u.number in t.no_move:
        return "the unit won a battle with losses this month and may not attack again"
    if target is None or target.number not in t.units or target.cell != u.cell \
            or not m.sighting(t, best, u.faction, target).seen:
        return unseen(name)
    if target.faction == u.faction:
        return f"unit {name} is of the unit's own faction"
    if t.attitude(u.faction, target.faction) == "ally":
        return f"unit {name} is an ally's: the attack is called off, the troops withdraw"
    if not m.catches(t, u, target):
        return f"unit {name} rides away: it can't be caught"
    return ""


def _hostile(t: Turn) -> set[int]:
    """The factions that may attack without orders: Hostile to someone, or by default.
    Worked out again only after a DECLARE or a new faction (movement asks at every step)."""
    key = (t.declarations, len(t.factions), len(t.attitudes))
    kept = t.hostile_kept
    if kept is not None and kept[0] == key:
        return set(kept[1])
    out = {f.number for f in t.factions.values() if f.default_attitude == "hostile"}
    out |= {f for (f, _), a in t.attitudes.items() if a == "hostile"}
    t.hostile_kept = (key, frozenset(out))
    return out


def run(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    hostile = _hostile(t)
    cells = sorted({u.cell for u, _ in t.acting(o.Attack)}
                   | {u.cell for u in t.units.values() if u.faction in hostile and not u.avoid})
    rg = m.Regions(t)   # nobody moves in this step
    for cell in cells:
        _region(t, cell, hostile, rg)


def _attempts(t: Turn, cell: int, hostile: set[int], rg: m.Regions,
              arrived: set[int] | None = None) -> list[Attempt]:
    """The region's attacks in their order: each unit's ATTACK targets, then its
    automatic ones (refusals of the written ones are told now). With `arrived` (movement)
    only the automatic attacks that units just arrived make or suffer."""
    here = rg.at(cell)
    best = m.observers(t, here)
    out: list[Attempt] = []
    for u in here:
        for order in t.by_unit.get(u.number, ()) if arrived is None else ():
            if not isinstance(order, o.Attack):
                continue
            for ref in order.targets:
                target = t.units.get(t.resolve(ref, u.faction, near=cell))
                why = refusal(t, u, target, best, ref)
                if why:
                    t.fail(u, order, why,
                           m.unseen_note(t, u, ref, target) if why == unseen(ref) else "")
                else:
                    out.append(Attempt(u, target, order))
        if u.faction not in hostile or u.avoid:
            continue
        for v in here:
            if v.faction == u.faction:
                continue
            if arrived is not None and u.number not in arrived and v.number not in arrived:
                continue
            look = m.sighting(t, best, u.faction, v)
            if look.seen and m.attitude_towards(t, u.faction, v, look) == "hostile" \
                    and not refusal(t, u, v, best):
                out.append(Attempt(u, v, None))
    return out


def _region(t: Turn, cell: int, hostile: set[int], rg: m.Regions,
            arrived: set[int] | None = None) -> None:
    attempts = _attempts(t, cell, hostile, rg, arrived)
    met: set[frozenset[int]] = set()
    for i, a in enumerate(attempts):
        tf = a.target.faction
        if frozenset((a.unit.faction, tf)) in met:
            continue  # fought already: the two factions' armies met in an earlier battle
        best = m.observers(t, rg.at(cell))
        why = refusal(t, a.unit, a.target, best, a.target.number)
        if why:  # a battle before changed things
            if a.order is not None and a.unit.number in t.units:
                t.fail(a.unit, a.order, why, m.unseen_note(t, a.unit, a.target.number, a.target)
                       if why == unseen(a.target.number) else "")
            continue
        live = [x for x in attempts[i:] if x.target.faction == tf
                and frozenset((x.unit.faction, tf)) not in met
                and not refusal(t, x.unit, x.target, best)]
        factions = list(dict.fromkeys(x.unit.faction for x in live))
        call = m.Call(cell, a.unit, a.target, factions,
                      explicit={x.unit.number for x in live if x.order is not None},
                      targets={x.target.number for x in live}, regions=rg)
        result = battle(t, call)
        met |= {frozenset((x.faction, y.faction)) for x in result.attackers
                for y in result.defenders}


def arrivals(t: Turn, units: list[st.Unit]) -> None:
    """The battles a region's movement brings about (Movement: Order of Movement): where
    `units` just arrived, non-avoiding units attack the units they take for Hostile,
    arrivals and residents alike, as in the combat step; no ATTACK orders again."""
    hostile = _hostile(t)
    arrived = {u.number for u in units if u.number in t.units}
    cells = sorted({u.cell for u in units if u.number in arrived})
    if not hostile or not cells:
        return
    grid = t.ctx.map.grid
    rg = m.Regions(t, {*cells, *(n for c in cells for n in grid.neighbours(c))})
    for cell in cells:
        _region(t, cell, hostile, rg, arrived)


def battle(t: Turn, call: m.Call, reason: str = "killed in battle") -> BattleResult:
    """Muster, fight and settle one battle."""
    att, dfn = m.muster(t, call)
    everyone = [*att, *dfn]
    region = (call.regions or m.Regions(t, [call.cell])).at(call.cell)
    n = t.ctx.scratch["atlantis_battles"] = t.ctx.scratch.get("atlantis_battles", 0) + 1
    result = fight(m.combatants(t, att, everyone, region),
                   m.combatants(t, dfn, everyone, region),
                   terrain=terrain_of(t, call.cell), dice=t.ctx.dice.sub("battle", n),
                   spells=m.spells(t), options=m.options(t))
    m.settle(t, result, call.cell, reason)
    return result


def advance(t: Turn, unit: st.Unit, from_cell: int, to_cell: int) -> str:
    """An ADVANCE fights each faction whose guards deny it entry to `to_cell` (the mover's
    faction's units there and in the regions around join it as in any battle). "retreat"
    if it lost, "stop" after a draw or a win with losses, else "continue"."""
    from engine.rulesets.atlantis.movement import denying_guard

    outcome, fought = "continue", set()
    while unit.number in t.units and unit.men > 0:
        guard = denying_guard(t, unit, to_cell)
        if guard is None or guard.faction in fought:
            break
        fought.add(guard.faction)
        call = m.Call(to_cell, unit, guard, [unit.faction], explicit={unit.number},
                      targets={guard.number}, outsider=unit)
        result = battle(t, call)
        if result.winner != ATTACKERS:
            return "retreat" if result.winner is not None else "stop"
        if result.side_losses(ATTACKERS):
            outcome = "stop"
    return outcome if unit.number in t.units else "retreat"
