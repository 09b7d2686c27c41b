"""The island as the adjudicator sees it: queries and small mutations over the state tables.

Rows are kept canonical (stacks merged, empty stacks and bare hex records dropped, tables
sorted) by `tidy`, so the same posts always give byte-identical states.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.events import Event
from engine.map import GameMap
from engine.orders import Diagnostic
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.events import UnitsDestroyed
from engine.rulesets.coi.state import Alliance, Hex, Player, Stack
from engine.state import State


class Impossible(Exception):
    """The action cannot be carried out now: it is ignored and costs nothing."""


class World:
    def __init__(self, state: State, gmap: GameMap, rules: Rules, options: Any,
                 emit: Any, diagnostics: list[Diagnostic]):
        self.state, self.map, self.rules, self.options = state, gmap, rules, options
        self.grid = gmap.grid
        self.emit_event = emit
        self.diagnostics = diagnostics

    def emit(self, event: Event) -> Event:
        return self.emit_event(event)

    # ---- cells ----------------------------------------------------------------------

    def cell(self, coord: tuple[int, int]) -> int:
        c = self.grid.cell(*coord)
        if c is None:
            raise Impossible(f"{coord[0]},{coord[1]} is not on the map")
        return c

    def label(self, cell: int) -> str:
        return self.grid.label(cell, "col,row")

    def terrain(self, cell: int) -> dict[str, Any]:
        tid = self.map.terrain_at(cell)
        t = self.rules.terrains.get(tid)
        if t is None:
            raise Impossible(f"{self.label(cell)} has terrain {tid!r}, unknown to this game")
        return t

    def is_water(self, cell: int) -> bool:
        t = self.rules.terrains.get(self.map.terrain_at(cell))
        return bool(t and t["water"])

    def hex(self, cell: int) -> Hex | None:
        for h in self.state["hexes"]:
            if h.cell == cell:
                return h
        return None

    def hex_for(self, cell: int) -> Hex:
        h = self.hex(cell)
        if h is None:
            h = Hex(cell)
            self.state["hexes"].append(h)
        return h

    def owner(self, cell: int) -> int:
        h = self.hex(cell)
        return h.owner if h else 0

    def building(self, cell: int) -> str:
        h = self.hex(cell)
        return h.building if h else ""

    # ---- players ----------------------------------------------------------------------

    def player(self, number: int) -> Player:
        for p in self.state["players"]:
            if p.number == number:
                return p
        raise Impossible(f"there is no player {number}")

    def player_named(self, name: str) -> Player | None:
        key = name.strip().strip('"@').casefold()
        for p in self.state["players"]:
            if p.name.casefold() == key:
                return p
        return None

    def name(self, number: int) -> str:
        for p in self.state["players"]:
            if p.number == number:
                return p.name
        return f"player {number}" if number else "nobody"

    def allied(self, player: int, ally: int) -> bool:
        """`player` has declared alliance to `ally`."""
        return any(a.player == player and a.ally == ally for a in self.state["alliances"])

    def ally(self, player: int, ally: int, since: str) -> None:
        if not self.allied(player, ally):
            self.state["alliances"].append(Alliance(player, ally, since))

    def friendly(self, cell: int, player: int) -> bool:
        """Own hex, or the hex of a player who declared alliance to `player`."""
        o = self.owner(cell)
        return o == player or (o != 0 and self.allied(o, player))

    # ---- units ----------------------------------------------------------------------

    def stacks(self, cell: int, owner: int | None = None) -> list[Stack]:
        return [s for s in self.state["units"]
                if s.cell == cell and (owner is None or s.owner == owner) and s.count > 0]

    def count(self, cell: int, owner: int, uid: str) -> int:
        return sum(s.count for s in self.stacks(cell, owner) if s.unit == uid)

    def composition(self, cell: int, owner: int) -> list[tuple[str, int]]:
        comp: dict[str, int] = {}
        for s in self.stacks(cell, owner):
            comp[s.unit] = comp.get(s.unit, 0) + s.count
        return sorted(comp.items(), key=lambda kv: self.rules.order(kv[0]))

    def add(self, cell: int, owner: int, uid: str, n: int) -> None:
        if n <= 0:
            return
        for s in self.state["units"]:
            if s.cell == cell and s.owner == owner and s.unit == uid:
                s.count += n
                return
        self.state["units"].append(Stack(cell, owner, uid, n))

    def remove(self, cell: int, owner: int, uid: str, n: int) -> None:
        for s in self.state["units"]:
            if s.cell == cell and s.owner == owner and s.unit == uid:
                take = min(n, s.count)
                s.count -= take
                n -= take
        self.state["units"][:] = [s for s in self.state["units"] if s.count > 0]

    def destroy(self, cell: int, owner: int, uid: str, n: int, reason: str) -> None:
        if n > 0:
            self.remove(cell, owner, uid, n)
            self.emit(UnitsDestroyed(owner, cell, uid, n, reason))

    def is_ship(self, uid: str) -> bool:
        return bool(self.rules.units[uid]["ship"])

    def cheapest_first(self, uids: list[str]) -> list[str]:
        return sorted(set(uids), key=lambda u: (self.rules.cost(u), self.rules.order(u)))

    # ---- rules shared by several actions -------------------------------------------------

    def capacity_check(self, cell: int) -> None:
        """Land units at sea beyond their owner's transports there are destroyed."""
        if not self.is_water(cell):
            return
        for owner in sorted({s.owner for s in self.stacks(cell)}):
            comp = dict(self.composition(cell, owner))
            room = sum(n for u, n in comp.items() if self.rules.units[u]["transport"])
            cargo = sum(n for u, n in comp.items() if not self.is_ship(u))
            excess = cargo - room
            for uid in self.cheapest_first([u for u in comp if not self.is_ship(u)]):
                if excess <= 0:
                    break
                k = min(excess, comp[uid])
                self.destroy(cell, owner, uid, k, "transport_capacity")
                excess -= k

    def crowding_check(self, cell: int, player: int) -> None:
        """Desert overcrowding: the player who added units last loses one until it fits."""
        t = self.terrain(cell)
        limit = t["crowd_limit"]
        if not limit:
            return
        while True:
            crowd = sum(s.count for s in self.stacks(cell)
                        if not self.rules.units[s.unit]["desert_survival"])
            if crowd <= limit:
                return
            mine = [s.unit for s in self.stacks(cell, player)
                    if not self.rules.units[s.unit]["desert_survival"]]
            if not mine:
                return
            self.destroy(cell, player, self.cheapest_first(mine)[0], 1, "desert")

    def linked(self, player: int) -> set[int]:
        """Hexes joined to a fort or port by an unbroken path of friendly hexes."""
        friendly = {h.cell for h in self.state["hexes"] if h.owner and self.friendly(h.cell, player)}
        seeds = [h.cell for h in self.state["hexes"] if h.cell in friendly and h.building
                 and self.rules.buildings.get(h.building, {}).get("links")]
        seen = set(seeds)
        todo = deque(sorted(seeds))
        while todo:
            c = todo.popleft()
            for n in self.grid.neighbours(c):
                if n in friendly and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def tidy(self) -> None:
        st = self.state
        merged: dict[tuple[int, int, str], int] = {}
        for s in st["units"]:
            if s.count > 0:
                k = (s.cell, s.owner, s.unit)
                merged[k] = merged.get(k, 0) + s.count
        st["units"][:] = [Stack(c, o, u, n) for (c, o, u), n in
                          sorted(merged.items(), key=lambda kv: (kv[0][0], kv[0][1], self.rules.order(kv[0][2])))]
        st["hexes"][:] = sorted((h for h in st["hexes"] if h.owner or h.building or h.harvested),
                                key=lambda h: h.cell)
        st["alliances"].sort(key=lambda a: (a.player, a.ally))
        st["players"].sort(key=lambda p: p.number)
        st["offers"].sort(key=lambda o: o.offer)

    def stacks_of(self, owner: int) -> list[Stack]:
        return [s for s in self.state["units"] if s.owner == owner and s.count > 0]
