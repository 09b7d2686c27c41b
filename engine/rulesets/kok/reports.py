"""The King of Kings turn report (rule book section 8) as data, and its renderings.

`report()` builds plain data (JSON-ready) from the state after the turn, the turn's
events and the order diagnostics; `render()` lays it out as the classic text report
(head report with options and the alliance table, player table, text map, battles,
chronicle, errors `*` and warnings `[ ]`, final ranking), as HTML or as JSON. KoK is
played in public (section 1, 8): every player gets the same report, so `faction` only
records who it was made for.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine.events import EventLog
from engine.markup import html as escape
from engine.orders import Diagnostic, Severity
from engine.rulesets.kok import events as ev
from engine.rulesets.kok.catalogs import TACTIC_NAMES
from engine.rulesets.kok.identify import game_code
from engine.rulesets.kok.narrative import Namer, battles, chronicle, order_messages
from engine.rulesets.kok.view import Board
from engine.scenario import Scenario
from engine.state import State

FORMAT = 1
TEMPLATES = Path(__file__).with_name("templates")


# ---- data ---------------------------------------------------------------------------------

def _dates(scenario: Scenario, turn: int) -> tuple[str, str]:
    """Processing date and next deadline from the scenario's calendar, if it has one.

    Taken from the game's own calendar, never the clock, so re-running a turn gives the
    same report byte for byte.
    """
    meta = scenario.meta
    if meta.get("date") or meta.get("deadline"):
        return str(meta.get("date", "")), str(meta.get("deadline", ""))
    start = meta.get("start_date")
    if not start:
        return "", ""
    try:
        day0 = _dt.date.fromisoformat(str(start))
    except ValueError:
        return str(start), ""
    days = int(meta.get("days_per_turn", 7) or 7)
    done = day0 + _dt.timedelta(days=days * turn)
    return done.isoformat(), (done + _dt.timedelta(days=days)).isoformat()


def _unit_text(sym: str, n: int, single: set[str]) -> str:
    return sym if n == 1 and sym in single else f"{n}{sym}"


def namer_of(b: Board, scenario: Scenario) -> Namer:
    """Players, troops and provinces named as the report names them."""
    factions = {f.number: f for f in scenario.factions}
    names = {t.number: t.name or (factions[t.number].name if t.number in factions else "")
             for t in sorted(b.tribes.values(), key=lambda t: t.number)}

    def province(cell: int) -> str:
        if cell is None or cell < 0 or not b.on_map(cell):
            return "off the map"
        x, y = b.grid.xy(cell)
        p = b.provinces.get(cell)
        return f"{p.name} ({x} {y})" if p is not None and p.name else f"{x} {y}"

    def xy(cell: int) -> str:
        x, y = b.grid.xy(cell) if b.on_map(cell) else (cell, "?")
        return f"{x} {y}"

    return Namer(names, {t.symbol: t.name for t in b.rules.troops.values()}, province, xy)


def chronicle_of(state: State, events: EventLog, scenario: Scenario) -> Any:
    """The turn's events told as this report tells them (engine.chronicle)."""
    from engine.rulesets.kok.narrative import tell

    return tell(events, namer_of(Board(state, scenario), scenario))


