"""Continental Conquest 5.0 (June 1995): clans rebuilding a continent after the Plague.

Status: registered and playable for the clan's own turn. What exists: the book's tables as
catalogs (catalog.py, resources/cc/), the options for its choices and unclear passages
(options.py), the state schema (state.py), the maps (maps/cc/), the game set-up (setup.py),
the orders sheet read into typed orders (orders.py, orders_sheet.py), its template and
checks (orders_template.py, check.py), the player turn as a phase table (turn/), the end of
a game turn (turn/game_turn.py, turn/standing.py), the clan's status report (report.py,
report_text.py, report_html.py), what its bundle holds (view.py), combat (combat/, called by
turn/battles.py, turn/movement.py and turn/strikes.py: BOMB and RAZE), the Plague,
espionage, the GM's steps (close, drop, standby: engine/db/gm_steps.py), the house tables
for random events and loot (turn/random_events.py, turn/loot.py) and the demo (demo.py).
docs/continental.md lists what remains; docs/cc-checklist.md tracks every rule of the book.
"""

from __future__ import annotations

from typing import Any

from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet
from engine.ruleset import Match, Phase, Ruleset, StartField, Submission, TurnContext, TurnModel
from engine.rulesets.cc.catalog import SPECS, default_catalogs
from engine.rulesets.cc.options import OPTIONS
from engine.rulesets.cc.state import SCHEMA
from engine.rulesets.cc.turn import events as _events  # noqa: F401  (declares the cc.* event kinds)
from engine.scenario import Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec

