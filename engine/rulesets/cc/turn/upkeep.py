"""[PRE-TURN PICKUP/HEALING PHASE] and [POST-TURN MAINTENANCE PHASE].

Pick-up: every convoy in a friendly city boards troops and weapons, after the Plague's
healing (plague.py: vaccine spent in proportion to health lost and size).

Maintenance, convoy by convoy in number order: the parts owed for the turn's moves are paid;
short of parts, vehicles of that convoy are scrapped smallest first (X40) for their scrap
parts (twice with a Tinkerer) until the bill is met, any surplus going to the stock; a convoy
left without vehicles disbands. Then morale decays and the experts drill (drill.py), morale
above 100 is cut back, a convoy whose morale
stayed at zero a whole turn disbands, air convoys left on water sink, Recruiting Centers and
Helipads do their work, and the clan's turn is counted.
"""

from __future__ import annotations

import math

from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn import plague
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.drill import drill
from engine.rulesets.cc.turn.movement import pick_up


def pick_up_and_heal(t: ClanTurn, pulse: int) -> None:
    plague.heal(t, pulse)  # cc-cycle: vaccine first, so a healed convoy may board troops
    for cv in t.convoys():
        pick_up(t, cv, pulse)


def pay_parts(t: ClanTurn, cv: st.Convoy) -> None:
    owed = math.ceil(cv.parts_owed_tenths / 10)
    cv.parts_owed_tenths = 0
    scrapped: list[str] = []
    if owed and not t.take("parts", owed, cv):
        per = 2 if "TIN" in t.experts(cv) else 1
        while t.clan.parts < owed and t.fleet(cv):
            fleet = t.fleet(cv)
            vid = min(fleet, key=lambda v: (t.book.vehicles[v]["size"], t.book.vehicles[v]["cost"], v))
            t.add_vehicles(cv, vid, -1)
            t.clan.parts += t.book.vehicles[vid]["scrap_parts"] * per
            scrapped.append(vid)
        owed = min(owed, t.clan.parts)
        t.clan.parts -= owed
    t.emit(ev.Maintained(t.number, cv.number, owed, tuple(scrapped)))
    if not t.fleet(cv):
        t.remove_convoy(cv, "its last vehicle was scrapped for parts")


def maintenance(t: ClanTurn) -> None:
    pick_up_and_heal(t, -1)
    for cv in t.convoys():
        pay_parts(t, cv)
    for cv in t.convoys():
        if cv.type == "air" and not t.terrain(cv.cell).get("ownable"):
            t.remove_convoy(cv, f"it was left on the water at {t.label(cv.cell)} and sank")
            continue
        drill(t, cv)  # cc-house: morale's decay, Trainer, Sergeant, Armsmaster (X206-X208)
        cv.morale = min(cv.morale, 100)
        cv.zero_morale_turns = cv.zero_morale_turns + 1 if cv.morale <= 0 else 0
        if cv.zero_morale_turns >= 2:  # zero at the start and at the end: a whole turn
            t.remove_convoy(cv, "its morale stayed at zero for a whole turn")
            continue
        cv.moves_used = 0
    city_buildings(t)
    news(t)
    t.clan.turns_run += 1
    t.world.step_in_turn += 1


def city_buildings(t: ClanTurn) -> None:
    """End of the turn in the clan's cities: a Recruiting Center enlists a free troop per 5,000
    people into the stock, then a Helipad tops its garrison up from the stock."""
    for city in sorted(t.cities.values(), key=lambda c: c.cell):
        if city.owner != t.number or city.conquered_turn == t.turn:
            continue  # cc-cycle (D23): buildings of a city taken this turn work from the next
        here = t.buildings[city.cell]
        if "REC" in here:
            n = city.population // 5000
            t.clan.troops += n
            t.emit(ev.OrderDone(t.number, "RECRUITING CENTER", 0, -1, 0,
                                f"{n} recruits joined in {city.name}"))
        if "HEL" in here:
            n = max(0, min(t.city_capacity(city) - city.troops, t.clan.troops))
            if n:
                city.troops += n
                t.clan.troops -= n
                t.emit(ev.OrderDone(t.number, "HELIPAD", 0, -1, 0,
                                    f"{n} troops flown into {city.name}"))


def news(t: ClanTurn) -> None:
    """The clan's undelivered inbox (with the GM's news for its turn), heard now and marked
    delivered."""
    from engine.rulesets.cc.turn.radio import gm_news

    gm_news(t)
    items = [m for m in t.ctx.state["inbox"] if m.clan == t.number and not m.delivered]
    for m in items:
        m.delivered = True
    if items:
        items.sort(key=lambda m: m.seq)
        t.emit(ev.News(t.number, tuple((m.kind, m.cell, m.text) for m in items)))
