"""Orders for a tribe that sent none (No Moves Received, rule book 2.9).

The book's server is deliberately simple and so is this: find the capital (the tribe's
province producing the most gold), walk the map in an outward anti-clockwise spiral from
it, and for every own province next to an enemy province give a DEF with a random tactic,
try three times to place a random affordable troop there, and attack the enemy province
with everything (AT) when the province's summed to-hit values are at least twice the
target's, with a random tactic (pincer included, whether or not anyone can pincer).

Every random choice goes through the Dice given, in spiral order, so the same state and
dice give the same orders. The result is written as an orders text and read back through
the parser, so NMR orders appear in reports with line numbers like any other sheet.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.orders import OrderSheet
from engine.rulesets.kok.catalogs import TACTIC_LETTERS
from engine.rulesets.kok.orders import bind, parse_orders
from engine.rulesets.kok.view import Board
from engine.scenario import Scenario
from engine.state import State


def spiral_rank(dx: int, dy: int) -> int:
    """Position of offset (dx, dy) (y down the screen) on the spiral E, N, W, W, S, S, E..."""
    u, v = dx, -dy  # anti-clockwise is reckoned with north up
    k = max(abs(u), abs(v))
    if k == 0:
        return 0
    if u == k and v > -k:
        t = v + k - 1
    elif v == k:
        t = 2 * k + (k - 1 - u)
    elif u == -k:
        t = 4 * k + (k - 1 - v)
    else:
        t = 6 * k + u + k - 1
    return (2 * k - 1) ** 2 + t


def capital(board: Board, faction: int) -> int | None:
    """The tribe's province producing most gold; the first in map order on a tie."""
    best: tuple[int, int] | None = None
    for cell in sorted(board.provinces):
        if board.owner(cell) != faction:
            continue
        gold = board.terrain(cell).gold
        if best is None or gold > best[0]:
            best = (gold, cell)
    return None if best is None else best[1]


def spiral(board: Board, faction: int, start: int) -> list[int]:
    """The tribe's provinces in spiral order outward from `start`."""
    sx, sy = board.grid.xy(start)
    own = [c for c in board.provinces if board.owner(c) == faction]
    return sorted(own, key=lambda c: spiral_rank(c % board.width - sx, c // board.width - sy))


def _enemy(board: Board, faction: int, cell: int) -> int | None:
    """The first neighbour (N, E, S, W) held by a tribe we are not allied with."""
    for n in board.grid.neighbours(cell):
        o = board.owner(n)
        if o and o != faction and not board.is_sea(n) and board.declared(faction, o) == 0:
            return n
    return None


def _strength(board: Board, units: dict[str, int]) -> int:
    return sum(board.rules.troops[s].initial_hit * n for s, n in units.items()
               if s in board.rules.troops)


def nmr_text(state: State, faction: int, scenario: Scenario, dice: Dice) -> str:
    """The NMR orders as the text a player would have sent."""
    board = Board(state, scenario)
    tribe = board.tribes.get(faction)
    lines = ["BEGIN", f"# no orders received from player {faction}: orders of the server (2.9)"]
    home = capital(board, faction) if tribe is not None and tribe.alive else None
    if home is None:
        return "\n".join(lines + ["END", ""])
    rules = board.rules
    gold, wood = tribe.gold, tribe.wood
    symbols = list(rules.troops)
    place_move = bool(rules.option("place_and_move", True))
    for cell in spiral(board, faction, home):
        target = _enemy(board, faction, cell)
        if target is None:
            continue
        x, y = board.grid.xy(cell)
        lines.append(f"DEF {x} {y} {dice.choice(TACTIC_LETTERS, 'nmr def tactic')}")
        mine = board.units(cell, faction)
        for _ in range(3):
            troop = rules.troops[dice.choice(symbols, "nmr troop")]
            if troop.gold > gold or troop.wood > wood or not _suitable(board, faction, cell, troop):
                continue
            gold, wood = gold - troop.gold, wood - troop.wood
            lines.append(f"PLA {x} {y} {rules.words().abbreviation(troop.symbol)}")
            if place_move:
                mine[troop.symbol] = mine.get(troop.symbol, 0) + 1
            break
        theirs: dict[str, int] = {}
        for t in board.occupants(target):
            if t != faction:
                for s, n in board.units(target, t).items():
                    theirs[s] = theirs.get(s, 0) + n
        movers = [s for s, n in mine.items() if n and s in rules.troops
                  and rules.troops[s].land_move > 0 and not rules.troops[s].transport]
        if movers and _strength(board, mine) >= 2 * _strength(board, theirs):
            if board.isolated(cell, faction) and not board.has_general(mine):
                continue  # the move would be refused (2.6); spare the report the error
            tactic = dice.choice(TACTIC_LETTERS, "nmr attack tactic")
            lines.append(f"LAND {x} {y} {tactic} AT {board.grid.direction(cell, target)}")
    return "\n".join(lines + ["END", ""])


def _suitable(board: Board, faction: int, cell: int, troop) -> bool:
    """Would a placement of this troop here stand (4.3)? The server's 'not suitable'."""
    rules = board.rules
    if not troop.buyable or troop.transport or troop.sea_bound:
        return False
    prov = board.provinces.get(cell)
    if rules.option("home_only") and (prov is None or prov.home != faction):
        return False
    if rules.option("loyalty") and prov is not None and prov.loyal not in (0, faction):
        return False
    return not board.isolated(cell, faction)


def auto_orders(state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
    """NMR orders for `faction` as a parsed sheet (source "NMR"), cells bound to the map."""
    text = nmr_text(state, faction, scenario, dice)
    words = Board(state, scenario).rules.words()
    sheet = parse_orders(text, source=f"NMR player {faction}", width=scenario.map.grid.width,
                         troops=words.names)
    bind(sheet, scenario.map.grid.width)
    sheet.header.update({"nmr": True, "faction": faction, "text": text})
    return sheet
