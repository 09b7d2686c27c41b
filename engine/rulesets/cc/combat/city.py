"""[INVADING A CITY]: a convoy's ATTACK on the city in its hex, round by round.

Each round both sides shoot once (X93). The attacker hits at 50% (option
`attacker_to_hit`) + Sergeant 10, Police visit 10, both 10 more (X42), +1 per rifle in use
(one per 25 troops, X92), +-1 per 5 points of training and morale from 30 (X35), -1 per 3
points of health lost; the city at its fortification's to-hit (60..200%) + 10 with a
Shelter + 1 per claymore. Over 100% is one sure hit and a chance of the excess (X94); a
hit kills one troop. Every 10th round a grenadier throws a grenade at the same chance:
2-8 killed, 1 on a miss (X41). Troops of convoys guarding the city defend with it and die
first. Each hit suffered may cost a rifle (1 in 50); each round may use up a claymore
(1 in 50) and kills 6-10 people (3-5 with a Shelter, X43). The side out of troops loses,
the defender when both are. A fall kills 11-15% of the people more (3-5% with a Shelter,
X44), leaves 5-10 of the survivors as the garrison (X45; a Politician's VIGILANCE share of
the capacity instead, at most 50%) and blows up the claymores; a failed attack makes the
city hostile to the attacker's clan.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.rules import CombatRules, condition_pct, hits, police_pct, roll_range
from engine.rulesets.cc.convoy_stats import expert_pct, more_morale


@dataclass
class Invader:
    """The attacking convoy's side of an ATTACK."""

    convoy: int
    owner: int
    troops: int                      # committed (ATTACK n, or all the convoy's troops)
    rifles: int = 0
    grenades: int = 0
    morale: int = 30
    training: int = 30
    health: int = 100
    sergeant: bool = False
    police: bool = False             # visited a Police Station this turn
    vigilance_pct: int = 0           # counts only with a Politician
    politician: bool = False
    experts: tuple[str, ...] = ()    # its expert codes (a Gourmet's morale on taking a city, X251)

    @classmethod
    def from_state(cls, convoy, experts, game_turn: int = 0, troops: int | None = None,
                   vigilance_pct: int = 0) -> Invader:
        """From a cc state Convoy and its experts (rows or codes); `troops` is ATTACK's
        number (None = all); `vigilance_pct` the clan's VIGILANCE setting for it."""
        codes = {e if isinstance(e, str) else e.code for e in experts}
        committed = convoy.troops if troops is None else max(0, min(troops, convoy.troops))
        return cls(convoy.id, convoy.owner, committed, convoy.rifles, convoy.grenades,
                   convoy.morale, convoy.training, convoy.health, "SER" in codes,
                   bool(game_turn) and convoy.police_turn == game_turn,
                   vigilance_pct, "POL" in codes, tuple(sorted(codes)))


@dataclass
class CityDefence:
    """The city under attack: its garrison and the troops of convoys guarding it."""

    cell: int
    owner: int
    fortification: int
    troops: int
    population: int
    claymores: int = 0
    shelter: bool = False
    capacity: int = 0                # troop capacity (Barracks included), for VIGILANCE
    guards: list[tuple[int, int]] = field(default_factory=list)   # (convoy id, troops)


@dataclass
class InvasionResult:
    captured: bool
    rounds: int
    attackers_lost: int
    defenders_lost: int              # of the city's own garrison
    guards_lost: dict[int, int]      # guarding convoy id -> troops lost
    city_troops: int                 # the garrison afterwards (the new owner's if captured)
    garrison_left: int               # troops the attacker left in the city it took
    attackers_back: int              # committed troops returning to the convoy
    rifles: int                      # the convoy's rifles and grenades afterwards
    grenades: int
    claymores: int                   # the city's afterwards (0 if it fell)
    population: int
    people_killed: int
    hostile: bool                    # a failed attack: the city is hostile to the attacker
    events: list[Event] = field(default_factory=list)
    morale: int = 30                 # the attacking convoy's morale and training afterwards
    training: int = 30               # (X55: a capture and the experience raise them)


