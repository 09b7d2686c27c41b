"""Rule case files: readable TOML cases (state, orders, dice, expected state and events),
one runner for every ruleset, in the spirit of the Diplomacy DATC cases.

    title = "3.4 worked example: two horsemen and a general against a bowman and a castle"
    section = "3.4"
    ruleset = "kok"
    dice = [74, 4, 46, 26, 99]          # scripted rolls in the order the rules ask for them
    # seed = 7                          # ...or seeded dice instead of a script

    [map]                               # a small map, or  map = "maps/kok-demo/map.rsmap"
    kind = "square"
    terrain_rows = ["ppp", "ppp"]       # one letter a cell, from the ruleset's terrain letters
    # letters = { p = "plains" }        # extra or overriding letters
    # links = { river = [["0101", "0102"]] }   # links between neighbouring cells, as labels

    [options]
    loyalty = true

    [catalogs.troops]                   # edit catalog rows by key (a list replaces the table)
    C = { hit_bonus = 0 }

    [state]                             # each ruleset table, records as inline tables
    armies = [ { cell = "1/0", tribe = 1, troop = "H", count = 2 } ]

    [orders]
    1 = '''
    LAND 0 0 T AT E
    '''

    # posts = [ { author = "Bob", time = "2026-11-20T14:05:00Z", text = "Harvest", id = 7 } ]
    #                                   # realtime rulesets: forum posts, the step's submissions

    [expect]                            # tables listed: same number of records, each matching
                                        # one record on the fields given (any order)
    armies = [ { cell = "1/0", tribe = 1, troop = "H", count = 1 } ]
    events = [ { kind = "battle_round", round = 1 } ]   # each must match some event (subset)
    no_events = [ { kind = "retreat" } ]                 # none may match
    diagnostics = [ { faction = 1, line = 1, kind = "illegal" } ]
    problems = [ { severity = "warning", option = "min_nations" } ]  # scenario validation
    # refused = "room for 11"          # the ruleset refuses to start the game: the message
    report = ["* 1 BUILD 0 0"]          # lines of the GM's text report after the turn
    # faction = 1 in [expect] renders that faction's report instead

Orders are checked and screened as in a real turn (engine/orders/screen.py): what the
checker refuses is not carried out, and its findings are the case's `diagnostics` (a
refused item of a multi-part order has `part`, 1-based).

A string `cell` (or any field named in CELL_FIELDS) is a label in the map's notation and is
turned into the cell number, so cases read like the rule book.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import registry
from engine.dice import Dice, ScriptedDice
from engine.events import EVENT_TYPES, EventLog
from engine.map import GameMap, new_map
from engine.orders import Diagnostic, OrderSheet
from engine.orders.screen import screen_for
from engine.ruleset import Ruleset, Submission, TurnContext
from engine.scenario import Faction, Scenario
from engine.state import CELL_FIELDS, State
from engine.tables import Catalog

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Case:
    path: Path
    data: dict[str, Any]

    @property
    def title(self) -> str:
        return self.data.get("title", self.path.stem)


@dataclass
class CaseResult:
    state: State
    events: EventLog
    diagnostics: list[Diagnostic]
    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    problems: list[Any] = field(default_factory=list)   # scenario validation (expect.problems)
    refused: str = ""                                   # why initial_state refused the scenario


class CaseError(ValueError):
    """A case file that cannot be read or built; the message names the file."""


def load_case(path: str | Path) -> Case:
    path = Path(path)
    try:
        with path.open("rb") as f:
            return Case(path, tomllib.load(f))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise CaseError(f"{path}: {e}") from None


def build_map(ruleset: Ruleset, spec: Any) -> GameMap:
    if isinstance(spec, str):
        from engine.mapfile import load_map  # native map files (.rsmap[.gz])

        return load_map(ROOT / spec)
    rows = [r.replace(" ", "") for r in spec["terrain_rows"]]
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("terrain_rows must be rows of the same length, one letter a cell "
                         f"(lengths {[len(r) for r in rows]})")
    kind = spec.get("kind", "square")
    m = new_map(kind, len(rows[0]), len(rows), **spec.get("grid", {}))
    letters = {**getattr(ruleset, "terrain_letters", lambda: {})(), **spec.get("letters", {})}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in letters:
                raise ValueError(f"map letter {ch!r} is not a terrain letter ({', '.join(letters)})")
            m.set_terrain([y * m.grid.width + x], letters[ch])
    for kind, pairs in spec.get("links", {}).items():  # roads, rivers: pairs of neighbours
        for a, b in pairs:
            m.add_link(kind, m.grid.parse(str(a)), m.grid.parse(str(b)))
    for a in spec.get("areas", []):
        m.add_area(a["name"], a.get("kind", "region"),
                   [m.grid.parse(c) if isinstance(c, str) else int(c) for c in a["cells"]],
                   **a.get("attrs", {}))
    for site in spec.get("sites", []):  # start sites and cities: { cell, kind, name, attrs }
        cell = site["cell"]
        m.add_site(m.grid.parse(cell) if isinstance(cell, str) else int(cell),
                   site.get("kind", "city"), site.get("name", ""), **site.get("attrs", {}))
    return m


def _cells(record: dict[str, Any], board) -> dict[str, Any]:
    out = {}
    for k, v in record.items():
        if k in CELL_FIELDS and isinstance(v, str):
            c = board.parse(v)
            if c is None:
                raise ValueError(f"{k} = {v!r} is not a cell of the case map")
            out[k] = c
        else:
            out[k] = v
    return out


def build_scenario(case: Case) -> tuple[Ruleset, Scenario]:
    d = case.data
    rs = registry.get(d["ruleset"])
    m = build_map(rs, d["map"])
    options = rs.default_options()
    for k, v in d.get("options", {}).items():
        options.set(k, v)
    catalogs = rs.default_catalogs()
    for name, change in d.get("catalogs", {}).items():
        catalogs[name] = _edit_catalog(catalogs[name], change)
    factions = [Faction.from_dict({"name": f"Faction {f['number']}", **f}) for f in d.get("factions", [])]
    scen = Scenario(rs.name, case.title, m, catalogs, options, factions, d.get("seed", 1))
    board = m.board()
    init = rs.new_state(d.get("step", 0))
    for table, rows in d.get("state", {}).items():
        if table not in rs.state_schema:
            raise ValueError(f"[state] {table}: {rs.name} has no such table "
                             f"({', '.join(rs.state_schema)})")
        dc = rs.state_schema[table]
        try:
            init.tables[table] = [dc(**_cells(r, board)) for r in rows]
        except TypeError as e:  # a field the table does not have, or one missing
            raise ValueError(f"[state] {table}: {e}") from None
    scen.initial = init
    scen.meta.update(d.get("meta", {}))
    if not factions:
        scen.factions = _factions_from_state(init)
    return rs, scen


def _edit_catalog(cat: Catalog, change: Any) -> Catalog:
    """A list replaces the whole table; a table {key: {column: value}} edits rows by key."""
    if isinstance(change, list):
        return Catalog(cat.spec, change)
    key = cat.spec.key[0] if cat.spec.key else cat.spec.names[0]
    for k, edit in change.items():
        i = next((i for i, r in enumerate(cat.rows) if str(r[key]) == str(k)), None)
        if i is None:
            raise ValueError(f"catalog {cat.spec.name} has no row {k!r}")
        cat.update(i, edit)
    return cat


def _factions_from_state(state: State) -> list[Faction]:
    nums: set[int] = set()
    for rows in state.tables.values():
        for r in rows:
            for name in ("tribe", "owner", "faction", "nation", "player", "number"):
                v = getattr(r, name, None)
                if isinstance(v, int) and v > 0:
                    nums.add(v)
    return [Faction(n, f"Faction {n}") for n in sorted(nums)]


def run_case(case: Case) -> CaseResult:
    try:
        rs, scen = build_scenario(case)
    except (ValueError, registry.UnknownRuleset) as e:
        raise CaseError(f"{case.path}: {e}") from None
    except KeyError as e:  # a required key missing: ruleset, map, a catalog name...
        raise CaseError(f"{case.path}: missing or unknown {e}") from None
    d = case.data
    exp = d.get("expect", {})
    problems = _problems(scen, rs) if "problems" in exp else []
    try:
        state = rs.initial_state(scen)
    except ValueError as e:
        if "refused" not in exp:
            raise CaseError(f"{case.path}: the game does not start: {e}") from None
        # the ruleset refuses the scenario, as the case expects: nothing else to run
        result = CaseResult(rs.new_state(), EventLog(), [], scen, problems=problems, refused=str(e))
        result.failures = check_expectations(case, result)
        return result
    sheets: dict[int, OrderSheet] = {}
    diags: list[Diagnostic] = []
    for key, text in d.get("orders", {}).items():
        faction = int(key)
        sheet = rs.parse_orders(text, source=f"{case.path.name}[{faction}]")
        found = rs.check(sheet, state, faction, scen)
        diags.extend(dataclasses.replace(x, faction=faction) for x in sheet.diagnostics + found)
        # as in a real turn: what the checker refuses is not carried out (orders/screen.py)
        sheets[faction] = screen_for(rs, sheet, found)
        sheets[faction].diagnostics.extend(found)
    dice = ScriptedDice(d["dice"]) if "dice" in d else Dice(d.get("seed", 1), "case")
    new = state.copy()
    new.step = state.step + 1
    ctx = TurnContext(rs, scen, new, state, sheets, dice)
    ctx.submissions = case_posts(d.get("posts", []), case.path.name)
    ctx.scratch["diagnostics"] = diags
    rs.run_step(ctx)
    result = CaseResult(new, ctx.events, diags, scen, problems=problems)
    result.failures = check_expectations(case, result)
    return result


def _problems(scen: Scenario, rs: Ruleset) -> list[Any]:
    from engine.validation import validate_scenario  # only cases that expect problems need it

    return validate_scenario(scen, rs)


def case_posts(posts: list[dict[str, Any]], source: str = "") -> list[Submission]:
    """Realtime cases: `posts = [{ author, time, text, id?, edited_at? }]` become the
    step's submissions in the order written (the ruleset sorts them by time itself)."""
    out = []
    for i, p in enumerate(posts, start=1):
        meta = {"post_id": str(p.get("id", i))}
        if p.get("edited_at"):
            meta["edited_at"] = p["edited_at"]
        out.append(Submission(p.get("text", ""), "post", f"{source}#{meta['post_id']}",
                              p.get("author", ""), received_at=str(p.get("time", "")), meta=meta))
    return out


