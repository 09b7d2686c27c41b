"""Convoys changing shape: vehicles joining (training drops in proportion: doubling a convoy
halves it, [CONVOY STATISTICS › Training]), ABSORB, SPLIT and PAVE (a road built by a convoy)."""

from __future__ import annotations

from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn.clan_turn import WEAPONS, ClanTurn

CARRIED = ("troops", *WEAPONS)


def join_vehicles(t: ClanTurn, cv: st.Convoy, vid: str, n: int) -> None:
    """Vehicles added to a convoy; its training falls by the share of size they add."""
    before = t.size(cv)
    t.add_vehicles(cv, vid, n)
    after = t.size(cv)
    if before and after > before:
        cv.training = cv.training * before // after


def absorb(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """ABSORB: take a convoy of the same type in the same hex whole; duplicate experts are
    lost, morale and training the average of the two (the book's 60 and 30 make 45), the lower
    health kept; the absorbed convoy's remaining orders are dropped."""
    other = t.convoy(order.amount)
    if other is None or other is cv:
        return t.fail(order, f"you have no other convoy #{order.amount}", cv.number, pulse)
    if other.cell != cv.cell or other.type != cv.type:
        return t.fail(order, f"convoy #{other.number} must be a {cv.type} convoy in this hex",
                      cv.number, pulse)
    for vid, n in t.fleet(other).items():
        t.add_vehicles(cv, vid, n)
    mine = t.experts(cv)
    for e in t.expert_rows(other):
        if e.code not in mine:
            t.move_expert(e, cv)
            mine.add(e.code)
    for item in CARRIED:
        setattr(cv, item, getattr(cv, item) + getattr(other, item))
    if other.cargo and (not cv.cargo or cv.cargo_type == other.cargo_type):
        cv.cargo_type, cv.cargo = other.cargo_type, cv.cargo + other.cargo
    cv.morale = (cv.morale + other.morale) // 2
    cv.training = (cv.training + other.training) // 2
    cv.health = min(cv.health, other.health)
    t.remove_convoy(other, f"absorbed by convoy #{cv.number}")
    t.done(order, f"absorbed convoy #{other.number}", cv.number, pulse)


def split(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """SPLIT: a new convoy takes half of each vehicle kind (odd ones stay), half the troops,
    weapons and cargo (X85); experts stay; both end at 75% of the morale and training; it costs
    what CREATE would; the new convoy is not hidden and acts from the next turn."""
    fleet = t.fleet(cv)
    if not any(n >= 2 for n in fleet.values()):
        return t.fail(order, "SPLIT needs at least two of some vehicle", cv.number, pulse)
    held = sum(1 for c in t.ctx.state["convoys"] if c.owner == t.number)
    cost = costs.convoy_cost(t.book, held)
    if cost is None:
        return t.fail(order, f"the clan has {held} convoys, the most the cost table allows", cv.number, pulse)
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed", cv.number, pulse)
    new = t.new_convoy(cv.type, cv.cell)
    new.mode, new.health, new.plague = cv.mode, cv.health, cv.plague
    for vid, n in fleet.items():
        if n // 2:
            t.add_vehicles(cv, vid, -(n // 2))
            t.add_vehicles(new, vid, n // 2)
    for item in CARRIED:
        half = getattr(cv, item) // 2
        setattr(cv, item, getattr(cv, item) - half)
        setattr(new, item, half)
    new.cargo_type, new.cargo = cv.cargo_type, cv.cargo // 2
    cv.cargo -= new.cargo
    cv.morale = new.morale = cv.morale * 3 // 4
    cv.training = new.training = cv.training * 3 // 4
    t.stopped.add(new.id)
    t.done(order, f"split off convoy #{new.number} for ${cost:,}", cv.number, pulse, cost)


def pave(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """PAVE: a land convoy with a truck builds a road into a neighbouring hex; both hexes the
    clan's, not into water; $2,500 times the two hexes' parts factors (X75)."""
    there = t.board.step(cv.cell, order.word) if order.word else None
    if cv.type != "land" or "truck" not in t.fleet(cv):
        return t.fail(order, "PAVE needs a land convoy with a truck", cv.number, pulse)
    if there is None or not t.terrain(there).get("ownable"):
        return t.fail(order, "a road cannot be built that way (water or off the map)", cv.number, pulse)
    if not (t.owns_hex(cv.cell) and t.owns_hex(there)):
        return t.fail(order, "both hexes must be yours", cv.number, pulse)
    if t.road(cv.cell, there):
        return t.fail(order, "there is a road that way already", cv.number, pulse)
    cost = costs.pave_cost(t.book, int(t.opts.pave_cost), t.gmap.terrain_at(cv.cell), t.gmap.terrain_at(there))
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed", cv.number, pulse)
    t.ctx.state["roads"].append(st.Road(cv.cell, there, t.number))
    t.roads.add(frozenset((cv.cell, there)))
    t.done(order, f"paved a road from {t.label(cv.cell)} to {t.label(there)}", cv.number, pulse, cost)