NOT_BUILT = ("Continental Conquest: {what} is not built yet (a game starts from a scenario "
             "file such as maps/cc/north-america-8.toml; docs/continental.md says what remains)")


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
    # the clan's turn, its status report, reading/checking sheets and the demo work (see
    # docs/continental.md for what each turn phase leaves out)
    capabilities = frozenset({"parse", "turn", "play", "reports", "demo"})
    report_formats = ("text", "html", "json")

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
        """The player turn (turn/__init__.py): income to maintenance, for the step's clan."""
        from engine.rulesets.cc.turn import PLAYER_TURN

        return list(PLAYER_TURN)

    def run_step(self, ctx: TurnContext) -> None:
        from engine.rulesets.cc.turn import run_clan_turns

        run_clan_turns(ctx)

    def cycle_phases(self) -> list[Phase]:
        from engine.rulesets.cc.turn import CYCLE_PHASES

        return list(CYCLE_PHASES)

    def cycle_factions(self, state: State, scenario: Scenario) -> list[int]:
        """J6: a game turn waits for every clan not dropped."""
        dropped = {c.number for c in state["clans"] if c.dropped}
        return [f.number for f in scenario.factions if f.number not in dropped]

    viewer_unit_tables = ("convoys",)

    def unit_rows(self, state: State, scenario: Scenario) -> list[tuple]:
        """The viewer's units (engine/viewer_model.turn_units): each convoy as (cell, owner,
        kind, vehicles, number, label), `land convoy` (the map marks it Land); a spotted ghost
        image (view.py) has no vehicles or number: one, unnamed."""
        vehicles: dict[int, int] = {}
        for v in state["vehicles"]:
            vehicles[v.convoy] = vehicles.get(v.convoy, 0) + v.count
        out = []
        for c in sorted(state["convoys"], key=lambda c: (c.owner, c.number, c.id)):
            label = f"#{c.number} {c.name}".strip() if c.number else "spotted"
            out.append((c.cell, c.owner, f"{c.type} convoy", vehicles.get(c.id, 0) or 1, c.number, label))
        return out

    def gm_closes_cycle(self, scenario: Scenario) -> bool:
        """X2: option close_game_turn = gm: the GM ends each game turn (`realmsmith close`)."""
        return scenario.options["close_game_turn"] == "gm"

    def cycle_days(self, scenario: Scenario) -> float:
        """X230: with close_game_turn = due a game turn ends at the latest days_per_turn days
        after it began (the book's two weeks): the game is not delayed for late clans."""
        return float(scenario.options["days_per_turn"]) if scenario.options["close_game_turn"] == "due" else 0.0

    def drop_faction(self, ctx: TurnContext, faction: int, reason: str) -> None:
        from engine.rulesets.cc.turn.game_turn import drop_clan

        drop_clan(ctx, faction, reason)

    def standby(self, ctx: TurnContext, faction: int, name: str, password: str) -> None:
        from engine.rulesets.cc.turn.game_turn import standby_player

        standby_player(ctx, faction, name, password)

    def step_report_factions(self, state: State, events: EventLog, faction: int,
                             scenario: Scenario) -> set[int]:
        """The clan whose turn ran; every clan when the game ended in this step (the book's
        end-of-game report for each player)."""
        if self.is_finished(state, scenario):
            return {f.number for f in scenario.factions}
        return {faction}

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        return bool(state["world"] and state["world"][0].finished)

    def start_fields(self) -> tuple[StartField, ...]:
        """Each clan starts in one city, named by its hex (Faction.attrs["city"] = "0825")."""
        from engine.rulesets.cc.setup import START_KEY

        return (StartField(START_KEY, "cell", "Start city", notation="ccrr",
                           help="the hex of the clan's start city: never a major city"),)

    def initial_state(self, scenario: Scenario) -> State:
        from engine.rulesets.cc.setup import initial_state

        return initial_state(scenario)

    def map_profile(self) -> Any:
        """Generated maps in the book's thirteen terrains, cities and sea lanes (engine.mapgen; imported only when a map is made)"""
        from engine.rulesets.cc.mapstyle import PROFILE

        return PROFILE

    def validate(self, scenario: Scenario) -> list:
        from engine.rulesets.cc.catalog import check_catalogs
        from engine.rulesets.cc.setup import setup_problems
        from engine.validation import ERROR, WARNING, Problem

        out = [Problem(ERROR if sev == "error" else WARNING, msg, who)
               for sev, msg, who in setup_problems(scenario)]
        out += [Problem(ERROR, p) for p in check_catalogs(scenario.catalogs)]
        from engine.rulesets.cc.turn.radio import news_problems

        out += [Problem(WARNING, p) for p in news_problems(scenario.meta.get("gm_news"))]
        return out

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        from engine.rulesets.cc.orders_sheet import parse

        return parse(text, source)

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        from engine.rulesets.cc.check import check

        return check(sheet, state, faction, scenario)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        """Clan and account number (the password) from the sheet's header; the turn stays in
        the sheet's header (the sequential runner's step is not the game turn)."""
        from engine.rulesets.cc.orders_sheet import parse

        h = parse(submission.text or "").header
        clan, account, game = h.get("clan"), h.get("account"), h.get("game")
        if clan is None:
            return Match(None, None, game, account, "the sheet has no CLAN line")
        if scenario.faction(clan) is None:
            return Match(None, None, game, account, f"the sheet names clan {clan}, which is not in this game")
        return Match(clan, None, game, account, f"clan {clan} from the sheet's header")

    # ---- the sequential turn model's hooks (engine/db/sequence.py) --------------------

    def sequence_key(self, state: State, faction: int, scenario: Scenario) -> Any:
        """X1: the clan's hidden sequence number (lowest first), or arrival order."""
        if scenario.options["turn_order"] != "sequence":
            return None
        return next((c.sequence for c in state["clans"] if c.number == faction), None)

    def orders_turn(self, sheet: OrderSheet) -> int | None:
        """The TURN line of the sheet: a clan's turn N is its turn of game turn N."""
        turn = sheet.header.get("turn")
        return int(turn) if isinstance(turn, int) else None

    def turn_interval_days(self, scenario: Scenario) -> float:
        """X4: the least days between two turns of one clan (the book: a week)."""
        return float(scenario.options["min_days_between_turns"])

    def faction_step_name(self, state: State, faction: int, step: int, scenario: Scenario) -> str:
        """The clan's own turn (its TURN line), not the game's step count: a clan of a
        sequential game knows its turn 6, not step 40."""
        from engine.rulesets.cc.sheet_stats import clan_of

        clan = clan_of(state, faction)
        if clan is not None:
            return f"Turn {clan.turns_run}"
        world = state["world"][0] if state["world"] else None   # the GM: the game's own turn
        return f"Game turn {world.game_turn}, step {step}" if world else self.step_name(step, scenario)

    def step_name(self, step: int, scenario: Scenario) -> str:
        """A step is one clan's turn; the game's turns are counted apart (faction_step_name)."""
        return f"Step {step}"

    def next_orders_turn(self, state: State, faction: int, scenario: Scenario) -> int:
        from engine.rulesets.cc.sheet_stats import clan_of, next_turn

        clan = clan_of(state, faction)
        return state.step + 1 if clan is None else next_turn(clan)

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.cc.orders_template import orders_template

        return orders_template(state, faction, scenario)

    def order_keywords(self) -> list[str]:
        from engine.rulesets.cc.catalog import default_catalogs
        from engine.rulesets.cc.orders import DIRECTIONS

        cats = default_catalogs()
        words = {r["keyword"] for r in cats["convoy_orders"] if r["keyword"] != "MOVE"}
        words |= {r["keyword"] for r in cats["clan_orders"]}
        return sorted(words | set(DIRECTIONS) | {"ALL", "ON", "OFF", "SEE", "BELOW", "EXPERTS"})

    # ---- the player viewer's orders editor (engine/orderdraft.py, drafting.py) -------------

    def movers(self, state: State, faction: int, scenario: Scenario, cell: int) -> list:
        from engine.rulesets.cc.drafting import movers

        return movers(state, faction, scenario, cell)

    def move_order(self, state: State, faction: int, scenario: Scenario, path: list[int],
                   unit: int | None = None) -> str:
        from engine.rulesets.cc.drafting import move_order

        return move_order(state, faction, scenario, path, unit)

    def move_range(self, state: State, faction: int, scenario: Scenario, cell: int,
                   unit: int | None = None) -> tuple:
        from engine.rulesets.cc.drafting import move_range

        return move_range(state, faction, scenario, cell, unit)

    def reach(self, state: State, faction: int, scenario: Scenario, cell: int,
              unit: int | None = None, orders: str = "") -> dict[int, float]:
        from engine.rulesets.cc.drafting import reach

        return reach(state, faction, scenario, cell, unit, orders)

    def insert_order(self, text: str, line: str, unit: int | None = None) -> tuple[str, int]:
        from engine.rulesets.cc.drafting import insert_order

        return insert_order(text, line, unit)

    def order_paths(self, sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list:
        from engine.rulesets.cc.drafting import order_paths

        return order_paths(sheet, state, faction, scenario)

    def orders_filename(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.cc.drafting import orders_filename

        return orders_filename(state, faction, scenario)

    def orders_subject(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.cc.drafting import orders_subject

        return orders_subject(state, faction, scenario)

    order_comment = r";.*$"   # the editor colours `;` comments, not `#1` (a convoy)
    order_quotes = '"'        # "Robin's Hood" is one name

    def report(self, state: State, events: EventLog, faction: int | None,
               scenario: Scenario, diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        from engine.rulesets.cc.report import build_report

        return build_report(state, events, faction, scenario, diagnostics or [])

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        from engine.rulesets.cc.report import render

        return render(report, fmt)

    def visible_state(self, state: State, faction: int, scenario: Scenario,
                      events: EventLog | None = None) -> State:
        """What the clan's bundle holds: what its report tells (view.py); never another
        clan's account number, sequence number or stockpiles."""
        from engine.rulesets.cc.view import visible_state

        return visible_state(state, faction, scenario)

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        from engine.rulesets.cc.report_words import chronicle

        return chronicle(events, scenario)

    def demo(self) -> tuple[Scenario, dict[int, dict[int, Any]]]:
        """Eight clans on the North America map, eight months of scripted orders (demo.py)."""
        from engine.rulesets.cc.demo import demo

        return demo()


RULESET = ContinentalConquest()
