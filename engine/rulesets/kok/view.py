"""A read-only view of a King of Kings state for the order checker, NMR orders and reports.

`Rules` reads the scenario's troop list, terrain table and options once (falling back to
the standard tables for a hand-built scenario); `Board` indexes owners, troops and
alliances by cell and answers the questions orders raise (on the map? whose? isolated?).
The adjudicator keeps its own writable board (board.py); this one never changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.rulesets.kok.catalogs import (
    OPTIONS,
    Terrain,
    Troop,
    default_catalogs,
    terrain_of,
    troops_of,
)
from engine.rulesets.kok.orders import TroopWords, decode
from engine.scenario import Scenario
from engine.state import State


@cache
def _defaults() -> dict[str, Any]:
    """The standard catalogs, read from their CSV files once: Rules only reads them."""
    return default_catalogs()


@dataclass
class Rules:
    """The scenario's troop list, terrain table and options, read once for a check."""

    troops: dict[str, Troop]
    terrains: dict[str, Terrain]
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, scenario: Scenario | None) -> Rules:
        cats = dict(_defaults())
        if scenario is not None:
            cats.update({k: v for k, v in scenario.catalogs.items() if len(v)})
        opts = {o.name: o.default for o in OPTIONS}
        if scenario is not None:
            opts.update(scenario.options.values)
        return cls(troops_of(cats), terrain_of(cats), opts)

    def words(self) -> TroopWords:
        return TroopWords(tuple((t.name, s) for s, t in self.troops.items()))

    def terrain(self, name: str) -> Terrain:
        t = self.terrains.get(name.lower())
        if t is None:  # a map terrain the table lacks: plain land, or sea by its name
            sea = name.lower() in ("sea", "ocean", "lake", "water")
            return Terrain(name.lower(), "~" if sea else "?", 0, 0, 0, 1, 0, sea, 0, "")
        return t

    def option(self, name: str, default: Any = False) -> Any:
        return self.options.get(name, default)


class Board:
    """Read-only indices over a state and map: owners, troops, terrain, alliances."""

    def __init__(self, state: State, scenario: Scenario, rules: Rules | None = None):
        self.state, self.scenario = state, scenario
        self.rules = rules or Rules.of(scenario)
        self.grid = scenario.map.grid
        self.width = getattr(self.grid, "width", 1)
        self.provinces = {p.cell: p for p in state["provinces"]}
        self.troops: dict[int, dict[int, dict[str, int]]] = {}
        for a in state["armies"]:
            if a.count > 0:
                d = self.troops.setdefault(a.cell, {}).setdefault(a.tribe, {})
                d[a.troop] = d.get(a.troop, 0) + a.count
        self._isolated: dict[int, bool] = {}  # cell -> isolated(cell), as asked
        self._terrain: dict[int, Terrain] = {}  # cell -> terrain(cell), as asked
        self.tribes = {t.number: t for t in state["tribes"]}
        self.alliance = {(a.tribe, a.other): a for a in state["alliances"]}
        world = state["world"]
        self.world = world[0] if world else None

    # ---- map ------------------------------------------------------------------------
    def on_map(self, cell: int) -> bool:
        return 0 <= cell < len(self.grid)

    def label(self, cell: int) -> str:
        x, y = decode(cell, self.width)
        return f"{x} {y}"

    def terrain(self, cell: int) -> Terrain:
        t = self._terrain.get(cell)
        if t is None:  # remembered: a checker asks for the same provinces sheet after sheet
            p = self.provinces.get(cell)
            name = p.terrain if p is not None and p.terrain else self.scenario.map.terrain_at(cell)
            t = self._terrain[cell] = self.rules.terrain(name)
        return t

    def is_sea(self, cell: int) -> bool:
        return self.terrain(cell).sea

    def coastal(self, cell: int) -> bool:
        return any(self.is_sea(n) for n in self.grid.neighbours(cell))

    # ---- ownership and troops -------------------------------------------------------
    def owner(self, cell: int) -> int:
        p = self.provinces.get(cell)
        return p.owner if p is not None else 0

    def units(self, cell: int, tribe: int) -> dict[str, int]:
        return dict(self.troops.get(cell, {}).get(tribe, {}))

    def occupants(self, cell: int) -> list[int]:
        return sorted(t for t, u in self.troops.get(cell, {}).items() if any(u.values()))

    def status(self, tribe: int, other: int) -> int:
        a = self.alliance.get((tribe, other))
        return a.status if a is not None else 0

    def declared(self, tribe: int, other: int) -> int:
        """What `tribe` declared towards `other`: it rules the tribe's own conduct at once."""
        a = self.alliance.get((tribe, other))
        return a.declared if a is not None else 0

    def allied(self, a: int, b: int) -> bool:
        return a == b or (self.status(a, b) >= 1 and self.status(b, a) >= 1)

    def isolated(self, cell: int, tribe: int = 0) -> bool:
        """2.6, from the owner's side: no neighbour held by the owner or an ally (status in
        force >= 1), nor a sea area free of foreign units while the owner has ships here.
        Unowned provinces and (without sea ownership) sea areas are never isolated."""
        owner = self.owner(cell)
        sea_owned = bool(self.rules.option("sea_ownership"))
        if not owner or (self.is_sea(cell) and not sea_owned):
            return False
        ships = any(n > 0 and s in self.rules.troops and self.rules.troops[s].sea_move > 0
                    for s, n in self.units(cell, owner).items())
        for n in self.grid.neighbours(cell):
            o = self.owner(n)
            if o and (o == owner or self.status(owner, o) >= 1) \
                    and (not self.is_sea(n) or sea_owned):
                return False
            if ships and self.is_sea(n) and all(t == owner or self.status(owner, t) >= 1
                                                for t in self.occupants(n)):
                return False
        return True

    def isolated_at(self, cell: int) -> bool:
        """isolated(cell), remembered: the checker asks for the same provinces again and
        again, sheet after sheet, and the board never changes."""
        v = self._isolated.get(cell)
        if v is None:
            v = self._isolated[cell] = self.isolated(cell)
        return v

    def has_general(self, units: dict[str, int]) -> bool:
        return any(n > 0 and self.rules.troops.get(s, None) is not None
                   and self.rules.troops[s].general for s, n in units.items())


def generals_available(board: Board, faction: int) -> int:
    """Generals the tribe may still place (2.4: one more every N turns, up to a maximum)."""
    every = int(board.rules.option("general_every", 5) or 0)
    tribe = board.tribes.get(faction)
    if not every or tribe is None:
        return 0
    turn = (board.world.turn if board.world is not None else board.state.step) + 1
    allowed = min(int(board.rules.option("general_max", 2)), turn // every)
    return max(0, allowed - tribe.generals_placed)
