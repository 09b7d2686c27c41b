"""The ARTNES map update: realms with owners and units, each nation's population, salary and
treasury, battles with odds column, shifts and die; as plain text, BBCode, HTML or JSON."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from engine.chronicle import BattleStory, Chronicle, told
from engine.events import EventLog
from engine.markup import bbcode as bb
from engine.markup import html as esc
from engine.orders import Diagnostic
from engine.rulesets.artnes import events as ev
from engine.rulesets.artnes.plan import nation_names
from engine.rulesets.artnes.rules import (
    board_of,
    points_used,
    population_points,
    realm_numbers,
    salary,
    unit_table,
)
from engine.scenario import Scenario
from engine.state import State

UNIT_ORDER = ("knight", "spearman", "galley")
RESULT_WORDS = {"A": "severe attacker losses", "B": "attacker losses", "C": "standoff",
                "D": "defender losses", "E": "severe defender losses"}


def _plural(kind: str, n: int) -> str:
    word = {"knight": "knight", "spearman": "spearman", "galley": "galley", "castle": "castle"}.get(kind, kind)
    if n == 1:
        return f"1 {word}"
    return f"{n} " + {"spearman": "spearmen", "galley": "galleys"}.get(word, word + "s")


def _units_text(pairs) -> str:
    return ", ".join(_plural(k, n) for k, n in pairs if n) or "nothing"


def describe(e: ev.Event, names: dict[int, str]) -> str:
    nm = lambda n: names.get(n, f"Nation {n}") if n else "nobody"  # noqa: E731
    match e:
        case ev.WarDeclared():
            return f"{nm(e.nation)} declares war on {nm(e.other)}."
        case ev.PeaceMade():
            return f"{nm(e.nation)} and {nm(e.other)} make peace."
        case ev.PeaceOffered():
            return f"{nm(e.nation)} offers peace to {nm(e.other)}."
        case ev.Purchased():
            return f"{nm(e.nation)} buys {_plural(e.unit, e.count)} in {e.realm} ({e.cost} gold)."
        case ev.Moved():
            return f"{nm(e.nation)}: {_plural(e.unit, e.count)} {' - '.join(e.path)}."
        case ev.Convoyed():
            if e.done:
                return f"{nm(e.nation)} convoys {_plural(e.unit, e.count)} from {e.src} to {e.dest} across {e.sea}."
            return (f"{nm(e.nation)}: no galley holds {e.sea}; {_plural(e.unit, e.count)} stay in {e.src}.")
        case ev.Contest():
            parts = ", ".join(f"{nm(n)} {k} knight{'s' if k != 1 else ''}" for n, k in zip(e.nations, e.knights, strict=True))
            lot = " (by lot)" if e.by_lot else ""
            return f"{e.realm} is contested ({parts}): {nm(e.winner)} wins{lot}."
        case ev.Bounced():
            why = {"contest": "lost the contest", "swap": "met the enemy on the way"}.get(e.reason, e.reason)
            return f"{nm(e.nation)}: {_plural(e.unit, e.count)} for {e.realm} {why} and stay in {e.stays}."
        case ev.Claimed():
            return f"{nm(e.nation)} claims {e.realm}."
        case ev.Captured():
            return f"{nm(e.nation)} takes the undefended {e.realm} from {nm(e.previous)}."
        case ev.Battle():
            return battle_line(e, names)
        case ev.Retreated():
            if e.dest:
                return f"{nm(e.nation)}: {_plural(e.unit, e.count)} retreat from {e.src} to {e.dest}."
            return f"{nm(e.nation)}: {_plural(e.unit, e.count)} in {e.src} have nowhere to retreat and are destroyed."
        case ev.GalleysLost():
            return f"{nm(e.nation)} loses {_plural('galley', e.count)} with {e.realm}."
        case ev.CastleRazed():
            return f"The castle of {e.realm} is razed."
        case ev.SeaBattle():
            parts = ", ".join(f"{nm(n)} {g} (lost {k})" for n, g, k in zip(e.nations, e.galleys, e.losses, strict=True))
            return f"Sea battle in {e.sea}: {parts}."
        case ev.Starved():
            return f"{nm(e.nation)}: {_plural(e.unit, e.count)} in {e.location} starve."
        case ev.Income():
            return f"{nm(e.nation)} receives {e.salary} gold; treasury {e.treasury}."
    return e.kind


def battle_parts(e: ev.Battle, names: dict[int, str]) -> tuple[str, str, str, str]:
    """(sides, the odds and the die, losses, outcome): the report's battle in four parts."""
    nm = lambda n: names.get(n, f"Nation {n}")  # noqa: E731
    odds = f"{e.attack}:{e.defence}"
    col = f"column {e.base_column}" if e.base_column else "below the table"
    if e.shift:
        col += f", {e.shift} left to {e.column}"
    roll = f"die {e.die}" if e.die else "no roll"
    outcome = f"{nm(e.attacker)} takes {e.realm}" if e.realm_lost else f"{nm(e.defender)} holds {e.realm}"
    return (f"{nm(e.attacker)} ({_units_text(e.attacker_units)}) attacks "
            f"{nm(e.defender)} ({_units_text(e.defender_units)})",
            f"odds {odds}, {col}, {roll}: {e.result} ({RESULT_WORDS.get(e.result, '')})",
            f"Losses: attacker {_units_text(e.attacker_losses)}, "
            f"defender {_units_text(e.defender_losses)}", outcome)


