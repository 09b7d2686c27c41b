"""The numbers and small formulas every kind of Continental Conquest combat shares.

`CombatRules` holds the book's fixed figures and the options a GM may vary (the option
names of engine/rulesets/cc/options.py; the checklist's readings X.. say why each exists).
The modifiers are the book's: +-1% per `stat_step` points of training and morale from 30,
-1% per 3 points of health below 100; a chance over 100% is one sure hit plus a chance of
the excess (and of the excess over 200 for citadels).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.dice import Dice

_DICE = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*(?:\+\s*(\d+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class CombatRules:
    # ---- shared modifiers ([CONVOY STATISTICS], [COMBAT]) -----------------------------
    stat_step: int = 5                  # X35: training/morale points per 1%, also below 30
    stat_base: int = 30
    health_step: int = 3
    # ---- city invasion ([INVADING A CITY], [OPTIONAL WEAPONS]) ------------------------
    attacker_to_hit: int = 50
    sergeant_pct: int = 10
    police_pct: int = 10
    sergeant_and_police_pct: int = 10   # X42: "both of the above +10%" comes on top
    shelter_pct: int = 10
    grenade_every: int = 10
    grenade_kills: tuple[int, int] = (2, 8)
    grenade_miss_kills: int = 1         # X41
    claymore_loss_in: int = 50          # one chance in 50 a round
    rifle_loss_in: int = 50             # one chance in 50 per hit suffered
    rifle_per_troops: int = 25
    collateral: tuple[int, int] = (6, 10)           # X43: people a round
    collateral_shelter: tuple[int, int] = (3, 5)
    conquest_pct: tuple[int, int] = (11, 15)        # X44: the explicit figures
    conquest_pct_shelter: tuple[int, int] = (3, 5)
    capture_garrison: tuple[int, int] = (5, 10)     # X45
    vigilance_max: int = 50
    min_population: int = 1000                      # X62: a city is never emptied
    city_round_cap: int = 10_000                    # safety only: the defender holds
    # ---- convoy battles ([COMBAT AGAINST CONVOYS], [KILL MODE], [ROCKETS]) ------------
    gunner_pct: int = 10
    pilot_pct: int = 10
    police_convoy: bool = True          # X42: the Police +10% counts against convoys too
    troop_damage_pct: int = 50          # X36: chance a troop deals its 1 point
    troop_hit_pct: int = 20             # X34
    troop_hit_pct_kill_troops: int = 50
    kill_mode_penalty_pct: int = 20
    vehicle_hit: tuple[int, int] = (5, 10)
    rocket_damage: tuple[int, int] = (20, 50)
    rocket_outsize: int = 2             # no rocket at an enemy this many times smaller
    first_round_military: int = 2       # hunting or patrolling military convoys
    air_defending_pct: int = 50         # an air convoy attacked by a non-air one
    amphibious_water_pct: int = 50      # X25: amphibious convoys on open water
    engage_rule: str = "strength"       # X32: strength | always
    engage_ratio_pct: int = 100
    flee_rule: str = "strength"         # X33: strength | never
    flee_ratio_pct: int = 50
    convoy_round_cap: int = 100         # X164: the attacker breaks off (and hides)
    morale_win: int = 5                 # X55 (house): winning a convoy battle
    morale_capture: int = 10            # X55 (house): taking a city
    training_combat: int = 1            # X55 (house): each battle or city attack survived
    gourmet_morale: bool = True         # X251 (house): a Gourmet raises those morale gains
    # ---- bombing ([BOMB], [BOMBS], [BUILDINGS › Battery, Shelter, Hospital]) -----------
    battery_pct: int = 50               # a bomb disrupted by flak does nothing at all
    bomb_people_hit: tuple[int, int] = (8000, 16000)
    bomb_people_miss: tuple[int, int] = (4000, 8000)
    bomb_people_below: int = 5000       # X53: under this many people bombs kill no more
    bomb_troops_hit: tuple[int, int] = (10, 30)
    bomb_troops_miss: tuple[int, int] = (5, 10)
    bomb_hostile: bool = True           # X182 (house): the bombed city turns hostile
    # ---- razing ([RAZE]) -----------------------------------------------------------------
    raze_people: tuple[int, int] = (100, 1000)      # per point of size and per 10 troops
    raze_troops_per: int = 10
    raze_troop_death_pct: int = 10
    raze_morale: tuple[int, int] = (2, 8)           # morale up, training down, one roll a convoy
    raze_claymore_pct: int = 50
    # ---- repairs -----------------------------------------------------------------------
    hp_per_part: int = 5
    tinkerer_repair: str = "10hp"       # X38: 10hp | 15pct
    tinkerer_hp_per_part: int = 10
    tinkerer_pct: int = 15
    tinkerer_scrap_factor: int = 2

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | Any = None) -> CombatRules:
        """The rules of a game from its options (engine.tables.Options or a mapping, names
        as in cc/options.py); the unset ones keep the book's figures."""
        if isinstance(options, Mapping):
            o = dict(options)
        else:
            o = dict(getattr(options, "values", None) or {})
        mine = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {k: v for k, v in o.items() if k in mine}
        if "capture_garrison_min" in o or "capture_garrison_max" in o:
            kw["capture_garrison"] = (int(o.get("capture_garrison_min", 5)),
                                      int(o.get("capture_garrison_max", 10)))
        return cls(**kw)


