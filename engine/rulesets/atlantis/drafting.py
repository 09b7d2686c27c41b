"""Writing Atlantis orders in the player viewer (engine.orderdraft's hooks): completion of
the word being typed from what the order takes there, MOVE and SAIL lines from a path
drawn on the map for one unit, put into that unit's orders, and the routes of the MOVE
and SAIL orders written so far. No Qt here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis.orders import BOOK_ORDERS, DIRECTIONS, Move, Sail
from engine.rulesets.atlantis.world import DIRECTION_NAMES
from engine.scenario import Scenario
from engine.state import State

SAIL_POINTS = 4  # reading for the path preview: the book gives ships no speed; the server's 4
STEPS = ("N", "NE", "SE", "S", "SW", "NW")
LINE_WORDS = ("UNIT", "FORM", "END", "#ATLANTIS", "#END")
ATTITUDES = ("ALLY", "FRIENDLY", "NEUTRAL", "UNFRIENDLY", "HOSTILE")


def _names(rows, with_codes: bool = True) -> list[str]:
    """Catalog names as orders write them (`_` for spaces) and their four-letter codes."""
    names = [str(r["name"]).replace(" ", "_") for r in rows]
    codes = [str(r["code"]) for r in rows if with_codes and r.get("code")]
    return sorted(names) + sorted(codes)  # the names first: the list opens on them


def _unit_numbers(state: State, faction: int, own_only: bool) -> list[str]:
    return [str(u.number) for u in sorted(state["units"], key=lambda u: u.number)
            if u.faction == faction or not own_only]


def completions(state: State, faction: int, scenario: Scenario, line: str) -> list[str] | None:
    """The words that fit where the cursor is, `line` being the text before it (the word
    being typed included); None: the ruleset's order words."""
    words = line.lstrip().lstrip("@").split()
    if line and not line[-1].isspace() and words:
        words = words[:-1]  # the word being typed
    if not words:
        return None
    verb, pos = words[0].upper(), len(words)  # pos: 1 = first argument
    cats = scenario.catalogs
    items = _names(cats["items"])
    skills = _names(cats["skills"])
    if verb == "UNIT":
        return _unit_numbers(state, faction, True) if pos == 1 else []
    if verb in ("STUDY", "FORGET"):
        return skills if pos == 1 else []
    if verb in ("MOVE", "ADVANCE", "SAIL"):
        return [*STEPS, *DIRECTION_NAMES.values(), "IN", "OUT"]
    if verb in ("TEACH", "ATTACK", "ASSASSINATE", "PROMOTE"):
        return _unit_numbers(state, faction, verb in ("TEACH", "PROMOTE"))
    if verb == "GIVE":
        return _unit_numbers(state, faction, False) if pos == 1 else \
            [*items, "UNIT"] if pos == 3 else []
    if verb == "BUY":
        return items if pos == 2 else []
    if verb == "PRODUCE":
        return items if pos == 1 else []
    if verb == "STEAL":
        return _unit_numbers(state, faction, False) if pos == 1 else items if pos == 2 else []
    if verb == "SHOW":
        return ["SKILL", "ITEM"] if pos == 1 else \
            (skills if words[1].upper() == "SKILL" else items) if pos == 2 else []
    if verb in ("CAST", "COMBAT"):
        return _names(cats["spells"], with_codes=False) if pos == 1 else []
    if verb == "BUILD":
        return _names(cats["objects"], with_codes=False) if pos == 1 else []
    if verb == "DECLARE":
        return ["DEFAULT"] if pos == 1 else list(ATTITUDES) if pos == 2 else []
    if verb in ("NAME", "DESCRIBE"):
        return ["UNIT", "FACTION", "OBJECT"] if pos == 1 else []
    if verb in ("REVEAL", "CONSUME"):
        return ["UNIT", "FACTION"] if pos == 1 else []
    if verb == "OPTION":
        return ["TIMES", "NOTIMES", "TEMPLATE"] if pos == 1 else \
            ["OFF", "SHORT", "LONG"] if pos == 2 else []
    if verb in BOOK_ORDERS or verb in LINE_WORDS:
        return []
    return None


# ---- moving one unit -----------------------------------------------------------------------

def _unit(state: State, number: int):
    return next((u for u in state["units"] if u.number == number), None)


def ship_owned(state: State, scenario: Scenario, number: int) -> int:
    """The ship a unit owns (it is listed first aboard it), else 0."""
    u = _unit(state, number)
    if u is None or not u.structure:
        return 0
    kinds = scenario.catalogs["objects"].by("name")
    ship = next((s for s in state["structures"] if s.number == u.structure), None)
    if ship is None or kinds.get(ship.kind, {}).get("kind") != "ship":
        return 0
    aboard = [v for v in state["units"] if v.structure == u.structure and v.cell == u.cell]
    return ship.number if min(aboard, key=lambda v: v.seq).number == number else 0


def movers(state: State, faction: int, scenario: Scenario, cell: int) -> list[tuple[int, str]]:
    """(unit number, label) of the faction's units in a region, in report order."""
    out = []
    for u in sorted(state["units"], key=lambda u: u.seq):
        if u.faction == faction and u.cell == cell:
            ship = ship_owned(state, scenario, u.number)
            sail = f" - owner of ship {ship}: SAIL" if ship else ""
            out.append((u.number, f"{u.name or 'Unit'} ({u.number}), {u.men} men{sail}"))
    return out


