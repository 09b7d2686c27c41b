"""Checking a King of Kings orders sheet against the current state, without changing it.

The same checker serves the GM console, the CLI `check` and the player viewer. Findings
are ILLEGAL (well formed but against the rules or the state) or AMBIGUOUS; errors mean the
order, or one item of a PLA/DEF line, will fail; warnings mean it will be carried out in
part or otherwise than written (rule book 8.5). Every finding names the line.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from engine.orders import AMBIGUOUS, ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.rulesets.kok.orders import bind, item_columns, parse_orders, step_columns
from engine.rulesets.kok.orders_model import (
    Ally,
    Build,
    Cede,
    Defend,
    Donate,
    LandMove,
    Name,
    Place,
    SeaMove,
)
from engine.rulesets.kok.view import Board, Rules, generals_available
from engine.scenario import Scenario
from engine.state import State

__all__ = ["Board", "Rules", "check", "checker", "generals_available"]


def check(sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list[Diagnostic]:
    """Findings for `faction`'s sheet against `state`; the state is left untouched."""
    return checker(state, scenario)(sheet, faction)


def checker(state: State, scenario: Scenario) -> Callable[[OrderSheet, int], list[Diagnostic]]:
    """check() for many sheets against one state: the board (owners, troops and
    alliances by cell, the catalogs, isolation as asked) is built once for all of them."""
    board = Board(state, scenario)
    words = board.rules.words()
    return lambda sheet, faction: _check(sheet, board, words, faction)


def _check(sheet: OrderSheet, board: Board, words: Any, faction: int) -> list[Diagnostic]:
    reread: list[Diagnostic] = []
    if sheet.header.get("troops", words.names) != words.names and "text" in sheet.header:
        # read with another troop list than this game's (the ruleset's parse_orders does
        # not know the scenario): read it again with the game's own troop names
        again = parse_orders(sheet.header["text"], sheet.source, width=board.width,
                             troops=words.names)
        sheet.orders[:] = again.orders
        sheet.diagnostics[:] = again.diagnostics
        sheet.header.update(again.header)
        reread = [dataclasses.replace(d, faction=faction) for d in again.diagnostics]
    bind(sheet, board.width)
    return reread + _Checker(sheet, board, faction).run()


