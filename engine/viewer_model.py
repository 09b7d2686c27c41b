"""What a player knows: one or several turns of their report bundles, merged.

The player viewer opens report bundles (engine.bundle: a pruned game database) or, for a
GM trying the viewer, a game database with a faction chosen. Each becomes a TurnView.
A ViewerModel holds the turns of one game and answers, per board cell (a grid cell, or a
region of a region map), the latest turn that cell was seen and what was there then:
regions no longer seen keep their last known owner and units, marked with that turn.

Units and regions are read generically from the ruleset's state tables (a table with
owner + place + kind + count holds units; one with owner + place and no count holds
regions), so every ruleset that names its fields in the usual words works unchanged.
No Qt here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.events import EventLog
from engine.map import GameMap
from engine.political import faction_names
from engine.ruleset import Ruleset
from engine.scenario import Scenario
from engine.state import State

OWNER_FIELDS = ("owner", "tribe", "nation", "faction", "player")
PLACE_FIELDS = ("cell", "location", "realm", "hex", "region")
KIND_FIELDS = ("troop", "kind", "unit", "type")
StepCost = Callable[[int, int], float | None]


class ViewError(Exception):
    """A file could not be opened as a report; the message names the file and says why."""


@dataclass
class TurnView:
    """One faction's view of one turn."""

    ruleset: Ruleset
    scenario: Scenario
    state: State
    step: int
    faction: int
    events: EventLog = field(default_factory=EventLog)
    report_text: str = ""
    report_data: dict[str, Any] | None = None
    template: str = ""
    visible: frozenset[int] | None = None   # board cells seen this turn; None = all
    source: str = ""
    password: str = ""
    gm_address: str = ""
    bundle: bool = False                    # False: a GM's game database seen as `faction`
    _checker: Any = field(default=None, repr=False, compare=False)

    def check(self, sheet: Any) -> list[Any]:
        """The ruleset's findings on a sheet against this turn's state, as the GM's intake
        makes them; the checker (with its index of the state) is made once for the view,
        since the orders editor checks again at every pause in typing."""
        if self._checker is None:
            self._checker = self.ruleset.checker(self.state, self.scenario)
        return self._checker(sheet, self.faction)

    @property
    def gmap(self) -> GameMap:
        return self.scenario.map

    @property
    def faction_name(self) -> str:
        f = self.scenario.faction(self.faction)
        return f.name if f is not None else f"faction {self.faction}"

    def sees(self, board_cell: int) -> bool:
        return self.visible is None or board_cell in self.visible


@dataclass(frozen=True)
class UnitRow:
    owner: int
    owner_name: str
    kind: str
    count: int
    cell: int          # board cell
    where: str         # the cell's label
    seen: int          # turn the unit was seen there
    own: bool
    unit: int = 0      # the unit's number, where units are single (Atlantis); 0 = a stack
    label: str = ""    # the unit's name as the list shows it (`Merlin (1)`)


@dataclass(frozen=True)
class RegionRow:
    cell: int          # board cell
    where: str
    name: str
    terrain: str
    owner: int
    owner_name: str
    units: int
    seen: int | None   # None: never seen


# ---- opening ---------------------------------------------------------------------------

def load_turn(path: str | Path, faction: int | None = None) -> TurnView:
    """A report bundle (or a game database, for `faction` or its first faction)."""
    path = Path(path)
    if not path.exists():
        raise ViewError(f"{path}: no such file")
    bundle_err: Exception | None = None
    try:
        from engine import bundle as _bundle  # written alongside the viewer
    except ImportError:
        _bundle = None
    if _bundle is not None and hasattr(_bundle, "open_bundle"):
        try:
            b = _bundle.open_bundle(path)
        except Exception as e:  # noqa: BLE001 (maybe a full game database: try that below)
            bundle_err = e
        else:
            return from_bundle(b, str(path))
    from engine.service import GameService

    try:
        svc = GameService.open(path)
    except Exception as e:  # noqa: BLE001
        why = bundle_err or e
        raise ViewError(f"{path}: not a report bundle or game ({why})") from None
    try:
        return from_service(svc, faction, source=str(path))
    finally:
        svc.close()


