"""The battle (Combat: The Battle, Victory!; Stealth: Assassination) as a pure function.

Interface for the muster (kept stable: extended, never renamed):

- `Combatant`: one unit as it enters the battle. The muster fills it from the state:
  skill *levels* (not days), everything the unit carries, the BEHIND flag, how many of its
  men a building protects (the muster hands out a building's size to its occupants in
  report order, longest occupants first), its COMBAT spell, and which factions may see its
  faction in the battle report.
- `fight(attackers, defenders, terrain=..., dice=...)` runs a battle; `duel(assassin,
  victim, ...)` an assassination (the assassin's free round, no armour on either side, one
  man of the victim's unit fights). Both return a `BattleResult`.
- `BattleResult` says who won (or a draw), the rounds and free rounds, the men each unit
  lost, the items each unit lost with its dead, the spoils each surviving unit picked up,
  and a structured log (`Note`s) that `combat.report` turns into the report's battle
  section. Applying it: `men -= losses[u]`, items `-= lost_items[u]`, `+= spoils[u]`.

Each man fights as one soldier. A unit's items are shared out over its men as evenly as
whole items allow, the men listed first taking the odd ones (`holding`): with 5 swords and
10 men, men 1-5 hold a sword; a dead man's share is what his unit loses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from engine.dice import Dice
from engine.rulesets.atlantis.combat import spells as sp
from engine.rulesets.atlantis.combat import spoils as sl

Side = Literal["attackers", "defenders"]
ATTACKERS: Side = "attackers"
DEFENDERS: Side = "defenders"


@dataclass(frozen=True)
class Combatant:
    """One unit in a battle, as the muster sees it before the first blow."""

    unit: int
    faction: int
    men: int
    name: str = ""                    # the unit's name ("" = "Unit"); reports add "(n)"
    faction_name: str = ""            # its faction's name, for those who identify it
    levels: Mapping[str, int] = field(default_factory=dict)
    """Skill levels by catalog name: combat, longbow, crossbow, riding, tactics, magic and the
    combat spells (dazzle, lightning bolt, cause fear, inspire courage, fireball, black
    wind). Missing = 0."""
    items: Mapping[str, int] = field(default_factory=dict)
    """Everything the unit carries by catalog item name, silver included (not its men)."""
    behind: bool = False              # BEHIND 1: not hit while its side's front stands
    protected: int = 0                # how many of its men a building protects (+2 defence)
    combat_spell: str = ""            # its COMBAT spell (catalog name), "" = none
    structure: int = 0                # building or ship it is in (for the report only)
    identified_by: frozenset[int] | None = None
    """Factions that may see this unit's faction in the battle report (its own always
    may); None = every faction."""


@dataclass(frozen=True)
class BattleOptions:
    """Game options the battle reads (the catalog's `spell_range`), and its limits."""

    spell_range: str = "level_both"   # "level_both": level x low .. level x high;
    #                                   "level_top": low .. level x high
    max_rounds: int = 100             # then the battle ends indecisively (a draw)
    spoils_percent: int = 50          # chance each item of the losers' dead is found
    armour: bool = True               # False in an assassination: nobody wears any


@dataclass(frozen=True)
class FreeRound:
    side: Side
    reason: Literal["tactics", "victory", "assassin"]


@dataclass(frozen=True)
class Note:
    """One line of the battle's log, in the order it happened.

    kinds: "free_round" (side, unit = its leader, reason), "round" (round), "spell"
    (side, unit = the caster, spell, count: men it killed/dazzled/frightened/inspired,
    level), "losses" (side, unit = its leader, count: men the side lost in the round),
    "routed" (side, unit = its leader), "indecisive"."""

    kind: str
    side: Side | None = None
    unit: int = 0
    round: int = 0
    count: int = 0
    spell: str = ""
    level: int = 0
    reason: str = ""


@dataclass
class BattleResult:
    """What a battle did; the muster applies it to the state, the report tells it."""

    kind: Literal["battle", "assassination"]
    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    leaders: dict[str, int]                       # side -> leader's unit number
    winner: Side | None                           # None: a draw
    rounds: int = 0                               # normal rounds fought
    free_rounds: list[FreeRound] = field(default_factory=list)
    losses: dict[int, int] = field(default_factory=dict)               # unit -> men lost
    lost_items: dict[int, dict[str, int]] = field(default_factory=dict)  # unit -> items gone
    spoils: dict[int, dict[str, int]] = field(default_factory=dict)      # unit -> items found
    found: dict[str, int] = field(default_factory=dict)                  # all spoils together
    log: list[Note] = field(default_factory=list)

    @property
    def draw(self) -> bool:
        return self.winner is None

    @property
    def loser(self) -> Side | None:
        return None if self.winner is None else (DEFENDERS if self.winner == ATTACKERS
                                                 else ATTACKERS)

    def side(self, side: Side) -> tuple[Combatant, ...]:
        return self.attackers if side == ATTACKERS else self.defenders

    def side_of(self, unit: int) -> Side | None:
        if any(c.unit == unit for c in self.attackers):
            return ATTACKERS
        if any(c.unit == unit for c in self.defenders):
            return DEFENDERS
        return None

    def survivors(self, unit: int) -> int:
        """Men of `unit` alive after the battle."""
        for c in (*self.attackers, *self.defenders):
            if c.unit == unit:
                return c.men - self.losses.get(unit, 0)
        return 0

    def side_losses(self, side: Side) -> int:
        """Men the side lost (the book: a winning side that lost men may not move or
        attack again this month)."""
        return sum(self.losses.get(c.unit, 0) for c in self.side(side))


SWORD, HORSE, LONGBOW, CROSSBOW = "sword", "horse", "longbow", "crossbow"
CHAIN, PLATE = "chain armor", "plate armor"
SWORD_BONUS, BUILDING_BONUS, MAX_RIDING, SPELL_MALUS = 2, 2, 3, 2
LONGBOW_DEFENCE, CROSSBOW_DEFENCE = 2, 0
ARMOUR_SAVES = {PLATE: 2, CHAIN: 1}     # thirds of a chance to survive a hit
MELEE = "melee"


class _Soldier:
    """One man of a unit in the battle."""

    __slots__ = ("army", "unit", "man", "weapon", "skill", "defence", "armour", "protected",
                 "behind", "alive", "dazzled", "feared", "spell", "spell_level", "pos")

    def __init__(self, army: _Army, c: Combatant, man: int, riding_counts: bool,
                 armour: bool) -> None:
        held = sl.holding(c.items, c.men, man, c.levels)
        lv = c.levels
        self.army, self.unit, self.man = army, c.unit, man
        # the book: a longbow if he has one and the skill, else a crossbow likewise,
        # else hand to hand
        if held.get(LONGBOW) and lv.get("longbow", 0) >= 1:
            self.weapon, self.skill, self.defence = LONGBOW, int(lv["longbow"]), 0
        elif held.get(CROSSBOW) and lv.get("crossbow", 0) >= 1:
            self.weapon, self.skill, self.defence = CROSSBOW, int(lv["crossbow"]), 0
        else:
            skill = int(lv.get("combat", 0))
            if held.get(SWORD):
                skill += SWORD_BONUS
            if riding_counts and held.get(HORSE):
                skill += min(MAX_RIDING, int(lv.get("riding", 0)))
            # melee skill serves in attack and defence; a bowman defends as Combat 0
            self.weapon, self.skill, self.defence = MELEE, skill, skill
        self.armour = ""
        if armour:
            self.armour = PLATE if held.get(PLATE) else CHAIN if held.get(CHAIN) else ""
        self.protected = man < c.protected
        self.behind = c.behind
        self.alive, self.dazzled, self.feared = True, False, False
        self.spell, self.spell_level, self.pos = "", 0, -1


class _Army:
    """One side: its soldiers, who is still standing, and its own count of rounds (the
    crossbow's first, third, fifth... rounds count its free round)."""

    def __init__(self, side: Side, combatants: Sequence[Combatant], riding_counts: bool,
                 armour: bool, spells: Mapping[str, Mapping]) -> None:
        self.side = side
        self.combatants = tuple(c for c in combatants if c.men > 0)
        self.soldiers: list[_Soldier] = []
        for c in self.combatants:
            first = len(self.soldiers)
            self.soldiers += [_Soldier(self, c, m, riding_counts, armour) for m in range(c.men)]
            level = sp.casting_level(c.combat_spell, c.levels, c.items, spells)
            if level > 0:   # a mage is a one-man unit; its first man casts
                self.soldiers[first].spell = c.combat_spell
                self.soldiers[first].spell_level = level
        self.front = [s for s in self.soldiers if not s.behind]
        self.rear = [s for s in self.soldiers if s.behind]
        for group in (self.front, self.rear):
            for i, s in enumerate(group):
                s.pos = i
        self.total = len(self.soldiers)
        self.dead: dict[int, list[int]] = {}   # unit -> men killed (their numbers)
        self.killed = 0
        self.round = 0

    def alive(self) -> int:
        return len(self.front) + len(self.rear)

    def broken(self) -> bool:
        """50% losses or more (an empty side is broken from the start)."""
        return self.total == 0 or 2 * self.killed >= self.total

    def targets(self) -> list[_Soldier]:
        """Who the enemy can reach: the front while it stands, then the rear."""
        return self.front if self.front else self.rear

    def kill(self, s: _Soldier) -> None:
        group = self.front if not s.behind else self.rear
        last = group.pop()
        if last is not s:
            group[s.pos] = last
            last.pos = s.pos
        s.alive = False
        self.killed += 1
        self.dead.setdefault(s.unit, []).append(s.man)

    def standing(self) -> list[_Soldier]:
        return self.front + self.rear

    def leader(self) -> Combatant | None:
        """The best tactician; a tie goes to the lower unit number."""
        if not self.combatants:
            return None
        return min(self.combatants, key=lambda c: (-int(c.levels.get("tactics", 0)), c.unit))


def roll(dice: Dice, sides: int, why: str) -> int:
    """A die of `sides` faces; a one-faced "die" is not rolled (scripted cases stay short)."""
    return 1 if sides <= 1 else dice.d(sides, why)


def _hits(dice: Dice, attack: int, defence: int) -> bool:
    """The skill contest: odds 2^(attack - defence) to 1 (rules.hit_chance), rolled
    exactly with one die: d(2^d + 1) <= 2^d, or for a weaker attacker d(2^-d + 1) == 1."""
    d = attack - defence
    if d >= 0:
        odds = 1 << d
        return dice.d(odds + 1, "hit") <= odds
    return dice.d((1 << -d) + 1, "hit") == 1


class _Battle:
    def __init__(self, kind: str, attackers: Sequence[Combatant],
                 defenders: Sequence[Combatant], terrain: str, dice: Dice,
                 spells: Mapping[str, Mapping] | None, options: BattleOptions) -> None:
        self.kind = kind
        self.dice, self.options = dice, options
        self.spells = spells if spells is not None else sp.book_spells()
        riding = terrain == "plain"   # the book: riding counts only in a plain
        self.armies = {ATTACKERS: _Army(ATTACKERS, attackers, riding, options.armour,
                                        self.spells),
                       DEFENDERS: _Army(DEFENDERS, defenders, riding, options.armour,
                                        self.spells)}
        self.result = BattleResult(kind, tuple(attackers), tuple(defenders), {}, None)
        for side, army in self.armies.items():
            lead = army.leader()
            self.result.leaders[side] = lead.unit if lead else 0

    def note(self, kind: str, **kw) -> None:
        self.result.log.append(Note(kind, **kw))

    def enemy(self, army: _Army) -> _Army:
        return self.armies[DEFENDERS if army.side == ATTACKERS else ATTACKERS]

    # ---- rounds ---------------------------------------------------------------------------

    def free_round(self, side: Side, reason: str) -> None:
        army = self.armies[side]
        foe = self.enemy(army)
        self.result.free_rounds.append(FreeRound(side, reason))  # type: ignore[arg-type]
        self.note("free_round", side=side, unit=self.result.leaders[side], reason=reason)
        before = foe.killed
        army.round += 1
        self.attacks(army.standing())
        self.note("losses", side=foe.side, unit=self.result.leaders[foe.side],
                  count=foe.killed - before)

    def normal_round(self, n: int) -> None:
        self.note("round", round=n)
        a, d = self.armies[ATTACKERS], self.armies[DEFENDERS]
        before = (a.killed, d.killed)
        a.round += 1
        d.round += 1
        self.attacks(a.standing() + d.standing())
        for army, was in ((a, before[0]), (d, before[1])):
            self.note("losses", side=army.side, unit=self.result.leaders[army.side],
                      count=army.killed - was)

    def attacks(self, order: list[_Soldier]) -> None:
        """Everyone in `order` attacks once, in a random order; the dead do not."""
        self.dice.shuffle(order, "order of attacks")
        for s in order:
            if not s.alive:
                continue
            foe = self.enemy(s.army)
            if not foe.alive():
                break
            if s.spell:
                self.cast(s, foe)
                if not foe.alive():
                    break
            self.attack(s, foe)

    def attack(self, s: _Soldier, foe: _Army) -> None:
        weapon = s.weapon
        behind = s.behind and bool(s.army.front)   # BEHIND lapses when the front is gone
        if behind and weapon == MELEE:
            return
        if weapon == CROSSBOW and s.army.round % 2 == 0:
            return   # reloading: a crossbow fires on its side's 1st, 3rd, 5th... round
        malus = (SPELL_MALUS if s.feared else 0) + (SPELL_MALUS if s.dazzled else 0)
        s.dazzled = False   # Dazzle lasts for one attack
        if self.dice.d(2, "lethal opportunity") != 1:
            return
        targets = foe.targets()
        if not targets:
            return
        t = targets[roll(self.dice, len(targets), "target") - 1]
        if weapon == MELEE:
            defence = t.defence - (SPELL_MALUS if t.feared else 0)
        else:   # bows: the target's skills do not count
            defence = LONGBOW_DEFENCE if weapon == LONGBOW else CROSSBOW_DEFENCE
        if t.protected:
            defence += BUILDING_BONUS
        if not _hits(self.dice, s.skill - malus, defence):
            return
        if t.armour and weapon != CROSSBOW:
            if self.dice.d(3, f"{t.armour} save") <= ARMOUR_SAVES[t.armour]:
                return
        foe.kill(t)

    def cast(self, s: _Soldier, foe: _Army) -> None:
        spell, level = s.spell, s.spell_level
        n = sp.reach(self.spells[spell], level, self.dice, self.options.spell_range)
        if spell == sp.COURAGE:
            pool = [x for x in s.army.standing() if x.feared]
        else:
            pool = list(foe.targets())
        picked = self.pick(pool, n, spell)
        for t in picked:
            if spell in sp.KILL:
                foe.kill(t)
            elif spell == sp.DAZZLE:
                t.dazzled = True
            elif spell == sp.FEAR:
                t.feared = True
            elif spell == sp.COURAGE:
                t.feared = False
        self.note("spell", side=s.army.side, unit=s.unit, spell=spell, level=level,
                  count=len(picked))

    def pick(self, pool: list[_Soldier], n: int, why: str) -> list[_Soldier]:
        """`n` different soldiers of `pool` at random (all of them if fewer)."""
        if n >= len(pool):
            return pool
        for i in range(n):   # a partial Fisher-Yates shuffle
            j = i + roll(self.dice, len(pool) - i, why) - 1
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:n]

    # ---- the whole battle -----------------------------------------------------------------

    def run(self, first: str | None) -> BattleResult:
        a, d = self.armies[ATTACKERS], self.armies[DEFENDERS]
        if first == "assassin":
            self.free_round(ATTACKERS, "assassin")
        elif a.total and d.total:
            ta = int(a.leader().levels.get("tactics", 0))   # type: ignore[union-attr]
            td = int(d.leader().levels.get("tactics", 0))   # type: ignore[union-attr]
            if ta != td:
                self.free_round(ATTACKERS if ta > td else DEFENDERS, "tactics")
        n = 0
        while not a.broken() and not d.broken() and n < self.options.max_rounds:
            n += 1
            self.normal_round(n)
        self.result.rounds = n
        if a.broken() != d.broken():
            loser = a if a.broken() else d
            winner = self.enemy(loser)
            self.result.winner = winner.side
            self.note("routed", side=loser.side, unit=self.result.leaders[loser.side])
            if loser.alive():
                self.free_round(winner.side, "victory")
        else:
            self.note("indecisive")
        self.settle()
        return self.result

    def settle(self) -> None:
        """Men and items lost, and the spoils (Victory!)."""
        r = self.result
        left: list[tuple[int, dict[str, int]]] = []
        for army in self.armies.values():
            losing = r.winner is not None and army.side != r.winner
            for c in army.combatants:
                dead = army.dead.get(c.unit, [])
                r.losses[c.unit] = len(dead)
                if not dead:
                    continue
                carried = sl.carried_by(c.items, c.men, dead, c.levels)
                if losing:
                    r.lost_items[c.unit] = carried
                    left.append((c.unit, carried))
                elif len(dead) == c.men and carried:
                    r.lost_items[c.unit] = carried   # nobody left to carry them off
        for c in (*r.attackers, *r.defenders):
            r.losses.setdefault(c.unit, 0)
        if r.winner is None or not left:
            return
        winners = self.armies[r.winner]
        r.found = sl.found(left, self.dice, self.options.spoils_percent)
        survivors = [(c.unit, c.men - r.losses[c.unit]) for c in winners.combatants]
        r.spoils = sl.hand_out(r.found, survivors, self.dice)


