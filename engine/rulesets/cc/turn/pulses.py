"""[CONVOY ORDERS PHASE]: ten pulses (twelve for a sea convoy with an Engineer). In each pulse
convoy #1 gives its order first, then #2 and so on; after the pulse every convoy may pick up
troops in a friendly city, and then the troops eat.

Food: a troop eats a tenth of a unit a pulse (a twelfth in a sea convoy with an Engineer,
whose troops eat in pulses 11 and 12 too), changed 1% per 5 points of training from 30, -15%
with a Gourmet (30% with a Priest) and +1% per 3% of health lost; convoy troops are fed first,
in convoy order, then the unallocated troops. Each troop not fed has a 10% chance to desert;
when a convoy's troops desert there is a 10% chance one of its weapons goes with them, and its
morale falls by `desertion_morale` (the book gives no figure: X55); when half its troops go at
once, `desertion_vehicle_pct` that they take its smallest vehicle (X210).
"""

from __future__ import annotations

import math

from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn import plague
from engine.rulesets.cc.turn.clan_turn import FOOD_UNIT, WEAPONS, ClanTurn
from engine.rulesets.cc.turn.convoy_orders import carry_out
from engine.rulesets.cc.turn.movement import pick_up


def twelve(t: ClanTurn, cv: st.Convoy) -> bool:
    """A sea convoy with an Engineer: pulses 11 and 12, food in twelfths ([CONVOY ORDERS PHASE])."""
    row = t.book.convoy_types.get(cv.type, {})
    return "ENG" in t.experts(cv) and row.get("engineer_pulses", 0) > row.get("pulses", 0)


def pulse_orders(t: ClanTurn) -> dict[int, dict[int, o.ConvoyOrder]]:
    """convoy number -> pulse -> its order (the sheet's numbered lines)."""
    out: dict[int, dict[int, o.ConvoyOrder]] = {}
    for order in t.orders:
        if isinstance(order, o.ConvoyOrder) and order.section == o.CONVOY:
            out.setdefault(order.convoy, {}).setdefault(order.slot, order)
    return out


def run_pulses(t: ClanTurn, first: int, last: int, carry=carry_out, after=None) -> None:
    """The pulses `first` to `last`. The checker's dry run (dryrun.py) passes its own `carry`
    (carry_out watched for dice and unseen convoys) and `after` (the pick-ups, sickness and
    food after each pulse, watched the same way); the turn uses the defaults."""
    orders = pulse_orders(t)
    for pulse in range(first, last + 1):
        for cv in t.convoys():
            if cv.id in t.stopped:
                # stopped for the turn, or absorbed, sold or destroyed earlier in this pulse
                # (remove_convoy marks it stopped: no scan of the convoy table per convoy)
                continue
            if pulse > int(t.opts.pulses) and not twelve(t, cv):
                continue
            order = orders.get(cv.number, {}).get(pulse)
            if order is None:
                continue
            if cv.created_turn == t.turn:
                t.fail(order, "a convoy created this turn gives no orders until the next (X29)",
                       cv.number, pulse)
                continue
            if cv.health < 50:
                t.fail(order, "below 50% health the convoy obeys no orders", cv.number, pulse)
                continue
            carry(t, cv, order, pulse)
        (after or end_of_pulse)(t, pulse)


def end_of_pulse(t: ClanTurn, pulse: int) -> None:
    """After every convoy's order: pick-ups in friendly cities, the Plague's toll, food."""
    acting = [cv for cv in t.convoys() if pulse <= int(t.opts.pulses) or twelve(t, cv)]
    for cv in acting:
        pick_up(t, cv, pulse)
    plague.sicken(t, acting)  # cc-cycle: infected convoys lose health each pulse
    feed(t, pulse)


def feed(t: ClanTurn, pulse: int) -> None:
    groups: list[tuple[st.Convoy | None, int, float]] = []
    for cv in t.convoys():
        twelfths = twelve(t, cv)
        if cv.troops <= 0 or pulse > (int(t.opts.engineer_pulses) if twelfths else int(t.opts.pulses)):
            continue
        per = FOOD_UNIT / (int(t.opts.engineer_pulses) if twelfths else int(t.opts.pulses))
        pct = (100 + t.training_pct(cv) - cs.expert_pct(t.book, "GOU", t.experts(cv))
               + (100 - cv.health) // 3)
        groups.append((cv, cv.troops, per * max(0, pct) / 100))
    if pulse <= int(t.opts.pulses) and t.clan.troops > 0:
        groups.append((None, t.clan.troops, FOOD_UNIT / int(t.opts.pulses)))
    eaten = hungry = 0
    for cv, n, per in groups:
        need = math.ceil(round(n * per, 6))
        if t.food >= need:
            t.food -= need
            eaten += need
            continue
        fed = int(t.food // per) if per else n
        cost = min(t.food, math.ceil(round(fed * per, 6)))
        t.food -= cost
        eaten += cost
        hungry += n - fed
        desert(t, cv, n - fed, pulse)
    if eaten or hungry:
        t.emit(ev.Fed(t.number, pulse, eaten, hungry))


def desert(t: ClanTurn, cv: st.Convoy | None, hungry: int, pulse: int) -> None:
    gone = sum(1 for _ in range(hungry) if t.dice.chance(10, "desertion"))
    if not gone:
        return
    if cv is None:
        t.clan.troops -= gone
        t.emit(ev.Deserted(t.number, pulse, 0, gone, "", 0))
        return
    before = cv.troops
    cv.troops -= gone
    weapon = ""
    held = [w for w in WEAPONS if getattr(cv, w) > 0]
    if held and t.dice.chance(10, "deserters take a weapon"):
        weapon = t.dice.choice(held, "which weapon")
        setattr(cv, weapon, getattr(cv, weapon) - 1)
    vehicle = ""
    fleet = t.fleet(cv)
    # cc-house (C6, X210): "in extreme cases" -- half the convoy's troops gone at once -- they
    # drive off in its smallest vehicle, never its last one
    if (2 * gone >= before and sum(fleet.values()) > 1
            and t.dice.chance(int(t.opts.desertion_vehicle_pct), "deserters take a vehicle")):
        vehicle = min(fleet, key=lambda v: (t.book.vehicles[v]["size"], t.book.vehicles[v]["cost"], v))
        t.add_vehicles(cv, vehicle, -1)
        cv.troops = min(cv.troops, t.troop_cap(cv))  # X37: troops beyond the capacity left too
    cv.morale = max(0, cv.morale - int(t.opts.desertion_morale))
    t.emit(ev.Deserted(t.number, pulse, cv.number, gone, weapon, cv.morale, vehicle))
