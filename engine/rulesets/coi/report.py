"""Reports after an import: the island map, every player's assets and AP, the action log.

`build` makes plain data; `render` turns it into text, BBCode (a forum-ready summary for
the GM to post), HTML or JSON. The forum game is public, so every player sees everything.
"""

from __future__ import annotations

import json
from typing import Any

from engine.chronicle import BattleStory, Chronicle, cells_of, told
from engine.events import EventLog
from engine.markup import bbcode as bb
from engine.markup import html as esc
from engine.orders import Diagnostic
from engine.rulesets.coi import events as E
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.clock import ap_at, game_zone
from engine.scenario import Scenario
from engine.state import State

BUILDING_MARK = {"fort": "F", "port": "P", "centre": "C"}
OWNER_MARKS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def owner_mark(n: int) -> str:
    return OWNER_MARKS[n - 1] if 0 < n <= len(OWNER_MARKS) else ("." if n == 0 else "?")


def map_rows(state: State, scenario: Scenario, rules: Rules) -> list[str]:
    """Flat-topped hexes as text: each map row is two lines, odd columns half a hex lower.

    A cell reads `tob`: terrain letter (capital when units stand there), owner mark, building.
    """
    g = scenario.map.grid
    owners = {h.cell: h for h in state["hexes"]}
    occupied = {s.cell for s in state["units"] if s.count > 0}
    letters = {tid: t["letter"] for tid, t in rules.terrains.items()}
    head = "     " + "".join(f"{c:<4d}" if c % 2 == 0 else "    " for c in range(g.width))
    head2 = "     " + "".join(f"{c:<4d}" if c % 2 == 1 else "    " for c in range(g.width))
    rows = [head.rstrip(), head2.rstrip()]
    for r in range(g.height):
        for parity in (0, 1):
            line = f"{r:>3}  " if parity == 0 else "     "
            for c in range(g.width):
                if c % 2 != parity:
                    line += "    "
                    continue
                cell = g.cell(c, r)
                ch = letters.get(scenario.map.terrain_at(cell), "?")
                if cell in occupied:
                    ch = ch.upper()
                h = owners.get(cell)
                line += ch + owner_mark(h.owner if h else 0) + BUILDING_MARK.get(h.building if h else "", " ") + " "
            rows.append(line.rstrip())
    return rows


def describe(ev: Any, name, label, rules: Rules) -> str:
    def units(items) -> str:
        return ", ".join(f"{n} {rules.label(u, n)}" for u, n in items) or "no units"

    def goods(items) -> str:
        return ", ".join(f"{n} {g}" for g, n in items)

    match ev:
        case E.GameStarted():
            return f"The game has started at {ev.time}; every player has 10 AP."
        case E.PostSkipped():
            return f"Post {ev.post} by {ev.name} skipped: {ev.reason}."
        case E.PostEdited():
            return (f"Post {ev.post} by {name(ev.player)} was edited"
                    f"{' at ' + ev.edited_at if ev.edited_at else ''}"
                    f"{'' if ev.applied else ' after it was applied; the edit was not applied'}.")
        case E.ApClaimed():
            return (f"{name(ev.player)} claims {ev.claimed} AP: "
                    + ("correct." if ev.matches else f"WRONG, had {ev.actual} ({ev.after} after the post)."))
        case E.ApAdjusted():
            return f"GM: {name(ev.player)} {ev.change:+d} AP, now {ev.ap}"
        case E.Harvested():
            cut = f" ({ev.cut_off} hexes cut off from forts and ports)" if ev.cut_off else ""
            return f"harvested {ev.food} food, {ev.wood} wood, {ev.iron} iron{cut}"
        case E.Built():
            return f"built a {rules.buildings.get(ev.building, {}).get('name', ev.building)} at {label(ev.cell)}"
        case E.Recruited():
            return f"recruited {ev.count} {rules.label(ev.unit, ev.count)} at {label(ev.cell)}"
        case E.Moved():
            return f"{units(ev.units)} moved from {label(ev.origin)} to {label(ev.destination)}"
        case E.HexTaken():
            prev = f" from {name(ev.previous)}" if ev.previous else ""
            return f"{name(ev.player)} took {label(ev.cell)}{prev}"
        case E.UnitsDestroyed():
            return f"{name(ev.player)} lost {ev.count} {rules.label(ev.unit, ev.count)} at {label(ev.cell)} ({ev.reason.replace('_', ' ')})"
        case E.Battle():
            return (f"battle at {label(ev.cell)}: {name(ev.attacker)} {ev.attack} against "
                    f"{name(ev.defender)} {ev.defense}; {name(ev.winner)} wins, losing {ev.absorbed} "
                    f"of {ev.damage} strength")
        case E.AllianceDeclared():
            return f"{name(ev.player)} declared alliance to {name(ev.ally)}"
        case E.AllianceBroken():
            return f"{name(ev.player)} broke the alliance with {name(ev.other)}"
        case E.TradeOffered():
            to = f" (only to {', '.join(ev.only_to)})" if ev.only_to else ""
            return f"offer {ev.offer}: {goods(ev.give)} for {goods(ev.want)}{to}"
        case E.TradeAccepted():
            return f"{name(ev.player)} accepted offer {ev.offer} of {name(ev.offerer)}"
        case E.TradeRescinded():
            return f"offer {ev.offer} withdrawn"
        case E.PlayerSplit():
            return f"{ev.name} (player {ev.new_player}) split off from {name(ev.player)}"
        case E.ExpeditionSent():
            return f"{units(ev.units)} at {label(ev.cell)} handed to {name(ev.receiver)}"
        case E.EndVoted():
            return f"{name(ev.player)} agrees to end the game"
        case E.GameEnded():
            return "The game has ended. Points: " + ", ".join(f"{name(p)} {s}" for p, s in ev.scores)
    return ev.kind


