"""[COMBAT] in the player turn: the combat package's pure calls (engine/rulesets/cc/combat/)
applied to the state.

- Entering a hex with enemy convoys ([COMBAT AGAINST CONVOYS]): `fight_through` with the
  clans' spare parts for the repairs; the outcome (vehicles, troops, rockets, hidden, morale,
  training) is written back on every convoy that fought, destroyed convoys are removed and
  reported to their own clan, and an entrant that did not clear the hex stops for the turn.
- HUNT: the same fight, hidden convoys included; once a turn (military convoys once a hex).
- ATTACK ([INVADING A CITY]): `invade_city` against the garrison and the guarding convoys;
  the people killed take the city's value down with them (`shrink`, X189).
- Every convoy battle and city attack goes out on the radio ([RADIO REPORTS], radio.py):
  clans by number, never convoy ids (those would tell how many convoys the game has had).
- Every combat event is logged with the `names` of its convoys (`named`: "convoy #2 of clan
  7"), so the reports' sentences never name a convoy by its id.
"""

from __future__ import annotations

from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.combat import (
    CityDefence,
    CombatConvoy,
    CombatRules,
    Invader,
    fight_through,
    invade_city,
)
from engine.rulesets.cc.combat.events import CityInvaded, ConvoyBattleEnded, named
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn import radio
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.income import city_value


def combat_rules(t: ClanTurn) -> CombatRules:
    return CombatRules.from_options(t.opts)


def _side(t: ClanTurn, cv: st.Convoy, hunting: bool = False) -> CombatConvoy:
    water = cv.type == "amphibious" and t.gmap.terrain_at(cv.cell) == "water"   # X25
    return CombatConvoy.from_state(t.book, cv, t.vehicle_rows(cv), t.experts(cv), t.turn,
                                   hunting=hunting, in_water=water)


def enemies_here(t: ClanTurn, cv: st.Convoy) -> list[st.Convoy]:
    """Other clans' convoys in the hex, allies excepted, hidden ones included (fight_through
    leaves them out unless the convoy hunts)."""
    return list(t.others_here(cv.cell, hidden=True))


def fight(t: ClanTurn, cv: st.Convoy, hunting: bool = False) -> bool:
    """The convoy attacks the enemy convoys in its hex; True if it cleared the hex."""
    rows = {c.id: c for c in enemies_here(t, cv)}
    rows[cv.id] = cv
    sides = [_side(t, c) for c in rows.values() if c.id != cv.id]
    parts = {c.owner: t.clans[c.owner].parts for c in rows.values() if c.owner in t.clans}
    hb = fight_through(_side(t, cv, hunting), sides, t.dice, combat_rules(t), cv.cell, parts)
    names = {c.id: (c.owner, c.number) for c in rows.values()}
    for e in hb.events:
        t.emit(named(e, names))
        if isinstance(e, ConvoyBattleEnded):
            _broadcast_battle(t, e)
    for cid, after in hb.after.items():
        row = rows[cid]
        if after.wiped_out:
            t.remove_convoy(row, "destroyed in battle")
            continue
        for vtype, n in after.write_to(row, t.vehicle_rows(row)).items():
            t.add_vehicles(row, vtype, n)
    for clan, n in parts.items():
        t.clans[clan].parts = n
    return hb.cleared and cv.id not in t.stopped


