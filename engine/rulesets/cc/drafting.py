"""Writing Continental Conquest orders in the player viewer (engine.orderdraft's hooks).

A path drawn on the map for one convoy becomes pulse lines of that convoy's block on the
orders sheet: one direction a pulse (N NE SE S SW NW), or for an air convoy one hex number
(it flies any distance an order, within its range). The lines go into the convoy's free
pulse lines after the last one written. The reach preview (`reach`) starts where the moves
already written leave the convoy, with the moves a turn (the book's, with the scout, Engineer,
Pilot and Airport bonuses) and the fuel they leave: the checker's dry run plays the sheet up
to the end of the pulses (income at its least, pre-turn buys, every convoy's orders), and
each hex then costs what the turn charges to enter it (turn/movement.py's rules and fuel:
terrain, roads, rivers, water, training; X253). `move_range` is the simpler bound from the
report alone (moves, terrain; no fuel).

The orders file and the mail subject name the game, the clan and the clan's own turn (the
sheet's TURN line), never the account number: it is the clan's password.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.orders_sheet import (
    _AGENTS_HEAD,
    _BELOW_HEAD,
    _CONVOY_HEAD,
    _POST_HEAD,
    _PRE_HEAD,
    _RULE,
)
from engine.rulesets.cc.orders_template import _game
from engine.rulesets.cc.sheet_stats import clan_of, next_turn
from engine.rulesets.cc.turn.clan_turn import Ground
from engine.rulesets.cc.turn.movement import entry_cost, moves_allowed, why_not_enter
from engine.scenario import Scenario
from engine.state import State

STEPS = ("N", "NE", "SE", "S", "SW", "NW")
_PULSE = re.compile(r"^(\s*(\d{1,2})\s*[:.)])(.*)$")


# ---- which convoy ----------------------------------------------------------------------------

def _own_convoys(state: State, faction: int, cell: int | None = None) -> list:
    return sorted((c for c in state["convoys"]
                   if c.owner == faction and c.number and (cell is None or c.cell == cell)),
                  key=lambda c: c.number)


def _convoy(state: State, faction: int, number: int):
    return next((c for c in _own_convoys(state, faction) if c.number == number), None)


def movers(state: State, faction: int, scenario: Scenario, cell: int) -> list[tuple[int, str]]:
    """(convoy number, label) of the clan's convoys in a hex: the click picks one."""
    return [(c.number, f"#{c.number} {c.name}".rstrip() + f" ({c.type} convoy)")
            for c in _own_convoys(state, faction, cell)]


def _one(state: State, faction: int, cell: int, unit: int | None):
    if unit is None:
        here = _own_convoys(state, faction, cell)
        if len(here) != 1:
            raise ValueError("pick the convoy to move first: several of your convoys are there"
                             if here else "none of your convoys is there")
        return here[0]
    cv = _convoy(state, faction, unit)
    if cv is None:
        raise ValueError(f"convoy #{unit} is not one of yours")
    return cv


# ---- the move lines ------------------------------------------------------------------------

def _direction(grid, a: int, b: int) -> str:
    for d in STEPS:
        if grid.step(a, d) == b:
            return d
    raise ValueError(f"{grid.label(b, 'ccrr')} is not next to {grid.label(a, 'ccrr')}")


def move_order(state: State, faction: int, scenario: Scenario, path: list[int],
               unit: int | None = None) -> str:
    """The pulse lines moving one convoy along `path`: a direction each (one line per pulse),
    or an air convoy's destination hex (one line)."""
    cv = _one(state, faction, path[0], unit)
    grid = scenario.map.grid
    if cv.type == "air":
        return grid.label(path[-1], "ccrr")
    return "\n".join(_direction(grid, a, b) for a, b in zip(path, path[1:], strict=False))


class _Ground(Ground):
    """The little of a clan turn that turn/movement.why_not_enter reads: terrain, roads and
    rivers, from the bundle's state and map."""

    def __init__(self, state: State, scenario: Scenario):
        self.book = Book(scenario.catalogs)
        self.gmap = scenario.map
        self.roads = {frozenset((r.cell, r.to)) for r in state["roads"]}
        self.roads |= {frozenset(ab) for ab in self.gmap.links.get("road", ())}
        self.rivers = {frozenset(ab) for ab in self.gmap.links.get("river", ())}



