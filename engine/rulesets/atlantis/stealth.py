"""Phase 3, STEAL and ASSASSINATE (Stealth and Observation: Stealing, Assassination).

A one-man unit tries a unit of another faction in its region that its faction sees. The
attempt is caught when the victim's faction sees the culprit (some unit of it there has
Observation at least the culprit's effective Stealth, or the culprit is on guard, inside
a structure or revealing itself: sight.py's rule), and prevented when a faction that has
declared the victim's faction Ally sees it. Every faction that sees the culprit is told of
the attempt (its faction named only when identified). A theft takes silver (the lesser of
$200 and half the victim's) or one of another item; the victim's faction learns what, not
who. An assassination is a duel (battle.duel): a victim killed is told only that, one who
survives learns who tried. Units act in report order, each at most once a month.
"""

from __future__ import annotations

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import sight
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat import muster as m
from engine.rulesets.atlantis.combat.battle import ATTACKERS, duel
from engine.rulesets.atlantis.sailing import terrain_of
from engine.rulesets.atlantis.turn import Turn, turn_of

SILVER_TAKEN = 200

Crime = o.Steal | o.Assassinate


def run(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    last: dict[int, Crime] = {}
    for u, order in t.acting(o.Steal, o.Assassinate):
        last[u.number] = order  # one a month: the parser warned of any earlier one
    rg = m.Regions(t, {u.cell for u in t.units.values() if u.number in last})
    for u in t.in_report_order():
        if u.number in last:
            attempt(t, u, last[u.number], rg)


def refusal(t: Turn, u: st.Unit, target: st.Unit | None, best: dict[int, int],
            order: Crime) -> str:
    """Why the attempt can't be made at all ("" = it can)."""
    verb = "steal" if isinstance(order, o.Steal) else "assassinate"
    if u.men != 1:
        return f"only a unit of one man may {verb}"
    if target is None or target.cell != u.cell or target.men <= 0 \
            or not m.sighting(t, best, u.faction, target).seen:
        return sight.unseen(order.target)
    if target.faction == u.faction:
        return f"a unit can't {verb} from its own faction" if verb == "steal" else \
            "a unit can't assassinate its own faction's men"
    return ""


def attempt(t: Turn, u: st.Unit, order: Crime, rg: m.Regions) -> None:
    if u.number not in t.units:
        return
    here = rg.at(u.cell)
    best = m.observers(t, here)
    target = t.units.get(t.resolve(order.target, u.faction, near=u.cell))
    why = refusal(t, u, target, best, order)
    if why:
        t.fail(u, order, why, m.unseen_note(t, u, order.target, target)
               if why == sight.unseen(order.target) else "")
        return
    what = "steal" if isinstance(order, o.Steal) else "assassinate"
    tf = target.faction
    looks = {f: m.sighting(t, best, f, u) for f in best if f != u.faction}
    caught = looks.get(tf, sight.NOT_SEEN).seen
    prevented = any(look.seen and f != tf and t.attitude(f, tf) == "ally"
                    for f, look in looks.items())
    for f, look in sorted(looks.items()):
        if look.seen:  # the target is named only to those who see it too
            shown = target.number if m.sighting(t, best, f, target).seen else 0
            t.emit(ev.CrimeSeen(f, u.number, u.faction if look.faction_seen else 0,
                                shown, what, caught or prevented))
    if caught or prevented:
        t.fail(u, order, "the attempt was seen and foiled; the unit flees"
               if caught else "the attempt was seen and prevented; the unit flees")
        return
    if isinstance(order, o.Steal):
        _steal(t, u, target, order.item)
    else:
        _assassinate(t, u, target, here)


def _steal(t: Turn, u: st.Unit, target: st.Unit, item: str) -> None:
    have = t.has(target.number, item)
    amount = min(SILVER_TAKEN, have // 2) if item == "silver" else min(1, have)
    t.add(target.number, item, -amount)
    t.add(u.number, item, amount)
    t.emit(ev.Stole(u.faction, u.number, target.number, item, amount))
    if amount:
        t.emit(ev.Robbed(target.faction, target.number, item, amount))


def _assassinate(t: Turn, u: st.Unit, target: st.Unit, here: list[st.Unit]) -> None:
    both = [u, target]
    assassin, victim = (m.combatants(t, [x], both, here)[0] for x in both)
    result = duel(assassin, victim, terrain=terrain_of(t, u.cell),
                  dice=t.ctx.dice.sub("assassination", u.number), spells=m.spells(t),
                  options=m.options(t))
    m.settle(t, result, u.cell, "assassinated" if result.winner == ATTACKERS
             else "killed in an assassination attempt")
