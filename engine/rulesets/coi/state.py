"""Conquest of Island state tables.

Players are numbered from 1 (0 = nobody). Cells are the hex map's cells; the book's
"4,5" is column 4, row 5 of a flat-topped grid (see docs/coi.md). Times are UTC ISO
strings ("2026-11-20T14:05:00Z").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Game:
    """The one row of game-wide facts."""

    gm: str = ""              # forum name of the GM: their "the game has started" post starts it
    started_at: str = ""      # "" = not started yet
    clock: str = ""           # time of the latest post applied
    next_offer: int = 1       # number the next trade offer gets
    ended_at: str = ""


@dataclass
class Player:
    number: int
    name: str                 # forum name, as the posts' author
    ap: int = 10              # action points as of `ap_at` (10: the start)
    ap_at: str = ""           # time the AP were last brought up to date
    food: int = 0
    wood: int = 0
    iron: int = 0
    country: int = 0          # country of origin: the founding player's number
    end_vote: bool = False    # agreed to end the game
    joined_at: str = ""


@dataclass
class Hex:
    """A hex that is controlled, built on or harvested (others have no record)."""

    cell: int
    owner: int = 0
    building: str = ""        # fort | port | centre | ""
    harvested: int = 0        # harvests taken from a stock (the ruin)


@dataclass
class Stack:
    """`count` units of one type of one player in one hex (land units in water are cargo)."""

    cell: int
    owner: int
    unit: str
    count: int


@dataclass
class Alliance:
    """`player` declared alliance to `ally` (one way; the book's alliances are declared)."""

    player: int
    ally: int
    since: str = ""


@dataclass
class Offer:
    offer: int
    player: int
    give_food: int = 0
    give_wood: int = 0
    give_iron: int = 0
    want_food: int = 0
    want_wood: int = 0
    want_iron: int = 0
    only_to: str = ""         # comma-separated player names; "" = anyone
    posted_at: str = ""


@dataclass
class Post:
    """A post already applied: re-imports skip it, an edit of it is flagged."""

    post: str
    author: str
    time: str
    digest: str


SCHEMA: dict[str, type] = {"game": Game, "players": Player, "hexes": Hex, "units": Stack,
                           "alliances": Alliance, "offers": Offer, "applied": Post}
