"""King of Kings orders as data: what the parser produces and the adjudicator executes.

Co-ordinates are stored as cells of the square grid; `units` maps a troop symbol to a count,
where None means "all of that type" is never used: AT is its own flag, meaning every
non-ship troop in the province except the types listed (whose counts are then exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.orders import Order


@dataclass
class Place(Order):
    """PLA: up to three placements, each one troop of a type into a province."""

    items: list[tuple[int, str]] = field(default_factory=list)  # (cell, troop symbol)


@dataclass
class SeaMove(Order):
    """SEA x y {AT} [type amount] [direction]."""

    cell: int = 0
    at: bool = False
    units: dict[str, int] = field(default_factory=dict)
    route: list[str] = field(default_factory=list)  # N/S/E/W


@dataclass
class LandMove(Order):
    """LAND x y {tactic} {AT} [type amount] [direction]."""

    cell: int = 0
    tactic: str | None = None  # None: the starting province's DEF tactic
    at: bool = False
    units: dict[str, int] = field(default_factory=dict)
    route: list[str] = field(default_factory=list)


@dataclass
class Defend(Order):
    """DEF: up to three (province, tactic) retreat orders."""

    items: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Ally(Order):
    """ALL player status."""

    other: int = 0
    status: int = 0


@dataclass
class Cede(Order):
    cell: int = 0
    other: int = 0


@dataclass
class Donate(Order):
    other: int = 0
    gold: int = 0


@dataclass
class Build(Order):
    cell: int = 0


@dataclass
class Name(Order):
    cell: int = 0
    name: str = ""
