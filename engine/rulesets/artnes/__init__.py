"""ARTNES 2: a forum NES on a map of named realms and seas (Europe from 1300 AD).

Nations buy castles, knights, spearmen and galleys with gold, limited by the population
points of their realms; they claim neutral realms, attack others on a d6 combat results
table, convoy troops across seas held by their galleys and fight at sea when at war.
Rule choices where the book is silent or contradicts itself: docs/artnes.md.
"""

from __future__ import annotations

import re
from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.orders import ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.ruleset import Match, Phase, Ruleset, Submission, TurnModel
from engine.rulesets.artnes import orders as order_parser
from engine.rulesets.artnes import report as reports
from engine.rulesets.artnes.plan import make_plan, match_nation, nation_names
from engine.rulesets.artnes.rules import (
    CRT_SPEC,
    OPTIONS,
    UNITS_SPEC,
    board_of,
    default_catalogs,
    normalise_units,
    points_used,
    population_points,
    set_owner,
    unit_table,
)
from engine.rulesets.artnes.state import SCHEMA, Nation, Unit
from engine.rulesets.artnes.turn import PHASES
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec


def too_many_nations(scenario: Scenario) -> str:
    """Why the scenario has more nations than the game has room for, or ''."""
    most = int(scenario.options.max_nations)
    if len(scenario.factions) <= most:
        return ""
    return (f"{len(scenario.factions)} nations: ARTNES 2 has room for {most} (raise the option "
            "max_nations for a house game)")