def _direction(grid, a: int, b: int) -> str:
    for d in STEPS:
        if grid.step(a, d) == b:
            return d
    raise ValueError(f"{grid.label(b)} is not next to {grid.label(a)}")


def move_order(state: State, faction: int, scenario: Scenario, path: list[int],
               unit: int | None = None) -> str:
    """`MOVE dir dir ...` (or `SAIL ...` for a ship's owner) for one unit along `path`."""
    if unit is None:
        choices = movers(state, faction, scenario, path[0])
        if len(choices) != 1:
            raise ValueError("pick the unit to move first: several of your units are there"
                             if choices else "none of your units is there")
        unit = choices[0][0]
    u = _unit(state, unit)
    if u is None or u.faction != faction:
        raise ValueError(f"unit {unit} is not one of yours")
    grid = scenario.map.grid
    steps = [_direction(grid, a, b) for a, b in zip(path, path[1:], strict=False)]
    verb = "SAIL" if ship_owned(state, scenario, unit) else "MOVE"
    return f"{verb} {' '.join(steps)}"


def move_range(state: State, faction: int, scenario: Scenario, cell: int,
               unit: int | None = None) -> tuple[float, Callable[[int, int], float | None]]:
    """Movement points this month and the cost of each step: a walking or riding unit pays
    the terrain's entry cost on land and cannot enter ocean; a ship's owner sails over
    ocean and into coastal land."""
    terrains = scenario.catalogs["terrains"].by("name")
    gmap = scenario.map
    ocean = {n for n, r in terrains.items() if r["ocean"]}
    if unit is None:
        choices = movers(state, faction, scenario, cell)
        unit = choices[0][0] if choices else 0
    if unit and ship_owned(state, scenario, unit):
        def sail_cost(a: int, b: int) -> float | None:
            return 1.0 if gmap.terrain_at(a) in ocean or gmap.terrain_at(b) in ocean else None

        return float(SAIL_POINTS), sail_cost
    u = _unit(state, unit) if unit else None
    if u is None:
        return 0.0, lambda a, b: None
    items = {r.item: r.count for r in state["unit_items"] if r.unit == u.number}
    points = rules.load(u.men, items, scenario.catalogs["items"].by("name")).points

    def walk_cost(a: int, b: int) -> float | None:
        row = terrains.get(gmap.terrain_at(b))
        c = rules.entry_cost(row) if row is not None else None
        return None if c is None else float(c)

    return float(points), walk_cost


# ---- where the line goes -------------------------------------------------------------------

UNIT_RX = re.compile(r"^\s*unit\s+(\d+)\b", re.IGNORECASE)
END_RX = re.compile(r"^\s*#end\b", re.IGNORECASE)
MOVE_RX = re.compile(r"^\s*@?\s*(move|sail|advance)\b", re.IGNORECASE)


def insert_order(text: str, line: str, unit: int | None = None) -> tuple[str, int]:
    """The orders with `line` put among `unit`'s orders (after its `unit` line's block,
    replacing an earlier MOVE, ADVANCE or SAIL of it), or a new `unit` block before `#end`;
    and the 1-based number of the line written."""
    lines = text.split("\n")
    start = next((i for i, t in enumerate(lines)
                  if (m := UNIT_RX.match(t)) and unit is not None and int(m.group(1)) == unit), None)
    if start is None:
        end = next((i for i in range(len(lines) - 1, -1, -1) if END_RX.match(lines[i])), len(lines))
        block = ([f"unit {unit}"] if unit is not None else []) + [line, ""]
        lines[end:end] = block
        return "\n".join(lines), end + len(block) - 1
    stop = next((i for i in range(start + 1, len(lines))
                 if UNIT_RX.match(lines[i]) or END_RX.match(lines[i])), len(lines))
    for i in range(start + 1, stop):
        if MOVE_RX.match(lines[i]):
            lines[i] = line
            return "\n".join(lines), i + 1
    at = stop
    while at > start + 1 and not lines[at - 1].strip():
        at -= 1  # after the unit's last line, before the blank line closing its block
    lines[at:at] = [line]
    return "\n".join(lines), at + 1


def order_paths(sheet, state: State, faction: int, scenario: Scenario) -> list[tuple[int, list[int]]]:
    """(line, cells) of each MOVE, ADVANCE and SAIL of the sheet, from its unit's region;
    a step into a structure (IN, OUT, a number) stays in the region."""
    grid = scenario.map.grid
    where = {u.number: u.cell for u in state["units"] if u.faction == faction}
    out = []
    for order in sheet.orders:
        if not isinstance(order, Move | Sail) or not order.steps:
            continue
        cell = where.get(order.unit.number)
        if cell is None:
            continue
        cells = [cell]
        for s in order.steps:
            d = DIRECTIONS.get(str(s).upper())
            if d is None:
                continue
            nxt = grid.step(cells[-1], d)
            if nxt is None:
                break
            cells.append(nxt)
        where[order.unit.number] = cells[-1]  # MOVE N then MOVE NE chain
        out.append((order.line, cells))
    return out
