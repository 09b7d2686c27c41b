"""Conquest of Island: a real-time forum game adjudicated from timestamped posts.

A step is one import of forum posts; the posts are applied in (time, post id) order and
each action costs action points that accrue hourly by the post timestamps. See docs/coi.md.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet
from engine.palette import FACTION_COLOURS
from engine.ruleset import Match, Phase, Ruleset, Submission, TurnModel
from engine.rulesets.coi import report as _report
from engine.rulesets.coi.actions import read_post
from engine.rulesets.coi.catalog import SPECS, Rules, default_catalogs
from engine.rulesets.coi.clock import game_zone, normalise, zone_of
from engine.rulesets.coi.posts import apply_posts
from engine.rulesets.coi.state import SCHEMA, Game, Hex, Player, Stack
from engine.scenario import Faction, Scenario
from engine.state import State
from engine.tables import Catalog, OptionSpec, TableSpec

ROOT = Path(__file__).resolve().parents[3]
DEMO_MAP = "maps/coi/island.rsmap"
DEMO_THREAD = "maps/coi/demo-thread.txt"


class ConquestOfIsland(Ruleset):
    name = "coi"
    title = "Conquest of Island"
    turn_model = TurnModel.REALTIME
    map_kinds = ("hex",)
    cell_notation = "col,row"  # how posts name hexes ("4,5"); the viewer labels cells so
    state_schema = SCHEMA
    report_formats = ("text", "bbcode", "html", "json")

    # ---- declarations ---------------------------------------------------------------

    def catalog_specs(self) -> dict[str, TableSpec]:
        return dict(SPECS)

    def default_catalogs(self) -> dict[str, Catalog]:
        return default_catalogs()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec("ap_start", "int", 10, "AP at the start", min=0, max=100),
            OptionSpec("ap_cap", "int", 30, "Most AP a player can hold", min=1, max=1000),
            OptionSpec("ap_per_hour", "int", 1, "AP gained each full hour", min=0, max=100),
            OptionSpec("split_ap", "int", 6, "AP of a player created by a split", min=0, max=100),
            OptionSpec("start_food", "int", 35, "Starting food", min=0),
            OptionSpec("start_wood", "int", 35, "Starting wood", min=0),
            OptionSpec("start_iron", "int", 35, "Starting iron", min=0),
            OptionSpec("start_barques", "int", 1, "Starting barques", min=0),
            OptionSpec("start_transports", "int", 3, "Starting transports", min=0),
            OptionSpec("start_swordsmen", "int", 3, "Starting swordsmen (aboard)", min=0),
            OptionSpec("forum_timezone", "str", "UTC", "Forum time zone",
                       "the forum's clock: AP come at its full hours, and post times written "
                       "without a zone are read on it. UTC, an offset such as +05:30, or a "
                       "name such as Europe/Berlin"),
        )

    def forum_zone(self, scenario: Scenario):
        """The forum's clock (option forum_timezone) for reading thread exports."""
        return game_zone(scenario.options)

    def validate(self, scenario: Scenario) -> list:
        from engine.validation import ERROR, Problem

        try:
            zone_of(str(scenario.options["forum_timezone"]))
        except ValueError as e:
            return [Problem(ERROR, f"forum time zone: {e}", option="forum_timezone")]
        return []

    def state_references(self) -> dict[str, dict[str, str]]:
        return {"hexes": {"owner": "faction"},
                "units": {"owner": "faction", "unit": "units.id"},
                "alliances": {"player": "faction", "ally": "faction"},
                "offers": {"player": "faction"}}

    def start_fields(self) -> tuple:
        """One port hex per player ("col,row"); the fleet anchors on a shallow hex beside it."""
        from engine.ruleset import StartField

        return (StartField("port", "cell", "Port", notation="col,row"),)

    def terrain_letters(self) -> dict[str, str]:
        return Rules.from_catalogs(default_catalogs()).terrain_of_letter()

    def phases(self) -> list[Phase]:
        return [Phase("posts", apply_posts, "apply the imported posts in time order")]

    # ---- game life -----------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> State:
        if scenario.map.kind not in self.map_kinds:  # e.g. `realmsmith new --map` with a square map
            raise ValueError(f"Conquest of Island is played on a hex map; this map is {scenario.map.kind}")
        if scenario.initial is not None:
            state = scenario.initial.copy()
        else:
            state = self._from_factions(scenario)
        if not state["game"]:
            state["game"].append(Game())
        game = state.one("game")
        game.gm = game.gm or str(scenario.meta.get("gm", ""))
        game.started_at = game.started_at or (normalise(str(scenario.meta.get("started_at", "")),
                                                        game_zone(scenario.options)) or "")
        if game.started_at:
            for p in state["players"]:
                p.ap_at = p.ap_at or game.started_at
                p.joined_at = p.joined_at or game.started_at
        for p in state["players"]:
            p.country = p.country or p.number
        return state

    def _from_factions(self, scenario: Scenario) -> State:
        state = self.new_state(0)
        opts = scenario.options
        grid = scenario.map.grid
        for f in sorted(scenario.factions, key=lambda f: f.number):
            state["players"].append(Player(f.number, str(f.attrs.get("forum") or f.name),
                                           ap=opts["ap_start"], food=opts["start_food"],
                                           wood=opts["start_wood"], iron=opts["start_iron"],
                                           country=f.number))
            port = grid.parse(str(f.attrs.get("port", "")), "col,row")
            if port is None:
                continue
            state["hexes"].append(Hex(port, f.number, "port"))
            anchor = grid.parse(str(f.attrs.get("anchor", "")), "col,row")
            if anchor is None:
                anchor = next((n for n in grid.neighbours(port)
                               if scenario.map.terrain_at(n) == "shallow"), None)
            if anchor is None:
                continue
            for uid, opt in (("barque", "start_barques"), ("transport", "start_transports"),
                             ("swordsman", "start_swordsmen")):
                if opts[opt]:
                    state["units"].append(Stack(anchor, f.number, uid, opts[opt]))
        return state

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        return read_post(text, _default_unit_names(), source)

    def check(self, sheet: OrderSheet, state: State, faction: int,
              scenario: Scenario) -> list[Diagnostic]:
        """Try the actions in order on a copy of the state (AP as last recorded)."""
        from engine.rulesets.coi.checker import check_sheet

        return check_sheet(sheet, state, faction, scenario)

    def check_posts(self, submissions: list[Submission], state: State,
                    scenario: Scenario) -> list[list[Diagnostic]]:
        from engine.rulesets.coi.checker import check_posts

        return check_posts(submissions, state, scenario)

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        who = (submission.sender or "").strip().casefold()
        for f in scenario.factions:
            if who and who in (str(f.attrs.get("forum", "")).casefold(), f.name.casefold()):
                return Match(faction=f.number, reason=f"forum author {submission.sender}")
        gm = str(scenario.meta.get("gm", "")).strip().casefold()
        if who and who == gm:  # the GM's posts go to the rules too (starting, ending the game)
            return Match(role="GM post", reason=f"the GM's post ({submission.sender})")
        return Match(reason="author is not a player (split players are found by name in the state)")

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        return bool(state["game"]) and bool(state.one("game").ended_at)

    # ---- reports ----------------------------------------------------------------------

    def report(self, state: State, events: EventLog, faction: int | None, scenario: Scenario,
               diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
        return _report.build(state, events, faction, scenario, diagnostics,
                             Rules.from_catalogs(scenario.catalogs))

    def step_name(self, step: int, scenario: Scenario) -> str:
        return f"Update {step}"  # one import of forum posts, as the report is titled

    def chronicle(self, events: EventLog, state: State, scenario: Scenario) -> Any:
        return _report.chronicle(state, events, scenario, Rules.from_catalogs(scenario.catalogs))

    def render(self, report: dict[str, Any], fmt: str = "text") -> str:
        if fmt not in self.report_formats:
            raise ValueError(f"unknown report format {fmt!r}; use one of {', '.join(self.report_formats)}")
        return _report.render(report, fmt)

    def orders_template(self, state: State, faction: int, scenario: Scenario) -> str:
        from engine.rulesets.coi.template import orders_template

        return orders_template(state, faction, scenario)

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        rules = Rules.from_catalogs(scenario.catalogs)
        out: dict[int, dict[str, float]] = {}
        for p in state["players"]:
            hexes = [h for h in state["hexes"] if h.owner == p.number]
            pts = sum(rules.terrains.get(scenario.map.terrain_at(h.cell), {}).get("points", 0) for h in hexes)
            units = sum(s.count for s in state["units"] if s.owner == p.number)
            out[p.number] = {"hexes": float(len(hexes)), "points": float(pts), "units": float(units),
                             "ap": float(p.ap), "food": float(p.food), "wood": float(p.wood),
                             "iron": float(p.iron)}
        return out

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        return OrderSheet(source="no posts")

    # ---- demo ---------------------------------------------------------------------------

    # ---- player viewer hooks (optional; engine.orderdraft) ------------------------------

    def order_keywords(self) -> list[str]:
        from engine.rulesets.coi.actions import VERBS

        return [*VERBS, "from", "to", "with", "all", "losses", "first", "units"]

    def move_order(self, state: State, faction: int, scenario: Scenario, path: list[int]) -> str:
        """`Move all from c,r to c,r`, one line a step (each move enters one hex)."""
        if not any(s.owner == faction and s.cell == path[0] and s.count > 0 for s in state["units"]):
            return ""
        grid = scenario.map.grid
        return "\n".join(f"Move all from {grid.label(a, 'col,row')} to {grid.label(b, 'col,row')}"
                         for a, b in zip(path, path[1:], strict=False))

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        """The demo island; the posts to import are the thread file in scenario.meta."""
        from engine.mapfile import load_map

        gmap = load_map(ROOT / DEMO_MAP)
        names = {1: "scapheap", 2: "GWG", 3: "Remuthra", 4: "kj1225"}
        colours = dict(enumerate(FACTION_COLOURS[:4], 1))  # apart from the start stars' yellow
        starts = {int(s.attrs.get("player", 0)): s for s in gmap.sites.values() if s.kind == "start"}
        factions = [Faction(n, names[n], colour=colours[n],
                            attrs={"forum": names[n], "port": gmap.grid.label(starts[n].cell, "col,row")})
                    for n in sorted(names) if n in starts]
        scen = Scenario(self.name, "Conquest of Island demo", gmap, self.default_catalogs(),
                        self.default_options(), factions, seed=1)
        scen.meta.update({"gm": "IslandGM", "demo_thread": DEMO_THREAD,
                          "thread_format": "text"})
        return scen, {}


RULESET = ConquestOfIsland()

__all__ = ["ConquestOfIsland", "RULESET"]


@functools.cache
def _default_unit_names() -> dict[str, str]:
    """The unit words of the default catalogs, read once (a 10,000-post import parses
    10,000 posts; reading the catalog files for each took 5 ms)."""
    return Rules.from_catalogs(default_catalogs()).unit_names()