# ---- dice ----------------------------------------------------------------------------


def roll_range(dice: Dice, lo: int, hi: int, why: str) -> int:
    """A uniform roll lo..hi (one die of hi - lo + 1 sides)."""
    if hi <= lo:
        return lo
    return lo - 1 + dice.d(hi - lo + 1, why)


def parse_damage(expr: str) -> tuple[int, int, int]:
    """`8d6+4` -> (8, 6, 4); a plain number is a fixed amount; anything else deals 0."""
    m = _DICE.match(expr or "")
    if m:
        return int(m[1]), int(m[2]), int(m[3] or 0)
    text = (expr or "").strip()
    return (0, 1, int(text)) if text.isdigit() else (0, 1, 0)


def roll_damage(dice: Dice, expr: str, why: str) -> int:
    n, sides, plus = parse_damage(expr)
    return sum(dice.d(sides, why) for _ in range(n)) + plus


def hits(dice: Dice, chance: int, why: str) -> int:
    """Hits of one shot at `chance` percent: each full 100 is a sure hit, the rest a roll
    (118% -> 1 sure and 18% for a second; a citadel's 235% -> 2 sure and 35% for a third)."""
    if chance <= 0:
        return 0
    sure, rest = divmod(chance, 100)
    return sure + (1 if rest and dice.chance(rest, why) else 0)


# ---- modifiers -----------------------------------------------------------------------


def _steps(points: int, step: int) -> int:
    """Whole steps of `step` points, toward zero (29 below 30 is no step yet)."""
    return int(points / step) if step > 0 else 0


def condition_pct(rules: CombatRules, training: int, morale: int, health: int) -> int:
    """Percent points from training, morale (from 30) and health (below 100)."""
    pct = _steps(training - rules.stat_base, rules.stat_step)
    pct += _steps(morale - rules.stat_base, rules.stat_step)
    return pct - _steps(max(0, 100 - health), rules.health_step)


def police_pct(rules: CombatRules, police: bool, sergeant: bool) -> int:
    """The Police Station visit and the Sergeant against cities: 10, 10 and 10 more for both."""
    pct = rules.sergeant_pct if sergeant else 0
    pct += rules.police_pct if police else 0
    return pct + (rules.sergeant_and_police_pct if police and sergeant else 0)


def scale(amount: int, pct: int) -> int:
    """`amount` x pct / 100, fractions dropped (never below 0)."""
    return max(0, amount * pct // 100)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b) if b > 0 else a


def pct_of(total: int, pct: int) -> int:
    return math.floor(total * pct / 100)
