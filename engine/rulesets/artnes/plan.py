"""Checking one nation's orders against the state: what will be bought, moved and declared.

The same plan serves the checker (diagnostics for the player, state untouched) and the
turn (which carries it out), so a sheet is judged the same way in both places.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.orders import AMBIGUOUS, ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.rulesets.artnes import orders as o
from engine.rulesets.artnes.rules import (
    Board,
    at_war,
    count_units,
    fold,
    has_castle,
    owner_of,
    points_used,
    population_points,
    realm_numbers,
    unit_table,
)
from engine.scenario import Scenario
from engine.state import State


@dataclass
class Purchase:
    line: int
    unit: str
    realm: str
    count: int
    cost: int


@dataclass
class Movement:
    """Units of one kind leaving `path[0]` for `path[-1]` (a convoy crosses `sea`)."""

    line: int
    nation: int
    unit: str
    count: int
    path: list[str]
    sea: str = ""          # convoys only

    @property
    def origin(self) -> str:
        return self.path[0]

    @property
    def dest(self) -> str:
        return self.path[-1]

    @property
    def came_from(self) -> str:
        return self.path[-2]


@dataclass
class Plan:
    nation: int
    purchases: list[Purchase] = field(default_factory=list)
    moves: list[Movement] = field(default_factory=list)
    wars: list[int] = field(default_factory=list)
    peace: list[int] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def nation_names(scenario: Scenario, state: State) -> dict[int, str]:
    names = {f.number: f.name for f in scenario.factions}
    for n in state["nations"]:
        if n.name:
            names.setdefault(n.nation, n.name)
    return names


def match_nation(text: str, names: dict[int, str]) -> list[int]:
    key = fold(text)
    exact = [k for k, v in names.items() if fold(v) == key]
    if exact:
        return exact
    return sorted(k for k, v in names.items() if key and fold(v).startswith(key))


class Planner:
    def __init__(self, board: Board, state: State, scenario: Scenario, nation: int):
        self.board, self.state, self.scenario, self.nation = board, state, scenario, nation
        self.units = unit_table(scenario.catalogs)
        self.opts = scenario.options
        self.plan = Plan(nation)

    def diag(self, order: o.Order, kind: str, msg: str, sev: Severity = Severity.ERROR) -> None:
        self.plan.diagnostics.append(Diagnostic(kind, msg, order.line, 0, order.text, severity=sev))

    def place(self, order: o.Order, text: str, kind: str | None, what: str) -> str | None:
        hits = self.board.match(text, kind)
        if len(hits) == 1:
            return hits[0]
        if not hits:
            self.diag(order, ILLEGAL, f"no {what} called {text!r}")
        else:
            self.diag(order, AMBIGUOUS, f"{text!r} could be {', '.join(hits)}; write more of the name")
        return None

    def build(self, sheet: OrderSheet) -> Plan:
        self.gold = next((n.gold for n in self.state["nations"] if n.nation == self.nation), 0)
        self.pp = population_points(self.board, self.state, self.nation)
        self.used = points_used(self.state, self.nation, self.units)
        self.castles: set[str] = set()
        self.left: dict[tuple[str, str], int] = {}
        for order in sheet.orders:
            handler = getattr(self, "_" + type(order).__name__.lower(), None)
            if handler is not None:
                handler(order)
        return self.plan

    # ---- the opening line ---------------------------------------------------------------

    def _opening(self, order: o.Opening) -> None:
        real = {"gold": self.gold, "pp": self.pp, "left": self.pp - self.used}
        words = {"gold": "gold", "pp": "population points", "left": "points left"}
        for key, value in real.items():
            said = getattr(order, key)
            if said is not None and said != value:
                self.diag(order, ILLEGAL, f"you wrote {words[key]} {said}, the figure is {value}",
                          Severity.WARNING)

    # ---- diplomacy -------------------------------------------------------------------------

    def _other(self, order: o.Order, text: str) -> int | None:
        names = nation_names(self.scenario, self.state)
        hits = match_nation(text, names)
        if len(hits) != 1:
            if hits:
                self.diag(order, AMBIGUOUS, f"{text!r} could be {', '.join(names[h] for h in hits)}")
            else:
                self.diag(order, ILLEGAL, f"no nation called {text!r}")
            return None
        if hits[0] == self.nation:
            self.diag(order, ILLEGAL, "that is your own nation")
            return None
        return hits[0]

    def _war(self, order: o.War) -> None:
        other = self._other(order, order.nation)
        if other is None:
            return
        if at_war(self.state, self.nation, other):
            self.diag(order, ILLEGAL, "you are at war with them already", Severity.WARNING)
        elif other not in self.plan.wars:
            self.plan.wars.append(other)

    def _peace(self, order: o.Peace) -> None:
        other = self._other(order, order.nation)
        if other is None:
            return
        if not at_war(self.state, self.nation, other):
            self.diag(order, ILLEGAL, "you are not at war with them", Severity.WARNING)
        elif other not in self.plan.peace:
            self.plan.peace.append(other)

    # ---- purchases ---------------------------------------------------------------------------

    def _buy(self, order: o.Buy) -> None:
        realm = self.place(order, order.realm, "realm", "realm")
        spec = self.units.get(order.unit)
        if realm is None or spec is None:
            return
        if owner_of(self.state, realm) != self.nation:
            self.diag(order, ILLEGAL, f"{realm} is not your realm")
            return
        if spec["coastal_only"] and not self.board.is_coastal(realm):
            self.diag(order, ILLEGAL, f"{realm} borders no sea; {spec['plural']} are built only in coastal realms")
            return
        count = order.count
        if order.unit == "castle":
            if count > 1 or has_castle(self.state, realm) or realm in self.castles:
                self.diag(order, ILLEGAL, f"only one castle may stand in {realm}")
                if has_castle(self.state, realm) or realm in self.castles:
                    return
                count = 1
        cost = int(spec["cost"]) * count
        if cost > self.gold:
            self.diag(order, ILLEGAL, f"{count} {spec['plural'] if count > 1 else spec['name']} cost "
                      f"{cost} gold; you have {self.gold} left")
            return
        need = int(spec["pp"]) * count
        if self.used + need > self.pp:
            self.diag(order, ILLEGAL, f"that needs {need} population points; you have "
                      f"{self.pp - self.used} left")
            return
        self.gold -= cost
        self.used += need
        if order.unit == "castle":
            # the castle raises the realm's population at once, for later purchases too
            self.pp += realm_numbers(self.board, realm, True)[1] - realm_numbers(self.board, realm, False)[1]
            self.castles.add(realm)
        self.plan.purchases.append(Purchase(order.line, order.unit, realm, count, cost))

    # ---- moves -----------------------------------------------------------------------------------

    def _take(self, order: o.Order, unit: str, where: str, count: int | None) -> int:
        key = (unit, where)
        if key not in self.left:
            self.left[key] = count_units(self.state, self.nation, unit, where)
            if self.opts.new_units_move:
                self.left[key] += sum(p.count for p in self.plan.purchases
                                      if p.unit == unit and p.realm == where)
        have = self.left[key]
        spec = self.units[unit]
        if have == 0:
            self.diag(order, ILLEGAL, f"you have no {spec['plural']} left to move in {where}")
            return 0
        want = have if count is None else count
        if want > have:
            self.diag(order, ILLEGAL, f"only {have} {spec['plural'] if have > 1 else spec['name']} "
                      f"left in {where}; moving {have}", Severity.WARNING)
            want = have
        self.left[key] = have - want
        return want

    def _foreign(self, realm: str) -> bool:
        owner = owner_of(self.state, realm)
        return owner not in (0, self.nation)

    def _check_attack(self, order: o.Order, realm: str) -> bool:
        owner = owner_of(self.state, realm)
        if owner in (0, self.nation) or not self.opts.attack_needs_war or at_war(self.state, self.nation, owner):
            return True
        self.diag(order, ILLEGAL, f"{realm} belongs to a nation you are at peace with")
        return False

    def _move(self, order: o.Move) -> None:
        route = [self.place(order, p, None, "realm or sea") for p in order.route]
        if any(r is None for r in route):
            return
        unit = order.unit
        if unit == "castle":
            self.diag(order, ILLEGAL, "castles cannot move")
            return
        for a, b in zip(route, route[1:], strict=False):
            if a == b or b not in self.board.adjacent[a]:
                self.diag(order, ILLEGAL, f"{a} and {b} are not adjacent")
                return
        path = self._galley_path(order, route) if unit == "galley" else self._land_path(order, route)
        if path is None:
            return
        if not self._check_attack(order, path[-1]):
            return
        n = self._take(order, unit, path[0], order.count)
        if n:
            self.plan.moves.append(Movement(order.line, self.nation, unit, n, path))

    def _land_path(self, order: o.Order, route: list[str]) -> list[str] | None:
        unit = order.unit
        if any(self.board.is_sea(r) for r in route):
            self.diag(order, ILLEGAL, f"{self.units[unit]['plural']} cannot enter seas; use Convoy")
            return None
        steps = int(self.units[unit]["moves"])
        if len(route) - 1 > steps:
            self.diag(order, ILLEGAL, f"a {unit} moves at most {steps} space{'s' if steps > 1 else ''}")
            return None
        for i, realm in enumerate(route[1:-1], start=1):
            if self._foreign(realm):
                self.diag(order, ILLEGAL, f"a {unit} must stop in the enemy realm {realm}; it stops there",
                          Severity.WARNING)
                return route[:i + 1]
        return route

    def _galley_path(self, order: o.Order, route: list[str]) -> list[str] | None:
        if len(route) != 2:
            self.diag(order, ILLEGAL, "a galley moves one space")
            return None
        a, b = route
        sea_a, sea_b = self.board.is_sea(a), self.board.is_sea(b)
        if not sea_a and not sea_b:
            common = set(self.board.seas_of(a)) & set(self.board.seas_of(b))
            if not common:
                self.diag(order, ILLEGAL, f"{a} and {b} do not border the same sea")
                return None
        elif not sea_a and sea_b and not self.opts.galley_to_sea:
            self.diag(order, ILLEGAL, "galleys may not leave a coastal realm for the sea (option)")
            return None
        if not sea_b and self._foreign(b):
            self.diag(order, ILLEGAL, f"galleys cannot enter {b}, a realm of another nation")
            return None
        return route

    def _convoy(self, order: o.Convoy) -> None:
        src = self.place(order, order.src, "realm", "realm")
        dest = self.place(order, order.dest, "realm", "realm")
        if src is None or dest is None:
            return
        if order.unit not in ("knight", "spearman"):
            self.diag(order, ILLEGAL, "only knights and spearmen are convoyed")
            return
        common = sorted(set(self.board.seas_of(src)) & set(self.board.seas_of(dest)))
        if order.sea:
            sea = self.place(order, order.sea, "sea", "sea")
            if sea is None:
                return
            if sea not in common:
                self.diag(order, ILLEGAL, f"{src} and {dest} do not both border {sea}")
                return
        elif not common:
            self.diag(order, ILLEGAL, f"{src} and {dest} share no sea")
            return
        else:
            own = [s for s in common if count_units(self.state, self.nation, "galley", s)]
            sea = (own or common)[0]
            if len(common) > 1 and len(own) != 1:
                self.diag(order, AMBIGUOUS, f"{src} and {dest} share {', '.join(common)}; using {sea} "
                          "(add `via <sea>`)", Severity.WARNING)
        if src == dest:
            self.diag(order, ILLEGAL, "a convoy must go to another realm")
            return
        if not self._check_attack(order, dest):
            return
        galley_moving_in = any(m.unit == "galley" and m.dest == sea for m in self.plan.moves)
        if not count_units(self.state, self.nation, "galley", sea) and not galley_moving_in \
                and self.opts.convoy_galley == "own":
            self.diag(order, ILLEGAL, f"you have no galley in {sea} (yet); the convoy fails unless "
                      "one is there after the sea moves", Severity.WARNING)
        n = self._take(order, order.unit, src, order.count)
        if n:
            self.plan.moves.append(Movement(order.line, self.nation, order.unit, n, [src, dest], sea))


def make_plan(sheet: OrderSheet, board: Board, state: State, scenario: Scenario, nation: int) -> Plan:
    return Planner(board, state, scenario, nation).build(sheet)
