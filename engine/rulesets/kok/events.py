"""Every typed event a King of Kings turn emits (adjudication writes, reports render).

Conventions shared with the report writer:
- Cells are square-grid cells (`cell`, `frm`, `to` are cells, never tribes);
  tribes are in `faction`, `other`, `attacker`, `defender`, `winner`, `loser`, `owner`.
- Unit lists are tuples of (troop symbol, count) in troop-table order.
- `severity` (class attribute) marks the order messages of rule book 8.5:
  "error" -> `* player line` (failed, fully or one part of a PLA/DEF triple),
  "warning" -> `[player line]` (carried out, but not as written). Both carry the
  order's `line` number and `text` as written; `reason` is our explanation.
- Hit rolls: `roll` is d100, hit when roll <= chance (the book's "lower or same").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from engine.events import Event

Units = tuple[tuple[str, int], ...]

_TRIBE_FIELDS = ("faction", "other", "attacker", "defender", "winner", "loser", "owner",
                 "previous", "loyal")


@dataclass(frozen=True)
class KokEvent(Event):
    kind: ClassVar[str] = "kok.event"
    severity: ClassVar[str] = ""  # "error" / "warning" for 8.5 order messages

    def factions(self) -> frozenset[int]:
        out = set()
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in _TRIBE_FIELDS and isinstance(v, int) and v > 0:
                out.add(v)
        return frozenset(out)


# ---- order messages (8.5) ----------------------------------------------------------------

@dataclass(frozen=True)
class OrderFailed(KokEvent):
    """The order (or one item of a PLA/DEF triple) was not carried out."""

    kind: ClassVar[str] = "kok.order_failed"
    severity: ClassVar[str] = "error"
    faction: int
    line: int
    text: str
    reason: str
    verb: str = ""          # PLA, SEA, LAND, DEF, ALL, CEDE, DON, BUILD, NAME
    cell: int = -1          # the province concerned, -1 = none


@dataclass(frozen=True)
class OrderPartial(KokEvent):
    """The order was carried out, but not as written (fewer troops, a shorter route...)."""

    kind: ClassVar[str] = "kok.order_partial"
    severity: ClassVar[str] = "warning"
    faction: int
    line: int
    text: str
    reason: str
    verb: str = ""
    cell: int = -1


# ---- placement (4.3, 5.1) ----------------------------------------------------------------

@dataclass(frozen=True)
class UnitPlaced(KokEvent):
    kind: ClassVar[str] = "kok.placed"
    faction: int
    cell: int
    troop: str
    gold: int = 0
    wood: int = 0
    line: int = 0


@dataclass(frozen=True)
class PlacementRefused(KokEvent):
    """One placement of a PLA order refused (an error line of 8.5)."""

    kind: ClassVar[str] = "kok.place_refused"
    severity: ClassVar[str] = "error"
    faction: int
    cell: int
    troop: str
    reason: str
    line: int = 0
    text: str = ""


@dataclass(frozen=True)
class GeneralAvailable(KokEvent):
    """A new general may be placed (2.4: generals come with time, not gold)."""

    kind: ClassVar[str] = "kok.general_available"
    faction: int
    available: int          # generals the tribe may now place


# ---- movement (3.1, 3.2) -----------------------------------------------------------------

@dataclass(frozen=True)
class MoveStarted(KokEvent):
    kind: ClassVar[str] = "kok.move"
    faction: int
    medium: str             # "land" | "sea"
    frm: int
    units: Units
    tactic: str = ""        # land moves: the tactic for a battle at the destination
    points: int = 0         # movement points of the stack
    line: int = 0


@dataclass(frozen=True)
class MoveStep(KokEvent):
    kind: ClassVar[str] = "kok.move_step"
    faction: int
    medium: str
    frm: int
    to: int
    points_left: int


@dataclass(frozen=True)
class MoveBlocked(KokEvent):
    """A step that was not taken; the stack stays in `frm` (3.1 a, d, e; 3.2)."""

    kind: ClassVar[str] = "kok.move_blocked"
    severity: ClassVar[str] = "warning"
    faction: int
    medium: str
    frm: int
    to: int                 # -1: off the map
    reason: str
    line: int = 0
    text: str = ""


@dataclass(frozen=True)
class MoveHalted(KokEvent):
    """The stack stopped in `cell` before the end of its route (3.1 b, c; 3.2.2)."""

    kind: ClassVar[str] = "kok.move_halted"
    severity: ClassVar[str] = "warning"
    faction: int
    medium: str
    cell: int
    reason: str
    steps_left: int = 0
    line: int = 0
    text: str = ""


@dataclass(frozen=True)
class MoveEnded(KokEvent):
    kind: ClassVar[str] = "kok.moved"
    faction: int
    medium: str
    frm: int
    to: int
    units: Units
    steps: int              # provinces entered
    line: int = 0


@dataclass(frozen=True)
class MoveCancelled(KokEvent):
    """The whole move is undone (2.8: ending in an ally's province, status 1-4)."""

    kind: ClassVar[str] = "kok.move_cancelled"
    severity: ClassVar[str] = "error"
    faction: int
    medium: str
    frm: int
    to: int
    reason: str
    line: int = 0
    text: str = ""


@dataclass(frozen=True)
class ProvinceOccupied(KokEvent):
    """An undefended province taken by moving in (2.3, 3.1.3)."""

    kind: ClassVar[str] = "kok.occupied"
    faction: int
    cell: int
    previous: int


@dataclass(frozen=True)
class ProvinceConquered(KokEvent):
    """A defended province won in battle; a castle there is destroyed (2.1)."""

    kind: ClassVar[str] = "kok.conquered"
    faction: int
    cell: int
    previous: int
    castles_destroyed: int = 0


@dataclass(frozen=True)
class UnitsCaptured(KokEvent):
    """Unguarded non-combatants taken by the enemy (option 7.6)."""

    kind: ClassVar[str] = "kok.captured"
    faction: int            # who captured
    other: int              # who lost them
    cell: int
    units: Units


@dataclass(frozen=True)
class UnitsLost(KokEvent):
    """Units destroyed outside a battle round: uncrewed ships ashore, castles of a lost
    province, non-combatants left alone in a conquered province."""

    kind: ClassVar[str] = "kok.units_lost"
    faction: int
    cell: int
    units: Units
    reason: str


# ---- sea (3.2.2, 3.3) --------------------------------------------------------------------

@dataclass(frozen=True)
class FleetDetected(KokEvent):
    kind: ClassVar[str] = "kok.fleet_detected"
    faction: int            # the moving fleet's tribe
    other: int              # the tribe whose ships saw it
    cell: int
    roll: int
    chance: int


@dataclass(frozen=True)
class SeaBattleRound(KokEvent):
    kind: ClassVar[str] = "kok.sea_round"
    cell: int
    round: int
    attacker: int
    defender: int
    attacker_hits: int
    defender_hits: int
    attacker_ships: int     # left after the round
    defender_ships: int


@dataclass(frozen=True)
class SeaBattle(KokEvent):
    kind: ClassVar[str] = "kok.sea_battle"
    cell: int
    attacker: int
    defender: int
    attacker_ships: int     # at the start
    defender_ships: int
    rounds: int
    winner: int             # 0: both sides sunk
    attacker_lost: int
    defender_lost: int


@dataclass(frozen=True)
class CarriedLosses(KokEvent):
    """Troops lost with the ships that carried them (3.3)."""

    kind: ClassVar[str] = "kok.carried_losses"
    faction: int
    cell: int
    units: Units            # lost
    percent: int            # ship losses in percent


# ---- land battles (3.4 - 3.6) ------------------------------------------------------------

@dataclass(frozen=True)
class BattleStarted(KokEvent):
    kind: ClassVar[str] = "kok.battle"
    cell: int
    attacker: int
    defender: int
    attacker_units: Units
    defender_units: Units
    attacker_tactic: str
    defender_tactic: str
    attacker_modifier: int
    defender_modifier: int
    terrain: str
    hit_cap: int            # 0 = none
    frm: int = -1           # where the attackers came from (their retreat)
    amphibious: bool = False
    supporters: tuple[int, ...] = ()   # alliance-5 tribes fighting under the attacker/defender


@dataclass(frozen=True)
class HitRoll(KokEvent):
    """One unit's hit roll against one enemy unit (3.4)."""

    kind: ClassVar[str] = "kok.hit_roll"
    cell: int
    round: int
    side: str               # "attacker" | "defender"
    faction: int
    troop: str
    unit: int               # 1-based position of the rolling unit in its side's order
    other: int
    target_troop: str       # troop symbol of the unit aimed at
    target_unit: int        # its 1-based position
    chance: int
    roll: int
    hit: bool


@dataclass(frozen=True)
class BattleRound(KokEvent):
    kind: ClassVar[str] = "kok.battle_round"
    cell: int
    round: int
    attacker: int
    defender: int
    attacker_losses: Units
    defender_losses: Units
    attacker_left: int      # units left
    defender_left: int


@dataclass(frozen=True)
class Retreat(KokEvent):
    kind: ClassVar[str] = "kok.retreat"
    faction: int
    side: str
    frm: int
    to: int
    units: Units
    reason: str = ""


@dataclass(frozen=True)
class Surrender(KokEvent):
    """Retreat impossible: the units are removed (3.5.1); they count as no losses."""

    kind: ClassVar[str] = "kok.surrender"
    faction: int
    side: str
    cell: int
    other: int              # surrendered to
    units: Units
    reason: str = ""


@dataclass(frozen=True)
class BattleEnded(KokEvent):
    kind: ClassVar[str] = "kok.battle_end"
    cell: int
    attacker: int
    defender: int
    winner: int             # 0: nobody holds the field (both gone)
    rounds: int
    attacker_lost: int      # value lost (victory-point terms, see 3.6)
    defender_lost: int
    attacker_points: int    # victory points of this battle
    defender_points: int
    owner: int              # province owner after the battle


@dataclass(frozen=True)
class FameAwarded(KokEvent):
    """Turn total of victory points added to fame when positive (3.6)."""

    kind: ClassVar[str] = "kok.fame"
    faction: int
    points: int             # this turn's victory points (may be <= 0: then nothing added)
    added: int
    total: int


# ---- orders of administration (5.4 - 5.9) ------------------------------------------------

@dataclass(frozen=True)
class TacticSet(KokEvent):
    kind: ClassVar[str] = "kok.tactic"
    faction: int
    cell: int
    tactic: str


@dataclass(frozen=True)
class AllianceDeclared(KokEvent):
    kind: ClassVar[str] = "kok.alliance_declared"
    faction: int
    other: int
    old: int
    declared: int


@dataclass(frozen=True)
class AllianceChanged(KokEvent):
    """Status in force between two tribes after the turn (2.8), both directions."""

    kind: ClassVar[str] = "kok.alliance"
    faction: int
    other: int
    old: int
    new: int


@dataclass(frozen=True)
class Ceded(KokEvent):
    kind: ClassVar[str] = "kok.ceded"
    faction: int
    other: int
    cell: int


@dataclass(frozen=True)
class Donation(KokEvent):
    kind: ClassVar[str] = "kok.donation"
    faction: int
    other: int
    gold: int               # taken from the donor
    fee: int
    received: int


@dataclass(frozen=True)
class BuildResult(KokEvent):
    kind: ClassVar[str] = "kok.build"
    faction: int
    cell: int
    cost: int
    chance: int
    roll: int
    success: bool
    old: str                # terrain before
    new: str                # terrain after (== old on failure)


@dataclass(frozen=True)
class Named(KokEvent):
    kind: ClassVar[str] = "kok.named"
    faction: int
    cell: int
    name: str


# ---- end of turn (2.6, 2.7, 4.x, 6.2) ----------------------------------------------------

@dataclass(frozen=True)
class Isolated(KokEvent):
    kind: ClassVar[str] = "kok.isolated"
    faction: int
    cell: int


@dataclass(frozen=True)
class SiegeLoss(KokEvent):
    kind: ClassVar[str] = "kok.siege_loss"
    faction: int
    cell: int
    units: Units
    roll: int = 0
    chance: int = 0


@dataclass(frozen=True)
class Production(KokEvent):
    kind: ClassVar[str] = "kok.production"
    faction: int
    food: int
    gold: int
    wood: int
    food_needed: int
    provinces: int


@dataclass(frozen=True)
class Disbanded(KokEvent):
    """Units disbanded for want of food (4.1)."""

    kind: ClassVar[str] = "kok.disbanded"
    faction: int
    cell: int
    troop: str
    count: int


@dataclass(frozen=True)
class StorageLoss(KokEvent):
    kind: ClassVar[str] = "kok.storage_loss"
    faction: int
    resource: str           # gold | wood | food
    lost: int
    kept: int


@dataclass(frozen=True)
class LoyaltyReverted(KokEvent):
    """An empty disloyal province goes back to the tribe it is loyal to (2.7)."""

    kind: ClassVar[str] = "kok.loyalty_reverted"
    cell: int
    faction: int            # new owner (the loyal tribe)
    previous: int


@dataclass(frozen=True)
class LoyaltyConverted(KokEvent):
    kind: ClassVar[str] = "kok.loyalty_converted"
    cell: int
    faction: int            # now loyal to
    previous: int           # was loyal to
    cause: str              # cede | leaderless | build | chance
    roll: int = 0


@dataclass(frozen=True)
class TribeEliminated(KokEvent):
    kind: ClassVar[str] = "kok.eliminated"
    faction: int


@dataclass(frozen=True)
class Ranking(KokEvent):
    """End-of-game standing of one tribe (6.2): average of three ranks, lower is better."""

    kind: ClassVar[str] = "kok.ranking"
    faction: int
    place: int
    average: float
    fame: int
    fame_rank: int
    treasure: int
    treasure_rank: int
    might: int
    might_rank: int


ORDER_MESSAGES: tuple[type[KokEvent], ...] = (
    OrderFailed, OrderPartial, PlacementRefused, MoveBlocked, MoveHalted, MoveCancelled,
)