def battle_line(e: ev.Battle, names: dict[int, str]) -> str:
    sides, odds, losses, outcome = battle_parts(e, names)
    return f"Battle of {e.realm}: {sides}; {odds}. {losses}. {outcome}."


PLACE_FIELDS = ("realm", "src", "dest", "stays", "sea", "location")
NATION_FIELDS = ("nation", "other", "attacker", "defender", "previous", "winner")


def chronicle(state: State, events: EventLog, scenario: Scenario) -> Chronicle:
    """The year's events as the map update tells them (engine.chronicle), battles as
    stories: sides, the odds and the die, losses, outcome."""
    names = nation_names(scenario, state)
    board = scenario.map.board()

    def cell(place: str) -> int | None:
        try:
            return board.parse(place)
        except Exception:  # noqa: BLE001 (a name the map no longer has)
            return None

    out = Chronicle()
    for r in events.records:
        e = r.event
        places = [getattr(e, f) for f in PLACE_FIELDS if getattr(e, f, "")]
        places += list(getattr(e, "path", ()) or ())
        cells = tuple(dict.fromkeys(c for c in map(cell, places) if c is not None))
        nations = {getattr(e, f) for f in NATION_FIELDS if getattr(e, f, 0)}
        nations |= set(getattr(e, "nations", ()) or ())
        battle = None
        if isinstance(e, (ev.Battle, ev.SeaBattle)):
            battle = len(out.battles)
            if isinstance(e, ev.Battle):
                sides, odds, losses, outcome = battle_parts(e, names)
                story = BattleStory(f"Battle of {e.realm}", [f"{sides}.", odds[:1].upper() + odds[1:] + ".",
                                                             f"{losses}.", f"{outcome}."],
                                    sides=(e.attacker, e.defender),
                                    winner=e.attacker if e.realm_lost else e.defender, kind="land")
            else:
                left = [n for n, g, k in zip(e.nations, e.galleys, e.losses, strict=True) if g > k]
                story = BattleStory(f"Sea battle in {e.sea}", [describe(e, names)],
                                    sides=tuple(e.nations), kind="sea",
                                    winner=left[0] if len(left) == 1 else 0)
                story.lines.append(f"{names.get(story.winner, '?')} holds {e.sea}." if story.winner
                                   else f"Nobody holds {e.sea}.")
            story.cell, story.place = (cells[0] if cells else None), (places[0] if places else "")
            out.battles.append(story)
        out.told.append(told(r, describe(e, names), nations, cells, places[0] if places else "",
                             battle))
    return out


def year_of(scenario: Scenario, step: int) -> int:
    """The year of the map update after `step` (turn 1 plays `start_year`, so its update
    is for the next year)."""
    return int(scenario.options.start_year) + step


