"""SELL and GIVE: things leaving the clan for money, or passing between two of its convoys.

SELL returns `sell_pct` (50%) of the price (X63): supplies from the stock, vehicles from a
convoy, or a whole convoy (its troops and weapons back to the stock, its experts lost). GIVE
moves troops, weapons, cargo, vehicles (between convoys of one type, X84) or experts between
two convoys in one hex, as much as the receiver can carry.
"""

from __future__ import annotations

from engine.rulesets.cc import orders as o
from engine.rulesets.cc.turn.clan_turn import WEAPONS, ClanTurn
from engine.rulesets.cc.turn.reshape import join_vehicles


def sell(t: ClanTurn, order: o.Sell) -> None:
    pct = int(t.opts.sell_pct)
    if order.whole_convoy or order.vehicle:
        cv = t.convoy(order.convoy)
        if cv is None:
            return t.fail(order, f"you have no convoy #{order.convoy}")
        fleet = t.fleet(cv)
        if order.whole_convoy:
            got = sum(t.book.vehicles[v]["cost"] * n for v, n in fleet.items()) * pct // 100
            for item in ("troops", *WEAPONS):
                setattr(t.clan, item, getattr(t.clan, item) + getattr(cv, item))
            t.clan.money += got
            t.remove_convoy(cv, "sold")
            return t.done(order, f"sold convoy #{cv.number} for ${got:,}", cv.number, amount=-got)
        n = min(order.quantity, fleet.get(order.vehicle, 0))
        if n <= 0:
            return t.fail(order, f"convoy #{cv.number} has no {order.vehicle}", cv.number)
        got = t.book.vehicles[order.vehicle]["cost"] * n * pct // 100
        t.add_vehicles(cv, order.vehicle, -n)
        t.clan.money += got
        t.done(order, f"sold {n} {order.vehicle} of convoy #{cv.number} for ${got:,}", cv.number, amount=-got)
        if not t.fleet(cv):  # [DESTROYING CONVOYS]: no vehicles, no convoy
            t.remove_convoy(cv, "it has no vehicles left")
        return
    if order.item == "troops" or not t.book.supplies.get(order.item, {}).get("sellable", False):
        return t.fail(order, f"{order.item} cannot be sold")
    n = min(order.quantity, t.stock(order.item))
    if n <= 0:
        return t.fail(order, f"you have no {order.item}")
    got = t.price(order.item) * n * pct // 100
    t.put(order.item, -n)
    t.clan.money += got
    t.done(order, f"sold {n} {order.item} for ${got:,}", amount=-got)


def give(t: ClanTurn, order: o.Give) -> None:
    a, b = t.convoy(order.giver), t.convoy(order.receiver)
    if a is None or b is None or a is b:
        return t.fail(order, f"GIVE needs two of your convoys (#{order.giver}, #{order.receiver})")
    if a.cell != b.cell:
        return t.fail(order, f"convoys #{a.number} and #{b.number} are not in one hex")
    if order.all_experts or order.expert:
        have = t.experts(b)
        moved = []
        for e in t.expert_rows(a):
            if (order.all_experts or e.code == order.expert) and e.code not in have:
                t.move_expert(e, b)
                have.add(e.code)
                moved.append(e.code)
        if not moved:
            return t.fail(order, "no expert could pass (none there, or the receiver has one)")
        return t.done(order, f"{', '.join(moved)} to convoy #{b.number}", a.number)
    if order.vehicle:
        if a.type != b.type:
            return t.fail(order, f"#{a.number} is {a.type} and #{b.number} {b.type}")
        n = min(order.quantity, t.fleet(a).get(order.vehicle, 0))
        if n <= 0:
            return t.fail(order, f"convoy #{a.number} has no {order.vehicle}")
        t.add_vehicles(a, order.vehicle, -n)
        join_vehicles(t, b, order.vehicle, n)
        t.done(order, f"{n} {order.vehicle} to convoy #{b.number}", a.number)
        if not t.fleet(a):
            t.remove_convoy(a, "it has no vehicles left")
        return
    if order.item == "cargo":
        if b.cargo and b.cargo_type != a.cargo_type:
            return t.fail(order, f"convoy #{b.number} carries another cargo")
        # X249: a receiver already over its room (a Merchant or vehicles gone) takes nothing
        n = max(0, min(order.quantity, a.cargo, t.cargo_cap(b) - b.cargo))
        if n <= 0:
            return t.fail(order, f"convoy #{b.number} has no room for cargo")
        a.cargo -= n
        b.cargo, b.cargo_type = b.cargo + n, a.cargo_type
        if not a.cargo:
            a.cargo_type = ""
        return t.done(order, f"{n} {b.cargo_type} to convoy #{b.number}", a.number)
    room = t.troop_cap(b) - b.troops if order.item == "troops" else t.weapon_caps(b)[order.item] - getattr(b, order.item)
    if b.mode == "empty":
        room = 0
    n = max(0, min(order.quantity, getattr(a, order.item), room))
    if n <= 0:
        return t.fail(order, f"convoy #{b.number} cannot take any {order.item}")
    setattr(a, order.item, getattr(a, order.item) - n)
    setattr(b, order.item, getattr(b, order.item) + n)
    t.done(order, f"{n} {order.item} to convoy #{b.number}", a.number)