def move_range(state: State, faction: int, scenario: Scenario, cell: int,
               unit: int | None = None) -> tuple[float, Callable[[int, int], float | None]]:
    """Hexes the convoy may move this turn, and 1 for each hex it may enter (None where it
    may not: land convoys off the water, sea convoys on it...); air convoys fly anywhere."""
    try:
        cv = _one(state, faction, cell, unit)
    except ValueError:
        return 0.0, lambda a, b: None
    book = Book(scenario.catalogs)
    fleet: dict[str, int] = {}
    for v in state["vehicles"]:
        if v.convoy == cv.id and v.count > 0 and v.type in book.vehicles:
            fleet[v.type] = fleet.get(v.type, 0) + v.count
    experts = {e.code for e in state["experts"] if e.convoy == cv.id}
    airport = cv.type == "air" and any(b.cell == cv.cell and b.code == "AIR" for b in state["buildings"]) \
        and any(c.cell == cv.cell and c.owner == faction for c in state["cities"])
    budget = cs.moves_per_turn(book, cv.type, fleet, experts, airport) - cv.moves_used
    if cv.type == "air":
        return float(max(budget, 0)), lambda a, b: 1.0
    ground = _Ground(state, scenario)

    def step_cost(a: int, b: int) -> float | None:
        return None if why_not_enter(ground, cv, a, b) else 1.0  # type: ignore[arg-type]

    return float(max(budget, 0)), step_cost


def reach(state: State, faction: int, scenario: Scenario, cell: int, unit: int | None = None,
          orders: str = "") -> dict[int, float]:
    """Hexes the convoy may still reach this turn, each with the fewest moves it takes: from
    where the sheet's moves leave it (the origin, where a new path starts, at 0), within the
    moves and the fuel left after every order the sheet has up to the end of the pulses (the
    dry run's count: income at its least; other convoys' later moves counted as spent too).
    A hex the fuel left cannot pay for is out of reach (X253); so is all but the origin for a
    convoy with no moves left."""
    from engine.rulesets.cc import dryrun
    from engine.rulesets.cc.orders_sheet import parse

    try:
        cv = _one(state, faction, cell, unit)
    except ValueError:
        return {cell: 0.0}
    sheet = parse(orders or "", "")
    # post-turn clan orders come after the moves: a BUY FUEL there moves no convoy
    sheet.orders = [x for x in sheet.orders if not (isinstance(x, o.ClanOrder) and x.section == o.POST)]
    t = dryrun.play(sheet, state, faction, scenario)
    dry = t.convoy(cv.number)
    if dry is None:   # sold, absorbed... on the sheet
        return {cell: 0.0}
    origin, moves, fuel = dry.cell, moves_allowed(t, dry) - dry.moves_used, t.clan.fuel
    out = {origin: 0.0}
    if moves <= 0 or (dry.guarding and ("guard", dry.id, -1) in t.marks):
        return out
    board = scenario.map.board()
    if dry.type == "air":   # one order flies any distance in range, for the hexes flown
        for c, d in board.reachable(origin, float(moves)).items():
            if d and entry_cost(t, dry, origin, c, int(d))[0] <= fuel:
                out[c] = d
        return out
    # moves and fuel both bound the reach: layer by layer (one move each), the least fuel that
    # reaches each hex; a hex reached later for no less fuel than before adds nothing
    least: dict[int, int] = {origin: 0}
    layer = {origin: 0}
    for k in range(1, moves + 1):
        nxt: dict[int, int] = {}
        for a, spent in layer.items():
            for b in board.neighbours(a):
                if why_not_enter(t, dry, a, b):
                    continue
                f = spent + entry_cost(t, dry, a, b)[0]
                if f <= fuel and f < nxt.get(b, fuel + 1):
                    nxt[b] = f
        layer = {b: f for b, f in nxt.items() if f < least.get(b, fuel + 1)}
        for b, f in layer.items():
            least[b] = f
            out.setdefault(b, float(k))
        if not layer:
            break
    return out


# ---- where the lines go --------------------------------------------------------------------

