"""Continental Conquest 5.0 (June 1995): clans rebuilding a continent after the Plague.

Status: a foundation, NOT a playable ruleset, and not registered with engine.registry.
What exists: the book's tables as catalogs (catalog.py, resources/cc/), the options for its
choices and unclear passages (options.py), the state schema for the whole book (state.py)
and the North America map (maps/cc/). Turns, orders, reports and the demo are not built:
those methods raise NotBuiltYet with a message saying so. docs/continental.md lists what
remains; docs/cc-checklist.md tracks every rule of the book.
"""

from __future__ import annotations

from typing import Any

from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet
from engine.ruleset import Phase, Ruleset, TurnModel
from engine.rulesets.cc.catalog import SPECS, default_catalogs
from engine.rulesets.cc.options import OPTIONS
from engine.rulesets.cc.state import SCHEMA
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec

NOT_BUILT = ("Continental Conquest: {what} is not built yet (only its catalogs, options, "
             "state schema and map exist; see docs/continental.md)")


class NotBuiltYet(NotImplementedError):
    """A part of the Continental Conquest ruleset a later session still has to build."""

    def __init__(self, what: str):
        super().__init__(NOT_BUILT.format(what=what))


class ContinentalConquest(Ruleset):
    name = "cc"
    title = "Continental Conquest 5.0"
    turn_model = TurnModel.SEQUENTIAL
    map_kinds = ("hex",)
    cell_notation = "ccrr"  # the book writes hexes as 0825: column 08, row 25
    state_schema = SCHEMA

    def catalog_specs(self) -> dict[str, TableSpec]:
        return dict(SPECS)

    def default_catalogs(self) -> dict[str, Catalog]:
        return default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return OPTIONS

    def terrain_letters(self) -> dict[str, str]:
        """Report abbreviation -> terrain id (Pla -> plains), for case files and reports."""
        return {t["abbr"]: t["id"] for t in default_catalogs()["terrain"]}

    def phases(self) -> list[Phase]:
        raise NotBuiltYet("the player turn (income, clan orders, ten pulses, maintenance)")

    def initial_state(self, scenario: Scenario) -> State:
        raise NotBuiltYet("setting up a game (initial state)")

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        sheet = OrderSheet(source=source)
        sheet.add(Diagnostic("invalid", NOT_BUILT.format(what="reading orders")))
        return sheet

    def report(self, state: State, events: EventLog, faction: int | None,
               scenario: Scenario, diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        raise NotBuiltYet("the turn report")

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        raise NotBuiltYet("rendering reports")


RULESET = ContinentalConquest()
