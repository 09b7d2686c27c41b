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
from dataclasses import dataclass, field
from typing import Literal

from engine.dice import Dice

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


def fight(attackers: Sequence[Combatant], defenders: Sequence[Combatant], *, terrain: str,
          dice: Dice, spells: Mapping[str, Mapping] | None = None,
          options: BattleOptions = BattleOptions()) -> BattleResult:
    """Run one battle. `terrain` is the region's terrain name (riding counts in a plain);
    `dice` a sub-generator for this battle (e.g. `ctx.dice.sub("battle", cell, n)`);
    `spells` the spells catalog by name (default: the book's). The first attacker and
    first defender are the units named in the battle's first line ("X attacks Y")."""
    raise NotImplementedError("interface only; the engine follows on this branch")


def duel(assassin: Combatant, victim: Combatant, *, terrain: str, dice: Dice,
         spells: Mapping[str, Mapping] | None = None,
         options: BattleOptions = BattleOptions()) -> BattleResult:
    """An assassination: the one-man `assassin` against one man of `victim`'s unit (its
    first man and his share of the unit's items); the assassin's free round, then normal
    rounds, no armour on either side. `winner` ATTACKERS = the victim is dead."""
    raise NotImplementedError("interface only; the engine follows on this branch")