def from_service(svc: Any, faction: int | None = None, step: int | None = None,
                 source: str = "") -> TurnView:
    """The view of one faction at one step of an open GameService (a bundle is one too)."""
    scen = svc.scenario
    rs = svc.ruleset
    step = svc.current_step if step is None else step
    if faction is None:
        faction = scen.meta.get("bundle_faction") or (scen.factions[0].number if scen.factions else 0)
    faction = int(faction)
    if scen.faction(faction) is None:
        raise ViewError(f"{source or svc.where}: there is no faction {faction} in this game")
    full = svc.state(step)
    try:
        log = svc.events(step)
    except Exception:  # noqa: BLE001 (a report without events still shows)
        log = EventLog()
    try:  # a GM trying a faction's view sees what its bundle would hold, nothing more
        state = rs.visible_state(full, faction, scen, log)
    except Exception:  # noqa: BLE001 (a hook failing must not keep the view from opening)
        state = full
    # what the faction may see (as its report and bundle), not only what concerns it, each
    # event as its bundle holds it (nothing for the GM's eyes only)
    events = log.seen_by(faction)
    text, data = "", None
    try:
        text = svc.report(step, faction, "text")
    except Exception:  # noqa: BLE001 (turn 0 has no report)
        text = ""
    try:
        data = json.loads(svc.report(step, faction, "json"))
    except Exception:  # noqa: BLE001
        data = None
    try:
        template = rs.orders_template(full, faction, scen)
    except Exception:  # noqa: BLE001
        template = ""
    f = scen.faction(faction)
    return TurnView(rs, scen, state, step, faction, events, text, data, template,
                    _visible(rs, full, faction, scen), source or str(svc.where),
                    f.password if f else "", gm_address(scen))


def from_bundle(b: Any, source: str = "") -> TurnView:
    """A TurnView from an engine.bundle.Bundle."""
    from engine import registry

    rs = registry.get(b.ruleset)
    scen = b.scenario
    reports = dict(getattr(b, "reports", {}) or {})
    if "text" not in reports:
        reports.update(_stored_reports(b))
    data = None
    if "json" in reports:
        try:
            data = json.loads(reports["json"])
        except ValueError:
            data = None
    template = b.template
    if not template:
        try:
            template = rs.orders_template(b.state, b.faction.number, scen)
        except Exception:  # noqa: BLE001
            template = ""
    return TurnView(rs, scen, b.state, int(b.step), int(b.faction.number), b.events,
                    reports.get("text", ""), data, template,
                    _board_cells(scen.map, b.visible_cells), source or str(b.path),
                    b.faction.password or "", gm_address(scen), True)


def _stored_reports(b: Any) -> dict[str, str]:
    """The bundle's reports read straight from its store, stored under the faction or as
    the one public report (whichever the writing and reading versions disagree on)."""
    from engine.service import GameService

    out: dict[str, str] = {}
    try:
        svc = GameService.open(b.path)
    except Exception:  # noqa: BLE001
        return out
    try:
        with svc.store.reading() as c:
            for fmt in svc.ruleset.report_formats:
                for who in (int(b.faction.number), None):
                    text = svc.store.load_report(c, int(b.step), who, fmt)
                    if text:
                        out[fmt] = text
                        break
    except Exception:  # noqa: BLE001 (a bundle without reports still shows its map)
        pass
    finally:
        svc.close()
    return out


def _board_cells(gmap: GameMap, grid_cells_seen: Iterable[int] | None) -> frozenset[int] | None:
    """Grid cells seen -> board cells seen (regions with any cell seen on region maps)."""
    if grid_cells_seen is None:
        return None
    if gmap.kind != "regions":
        return frozenset(int(c) for c in grid_cells_seen)
    out = set()
    for c in grid_cells_seen:
        bc = board_cell(gmap, int(c))
        if bc is not None:
            out.add(bc)
    return frozenset(out)


def _visible(rs: Ruleset, state: State, faction: int, scen: Scenario) -> frozenset[int] | None:
    fn = getattr(rs, "visible_cells", None)
    if fn is None:
        return None  # rulesets without hidden information show everything
    try:
        cells = fn(state, faction, scen)
    except Exception:  # noqa: BLE001
        return None
    return _board_cells(scen.map, cells)


def gm_address(scen: Scenario) -> str:
    for key in ("gm_email", "gm_address", "gm_mail", "email", "orders_to"):
        v = scen.meta.get(key)
        if isinstance(v, str) and "@" in v:
            return v.strip()
    return ""


# ---- board cells and the map -----------------------------------------------------------

def board_of(gmap: GameMap):
    return gmap.board()


def board_cell(gmap: GameMap, grid_cell: int | None) -> int | None:
    """The board cell (region index on region maps) a drawn grid cell belongs to."""
    if grid_cell is None:
        return None
    if gmap.kind != "regions":
        return int(grid_cell)
    area = gmap.area_of(grid_cell)
    return None if area is None else gmap.regions().parse(area.name)


