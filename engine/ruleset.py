"""The ruleset interface. The engine core never imports a ruleset; it asks the registry.

The core knows only *steps*: state N plus the submissions matched to step N give state
N+1, events and reports. A ruleset's turn model says what makes a step:

- simultaneous (King of Kings, ARTNES, Atlantis): all factions' orders for turn N;
- sequential (Continental Conquest): one faction's orders, run when they arrive;
  the step records whose turn it was;
- realtime (Conquest of Island): the posts imported in one batch, applied in
  timestamp order; action points come from the post times, not from the step count.

Each ruleset declares its turn as an ordered table of phases; the runner walks it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engine.dice import Dice
from engine.events import Event, EventLog
from engine.map import GameMap
from engine.orders import Diagnostic, Order, OrderSheet
from engine.scenario import Faction, Scenario
from engine.state import State
from engine.tables import Catalog, Options, OptionSpec, TableSpec

if TYPE_CHECKING:  # the generator imports numpy: only when a map is made
    from engine.mapgen.profile import MapProfile


class TurnModel(StrEnum):
    SIMULTANEOUS = "simultaneous"
    SEQUENTIAL = "sequential"
    REALTIME = "realtime"


@dataclass
class Submission:
    """Orders text as received, before and after matching to a faction and step."""

    text: str
    source_kind: str = "paste"   # file | email | mbox | paste | post
    source_name: str = ""        # file path, message id, "pasted"
    sender: str = ""             # e-mail address or forum author
    subject: str = ""
    received_at: str = ""        # ISO 8601 UTC
    encoding: str = "utf-8"
    faction: int | None = None
    step: int | None = None
    matched_by: str = ""         # how faction/step were found, for the GM to see
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Match:
    faction: int | None = None
    step: int | None = None
    game: str | None = None
    password: str | None = None
    reason: str = ""
    # a sender who is no faction but is known to the game (a forum GM's own posts): the
    # words the GM sees instead of "unmatched" ("GM post"); such a submission is no error
    role: str = ""


@dataclass
class TurnContext:
    """What the phases of one step read and write."""

    ruleset: Ruleset
    scenario: Scenario
    state: State                       # the new state, a copy of the previous one
    previous: State                    # read-only view of the state before the step
    orders: dict[int, OrderSheet]      # faction -> checked sheet (NMR orders filled in)
    dice: Dice
    events: EventLog = field(default_factory=EventLog)
    submissions: list[Submission] = field(default_factory=list)  # realtime: posts in time order
    scratch: dict[str, Any] = field(default_factory=dict)        # phase-to-phase working data

    @property
    def options(self) -> Options:
        return self.scenario.options

    @property
    def catalogs(self) -> dict[str, Catalog]:
        return self.scenario.catalogs

    @property
    def map(self) -> GameMap:
        return self.scenario.map

    def emit(self, event: Event) -> Event:
        return self.events.emit(event)


@dataclass(frozen=True)
class Phase:
    name: str
    run: Callable[[TurnContext], None]
    help: str = ""


@dataclass(frozen=True)
class StartField:
    """Where a ruleset reads a faction's start from, so the designer can place it and
    validation can check it. `form`:
    - "cells":  Faction.attrs[key] is a list of cell labels;
    - "cell":   Faction.attrs[key] is one cell label;
    - "areas":  Faction.attrs[key] is a list of area names (region maps);
    - "sites":  map sites of kind "start" with attrs {key: faction number};
    - "assets": Faction.attrs[key] lists starting units: dicts {"cell", item_key, "count"}
      (shape "dict") or [kind, where, count] lists (shape "list"; where is an area name
      on region maps), the kinds being rows of `catalog` keyed by `catalog_key`.
    `notation` is the grid label notation written ('' = the grid's own); `land` says a
    start must not stand on a sea/water terrain."""

    key: str
    form: str = "cells"
    label: str = "Start"
    notation: str = ""
    land: bool = True
    catalog: str = ""
    catalog_key: str = ""
    item_key: str = "troop"
    shape: str = "dict"
    help: str = ""


class Ruleset(ABC):
    """One game's rules. Subclass, fill in the declarations, register as an entry point."""

    name: str = ""                      # short id: 'kok'
    title: str = ""                     # 'King of Kings 4.10'
    turn_model: TurnModel = TurnModel.SIMULTANEOUS
    map_kinds: tuple[str, ...] = ("square",)
    state_schema: dict[str, type] = {}  # table name -> record dataclass
    # What the ruleset can do yet: "parse" (read and check orders), "play" (run turns),
    # "reports", "demo". A ruleset still being built leaves out what it lacks and raises a
    # clear NotImplementedError there; code looping over every ruleset (new-game dialog,
    # installer self-test) skips it for what it cannot do instead of failing.
    capabilities: frozenset[str] = frozenset({"parse", "turn", "play", "reports", "demo"})

    # ---- declarations ----------------------------------------------------------

    @abstractmethod
    def catalog_specs(self) -> dict[str, TableSpec]: ...

    @abstractmethod
    def default_catalogs(self) -> dict[str, Catalog]: ...

    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    def default_options(self) -> Options:
        return Options(self.option_specs())

    @abstractmethod
    def phases(self) -> list[Phase]:
        """The ordered phases of one step."""

    # ---- game life ---------------------------------------------------------------

    @abstractmethod
    def initial_state(self, scenario: Scenario) -> State:
        """State of step 0 from the scenario (its `initial` if given)."""

    def new_state(self, step: int = 0) -> State:
        return State(self.state_schema, step)

    @abstractmethod
    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        """Read an orders text leniently; never raises."""

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        """Illegal/ambiguous findings against the current state; must not change it.

        Binding: the turn does not carry out an order with an ERROR finding on its line
        (or the part of it the finding names), see engine/orders/screen.py; so a finding
        is an error only when the turn could not carry the order out either."""
        return []

    def without_parts(self, order: Order, parts: frozenset[int]) -> Order | None:
        """`order` without the parts (1-based) the checker refused, None if nothing is
        left. Only rulesets with multi-part orders (a PLA triple) need more than this."""
        return None

    def checker(self, state: State, scenario: Scenario) -> Callable[[OrderSheet, int], list[Diagnostic]]:
        """`check` bound to one state, for checking many sheets against it: a ruleset that
        indexes the state (by cell, by owner) builds that index once here, not once a
        sheet (1,000 orders files on a 5,000-army game). The state must not change while
        the checker is in use."""
        return lambda sheet, faction: self.check(sheet, state, faction, scenario)

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        """Orders for a faction that sent none (NMR). Default: none."""
        return OrderSheet(source="NMR")

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        """Faction and step from the text's header, subject, file name or sender."""
        return Match()

    def current_password(self, state: State, faction: int, scenario: Scenario) -> str | None:
        """The password a faction's orders must give now, if the game changes it (Atlantis:
        PASSWORD orders); "" = none, any header counts. None (the default): the scenario's.
        The intake compares `Match.password` with this, judged by the latest state."""
        return None

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        return False

    # ---- factions coming and going, GM interventions (engine/interventions) ----------

    def split_sets(self, submission: Submission) -> list[Submission]:
        """One submission per set of orders in a text (Atlantis: each `#atlantis N` set of
        a mail is its faction's); the default keeps the text whole."""
        return [submission]

    def intervene(self, state: State, scenario: Scenario, intervention: Any) -> Any:
        """Apply a GM intervention (engine.interventions.Intervention) to `state` in place
        and return an `Applied`; raise InterventionRefused with the reason. The default
        knows the generic kinds: address and password."""
        from engine.interventions import generic

        return generic(scenario, intervention)

    def new_factions(self, state: State, scenario: Scenario) -> list[Faction]:
        """Factions the step created that the scenario does not list yet (Atlantis:
        RESTART); the runner adds them, so they are matched and get reports."""
        return []

    def report_factions(self, state: State, scenario: Scenario) -> set[int] | None:
        """Who gets a report from a simultaneous step; None (default): every faction.
        Atlantis: not those out of the game before this step (they had their last)."""
        return None

    def run_step(self, ctx: TurnContext) -> None:
        for phase in self.phases():
            ctx.events.phase = phase.name
            phase.run(ctx)
        ctx.events.phase = ""

    # ---- the sequential turn model (engine/db/sequence.py) --------------------------

    def sequence_key(self, state: State, faction: int, scenario: Scenario) -> Any:
        """Where a faction's waiting turn goes among those of the same game turn (lowest
        first; CC: the clan's hidden sequence number). None: arrival order."""
        return None

    def orders_turn(self, sheet: OrderSheet) -> int | None:
        """Which of its faction's own turns (1, 2, ...) a sheet is for, if it says so.
        Sheets naming different turns never replace each other (catch-up turns)."""
        return None

    def turn_interval_days(self, scenario: Scenario) -> float:
        """The least time between two turns of one faction (CC: a week); 0 = none."""
        return 0.0

    def cycle_factions(self, state: State, scenario: Scenario) -> list[int]:
        """The factions a game turn waits for (CC: not the dropped positions; Atlantis:
        not those out of the game). A simultaneous turn gives NMR orders only to these, and
        `status` lists only these."""
        return [f.number for f in scenario.factions]

    # the viewer: state tables that hold units listed by a `unit_rows` hook, not regions
    # (engine/viewer_model.turn_regions)
    viewer_unit_tables: tuple[str, ...] = ()

    def gm_closes_cycle(self, scenario: Scenario) -> bool:
        """Sequential: the GM ends each game turn (engine/db/gm_steps.py), not the last
        faction's turn of it."""
        return False

    def cycle_days(self, scenario: Scenario) -> float:
        """Sequential: the days a game turn lasts at most; when they have passed, the next
        run ends it without the factions that have not had their turn (engine/db/sequence.py
        History.overdue). 0 = a game turn lasts until every faction has had its turn."""
        return 0.0

    def drop_faction(self, ctx: TurnContext, faction: int, reason: str) -> None:
        """The GM drops a faction's position (a GM step of its own): mark it in ctx.state."""
        raise NotImplementedError(f"{self.name}: dropping a faction is not supported")

    def standby(self, ctx: TurnContext, faction: int, name: str, password: str) -> None:
        """A standby player takes over the faction's position: ctx.state's copy of its
        name and password (the scenario's faction is updated by the service)."""
        raise NotImplementedError(f"{self.name}: standby players are not supported")

    def cycle_phases(self) -> list[Phase]:
        """The end of a game turn, run (in this order, in the same step) after the turn
        that completed it: every faction has had that many turns."""
        return []

    def step_report_factions(self, state: State, events: EventLog, faction: int,
                             scenario: Scenario) -> set[int]:
        """Who gets a report from a sequential step: the faction whose turn it was; others
        keep their last report (CC's radio news goes into their next one)."""
        return {faction}

    # ---- reports ----------------------------------------------------------------

    @abstractmethod
    def report(self, state: State, events: EventLog, faction: int | None,
               scenario: Scenario, diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        """The report of one faction (None = the GM's full report) as plain data."""

    @abstractmethod
    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        """A report rendered as 'text' (the game's classic format), 'html' or 'json'."""

    def render_all(self, report: dict[str, Any], formats: tuple[str, ...]) -> list[tuple[str, str]]:
        """(format, text) of one report in each format; a ruleset whose formats share work
        (laying the report out once for text and HTML) does it once here."""
        return [(fmt, self.render(report, fmt)) for fmt in formats]

    report_formats: tuple[str, ...] = ("text", "html", "json")

    def formats(self, scenario: Scenario) -> tuple[str, ...]:
        """The report formats this game writes: report_formats, or fewer where the ruleset
        lets the GM choose (Atlantis: option `report_formats`)."""
        return self.report_formats

    # Everyone sees everything (e.g. King of Kings, section 8): one report is built and
    # rendered per format and every faction is given that one. Identical by construction,
    # and a 20-player turn renders 1 report instead of 21.
    public_reports: bool = False
    # The GM's report of the whole world made when asked (`realmsmith report`, `export
    # --gm`, the console) from the turn's stored state, events and findings, not at every
    # run: a 1,000-faction Atlantis world's is 42 MB in three formats, a third of the run.
    gm_report_on_demand: bool = False
    # Each faction's orders template made by the run with its reports and stored with
    # them (journal.TEMPLATE), so that `export` need not load the state and lay out every
    # template again (0.5 s at 1,000 Atlantis factions); export builds any not stored.
    templates_with_reports: bool = False
    # Scenario meta keys a player's bundle may carry besides engine.bundle.PUBLIC_META
    # (an allow-list: everything else in the meta is the GM's).
    public_meta: tuple[str, ...] = ()

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        return ""

    def report_template(self, state: State, faction: int, scenario: Scenario,
                        report: dict[str, Any]) -> str:
        """The orders template the run stores (templates_with_reports): orders_template's
        text, which a ruleset may make from the faction's report data just built (`report`,
        before any cleaning) instead of from the state again."""
        return self.orders_template(state, faction, scenario)

    def check_posts(self, submissions: list[Submission], state: State,
                    scenario: Scenario) -> list[list[Diagnostic]] | None:
        """Real time: the findings of each post of a batch (same order), judged by the
        state the earlier posts of the batch leave, as the step will apply them. None
        (the default): each post is checked alone against `state`."""
        return None

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        """The step's events as the report tells them (engine.chronicle.Chronicle), for the
        GM console's and the viewer's lists. `state` is the state after the step. Default:
        each event's `describe` with cells in the map's notation."""
        from engine.chronicle import generic

        board = scenario.map.board()
        return generic(events, board.label)

    def report_subject(self, scenario: Scenario, step: int) -> str:
        """The subject of the report mail of `step` (engine.outbox). A reply to it is
        orders for step + 1: engine.intake.match takes the turn from this subject (after
        Re:, Fwd: and the like) when `identify` finds none; a ruleset whose identify reads
        subjects must read its own report subject that way (tests/test_mail_round_trip.py
        checks every ruleset)."""
        from engine.outbox import report_subject

        return report_subject(scenario.name, step)

    def step_name(self, step: int, scenario: Scenario) -> str:
        """The name players give the position after `step` (a map's title, the console's
        and the viewer's turn labels): 'Turn 3' by default; ARTNES players count years."""
        return f"Turn {step}"

    def faction_step_name(self, state: State, faction: int, step: int, scenario: Scenario) -> str:
        """The name a faction gives the position after `step`, `state` being its view of it
        (the viewer's turn picker): `step_name` by default. In a sequential game a faction
        counts its own turns (CC: the clan's turn 6 may be step 40 of the game)."""
        return self.step_name(step, scenario)

    def next_orders_turn(self, state: State, faction: int, scenario: Scenario) -> int:
        """The turn a faction's next orders are for, as it counts turns (the viewer's
        caption): the next step by default; CC: the clan's next own turn."""
        return state.step + 1

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        """Per faction measures for charts: {faction: {'provinces': .., 'troops': ..}}."""
        return {}

    # ---- hidden information and map views (optional hooks) ----------------------------

    def visible_cells(self, state: State, faction: int, scenario: Scenario) -> set[int] | None:
        """Cells the faction may see (report bundles prune the map to them); None = all."""
        return None

    def visible_state(self, state: State, faction: int, scenario: Scenario,
                      events: EventLog | None = None) -> State:
        """The part of the state the faction may see (for its report bundle); default all.
        `events`: the step's whole log (the GM's), for what the faction saw only during the
        month (a unit that fought beside it); None when no log is at hand."""
        return state

    def visible_factions(self, state: State, faction: int, scenario: Scenario,
                         events: EventLog | None = None) -> set[int] | None:
        """The factions whose number and name the faction's bundle lists (its report names
        no others); None = every faction (the default: a game whose factions are public)."""
        return None

    def map_terrains(self) -> list[str]:
        """The terrain names this ruleset's maps are painted with, in its own order (the map
        editor lists them first and alone). Default: the ids (else names) of the `terrain`
        or `terrains` catalog; none when there is no such catalog."""
        try:
            cats = self.default_catalogs()
        except Exception:  # noqa: BLE001 (a ruleset without catalogs has no terrains to offer)
            return []
        cat = cats.get("terrain") or cats.get("terrains")
        if cat is None:
            return []
        out = []
        for row in cat:
            v = row.get("id") or row.get("name")
            if isinstance(v, str) and v and v not in out:
                out.append(v)
        return out

    def cell_owners(self, state: State, scenario: Scenario) -> dict[int, int]:
        """cell -> faction holding it, for colouring maps. Default: records of any state
        table with an int `owner` (0 = nobody, left out) and either an int `cell` or a
        text field naming a map area (region maps: every cell of the area)."""
        out: dict[int, int] = {}
        areas = scenario.map.areas
        for name in sorted(state.tables):
            for r in state.tables[name]:
                owner = getattr(r, "owner", None)
                if not isinstance(owner, int) or isinstance(owner, bool) or not owner:
                    continue
                cell = getattr(r, "cell", None)
                if isinstance(cell, int) and not isinstance(cell, bool):
                    out[cell] = owner
                    continue
                area = next((v for v in getattr(r, "__dict__", {}).values()
                             if isinstance(v, str) and v in areas), None)
                if area is not None:
                    for c in sorted(areas[area].cells):
                        out[c] = owner
        return out

    # ---- scenario design (optional hooks) -----------------------------------------

    def start_fields(self) -> tuple[StartField, ...]:
        """Where starts are read from (first position field is what the designer places).
        Default: map sites of kind "start" with attrs {"faction": n}."""
        return (StartField("faction", "sites"),)

    def state_references(self) -> dict[str, dict[str, str]]:
        """What the state's fields refer to, {table: {field: target}}, so a new game is
        checked before its first turn (engine/validation.py `state_problems`). Targets:
        "faction" (a faction's number, 0 = nobody), "area" (a map area's name) or
        "<catalog>.<column>" (a row of a catalog). Cell fields (CELL_FIELDS) are always
        checked against the map, and every int against the database's 64-bit range."""
        return {}

    def validate(self, scenario: Scenario) -> list[str]:
        """Game-specific problems of a scenario before the game starts (plain sentences)."""
        return []

    def map_profile(self) -> MapProfile | None:
        """How the map generator (engine.mapgen) dresses a generated map for this ruleset:
        its book's terrain names, cities, last touches. None: the generic terrains."""
        return None

    # ---- demo ----------------------------------------------------------------------

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        """A demo scenario and scripted orders {step: {faction: text}}."""
        raise NotImplementedError(f"{self.name} has no demo yet")

    def faction_for(self, scenario: Scenario, number: int) -> Faction | None:
        return scenario.faction(number)


def step_title(ruleset: Ruleset, step: int, scenario: Scenario) -> str:
    """`ruleset.step_name`, ' (the start)' after step 0; 'Turn N' if the hook fails (a
    caption is not worth a failed export or a blank console)."""
    try:
        name = str(ruleset.step_name(step, scenario))
    except Exception:  # noqa: BLE001
        name = f"Turn {step}"
    return name + (" (the start)" if step == 0 else "")


def faction_step_title(ruleset: Ruleset, state: State, faction: int, step: int,
                       scenario: Scenario) -> str:
    """`ruleset.faction_step_name` as `step_title` words it; `step_title` if the hook fails."""
    try:
        name = str(ruleset.faction_step_name(state, faction, step, scenario))
    except Exception:  # noqa: BLE001
        return step_title(ruleset, step, scenario)
    return name + (" (the start)" if step == 0 else "")


def next_orders_turn(ruleset: Ruleset, state: State, faction: int, scenario: Scenario) -> int:
    try:
        return int(ruleset.next_orders_turn(state, faction, scenario))
    except Exception:  # noqa: BLE001
        return state.step + 1
