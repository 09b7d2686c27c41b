"""A tiny ruleset for the database, service and CLI tests (so they need no real game).

Bands of a faction sit on cells of a square map. Orders, one a line:
    #tiny <faction> <turn>      header (optional)
    GROW <n>                    spend n gold: n bands each gain d6 strength
    MOVE <x/y> <N|S|E|W>        move the band at x/y one cell
Phases: grow, move, fight (two factions on one cell: the stronger stays), income.
Option `explode_at` makes the fight phase raise at that step; `bad_report_at` makes the
GM report fail to render at that step (transaction tests).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import registry
from engine.dice import Dice
from engine.events import Event
from engine.map import new_map
from engine.orders import INVALID, Diagnostic, Order, OrderSheet, Severity, split_lines
from engine.ruleset import Match, Phase, Ruleset, Submission, TurnContext, TurnModel
from engine.scenario import Faction, Scenario
from engine.state import State
from engine.tables import Catalog, Column, OptionSpec, TableSpec


@dataclass
class Band:
    faction: int
    cell: int
    strength: int = 1


@dataclass
class Purse:
    faction: int
    gold: int = 3
    alive: bool = True
    score: float = 0.0


@dataclass
class Clock:
    step: int = 0
    note: str = ""


SCHEMA = {"clock": Clock, "purses": Purse, "bands": Band}


@dataclass(frozen=True)
class Grew(Event):
    kind = "tiny_grew"
    faction: int
    cell: int
    amount: int


@dataclass(frozen=True)
class Moved(Event):
    kind = "tiny_moved"
    faction: int
    frm: int
    to: int


@dataclass(frozen=True)
class Blocked(Event):
    kind = "tiny_blocked"
    faction: int
    cell: int
    reason: str

    def visible_to(self) -> frozenset[int]:
        return frozenset({self.faction})


@dataclass(frozen=True)
class Fought(Event):
    kind = "tiny_fought"
    attacker: int
    defender: int
    cell: int
    winner: int


@dataclass
class Grow(Order):
    n: int = 0


@dataclass
class Move(Order):
    cell: int = 0
    direction: str = "N"


UNITS = TableSpec("units", (Column("kind", "str", "band", unique=True, required=True),
                            Column("cost", "int", 1, min=0),
                            Column("power", "int", 1, min=0, max=100),
                            Column("fancy", "bool", False)), key=("kind",))


class Tiny(Ruleset):
    name = "tiny"
    title = "Tiny test game"
    turn_model = TurnModel.SIMULTANEOUS
    state_schema = SCHEMA

    def terrain_letters(self) -> dict[str, str]:
        return {"p": "plains", "m": "mountain", "w": "water"}

    def catalog_specs(self) -> dict[str, TableSpec]:
        return {"units": UNITS}

    def default_catalogs(self) -> dict[str, Catalog]:
        return {"units": Catalog(UNITS, [{"kind": "band", "cost": 1, "power": 6},
                                         {"kind": "elite", "cost": 3, "power": 10, "fancy": True}])}

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("income", "int", 1, min=0, max=10),
                OptionSpec("explode_at", "int", 0), OptionSpec("bad_report_at", "int", 0),
                OptionSpec("fog", "bool", False))

    def phases(self) -> list[Phase]:
        return [Phase("grow", _grow), Phase("move", _move), Phase("fight", _fight),
                Phase("income", _income)]

    def initial_state(self, scenario: Scenario) -> State:
        if scenario.initial is not None:
            s = scenario.initial.copy()
            s.step = 0
            return s
        st = self.new_state(0)
        st["clock"].append(Clock(0, "start"))
        for f in scenario.factions:
            st["purses"].append(Purse(f.number, int(f.attrs.get("gold", 3))))
            st["bands"].append(Band(f.number, int(f.attrs.get("start", f.number - 1)), 2))
        return st

    def parse_orders(self, text: str, source: str = "") -> OrderSheet:
        sheet = OrderSheet(source=source)
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#", 1)[0].split() if not line.startswith("#tiny") else []
            if line.lower().startswith("#tiny"):
                parts = line.split()
                if len(parts) >= 2 and parts[1].isdigit():
                    sheet.header["faction"] = int(parts[1])
                if len(parts) >= 3 and parts[2].isdigit():
                    sheet.header["turn"] = int(parts[2])
                continue
            if not words:
                continue
            verb = words[0].upper()
            if verb == "GROW" and len(words) == 2 and words[1].isdigit():
                sheet.orders.append(Grow(n, line, int(words[1])))
            elif verb == "MOVE" and len(words) == 3 and words[2].upper() in "NSEW":
                try:
                    x, y = (int(v) for v in words[1].split("/"))
                except ValueError:
                    sheet.add(Diagnostic(INVALID, f"bad cell {words[1]!r}", n, 6, line))
                    continue
                sheet.orders.append(Move(n, line, y * 100 + x, words[2].upper()))
            else:
                sheet.add(Diagnostic(INVALID, f"cannot read {line.strip()!r}", n, 1, line))
        return sheet

    def check(self, sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list[Diagnostic]:
        out = []
        w = scenario.map.grid.width
        gold = next((p.gold for p in state["purses"] if p.faction == faction), 0)
        mine = {b.cell for b in state["bands"] if b.faction == faction}
        for o in sheet.orders:
            if isinstance(o, Grow) and o.n > gold:
                out.append(Diagnostic("illegal", f"GROW {o.n} needs {o.n} gold; you have {gold}",
                                      o.line, 0, o.text))
            if isinstance(o, Move) and (o.cell % 100) + (o.cell // 100) * w not in mine:
                out.append(Diagnostic("illegal", "no band of yours there", o.line, 0, o.text,
                                      severity=Severity.WARNING))
        return out

    def auto_orders(self, state: State, faction: int, scenario: Scenario, dice: Dice) -> OrderSheet:
        return OrderSheet([Grow(0, "GROW 1 (NMR)", 1)], source="NMR")

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        for line in submission.text.splitlines():
            parts = line.split()
            if parts and parts[0].lower() == "#tiny" and len(parts) >= 2 and parts[1].isdigit():
                step = int(parts[2]) if len(parts) >= 3 and parts[2].isdigit() else None
                return Match(int(parts[1]), step, reason=f"header {line.strip()!r}")
        return Match()

    def is_finished(self, state: State, scenario: Scenario) -> bool:
        return 0 < scenario.options["income"] and state.step >= 9  # the tiny game lasts 9 turns

    def report(self, state: State, events, faction, scenario, diagnostics=None) -> dict:
        if faction is None and state.step and state.step == scenario.options["bad_report_at"]:
            raise RuntimeError("report exploded on purpose")
        bands = [b for b in state["bands"] if faction is None or b.faction == faction]
        return {"step": state.step, "faction": faction,
                "bands": [[b.faction, b.cell, b.strength] for b in bands],
                "gold": {p.faction: p.gold for p in state["purses"]
                         if faction is None or p.faction == faction},
                "events": [r.to_dict() for r in events.for_faction(faction)],
                "diagnostics": [d.format() for d in diagnostics or []]}

    def render(self, report: dict, fmt: str = "text") -> str:
        if fmt == "json":
            return json.dumps(report, sort_keys=True, indent=1)
        who = "the GM" if report["faction"] is None else f"faction {report['faction']}"
        lines = [f"Turn {report['step']} report for {who}"]
        lines += [f"band of {f} at {c}: strength {s}" for f, c, s in report["bands"]]
        lines += [f"event: {e}" for e in report["events"]]
        lines += [f"* {d}" for d in report["diagnostics"]]
        if fmt == "html":
            return "<pre>" + "\n".join(lines).replace("<", "&lt;") + "</pre>\n"
        return "\n".join(lines) + "\n"

    def summary(self, state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
        out = {}
        for p in state["purses"]:
            bands = [b for b in state["bands"] if b.faction == p.faction]
            out[p.faction] = {"bands": len(bands), "strength": sum(b.strength for b in bands),
                              "gold": p.gold}
        return out

    def demo(self) -> tuple[Scenario, dict[int, dict[int, str]]]:
        return tiny_scenario(self.name), {
            1: {1: "#tiny 1 1\nGROW 1\nMOVE 0/0 E\n", 2: "#tiny 2 1\nGROW 2\n"},
            2: {1: "#tiny 1 2\nMOVE 1/0 E\n"},
            3: {2: "#tiny 2 3\nGROW 1\nMOVE 1/0 W\n"},
        }


def _cell(ctx: TurnContext, code: int) -> int:
    return (code % 100) + (code // 100) * ctx.map.grid.width


def _sheets(ctx: TurnContext) -> list[tuple[int, OrderSheet]]:
    if ctx.submissions:  # realtime: posts in time order
        return [(s.faction, sh) for s, sh in zip(ctx.submissions, ctx.scratch["sheets"], strict=True)]
    return sorted(ctx.orders.items())


def _grow(ctx: TurnContext) -> None:
    dice = ctx.dice.sub("grow")
    for faction, sheet in _sheets(ctx):
        purse = next((p for p in ctx.state["purses"] if p.faction == faction), None)
        for o in sheet.orders:
            if isinstance(o, Grow) and purse is not None and o.n <= purse.gold:
                purse.gold -= o.n
                for b in [b for b in ctx.state["bands"] if b.faction == faction][:o.n]:
                    amount = dice.d(6, "grow")
                    b.strength += amount
                    ctx.emit(Grew(faction, b.cell, amount))


def _move(ctx: TurnContext) -> None:
    grid = ctx.map.grid
    for faction, sheet in _sheets(ctx):
        for o in sheet.orders:
            if not isinstance(o, Move):
                continue
            cell = _cell(ctx, o.cell)
            band = next((b for b in ctx.state["bands"] if b.faction == faction and b.cell == cell), None)
            to = grid.step(cell, o.direction) if cell in grid else None
            if band is None or to is None or ctx.map.terrain_at(to) == "water":
                ctx.emit(Blocked(faction, cell, "no band" if band is None else "cannot go there"))
                continue
            band.cell = to
            ctx.emit(Moved(faction, cell, to))


def _fight(ctx: TurnContext) -> None:
    if ctx.state.step == ctx.options["explode_at"]:
        raise RuntimeError("fight exploded on purpose")
    by_cell: dict[int, list[Band]] = {}
    for b in ctx.state["bands"]:
        by_cell.setdefault(b.cell, []).append(b)
    dice = ctx.dice.sub("fight")
    losers = []
    for cell in sorted(by_cell):
        bands = sorted(by_cell[cell], key=lambda b: b.faction)
        if len(bands) < 2:
            continue
        a, d = bands[0], bands[1]
        ra, rd = a.strength + dice.d(6), d.strength + dice.d(6)
        win, lose = (a, d) if ra > rd else (d, a)
        ctx.emit(Fought(a.faction, d.faction, cell, win.faction))
        losers.append(lose)
    ctx.state.tables["bands"] = [b for b in ctx.state["bands"] if all(b is not x for x in losers)]


def _income(ctx: TurnContext) -> None:
    for p in ctx.state["purses"]:
        p.gold += ctx.options["income"] * sum(1 for b in ctx.state["bands"] if b.faction == p.faction)
        p.score = p.gold / 2
    ctx.state.one("clock").step = ctx.state.step


def tiny_scenario(ruleset: str = "tiny", width: int = 4, height: int = 3) -> Scenario:
    rs = registry.get(ruleset)
    m = new_map("square", width, height)
    m.set_terrain([width * height - 1], "water")
    m.set_terrain([width + 1], "mountain")
    m.add_link("road", 0, 1)
    m.add_site(2, "city", "Ur", pop=3)
    m.add_area("West", "region", [0, width])
    m.cell_attrs[3] = {"ore": True}
    from engine.map import Label

    m.labels.append(Label("Tinyland", 1.5, 1.0, 2.0))
    factions = [Faction(1, "Reds", "red@example.org", "pw1", "#ff0000", {"start": 0}),
                Faction(2, "Blues", "blue@example.org", "", "#0000ff", {"start": 2, "gold": 4})]
    return Scenario(rs.name, "Tiny Demo", m, rs.default_catalogs(), rs.default_options(), factions,
                    seed=42, meta={"game": "TINY", "deadline": "Friday"})


@dataclass(frozen=True)
class YearEnded(Event):
    kind = "tiny_year_ended"
    year: int


def _year_end(ctx: TurnContext) -> None:
    """The end of a game turn: a year passes and every purse gets 10 gold."""
    clock = ctx.state.one("clock")
    year = int(clock.note.split()[-1]) + 1 if clock.note.startswith("year") else 1
    clock.note = f"year {year}"
    for p in ctx.state["purses"]:
        p.gold += 10
    ctx.emit(YearEnded(year))


class TinySequential(Tiny):
    """Sequential: `#tiny <faction> <turn>` names the faction's own turn; factions take
    their turns of one game turn by attrs["seq"] (lowest first), at least `interval_days`
    apart; the end of each game turn is a year (_year_end), which does not wait for
    factions with attrs["dropped"], and comes at the latest `cycle_days` after the game
    turn began (0: no due date)."""

    name = "tiny-seq"
    turn_model = TurnModel.SEQUENTIAL

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return super().option_specs() + (OptionSpec("interval_days", "int", 0, min=0),
                                          OptionSpec("cycle_days", "int", 0, min=0))

    def identify(self, submission: Submission, scenario: Scenario) -> Match:
        m = super().identify(submission, scenario)
        return Match(m.faction, None, reason=m.reason) if m.faction is not None else m

    def orders_turn(self, sheet: OrderSheet) -> int | None:
        return sheet.header.get("turn")

    def sequence_key(self, state: State, faction: int, scenario: Scenario):
        f = scenario.faction(faction)
        return f.attrs.get("seq") if f is not None else None

    def turn_interval_days(self, scenario: Scenario) -> float:
        return scenario.options["interval_days"]

    def cycle_days(self, scenario: Scenario) -> float:
        return scenario.options["cycle_days"]

    def cycle_factions(self, state: State, scenario: Scenario) -> list[int]:
        return [f.number for f in scenario.factions if not f.attrs.get("dropped")]

    def cycle_phases(self) -> list[Phase]:
        return [Phase("year", _year_end)]


class TinyRealtime(Tiny):
    name = "tiny-rt"
    turn_model = TurnModel.REALTIME


for _rs in (Tiny(), TinySequential(), TinyRealtime()):
    registry.register(_rs)

def dump_db(path) -> dict:
    """Every table of an SQLite file as sorted row reprs: 'nothing changed' comparisons."""
    import sqlite3

    con = sqlite3.connect(path)
    out = {}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        out[name] = sorted(map(repr, con.execute(f'SELECT * FROM "{name}"').fetchall()))
    con.close()
    return out


__all__ = ["Tiny", "dump_db", "tiny_scenario", "split_lines"]
