"""[COMBAT AGAINST CONVOYS]: one convoy attacks another, round by round.

Each round: rockets fly first (one a side, at a random vehicle bigger than a fast scout,
20-50 points); then both sides roll their salvos - every vehicle's damage dice plus 1 point
for each troop that hits (X36) - scaled by training, morale, health, Gunner, Pilot, Police
(X42), kill mode T/V (-20%), a hunting or patrolling military convoy's first round (x2), an
air convoy defending against non-air ones (-50%) and an amphibious convoy on open water
(-50%, X25). Then each salvo is spent point by point on the other side: a troop dies with
1 chance in 5 (1 in 2 in kill mode T, X34), otherwise a random vehicle takes 5-10 points
(kill mode V: that vehicle takes all it can until destroyed). After every round each
commander weighs the odds and may flee (X33); the side that flees hides.

The attacker's commander first decides whether to fight at all (X32), unless the defender
is on patrol (the entrant is surprised) or the attacker hunts: then the first round is
fought regardless.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.convoys import CombatConvoy
from engine.rulesets.cc.combat.repair import repair
from engine.rulesets.cc.combat.rules import CombatRules, roll_damage, roll_range, scale


@dataclass
class Losses:
    troops: int = 0
    vehicles: dict[str, int] = field(default_factory=dict)   # type -> destroyed
    rockets: int = 0                                          # fired or lost


@dataclass
class ConvoyBattleResult:
    engaged: bool
    rounds: int
    winner: int                      # convoy id; 0 when nobody won (declined, both gone...)
    attacker: CombatConvoy           # the convoys after the battle (damage not yet repaired)
    defender: CombatConvoy
    fled: tuple[int, ...] = ()
    hidden: tuple[int, ...] = ()     # convoy ids to mark hidden (the losers still standing)
    destroyed: tuple[int, ...] = ()  # convoy ids left without vehicles: disbanded
    losses: dict[int, Losses] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)

    @property
    def attacker_won(self) -> bool:
        return self.winner == self.attacker.id


# ---- the commander ---------------------------------------------------------------------


def will_engage(attacker: CombatConvoy, defender: CombatConvoy, rules: CombatRules) -> bool:
    """X32, X160: attack if the attacker's strength is at least `engage_ratio_pct` of the
    defender's; a patrol's surprise or a HUNT forces the first round anyway."""
    if defender.patrolling or attacker.hunting or rules.engage_rule == "always":
        return True
    mine = attacker.strength(rules, defender, defending=False)
    return mine * 100 >= rules.engage_ratio_pct * defender.strength(rules, attacker, defending=True)


def will_flee(me: CombatConvoy, enemy: CombatConvoy, defending: bool, rules: CombatRules) -> bool:
    """X33, X160: hopeless when its strength is below `flee_ratio_pct` of the enemy's."""
    if rules.flee_rule == "never":
        return False
    mine = me.strength(rules, enemy, defending)
    return mine * 100 < rules.flee_ratio_pct * enemy.strength(rules, me, not defending)


# ---- one round -------------------------------------------------------------------------


def _rocket(me: CombatConvoy, enemy: CombatConvoy, dice: Dice, rules: CombatRules) -> tuple[str, int] | None:
    """One rocket at a random enemy vehicle bigger than a fast scout, unless the enemy is
    all scouts or at most half our size."""
    if me.rockets <= 0 or not me.rocket_launchers():
        return None
    targets = [v for v in enemy.alive if v.vclass != "fast_scout"]
    if not targets or me.size() >= rules.rocket_outsize * enemy.size():
        return None
    me.rockets -= 1
    v = dice.choice(targets, "rocket target")
    pts = min(v.left, roll_range(dice, *rules.rocket_damage, "rocket damage"))
    v.damage += pts
    v.destroyed = v.damage >= v.hit_points
    return (v.type, pts)