def build(state: State, events: EventLog, faction: int | None, scenario: Scenario,
          diagnostics: list[Diagnostic] | None = None) -> dict[str, Any]:
    board = board_of(scenario.map)
    units = unit_table(scenario.catalogs)
    names = nation_names(scenario, state)
    owners = {r.realm: r for r in state["realms"]}
    here: dict[str, dict[int, dict[str, int]]] = {}
    for u in state["units"]:
        here.setdefault(u.location, {}).setdefault(u.nation, {})[u.kind] = u.count

    def stack(place: str) -> list[dict[str, Any]]:
        return [{"nation": n, "name": names.get(n, f"Nation {n}"),
                 **{k: kinds.get(k, 0) for k in UNIT_ORDER}}
                for n, kinds in sorted(here.get(place, {}).items())]

    realms = []
    for name in board.realms:
        row = owners.get(name)
        castle = bool(row and row.castle)
        t, p, g = realm_numbers(board, name, castle)
        owner = row.owner if row else 0
        realms.append({"name": name, "owner": owner, "owner_name": names.get(owner, "") if owner else "",
                       "terrain": t, "population": p, "gold": g, "castle": castle,
                       "coastal": board.is_coastal(name), "units": stack(name)})
    seas = [{"name": s, "units": stack(s)} for s in board.seas]
    nations = []
    for n in sorted(state["nations"], key=lambda x: x.nation):
        pp = population_points(board, state, n.nation)
        used = points_used(state, n.nation, units)
        wars = sorted(names.get(w.other if w.nation == n.nation else w.nation, "?")
                      for w in state["wars"] if n.nation in (w.nation, w.other))
        nations.append({"nation": n.nation, "name": names.get(n.nation, f"Nation {n.nation}"),
                        "realms": sum(1 for r in state["realms"] if r.owner == n.nation),
                        "population": pp, "used": used, "left": pp - used,
                        "salary": n.salary, "next_salary": salary(board, state, n.nation),
                        "treasury": n.gold, "wars": wars})
    records = events.for_faction(faction)
    battles = [r.event.to_dict() | {"text": battle_line(r.event, names)}
               for r in records if isinstance(r.event, ev.Battle)]
    news = [describe(r.event, names) for r in records
            if not isinstance(r.event, (ev.Battle, ev.Income))]
    diags = [d.to_dict() for d in (diagnostics or []) if faction is None or d.faction in (None, faction)]
    return {"ruleset": "artnes", "game": scenario.name, "turn": state.step,
            "year": year_of(scenario, state.step), "faction": faction,
            "faction_name": names.get(faction, "") if faction else "",
            "nations": nations, "realms": realms, "seas": seas, "battles": battles,
            "sea_battles": [r.event.to_dict() for r in records if isinstance(r.event, ev.SeaBattle)],
            "news": news, "diagnostics": diags}


# ---- renderers ---------------------------------------------------------------------------

def _units_cell(stacks: list[dict[str, Any]]) -> str:
    parts = []
    for s in stacks:
        kinds = ", ".join(_plural(k, s[k]) for k in UNIT_ORDER if s.get(k))
        parts.append(f"{s['name']}: {kinds}")
    return "; ".join(parts)


def _realm_line(r: dict[str, Any]) -> tuple[str, str, str, str]:
    stats = f"{r['terrain']}-{r['population']}-{r['gold']}" + (" castle" if r["castle"] else "")
    return r["name"], stats, r["owner_name"] or "neutral", _units_cell(r["units"])


def _held(rep: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in rep["realms"] if r["owner"] or r["units"] or r["castle"]]


def _neutral(rep: dict[str, Any]) -> str:
    """Bare neutral realms in one line: `Name t-p-g`."""
    return ", ".join(f"{r['name']} {r['terrain']}-{r['population']}-{r['gold']}" for r in rep["realms"]
                     if not (r["owner"] or r["units"] or r["castle"]))


def _title(rep: dict[str, Any]) -> str:
    who = f" — {rep['faction_name']}" if rep.get("faction_name") else ""
    return f"ARTNES 2: {rep['game']} — map update {rep['year']} AD (turn {rep['turn']}){who}"


def _nation_rows(rep: dict[str, Any]) -> list[list[str]]:
    return [[n["name"], str(n["realms"]), f"{n['population']} ({n['left']} left)", str(n["salary"]),
             str(n["treasury"]), ", ".join(n["wars"]) or "-"] for n in rep["nations"]]


NATION_HEAD = ["Nation", "Realms", "Population", "Salary", "Treasury", "At war with"]


