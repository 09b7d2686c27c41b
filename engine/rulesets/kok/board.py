"""The adjudicator's working view of one King of Kings state: indexed by cell.

Each phase loads a Board from ctx.state, works on dicts (units by cell and tribe,
provinces by cell, alliances by pair) and saves it back sorted, so no phase scans all
armies per province and the state tables come out in one canonical order.

Loading and saving every table in each of the ten phases cost a sixth of a 100x100
turn, so the board saved by one phase is handed to the next (Board.load) when nothing
has happened since: after a save its dicts are rebuilt from the saved, sorted tables, so
they are exactly those a fresh board would read (same contents, same order, so the
phases iterate and roll dice as before); armies are re-sorted only when units changed.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.ruleset import TurnContext
from engine.rulesets.kok.catalogs import Terrain, Troop, tactics_of, terrain_of, troops_of
from engine.rulesets.kok.state import Alliance, Army, Province, Tribe
from engine.state import State

UNKNOWN_TERRAIN = Terrain("unknown", "?", 0, 0, 0, 1, 0, False, 0, "")


class Board:
    def __init__(self, state: State, scenario) -> None:
        self.state = state
        self.scenario = scenario
        self.options = scenario.options
        m = scenario.map
        self.grid = m.grid
        self.width = self.grid.width
        self.size = len(self.grid)
        self.troops: dict[str, Troop] = troops_of(scenario.catalogs)
        self.terrains: dict[str, Terrain] = terrain_of(scenario.catalogs)
        self.tactics = tactics_of(scenario.catalogs)
        self._map_terrain = m.terrain
        self._map_names = [self.terrains.get(n.lower(), UNKNOWN_TERRAIN) for n in m.terrains]
        self.provinces: dict[int, Province] = {p.cell: p for p in state["provinces"]}
        self.tribes: dict[int, Tribe] = {t.number: t for t in state["tribes"]}
        self.alliances: dict[tuple[int, int], Alliance] = {
            (a.tribe, a.other): a for a in state["alliances"]}
        self.units: dict[int, dict[int, dict[str, int]]] = {}
        self._read_armies(state["armies"])
        self.order = sorted(self.troops.values(), key=lambda t: t.row)
        self._catalog_troops = dict(self.troops)
        self._rank = {t.symbol: (t.row, t.symbol) for t in self.troops.values()}
        self._changed = False   # units added or removed since loading or saving
        self._saved: tuple[list, list, list, list] | None = None  # the tables save() wrote

    def _read_armies(self, armies: list[Army]) -> None:
        units: dict[int, dict[int, dict[str, int]]] = {}
        for a in armies:
            if a.count > 0:
                t = units.setdefault(a.cell, {}).setdefault(a.tribe, {})
                t[a.troop] = t.get(a.troop, 0) + a.count
        self.units = units

    @classmethod
    def load(cls, ctx: TurnContext) -> Board:
        """The board of ctx.state: the one the last phase saved, if nothing has changed
        since (module docstring), else a new one."""
        b = ctx.scratch.get(_KEY)
        if b is None or not b._current(ctx.state):
            b = ctx.scratch[_KEY] = cls(ctx.state, ctx.scenario)
        return b

    def _current(self, state: State) -> bool:
        """Saved, untouched since, and the state's tables are still the ones saved."""
        if self._saved is None or self._changed or self.state is not state:
            return False
        armies, provinces, tribes, alliances = self._saved
        t = state.tables
        return (t["armies"] is armies and t["provinces"] is provinces and t["tribes"] is tribes
                and t["alliances"] is alliances and len(self.provinces) == len(provinces)
                and len(self.alliances) == len(alliances) and len(self.tribes) == len(tribes))

    # ---- map ------------------------------------------------------------------------

    def on_map(self, cell: int) -> bool:
        return 0 <= cell < self.size

    def terrain(self, cell: int) -> Terrain:
        p = self.provinces.get(cell)
        if p is not None and p.terrain:
            return self.terrains.get(p.terrain.lower(), UNKNOWN_TERRAIN)
        return self._map_names[int(self._map_terrain[cell])]

    def is_sea(self, cell: int) -> bool:
        return self.terrain(cell).sea

    def neighbours(self, cell: int) -> list[int]:
        return self.grid.neighbours(cell)

    def step(self, cell: int, direction: str) -> int | None:
        return self.grid.step(cell, direction)

    def coastal(self, cell: int) -> bool:
        return any(self.is_sea(n) for n in self.neighbours(cell))

    def label(self, cell: int) -> str:
        x, y = self.grid.xy(cell)
        return f"{x}/{y}"

    # ---- provinces ----------------------------------------------------------------------

    def owner(self, cell: int) -> int:
        p = self.provinces.get(cell)
        return p.owner if p is not None else 0

    def province(self, cell: int) -> Province:
        p = self.provinces.get(cell)
        if p is None:
            p = self.provinces[cell] = Province(cell)
        return p

    def owned_by(self, tribe: int) -> list[int]:
        return sorted(c for c, p in self.provinces.items() if p.owner == tribe)

    # ---- units --------------------------------------------------------------------------

    def at(self, cell: int) -> dict[int, dict[str, int]]:
        """tribe -> troop -> count in a cell (read only; use add/remove to change)."""
        return self.units.get(cell, {})

    def of(self, cell: int, tribe: int) -> dict[str, int]:
        return self.units.get(cell, {}).get(tribe, {})

    def add(self, cell: int, tribe: int, troop: str, n: int) -> None:
        if n <= 0:
            return
        self._changed = True
        t = self.units.setdefault(cell, {}).setdefault(tribe, {})
        t[troop] = t.get(troop, 0) + n

    def remove(self, cell: int, tribe: int, troop: str, n: int) -> int:
        """Take up to n; returns how many were taken."""
        t = self.units.get(cell, {}).get(tribe)
        if not t or n <= 0:
            return 0
        have = t.get(troop, 0)
        take = min(have, n)
        self._changed = True
        if take == have:
            t.pop(troop, None)
            if not t:
                del self.units[cell][tribe]
                if not self.units[cell]:
                    del self.units[cell]
        else:
            t[troop] = have - take
        return take

    def remove_all(self, cell: int, tribe: int) -> dict[str, int]:
        t = dict(self.of(cell, tribe))
        for sym, n in t.items():
            self.remove(cell, tribe, sym, n)
        return t

    def tribes_at(self, cell: int) -> list[int]:
        return sorted(self.units.get(cell, {}))

    def land_units(self, cell: int, tribe: int) -> int:
        """Land units (not transports) of a tribe: the numbers of 3.1.1, 3.1.2 and 3.5.1."""
        return sum(n for s, n in self.of(cell, tribe).items() if not self.troop(s).transport)

    def combatants(self, cell: int, tribe: int) -> int:
        return sum(n for s, n in self.of(cell, tribe).items() if self.troop(s).land_order > 0)

    def troop(self, symbol: str) -> Troop:
        t = self.troops.get(symbol)
        if t is None:  # a troop no longer in the catalog: keep it, but harmless
            t = Troop(symbol, symbol, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, False, False,
                      False, False, 0, 999)
            self.troops[symbol] = t
        return t

    def sorted_units(self, units: dict[str, int]) -> tuple[tuple[str, int], ...]:
        """(symbol, count) in troop-list order, for events."""
        rank = self._rank
        if len(units) == 1:
            ((s, n),) = units.items()
            if s not in rank:
                self.troop(s)  # as the sort below: an unknown troop gets its stand-in
            return ((s, n),) if n > 0 else ()
        return tuple((s, n) for s, n in sorted(
            units.items(), key=lambda kv: rank.get(kv[0]) or (self.troop(kv[0]).row, kv[0]))
            if n > 0)

    def cells_with_units(self) -> list[int]:
        return sorted(self.units)

    # ---- alliances (2.8) ----------------------------------------------------------------

    def declared(self, a: int, b: int) -> int:
        """What tribe a declared towards b (acts on a's own behaviour during the turn)."""
        if a == b:
            return 5
        r = self.alliances.get((a, b))
        return r.declared if r is not None else 0

    def status(self, a: int, b: int) -> int:
        """Status in force (the lower of both declarations at the last turn end)."""
        if a == b:
            return 5
        r = self.alliances.get((a, b))
        return r.status if r is not None else 0

    def alliance(self, a: int, b: int) -> Alliance:
        r = self.alliances.get((a, b))
        if r is None:
            r = self.alliances[(a, b)] = Alliance(a, b, 0, 0)
        return r

    def hostile(self, a: int, b: int) -> bool:
        """a treats b as an enemy: a declared 0 towards b (a may attack b)."""
        return a != b and a > 0 and b > 0 and self.declared(a, b) == 0

    def friendly(self, a: int, b: int) -> bool:
        return a == b or (a > 0 and b > 0 and self.declared(a, b) >= 1)

    def at_war(self, a: int, b: int) -> bool:
        """Either side declared 0: their fleets fight when they meet (3.2.2)."""
        return a != b and (self.declared(a, b) == 0 or self.declared(b, a) == 0)

    # ---- saving ---------------------------------------------------------------------------

    def save(self) -> None:
        """Write the board to the state's tables, sorted; then read back from them, as the
        next phase's fresh board would (see the module docstring)."""
        st = self.state
        armies = st.tables["armies"]
        if self._changed or self._saved is None or armies is not self._saved[0]:
            armies = []
            units = self.units
            for cell in sorted(units):
                by_tribe = units[cell]
                for tribe in sorted(by_tribe):
                    for sym, n in self.sorted_units(by_tribe[tribe]):
                        armies.append(Army(cell, tribe, sym, n))
            st.tables["armies"] = armies
            self._read_armies(armies)
        provinces = st.tables["provinces"] = [
            self.provinces[c] for c in sorted(self.provinces) if _worth(self.provinces[c])]
        tribes = st.tables["tribes"] = [self.tribes[n] for n in sorted(self.tribes)]
        alliances = st.tables["alliances"] = [self.alliances[k] for k in sorted(self.alliances)]
        self.provinces = {p.cell: p for p in provinces}
        self.tribes = {t.number: t for t in tribes}
        self.alliances = {(a.tribe, a.other): a for a in alliances}
        self.troops = dict(self._catalog_troops)  # as a new board: no troops added on the way
        self._changed = False
        self._saved = (armies, provinces, tribes, alliances)


_KEY = "kok.board"  # ctx.scratch: the board the last phase saved


def _worth(p: Province) -> bool:
    return bool(p.owner or p.name or p.home or p.loyal or p.terrain or p.tactic != "T")


def board(ctx: TurnContext) -> Board:
    return Board.load(ctx)


def units_text(units: Iterable[tuple[str, int]]) -> str:
    return " ".join(f"{n}{s}" for s, n in units) or "nothing"
