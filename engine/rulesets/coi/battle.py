"""Battles: strengths compared, the loser annihilated, the winner's losses chosen by the attacker.

The attacker adds up attack values, the defender defense values (a fort adds a point of its
own). The weaker side loses every unit; ties go to the defender. The winner must then lose
units, each taking its own strength off the loser's strength, for as long as some unit's
strength fits in what is left. The attacker picks every loss, on both sides, following the
loss order of the attack post and then the default: for the attacker's own losses the
weakest (then cheapest) first, for the defender's losses the strongest (then dearest) first.
Within a unit type the strongest unit that fits is taken. Convoyed units of the defender may
not be picked while a non-convoyed unit of theirs is left.

Pure functions over unit lists; the adjudicator applies the result to the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rulesets.coi.catalog import Rules

BONUS = {"pikeman": 2, "scout": 2, "halberdier": 2, "knight": 2, "rough_rider": 1}


@dataclass
class Fighter:
    owner: int
    unit: str
    strength: int
    bonus: int = 0      # counter bonus received (once per battle)


@dataclass
class Side:
    fighters: list[Fighter]
    strength: int
    fort_point: int = 0


@dataclass
class Outcome:
    attack: int
    defense: int
    attacker_won: bool
    damage: int
    absorbed: int
    losses: list[Fighter] = field(default_factory=list)       # the winner's units lost
    loss_order: list[str] = field(default_factory=list)


def counter_bonuses(rules: Rules, own: dict[str, int], opp: dict[str, int]) -> dict[str, int]:
    """How many units of each counter kind on one side get their bonus against `opp`."""
    def n(comp: dict[str, int], flag: str) -> int:
        return sum(k for u, k in comp.items() if rules.units[u][flag])

    def kind(comp: dict[str, int], counter: str) -> int:
        return sum(k for u, k in comp.items() if rules.units[u]["counter"] == counter)

    cav, arch = n(opp, "cavalry"), n(opp, "archer")
    pike, scout = kind(own, "pikeman"), kind(own, "scout")
    halb, knight, rider = kind(own, "halberdier"), kind(own, "knight"), kind(own, "rough_rider")
    return {
        "pikeman": min(pike, cav),
        "scout": min(scout, arch),
        "halberdier": min(halb, max(0, cav - pike)),
        "knight": min(knight, max(0, arch - scout)),
        "rough_rider": min(rider, max(0, arch - scout - knight) + max(0, cav - pike - halb)),
    }


def side(rules: Rules, units: list[tuple[int, str, int]], opp: list[tuple[int, str, int]],
         attacking: bool, terrain: dict[str, Any], building: dict[str, Any] | None,
         origin_building: dict[str, Any] | None = None) -> Side:
    """Each unit's strength in this battle: base value, terrain, fort and counter bonuses."""
    own_comp: dict[str, int] = {}
    for _, u, k in units:
        own_comp[u] = own_comp.get(u, 0) + k
    opp_comp: dict[str, int] = {}
    for _, u, k in opp:
        opp_comp[u] = opp_comp.get(u, 0) + k
    left = counter_bonuses(rules, own_comp, opp_comp)
    fighters = []
    for owner, uid, count in units:
        u = rules.units[uid]
        base = u["attack"] if attacking else u["defense"]
        if u["cavalry"]:
            base += terrain["cavalry_attack"] if attacking else terrain["cavalry_defense"]
        if uid == "galley":
            base += terrain["galley_bonus"]
        if u["ambush"] and terrain["ambush"]:
            base += 1 if attacking else 2
        if not attacking:
            base += terrain["defense_bonus"]
            if building and not u["cavalry"]:
                base += building["defense_bonus"]
        elif origin_building and uid == "catapult":
            base += origin_building["catapult_attack"]
        for _ in range(count):
            bonus = 0
            if u["counter"] and left.get(u["counter"], 0) > 0:
                left[u["counter"]] -= 1
                bonus = BONUS[u["counter"]]
            fighters.append(Fighter(owner, uid, max(0, base + bonus), bonus))
    fort = building["fort_point"] if (building and not attacking) else 0
    return Side(fighters, sum(f.strength for f in fighters) + fort, fort)


def default_order(rules: Rules, fighters: list[Fighter], own_losses: bool) -> list[str]:
    best: dict[str, int] = {}
    for f in fighters:
        best[f.unit] = max(best.get(f.unit, 0), f.strength)
    if own_losses:
        key = lambda u: (best[u], rules.cost(u), rules.order(u))  # noqa: E731
        return sorted(best, key=key)
    return sorted(best, key=lambda u: (-best[u], -rules.cost(u), rules.order(u)))


def resolve(rules: Rules, attacker: Side, defender: Side, loss_order: list[str]) -> Outcome:
    won = attacker.strength > defender.strength
    winner, loser = (attacker, defender) if won else (defender, attacker)
    damage = loser.strength
    left = damage
    absorbed = 0
    if not won and defender.fort_point:
        take = min(defender.fort_point, left)   # the fort's own point is defeated first
        left -= take
        absorbed += take
    alive = list(winner.fighters)
    order = [u for u in loss_order if any(f.unit == u for f in alive)]
    order += [u for u in default_order(rules, alive, own_losses=won) if u not in order]
    losses: list[Fighter] = []
    while left > 0:
        shielded = not won and any(not rules.units[f.unit]["convoyed"] for f in alive)
        pick = None
        for uid in order:
            fits = [f for f in alive if f.unit == uid and f.strength <= left
                    and not (shielded and rules.units[uid]["convoyed"])]
            if fits:
                pick = max(fits, key=lambda f: f.strength)
                break
        if pick is None:
            break
        alive.remove(pick)
        losses.append(pick)
        left -= pick.strength
        absorbed += pick.strength
        if pick.strength == 0 and not alive:
            break
    return Outcome(attacker.strength, defender.strength, won, damage, absorbed, losses, order)
