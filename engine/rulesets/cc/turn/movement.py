"""[MOVEMENT], [MOVEMENT LIMITATIONS], [MOVING ON A ROAD], [MOVING ON A RIVER], [USING COASTS],
the move order and PAUSE, and what a convoy does on entering a hex ([MOVEMENT ORDERS]):
fight enemy convoys (turn/battles.py), attack the hex, use the hex's structures, pick up troops.

Where a hex may be entered, by convoy type:
- land and military: drivable terrain, or along a road (islands; X28: leaving one too);
- sea: from water or islands anywhere (a coast, a river mouth); from a land hex only onto
  water or islands or along a river (the coast rule needs no memory: X27 holds by position);
- amphibious: water and islands as sea; land as land, but mountains and wilderness only along
  a road or river;
- air: any hex within the turn's range, in one order; the whole move is refused if too far.

Fuel: the convoy's rate times the entered hex's factor (a followed road halves it for land,
military and amphibious convoys and sets parts to x1, a river counting as a road for
amphibious ones on land, X242; a sea convoy on a river pays the
river's factors, X24; air pays x1 a hex flown), changed 1% per 5 points of training from 30
(X22), rounded up (X21). Parts are owed and paid at maintenance, in tenths.
"""

from __future__ import annotations

import math

from engine.rulesets.cc import combat
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.combat import hex_attack_refusal
from engine.rulesets.cc.turn import battles, buildings, loot, plague
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn.clan_turn import WEAPONS, ClanTurn
from engine.rulesets.cc.turn.reshape import join_vehicles

LANDLIKE = ("land", "military")


def moves_allowed(t: ClanTurn, cv: st.Convoy) -> int:
    airport = buildings.airport_bonus(t, cv)  # cc-cycle: where it began its turn
    return cs.moves_per_turn(t.book, cv.type, t.fleet(cv), t.experts(cv), airport)


def why_not_enter(t: ClanTurn, cv: st.Convoy, here: int, there: int) -> str:
    """"" if the convoy may move from `here` to the neighbouring `there`, else the reason."""
    a, b = t.terrain(here), t.terrain(there)
    if not b:
        return "that hex is off the map"
    road, river = t.road(here, there), t.river(here, there)
    if cv.type in LANDLIKE:
        if not b.get("drivable") and not road:
            return f"{cv.type} convoys enter {b['name'].lower()} only along a road"
        if not a.get("drivable") and not road:
            return f"{cv.type} convoys leave {a['name'].lower()} only along a road"
        return ""
    if cv.type == "sea":
        if b.get("navigable") or a.get("navigable") or river:
            return ""
        return "a sea convoy on land must move onto water or islands, or along its river"
    if cv.type == "amphibious":
        if b.get("navigable"):
            return ""
        if b.get("amphib_link_only") and not (road or river):
            return f"amphibious convoys enter {b['name'].lower()} only along a road or river"
        return ""
    return ""


def entry_cost(t: ClanTurn, cv: st.Convoy, here: int, there: int, hexes: int = 1) -> tuple[int, int, bool, bool]:
    """(fuel, parts owed in tenths, followed a road, followed a river) for entering `there`."""
    fleet, experts = t.fleet(cv), t.experts(cv)
    rate = cs.fuel_rate(t.book, fleet, experts)
    parts_rate = sum(t.book.vehicles[v]["parts_rate"] * n for v, n in fleet.items())
    parts_rate = parts_rate * (100 - cs.expert_pct(t.book, "TIN", experts)) / 100
    road = river = False
    if cv.type == "air":
        fuel_f, parts_f = float(hexes), float(hexes)
    else:
        b = t.terrain(there)
        fuel_f, parts_f = b["fuel_factor"], b["parts_factor"]
        # X25, X242: an amphibious convoy on land treats a followed river as a road, costs too
        amphib_river = (cv.type == "amphibious" and not b.get("navigable") and t.river(here, there))
        if cv.type in (*LANDLIKE, "amphibious") and (t.road(here, there) or amphib_river):
            road, river = t.road(here, there), not t.road(here, there)
            fuel_f, parts_f = fuel_f * t.book.links["road"]["fuel_factor"], t.book.links["road"]["parts_factor"]
        elif cv.type == "sea" and t.river(here, there) and not b.get("navigable"):
            river = True
            fuel_f, parts_f = t.book.links["river"]["fuel_factor"], t.book.links["river"]["parts_factor"]
    train = 100 + t.training_pct(cv)
    fuel = math.ceil(round(rate * fuel_f * train / 100, 6))
    parts = math.ceil(round(parts_rate * parts_f * train / 10, 6))
    return fuel, parts, road, river


