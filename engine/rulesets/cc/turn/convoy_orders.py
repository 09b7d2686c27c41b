"""[CONVOY ORDERS]: what each of the 27 orders does in its pulse.

Orders that need a part of the book not built yet stop the convoy for the rest of the turn
with a `cc.not_built` event naming the order and what it needs (docs/continental.md lists
them; NOT_BUILT, empty now). LOOT is loot.py's (the loot table, X203).
ATTACK and HUNT are turn/battles.py's, BOMB and RAZE turn/strikes.py's; a PATROL's ambush is
fought when another clan's convoy enters the hex (in that clan's turn).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.combat import hidden_refusal
from engine.rulesets.cc.turn import (
    battles,
    cargo,
    espionage,
    loot,
    movement,
    plague,
    reshape,
    strikes,
)
from engine.rulesets.cc.turn.clan_turn import WEAPONS, ClanTurn

Handler = Callable[[ClanTurn, st.Convoy, o.ConvoyOrder, int], None]

NOT_BUILT: dict[str, str] = {}


def carry_out(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    if order.keyword in NOT_BUILT:
        t.not_built(order, NOT_BUILT[order.keyword], cv.number, pulse)
        t.stopped.add(cv.id)
        return
    hiding = hidden_refusal(t.book, order.keyword, cv.hidden)   # [HIDING], X87: the catalog says
    if hiding:
        return t.fail(order, hiding, cv.number, pulse)
    if isinstance(order, o.Move):
        return movement.move(t, cv, order, pulse)
    handler = HANDLERS.get(order.keyword)
    if handler is None:
        return t.fail(order, "not a convoy order", cv.number, pulse)
    handler(t, cv, order, pulse)


def _mode(mode: str) -> Handler:
    def run(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
        if mode == "empty" and cv.mode != "empty":
            # X65: troops and weapons go back to the clan's stock
            for item in ("troops", *WEAPONS):
                setattr(t.clan, item, getattr(t.clan, item) + getattr(cv, item))
                setattr(cv, item, 0)
        cv.mode = mode
        t.done(order, f"now in {mode} mode", cv.number, pulse)
    return run


def guard(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    city = t.friendly_city(cv.cell)
    if city is None:
        return t.fail(order, "there is no friendly city here to guard", cv.number, pulse)
    cv.guarding, cv.patrolling = True, False
    t.mark("guard", cv.id)
    t.done(order, f"guards {city.name}", cv.number, pulse)


def patrol(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    if cv.guarding:
        return t.fail(order, "a convoy guarding a city cannot patrol", cv.number, pulse)
    if cv.type == "amphibious" and t.terrain(cv.cell).get("amphib_link_only"):
        return t.fail(order, "amphibious convoys cannot patrol mountains or wilderness", cv.number, pulse)
    fuel = 0 if cv.type == "military" else 4 * cs.fuel_rate(t.book, t.fleet(cv), t.experts(cv))
    if not t.take("fuel", fuel, cv):
        return t.fail(order, f"not enough fuel to patrol ({fuel} needed)", cv.number, pulse)
    cv.patrolling = True
    # the ambush: an enemy entering the hex must fight it at least a round (turn/battles.py)
    t.done(order, f"patrols {t.label(cv.cell)} for {fuel} fuel", cv.number, pulse)


def fish(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    h = t.hexes.get(cv.cell)
    if cv.type != "sea":
        return t.fail(order, "only sea convoys fish", cv.number, pulse)
    if h is None or h.special != "FIS":
        return t.fail(order, "there is no fishery here", cv.number, pulse)
    if cv.mode == "recon":
        return t.fail(order, "a convoy in recon mode does not fish", cv.number, pulse)
    if not t.mark("fish", 0, cv.cell):
        return t.fail(order, "this fishery was fished already this turn", cv.number, pulse)
    food = costs.fish_food(t.book, t.size(cv), t.experts(cv))
    t.put("food", food)
    t.done(order, f"caught {food} food", cv.number, pulse)


def hire(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    city, h = t.cities.get(cv.cell), t.hexes.get(cv.cell)
    anything = (city is not None and city.major and city.owner == t.number) or (
        h is not None and h.special == "UNI" and h.owner == t.number)
    if city is not None and t.friendly_city(cv.cell) is None and not anything:
        return t.fail(order, f"{city.name} is hostile to you or bans you", cv.number, pulse)
    code = order.word or (city.guild if city is not None else "")
    if not code:
        return t.fail(order, "name the expert to hire here (HIRE ENG)", cv.number, pulse)
    if not anything and (city is None or not city.guild or code != city.guild):
        what = f"{city.name}'s guild" if city is not None and city.guild else "no guild here"
        return t.fail(order, f"{code or 'that expert'} cannot be hired here ({what})", cv.number, pulse)
    row = t.book.experts.get(code)
    if row is None:
        return t.fail(order, f"{code!r} is no expert", cv.number, pulse)
    if row["air_only"] and cv.type != "air":
        return t.fail(order, f"{_a(row['name'])} serves air convoys only", cv.number, pulse)
    if code in t.experts(cv):
        return t.fail(order, f"the convoy has {_a(row['name'])} already", cv.number, pulse)
    cost = int(t.opts.expert_cost)
    if not t.pay(cost):
        return t.fail(order, f"${cost:,} needed", cv.number, pulse)
    t.add_expert(cv, code)
    t.done(order, f"hired {_a(row['name'])}", cv.number, pulse, cost)


def _a(name: str) -> str:
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"


def _full(t: ClanTurn, cv: st.Convoy) -> bool:
    return cv.troops >= t.troop_cap(cv) > 0


def celebrate(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    h = t.hexes.get(cv.cell)
    city = t.friendly_city(cv.cell)
    rec = h is not None and h.special == "REC" and h.owner == t.number
    why = ("the convoy is not full of troops" if not _full(t, cv) else
           "no friendly city or owned Rec Center here" if city is None and not rec else
           "morale is 100 already" if cv.morale >= 100 else
           "the convoy celebrated already this turn" if ("celebrate", cv.id, -1) in t.marks else "")
    if why:
        return t.fail(order, why, cv.number, pulse)
    if not t.take("food", cv.troops):
        return t.fail(order, f"{cv.troops} food needed to feed the party", cv.number, pulse)
    t.mark("celebrate", cv.id)
    gain = t.roll(10, 15, "celebration")
    if city is not None and city.owner == t.number and city.conquered_turn == t.turn:
        gain += t.roll(10, 15, "celebrating a conquest")
    gain = t.morale_gain(cv, gain)   # cc-house: a Gourmet's greater results (X251)
    cv.morale += gain
    t.done(order, f"celebrated: morale +{gain} for {cv.troops} food", cv.number, pulse)


def practice(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    h = t.hexes.get(cv.cell)
    police = h is not None and h.special == "POL" and h.owner == t.number
    why = ("the convoy has no Trainer" if "TRA" not in t.experts(cv) else
           "the convoy is not full of troops" if not _full(t, cv) else
           "no friendly city or owned Police Station here" if t.friendly_city(cv.cell) is None and not police else
           "training is 100 already" if cv.training >= 100 else
           "the convoy practised already this turn" if ("practice", cv.id, -1) in t.marks else "")
    if why:
        return t.fail(order, why, cv.number, pulse)
    fuel = 5 * cs.fuel_rate(t.book, t.fleet(cv), t.experts(cv))
    if not t.take("fuel", fuel, cv):
        return t.fail(order, f"{fuel} fuel needed for the drills", cv.number, pulse)
    t.mark("practice", cv.id)
    gain = t.roll(10, 15, "practice")
    cv.training = min(100, cv.training + gain)
    t.done(order, f"practised: training +{gain} for {fuel} fuel", cv.number, pulse)


def kill_mode(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    if "GUN" not in t.experts(cv):
        return t.fail(order, "KILL MODE needs a Gunner", cv.number, pulse)
    cv.kill_mode = order.word or "N"
    t.done(order, f"kill mode {cv.kill_mode}", cv.number, pulse)


def aid(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    if "DOC" not in t.experts(cv):
        return t.fail(order, "AID needs a Doctor", cv.number, pulse)
    cv.aid = order.word == "ON"
    t.done(order, f"aid {'on: afflicted cities entered are cured' if cv.aid else 'off'}",
           cv.number, pulse)


def _scannable(t: ClanTurn, cv: st.Convoy, n: int) -> bool:
    """SCAN's reach by type: land and military convoys scout land hexes (not water or islands),
    amphibious all but wilderness and mountains, sea convoys on water every neighbour and on
    land only water or islands, air convoys every neighbour."""
    here, there = t.terrain(cv.cell), t.terrain(n)
    if not there:
        return False
    if cv.type in movement.LANDLIKE:
        return bool(there.get("drivable"))
    if cv.type == "amphibious":
        return not there.get("amphib_link_only")
    if cv.type == "sea":
        return bool(here.get("navigable") or there.get("navigable"))
    return True


def scan(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """SCAN: each neighbour the convoy could scout goes on the hex and city lists, for the
    convoy's fuel rate times that hex's factor (no road or river bonus), while fuel lasts."""
    if "SCO" not in t.experts(cv):
        return t.fail(order, "SCAN needs a Scout", cv.number, pulse)
    if ("scan", cv.id, -1) in t.marks:
        return t.fail(order, "the convoy scanned already this turn", cv.number, pulse)
    t.mark("scan", cv.id)
    rate = cs.fuel_rate(t.book, t.fleet(cv), t.experts(cv)) * (100 + t.training_pct(cv)) / 100
    seen = []
    for n in t.board.neighbours(cv.cell):
        if not _scannable(t, cv, n):
            continue
        factor = 1.0 if cv.type == "air" else t.terrain(n)["fuel_factor"]
        if not t.take("fuel", math.ceil(round(rate * factor, 6)), cv):
            break
        t.seen(n, "scan")
        seen.append(t.label(n))
    t.done(order, f"scanned {', '.join(seen) or 'nothing'}", cv.number, pulse)


HANDLERS: dict[str, Handler] = {
    "PAUSE": movement.pause, "RECON": _mode("recon"), "CAPTURE": _mode("capture"),
    "EMPTY": _mode("empty"), "PICKUP": cargo.pickup, "DROPOFF": cargo.dropoff, "DUMP": cargo.dump,
    "GUARD": guard, "PATROL": patrol, "FISH": fish, "HIRE": hire, "CELEBRATE": celebrate,
    "PRACTICE": practice, "KILL MODE": kill_mode, "AID": aid, "SCAN": scan, "LOOT": loot.loot,
    "ABSORB": reshape.absorb, "SPLIT": reshape.split, "PAVE": reshape.pave,
    "ATTACK": battles.attack, "HUNT": battles.hunt, "BOMB": strikes.bomb, "RAZE": strikes.raze,
    "CURE": plague.cure, "PLANT": espionage.plant,  # cc-cycle
}