def chronicle(state: State, events: EventLog, scenario: Scenario, rules: Rules) -> Chronicle:
    """The import's events as the action log tells them (engine.chronicle): each action
    with its outcome, each effect, and battles as stories (the forces and their strength,
    the winner, the units lost, the hex taken)."""
    names = {p.number: p.name for p in state["players"]}

    def name(n: int) -> str:
        return names.get(n, "nobody" if not n else f"player {n}")

    def label(cell: int) -> str:
        return scenario.map.grid.label(cell, "col,row")

    def units(items) -> str:
        return ", ".join(f"{n} {rules.label(u, n)}" for u, n in items) or "no units"

    out = Chronicle()
    fight: BattleStory | None = None
    effects: list[int] = []  # the cells of the effects of the action told next
    for r in events.records:
        ev = r.event
        cells = cells_of(ev)
        if isinstance(ev, (E.ActionDone, E.ActionIgnored)):
            cells, effects = tuple(dict.fromkeys(effects)), []
        else:
            effects += cells
        place = label(cells[0]) if cells else ""
        who = [v for f in ("player", "attacker", "defender", "ally", "other", "receiver",
                           "offerer", "previous", "winner") if (v := getattr(ev, f, 0))]
        battle = None
        if isinstance(ev, (E.ActionDone, E.ActionIgnored)):
            fight = None
            done = isinstance(ev, E.ActionDone)
            text = action_line({"post": ev.post, "player": name(ev.player), "text": ev.text,
                                "outcome": "done" if done else "ignored",
                                "ap": getattr(ev, "ap", 0), "ap_left": getattr(ev, "ap_left", 0),
                                "reason": getattr(ev, "reason", "")})
        else:
            text = describe(ev, name, label, rules)
            player = getattr(ev, "player", 0)
            if player and name(player) not in text:
                text = f"{name(player)}: {text}"
        if isinstance(ev, E.Battle):
            fight = BattleStory(
                f"Battle at {place}", [
                    f"{name(ev.attacker)} attacks {place} with {units(ev.attacker_units)} "
                    f"(strength {ev.attack}).",
                    f"{name(ev.defender)} defends with {units(ev.defender_units)} "
                    f"(strength {ev.defense}).",
                    f"{name(ev.winner)} wins and loses {ev.absorbed} of {ev.damage} strength."],
                ev.cell, place, (ev.attacker, ev.defender), ev.winner, "land")
            out.battles.append(fight)
        elif fight is not None and isinstance(ev, (E.UnitsDestroyed, E.HexTaken)):
            fight.lines.append(text + ".")
        if fight is not None and isinstance(ev, (E.Battle, E.UnitsDestroyed, E.HexTaken)):
            battle = len(out.battles) - 1
        out.told.append(told(r, text, who, cells, place, battle))
    return out