def move(t: ClanTurn, cv: st.Convoy, order: o.Move, pulse: int) -> None:
    here = cv.cell
    if order.direction:
        there = t.board.step(here, order.direction)
        hexes = 1
    else:
        there = t.board.parse(order.hex, "ccrr") if order.hex else None
        hexes = t.board.distance(here, there) if there is not None else 0
    if cv.guarding and ("guard", cv.id, -1) in t.marks:
        return t.fail(order, "the convoy is guarding a city and moves no more this turn", cv.number, pulse)
    if there is None:
        return t.fail(order, "there is no hex that way", cv.number, pulse)
    left = moves_allowed(t, cv) - cv.moves_used
    if cv.type == "air":
        if hexes > left:
            return t.fail(order, f"{t.label(there)} is {hexes} hexes away; the convoy has {left} left "
                                 "(the whole move is cancelled)", cv.number, pulse)
    else:
        if hexes != 1:
            return t.fail(order, f"{t.label(there)} is not next to {t.label(here)}; only air convoys "
                                 "move more than one hex an order", cv.number, pulse)
        if left < 1:
            return t.fail(order, f"the convoy has made all its {moves_allowed(t, cv)} moves this turn",
                          cv.number, pulse)
        why = why_not_enter(t, cv, here, there)
        if why:
            return t.fail(order, why, cv.number, pulse)
    fuel, parts, road, river = entry_cost(t, cv, here, there, hexes)
    if not t.take("fuel", fuel, cv):
        return t.fail(order, f"not enough fuel to move ({fuel} needed, {t.clan.fuel} left)", cv.number, pulse)
    cv.parts_owed_tenths += parts
    cv.moves_used += hexes
    cv.cell, cv.hidden, cv.patrolling, cv.guarding = there, False, False, False
    t.emit(ev.Moved(t.number, cv.number, pulse, here, there, fuel, road, river))
    loot.chemist(t, cv, pulse, road)  # cc-house: hidden fuel along roads (X209)
    enter(t, cv, order, pulse)