def _heading(line: str) -> bool:
    body = line.split(";")[0]
    if _PULSE.match(body):
        return False
    return any(p.match(body) for p in (_CONVOY_HEAD, _PRE_HEAD, _POST_HEAD, _AGENTS_HEAD, _BELOW_HEAD))


def _block(lines: list[str], number: int) -> tuple[int, int] | None:
    """(first line after the heading, end) of convoy #number's block."""
    for i, t in enumerate(lines):
        m = _CONVOY_HEAD.match(t.split(";")[0])
        if m and not _PULSE.match(t) and int(m.group(1)) == number:
            end = next((j for j in range(i + 1, len(lines)) if _heading(lines[j])), len(lines))
            return i + 1, end
    return None


def _free(body: str) -> bool:
    return _RULE.match(body.split(";")[0]) is not None


def insert_order(text: str, line: str, unit: int | None = None) -> tuple[str, int]:
    """The sheet with the move lines in convoy #unit's free pulse lines after its last order
    written (a new block for the convoy if the sheet has none); and the 1-based number of the
    first line written. Raises ValueError when its block has too few free lines left."""
    moves = [m for m in line.split("\n") if m.strip()]
    lines = text.split("\n")
    if unit is None:
        raise ValueError("pick the convoy to move first")
    span = _block(lines, unit)
    if span is None:
        at = next((i for i, t in enumerate(lines) if _POST_HEAD.match(t) or _BELOW_HEAD.match(t)),
                  len(lines))
        new = [f"ORDERS FOR CONVOY #{unit}:", *(f"{k:2d}: {m}" for k, m in enumerate(moves, 1)), ""]
        lines[at:at] = new
        return "\n".join(lines), at + 2
    start, end = span
    pulses = [(i, _PULSE.match(lines[i])) for i in range(start, end) if _PULSE.match(lines[i])]
    last = max((k for k, (_i, m) in enumerate(pulses) if not _free(m.group(3))), default=-1)
    free = [(i, m) for i, m in pulses[last + 1:]]
    if len(free) < len(moves):
        raise ValueError(f"convoy #{unit} has {len(free)} free pulse line"
                         f"{'' if len(free) == 1 else 's'} after its last order; this path needs "
                         f"{len(moves)}: shorten it or clear some lines")
    for (i, m), move in zip(free, moves, strict=False):
        comment = m.group(3).split(";", 1)[1] if ";" in m.group(3) else ""
        lines[i] = f"{m.group(1)} {move}" + (f"  ;{comment}" if comment else "")
    return "\n".join(lines), free[0][0] + 1


def order_paths(sheet, state: State, faction: int, scenario: Scenario) -> list[tuple[int, list[int]]]:
    """(line, cells) of every move of the sheet, pulse by pulse from each convoy's hex."""
    grid = scenario.map.grid
    where = {c.number: c.cell for c in _own_convoys(state, faction)}
    moves = sorted((m for m in sheet.orders if isinstance(m, o.Move) and m.convoy in where),
                   key=lambda m: (m.convoy, m.slot))
    out = []
    for m in moves:
        here = where[m.convoy]
        there = grid.step(here, m.direction) if m.direction else grid.parse(m.hex, "ccrr")
        if there is None:
            continue
        where[m.convoy] = there
        out.append((m.line, [here, there]))
    return out


# ---- the file and the mail ------------------------------------------------------------------

def _stem(scenario: Scenario) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", _game(scenario)).strip("-").lower() or "game"


def orders_filename(state: State, faction: int, scenario: Scenario) -> str:
    """`<game>-clan003-turn06.txt`: the game, the clan and the clan's own turn (the sheet's
    TURN line), never its account number."""
    clan = clan_of(state, faction)
    turn = next_turn(clan) if clan is not None else state.step + 1
    return f"{_stem(scenario)}-clan{faction:03d}-turn{turn:02d}.txt"


def orders_subject(state: State, faction: int, scenario: Scenario) -> str:
    """`<game>: clan 3 turn 6 orders` (the GM's intake reads the sheet's header, not this;
    no clan name: it is the player's text and has no place in a mail header)."""
    clan = clan_of(state, faction)
    turn = next_turn(clan) if clan is not None else state.step + 1
    return f"{_game(scenario).replace('_', ' ')}: clan {faction} turn {turn} orders"
