"""The political map of a turn: who holds each place, the troops standing there, and the
names given in play, read from the game state (no Qt here).

The GM console, the player viewer and `realmsmith map export GAME --png` all draw from
this one model. It is read generically from the ruleset's state tables, the way the
viewer reads them (engine.viewer_model: a table with owner + place + kind + count holds
units; one with owner + place and no count holds places, its `name` a name given in play),
so a new ruleset whose tables use those words appears on every map unchanged. A ruleset
whose state is shaped otherwise (Atlantis units in hex objects, Continental Conquest
convoys) implements `political_map(state, scenario)` returning a PoliticalMap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import palette
from engine.map import GameMap
from engine.scenario import Scenario
from engine.state import State

NEUTRAL = palette.NEUTRAL


@dataclass(frozen=True)
class Stack:
    """Troops of one owner and kind on one board cell (a cell, or a region of a region map)."""

    cell: int
    owner: int
    kind: str
    count: int


@dataclass(frozen=True)
class Side:
    """A faction as the legend shows it."""

    number: int
    name: str
    colour: str


@dataclass
class PoliticalMap:
    owners: dict[int, int] = field(default_factory=dict)      # board cell -> faction
    stacks: list[Stack] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)       # board cell -> name given in play
    sides: list[Side] = field(default_factory=list)
    step: int = 0
    title: str = ""
    kind_names: dict[str, str] = field(default_factory=dict)  # "H" -> "Horsemen"

    def side(self, number: int) -> Side | None:
        return next((s for s in self.sides if s.number == number), None)

    def colour(self, number: int) -> str:
        s = self.side(number)
        return s.colour if s is not None else NEUTRAL

    def stacks_by_cell(self) -> dict[int, list[Stack]]:
        out: dict[int, list[Stack]] = {}
        for s in self.stacks:
            out.setdefault(s.cell, []).append(s)
        for v in out.values():
            v.sort(key=lambda s: (s.owner, s.kind))
        return out


def faction_names(state: State, scenario: Scenario) -> dict[int, str]:
    """Faction number -> its name now: the scenario's, or a name the state gives it
    (a renamed realm: a table keyed by the faction's number with a non-empty name)."""
    out = {f.number: f.name for f in scenario.factions}
    for table in sorted(state.tables):
        for r in state.tables[table]:
            name = getattr(r, "name", None)
            if not isinstance(name, str) or not name.strip():
                continue
            key = next((getattr(r, k) for k in ("number", "nation", "tribe", "faction", "player")
                        if isinstance(getattr(r, k, None), int)), None)
            # a table of factions: keyed by number, with no place of its own
            if isinstance(key, int) and key > 0 and not any(hasattr(r, p) for p in ("cell", "realm", "location", "region")):
                out[key] = name.strip()
    return out


def political_map(ruleset: Any, scenario: Scenario, state: State, step: int | None = None,
                  visible: frozenset[int] | None = None) -> PoliticalMap:
    """The political map of `state` (board cells in `visible` only, when given)."""
    hook = getattr(ruleset, "political_map", None)
    if callable(hook):
        pm = hook(state, scenario)
    else:
        pm = _generic(scenario, state)
    pm.step = int(state.step if step is None and hasattr(state, "step") else step or 0)
    if not pm.sides:
        fill_sides(pm, state, scenario)
    if not pm.title:
        pm.title = scenario.name
    if not pm.kind_names:
        pm.kind_names = kind_names(scenario, {s.kind for s in pm.stacks})
    if visible is not None:
        pm.owners = {c: o for c, o in pm.owners.items() if c in visible}
        pm.stacks = [s for s in pm.stacks if s.cell in visible]
        pm.names = {c: n for c, n in pm.names.items() if c in visible}
    return pm


def fill_sides(pm: PoliticalMap, state: State, scenario: Scenario) -> PoliticalMap:
    """pm.sides from the scenario's factions under their current names; owners the scenario
    does not list (a player who joined in play) get a name and a colour too."""
    names = faction_names(state, scenario)
    pm.sides = [Side(f.number, names.get(f.number, f.name), f.colour or NEUTRAL)
                for f in scenario.factions]
    known = {s.number for s in pm.sides}
    extra = sorted(({o for o in pm.owners.values()} | {s.owner for s in pm.stacks}) - known - {0})
    taken = [s.colour for s in pm.sides]
    for n in extra:  # the faction palette's next colour: apart from the markers and the others
        taken.append(palette.faction_colour(taken, n))
        pm.sides.append(Side(n, names.get(n, f"faction {n}"), taken[-1]))
    return pm


def _generic(scenario: Scenario, state: State) -> PoliticalMap:
    from engine.viewer_model import _tables, place_cell

    gmap: GameMap = scenario.map
    units, places = _tables(state)
    pm = PoliticalMap()
    for table, owner_f, place_f in places:
        for r in state.tables[table]:
            cell = place_cell(gmap, getattr(r, place_f))
            if cell is None:
                continue
            owner = getattr(r, owner_f)
            if isinstance(owner, int) and owner:
                pm.owners[cell] = owner
            name = getattr(r, "name", "")
            if isinstance(name, str) and name.strip():
                pm.names[cell] = name.strip()
    totals: dict[tuple[int, int, str], int] = {}
    for table, owner_f, place_f, kind_f in units:
        for r in state.tables[table]:
            cell = place_cell(gmap, getattr(r, place_f))
            count = getattr(r, "count", 0)
            if cell is None or not isinstance(count, int) or count <= 0:
                continue
            key = (cell, int(getattr(r, owner_f) or 0), str(getattr(r, kind_f)))
            totals[key] = totals.get(key, 0) + count
    pm.stacks = [Stack(c, o, k, n) for (c, o, k), n in sorted(totals.items())]
    return pm


def kind_names(scenario: Scenario, kinds: set[str]) -> dict[str, str]:
    """A unit kind's name from the game's catalogs: a row whose key (symbol, id, kind) is
    the kind and that has a `name` ("H" -> "Horsemen" in King of Kings)."""
    out: dict[str, str] = {}
    for cat in (scenario.catalogs or {}).values():
        for row in cat:
            name = row.get("name")
            if not isinstance(name, str) or not name:
                continue
            for key in ("symbol", "id", "kind", "unit", "troop"):
                v = row.get(key)
                if isinstance(v, str) and v in kinds and v not in out:
                    out[v] = name
    return out


def kind_abbreviations(kinds: list[str]) -> dict[str, str]:
    """A short symbol per unit kind: the kind itself when it is 1-2 characters (King of Kings
    troop letters), else its initial, or as many letters as it takes to tell kinds apart."""
    kinds = sorted(set(kinds))
    out: dict[str, str] = {}
    for n in range(1, 5):
        todo = [k for k in kinds if k not in out]
        if not todo:
            break
        cand = {k: (k if len(k) <= 2 else k[:n].capitalize()) for k in todo}
        for k, a in cand.items():
            if k == a or sum(1 for b in cand.values() if b == a) == 1 or n == 4:
                out[k] = a
    return out