def pause(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """PAUSE: re-enter the hex for half the entry fuel, halved again with a road in the hex
    (land and military only, X98); the way out of hiding. An air convoy pays half of one hex
    flown (X248)."""
    fuel, _parts, _r, _v = entry_cost(t, cv, cv.cell, cv.cell, 1)
    fuel = fuel / 2
    if cv.type in LANDLIKE and any(cv.cell in r for r in t.roads):
        fuel /= 2
    fuel = math.ceil(fuel)
    if not t.take("fuel", fuel, cv):
        return t.fail(order, f"not enough fuel to pause ({fuel} needed)", cv.number, pulse)
    cv.hidden = False
    t.done(order, f"meanders around {t.label(cv.cell)} for {fuel} fuel", cv.number, pulse)
    enter(t, cv, order, pulse)


def enter(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """The book's sequence on entering a hex: convoys, the hex, structures, pick-up."""
    cell = cv.cell
    t.seen(cell, "visit")
    if any(True for _ in t.others_here(cell)) and not battles.fight(t, cv):
        t.stopped.add(cv.id)   # beaten, fled or declined: it stays (hidden) for the turn
        return
    h = t.hexes.get(cell)
    if h is not None and h.owner not in (0, t.number) and cv.mode != "recon":
        # the residents name the convoy as battles do (combat/report.py convoy_names): the
        # clan's own number for it, never the game-wide id
        t.tell(h.owner, "passing", cell, f"convoy #{cv.number} of clan {t.number} passed through {t.label(cell)}")
    if h is not None and not hex_attack_refusal(
            mode=cv.mode, hidden=cv.hidden, owner=h.owner, clan=t.number,
            allied=bool(h.owner) and t.ally(h.owner), enemies_left=False,
            ownable=bool(t.terrain(cell).get("ownable"))):
        attack_hex(t, cv, h, pulse)
    structures(t, cv, pulse)
    loot.on_entry(t, cv, pulse)  # cc-house: a Scout loots the hex (X204)
    plague.entered(t, cv, pulse)  # cc-cycle: Doctor's report, AID, catching the Plague
    buildings.entered(t, cv, pulse)  # cc-cycle: the Junkyard's car
    if "MER" in t.experts(cv) and cv.cargo and cell in t.cities:
        from engine.rulesets.cc.turn.cargo import dropoff
        dropoff(t, cv, o.ConvoyOrder(keyword="DROPOFF", line=order.line), pulse, quiet=True)
    pick_up(t, cv, pulse)


def attack_hex(t: ClanTurn, cv: st.Convoy, h: st.Hex, pulse: int) -> None:
    """[ATTACKING A HEX] (X48), the combat package's `attack_hex` applied to the state: with
    fewer troops than the least requirement there is no attack; otherwise the rolled
    requirement is lost and the hex taken (its guards die), or every attacker falls."""
    r = combat.attack_hex(t.book, cell=h.cell, convoy=cv.id, clan=t.number, troops=cv.troops,
                          owner=h.owner, defense=h.defense, terrain=t.gmap.terrain_at(h.cell),
                          guards=h.troops, dice=t.dice)
    if not r.attacked:
        t.emit(ev.HexHeld(t.number, cv.number, pulse, h.cell, r.least, cv.troops, 0,
                          f"at least {r.least} troops are needed to attack it"))
        return
    cv.troops = r.troops_left
    if not r.captured:
        t.emit(ev.HexHeld(t.number, cv.number, pulse, h.cell, r.needed, r.troops_lost, r.troops_lost,
                          "the attack failed: every attacker fell"))
        return
    previous = h.owner
    h.owner, h.troops, h.conquered_turn = t.number, 0, t.turn
    t.emit(ev.HexTaken(t.number, cv.number, pulse, h.cell, previous, r.needed, r.troops_lost,
                       r.guards_killed))
    if previous:
        t.tell(previous, "hex lost", h.cell, f"clan {t.number} conquered your hex {t.label(h.cell)}")


def structures(t: ClanTurn, cv: st.Convoy, pulse: int) -> None:
    """A hex's structures serve a convoy of the hex's owner ([SPECIAL STRUCTURES]): Police
    Station (training 1-5, doubled by a Sergeant; +10% combat this turn), Rec Center (morale
    5-10, once a turn a convoy), Racetrack (a free scout to the first convoy a turn)."""
    h = t.hexes.get(cv.cell)
    if h is None or h.owner != t.number or not h.special:
        return
    if h.special == "POL" and cv.police_turn != t.turn:
        gain = t.roll(1, 5, "police training") * (2 if "SER" in t.experts(cv) else 1)
        cv.training = min(100, cv.training + gain)
        cv.police_turn = t.turn
        t.emit(ev.OrderDone(t.number, "POLICE", cv.number, pulse, 0,
                            f"trained at the Police Station: training +{gain}"))
    elif h.special == "REC" and t.mark("rec", cv.id, cv.cell):
        gain = t.morale_gain(cv, t.roll(5, 10, "rec center morale"))   # cc-house: X251
        cv.morale += gain
        t.emit(ev.OrderDone(t.number, "REC", cv.number, pulse, 0,
                            f"enjoyed the Rec Center: morale +{gain}"))
    elif h.special == "RAC" and t.mark("racetrack", 0, cv.cell):
        scout = next((v for v, r in t.book.vehicles.items()
                      if r["convoy_type"] == cv.type and r["class"] == "fast_scout"), None)
        if scout:
            join_vehicles(t, cv, scout, 1)
            t.emit(ev.OrderDone(t.number, "RACETRACK", cv.number, pulse, 0,
                                f"won a {t.book.vehicles[scout]['name'].lower()} at the Racetrack"))


def pick_up(t: ClanTurn, cv: st.Convoy, pulse: int) -> None:
    """[TROOPS], [OPTIONAL WEAPONS]: in a friendly city (or an owned Training School hex) a
    convoy fills up with the clan's unallocated troops and weapons up to its capacities; never
    in empty mode, never a convoy under 75% health."""
    if cv.mode == "empty" or cv.health < 75:
        return
    h = t.hexes.get(cv.cell)
    school = h is not None and h.special == "TRA" and h.owner == t.number
    if t.friendly_city(cv.cell) is None and not school:
        return
    got = {"troops": min(max(0, t.troop_cap(cv) - cv.troops), t.clan.troops)}
    caps = t.weapon_caps(cv)
    for w in WEAPONS:
        got[w] = min(max(0, caps[w] - getattr(cv, w)), getattr(t.clan, w))
    if not any(got.values()):
        return
    for item, n in got.items():
        setattr(cv, item, getattr(cv, item) + n)
        setattr(t.clan, item, getattr(t.clan, item) - n)
    t.emit(ev.PickedUp(t.number, cv.number, pulse, cv.cell, got["troops"], got["rifles"],
                       got["grenades"], got["rockets"], got["bombs"]))