class Artnes(Ruleset):
    name = "artnes"
    title = "ARTNES 2"
    turn_model = TurnModel.SIMULTANEOUS
    map_kinds = ("regions",)
    state_schema = SCHEMA
    report_formats = ("text", "bbcode", "html", "json")

    # ---- declarations ----------------------------------------------------------------

    def map_terrains(self) -> list[str]:
        """A region map's cells are land or sea; realms and seas are its areas."""
        return ["land", "sea"]

    def catalog_specs(self) -> dict[str, TableSpec]:
        return {"units": UNITS_SPEC, "crt": CRT_SPEC}

    def default_catalogs(self) -> dict[str, Catalog]:
        return default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return OPTIONS

    def phases(self) -> list[Phase]:
        return list(PHASES)

    def state_references(self) -> dict[str, dict[str, str]]:
        return {"realms": {"realm": "area", "owner": "faction"},
                "units": {"nation": "faction", "kind": "units.kind", "location": "area"},
                "nations": {"nation": "faction"},
                "wars": {"nation": "faction", "other": "faction"}}

    def start_fields(self) -> tuple:
        """Home realms by name, and starting units as [kind, realm or sea, count]."""
        from engine.ruleset import StartField

        return (StartField("realms", "areas", "Home realms"),
                StartField("units", "assets", "Starting units", catalog="units",
                           catalog_key="kind", shape="list", land=False))

    def terrain_letters(self) -> dict[str, str]:
        """Cell letters for small painted case maps (realm vs sea is the area's kind)."""
        return {"l": "land", "s": "sea", ".": "void"}

    # ---- game life ---------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> State:
        if scenario.map.kind not in self.map_kinds:  # e.g. `realmsmith new --map` with a grid map
            raise ValueError(f"ARTNES is played on a map of named realms and seas (regions); "
                             f"this map is {scenario.map.kind}")
        board = board_of(scenario.map)
        if not board.realms:
            raise ValueError("the map has no realms (named land areas) to play on")
        if (why := too_many_nations(scenario)):
            raise ValueError(why)
        gold = int(scenario.options.start_gold)
        if scenario.initial is not None:
            state = scenario.initial.copy()
        else:
            state = self.new_state(0)
            for f in scenario.factions:
                realms = f.attrs.get("realms") or [r for r, home in sorted(board.homes.items())
                                                   if home.casefold() == f.name.casefold()]
                for r in realms:
                    hits = board.match(str(r), "realm")
                    if len(hits) == 1:
                        set_owner(state, hits[0], f.number)
                for kind, where, count in f.attrs.get("units", []):
                    state["units"].append(Unit(f.number, str(kind), str(where), int(count)))
        have = {n.nation for n in state["nations"]}
        for f in scenario.factions:
            if f.number not in have:
                state["nations"].append(Nation(f.number, f.name, int(f.attrs.get("gold", gold))))
        for n in state["nations"]:
            if not n.name and scenario.faction(n.nation):
                n.name = scenario.faction(n.nation).name
            n.population = population_points(board, state, n.nation)
        state.tables["nations"].sort(key=lambda x: x.nation)
        state.tables["realms"].sort(key=lambda r: r.realm.casefold())
        normalise_units(state)
        return state

    def validate(self, scenario: Scenario) -> list:
        """Joining: up to eleven nations, and the game starts at eight (options)."""
        from engine.validation import ERROR, WARNING, Problem

        out = []
        if (why := too_many_nations(scenario)):
            out.append(Problem(ERROR, why, option="max_nations"))
        least = int(scenario.options.min_nations)
        if least and len(scenario.factions) < least:
            out.append(Problem(WARNING, f"{len(scenario.factions)} nations: the book starts the "
                               f"game once {least} have joined (option min_nations)",
                               option="min_nations"))
        return out

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        end = int(scenario.options.end_year)
        return bool(end) and int(scenario.options.start_year) + state.step > end

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        return order_parser.parse(text, source)

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        plan = make_plan(sheet, board_of(scenario.map), state, scenario, faction)
        out = [d.with_file(sheet.source) if sheet.source else d for d in plan.diagnostics]
        said = sheet.header.get("nation")
        if said:
            hits = match_nation(said, nation_names(scenario, state))
            if hits != [faction]:
                out.append(Diagnostic(ILLEGAL, f"these orders say they are for {said!r}",
                                      sheet.header.get("nation_line", 0), file=sheet.source,
                                      severity=Severity.WARNING))
        return out

    def step_name(self, step: int, scenario: Scenario) -> str:
        return f"{reports.year_of(scenario, step)} AD"  # as the map update is titled

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        return reports.chronicle(state, events, scenario)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        sheet = order_parser.parse(submission.text or "")
        names = {f.number: f.name for f in scenario.factions}
        step = None
        start = int(scenario.options.start_year)
        if "year" in sheet.header:
            step = int(sheet.header["year"]) - start + 1
        elif "turn" in sheet.header:
            step = int(sheet.header["turn"])
        said = sheet.header.get("nation")
        if said:
            hits = match_nation(said, names)
            if len(hits) == 1:
                return Match(hits[0], step, reason=f"header names {names[hits[0]]}")
        subject = submission.subject or ""
        hits = [n for n, name in names.items()
                if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", subject, re.I)]
        if len(hits) == 1:
            return Match(hits[0], step, reason=f"subject names {names[hits[0]]}")
        sender = (submission.sender or "").strip().casefold()
        if sender:
            for f in scenario.factions:
                if (f.email and f.email.casefold() == sender) or f.name.casefold() == sender \
                        or str(f.attrs.get("forum", "")).casefold() == sender:
                    return Match(f.number, step, reason=f"sender {submission.sender}")
        if said:
            hits = match_nation(said, names)
            which = ", ".join(names[n] for n in (hits or sorted(names)))
            why = (f"the header names {said!r}, which fits several nations ({which})" if hits
                   else f"the header names {said!r}, which is no nation of this game ({which})")
            return Match(None, step, reason=why + ("; unknown sender" if sender else ""))
        return Match(None, step, reason="no nation header and unknown sender")

    # ---- reports ---------------------------------------------------------------------------

    def report(self, state: State, events: EventLog, faction: int | None, scenario: Scenario,
               diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        return reports.build(state, events, faction, scenario, diagnostics)

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        return reports.render(report, fmt)

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        board = board_of(scenario.map)
        names = nation_names(scenario, state)
        nation = next((n for n in state["nations"] if n.nation == faction), None)
        gold = nation.gold if nation else 0
        pp = population_points(board, state, faction)
        used = points_used(state, faction, unit_table(scenario.catalogs))
        year = reports.year_of(scenario, state.step)
        lines = [f"Nation: {names.get(faction, faction)}", f"Year {year}",
                 f"Gold {gold}, PP {pp}, left {pp - used}", "# Your realms and units:"]
        for r in sorted(state["realms"], key=lambda r: r.realm.casefold()):
            if r.owner == faction:
                here = [reports._plural(u.kind, u.count) for u in state["units"]
                        if u.nation == faction and u.location == r.realm]
                lines.append(f"#   {r.realm}{' (castle)' if r.castle else ''}: {', '.join(here) or '-'}")
        for u in state["units"]:
            if u.nation == faction and board.is_sea(u.location):
                lines.append(f"#   {u.location}: {reports._plural(u.kind, u.count)}")
        lines += ["# Buy knight in <realm>", "# Move knight <realm> - <realm> [- <realm>]",
                  "# Convoy spearman <realm> to <realm> via <sea>", "# Declare war on <nation>", ""]
        return "\n".join(lines)

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        board = board_of(scenario.map)
        units = unit_table(scenario.catalogs)
        out = {}
        for n in state["nations"]:
            out[n.nation] = {
                "realms": float(sum(1 for r in state["realms"] if r.owner == n.nation)),
                "population": float(population_points(board, state, n.nation)),
                "gold": float(n.gold),
                "troops": float(sum(u.count for u in state["units"] if u.nation == n.nation)),
                "points_used": float(points_used(state, n.nation, units)),
            }
        return out

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        return OrderSheet(source="NMR")

    # ---- player viewer hooks (optional; engine.orderdraft) ------------------------------

    def order_keywords(self) -> list[str]:
        return ["Nation", "Gold", "Buy", "Move", "Convoy", "Declare", "war", "Make", "peace",
                "with", "on", "from", "to", "via", "in", "all", "knight", "knights",
                "spearman", "spearmen", "galley", "galleys", "castle", "Stay"]

    def move_order(self, state: State, faction: int, scenario: Scenario, path: list[int]) -> str:
        """`Move <n> <unit> A - B - C`, one line per kind of the nation's units at path[0]."""
        board = scenario.map.board()
        names = [board.label(c) for c in path]
        here = names[0].casefold()
        counts: dict[str, int] = {}
        for u in state["units"]:
            if u.nation == faction and u.location.casefold() == here and u.count > 0:
                counts[u.kind] = counts.get(u.kind, 0) + u.count
        route = " - ".join(names)
        return "\n".join(f"Move {reports._plural(kind, n)} {route}"
                         for kind, n in sorted(counts.items()) if kind != "castle")

    def order_paths(self, sheet: OrderSheet, state: State, faction: int,
                    scenario: Scenario) -> list[tuple[int, list[int]]]:
        """(line, regions) of every Move order whose realms are all on the map."""
        board = scenario.map.board()
        out = []
        for o in sheet.orders:
            route = getattr(o, "route", None)
            if type(o).__name__ == "Move" and route:
                cells = [board.parse(r) for r in route]
                if None not in cells:
                    out.append((o.line, cells))
        return out

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        from engine.rulesets.artnes.demo import demo

        return demo(self)


RULESET = Artnes()