def fight(attackers: Sequence[Combatant], defenders: Sequence[Combatant], *, terrain: str,
          dice: Dice, spells: Mapping[str, Mapping] | None = None,
          options: BattleOptions = BattleOptions()) -> BattleResult:
    """Run one battle. `terrain` is the region's terrain name (riding counts in a plain);
    `dice` a sub-generator for this battle (e.g. `ctx.dice.sub("battle", cell, n)`);
    `spells` the spells catalog by name (default: the book's). The first attacker and
    first defender are the units named in the battle's first line ("X attacks Y").

    The leaders (best Tactics, ties to the lower unit number) decide the free round; then
    rounds until a side has lost half its men (or `options.max_rounds`: a draw); the
    winner's free round; the dead's items and the spoils."""
    return _Battle("battle", attackers, defenders, terrain, dice, spells, options).run(None)


def duel(assassin: Combatant, victim: Combatant, *, terrain: str, dice: Dice,
         spells: Mapping[str, Mapping] | None = None,
         options: BattleOptions = BattleOptions()) -> BattleResult:
    """An assassination: the one-man `assassin` against one man of `victim`'s unit (its
    first man and his share of the unit's items); the assassin's free round, then normal
    rounds, no armour on either side. `winner` ATTACKERS = the victim is dead. The result's
    `defenders` holds that one man (men=1, his items); `survivors(victim.unit)` is then 0
    or 1: subtract `losses` from the real unit."""
    if assassin.men != 1:
        raise ValueError(f"unit {assassin.unit}: only a one-man unit may assassinate")
    one = replace(victim, men=min(1, victim.men),
                  items=sl.holding(victim.items, victim.men, 0, victim.levels),
                  protected=0, behind=False)
    opts = replace(options, armour=False)
    return _Battle("assassination", [replace(assassin, protected=0, behind=False)], [one],
                   terrain, dice, spells, opts).run("assassin")
