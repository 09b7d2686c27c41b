"""[CLAN ORDERS]: the pre-turn and post-turn blocks, each order carried out in the order written.

The same orders serve both blocks ([PRE-TURN CLAN ORDERS PHASE], [POST-TURN CLAN ORDERS
PHASE]); what a city or hex conquered during the turn allows differs (no FORTIFY, ERECT,
CREATE or DEFEND there this turn), which the `conquered_turn` marks carry. ESPIONAGE and
SABOTAGE are espionage.py's (cc-cycle); EVENT is random_events.py's (cc-house: the house
table random_events.csv, X10, X200).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn import buildings, espionage, random_events
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.gifts import give, sell
from engine.rulesets.cc.turn.reshape import join_vehicles

NOT_BUILT: dict[str, str] = {}   # every clan order is built (cc-house: EVENT)


def carry_out(t: ClanTurn, order: o.ClanOrder) -> None:
    if order.keyword in NOT_BUILT:
        return t.not_built(order, NOT_BUILT[order.keyword])
    handler = HANDLERS.get(type(order))
    if handler is None:
        return t.fail(order, "not a clan order")
    handler(t, order)


def _cell(t: ClanTurn, text: str) -> int | None:
    try:
        return t.board.parse(text, "ccrr")
    except (ValueError, IndexError):
        return None


def _own_city(t: ClanTurn, order: o.CcOrder, hex_text: str, fresh_ok: bool = True) -> st.City | None:
    cell = _cell(t, hex_text)
    city = t.cities.get(cell) if cell is not None else None
    if city is None or city.owner != t.number:
        t.fail(order, f"you hold no city in {hex_text}")
        return None
    if not fresh_ok and city.conquered_turn == t.turn:
        t.fail(order, f"{city.name} was conquered this turn")
        return None
    return city


def create(t: ClanTurn, order: o.Create) -> None:
    city = _own_city(t, order, order.hex, fresh_ok=False)
    if city is None:
        return
    row = t.book.convoy_types.get(order.type)
    if row is None:
        return t.fail(order, f"{order.type!r} is no convoy type")
    why = _cannot_base(t, city, order.type)
    if why:
        return t.fail(order, why)
    held = sum(1 for c in t.ctx.state["convoys"] if c.owner == t.number)
    cost = costs.convoy_cost(t.book, held)
    if cost is None:
        return t.fail(order, f"you have {held} convoys, the most the cost table allows (X31)")
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed")
    cv = t.new_convoy(order.type, city.cell, order.name)
    cv.hidden = True
    for part in filter(None, row["start_vehicles"].split("|")):
        vid, _, n = part.partition(":")
        t.add_vehicles(cv, vid, int(n or 1))
    t.done(order, f"created {order.type} convoy #{cv.number} in {city.name}", cv.number, amount=cost)
    buildings.indoctrinate(t, cv, city)  # cc-cycle


def _cannot_base(t: ClanTurn, city: st.City, kind: str) -> str:
    """Why a `kind` convoy cannot be created (or CONVERTed to, X244) in `city`: military needs
    an Armory, air an Airport, sea a coast (a neighbouring water or island hex)."""
    need = t.book.convoy_types[kind]["needs_building"]
    if need and need not in t.buildings[city.cell]:
        return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} convoy needs a city with an {t.building_rows.get(need, {}).get('name', need)}"
    if kind == "sea" and not any(t.terrain(n).get("navigable") for n in t.board.neighbours(city.cell)):
        return f"{city.name} is not on a coast"
    return ""


def buy(t: ClanTurn, order: o.Buy) -> None:
    if order.quantity <= 0:
        return t.fail(order, "buy a positive quantity")
    if order.vehicle:
        cv = t.convoy(order.convoy)
        row = t.book.vehicles.get(order.vehicle)
        if cv is None or row is None:
            return t.fail(order, f"no convoy #{order.convoy} or no such vehicle")
        if row["convoy_type"] != cv.type:
            return t.fail(order, f"{row['plural'] or row['name']} serve {row['convoy_type']} convoys, "
                                 f"#{cv.number} is {cv.type}")
        cost = row["cost"] * order.quantity
        if not t.pay(cost):
            return t.fail(order, f"${cost:,} needed, ${t.clan.money:,} held")
        join_vehicles(t, cv, order.vehicle, order.quantity)
        return t.done(order, f"bought {order.quantity} {row['name'].lower()} for convoy #{cv.number}",
                      cv.number, amount=cost)
    cost = t.price(order.item) * order.quantity
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed, ${t.clan.money:,} held")
    t.put(order.item, order.quantity)
    t.done(order, f"bought {order.quantity} {order.item}", amount=cost)


def enlist(t: ClanTurn, order: o.Enlist) -> None:
    cost = t.price("troops") * order.quantity
    if order.quantity <= 0 or not t.pay(cost):
        return t.fail(order, f"${cost:,} needed to enlist {order.quantity}")
    t.clan.troops += order.quantity
    t.done(order, f"enlisted {order.quantity} troops", amount=cost)


def _station(t: ClanTurn, order: o.CcOrder, city: st.City, troops: int, claymores: int) -> None:
    """Troops and claymores to (or, negative, from) a city, cut to what is there (X91)."""
    cap = t.city_capacity(city)
    # X246 ([VIGILANCE]): a city taken this turn holds at most half its capacity until the next
    room = cap // 2 if city.conquered_turn == t.turn else cap
    # X240: a city over its capacity (a Barracks lost) takes no more, but a positive number
    # never withdraws what is there
    troops = max(-city.troops, min(troops, t.clan.troops, max(0, room - city.troops)))
    claymores = max(-city.claymores, min(claymores, t.clan.claymores, max(0, cap // 10 - city.claymores)))
    city.troops += troops
    t.clan.troops -= troops
    city.claymores += claymores
    t.clan.claymores -= claymores
    t.done(order, f"{city.name}: {city.troops} troops, {city.claymores} claymores (of {cap})")


def assign(t: ClanTurn, order: o.Assign) -> None:
    city = _own_city(t, order, order.hex, fresh_ok=not order.fortify)
    if city is None:
        return
    if order.fortify:
        row = t.book.fortifications.get(city.fortification, {})
        if not row.get("raise_cost"):
            return t.fail(order, f"{city.name} is at the highest fortification")
        if city.fortified_turn == t.turn:
            return t.fail(order, f"{city.name} was fortified already this turn")
        if not t.pay(row["raise_cost"]):
            return t.fail(order, f"${row['raise_cost']:,} needed")
        city.fortification += 1
        city.fortified_turn = t.turn
        t.done(order, f"{city.name} fortified to {t.book.fortifications[city.fortification]['name']}",
               amount=row["raise_cost"])
    if order.troops or order.claymores:
        _station(t, order, city, order.troops, order.claymores)


def erect(t: ClanTurn, order: o.Erect) -> None:
    city = _own_city(t, order, order.hex, fresh_ok=False)
    if city is None:
        return
    for code in order.buildings:
        if code in t.buildings[city.cell]:
            t.fail(order, f"{city.name} has a {code} already")
            continue
        cost = int(t.opts.building_cost)
        if not t.pay(cost):
            return t.fail(order, f"money ran out before {code}")
        t.ctx.state["buildings"].append(st.Building(city.cell, code))
        t.buildings[city.cell].add(code)
        t.done(order, f"erected: {t.building_rows.get(code, {}).get('name', code)} in {city.name}", amount=cost)


def _matching(t: ClanTurn, patterns: list[str]) -> list[st.Hex]:
    out: list[st.Hex] = []
    for p in patterns:
        rx = re.compile("^" + p.replace("*", r"\d") + "$")
        out += [h for h in t.hexes.values() if h.owner == t.number and rx.match(t.label(h.cell))
                and h not in out]
    return sorted(out, key=lambda h: h.cell)


def defend(t: ClanTurn, order: o.Defend) -> None:
    """DEFEND raises each owned, not newly taken hex one level a turn; both DEFEND and GARRISON
    move troops to (or from) the hex's guards, at most its defence level (E6, X90)."""
    hexes = _matching(t, order.hexes)
    if not hexes:
        return t.fail(order, "none of those hexes is yours")
    for h in hexes:
        where = t.label(h.cell)
        if order.raise_level:
            row = t.book.hex_defense.get(h.defense, {})
            if h.conquered_turn == t.turn:
                t.fail(order, f"{where} was conquered this turn")
            elif h.defended_turn == t.turn:
                t.fail(order, f"{where} was raised already this turn")
            elif not row.get("raise_cost"):
                t.fail(order, f"{where} is at the highest defence level")
            elif not t.pay(row["raise_cost"]):
                t.fail(order, f"${row['raise_cost']:,} needed for {where}")
            else:
                h.defense += 1
                h.defended_turn = t.turn
                t.done(order, f"{where} defence raised to {t.book.hex_defense[h.defense]['name']}",
                       amount=row["raise_cost"])
        if order.troops and h.conquered_turn == t.turn:  # E7, X49: no guards the turn it is taken
            t.fail(order, f"{where} was conquered this turn: no guards until the next")
        elif order.troops:
            n = max(-h.troops, min(order.troops, t.clan.troops, max(0, h.defense - h.troops)))
            h.troops += n
            t.clan.troops -= n
            t.done(order, f"{where} guarded by {h.troops} troops")


