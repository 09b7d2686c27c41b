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

import importlib
from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet
from engine.ruleset import Match, Phase, Ruleset, Submission, TurnModel
from engine.rulesets.kok import catalogs as _cat
from engine.rulesets.kok.state import SCHEMA
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec


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
    map_kinds = ("square",)
    state_schema = SCHEMA

    # ---- declarations ---------------------------------------------------------------

    def catalog_specs(self) -> dict[str, TableSpec]:
        return dict(_cat.SPECS)

    def default_catalogs(self) -> dict[str, Catalog]:
        return _cat.default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return _cat.OPTIONS

    def start_fields(self) -> tuple:
        """Starting provinces (6.1) as cell labels, tribe start sites, and starting armies."""
        from engine.ruleset import StartField

        return (StartField("provinces", "cells", "Starting provinces"),
                StartField("tribe", "sites", "Start sites"),
                StartField("armies", "assets", "Starting armies", catalog="troops",
                           catalog_key="symbol", item_key="troop"))

    def terrain_letters(self) -> dict[str, str]:
        """Map letter -> terrain name of the default terrain table (case files use it)."""
        return {r["letter"]: r["name"] for r in self.default_catalogs()["terrain"].rows}

    def phases(self) -> list[Phase]:
        from engine.rulesets.kok.turn import phases

        return phases()

    # ---- game life ------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> State:
        from engine.rulesets.kok.setup import initial_state

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

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        return _part("nmr", "auto_orders")(state, faction, scenario, dice)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        return _part("identify", "identify")(submission, scenario)

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


RULESET = KingOfKings()
