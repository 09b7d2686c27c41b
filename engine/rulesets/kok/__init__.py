"""King of Kings 4.10 (Jens Niemann): square provinces, simultaneous turns.

Who writes what: the rules core (adjudication: catalogs, setup, the phases of the turn)
lives here; the order parser/checker, NMR orders, reports, identification and the demo
are separate modules imported lazily, so each side can be developed on its own.

Functions this class calls in the other modules (their signatures are the contract):
    orders.parse_orders(text: str, source: str = "") -> OrderSheet
    orders.bind(sheet: OrderSheet, width: int) -> OrderSheet      (adjudication calls it)
    check.check(sheet: OrderSheet, state: State, faction: int, scenario: Scenario)
        -> list[Diagnostic]
    nmr.auto_orders(state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet
    reports.report(state, events: EventLog, faction: int | None, scenario,
                   diagnostics: list[Diagnostic] | None = None) -> dict
    reports.render(report: dict, fmt: str = "text") -> str
    reports.orders_template(state, faction: int, scenario) -> str   (optional)
    identify.identify(submission: Submission, scenario: Scenario) -> Match
    demo.demo() -> tuple[Scenario, dict[int, dict[int, str]]]
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.orders import Diagnostic, Order, OrderSheet
from engine.ruleset import Match, Phase, Ruleset, Submission, TurnModel
from engine.rulesets.kok import catalogs as _cat
from engine.rulesets.kok import events as _events  # noqa: F401  (registers the event kinds for reading back)
from engine.rulesets.kok.state import SCHEMA
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec

# letters of the terrain table before they were kept apart from the tactic letters (8.3)
LEGACY_TERRAIN_LETTERS = {"c": "cultivated", "p": "plains", "f": "forest", "t": "town"}


def _part(module: str, function: str):
    """A function of one of the separately written modules, or a clear error."""
    try:
        mod = importlib.import_module(f"engine.rulesets.kok.{module}")
    except ModuleNotFoundError as e:
        if e.name != f"engine.rulesets.kok.{module}":
            raise
        raise NotImplementedError(f"King of Kings: engine/rulesets/kok/{module}.py is not "
                                  f"written yet ({function} is needed)") from None
    fn = getattr(mod, function, None)
    if fn is None:
        raise NotImplementedError(f"King of Kings: {module}.{function} is not written yet")
    return fn


class KingOfKings(Ruleset):
    name = "kok"
    title = "King of Kings 4.10"
    turn_model = TurnModel.SIMULTANEOUS
    public_reports = True  # section 8: the report is the same for every player
    map_kinds = ("square",)
    state_schema = SCHEMA

    # ---- declarations ---------------------------------------------------------------

    def catalog_specs(self) -> dict[str, TableSpec]:
        return dict(_cat.SPECS)

    def default_catalogs(self) -> dict[str, Catalog]:
        return _cat.default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return _cat.OPTIONS

    def state_references(self) -> dict[str, dict[str, str]]:
        return {"provinces": {"owner": "faction", "home": "faction", "loyal": "faction"},
                "armies": {"tribe": "faction", "troop": "troops.symbol"},
                "tribes": {"number": "faction"},
                "alliances": {"tribe": "faction", "other": "faction"}}

    def start_fields(self) -> tuple:
        """Starting provinces (6.1) as cell labels, tribe start sites, and starting armies."""
        from engine.ruleset import StartField

        return (StartField("provinces", "cells", "Starting provinces"),
                StartField("tribe", "sites", "Start sites"),
                StartField("armies", "assets", "Starting armies", catalog="troops",
                           catalog_key="symbol", item_key="troop"))

    def terrain_letters(self) -> dict[str, str]:
        """Map letter -> terrain name of the default terrain table (case and scenario files
        use it). The letters c, p, f, t are also read, as the old letters of cultivated,
        plains, forest and town: they are tactic letters on the text map (8.3), so the map
        now shows r, n, e, v for those terrains."""
        letters = {r["letter"]: r["name"] for r in self.default_catalogs()["terrain"].rows}
        return {**LEGACY_TERRAIN_LETTERS, **letters}

    def map_profile(self) -> Any:
        """Generated maps in the book's terrains, towns and cultivated fields (engine.mapgen; imported only when a map is made)"""
        from engine.rulesets.kok.mapstyle import PROFILE

        return PROFILE

    def validate(self, scenario: Scenario) -> list:
        """A terrain letter that is also a tactic letter would be misread on the text map
        (8.3: the lower-case letters after the owner are tactics)."""
        from engine.validation import WARNING, Problem

        tactics = {t.lower() for t in _cat.TACTIC_LETTERS}
        terrain = scenario.catalogs.get("terrain")
        return [Problem(WARNING, f"terrain {r['name']}: letter {r['letter']!r} is also a tactic "
                        "letter and would be misread on the text map (8.3)",
                        catalog="terrain", row=i)
                for i, r in enumerate(terrain.rows if terrain is not None else [])
                if str(r.get("letter", "")).lower() in tactics]

    def phases(self) -> list[Phase]:
        from engine.rulesets.kok.turn import phases

        return phases()

    # ---- game life ------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> State:
        from engine.rulesets.kok.setup import initial_state

        if scenario.map.kind not in self.map_kinds:  # e.g. `realmsmith new --map` with a hex map
            raise ValueError(f"King of Kings is played on a square map; this map is {scenario.map.kind}")

        return initial_state(self, scenario)

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        world = state.tables["world"]
        end = world[0].end_turn if world else scenario.options["end_turn"]
        return state.step >= end

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        return _part("orders", "parse_orders")(text, source)

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        return _part("check", "check")(sheet, state, faction, scenario)

    def without_parts(self, order: Order, parts: frozenset[int]) -> Order | None:
        """A PLA or DEF without the items the checker refused (8.5: each can fail alone)."""
        from engine.rulesets.kok.orders_model import Defend, Place

        if not isinstance(order, (Place, Defend)):
            return None
        items = [it for k, it in enumerate(order.items, start=1) if k not in parts]
        return dataclasses.replace(order, items=items) if items else None

    def checker(self, state: State, scenario: Scenario):
        return _part("check", "checker")(state, scenario)

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        return _part("nmr", "auto_orders")(state, faction, scenario, dice)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        return _part("identify", "identify")(submission, scenario)

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        return _part("reports", "chronicle_of")(state, events, scenario)

    def report_subject(self, scenario: Scenario, step: int) -> str:
        return _part("identify", "report_subject")(scenario, step)

    # ---- reports ----------------------------------------------------------------------

    def report(self, state: State, events: EventLog, faction: int | None, scenario: Scenario,
               diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        return _part("reports", "report")(state, events, faction, scenario, diagnostics)

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        return _part("reports", "render")(report, fmt)

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        try:
            fn = _part("reports", "orders_template")
        except NotImplementedError:
            return ""
        return fn(state, faction, scenario)

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        from engine.rulesets.kok.victory import summary

        return summary(state, scenario)

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        return _part("demo", "demo")()

    # ---- player viewer hooks (optional; engine.orderdraft) ------------------------------

    def order_keywords(self) -> list[str]:
        from engine.rulesets.kok.orders import CANONICAL, DIRECTIONS, STANDARD_TROOPS, TACTICS

        words = ["BEGIN", "END", "AT", *CANONICAL, "PLACE", "DEFEND", "DONATE", "ALLY"]
        words += list(DIRECTIONS.values()) + list(TACTICS.values())
        words += [n.replace(" ", "")[:2].upper() for n, _ in STANDARD_TROOPS]
        words += [n.split()[0].upper() for n, _ in STANDARD_TROOPS]
        return sorted(set(words))

    def move_order(self, state: State, faction: int, scenario: Scenario, path: list[int]) -> str:
        """The order for own troops at path[0] along path (neighbouring cells): `SEA` with
        ships and everything aboard while the path stays at sea (or sets sail from the
        coast), `LAND` with the land troops when it marches or goes ashore."""
        from engine.rulesets.kok.board import Board

        b = Board(state, scenario)
        start = path[0]
        units = b.of(start, faction)
        sea = len(path) > 1 and b.is_sea(path[1])
        if sea and not any(b.troop(s).sea_move > 0 and n > 0 for s, n in units.items()):
            return ""  # no ships here: nothing can sail
        parts = []
        for t in b.order:
            n = units.get(t.symbol, 0)
            if n <= 0 or (t.land_move <= 0 and (not sea or t.sea_move <= 0)):
                continue
            parts.append(f"{t.name.replace(' ', '')[:2].upper()} {n}")
        if not parts:
            return ""
        dirs = []
        for a, c in zip(path, path[1:], strict=False):
            d = b.grid.direction(a, c)
            if d is None:
                raise ValueError(f"{b.label(c)} is not next to {b.label(a)}")
            dirs.append(d[0])
        x, y = b.grid.xy(start)
        return f"{'SEA' if sea else 'LAND'} {x} {y} {' '.join(parts)} {' '.join(dirs)}"

    def move_range(self, state: State, faction: int, scenario: Scenario, cell: int):
        """On land: movement points of the slowest own troop (a general's army: the
        fastest), each step the entered province's move cost, land only. At sea: the
        slowest ship's points through sea, and any coast next to the fleet to land on."""
        from engine.rulesets.kok.board import Board

        b = Board(state, scenario)
        sea = b.is_sea(cell)
        units = [b.troop(s) for s, n in b.of(cell, faction).items() if n > 0]
        speeds = [t.sea_move if sea else t.land_move for t in units]
        speeds = [v for v in speeds if v > 0]
        if not speeds:
            return 0, None
        general = any(t.general for t in units)
        budget = max(speeds) if general else min(speeds)

        def cost(a: int, c: int) -> float | None:
            if not sea:
                return None if b.is_sea(c) else float(max(1, b.terrain(c).move))
            if b.is_sea(c):
                return 1.0
            return 1.0 if b.is_sea(a) else None  # going ashore ends the move

        return budget, cost

    def order_paths(self, sheet: OrderSheet, state: State, faction: int,
                    scenario: Scenario) -> list[tuple[int, list[int]]]:
        """(line, cells walked) of every LAND and SEA order of a sheet, for the map."""
        from engine.rulesets.kok import orders_model as om
        from engine.rulesets.kok.orders import bind

        grid = scenario.map.grid
        bind(sheet, grid.width)
        out = []
        for o in sheet.orders:
            if isinstance(o, (om.LandMove, om.SeaMove)) and 0 <= o.cell < len(grid):
                cells = [o.cell] + [c for c in grid.walk(o.cell, o.route) if c is not None]
                out.append((o.line, cells[:len(o.route) + 1]))
        return out

    def orders_filename(self, state: State, faction: int, scenario: Scenario) -> str:
        return f"SP{faction}.R{state.step + 1}"

    def orders_subject(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.kok.identify import game_code

        return f"{game_code(scenario)} {state.step + 1}"


RULESET = KingOfKings()