def salvo(me: CombatConvoy, enemy: CombatConvoy, round_no: int, defending: bool, dice: Dice,
          rules: CombatRules) -> int:
    """The damage `me` deals this round: the percentages add up, then kill mode, the first
    round's x2 and the halvings multiply, fractions dropped at each step (X163)."""
    raw = sum(roll_damage(dice, v.damage_dice, f"{v.type} damage") for v in me.alive)
    raw += sum(1 for _ in range(me.troops) if dice.chance(rules.troop_damage_pct, "troop fires"))
    dmg = scale(raw, me.damage_pct(rules))
    if me.kill_mode in ("T", "V"):
        dmg = scale(dmg, 100 - rules.kill_mode_penalty_pct)
    if round_no == 1 and me.type == "military" and (me.hunting or me.patrolling):   # X173
        dmg *= rules.first_round_military
    return scale(dmg, me.situation_pct(rules, enemy, defending))


def apply_salvo(damage: int, kill_mode: str, target: CombatConvoy, dice: Dice,
                rules: CombatRules) -> tuple[int, list[tuple[str, int]], list[str]]:
    """Spend `damage` on `target`: (troops killed, (vehicle, points) hits, destroyed). A
    5-10 hit on a vehicle with fewer points left destroys it and the rest of the hit is lost;
    the salvo's last hit is cut to the points left (X162)."""
    troop_pct = rules.troop_hit_pct_kill_troops if kill_mode == "T" else rules.troop_hit_pct
    killed, hits, destroyed = 0, [], []
    left = damage
    while left > 0 and target.alive:
        if target.troops > 0 and dice.chance(troop_pct, "troop hit"):
            target.troops -= 1
            killed += 1
            left -= 1
            continue
        v = dice.choice(target.alive, "vehicle hit")
        if kill_mode == "V":
            pts = min(left, v.left)
        else:
            pts = min(left, roll_range(dice, *rules.vehicle_hit, "vehicle damage"))
        v.damage += pts
        left -= pts
        hits.append((v.type, pts))
        if v.damage >= v.hit_points:
            v.destroyed = True
            destroyed.append(v.type)
    return killed, hits, destroyed


def _overflow(c: CombatConvoy) -> None:
    """X37, X174: troops and rockets beyond what the surviving vehicles carry are lost."""
    c.troops = min(c.troops, c.troop_capacity())
    c.rockets = min(c.rockets, c.rocket_launchers())
    if c.wiped_out:
        c.troops = c.rockets = 0


# ---- the battle ------------------------------------------------------------------------


def convoy_battle(attacker: CombatConvoy, defender: CombatConvoy, dice: Dice,
                  rules: CombatRules | None = None, cell: int = 0) -> ConvoyBattleResult:
    """Fight one battle; the inputs are not changed (the result holds the convoys after)."""
    rules = rules or CombatRules()
    a, d = copy.deepcopy(attacker), copy.deepcopy(defender)
    sides = dict(cell=cell, attacker=a.owner, defender=d.owner)
    events: list[Event] = []
    if not will_engage(a, d, rules):
        events.append(ev.BattleDeclined(convoy=a.id, enemy=d.id, **sides))
        return ConvoyBattleResult(False, 0, 0, a, d, events=events)
    events.append(ev.ConvoyBattleBegan(convoy=a.id, enemy=d.id, surprise=d.patrolling,
                                       hunt=a.hunting, **sides))
    fled: list[int] = []
    rounds = 0
    while rounds < rules.convoy_round_cap:
        rounds += 1
        # X161: rockets first (a vehicle they destroy does not fire), then both salvos are
        # rolled before either is applied: the two sides fire at once
        rockets = (_rocket(a, d, dice, rules), _rocket(d, a, dice, rules))
        shots = (salvo(a, d, rounds, False, dice, rules), salvo(d, a, rounds, True, dice, rules))
        for (me, enemy), rocket, dmg in zip(((a, d), (d, a)), rockets, shots, strict=True):
            killed, hits, destroyed = apply_salvo(dmg, me.kill_mode, enemy, dice, rules)
            events.append(ev.Salvo(round=rounds, by=me.id, at=enemy.id, rocket=rocket, damage=dmg,
                                   troops_killed=killed, hits=tuple(hits),
                                   destroyed=tuple(destroyed), **sides))
        _overflow(a)
        _overflow(d)
        if a.wiped_out or d.wiped_out:
            break
        fled = [c.id for c, enemy, defending in ((a, d, False), (d, a, True))
                if will_flee(c, enemy, defending, rules)]
        for cid in fled:
            events.append(ev.ConvoyFled(convoy=cid, round=rounds, **sides))
        if fled:
            break
    else:
        fled = [a.id]   # X164: the round cap - the attacker breaks off
        events.append(ev.ConvoyFled(convoy=a.id, round=rounds, **sides))
    destroyed = tuple(c.id for c in (a, d) if c.wiped_out)
    standing = [c for c in (a, d) if c.id not in destroyed]
    losers = set(fled) | set(destroyed)
    winners = [c.id for c in standing if c.id not in losers]
    winner = winners[0] if len(winners) == 1 else 0    # X165: both fled -> both hide
    hidden = tuple(c.id for c in standing if c.id in fled)
    for c in standing:
        c.hidden = c.hidden or c.id in hidden
        # X55: experience and victory (house figures); morale may pass 100 during a turn
        c.training = min(100, c.training + rules.training_combat)
        c.morale += c.morale_gain(rules.morale_win, rules) if c.id == winner else 0
    events.append(ev.ConvoyBattleEnded(convoy=a.id, enemy=d.id, rounds=rounds, winner=winner,
                                       hidden=hidden, destroyed=destroyed, **sides))
    losses = {before.id: _losses(before, after) for before, after in ((attacker, a), (defender, d))}
    return ConvoyBattleResult(True, rounds, winner, a, d, tuple(fled), hidden, destroyed, losses,
                              events)