def render_text(rep: dict[str, Any]) -> str:
    out = [_title(rep), "=" * min(78, len(_title(rep))), "", "NATIONS"]
    rows = [NATION_HEAD] + _nation_rows(rep)
    widths = [max(len(r[i]) for r in rows) for i in range(len(NATION_HEAD))]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    if rep["battles"]:
        out += ["", "BATTLES"] + [f"  {b['text']}" for b in rep["battles"]]
    if rep["news"]:
        out += ["", "EVENTS"] + [f"  {line}" for line in rep["news"]]
    out += ["", "MAP (realm  terrain-population-gold  owner  units)"]
    for r in _held(rep):
        name, stats, owner, units = _realm_line(r)
        out.append(f"  {name:<22} {stats:<12} {owner:<14} {units}".rstrip())
    if (free := _neutral(rep)):
        # keep each `Name t-p-g` on one line: wrap on the gaps between realms only
        lines = textwrap.wrap(free.replace(" ", "\xa0").replace(",\xa0", ", "), 76,
                              initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
        out += ["", "NEUTRAL REALMS", *(line.replace("\xa0", " ") for line in lines)]
    seas = [s for s in rep["seas"] if s["units"]]
    if seas:
        out += ["", "SEAS"] + [f"  {s['name']:<22} {_units_cell(s['units'])}" for s in seas]
    if rep["diagnostics"]:
        out += ["", "ORDER PROBLEMS"]
        out += [f"  line {d['line']}: {d['severity']} ({d['kind']}): {d['message']}" for d in rep["diagnostics"]]
    return "\n".join(out) + "\n"


def render_bbcode(rep: dict[str, Any]) -> str:
    """Every string from the game goes through `bb` (engine.markup.bbcode): a nation or
    realm named `[url=...]` stays text on the forum."""
    out = [f"[size=150][b]{bb(_title(rep))}[/b][/size]", "", "[b]Nations[/b]", "[table]",
           "[tr]" + "".join(f"[td][b]{h}[/b][/td]" for h in NATION_HEAD) + "[/tr]"]
    out += ["[tr]" + "".join(f"[td]{bb(c)}[/td]" for c in r) + "[/tr]" for r in _nation_rows(rep)]
    out.append("[/table]")
    if rep["battles"]:
        out += ["", "[b]Battles[/b]", "[list]"]
        for b in rep["battles"]:
            out.append(f"[*]{bb(b['text'])} [i](odds {b['attack']}:{b['defence']}, column "
                       f"{b['base_column'] or '-'}, shift {b['shift']}, fought on {bb(b['column'])}, "
                       f"die {b['die'] or '-'}, result {bb(b['result'])})[/i]")
        out.append("[/list]")
    if rep["news"]:
        out += ["", "[b]Events[/b]", "[list]"] + [f"[*]{bb(line)}" for line in rep["news"]] + ["[/list]"]
    out += ["", "[b]Map update[/b]", "[table]",
            "[tr][td][b]Realm[/b][/td][td][b]T-P-G[/b][/td][td][b]Owner[/b][/td][td][b]Units[/b][/td][/tr]"]
    for r in _held(rep):
        out.append("[tr]" + "".join(f"[td]{bb(c)}[/td]" for c in _realm_line(r)) + "[/tr]")
    out.append("[/table]")
    if (free := _neutral(rep)):
        out += ["", f"[b]Neutral realms[/b]: {bb(free)}"]
    seas = [s for s in rep["seas"] if s["units"]]
    if seas:
        out += ["", "[b]Seas[/b]", "[list]"] + [f"[*]{bb(s['name'])}: {bb(_units_cell(s['units']))}"
                                                for s in seas]
        out.append("[/list]")
    if rep["diagnostics"]:
        out += ["", "[b]Order problems[/b]", "[list]"]
        out += [f"[*]line {bb(d['line'])}: {bb(d['message'])}" for d in rep["diagnostics"]] + ["[/list]"]
    return "\n".join(out) + "\n"


def render_html(rep: dict[str, Any]) -> str:
    e = esc

    def table(head: list[str], rows: list[list[str]]) -> str:
        h = "".join(f"<th>{e(c)}</th>" for c in head)
        body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
        return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"

    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(_title(rep))}</title>"
             "<style>table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}</style>"
             f"</head><body><h1>{e(_title(rep))}</h1><h2>Nations</h2>",
             table(NATION_HEAD, _nation_rows(rep))]
    if rep["battles"]:
        parts.append("<h2>Battles</h2><ul>" + "".join(f"<li>{e(b['text'])}</li>" for b in rep["battles"]) + "</ul>")
    if rep["news"]:
        parts.append("<h2>Events</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in rep["news"]) + "</ul>")
    parts.append("<h2>Map update</h2>")
    parts.append(table(["Realm", "T-P-G", "Owner", "Units"], [list(_realm_line(r)) for r in _held(rep)]))
    if (free := _neutral(rep)):
        parts.append(f"<p><b>Neutral realms</b>: {e(free)}</p>")
    seas = [s for s in rep["seas"] if s["units"]]
    if seas:
        parts.append("<h2>Seas</h2>" + table(["Sea", "Galleys"], [[s["name"], _units_cell(s["units"])] for s in seas]))
    if rep["diagnostics"]:
        parts.append("<h2>Order problems</h2><ul>" + "".join(
            f"<li>line {e(d['line'])}: {e(d['message'])}</li>" for d in rep["diagnostics"]) + "</ul>")
    parts.append("</body></html>\n")
    return "".join(parts)


def render(rep: dict[str, Any], fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(rep, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if fmt == "bbcode":
        return render_bbcode(rep)
    if fmt == "html":
        return render_html(rep)
    if fmt == "text":
        return render_text(rep)
    raise ValueError(f"unknown report format {fmt!r}; use text, bbcode, html or json")