def build(state: State, events: EventLog, faction: int | None, scenario: Scenario,
          diagnostics: list[Diagnostic] | None, rules: Rules) -> dict[str, Any]:
    g = scenario.map.grid
    game = state.one("game") if state["game"] else None
    names = {p.number: p.name for p in state["players"]}

    def name(n: int) -> str:
        return names.get(n, "nobody" if not n else f"player {n}")

    def label(cell: int) -> str:
        return g.label(cell, "col,row")

    clock = game.clock if game else ""
    players = []
    for p in sorted(state["players"], key=lambda p: p.number):
        hexes = [h for h in state["hexes"] if h.owner == p.number]
        points = sum(rules.terrains.get(scenario.map.terrain_at(h.cell), {}).get("points", 0) for h in hexes)
        stacks = sorted((s for s in state["units"] if s.owner == p.number), key=lambda s: (s.cell, rules.order(s.unit)))
        now = ap_at(p.ap, p.ap_at, clock, scenario.options["ap_cap"], scenario.options["ap_per_hour"],
                    game_zone(scenario.options)) \
            if p.ap_at and clock else p.ap
        players.append({
            "number": p.number, "name": p.name, "mark": owner_mark(p.number),
            "ap": p.ap, "ap_at": p.ap_at, "ap_now": now,
            "food": p.food, "wood": p.wood, "iron": p.iron,
            "hexes": [label(h.cell) for h in hexes], "points": points,
            "buildings": [f"{h.building} {label(h.cell)}" for h in hexes if h.building],
            "units": [{"at": label(s.cell), "unit": s.unit, "name": rules.label(s.unit, s.count),
                       "count": s.count} for s in stacks],
            "allies": [name(a.ally) for a in state["alliances"] if a.player == p.number],
            "end_vote": p.end_vote,
        })
    log: list[dict[str, Any]] = []
    pending: list[str] = []
    for rec in events.for_faction(faction):
        ev = rec.event
        if isinstance(ev, (E.ActionDone, E.ActionIgnored)):
            entry = {"post": ev.post, "player": name(ev.player), "text": ev.text, "action": ev.action,
                     "outcome": "done" if isinstance(ev, E.ActionDone) else "ignored",
                     "details": pending}
            if isinstance(ev, E.ActionDone):
                entry.update(ap=ev.ap, ap_left=ev.ap_left)
            else:
                entry.update(reason=ev.reason)
            log.append(entry)
            pending = []
        elif isinstance(ev, (E.GameStarted, E.PostSkipped, E.PostEdited, E.ApClaimed, E.ApAdjusted,
                             E.GameEnded)):
            log.append({"post": getattr(ev, "post", ""), "player": "", "text": "", "action": ev.kind,
                        "outcome": "note", "details": [describe(ev, name, label, rules)]})
        else:
            pending.append(describe(ev, name, label, rules))
    if pending:
        log.append({"post": "", "player": "", "text": "", "action": "", "outcome": "note", "details": pending})
    return {
        "title": scenario.name, "ruleset": "coi", "step": state.step, "faction": faction,
        "started_at": game.started_at if game else "", "clock": clock,
        "ended_at": game.ended_at if game else "",
        "map": map_rows(state, scenario, rules),
        "legend": {t["letter"]: t["name"] for t in rules.terrains.values()},
        "players": players,
        "offers": [{"offer": o.offer, "player": name(o.player),
                    "give": {k: getattr(o, f"give_{k}") for k in ("food", "wood", "iron") if getattr(o, f"give_{k}")},
                    "want": {k: getattr(o, f"want_{k}") for k in ("food", "wood", "iron") if getattr(o, f"want_{k}")},
                    "only_to": o.only_to} for o in state["offers"]],
        "log": log,
        "diagnostics": [d.format() for d in (diagnostics or [])
                        if faction is None or d.faction in (None, faction)],
    }


