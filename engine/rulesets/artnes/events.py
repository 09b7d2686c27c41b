"""ARTNES turn events. All are public: the book's map update is posted to the whole forum.

Field names avoid the case runner's cell fields (to, at, ...) because places are realm
names here, not grid cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event


@dataclass(frozen=True)
class WarDeclared(Event):
    kind = "war"
    nation: int = 0
    other: int = 0


@dataclass(frozen=True)
class PeaceMade(Event):
    kind = "peace"
    nation: int = 0
    other: int = 0


@dataclass(frozen=True)
class PeaceOffered(Event):
    kind = "peace_offer"
    nation: int = 0
    other: int = 0


@dataclass(frozen=True)
class Purchased(Event):
    kind = "purchase"
    nation: int = 0
    unit: str = ""
    realm: str = ""
    count: int = 1
    cost: int = 0


@dataclass(frozen=True)
class Moved(Event):
    kind = "move"
    nation: int = 0
    unit: str = ""
    count: int = 1
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Convoyed(Event):
    kind = "convoy"
    nation: int = 0
    unit: str = ""
    count: int = 1
    src: str = ""
    dest: str = ""
    sea: str = ""
    done: bool = True           # False: no galley in the sea, the units stay home


@dataclass(frozen=True)
class Contest(Event):
    """Several nations entered one realm; the most knights win (ties by the dice)."""

    kind = "contest"
    realm: str = ""
    nations: tuple[int, ...] = ()
    knights: tuple[int, ...] = ()
    winner: int = 0
    by_lot: bool = False


@dataclass(frozen=True)
class Bounced(Event):
    kind = "bounce"
    nation: int = 0
    unit: str = ""
    count: int = 1
    realm: str = ""             # where they meant to go
    stays: str = ""             # where they stay
    reason: str = ""


@dataclass(frozen=True)
class Claimed(Event):
    kind = "claim"
    nation: int = 0
    realm: str = ""


@dataclass(frozen=True)
class Captured(Event):
    """A foreign realm taken without a battle (nobody defended it)."""

    kind = "capture"
    nation: int = 0
    realm: str = ""
    previous: int = 0


@dataclass(frozen=True)
class Battle(Event):
    kind = "battle"
    realm: str = ""
    attacker: int = 0
    defender: int = 0
    attack: int = 0             # attack points
    defence: int = 0            # defence points
    base_column: str = ""       # odds rounded down to a column
    shift: int = 0              # columns to the left (terrain, castle)
    column: str = ""            # column fought on
    die: int = 0                # 0 = no roll (automatic result)
    result: str = ""            # A..E
    attacker_units: tuple[tuple[str, int], ...] = ()
    defender_units: tuple[tuple[str, int], ...] = ()
    attacker_losses: tuple[tuple[str, int], ...] = ()
    defender_losses: tuple[tuple[str, int], ...] = ()
    realm_lost: bool = False
    castle: bool = False
    terrain: int = 0


@dataclass(frozen=True)
class Retreated(Event):
    kind = "retreat"
    nation: int = 0
    unit: str = ""
    count: int = 1
    src: str = ""
    dest: str = ""              # '' = nowhere to go: destroyed


@dataclass(frozen=True)
class GalleysLost(Event):
    """The defender's galleys in a lost realm are destroyed."""

    kind = "galleys_lost"
    nation: int = 0
    realm: str = ""
    count: int = 0


@dataclass(frozen=True)
class CastleRazed(Event):
    kind = "castle_razed"
    realm: str = ""


@dataclass(frozen=True)
class SeaBattle(Event):
    kind = "sea_battle"
    sea: str = ""
    nations: tuple[int, ...] = ()
    galleys: tuple[int, ...] = ()   # before the battle, in the order of `nations`
    losses: tuple[int, ...] = ()


@dataclass(frozen=True)
class Starved(Event):
    kind = "starvation"
    nation: int = 0
    unit: str = ""
    location: str = ""
    count: int = 1


@dataclass(frozen=True)
class Income(Event):
    kind = "income"
    nation: int = 0
    salary: int = 0
    treasury: int = 0
    population: int = 0
    realms: int = 0
