"""Goods as cargo ([POPULATION › Goods], PICKUP, DROPOFF, DUMP): a convoy loads the product of
a friendly city (any city with a Merchant), carries one kind at a time, and sells it where
it is needed at the free-market price; a foreign owner of that city is paid a kickback of 10%
(20% with a Marketplace) on top by the game (X59), and when the clan owns the city it gets
the kickback itself.
"""

from __future__ import annotations

from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn.clan_turn import ClanTurn


def _city(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int, quiet: bool = False) -> st.City | None:
    city = t.cities.get(cv.cell)
    if city is None:
        if not quiet:
            t.fail(order, f"there is no city in {t.label(cv.cell)}", cv.number, pulse)
        return None
    if cv.hidden:
        if not quiet:
            t.fail(order, "the convoy is hiding", cv.number, pulse)
        return None
    if t.friendly_city(cv.cell) is None and "MER" not in t.experts(cv):
        if not quiet:
            t.fail(order, f"{city.name} is hostile to you or bans you (a Merchant could trade)",
                   cv.number, pulse)
        return None
    return city


def pickup(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    city = _city(t, cv, order, pulse)
    if city is None:
        return
    if cv.cargo and cv.cargo_type != city.produces:
        return t.fail(order, f"the convoy carries {cv.cargo_type}; it takes one kind of cargo at a time",
                      cv.number, pulse)
    room = t.cargo_cap(cv) - cv.cargo
    if room <= 0:
        return t.fail(order, "the convoy has no room for cargo", cv.number, pulse)
    cv.cargo_type, cv.cargo = city.produces, cv.cargo + room
    t.done(order, f"loaded {room} {city.produces} in {city.name}", cv.number, pulse)


def dropoff(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int, quiet: bool = False) -> None:
    city = _city(t, cv, order, pulse, quiet)
    if city is None:
        return
    if not cv.cargo:
        if not quiet:
            t.fail(order, "the convoy carries no cargo", cv.number, pulse)
        return
    wanted = cv.cargo_type == city.needs or (city.needs == "anything" and cv.cargo_type != city.produces)
    if not wanted:
        if not quiet:
            t.fail(order, f"{city.name} does not need {cv.cargo_type}", cv.number, pulse)
        return
    sale = cv.cargo * t.price(cv.cargo_type)
    pct = int(t.opts.kickback_marketplace_pct if "MAR" in t.buildings[city.cell] else t.opts.kickback_pct)
    kick = sale * pct // 100
    t.clan.money += sale
    detail = f"sold {cv.cargo} {cv.cargo_type} in {city.name} for ${sale:,}"
    if city.owner == t.number:
        t.clan.money += kick
        detail += f" and kept the owner's ${kick:,}"
    elif city.owner and city.owner in t.clans:
        t.clans[city.owner].money += kick
        t.tell(city.owner, "kickback", city.cell,
               f"clan {t.number} sold cargo in {city.name}: your kickback ${kick:,}")
    cv.cargo, cv.cargo_type = 0, ""
    t.done(order, detail, cv.number, pulse, -sale)


def dump(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    if not cv.cargo:
        return t.fail(order, "the convoy carries no cargo", cv.number, pulse)
    t.done(order, f"threw away {cv.cargo} {cv.cargo_type}", cv.number, pulse)
    cv.cargo, cv.cargo_type = 0, ""