def _goods(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {g}" for g, n in d.items())


def action_line(e: dict[str, Any]) -> str:
    """A post's action and what came of it, as the action log prints it."""
    if e["outcome"] == "done":
        return f"[{e['post']}] {e['player']}: {e['text']}  -> done ({e['ap']} AP, {e['ap_left']} left)"
    return f"[{e['post']}] {e['player']}: {e['text']}  -> IGNORED: {e['reason']}"


def _log_lines(r: dict[str, Any]) -> list[str]:
    out = []
    for e in r["log"]:
        if e["outcome"] == "note":
            out += [f"  * {d}" for d in e["details"]]
            continue
        out.append("  " + action_line(e))
        out += [f"        {d}" for d in e["details"]]
    return out


def _player_lines(p: dict[str, Any]) -> list[str]:
    units = "; ".join(f"{u['count']} {u['name']} at {u['at']}" for u in p["units"]) or "none"
    return [f"{p['mark']} {p['name']}: {p['ap_now']} AP, {p['food']} food, {p['wood']} wood, "
            f"{p['iron']} iron, {len(p['hexes'])} hexes ({p['points']} points)",
            f"    buildings: {', '.join(p['buildings']) or 'none'}",
            f"    units: {units}",
            f"    allied to: {', '.join(p['allies']) or 'nobody'}"]


def render(r: dict[str, Any], fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(r, indent=1, sort_keys=True, ensure_ascii=False)
    if fmt == "bbcode":
        return _bbcode(r)
    if fmt == "html":
        return _html(r)
    lines = [f"Conquest of Island: {r['title']}  (import {r['step']}, forum clock {r['clock'] or '-'})", ""]
    lines += r["map"]
    lines += ["", "  " + "  ".join(f"{k}={v}" for k, v in r["legend"].items())
              + "   (capital: units there; digit: owner; F fort, P port, C centre)", "", "Players"]
    for p in r["players"]:
        lines += _player_lines(p)
    if r["offers"]:
        lines += ["", "Open trade offers"]
        lines += [f"  {o['offer']}: {o['player']} gives {_goods(o['give'])} for {_goods(o['want'])}"
                  + (f" (only to {o['only_to']})" if o["only_to"] else "") for o in r["offers"]]
    lines += ["", "Actions"] + (_log_lines(r) or ["  (none)"])
    if r["diagnostics"]:
        lines += ["", "Notes for the GM"] + [f"  {d}" for d in r["diagnostics"]]
    return "\n".join(lines) + "\n"


def _bbcode(r: dict[str, Any]) -> str:
    """Forum names and post text go through `bb` (engine.markup.bbcode): a player called
    `[img]...` or a post quoting `[/quote]` stays text in the summary the GM posts."""
    out = [f"[b]Conquest of Island: {bb(r['title'])} - update {r['step']}[/b] (forum clock {bb(r['clock'] or '-')})",
           "", "[code]", *(bb(x) for x in r["map"]), "[/code]", "", "[b]Players[/b]", "[list]"]
    for p in r["players"]:
        first, *rest = _player_lines(p)
        out.append(f"[*][b]{bb(p['name'])}[/b]{bb(first[len(p['mark']) + 1 + len(p['name']):])}")
        out += [bb(x.strip()) for x in rest]
    out += ["[/list]"]
    if r["offers"]:
        out += ["", "[b]Open trade offers[/b]", "[list]"]
        out += [f"[*]{o['offer']}: {bb(o['player'])} gives {bb(_goods(o['give']))} for {bb(_goods(o['want']))}"
                + (f" (only to {bb(o['only_to'])})" if o["only_to"] else "") for o in r["offers"]]
        out += ["[/list]"]
    out += ["", "[b]Actions[/b]", "[list]"]
    for e in r["log"]:
        if e["outcome"] == "note":
            out += [f"[*][i]{bb(d)}[/i]" for d in e["details"]]
        elif e["outcome"] == "done":
            out.append(f"[*]{bb(e['player'])}: {bb(e['text'])} - [color=green]done[/color] ({e['ap']} AP)"
                       + "".join(f"; {bb(d)}" for d in e["details"]))
        else:
            out.append(f"[*]{bb(e['player'])}: {bb(e['text'])} - [color=red]ignored[/color]: {bb(e['reason'])}")
    out.append("[/list]")
    return "\n".join(out) + "\n"


def _html(r: dict[str, Any]) -> str:
    h = esc
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             f"<title>{h(r['title'])} - update {r['step']}</title></head><body>",
             f"<h1>Conquest of Island: {h(r['title'])}</h1><p>Update {r['step']}, forum clock {h(r['clock'] or '-')}</p>",
             "<pre class='map'>" + h("\n".join(r["map"])) + "</pre>",
             "<h2>Players</h2><table><tr><th>Player</th><th>AP</th><th>Food</th><th>Wood</th>"
             "<th>Iron</th><th>Hexes</th><th>Points</th><th>Units</th><th>Allies</th></tr>"]
    for p in r["players"]:
        units = "; ".join(f"{u['count']} {u['name']} at {u['at']}" for u in p["units"])
        parts.append(f"<tr><td>{h(p['name'])}</td><td>{h(p['ap_now'])}</td><td>{h(p['food'])}</td>"
                     f"<td>{h(p['wood'])}</td><td>{h(p['iron'])}</td><td>{len(p['hexes'])}</td>"
                     f"<td>{h(p['points'])}</td><td>{h(units)}</td><td>{h(', '.join(p['allies']))}</td></tr>")
    parts.append("</table><h2>Actions</h2><ol>")
    for e in r["log"]:
        if e["outcome"] == "note":
            parts += [f"<li><em>{h(d)}</em></li>" for d in e["details"]]
            continue
        status = f"done ({h(e['ap'])} AP)" if e["outcome"] == "done" else f"ignored: {h(e['reason'])}"
        details = "".join(f"<br>{h(d)}" for d in e["details"])
        parts.append(f"<li class='{h(e['outcome'])}'>{h(e['player'])}: {h(e['text'])} - {status}{details}</li>")
    parts.append("</ol>")
    if r["diagnostics"]:
        parts.append("<h2>Notes for the GM</h2><pre>" + h("\n".join(r["diagnostics"])) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
