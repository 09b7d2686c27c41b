"""Atlantis Conquest 1.0 (Geoff Dunbar, 1998): hex regions, factions of units, skills, items,
month-long orders, stealth, combat rounds and magic.

What exists (docs/atlantis.md): the catalogs, the state schema, the Conquest world and the
state a game starts from, the orders parser and checker, `identify`, the reports and
orders template of any state (report.py, report_text.py, report_html.py), and the turn as
the book's phase table (turn.py) with its first half built: instant orders, GIVE, PILLAGE
and TAX, magic (magic.py: CAST, Teleport), the market, the month-long orders but movement,
maintenance. Combat, stealing and movement are declared phases that refuse their orders
with an `atlantis.not_built` event.
"""

from __future__ import annotations

from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.markup import clean_data, json_is_clean
from engine.orders import Diagnostic, OrderSheet
from engine.ruleset import Match, Phase, Ruleset, StartField, Submission, TurnModel
from engine.rulesets.atlantis import catalog as _cat
from engine.rulesets.atlantis import events as _events  # noqa: F401  (declares the event kinds)
from engine.rulesets.atlantis import lore as _lore  # noqa: F401  (and the SHOW events')
from engine.rulesets.atlantis.state import SCHEMA
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec


class AtlantisConquest(Ruleset):
    name = "atlantis"
    title = "Atlantis Conquest 1.0"
    turn_model = TurnModel.SIMULTANEOUS
    map_kinds = ("hex",)
    state_schema = SCHEMA
    _password_index: tuple | None = None  # current_password's (factions list, length, places)
    capabilities = frozenset({"parse", "turn", "reports", "play", "demo"})

    # ---- declarations --------------------------------------------------------------

    def catalog_specs(self) -> dict[str, TableSpec]:
        return dict(_cat.SPECS)

    def default_catalogs(self) -> dict[str, Catalog]:
        return _cat.default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return _cat.OPTIONS

    def terrain_letters(self) -> dict[str, str]:
        return {r["letter"]: r["name"] for r in self.default_catalogs()["terrains"].rows}

    def start_fields(self) -> tuple[StartField, ...]:
        return (StartField("player", "sites", "Start sites"),
                StartField("start", "cell", "Starting region", notation="atlantis"))

    def map_profile(self) -> Any:
        """Generated maps in the book's five terrains (engine.mapgen; imported only when a map is made)"""
        from engine.rulesets.atlantis.world import PROFILE

        return PROFILE

    def validate(self, scenario: Scenario) -> list[str]:
        """What would stop a game from starting: terrains missing from the catalog, starts
        at sea, two factions on one starting region."""
        import numpy as np

        from engine.rulesets.atlantis.world import start_cell

        if scenario.initial is not None:
            return []
        m, out = scenario.map, []
        terrains = {r["name"]: r for r in scenario.catalogs["terrains"]}
        used = {m.terrains[int(i)] for i in np.unique(m.terrain)}
        for t in sorted(used - set(terrains)):
            out.append(f"terrain {t!r} of the map is not in the terrains catalog")
        taken: dict[int, int] = {}
        for f in sorted(scenario.factions, key=lambda f: f.number):
            cell = start_cell(scenario, f.number)
            if cell is None:
                continue  # said by the generic check of starts
            if terrains.get(m.terrain_at(cell), {}).get("ocean"):
                out.append(f"faction {f.number} ({f.name}) starts at sea, {m.grid.label(cell)}")
            if cell in taken:
                out.append(f"faction {f.number} starts in the region of faction {taken[cell]}, "
                           f"{m.grid.label(cell)}")
            taken.setdefault(cell, f.number)
        return out

    def phases(self) -> list[Phase]:
        from engine.rulesets.atlantis.turn import phases

        return phases()

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        """A faction that sent no orders: its units WORK (option `nmr_work`), as the
        Atlantis server does."""
        from engine.rulesets.atlantis import orders as o

        sheet = OrderSheet(source="NMR")
        if scenario.options["nmr_work"]:
            sheet.orders = [o.Work(unit=o.UnitRef(u.number), faction=faction)
                            for u in sorted(state["units"], key=lambda u: u.number)
                            if u.faction == faction]
        return sheet

    # ---- game life ---------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> State:
        from engine.rulesets.atlantis.world import initial_state

        if scenario.map.kind not in self.map_kinds:
            raise ValueError(f"Atlantis is played on a hex map; this map is {scenario.map.kind}")
        return initial_state(self.state_schema, scenario)

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        from engine.rulesets.atlantis.parser import parse_orders

        return parse_orders(text, source)

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        from engine.rulesets.atlantis.checker import check

        return check(sheet, state, faction, scenario)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        from engine.rulesets.atlantis.identify import identify

        return identify(submission, scenario)

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        """The closed-ended game is over once at most one faction is left (option
        `victory`; docs/atlantis.md)."""
        from engine.rulesets.atlantis.rules import game_over
        from engine.rulesets.atlantis.turn import victory
        return game_over(state["factions"], victory(scenario.options))

    def current_password(self, state: State, faction: int, scenario: Scenario) -> str | None:
        """The faction's password as its PASSWORD orders left it (instant.py), not the
        scenario's first one; None for a faction not in the state (the scenario's then)."""
        fs = state["factions"]
        # an import asks for each of 1,000 factions: their places are indexed once per list
        # (each answer is read from the list itself, so a record replaced in place counts)
        where = self._password_index
        if where is None or where[0] is not fs or where[1] != len(fs):
            places: dict[int, int] = {}
            for i, f in enumerate(fs):
                places.setdefault(f.number, i)
            where = self._password_index = (fs, len(fs), places)
        i = where[2].get(faction)
        if i is not None and fs[i].number == faction:
            return fs[i].password or ""
        for f in fs:  # the list changed in a way its length does not show
            if f.number == faction:
                return f.password or ""
        return None

    # ---- factions joining and leaving, the GM's hand (gm.py) -----------------------------

    def split_sets(self, submission: Submission) -> list[Submission]:
        from engine.rulesets.atlantis.identify import split_sets

        return split_sets(submission)

    def intervene(self, state: State, scenario: Scenario, intervention: Any) -> Any:
        from engine.rulesets.atlantis.gm import intervene

        return intervene(state, scenario, intervention)

    def new_factions(self, state: State, scenario: Scenario) -> list[Any]:
        from engine.rulesets.atlantis.gm import new_factions

        return new_factions(state, scenario)

    def cycle_factions(self, state: State, scenario: Scenario) -> list[int]:
        """Every faction but those out of the game (QUIT, RESTART, no units left)."""
        out = {f.number for f in state["factions"] if f.eliminated}
        return [f.number for f in scenario.factions if f.number not in out]

    def report_factions(self, state: State, scenario: Scenario) -> set[int] | None:
        from engine.rulesets.atlantis.gm import report_factions

        return report_factions(state)

    # ---- reports -----------------------------------------------------------------------

    gm_report_on_demand = True  # the whole world's report: when the GM asks (docs/atlantis.md)
    templates_with_reports = True  # the run stores the orders templates; export writes them
    _laid_out: tuple[dict[str, Any], list[Any]] | None = None  # render_all's last sections

    def formats(self, scenario: Scenario) -> tuple[str, ...]:
        """Option report_formats: all three, or the text alone as the server writes it."""
        return ("text",) if scenario.options.values.get("report_formats") == "text" \
            else self.report_formats

    def report(self, state: State, events: EventLog, faction: int | None, scenario: Scenario,
               diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        from engine.rulesets.atlantis.report import build

        return build(state, events, faction, scenario, diagnostics)

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        from engine.rulesets.atlantis.report import chronicle

        return chronicle(state, events, scenario)

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        from engine.rulesets.atlantis.report_html import render_html
        from engine.rulesets.atlantis.report_text import render_text

        if fmt == "json":  # player strings cleaned of control characters (engine.markup);
            # most reports have none, and walking a big report to clean it cost more than
            # writing it: only a report whose text shows some is cleaned and written again
            from engine.rulesets.atlantis.report_json import dumps

            text = dumps(report)
            return text if json_is_clean(text) else dumps(clean_data(report))
        if fmt == "html":
            return render_html(report)
        return render_text(report)

    def render_all(self, report: dict[str, Any], formats: tuple[str, ...]) -> list[tuple[str, str]]:
        """Text and HTML lay out the same sections: made once for both, not once each. The
        JSON is written as it is: the runner, the one caller, looks for what to clean in it
        (engine/db/runner.py, _rendered) and renders cleaned data again if it finds any."""
        from engine.rulesets.atlantis.report_html import render_html
        from engine.rulesets.atlantis.report_json import dumps
        from engine.rulesets.atlantis.report_text import render_text, sections

        secs = sections(report) if "text" in formats or "html" in formats else None
        # a faction's sections, for the orders template the run makes next (report_template)
        self._laid_out = (report, secs) if secs is not None and report["faction"] is not None \
            else None
        return [(fmt, render_text(report, secs) if fmt == "text" else
                 render_html(report, secs) if fmt == "html" else
                 dumps(report) if fmt == "json" else self.render(report, fmt))
                for fmt in formats]

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.atlantis.report import template_data
        from engine.rulesets.atlantis.report_text import render_template

        return render_template(template_data(state, faction, scenario))

    def report_template(self, state: State, faction: int, scenario: Scenario,
                        report: dict[str, Any]) -> str:
        from engine.rulesets.atlantis.report import template_from_report
        from engine.rulesets.atlantis.report_text import render_template

        data = template_from_report(state, faction, scenario, report)
        laid, self._laid_out = self._laid_out, None
        if laid is not None and laid[0] is data:  # the report's own template section, untitled
            body = next((b for title, b in laid[1] if title == "template"), None)
            if body is not None:
                return "\n".join(body[2:]) + "\n"
        return render_template(data)

    def visible_cells(self, state: State, faction: int, scenario: Scenario) -> set[int] | None:
        from engine.rulesets.atlantis.view import visible_cells

        return visible_cells(state, faction, scenario)

    def visible_state(self, state: State, faction: int, scenario: Scenario,
                      events: EventLog | None = None) -> State:
        from engine.rulesets.atlantis.view import visible_state

        return visible_state(state, faction, scenario, events)

    def visible_factions(self, state: State, faction: int, scenario: Scenario,
                         events: EventLog | None = None) -> set[int] | None:
        from engine.rulesets.atlantis.view import known_factions

        return known_factions(state, faction, scenario, events)

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        """A Conquest world of four factions with a first month of orders (`realmsmith new
        --ruleset atlantis` and `realmsmith demo --ruleset atlantis` start from it)."""
        from engine.rulesets.atlantis.demo import demo

        return demo()

    # ---- maps and the player viewer -------------------------------------------------------------

    def political_map(self, state: State, scenario: Scenario) -> Any:
        from engine.rulesets.atlantis.political import political_map

        return political_map(state, scenario)

    def cell_owners(self, state: State, scenario: Scenario) -> dict[int, int]:
        from engine.rulesets.atlantis.political import holders

        return holders(state)

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        from engine.rulesets.atlantis.political import summary

        return summary(state, scenario)

    def unit_rows(self, state: State, scenario: Scenario) -> list[tuple]:
        from engine.rulesets.atlantis.political import unit_rows

        return unit_rows(state, scenario)

    # ---- player viewer hooks -----------------------------------------------------------------

    order_comment = r";.*$"   # the orders editor colours `;` comments, not `#atlantis`
    order_quotes = '"'        # `Merlin's` is no string

    def order_completions(self, state: State, faction: int, scenario: Scenario,
                          line: str) -> list[str] | None:
        from engine.rulesets.atlantis.drafting import completions

        return completions(state, faction, scenario, line)

    def movers(self, state: State, faction: int, scenario: Scenario, cell: int) -> list[tuple[int, str]]:
        from engine.rulesets.atlantis.drafting import movers

        return movers(state, faction, scenario, cell)

    def move_order(self, state: State, faction: int, scenario: Scenario, path: list[int],
                   unit: int | None = None) -> str:
        from engine.rulesets.atlantis.drafting import move_order

        return move_order(state, faction, scenario, path, unit)

    def move_range(self, state: State, faction: int, scenario: Scenario, cell: int,
                   unit: int | None = None):
        from engine.rulesets.atlantis.drafting import move_range

        return move_range(state, faction, scenario, cell, unit)

    def insert_order(self, text: str, line: str, unit: int | None = None) -> tuple[str, int]:
        from engine.rulesets.atlantis.drafting import insert_order

        return insert_order(text, line, unit)

    def order_paths(self, sheet: OrderSheet, state: State, faction: int,
                    scenario: Scenario) -> list[tuple[int, list[int]]]:
        from engine.rulesets.atlantis.drafting import order_paths

        return order_paths(sheet, state, faction, scenario)

    def order_keywords(self) -> list[str]:
        from engine.rulesets.atlantis.orders import BOOK_ORDERS, DIRECTIONS

        return sorted({*BOOK_ORDERS, "UNIT", "END", "NEW", "FACTION", "#ATLANTIS", "#END",
                       *DIRECTIONS})


RULESET = AtlantisConquest()