def build(t: ClanTurn, order: o.Build) -> None:
    cell = _cell(t, order.hex)
    h = t.hexes.get(cell) if cell is not None else None
    row = t.custom.get(order.structure)
    if h is None or h.owner != t.number:
        return t.fail(order, f"{order.hex} is not your hex")
    if row is None or t.gmap.terrain_at(h.cell) not in row["terrains"].split("|"):
        return t.fail(order, f"a {order.structure} cannot stand on {t.gmap.terrain_at(h.cell)}")
    if h.custom:
        return t.fail(order, f"{order.hex} has a {h.custom} already")
    cost = int(t.opts.custom_structure_cost)
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed")
    h.custom = order.structure
    t.done(order, f"built a {row['name']} in {order.hex}", amount=cost)


def train(t: ClanTurn, order: o.Train) -> None:
    for _ in range(order.quantity):
        cost = costs.agent_cost(t.book, t.clan.agents)
        if not t.pay(cost):
            return t.fail(order, f"${cost:,} needed for the next agent")
        t.clan.agents += 1
        t.done(order, f"trained agent {t.clan.agents}", amount=cost)


def vigilance(t: ClanTurn, order: o.Vigilance) -> None:
    t.clan.vigilance = max(0, min(order.percent, int(t.opts.vigilance_max)))
    t.done(order, f"vigilance {t.clan.vigilance}%")