def hunt(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """HUNT: attack the enemy convoys here, hidden ones too, for the hex's entry fuel (no road
    or river bonus); once a turn, a military convoy once a hex (the checker refuses a second
    HUNT of others); amphibious convoys not in mountains or wilderness."""
    # movement imports this module, so its entry cost is looked up when a HUNT runs
    from engine.rulesets.cc.turn.movement import entry_cost

    if cv.type == "amphibious" and t.terrain(cv.cell).get("amphib_link_only"):
        return t.fail(order, "amphibious convoys cannot hunt in mountains or wilderness", cv.number, pulse)
    once = cv.cell if cv.type == "military" else -1
    if ("hunt", cv.id, once) in t.marks:
        return t.fail(order, "the convoy hunted already this turn" + (" in this hex" if once >= 0 else ""),
                      cv.number, pulse)
    fuel = entry_cost(t, cv, cv.cell, cv.cell)[0]
    if not t.take("fuel", fuel, cv):
        return t.fail(order, f"not enough fuel to hunt ({fuel} needed)", cv.number, pulse)
    t.mark("hunt", cv.id, once)
    if not enemies_here(t, cv):
        return t.done(order, f"hunted in {t.label(cv.cell)} for {fuel} fuel and found nobody",
                      cv.number, pulse)
    t.done(order, f"hunts in {t.label(cv.cell)} for {fuel} fuel", cv.number, pulse)
    if not fight(t, cv, hunting=True):
        t.stopped.add(cv.id)


def attack(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """ATTACK [troops]: invade the city in the hex ([INVADING A CITY])."""
    city = t.cities.get(cv.cell)
    if city is None:
        return t.fail(order, "there is no city here to attack", cv.number, pulse)
    if city.owner == t.number:
        return t.fail(order, f"{city.name} is yours", cv.number, pulse)
    if city.owner and t.ally(city.owner):
        return t.fail(order, f"{city.name} belongs to an ally", cv.number, pulse)
    if cv.troops <= 0:
        return t.fail(order, "the convoy has no troops to attack with", cv.number, pulse)
    troops = order.amount if getattr(order, "amount", 0) else None
    inv = Invader.from_state(cv, t.experts(cv), t.turn, troops, t.clan.vigilance)
    # any clan's convoys guarding the city defend it, and die first
    guards = [c for c in t.ctx.state["convoys"]
              if c.cell == cv.cell and c.guarding and c.owner != t.number]
    defence = CityDefence(cv.cell, city.owner, city.fortification, city.troops, city.population,
                          city.claymores, "SHE" in t.buildings[city.cell], t.city_capacity(city),
                          [(g.id, g.troops) for g in guards])
    r = invade_city(t.book, inv, defence, t.dice, combat_rules(t))
    names = {c.id: (c.owner, c.number) for c in [cv, *guards]}
    for e in r.events:
        t.emit(named(e, names))
        if isinstance(e, CityInvaded):
            outcome = "took it" if e.captured else "was thrown back"
            held = f", held by clan {e.defender}," if e.defender else ""
            radio.broadcast(t, "city attack", e.cell,
                            f"Clan {e.attacker} attacked {city.name} ({t.label(e.cell)}){held} "
                            f"and {outcome} {_after(e.rounds)}.",
                            involved=(e.defender,) if e.defender else ())
    cv.troops += r.attackers_back - inv.troops
    cv.rifles, cv.grenades, cv.morale, cv.training = r.rifles, r.grenades, r.morale, r.training
    for g in guards:
        g.troops -= r.guards_lost.get(g.id, 0)
    city.troops, city.claymores = r.city_troops, r.claymores
    shrink(t, city, r.population)
    previous = city.owner
    if r.captured:
        city.owner, city.conquered_turn = t.number, t.turn
        for g in guards:
            g.guarding = False
        # a city hostile to a clan stays so "until it changes hands"
        t.hostile = {(c, k) for c, k in t.hostile if c != city.cell}
        t.ctx.state["hostile"][:] = [h for h in t.ctx.state["hostile"] if h.cell != city.cell]
        if previous:
            t.tell(previous, "city lost", city.cell, f"clan {t.number} conquered {city.name}")
    elif r.hostile and (city.cell, t.number) not in t.hostile:
        t.hostile.add((city.cell, t.number))
        t.ctx.state["hostile"].append(st.Hostile(city.cell, t.number))
    t.emit(ev.OrderDone(t.number, order.keyword, cv.number, pulse, order.line,
                        f"{city.name} {'taken' if r.captured else 'held'}"))


def shrink(t: ClanTurn, city: st.City, population: int) -> None:
    """The city's people after a battle, bombs or a razing; its dollar value follows below the
    normal band, as it does with growth and the Plague (X61, X189, X243). Cities are never
    destroyed: the combat rules keep `min_population`."""
    if population < city.population:
        city.value = city_value(t.ctx.catalogs, city, population)
    city.population = population


def _broadcast_battle(t: ClanTurn, e: ConvoyBattleEnded) -> None:
    """A convoy battle on the radio: who fought where, how long, how it ended."""
    if e.winner == 0:
        outcome = "neither side won"
    else:
        outcome = f"clan {e.attacker if e.winner == e.convoy else e.defender} won"
    n = len(e.destroyed)
    lost = f"; {n} convoy{'s' if n != 1 else ''} destroyed" if n else ""
    radio.broadcast(t, "battle", e.cell,
                    f"Convoys of clan {e.attacker} and clan {e.defender} fought in "
                    f"{t.label(e.cell)}: {outcome} {_after(e.rounds)}{lost}.",
                    involved=(e.attacker, e.defender))


def _after(rounds: int) -> str:
    return "without a fight" if rounds == 0 else f"after {rounds} round{'s' if rounds != 1 else ''}"
