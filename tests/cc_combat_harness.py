"""Runs a Continental Conquest combat case (tests/cases/cc/combat/*.toml) through
engine/rulesets/cc/combat with scripted dice (`dice = [...]`) or a seed (`seed = 7`), and
gives its outcome as plain data to compare with the case's [expect].

    kind = "convoy_battle"      # | "hex_battles" | "city" | "hex" | "repair" | "bomb" | "raze"
    dice = [3, 4, ...]          # every roll in the order the rules ask (all must be used)
    [options]                   # option names of cc/options.py (CombatRules.from_options)
    [attacker]                  # a convoy: fleet = { truck = 1 }, troops, experts = [...],
                                # morale, training, health, kill_mode, rockets, type,
                                # police, patrolling, hunting, hidden, damage = [..]
    [[enemies]]                 # hex_battles: the convoys in the hex; parts = { 1 = 10 }
                                # makes both sides repair after each battle
    [repair]                    # convoy battles: parts stock per convoy id, repaired after
    parts = { 1 = 100 }
    [bomb]                      # bomb: convoy, owner, bombs, target, shelter, battery, and
    [bomb.city]                 #   the BombTarget's fields
    [raze]                      # raze: convoy, clan, spy; [[raze.convoys]] Razer fields;
    [raze.city]                 #   the RazedCity's fields
    [expect]                    # outcome keys (see `outcome`), plus events / no_events
                                # (each event a subset of one event's fields)
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.dice import Dice, ScriptedDice
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import (
    BombTarget,
    CityDefence,
    CombatConvoy,
    CombatRules,
    Invader,
    RazedCity,
    Razer,
    attack_hex,
    bomb_city,
    convoy_battle,
    fight_through,
    invade_city,
    raze_city,
    repair,
)

CASES = Path(__file__).parent / "cases" / "cc" / "combat"
BOOK = Book()


def load(path: Path) -> dict:
    return tomllib.loads(path.read_text())


def dice_of(case: dict) -> Dice:
    if "dice" in case:
        return ScriptedDice(case["dice"])
    return Dice(case.get("seed", 1), "case")


def convoy(d: dict) -> CombatConvoy:
    d = dict(d)
    fleet, experts, damage = d.pop("fleet"), d.pop("experts", []), d.pop("damage", [])
    c = CombatConvoy.build(BOOK, d.pop("id"), fleet, experts, **d)
    for v, hp in zip(c.vehicles, damage, strict=False):
        v.damage = hp
    return c


def _convoy_out(c: CombatConvoy) -> dict[str, Any]:
    return {"troops": c.troops, "rockets": c.rockets, "hidden": c.hidden,
            "damage": [v.damage for v in c.vehicles], "fleet": c.fleet()}


def outcome(case: dict) -> tuple[dict[str, Any], list, Dice]:
    """(outcome, events, dice) of a case."""
    dice = dice_of(case)
    rules = CombatRules.from_options(case.get("options"))
    kind = case["kind"]
    out: dict[str, Any]
    if kind in ("convoy_battle", "hex_battles"):
        a = convoy(case["attacker"])
        if kind == "convoy_battle":
            r = convoy_battle(a, convoy(case["defender"]), dice, rules, case.get("cell", 0))
            battles, events = [r], list(r.events)
            out = {"engaged": r.engaged, "rounds": r.rounds, "winner": r.winner,
                   "fled": list(r.fled), "hidden": list(r.hidden), "destroyed": list(r.destroyed),
                   "losses": {str(k): {"troops": v.troops, "vehicles": v.vehicles, "rockets": v.rockets}
                              for k, v in r.losses.items()}}
        else:
            stock = {int(k): v for k, v in case.get("parts", {}).items()} or None
            hb = fight_through(a, [convoy(e) for e in case["enemies"]], dice, rules, 0, stock)
            battles, events = hb.battles, list(hb.events)
            out = {"cleared": hb.cleared, "fought": [b.defender.id for b in battles],
                   "winners": [b.winner for b in battles],
                   "parts": {str(k): v for k, v in (stock or {}).items()},
                   "after": {str(k): _convoy_out(c) for k, c in hb.after.items()}}
        after = {}
        for b in battles:
            after[b.attacker.id] = b.attacker
            after[b.defender.id] = b.defender
        out["convoys"] = {str(k): _convoy_out(c) for k, c in after.items()}
        out["morale"] = {str(k): c.morale for k, c in after.items()}
        out["training"] = {str(k): c.training for k, c in after.items()}
        stock = case.get("repair", {}).get("parts", {})
        if stock:
            out["repairs"] = {}
            for cid, parts in stock.items():
                rr = repair(after[int(cid)], parts, rules)
                events.extend(rr.events)
                out["repairs"][cid] = {"parts_used": rr.parts_used, "parts_left": rr.parts_left,
                                       "scrapped": rr.scrapped, "disbanded": rr.disbanded,
                                       "fleet": rr.convoy.fleet()}
    elif kind == "repair":
        rr = repair(convoy(case["convoy"]), case["parts"], rules)
        events = rr.events
        out = {"parts_used": rr.parts_used, "parts_left": rr.parts_left, "scrapped": rr.scrapped,
               "parts_from_scrap": rr.parts_from_scrap, "disbanded": rr.disbanded,
               "fleet": rr.convoy.fleet(), "troops": rr.convoy.troops}
    elif kind == "city":
        c = dict(case["city"])
        c["guards"] = [tuple(g) for g in c.get("guards", [])]
        r = invade_city(BOOK, Invader(**case["invader"]), CityDefence(**c), dice, rules)
        events = r.events
        out = {k: getattr(r, k) for k in (
            "captured", "rounds", "attackers_lost", "defenders_lost", "city_troops",
            "garrison_left", "attackers_back", "rifles", "grenades", "claymores",
            "population", "people_killed", "hostile", "morale", "training")}
        out["guards_lost"] = {str(k): v for k, v in r.guards_lost.items()}
    elif kind == "hex":
        r = attack_hex(BOOK, dice=dice, **case["hex"])
        events = r.events
        out = {k: getattr(r, k) for k in ("attacked", "captured", "needed", "troops_lost",
                                          "troops_left", "guards_killed", "reason")}
    elif kind == "bomb":
        b = dict(case["bomb"])
        city = dict(b.pop("city"))
        city["buildings"] = tuple(city.get("buildings", ()))
        r = bomb_city(BOOK, b.pop("convoy"), b.pop("owner"), b.pop("bombs"), b.pop("target", ""),
                      BombTarget(**city), dice, rules, **b)
        events = r.events
        out = {"drops": [list(d) for d in r.drops], "population": r.population, "troops": r.troops,
               "buildings": list(r.buildings), "destroyed": list(r.destroyed),
               "people_killed": r.people_killed, "troops_killed": r.troops_killed,
               "scourge_hits": r.scourge_hits}
    elif kind == "raze":
        z = dict(case["raze"])
        city = dict(z.pop("city"))
        city["buildings"] = tuple(city.get("buildings", ()))
        razers = [Razer(**c) for c in z.pop("convoys")]
        r = raze_city(BOOK, z.pop("convoy"), z.pop("clan"), razers, RazedCity(**city), dice, rules, **z)
        events = r.events
        out = {"population": r.population, "people_killed": r.people_killed,
               "buildings": list(r.buildings), "burnt": list(r.burnt),
               "convoys": {str(k): list(v) for k, v in r.convoys.items()},
               "troops_killed": r.troops_killed, "troops_returned": r.troops_returned,
               "claymores_saved": r.claymores_saved, "fortification": r.fortification,
               "garrison": r.garrison}
    else:
        raise ValueError(f"unknown case kind {kind!r}")
    return out, events, dice


def matches(event, want: dict) -> bool:
    d = event.to_dict()
    return all(d.get(k) == v for k, v in want.items())