def attacker_chance(inv: Invader, troops: int, rules: CombatRules) -> int:
    rifles_in_use = min(inv.rifles, troops // rules.rifle_per_troops)
    return (rules.attacker_to_hit + police_pct(rules, inv.police, inv.sergeant) + rifles_in_use
            + condition_pct(rules, inv.training, inv.morale, inv.health))


def defender_chance(book: Book, city: CityDefence, claymores: int, rules: CombatRules) -> int:
    return (book.fortifications[city.fortification]["to_hit"]
            + (rules.shelter_pct if city.shelter else 0) + claymores)


def _grenade(dice: Dice, chance: int, rules: CombatRules) -> tuple[str, int]:
    """X94: at 100% or more the grenade hits surely, with no second roll."""
    hit = chance >= 100 or (chance > 0 and dice.chance(chance, "grenade"))
    if hit:
        return "hit", roll_range(dice, *rules.grenade_kills, "grenade kills")
    return "miss", rules.grenade_miss_kills


def _kill_people(population: int, killed: int, rules: CombatRules) -> int:
    """People actually killed: a city is never brought below `min_population` (X62, X167)."""
    return max(0, min(killed, population - rules.min_population))


def invade_city(book: Book, attacker: Invader, city: CityDefence, dice: Dice,
                rules: CombatRules | None = None) -> InvasionResult:
    """Fight an ATTACK to its end; the inputs are not changed."""
    rules = rules or CombatRules()
    troops, rifles, grenades = attacker.troops, attacker.rifles, attacker.grenades
    garrison, claymores, population = city.troops, city.claymores, city.population
    guards = [[cid, n] for cid, n in city.guards]
    sides = dict(cell=city.cell, convoy=attacker.convoy, attacker=attacker.owner,
                 defender=city.owner)
    events: list[Event] = []
    rounds = people = 0
    collateral = rules.collateral_shelter if city.shelter else rules.collateral

    def defenders() -> int:
        return garrison + sum(n for _, n in guards)

    while troops > 0 and defenders() > 0 and rounds < rules.city_round_cap:
        rounds += 1
        a_pct = attacker_chance(attacker, troops, rules)
        d_pct = defender_chance(book, city, claymores, rules)
        kills = hits(dice, a_pct, "attacker shot")
        grenade = ""
        if grenades > 0 and rounds % rules.grenade_every == 0:
            grenades -= 1
            grenade, extra = _grenade(dice, a_pct, rules)
            kills += extra
        losses = min(troops, hits(dice, d_pct, "defender shot"))
        kills = min(kills, defenders())
        left = kills
        for g in guards:                       # guards die first
            take = min(g[1], left)
            g[1] -= take
            left -= take
        garrison -= left
        troops -= losses
        for _ in range(losses):
            if rifles > 0 and dice.d(rules.rifle_loss_in, "rifle lost") == 1:
                rifles -= 1
        if claymores > 0 and dice.d(rules.claymore_loss_in, "claymore used") == 1:
            claymores -= 1
        dead = _kill_people(population, roll_range(dice, *collateral, "collateral"), rules)
        population -= dead
        people += dead
        events.append(ev.CityRound(round=rounds, attacker_to_hit=a_pct, defender_to_hit=d_pct,
                                   defenders_killed=kills, attackers_killed=losses,
                                   grenade=grenade, people_killed=dead, **sides))
    captured = troops > 0 and defenders() == 0    # X168: an empty city falls without a round
    garrison_left = 0
    if captured:
        lo, hi = rules.conquest_pct_shelter if city.shelter else rules.conquest_pct
        pct = roll_range(dice, lo, hi, "conquest losses")
        dead = _kill_people(population, population * pct // 100, rules)
        population -= dead
        people += dead
        if attacker.politician and attacker.vigilance_pct > 0:
            want = city.capacity * min(attacker.vigilance_pct, rules.vigilance_max) // 100
        else:
            want = roll_range(dice, *rules.capture_garrison, "garrison left")
        garrison_left = min(troops, want)
        troops -= garrison_left
        garrison, claymores = garrison_left, 0
    guards_lost = {cid: n - g[1] for (cid, n), g in zip(city.guards, guards, strict=True)}
    lost = attacker.troops - troops - garrison_left
    events.append(ev.CityInvaded(
        rounds=rounds, captured=captured, attackers_lost=lost,
        defenders_lost=city.troops - (0 if captured else garrison),
        guards_lost=sum(guards_lost.values()), people_killed=people, garrison_left=garrison_left,
        rifles_lost=attacker.rifles - rifles, grenades_used=attacker.grenades - grenades,
        claymores_lost=city.claymores - claymores, **sides))
    return InvasionResult(
        captured, rounds, lost, city.troops - (0 if captured else garrison), guards_lost,
        garrison, garrison_left, troops, rifles, grenades, claymores, population, people,
        not captured and attacker.troops > 0, events,
        attacker.morale + (_capture_morale(book, attacker, rules) if captured else 0),
        min(100, attacker.training + (rules.training_combat if rounds and troops else 0)))


def _capture_morale(book: Book, attacker: Invader, rules: CombatRules) -> int:
    """X55's gain for taking the city, raised by the attacker's Gourmet (X251)."""
    pct = expert_pct(book, "GOU", attacker.experts) if rules.gourmet_morale else 0
    return more_morale(rules.morale_capture, pct)


CONQUEST_FORBIDS = frozenset({"FORTIFY", "ERECT", "CREATE"})


def conquered_city_refusal(keyword: str, conquered_turn: int, game_turn: int) -> str:
    """A city taken this turn cannot be fortified, built in or create convoys; ASSIGN is
    allowed ("" = not refused)."""
    if conquered_turn and conquered_turn == game_turn and keyword.upper() in CONQUEST_FORBIDS:
        return f"{keyword.upper()} is not allowed in a city conquered this turn"
    return ""