def order_lines(t: ClanTurn, order: o.BuyLines) -> None:
    lines = order.pre + order.post
    cost = lines * int(t.opts.order_line_cost)
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed")
    t.clan.extra_pre, t.clan.extra_post = order.pre, order.post
    t.done(order, f"{order.pre} pre-turn and {order.post} post-turn lines more next turn", amount=cost)


def gamble(t: ClanTurn, order: o.HexOrder) -> None:
    cell = _cell(t, order.hex)
    h = t.hexes.get(cell) if cell is not None else None
    if h is None or h.owner != t.number or h.special != "CAS":
        return t.fail(order, f"you hold no casino in {order.hex}")
    if not t.mark("gamble", 0, h.cell):
        return t.fail(order, "you gambled at this casino already this turn")
    stake = int(t.opts.gamble_stake)
    if not t.pay(stake):
        return t.fail(order, f"${stake:,} needed")
    roll = t.dice.d(100, "casino")
    row = next(r for r in t.ctx.catalogs["gamble"] if r["roll_from"] <= roll <= r["roll_to"])
    t.clan.money += row["returned"]
    lost = min(row["extra_loss"], t.clan.money)
    t.clan.money -= lost
    back = row["returned"] - lost
    if row["casino_lost"]:
        h.special = ""
    t.done(order, f"gambled: {row['result']}", amount=stake - back)


def _relation(t: ClanTurn, other: int) -> st.Relation:
    rel = t.relations.get((t.number, other))
    if rel is None:
        rel = t.relations[(t.number, other)] = st.Relation(t.number, other)
        t.ctx.state["relations"].append(rel)
    return rel


def toward(t: ClanTurn, order: o.Toward) -> None:
    if order.all or (order.keyword == "BAN" and t.clan.ban_all):
        # X245: BAN ALL bans each clan in the game one by one, so a later BAN lifts one ban
        # (the book's only way back); a `ban_all` flag from an older state is spread out first
        for other in sorted(c for c in t.clans if c != t.number):
            _relation(t, other).ban = True
        t.clan.ban_all = False
        if order.all:
            return t.done(order, "every clan banned from your cities")
    rel = _relation(t, order.clan)
    if order.keyword == "ALLY":
        rel.ally = not rel.ally
        t.done(order, f"clan {order.clan} is {'now' if rel.ally else 'no longer'} your ally")
    else:
        rel.ban = not rel.ban
        t.done(order, f"clan {order.clan} is {'now' if rel.ban else 'no longer'} banned")


