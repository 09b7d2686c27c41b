"""King of Kings state tables (one record per row; the database stores each as a table).

Owners and tribes are numbered from 1; 0 means nobody ("leaderless"/neutral).
Cells are the map's square-grid cells (x, y) = (cell % width, cell // width), 0-based,
which is how the rule book's order co-ordinates count.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Province:
    """A province (land or sea cell) that has anything worth storing."""

    cell: int
    owner: int = 0          # controlling tribe, 0 = nobody
    tactic: str = "T"       # defensive tactic letter F/P/T/U/C (DEF order)
    name: str = ""          # NAME order
    home: int = 0           # tribe that held it at game start (capital letters on the map)
    loyal: int = 0          # tribe it is loyal to (loyalty option), 0 = leaderless
    terrain: str = ""       # terrain changed by BUILD; "" = the map's terrain


@dataclass
class Army:
    """`count` troops of one type of one tribe in one province."""

    cell: int
    tribe: int
    troop: str              # troop symbol from the troop catalog: F, B, H, C, G, S...
    count: int


@dataclass
class Tribe:
    number: int
    name: str = ""
    gold: int = 0
    wood: int = 0
    food: int = 0           # food stored (0 in the standard game: storage limit 0)
    fame: int = 0           # accumulated fame points
    generals_placed: int = 0
    nmr_turns: int = 0      # consecutive turns without orders
    alive: bool = True


@dataclass
class Alliance:
    """Status from `tribe` towards `other`: declared this turn and in force."""

    tribe: int
    other: int
    status: int = 0         # in force (the lower of both declarations after turn end)
    declared: int = 0       # what `tribe` declared (ALL order)


@dataclass
class World:
    turn: int = 0
    end_turn: int = 20
    game: str = "KOK"       # game code players put in the e-mail subject


SCHEMA: dict[str, type] = {
    "world": World, "tribes": Tribe, "provinces": Province, "armies": Army,
    "alliances": Alliance,
}