def _matches(record: dict[str, Any], want: dict[str, Any]) -> bool:
    for k, v in want.items():
        got = record.get(k)
        if isinstance(got, (list, tuple)) and isinstance(v, list):
            got = list(got)
        if got != v:
            return False
    return True


def check_expectations(case: Case, result: CaseResult) -> list[str]:
    exp = case.data.get("expect", {})
    board = result.scenario.map.board()
    failures: list[str] = []
    for table, rows in exp.items():
        if table in ("events", "no_events", "diagnostics", "no_diagnostics", "problems", "refused",
                     "report", "no_report", "faction"):
            continue
        if table not in result.state.tables:
            failures.append(f"expect.{table}: the ruleset has no such state table")
            continue
        got = sorted((dataclasses.asdict(r) for r in result.state.tables[table]), key=repr)
        want = [_cells(r, board) for r in rows]
        unmatched = list(got)
        for w in want:
            hit = next((g for g in unmatched if _matches(g, w)), None)
            if hit is None:
                failures.append(f"expect.{table}: no record matches {w}\n  got: {got}")
            else:
                unmatched.remove(hit)
        if unmatched and not failures:
            failures.append(f"expect.{table}: unexpected records {unmatched}")
    events = [r.event.to_dict() for r in result.events.records]
    for w in exp.get("events", []):
        w = _cells(w, board)
        if not any(_matches(e, w) for e in events):
            failures.append(f"expect.events: nothing matches {w}\n  events: {events}")
    for w in exp.get("no_events", []):
        if "kind" in w and w["kind"] not in EVENT_TYPES:  # else it could never fail
            failures.append(f"expect.no_events: {w['kind']!r} is not an event kind")
        w = _cells(w, board)
        if any(_matches(e, w) for e in events):
            failures.append(f"expect.no_events: found {w}")
    diags = [x.to_dict() for x in result.diagnostics]
    for w in exp.get("diagnostics", []):
        if not any(_matches(x, w) for x in diags):
            failures.append(f"expect.diagnostics: nothing matches {w}\n  got: {diags}")
    got = [dataclasses.asdict(p) for p in result.problems]
    for w in exp.get("problems", []):
        if not any(_matches(p, w) for p in got):
            failures.append(f"expect.problems: nothing matches {w}\n  got: {got}")
    if "report" in exp or "no_report" in exp:
        failures += _report_expectations(case, result, exp)
    if "refused" in exp and str(exp["refused"]) not in result.refused:
        failures.append(f"expect.refused: {exp['refused']!r} not in "
                        f"{result.refused or 'nothing (the game started)'!r}")
    if exp.get("no_diagnostics") and diags:
        failures.append(f"expect.no_diagnostics: got {diags}")
    return failures


def _report_expectations(case: Case, result: CaseResult, exp: dict[str, Any]) -> list[str]:
    """`report`: each string is found in the text report; `no_report`: none is."""
    rs = registry.get(case.data["ruleset"])
    who = exp.get("faction")
    mine = [d for d in result.diagnostics if who is None or d.faction == who]
    text = rs.render(rs.report(result.state, result.events, who, result.scenario, mine), "text")
    out = [f"expect.report: {w!r} not in the report\n{text}" for w in exp.get("report", [])
           if w not in text]
    out += [f"expect.no_report: {w!r} is in the report" for w in exp.get("no_report", [])
            if w in text]
    return out


def case_files(ruleset: str) -> list[Path]:
    return sorted((ROOT / "tests" / "cases" / ruleset).glob("*.toml"))