def _losses(before: CombatConvoy, after: CombatConvoy) -> Losses:
    gone = Counter(v.type for v in after.vehicles if v.destroyed) - Counter(
        v.type for v in before.vehicles if v.destroyed)
    return Losses(before.troops - after.troops, dict(gone), before.rockets - after.rockets)


# ---- entering a hex --------------------------------------------------------------------


@dataclass
class HexBattles:
    """The battles of a convoy entering a hex: it fights each enemy convoy in turn."""

    convoy: CombatConvoy                     # the entrant after all its battles (and repairs)
    battles: list[ConvoyBattleResult]
    cleared: bool                            # it beat (or drove off) every enemy it could see
    after: dict[int, CombatConvoy] = field(default_factory=dict)   # every convoy that fought
    repairs: list = field(default_factory=list)                    # RepairResult, in order
    events: list[Event] = field(default_factory=list)


def fight_through(entrant: CombatConvoy, enemies: Sequence[CombatConvoy], dice: Dice,
                  rules: CombatRules | None = None, cell: int = 0,
                  parts: dict[int, int] | None = None) -> HexBattles:
    """The entrant attacks each enemy convoy in the hex in a shuffled order (X54): hidden
    ones only when it hunts (HIDING). It stops at its first lost battle (it hides) or when
    it declines a fight (X176). `enemies` are the non-allied convoys already. With `parts` (clan ->
    spare parts, updated in place) both sides repair after each battle, as the book says;
    without, the caller repairs. `after` holds every convoy as it ends, for `write_to`."""
    rules = rules or CombatRules()
    order = [e for e in enemies if not e.hidden or entrant.hunting]
    dice.shuffle(order, "battle order")
    hb = HexBattles(entrant, [], True)
    for enemy in order:
        r = convoy_battle(hb.convoy, enemy, dice, rules, cell)
        hb.battles.append(r)
        hb.events.extend(r.events)
        sides = [r.attacker, r.defender]
        if parts is not None and r.engaged:
            for i, c in enumerate(sides):
                if c.wiped_out:
                    continue
                rr = repair(c, parts.get(c.owner, 0), rules)
                parts[c.owner] = rr.parts_left
                hb.repairs.append(rr)
                hb.events.extend(rr.events)
                sides[i] = rr.convoy
        hb.convoy = sides[0]
        hb.after.update({c.id: c for c in sides})
        if not r.attacker_won:
            hb.cleared = False
            break
    hb.after[entrant.id] = hb.convoy
    return hb
