"""Typed events of a Continental Conquest clan turn (kinds `cc.*`).

A clan turn has one active clan: nearly every event is that clan's own business and is seen
only by it (and the GM). What other clans learn of it (a convoy passing their hex, a
message) goes to their inbox for their next report, as the book's radio does.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event


class _Own:
    """Seen by the clan it concerns (and the GM)."""

    clan: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.clan})

    def factions(self) -> frozenset[int]:
        return frozenset({self.clan})


@dataclass(frozen=True)
class NotBuilt(_Own, Event):
    """An order (or a step of one) that needs a part of the book not built yet (combat, the
    Plague, espionage...): refused by name, never silently dropped. A convoy order that
    needs it stops the convoy for the rest of the turn rather than guess."""

    kind = "cc.not_built"
    clan: int
    order: str          # the keyword (MOVE for a direction), or the step ("convoy combat")
    convoy: int         # the convoy's number, 0 for a clan order
    pulse: int          # the pulse (0 outside the convoy orders phase)
    line: int
    needs: str          # the part of the book: "convoy combat", "the Plague", ...


@dataclass(frozen=True)
class OrderFailed(_Own, Event):
    """An order the turn could not carry out, with the book's reason."""

    kind = "cc.failed"
    severity = "error"
    clan: int
    order: str
    convoy: int
    pulse: int
    line: int
    reason: str


@dataclass(frozen=True)
class OrderDone(_Own, Event):
    """A clan or convoy order carried out; `detail` says what it did in the report's words."""

    kind = "cc.done"
    clan: int
    order: str
    convoy: int
    pulse: int
    line: int
    detail: str
    amount: int = 0     # dollars paid (negative: received), when money changed hands


@dataclass(frozen=True)
class Income(_Own, Event):
    """The income phase: what the clan's hexes and cities produced."""

    kind = "cc.income"
    clan: int
    money: int
    food: int
    fuel: int
    parts: int
    vaccine: int
    troops: int
    rifles: int
    grenades: int
    hexes: int
    cities: int
    bonuses: int        # cities whose need another owned city meets


@dataclass(frozen=True)
class Moved(_Own, Event):
    kind = "cc.moved"
    clan: int
    convoy: int
    pulse: int
    frm: int            # cell
    cell: int
    fuel: int
    road: bool
    river: bool


@dataclass(frozen=True)
class HexTaken(_Own, Event):
    """A convoy in capture mode conquered the hex it entered ([ATTACKING A HEX])."""

    kind = "cc.hex_taken"
    clan: int
    convoy: int
    pulse: int
    cell: int
    previous: int       # the former owner (0: nobody)
    needed: int         # the rolled requirement
    lost: int           # attackers lost
    guards: int         # defenders killed


@dataclass(frozen=True)
class HexHeld(_Own, Event):
    """A hex attack that did not happen or failed."""

    kind = "cc.hex_held"
    clan: int
    convoy: int
    pulse: int
    cell: int
    needed: int
    troops: int
    lost: int
    reason: str


@dataclass(frozen=True)
class PickedUp(_Own, Event):
    """Troops or weapons boarding a convoy from the clan's stock in a friendly city."""

    kind = "cc.picked_up"
    clan: int
    convoy: int
    pulse: int          # 0: pre-turn, 11/13: after pulses, -1: maintenance
    cell: int
    troops: int
    rifles: int
    grenades: int
    rockets: int
    bombs: int


@dataclass(frozen=True)
class Fed(_Own, Event):
    """The food eaten after a pulse, in tenths (or twelfths), and who went hungry."""

    kind = "cc.fed"
    clan: int
    pulse: int
    eaten: int          # in 120ths of a unit: tenths and twelfths share one count
    hungry: int         # troops not fed this pulse


@dataclass(frozen=True)
class Deserted(_Own, Event):
    kind = "cc.deserted"
    clan: int
    pulse: int
    convoy: int         # 0: unallocated troops
    troops: int
    weapon: str         # a weapon taken along ("" none)
    morale: int         # the convoy's morale after
    vehicle: str = ""   # a vehicle they drove off in (cc-house, X210; "" none)


@dataclass(frozen=True)
class Maintained(_Own, Event):
    """A convoy's parts paid at maintenance, and any vehicles scrapped to pay them."""

    kind = "cc.maintained"
    clan: int
    convoy: int
    parts: int
    scrapped: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConvoyLost(_Own, Event):
    """A convoy gone: no vehicles left, morale zero a whole turn, sold, absorbed."""

    kind = "cc.convoy_lost"
    clan: int
    convoy: int
    reason: str


@dataclass(frozen=True)
class GameTurnEnded(Event):
    """The end of a game turn: the counter advanced, positions dropped, cities grown."""

    kind = "cc.game_turn_ended"
    game_turn: int      # the game turn that ended
    dropped: tuple[int, ...]
    grown: int          # cities that grew
    people: int         # people added in all


@dataclass(frozen=True)
class CycleNotBuilt(Event):
    """A step of the end of a game turn not built yet (Plague decline, popularity, victory)."""

    kind = "cc.cycle_not_built"
    game_turn: int
    step: str


@dataclass(frozen=True)
class News(_Own, Event):
    """What the clan heard since its last turn ("Heard on the Radio"): messages, passings,
    kickbacks, hexes lost; delivered at the end of its turn, for its report."""

    kind = "cc.news"
    clan: int
    items: tuple[tuple[str, int, str], ...]   # (kind, cell or -1, text)


@dataclass(frozen=True)
class PopularityCounted(Event):
    """Popularity recounted at the end of a game turn (public: the Top Clans list shows it)."""

    kind = "cc.popularity"
    game_turn: int
    scores: tuple[tuple[int, int], ...]    # (clan, popularity), best first


@dataclass(frozen=True)
class Leading(Event):
    """A clan reached the victory level first: it wins if it holds it one more game turn."""

    kind = "cc.leading"
    game_turn: int
    clan: int
    popularity: int


@dataclass(frozen=True)
class GameWon(Event):
    """The victory check: the game is over. `winner` -1: shared by `clans`."""

    kind = "cc.game_won"
    game_turn: int
    winner: int
    clans: tuple[int, ...]
    popularity: int


@dataclass(frozen=True)
class ClanDropped(Event):
    """The GM dropped a clan's position (public: the book's dropped positions are known)."""

    kind = "cc.clan_dropped"
    clan: int
    reason: str


@dataclass(frozen=True)
class StandbyJoined(Event):
    """A standby player took over a clan's position (public)."""

    kind = "cc.standby"
    clan: int
    name: str