class _Checker:
    def __init__(self, sheet: OrderSheet, board: Board, faction: int):
        self.sheet, self.b, self.me = sheet, board, faction
        self.rules = board.rules
        self.out: list[Diagnostic] = []
        tribe = board.tribes.get(faction)
        self.gold = tribe.gold if tribe is not None else 0
        self.wood = tribe.wood if tribe is not None else 0
        self.placed_land: dict[int, int] = {}           # cell -> line of its land placement
        self.placed: dict[int, dict[str, int]] = defaultdict(dict)
        self.moved_into: dict[int, int] = {}            # cell -> line of the land move
        self.land_moved_from: dict[int, int] = {}
        self.allies_declared: dict[int, int] = {}      # other -> line of the ALL order
        self.declared: dict[int, int] = {}             # other -> status declared by the sheet
        self.ceded = 0
        self.generals_left = generals_available(board, faction)
        self._at: tuple[str, Any, int] | None = None    # what the next finding points at
        self.part = 0                                  # item of a PLA/DEF it is about (1-based)
        self.indent: dict[int, int] = sheet.header.get("indent", {})
        # troops that earlier SEA/LAND orders of this sheet took away (-) or brought (+)
        self.shift: dict[int, dict[str, int]] = defaultdict(dict)

    def isolated(self, cell: int) -> bool:
        # judged on the state at the start of the turn: the board remembers it for every
        # sheet checked against that state
        return self.b.isolated_at(cell)

    @property
    def col(self) -> int:
        """The column the next finding points at (0: none), worked out only when there
        is a finding: most items and steps have none."""
        at = self._at
        if at is None:
            return 0
        kind, order, k = at
        if kind == "item":
            cols = item_columns(order.text)
            return cols[k] if k < len(cols) else 0
        cols = step_columns(order.text, len(order.route))
        return cols[k - 1] if 0 < k <= len(cols) else 0

    @col.setter
    def col(self, value: int) -> None:
        if value:
            raise ValueError("the checker points at items and steps, or at nothing (0)")
        self._at = None

    def at_item(self, order: Any, k: int) -> None:
        """Point the next findings at item k of a PLA/DEF order (0-based)."""
        self._at = ("item", order, k)
        self.part = k + 1  # an error refuses this item only (8.5: a multi-order may fail in part)

    def at_step(self, order: Any, i: int) -> None:
        """Point the next findings at step i (1-based) of a move's route."""
        self._at = ("step", order, i)
        self.part = 0

    def say(self, order: Any, kind: str, message: str, warn: bool = False) -> None:
        at = self.col
        col = at + self.indent.get(order.line, 0) if at else 0
        self.out.append(Diagnostic(kind, message, order.line, col, order.text,
                                   self.sheet.source, Severity.WARNING if warn else Severity.ERROR,
                                   self.me, self.part))

    def run(self) -> list[Diagnostic]:
        tribe = self.b.tribes.get(self.me)
        if tribe is None or not tribe.alive:
            what = "is not in this game" if tribe is None else "has left the game"
            self.out.append(Diagnostic(ILLEGAL, f"player {self.me} {what}", 0, 0, "",
                                       self.sheet.source, Severity.ERROR, self.me))
            return self.out
        limit = int(self.rules.option("max_orders", 0) or 0)
        orders = list(self.sheet.orders)
        if limit and len(orders) > limit:
            for o in orders[limit:]:
                self.col = self.part = 0
                self.say(o, ILLEGAL, f"more than {limit} orders this turn; this one is ignored")
            orders = orders[:limit]
        # Gold is spent in the order of the turn: donations (with the paperwork), then
        # placements and builds, all before any move, whatever their place on the sheet.
        # The paperwork comes first in the turn (ALL declarations bind the mover at once)
        for o in orders:
            if isinstance(o, Ally):
                self.ally(o)
        for o in orders:
            if isinstance(o, Donate):
                self.donate(o)
        for o in orders:
            if isinstance(o, Place):
                self.place(o)
        for o in orders:
            if isinstance(o, Build) and self.cells_ok(o):
                self.build(o)
        for o in orders:
            if isinstance(o, (Place, Donate, Build, Ally)) or not self.cells_ok(o):
                continue
            if isinstance(o, (SeaMove, LandMove)):
                self.move(o)
            elif isinstance(o, Defend):
                self.defend(o)
            elif isinstance(o, Cede):
                self.cede(o)
            elif isinstance(o, Name):
                self.name(o)
        return self.out

    # ---- helpers ----------------------------------------------------------------------
    def cells_ok(self, o: Any) -> bool:
        if isinstance(o, (Place, Defend)):
            return True  # item by item
        cell = getattr(o, "cell", None)
        if cell is None or self.b.on_map(cell):
            return True
        self.off_map(o, cell)
        return False

    def off_map(self, o: Any, cell: int) -> None:
        g = self.b.grid
        self.say(o, ILLEGAL, f"{self.b.label(cell)} is off the map "
                 f"(0-{getattr(g, 'width', 1) - 1}, 0-{getattr(g, 'height', 1) - 1})")

    def own(self, o: Any, cell: int, what: str) -> bool:
        if self.b.owner(cell) != self.me:
            self.say(o, ILLEGAL, f"{what}: {self.b.label(cell)} is not your province")
            return False
        return True

    def tname(self, sym: str) -> str:
        t = self.rules.troops.get(sym)
        return t.name if t is not None else sym

    def limited(self, o: Place | Defend, option: str, what: str) -> list[tuple[int, str]]:
        """The items of a PLA/DEF line up to the game's limit (5.1, 5.4: three); each item
        past it is refused on its own."""
        limit = int(self.rules.option(option, 3))
        for k in range(limit, len(o.items)):
            self.at_item(o, k)
            self.say(o, ILLEGAL, what.format(limit) + "; this one is ignored")
        self.col = self.part = 0
        return o.items[:limit]

    # ---- PLA (4.3, 5.1) ---------------------------------------------------------------
    def place(self, o: Place) -> None:
        self.col = self.part = 0
        home_only = self.rules.option("home_only")
        sea_ok = self.rules.option("sea_placement")
        loyalty = self.rules.option("loyalty")
        items = self.limited(o, "pla_limit", "PLA places at most {} units")
        for k, (cell, sym) in enumerate(items):
            self.at_item(o, k)
            where = self.b.label(cell)
            if not self.b.on_map(cell):
                self.off_map(o, cell)
                continue
            troop = self.rules.troops.get(sym)
            if troop is None:
                self.say(o, ILLEGAL, f"this game has no troop type {sym}")
                continue
            sea = self.b.is_sea(cell)
            if sea:
                if not sea_ok:
                    self.say(o, ILLEGAL, f"PLA {where}: units may not be placed at sea")
                    continue
                if troop.land_bound:
                    self.say(o, ILLEGAL, f"PLA {where}: {troop.name} cannot be placed at sea")
                    continue
            if not sea and not self.own(o, cell, f"PLA {where}"):
                continue
            if sea and self.b.owner(cell) != self.me and not any(
                    self.b.owner(n) == self.me and not self.b.is_sea(n)
                    for n in self.b.grid.neighbours(cell)):
                self.say(o, ILLEGAL, f"PLA {where}: a sea area must be yours or border a "
                         "province of yours (7.7)")
                continue
            if not sea and troop.sea_bound and not self.b.coastal(cell):
                self.say(o, ILLEGAL, f"PLA {where}: {troop.name} can only be placed in a "
                         "coastal province")
                continue
            prov = self.b.provinces.get(cell)
            if home_only and (prov is None or prov.home != self.me):
                self.say(o, ILLEGAL, f"PLA {where}: units may only be placed in home provinces")
                continue
            if loyalty and prov is not None and prov.loyal not in (0, self.me):
                self.say(o, ILLEGAL, f"PLA {where}: the province is loyal to player {prov.loyal}")
                continue
            if self.isolated(cell):
                self.say(o, ILLEGAL, f"PLA {where}: the province is isolated")
                continue
            if not troop.buyable:
                if self.generals_left <= 0:
                    self.say(o, ILLEGAL, f"PLA {where}: no {troop.name} available to place "
                             "(they come with time, not gold)")
                    continue
                self.generals_left -= 1
            if (troop.general or troop.static) and (
                    self.b.units(cell, self.me).get(sym, 0) or self.placed[cell].get(sym, 0)):
                self.say(o, ILLEGAL, f"PLA {where}: there can be only one {troop.name} in a "
                         "province")
                continue
            if troop.is_land_unit:
                if cell in self.placed_land:
                    self.say(o, ILLEGAL, f"PLA {where}: only one land unit a province "
                             f"(already placed by line {self.placed_land[cell]})")
                    continue
            if troop.gold > self.gold or troop.wood > self.wood:
                need = []
                if troop.gold > self.gold:
                    need.append(f"{troop.gold} gold, {self.gold} left")
                if troop.wood > self.wood:
                    need.append(f"{troop.wood} wood, {self.wood} left")
                if troop.wood <= self.wood and self.donors():
                    # an ally's donation is paid before placement: the turn decides (5.7)
                    self.say(o, ILLEGAL, f"PLA {where}: {troop.name} costs more than you have "
                             f"({'; '.join(need)}); placed only if a donation arrives", warn=True)
                else:
                    self.say(o, ILLEGAL, f"PLA {where}: {troop.name} costs more than you have "
                             f"({'; '.join(need)})")
                    continue
            self.gold -= troop.gold
            self.wood -= troop.wood
            if troop.is_land_unit:
                self.placed_land[cell] = o.line
            self.placed[cell][sym] = self.placed[cell].get(sym, 0) + 1

    def donors(self) -> list[int]:
        """Players who may donate gold to this one this turn (status both ways, 5.7)."""
        need = int(self.rules.option("donation_status", 2))
        return [n for n, t in sorted(self.b.tribes.items()) if n != self.me and t.alive
                and self.b.status(self.me, n) >= need and self.b.status(n, self.me) >= need]

    # ---- SEA and LAND (3.1, 3.2, 5.2, 5.3) ----------------------------------------------
    def present(self, cell: int) -> dict[str, int]:
        units = self.b.units(cell, self.me)
        if self.rules.option("place_and_move", True):
            for s, n in self.placed.get(cell, {}).items():
                units[s] = units.get(s, 0) + n
        for s, n in self.shift.get(cell, {}).items():
            units[s] = max(0, units.get(s, 0) + n)
        return units

    def _shift(self, cell: int, units: dict[str, int], sign: int) -> None:
        for s, n in units.items():
            self.shift[cell][s] = self.shift[cell].get(s, 0) + sign * n

    def move(self, o: SeaMove | LandMove) -> None:
        self.col = self.part = 0
        land = isinstance(o, LandMove)
        verb = "LAND" if land else "SEA"
        where = self.b.label(o.cell)
        have = self.present(o.cell)
        if not any(have.values()):
            self.say(o, ILLEGAL, f"{verb} {where}: you have no troops there")
            return
        if self.isolated(o.cell) and not self.b.has_general(have):
            self.say(o, ILLEGAL, f"{verb} {where}: the province is isolated and no general "
                     "leads the troops")
            return
        if o.cell in self.moved_into:
            self.say(o, ILLEGAL, f"{verb} {where}: troops moved in by line "
                     f"{self.moved_into[o.cell]} make all troops there count as moved; give "
                     "this order before that one", warn=True)
        if not land and o.cell in self.land_moved_from:
            self.say(o, ILLEGAL, f"SEA {where}: troops that moved by land (line "
                     f"{self.land_moved_from[o.cell]}) cannot move by sea later", warn=True)
        moving = self.moving(o, have)
        if not any(moving.values()):
            self.say(o, ILLEGAL, f"{verb} {where}: none of the troops named are there")
            return
        if (n := self.strands(o.cell, have, moving)):
            self.say(o, ILLEGAL, f"{verb} {where}: the move would leave {n} troops at sea "
                     "without ships (3.2.1)")
            return
        self._shift(o.cell, moving, -1)
        if land:
            self.land_route(o, moving)
            self.land_moved_from[o.cell] = o.line
        else:
            end = self.sea_route(o, moving)
            # units that went by sea may go ashore later in the turn (3.2.1)
            self._shift(o.cell if end is None else end, moving, +1)

    def strands(self, cell: int, have: dict[str, int], moving: dict[str, int]) -> int:
        """Troops the move would leave at sea without ships to carry them (0 on land)."""
        if not self.b.is_sea(cell):
            return 0
        ships = carried = 0
        for s, n in have.items():
            t = self.rules.troops.get(s)
            if t is None:
                continue
            left = n - moving.get(s, 0)
            if t.transport:
                ships += left
            elif t.sea_move == 0:
                carried += left
        return max(0, carried - ships)

    def moving(self, o: SeaMove | LandMove, have: dict[str, int]) -> dict[str, int]:
        moving: dict[str, int] = {}
        for sym, n in o.units.items():
            got = have.get(sym, 0)
            if n > got:
                self.say(o, ILLEGAL, f"only {got} {self.tname(sym)} at {self.b.label(o.cell)}, "
                         f"not {n}; {got} will move", warn=True)
            if min(n, got):
                moving[sym] = min(n, got)
        if o.at:
            for sym, n in have.items():
                t = self.rules.troops.get(sym)
                if sym in o.units or t is None or t.transport or t.static:
                    continue
                if n:
                    moving[sym] = n
        return moving

    def land_route(self, o: LandMove, moving: dict[str, int]) -> None:
        troops = [self.rules.troops[s] for s in moving if s in self.rules.troops]
        static = [t.name for t in troops if t.static]
        if static:
            self.say(o, ILLEGAL, f"{', '.join(static)} cannot move", warn=True)
        if o.tactic == "P" and not any(t.pincer for t in troops):
            self.say(o, ILLEGAL, "the pincer attack needs a troop able to pincer "
                     "(horsemen); these troops fight with the standard tactic T (3.5)", warn=True)
        movers = [t for t in troops if t.land_move > 0]
        if not movers:
            return
        if any(t.general for t in movers):
            points = max(t.land_move for t in movers)
        else:
            points = min(t.land_move for t in troops if not t.static and not t.transport) \
                if any(not t.static and not t.transport for t in troops) else 0
        cell: int | None = o.cell
        for i, d in enumerate(o.route, start=1):
            self.at_step(o, i)
            nxt = self.b.grid.step(cell, d) if cell is not None else None
            if nxt is None:
                self.say(o, ILLEGAL, f"step {i} ({d}) leaves the map; the move stops at "
                         f"{self.b.label(cell)}", warn=True)
                break
            if self.b.is_sea(nxt):
                self.say(o, ILLEGAL, f"step {i} ({d}) runs into the sea at "
                         f"{self.b.label(nxt)}; that step is cancelled", warn=True)
                break
            points -= self.b.terrain(nxt).move
            cell = nxt
            owner = self.b.owner(nxt)
            if owner and owner != self.me and self.stance(owner) >= 1 and i < len(o.route) \
                    and self.b.status(self.me, owner) == 0 and self.b.units(nxt, owner):
                # declared friendly, no alliance in force: the owner's troops still block
                # and may not be attacked, so the move ends there and is cancelled (2.8)
                self.say(o, ILLEGAL, f"player {owner}'s troops in {self.b.label(nxt)} block "
                         "the way (no alliance in force yet): the move ends there and is "
                         "cancelled, unless they have left first (2.8)", warn=True)
                return
            if points <= 0 and i < len(o.route):
                self.say(o, ILLEGAL, f"movement points run out at {self.b.label(nxt)} after "
                         f"step {i} of {len(o.route)}", warn=True)
                break
        if cell is None or cell == o.cell:
            return
        owner = self.b.owner(cell)
        if owner and owner != self.me and 1 <= self.stance(owner) < 5 \
                and not self.b.is_sea(cell):
            self.say(o, ILLEGAL, f"the move ends in {self.b.label(cell)} of player {owner}, "
                     f"whom you declared allied ({self.stance(owner)}): the whole move is "
                     "cancelled (2.8)")
        elif owner and owner != self.me and self.stance(owner) == 5 and not self.b.is_sea(cell):
            # status 5: joining a battle fought there this turn is support; who attacks is
            # only known in the turn, so this is a warning (2.8)
            self.say(o, ILLEGAL, f"the move ends in {self.b.label(cell)} of player {owner} "
                     "(status 5): carried out only to support a battle fought there this "
                     "turn; otherwise the whole move is cancelled (2.8)", warn=True)
        self.moved_into.setdefault(cell, o.line)

    def sea_route(self, o: SeaMove, moving: dict[str, int]) -> int | None:
        """Check a fleet's route; returns where it ends (None: it does not sail)."""
        where = self.b.label(o.cell)
        if not self.b.is_sea(o.cell) and not self.b.coastal(o.cell):
            self.say(o, ILLEGAL, f"SEA {where}: a sea move starts at sea or on the coast")
            return None
        troops = {s: self.rules.troops[s] for s in moving if s in self.rules.troops}
        ships = sum(n for s, n in moving.items() if s in troops and troops[s].transport)
        # troops that move at sea by themselves (2.2: amphibious) sail without ships
        sailors = [t for t in troops.values() if not t.transport and t.sea_move > 0]
        if not ships and not sailors:
            self.say(o, ILLEGAL, f"SEA {where}: no ships in the move")
            return None
        if len({s for s, t in troops.items() if t.transport}) > 1:
            self.say(o, ILLEGAL, f"SEA {where}: only one kind of transport may be moved in one "
                     "order")
            return None
        castles = [t.name for s, t in troops.items() if t.static]
        if castles:
            self.say(o, ILLEGAL, f"{', '.join(castles)} cannot go to sea; left behind", warn=True)
        speed = min([t.sea_move for t in troops.values() if t.transport or t.sea_move > 0])
        passengers = sum(n for s, n in moving.items() if s in troops and not troops[s].transport
                         and not troops[s].static and troops[s].sea_move < speed)
        if passengers > ships:
            self.say(o, ILLEGAL, f"{ships} ship(s) carry at most {ships} units, not "
                     f"{passengers}", warn=True)
        crew_free = self.rules.option("no_crew")
        crew = sum(n for s, n in moving.items() if s in troops and troops[s].crew)
        if not crew_free and crew * 2 < ships:
            self.say(o, ILLEGAL, f"{ships} ships need {(ships + 1) // 2} crew (land units); "
                     f"only {crew} go along: the fleet stays (7.5)")
            return None
        points = speed
        cell = o.cell
        at_sea = self.b.is_sea(cell)
        for i, d in enumerate(o.route, start=1):
            self.at_step(o, i)
            nxt = self.b.grid.step(cell, d)
            if nxt is None:
                self.say(o, ILLEGAL, f"step {i} ({d}) leaves the map; the fleet stops at "
                         f"{self.b.label(cell)}", warn=True)
                break
            if not self.b.is_sea(nxt):
                self.say(o, ILLEGAL, f"step {i} ({d}) reaches land at {self.b.label(nxt)}; the "
                         f"fleet halts at {self.b.label(cell)} (use LAND to go ashore)",
                         warn=True)
                break
            points -= self.b.terrain(nxt).move
            cell, at_sea = nxt, True
            if points <= 0 and i < len(o.route):
                self.say(o, ILLEGAL, f"the fleet's moves run out at {self.b.label(nxt)}",
                         warn=True)
                break
        if not at_sea:
            self.say(o, ILLEGAL, f"SEA {where}: the fleet never reaches the sea and stays")
            return None
        return cell

    # ---- DEF, ALL, CEDE, DON, BUILD, NAME -----------------------------------------------
    def defend(self, o: Defend) -> None:
        self.col = self.part = 0
        items = self.limited(o, "def_limit", "DEF covers at most {} provinces")
        for k, (cell, tactic) in enumerate(items):
            self.at_item(o, k)
            if not self.b.on_map(cell):
                self.off_map(o, cell)
                continue
            where = self.b.label(cell)
            if self.b.owner(cell) != self.me:
                # DEF sets the province's tactic, read at the start of the turn (5.4)
                self.say(o, ILLEGAL, f"DEF {where}: not your province")
                continue
            if tactic == "P":
                have = self.present(cell)
                if not any(self.rules.troops.get(s) and self.rules.troops[s].pincer
                           for s, n in have.items() if n):
                    self.say(o, ILLEGAL, f"DEF {where}: the pincer needs a troop able to pincer; "
                             "the defenders fight with the standard tactic T (3.5)", warn=True)

    def other(self, o: Any, n: int) -> bool:
        if n == self.me:
            self.say(o, ILLEGAL, "that is your own player number")
            return False
        t = self.b.tribes.get(n)
        if t is None or not t.alive:
            self.say(o, ILLEGAL, f"there is no player {n} in the game")
            return False
        return True

    def ally(self, o: Ally) -> None:
        self.col = self.part = 0
        if not self.other(o, o.other):
            return
        now = self.b.declared(self.me, o.other)
        if o.other in self.allies_declared:
            self.say(o, AMBIGUOUS, f"second ALL for player {o.other} (line "
                     f"{self.allies_declared[o.other]}); this one counts", warn=True)
        want = o.status
        if abs(want - now) > 1:
            want = now + (1 if want > now else -1)
            self.say(o, ILLEGAL, f"your status to player {o.other} is {now}; it moves by one a "
                     f"turn, so {now} -> {want}, not {o.status}", warn=True)
        self.allies_declared[o.other] = o.line
        self.declared[o.other] = want

    def stance(self, other: int) -> int:
        """The faction's declared status towards `other` once this sheet's ALLs are read."""
        return self.declared.get(other, self.b.declared(self.me, other))

    def cede(self, o: Cede) -> None:
        self.col = self.part = 0
        self.ceded += 1
        if self.ceded > 1:
            self.say(o, ILLEGAL, "only one CEDE a turn")
            return
        if not self.other(o, o.other) or not self.own(o, o.cell, "CEDE"):
            return
        if self.b.status(self.me, o.other) < 5:
            self.say(o, ILLEGAL, f"CEDE needs alliance status 5 with player {o.other} "
                     f"(now {self.b.status(self.me, o.other)})")
            return
        if self.isolated(o.cell):
            self.say(o, ILLEGAL, f"CEDE {self.b.label(o.cell)}: the province is isolated")

    def donate(self, o: Donate) -> None:
        self.col = self.part = 0
        if not self.other(o, o.other):
            return
        if o.gold <= 0:
            self.say(o, ILLEGAL, "DON: nothing to donate")
            return
        mine, theirs = self.b.status(self.me, o.other), self.b.status(o.other, self.me)
        need = int(self.rules.option("donation_status", 2))
        if mine < need or theirs < need:
            self.say(o, ILLEGAL, f"DON needs alliance status {need} or more both ways (you: "
                     f"{mine}, player {o.other}: {theirs})")
            return
        if o.gold > self.gold:
            self.say(o, ILLEGAL, f"only {self.gold} gold left to give, not {o.gold}", warn=True)
            self.gold = 0
            return
        self.gold -= o.gold

    def build(self, o: Build) -> None:
        self.col = self.part = 0
        if not self.rules.option("build"):
            self.say(o, ILLEGAL, "BUILD is not allowed in this game (game option)")
            return
        if not self.own(o, o.cell, "BUILD"):
            return
        if self.isolated(o.cell):
            self.say(o, ILLEGAL, f"BUILD {self.b.label(o.cell)}: the province is isolated")
            return
        terrain = self.b.terrain(o.cell)
        if not terrain.build_into or terrain.build_into.lower() not in self.rules.terrains:
            self.say(o, ILLEGAL, f"BUILD {self.b.label(o.cell)}: {terrain.name} cannot be built "
                     "up any further (5.8)")
            return
        cost = int(self.rules.option("build_cost", 12))
        if cost > self.gold:
            if self.donors():  # an ally's donation is paid before BUILD: the turn decides
                self.say(o, ILLEGAL, f"BUILD costs {cost} gold; {self.gold} left; carried out "
                         "only if a donation arrives", warn=True)
            else:
                self.say(o, ILLEGAL, f"BUILD costs {cost} gold; {self.gold} left")
                return
        self.gold -= cost

    def name(self, o: Name) -> None:
        self.col = self.part = 0
        if not self.own(o, o.cell, "NAME"):
            return
        if self.isolated(o.cell):
            self.say(o, ILLEGAL, f"NAME {self.b.label(o.cell)}: the province is isolated")