def report(state: State, events: EventLog | None, faction: int | None, scenario: Scenario,
           diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
    """The turn report as plain data; the same for every player (public game)."""
    events = events if events is not None else EventLog()
    b = Board(state, scenario)
    rules = b.rules
    world = b.world
    turn = state.step
    end_turn = world.end_turn if world is not None else int(rules.option("end_turn", 20))
    troops = sorted(rules.troops.values(), key=lambda t: t.row)
    tribes = sorted(b.tribes.values(), key=lambda t: t.number)
    factions = {f.number: f for f in scenario.factions}
    namer = namer_of(b, scenario)
    names = namer.players
    date, deadline = _dates(scenario, turn)

    # player table (8.2): gold, wood, troops by type, land units, food capacity, provinces
    per: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for by_tribe in b.troops.values():
        for tribe, units in by_tribe.items():
            for s, n in units.items():
                per[tribe][s] += n
    food: dict[int, int] = defaultdict(int)
    provs: dict[int, int] = defaultdict(int)
    for cell, p in b.provinces.items():
        if p.owner and b.on_map(cell):
            provs[p.owner] += 1
            food[p.owner] += b.terrain(cell).food
    columns = ([t for t in troops if t.transport] + [t for t in troops if not t.transport])
    players = []
    for t in tribes:
        f = factions.get(t.number)
        units = {c.symbol: per[t.number].get(c.symbol, 0) for c in columns}
        players.append({
            "number": t.number, "name": names[t.number], "alive": t.alive,
            "colour": f.colour if f is not None and _COLOUR.fullmatch(f.colour or "") else "#888888",
            "gold": t.gold, "wood": t.wood, "units": units,
            "troops": sum(n for s, n in units.items() if not rules.troops[s].transport),
            "food": food[t.number], "provinces": provs[t.number], "fame": t.fame,
            "nmr_turns": t.nmr_turns,
        })
    numbers = [t.number for t in tribes]
    alliances = [[None if a == o else b.status(a, o) for o in numbers] for a in numbers]
    # what each player declared: it binds the declarer at once (2.8); at turn end both are
    # set to the lower value, so it differs from the status only with the house option
    # `declarations_persist`, and then it is shown, so the report says what binds whom
    declared = [[None if a == o else b.declared(a, o) for o in numbers] for a in numbers]

    # the map (8.3)
    single = {t.symbol for t in troops if t.static or t.general}
    order = {t.symbol: t.row for t in troops}
    cells = []
    grid = b.grid
    for cell in range(len(grid)):
        x, y = grid.xy(cell)
        terr = b.terrain(cell)
        p = b.provinces.get(cell)
        owner = p.owner if p is not None else 0
        stacks = []
        for tribe in sorted(b.troops.get(cell, {}), key=lambda t: (t != owner, t)):
            units = sorted(((s, n) for s, n in b.troops[cell][tribe].items() if n),
                           key=lambda u: order.get(u[0], 99))
            if units:
                stacks.append({"tribe": tribe, "units": [list(u) for u in units]})
        disloyal = bool(rules.option("loyalty") and p is not None and owner
                        and p.loyal not in (0, owner))
        cells.append({
            "x": x, "y": y, "terrain": terr.name, "letter": terr.letter, "sea": terr.sea,
            "owner": owner, "home": bool(p is not None and p.home),
            "tactic": (p.tactic if p is not None and owner and not terr.sea else ""),
            "name": p.name if p is not None else "", "disloyal": disloyal, "stacks": stacks,
        })
    named = [{"x": c["x"], "y": c["y"], "name": c["name"], "owner": c["owner"]}
             for c in cells if c["name"]]

    messages = _messages(events, diagnostics or [])
    ranking = []
    for e in sorted(events.of(ev.Ranking), key=lambda r: (r.place, r.faction)):
        ranking.append({"place": e.place, "player": e.faction, "name": names.get(e.faction, ""),
                        "average": e.average, "fame": e.fame, "fame_rank": e.fame_rank,
                        "treasure": e.treasure, "treasure_rank": e.treasure_rank,
                        "might": e.might, "might_rank": e.might_rank})
    options = [{"name": s.name, "label": s.label or s.name, "value": rules.option(s.name, s.default)}
               for s in scenario.options.specs]
    return {
        "ruleset": "kok", "format": FORMAT, "game": game_code(scenario), "title": scenario.name,
        "turn": turn, "next_turn": turn + 1, "end_turn": end_turn,
        "finished": turn >= end_turn, "date": date, "deadline": deadline,
        "viewer": faction, "options": options,
        "columns": [{"symbol": t.symbol, "label": _column_label(t.name)} for t in columns],
        "players": players,
        "alliances": {"players": numbers, "rows": alliances,
                      "declared": declared if declared != alliances else None},
        "map": {"width": getattr(grid, "width", 0), "height": getattr(grid, "height", 0),
                "cells": cells, "single": sorted(single),
                "legend": [{"letter": t.letter, "name": t.name}
                           for t in sorted(rules.terrains.values(), key=lambda t: t.name)],
                "tactics": [[k.lower(), v] for k, v in TACTIC_NAMES.items()],
                "troops": [{"symbol": t.symbol, "name": t.name} for t in troops]},
        "named": named,
        "battles": [s.to_dict() for s in battles(events, namer)],
        "chronicle": chronicle(events, namer),
        "errors": [m for m in messages if m["severity"] == "error"],
        "warnings": [m for m in messages if m["severity"] == "warning"],
        "ranking": ranking,
    }


def _column_label(name: str) -> str:
    word = name.split()[0] if name.split() else name
    return word[:4].capitalize()


def _messages(events: EventLog, diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """8.5 messages: what the checker found and what the adjudication reported.

    The checker's findings are part of the turn (engine/orders/screen.py): an order it
    refused was never carried out, so its `*` line comes from the finding alone; its
    warnings say how an order will be carried out otherwise. The adjudication adds what
    only the turn could know (a move blocked, a placement whose gold never came)."""
    out = order_messages(events)
    for d in diagnostics:
        if d.severity == Severity.INFO or d.faction is None:
            continue
        msg = d.message if d.kind != "ambiguous" else f"{d.message} (ambiguous)"
        out.append({"player": d.faction, "line": d.line, "text": d.text, "message": msg,
                    "severity": d.severity.value})
    seen = set()
    uniq = []
    for m in sorted(out, key=lambda m: (m["player"], m["line"], m["severity"], m["message"])):
        key = (m["player"], m["line"], m["severity"], m["message"])
        if key not in seen:
            seen.add(key)
            uniq.append(m)
    return uniq


# ---- rendering ---------------------------------------------------------------------------

def render(report: dict[str, Any], fmt: str = "text") -> str:
    if fmt == "json":  # compact: the C encoder, so big games stay fast
        return json.dumps(report, sort_keys=True, ensure_ascii=False,
                          separators=(",", ":")) + "\n"
    if fmt == "html":
        return _html(report)
    if fmt == "text":
        return _text(report)
    raise ValueError(f"unknown report format {fmt!r}; use text, html or json")


def map_cell_text(c: dict[str, Any], single: set[str] | frozenset[str] = frozenset("CG")
                  ) -> tuple[str, str]:
    """The two text lines of one province on the map (8.3)."""
    letter = c["letter"] or "?"
    top = letter.upper() if c["home"] else letter.lower()
    if c["owner"]:
        top += str(c["owner"])
    if c["tactic"]:
        top += c["tactic"].lower()
    if c["disloyal"]:
        top += "*"
    parts = []
    for st in c["stacks"]:
        units = "".join(_unit_text(s, n, single) for s, n in st["units"])
        parts.append(units if st["tribe"] == c["owner"] else f"{st['tribe']}:{units}")
    return top, "/".join(parts)


def text_map(report: dict[str, Any]) -> list[str]:
    m = report["map"]
    w, h = m["width"], m["height"]
    if not w or not h:
        return []
    single = set(m.get("single", "CG"))
    boxes = [map_cell_text(c, single) for c in m["cells"]]
    width = max(4, max(max(len(a), len(b)) for a, b in boxes) + 1)
    lines = ["    " + "".join(str(x).ljust(width) for x in range(w)).rstrip()]
    for y in range(h):
        row = boxes[y * w:(y + 1) * w]
        lines.append(f"{y:>3} " + "".join(a.ljust(width) for a, _ in row).rstrip())
        lines.append("    " + "".join(b.ljust(width) for _, b in row).rstrip())
        # 5.9: a named province shows its name on the map, on a line of its own under its
        # row, running on over unnamed neighbours and cut only where the next name begins
        names = [c["name"] for c in m["cells"][y * w:(y + 1) * w]]
        if any(names):
            lines.append("    " + _names_line(names, width))
    return lines


def _names_line(names: list[str], width: int) -> str:
    at = [i for i, n in enumerate(names) if n]
    out = ""
    for k, i in enumerate(at):
        room = (at[k + 1] - i) * width - 1 if k + 1 < len(at) else len(names[i])
        out = out.ljust(i * width) + _cut(names[i], room)
    return out.rstrip()


def _cut(name: str, n: int) -> str:
    return name if len(name) <= n else name[:max(1, n - 1)] + "~"


def _yes(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _text(r: dict[str, Any]) -> str:
    out: list[str] = []
    add = out.append
    add(f"KING OF KINGS  -  game {r['game']}" + (f"  ({r['title']})" if r["title"] else ""))
    when = f"Turn {r['turn']} of {r['end_turn']}"
    if r["date"]:
        when += f", processed {r['date']}"
    add(when)
    if r["finished"]:
        add("The game is over.")
    else:
        add(f"Orders for turn {r['next_turn']}: subject \"{r['game']} {r['next_turn']}\" or file "
            f"SP<player>.R{r['next_turn']}" + (f"; deadline {r['deadline']}" if r["deadline"] else ""))
    add("")
    add("GAME OPTIONS")
    lw = max((len(o["label"]) for o in r["options"]), default=10)
    for o in r["options"]:
        add(f"  {o['label'].ljust(lw, '.')}.. {_yes(o['value'])}")
    add("")
    add("ALLIANCES  (row: that player's status towards the column's player)")
    nums = r["alliances"]["players"]
    cw = max(3, max((len(str(n)) for n in nums), default=1) + 1)
    add("     " + "".join(str(n).rjust(cw) for n in nums))
    for n, row in zip(nums, r["alliances"]["rows"], strict=True):
        add(f"{n:>4} " + "".join(("-" if v is None else str(v)).rjust(cw) for v in row))
    if r["alliances"].get("declared"):
        add("")
        add("DECLARED  (row: what that player declared towards the column's player; it binds")
        add("           the declarer: no attack on a player declared 1 or more, 2.8)")
        add("     " + "".join(str(n).rjust(cw) for n in nums))
        for n, row in zip(nums, r["alliances"]["declared"], strict=True):
            add(f"{n:>4} " + "".join(("-" if v is None else str(v)).rjust(cw) for v in row))
    add("")
    add("PLAYERS")
    nw = max([4] + [len(p["name"]) for p in r["players"]])
    head = f" Nr {'Name'.ljust(nw)}  Gold Wood " + " ".join(c["label"].rjust(4) for c in r["columns"])
    add(head + " Trp. Food Prov Fame")
    for p in r["players"]:
        cols = " ".join(str(p["units"][c["symbol"]]).rjust(4) for c in r["columns"])
        flag = "" if p["alive"] else "  (out)"
        if p["nmr_turns"]:
            flag += f"  NMR {p['nmr_turns']}"
        add(f"{p['number']:>3} {p['name'].ljust(nw)} {p['gold']:>5} {p['wood']:>4} {cols} "
            f"{p['troops']:>4} {p['food']:>4} {p['provinces']:>4} {p['fame']:>4}{flag}")
    add("")
    add("MAP  (terrain letter, CAPITAL = home province; owner number; lower-case tactic;")
    add("      * disloyal; units: number and type letter; n: units of player n;")
    add("      a third line under a row: the names of named provinces)")
    out.extend(text_map(r))
    add("  terrain: " + ", ".join(f"{t['letter']} {t['name']}" for t in r["map"]["legend"]))
    add("  tactics: " + ", ".join(f"{k} {v}" for k, v in r["map"].get("tactics", [])))
    add("  troops:  " + ", ".join(f"{c['symbol']} {c['name']}" for c in r["map"].get("troops", [])))
    if r["named"]:
        add("")
        add("NAMED PROVINCES")
        for n in r["named"]:
            owner = f"  (player {n['owner']})" if n["owner"] else ""
            add(f"  {n['x']:>3} {n['y']:<3} {n['name']}{owner}")
    if r["battles"]:
        add("")
        add("BATTLES")
        for s in r["battles"]:
            add("")
            add(f"  {s['title']}")
            for line in s["lines"]:
                add(f"    {line}")
    if r["chronicle"]:
        add("")
        add("EVENTS")
        for c in r["chronicle"]:
            add(f"  [{c['player']}] {_player_name(r, c['player'])} {c['text']}")
    if r["errors"] or r["warnings"]:
        add("")
        add("ERRORS AND WARNINGS  (* error: not carried out; [ ] warning: carried out otherwise)")
        head = None
        for m in sorted(r["errors"] + r["warnings"],
                        key=lambda m: (m["player"], m["line"], m["severity"] != "error")):
            # one `*` or `[ ]` line per order line, then what the checker and the turn said
            if (m["player"], m["line"], m["severity"]) != head:
                head = (m["player"], m["line"], m["severity"])
                text = m["text"] or "(the orders as a whole)"
                if m["severity"] == "error":
                    add(f"* {m['player']} {text}")
                else:
                    add(f"[{m['player']} {text}]")
            where = f"line {m['line']}: " if m["line"] else ""
            add(f"      {where}{m['message']}")
    if r["ranking"]:
        add("")
        add("FINAL RANKING  (average of the ranks in fame, treasure and might)")
        add(f"  Pl  Nr {'Name'.ljust(nw)}  Avg.  Fame (rk)  Gold (rk)  Troops (rk)")
        for k in r["ranking"]:
            add(f"  {k['place']:>2} {k['player']:>3} {k['name'].ljust(nw)} {k['average']:>5.2f} "
                f"{k['fame']:>5} ({k['fame_rank']:>2}) {k['treasure']:>5} ({k['treasure_rank']:>2})"
                f" {k['might']:>7} ({k['might_rank']:>2})")
    return "\n".join(line.rstrip() for line in out).rstrip() + "\n"


def _player_name(r: dict[str, Any], n: int) -> str:
    for p in r["players"]:
        if p["number"] == n:
            return p["name"] or f"player {n}"
    return f"player {n}"


def _html(r: dict[str, Any]) -> str:
    from engine.templating import template

    colours = {p["number"]: p["colour"] for p in r["players"]}
    rows = []
    w = r["map"]["width"]
    cells = r["map"]["cells"]
    single = set(r["map"].get("single", "CG"))
    for y in range(r["map"]["height"]):
        # the map rows are built here, escaped, rather than cell by cell in the template:
        # a 100 x 100 map would otherwise take most of the report's time
        rows.append("".join(_html_cell(c, single, colours) for c in cells[y * w:(y + 1) * w]))
    return template(TEMPLATES, "report.html.j2").render(r=r, rows=rows, yes=_yes,
                                                     player_name=lambda n: _player_name(r, n))


_COLOUR = re.compile(r"#[0-9A-Fa-f]{3,8}")


def _html_cell(c: dict[str, Any], single: set[str], colours: dict[int, str]) -> str:
    top, units = map_cell_text(c, single)
    title = f"{c['x']} {c['y']} {c['terrain']}"
    if c["name"]:
        title += f" - {c['name']}"
    if c["owner"]:
        title += f" - player {c['owner']}"
    colour = colours.get(c["owner"], "") if c["owner"] else ""
    colour = colour if _COLOUR.fullmatch(colour or "") else ""  # a colour, never more CSS
    style = f' style="background: {escape(colour)}33; border-color: {escape(colour)}"' \
        if colour else ""
    home = " home" if c["home"] else ""
    name = f'<br><span class="name">{escape(c["name"])}</span>' if c["name"] else ""  # 5.9
    return (f'<td class="{"sea" if c["sea"] else "land"}"{style} title="{escape(title)}">'
            f'<span class="top{home}">{escape(top)}</span><br>{escape(units)}{name}</td>')


# ---- orders template -------------------------------------------------------------------------

def orders_template(state: State, faction: int, scenario: Scenario) -> str:
    """An empty orders sheet for the next turn, with the player's position as comments."""
    b = Board(state, scenario)
    code = game_code(scenario)
    turn = state.step + 1
    t = b.tribes.get(faction)
    name = t.name if t is not None and t.name else (
        scenario.faction(faction).name if scenario.faction(faction) else "")
    lines = [f"# King of Kings, game {code}: orders of player {faction}"
             + (f" ({name})" if name else "") + f" for turn {turn}",
             f"# Send with the subject \"{code} {turn}\" or as the file SP{faction}.R{turn}.",
             "# Lines starting with # are comments. Orders go between BEGIN and END."]
    if t is not None:
        lines.append(f"# Gold {t.gold}, wood {t.wood}.")
    own = sorted(c for c in b.troops if faction in b.troops[c])
    if own:
        lines.append("# Your troops:")
        order = {s: tr.row for s, tr in b.rules.troops.items()}
        for cell in own:
            x, y = b.grid.xy(cell)
            units = sorted(b.troops[cell][faction].items(), key=lambda u: order.get(u[0], 99))
            words = " ".join(f"{b.rules.words().abbreviation(s)} {n}" for s, n in units if n)
            lines.append(f"#   {x} {y}: {words}")
    lines += ["BEGIN", "", "END", ""]
    return "\n".join(lines)