def grid_cells(gmap: GameMap, cell: int) -> list[int]:
    """The drawn grid cells of a board cell."""
    if gmap.kind != "regions":
        return [int(cell)]
    name = gmap.regions().label(cell)
    area = gmap.areas.get(name)
    return sorted(area.cells) if area is not None else []


def anchor_cell(gmap: GameMap, cell: int) -> int | None:
    """One grid cell to centre the view on for a board cell."""
    cells = grid_cells(gmap, cell)
    if not cells:
        return None
    if len(cells) == 1:
        return cells[0]
    x, y = gmap.area_label_point(gmap.regions().label(cell))
    from engine.topology import SquareGrid

    g = gmap.grid
    if isinstance(g, SquareGrid):
        c = g.cell(int(x), int(y))
        if c is not None and c in cells:
            return c
    return cells[len(cells) // 2]


def place_cell(gmap: GameMap, value: Any) -> int | None:
    """A state table's place (cell number or region name) as a board cell."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value:
        try:
            return gmap.board().parse(value)
        except Exception:  # noqa: BLE001
            return None
    return None


def cell_label(gmap: GameMap, cell: int, notation: str | None = None) -> str:
    """A board cell's name, in the ruleset's notation (attribute `cell_notation`) if given."""
    try:
        return gmap.board().label(cell, notation)
    except Exception:  # noqa: BLE001
        return str(cell)


# ---- generic reading of the state --------------------------------------------------------

def notation_of(ruleset: Ruleset) -> str | None:
    n = getattr(ruleset, "cell_notation", None)
    return n if isinstance(n, str) else None


def _first(names: Iterable[str], fields: tuple[str, ...]) -> str | None:
    names = list(names)
    return next((f for f in fields if f in names), None)


def _tables(state: State) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str]]]:
    """(units tables: name, owner, place, kind), (region tables: name, owner, place)."""
    units, regions = [], []
    for name in sorted(state.tables):
        cls = state.schema.get(name) if hasattr(state, "schema") else None
        rows = state.tables[name]
        if cls is not None and dataclasses.is_dataclass(cls):
            names = [f.name for f in dataclasses.fields(cls)]
        elif rows:
            names = [f.name for f in dataclasses.fields(rows[0])]
        else:
            continue
        owner, place = _first(names, OWNER_FIELDS), _first(names, PLACE_FIELDS)
        if owner is None or place is None:
            continue
        kind = _first(names, KIND_FIELDS)
        if "count" in names and kind is not None:
            units.append((name, owner, place, kind))
        elif "count" not in names:
            regions.append((name, owner, place))
    return units, regions


def turn_units(tv: TurnView) -> list[UnitRow]:
    """Every unit stack of the turn's state (visible cells only)."""
    gmap, out = tv.gmap, []
    names = faction_names(tv.state, tv.scenario)  # joined in play or renamed: their names
    hook = getattr(tv.ruleset, "unit_rows", None)
    if callable(hook):  # units that are not count rows of a table (Atlantis: men in units)
        for cell, owner, kind, count, number, label in hook(tv.state, tv.scenario):
            if count <= 0 or not tv.sees(cell):
                continue
            out.append(UnitRow(owner, names.get(owner, str(owner)) if owner else "unknown",
                               kind, count, cell, cell_label(gmap, cell, notation_of(tv.ruleset)),
                               tv.step, owner == tv.faction, number, label))
        return out
    for table, owner_f, place_f, kind_f in _tables(tv.state)[0]:
        for r in tv.state.tables[table]:
            cell = place_cell(gmap, getattr(r, place_f))
            count = int(getattr(r, "count", 0) or 0)
            if cell is None or count <= 0 or not tv.sees(cell):
                continue
            owner = int(getattr(r, owner_f) or 0)
            out.append(UnitRow(owner, names.get(owner, str(owner) if owner else "-"),
                               str(getattr(r, kind_f)), count, cell,
                               cell_label(gmap, cell, notation_of(tv.ruleset)),
                               tv.step, owner == tv.faction))
    return out


def turn_regions(tv: TurnView) -> dict[int, RegionRow]:
    """Regions of the turn: every area of a region map, else cells with an owner or units."""
    gmap = tv.gmap
    names = faction_names(tv.state, tv.scenario)  # joined in play or renamed: their names
    owner: dict[int, int] = {}
    rname: dict[int, str] = {}
    hook = getattr(tv.ruleset, "political_map", None)
    tables = [] if callable(hook) else _tables(tv.state)[1]
    if callable(hook):  # the ruleset says who holds what (Atlantis: guards, most men)
        pm = hook(tv.state, tv.scenario)
        owner, rname = dict(pm.owners), dict(pm.names)
    for table, owner_f, place_f in tables:
        if table in tv.ruleset.viewer_unit_tables:  # its units, not regions (CC: convoys)
            continue
        for r in tv.state.tables[table]:
            cell = place_cell(gmap, getattr(r, place_f))
            if cell is None:
                continue
            owner[cell] = int(getattr(r, owner_f) or 0)
            n = getattr(r, "name", "")
            if isinstance(n, str) and n:
                rname[cell] = n
    units: dict[int, int] = {}
    for u in turn_units(tv):
        units[u.cell] = units.get(u.cell, 0) + u.count
    if gmap.kind == "regions":
        cells = list(range(len(gmap.regions())))
    elif callable(hook) and tv.visible is not None:  # every region the faction sees
        cells = sorted(set(tv.visible) | set(owner) | set(units))
    else:
        cells = sorted(set(owner) | set(units))
    out = {}
    for c in cells:
        if not tv.sees(c):
            continue
        o = owner.get(c, 0)
        name = rname.get(c, "")
        if not name and callable(hook) and gmap.kind != "regions":  # Atlantis: "Marzan"
            area = gmap.area_of(c)
            name = area.name if area is not None else ""
        out[c] = RegionRow(c, cell_label(gmap, c, notation_of(tv.ruleset)), name, _terrain(gmap, c), o,
                           names.get(o, "") if o else "", units.get(c, 0), tv.step)
    return out


def _terrain(gmap: GameMap, cell: int) -> str:
    if gmap.kind == "regions":
        area = gmap.areas.get(gmap.regions().label(cell))
        return area.kind if area is not None else ""
    return gmap.terrain_at(cell)


# ---- several turns ---------------------------------------------------------------------------

class ViewerModel:
    """The turns of one faction's game, oldest first; one view per step."""

    def __init__(self, turns: Iterable[TurnView] = ()):
        self.turns: list[TurnView] = []
        self._cache: dict[str, Any] = {}
        for t in turns:
            self.add(t)

    def invalidate(self) -> None:
        """Forget computed answers (after changing `turns` directly)."""
        self._cache.clear()

    def _memo(self, key: str, fn: Callable[[], Any]) -> Any:
        # hover and click ask these for every cell: compute once per set of turns
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    def add(self, tv: TurnView) -> None:
        """Add a turn; a later bundle of the same step replaces the earlier one."""
        if self.turns:
            first = self.turns[0]
            if tv.scenario.name != first.scenario.name or tv.ruleset.name != first.ruleset.name:
                raise ViewError(f"{tv.source}: is game {tv.scenario.name!r}, not "
                                f"{first.scenario.name!r} which is open")
            if tv.faction != first.faction:
                raise ViewError(f"{tv.source}: is the report of faction {tv.faction}, not "
                                f"{first.faction} whose reports are open")
        self.turns = sorted([t for t in self.turns if t.step != tv.step] + [tv],
                            key=lambda t: t.step)
        self._cache.clear()

    @property
    def latest(self) -> TurnView:
        if not self.turns:
            raise ViewError("no report open")
        return self.turns[-1]

    @property
    def steps(self) -> list[int]:
        return [t.step for t in self.turns]

    def seen(self) -> dict[int, int]:
        """Board cell -> latest turn it was seen (every cell when a turn saw everything)."""
        return self._memo("seen", self._seen)

    def _seen(self) -> dict[int, int]:
        out: dict[int, int] = {}
        n = len(self.latest.gmap.board())
        for t in self.turns:
            cells = range(n) if t.visible is None else t.visible
            for c in cells:
                out[int(c)] = t.step
        return out

    def stale(self) -> dict[int, int]:
        """Cells seen before but not in the latest turn -> the turn they were last seen."""
        last = self.latest.step
        return {c: s for c, s in self.seen().items() if s != last}

    def unseen(self) -> list[int]:
        """Board cells never seen (fog of war)."""
        seen = self.seen()
        return [c for c in range(len(self.latest.gmap.board())) if c not in seen]

    def merged_map(self) -> GameMap:
        """The latest turn's map with cells it could not see ('unknown' terrain in a bundle)
        filled in from the latest earlier turn that saw them."""
        latest = self.latest
        if latest.visible is None or len(self.turns) == 1 or latest.gmap.kind == "regions":
            return latest.gmap
        key = tuple((t.step, id(t)) for t in self.turns)
        if getattr(self, "_merged_key", None) == key:
            return self._merged
        import numpy as np

        gmap = latest.gmap.copy()
        known = np.zeros(len(gmap.grid), dtype=bool)
        known[list(latest.visible)] = True
        for t in reversed(self.turns[:-1]):
            cells = np.arange(len(gmap.grid)) if t.visible is None else \
                np.fromiter(t.visible, dtype=np.int64)
            cells = cells[~known[cells]]
            if len(cells):
                gmap.set_terrain([int(c) for c in cells], [t.gmap.terrain_at(int(c)) for c in cells])
                known[cells] = True
        self._merged_key, self._merged = key, gmap
        return gmap

    def regions(self) -> list[RegionRow]:
        """Every known region, from the latest turn that saw it."""
        return self._memo("regions", self._regions)

    def _regions(self) -> list[RegionRow]:
        by_cell: dict[int, RegionRow] = {}
        for t in self.turns:
            by_cell.update(turn_regions(t))
        seen = self.seen()
        return [by_cell[c] for c in sorted(by_cell) if seen.get(c) == by_cell[c].seen]

    def units(self) -> list[UnitRow]:
        """Every known unit: those of the latest turn, plus the last seen in cells out of sight."""
        return self._memo("units", self._units)

    def units_at(self, cell: int) -> list[UnitRow]:
        def index() -> dict[int, list[UnitRow]]:
            out: dict[int, list[UnitRow]] = {}
            for u in self.units():
                out.setdefault(u.cell, []).append(u)
            return out

        return self._memo("units_at", index).get(cell, [])

    def _units(self) -> list[UnitRow]:
        seen = self.seen()
        out = []
        for t in self.turns:
            out += [u for u in turn_units(t) if seen.get(u.cell) == t.step]
        return sorted(out, key=lambda u: (u.cell, u.owner, u.kind))

    def own_units_at(self, cell: int) -> list[UnitRow]:
        last = self.latest.step
        return [u for u in self.units_at(cell) if u.own and u.seen == last]

    def reachable(self, cell: int, unit: int | None = None, orders: str | None = None) -> dict[int, float]:
        """Board cells the faction's units at `cell` (or the one unit) may reach this turn
        (with their cost): the ruleset's own reach (hook `reach`, after what the `orders`
        being drafted already move; its origin at cost 0), else within `move_range`."""
        tv = self.latest
        fn = getattr(tv.ruleset, "reach", None)
        if fn is not None:
            try:
                got = fn(tv.state, tv.faction, tv.scenario, cell, unit=unit, orders=orders or "")
                return {int(c): float(d) for c, d in got.items()}
            except Exception:  # noqa: BLE001 (a hook failing must not break the map)
                pass
        board = tv.gmap.board()
        budget, cost = move_range(tv, cell, unit)
        if budget <= 0:
            return {cell: 0.0}
        return board.reachable(cell, budget, cost)


def move_range(tv: TurnView, cell: int, unit: int | None = None) -> tuple[float, StepCost | None]:
    """The ruleset's movement budget and step cost for units at a cell, or one unit there
    (hook `move_range`), else one step of plain distance per turn."""
    fn = getattr(tv.ruleset, "move_range", None)
    if fn is not None:
        try:
            budget, cost = fn(tv.state, tv.faction, tv.scenario, cell) if unit is None else \
                fn(tv.state, tv.faction, tv.scenario, cell, unit=unit)
            return float(budget), cost
        except Exception:  # noqa: BLE001 (a hook failing must not break the map)
            pass
    return 1.0, None


__all__ = ["TurnView", "ViewerModel", "UnitRow", "RegionRow", "ViewError", "load_turn",
           "from_service", "from_bundle", "board_cell", "grid_cells", "anchor_cell",
           "place_cell", "cell_label", "turn_units", "turn_regions", "move_range", "gm_address"]


def cells_named(gmap: GameMap, text: str) -> list[int]:
    """Board cells a diagnostic or order line names: `x y`, `x,y`, `x/y` on grid maps,
    region names on region maps (longest names first, so 'North Sea' beats 'North')."""
    import re

    if not text:
        return []
    if gmap.kind == "regions":
        board = gmap.regions()
        low, out = text.casefold(), []
        for name in sorted(gmap.areas, key=lambda n: -len(n)):
            i = low.find(name.casefold())
            if i >= 0:
                low = low[:i] + " " * len(name) + low[i + len(name):]
                c = board.parse(name)
                if c is not None:
                    out.append((i, c))
        return [c for _, c in sorted(out)]
    grid = gmap.grid
    out = []
    for m in re.finditer(r"(?<![\w.])(\d{1,4})\s*[ ,/]\s*(\d{1,4})(?![\w.])", text):
        try:
            c = grid.cell(int(m.group(1)), int(m.group(2)))  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001
            c = None
        if c is not None and c not in out:
            out.append(c)
    return out