def message(t: ClanTurn, order: o.Message) -> None:
    # X241: only a message to ALL is marked public with ">" (a BROADCAST is signed "N>")
    text = (f"{t.number}>{order.message}" if order.signed
            else f">{order.message}" if order.to_all else order.message)
    if order.to_all:
        to = sorted(c for c in t.clans if c != t.number)
    elif order.to_clan is not None:
        to = [order.to_clan] if order.to_clan in t.clans else []
    else:  # X82: a hex's owner and its city's owner
        cell = _cell(t, order.to_hex)
        to = sorted({x.owner for x in (t.hexes.get(cell), t.cities.get(cell)) if x is not None and x.owner})
    for c in to:
        t.tell(c, "message", -1, text)
    t.done(order, f"message sent to {len(to)} clan(s)")


def name(t: ClanTurn, order: o.Name) -> None:
    if order.convoy is None:
        t.clan.name = order.name
        return t.done(order, f"the clan is now {order.name}")
    cv = t.convoy(order.convoy)
    if cv is None:
        return t.fail(order, f"you have no convoy #{order.convoy}")
    cv.name = order.name
    t.done(order, f"convoy #{cv.number} is now {order.name}", cv.number)


def phone(t: ClanTurn, order: o.Phone) -> None:
    t.clan.phone_on = order.on
    if order.number:
        t.clan.phone = order.number
    t.done(order, "phone number shown" if order.on else "phone number hidden")


def slogan(t: ClanTurn, order: o.Slogan) -> None:
    t.clan.slogan = order.slogan
    t.done(order, "slogan set")


def convert(t: ClanTurn, order: o.Convert) -> None:
    """CONVERT in an owned city: vehicles sold, one scout of the new type bought, experts kept
    (X86), troops and weapons to the stock, cargo lost."""
    cv = t.convoy(order.convoy)
    if cv is None:
        return t.fail(order, f"you have no convoy #{order.convoy}")
    city = t.cities.get(cv.cell)
    if city is None or city.owner != t.number:
        return t.fail(order, "the convoy must be in a city you hold")
    scout = next((v for v, r in t.book.vehicles.items()
                  if r["convoy_type"] == order.type and r["class"] == "fast_scout"), None)
    if scout is None:
        return t.fail(order, f"{order.type!r} is no convoy type")
    why = _cannot_base(t, city, order.type)
    if why:
        return t.fail(order, why)
    back = sum(t.book.vehicles[v]["cost"] * n for v, n in t.fleet(cv).items()) * int(t.opts.sell_pct) // 100
    t.clan.money += back
    if not t.pay(t.book.vehicles[scout]["cost"]):
        t.clan.money -= back
        return t.fail(order, "not enough money for the new scout")
    for vid, n in t.fleet(cv).items():
        t.add_vehicles(cv, vid, -n)
    t.add_vehicles(cv, scout, 1)
    for item in ("troops", "rifles", "grenades", "rockets", "bombs"):
        setattr(t.clan, item, getattr(t.clan, item) + getattr(cv, item))
        setattr(cv, item, 0)
    cv.type, cv.cargo, cv.cargo_type = order.type, 0, ""
    if order.name:
        cv.name = order.name
    t.done(order, f"convoy #{cv.number} is now a {order.type} convoy", cv.number)


HANDLERS: dict[type, Callable[[ClanTurn, o.CcOrder], None]] = {
    o.Create: create, o.Buy: buy, o.Enlist: enlist, o.Assign: assign, o.Erect: erect,
    o.Defend: defend, o.Build: build, o.Train: train, o.Vigilance: vigilance,
    o.BuyLines: order_lines, o.Toward: toward, o.Message: message, o.Name: name,
    o.Phone: phone, o.Slogan: slogan, o.Convert: convert, o.Sell: sell, o.Give: give,
    o.Espionage: espionage.espionage,  # cc-cycle
    o.Event: random_events.event_order,  # cc-house
}


def _hex_order(t: ClanTurn, order: o.HexOrder) -> None:
    if order.keyword == "GAMBLE":
        return gamble(t, order)
    if order.keyword == "SABOTAGE":
        return espionage.sabotage(t, order)  # cc-cycle
    t.not_built(order, NOT_BUILT.get(order.keyword, order.keyword))


HANDLERS[o.HexOrder] = _hex_order
