"""The clan's status report ([POST-TURN STATUS REPORT], [HEX REPORTS], [CITY REPORTS],
[SPOTTING REPORTS]): what its turn did pulse by pulse, its stockpiles and the income estimate,
the market, its convoys' statistics, the Top Clans list, the hexes and cities it holds or met
this turn (those taken this turn marked `*`, the book's bold), the convoys its cities spot,
and what it heard on the radio.

A clan sees only its own events, its own things and what it met; other clans' convoys appear
where its cities spotted them when its turn ended (the book's "ghost images"). The GM's
report (faction None) lists every clan's stockpiles and every event.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from engine.events import EventLog
from engine.orders import Diagnostic
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import costs
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.report_words import sentence
from engine.rulesets.cc.turn.espionage import spy_views
from engine.rulesets.cc.turn.income import production
from engine.rulesets.cc.turn.plague import plague_known
from engine.scenario import Scenario
from engine.state import State

STOCKS = ("money", "food", "fuel", "parts", "vaccine", "troops", "rifles", "grenades", "rockets",
          "claymores", "bombs", "agents")


def build_report(state: State, events: EventLog, faction: int | None, scenario: Scenario,
                 diagnostics: list[Diagnostic]) -> dict[str, Any]:
    board = scenario.map.grid

    def label(c: int | None) -> str:
        return board.label(c, "ccrr") if c is not None and c >= 0 else ""

    world = state["world"][0] if state["world"] else None
    out: dict[str, Any] = {"game": scenario.name, "game_turn": world.game_turn if world else 0,
                           "clan": faction}
    records = events.for_faction(faction)
    out["results"] = [{"phase": r.phase, "kind": r.event.kind, "text": sentence(r.event, label)}
                      for r in records if r.event.kind != "cc.news"]
    news = [(k, c, t) for r in records if r.event.kind == "cc.news" for k, c, t in r.event.items]
    out["radio"] = [{"kind": k, "hex": label(c), "text": t} for k, c, t in news if k != "passing"]
    # [MOVEMENT MODES]: a convoy not in recon mode entering the clan's hex is reported by its
    # residents; the list by hex beside the spotting report (only what its own hexes saw)
    out["passing"] = [{"hex": label(c), "text": t} for k, c, t in news if k == "passing"]
    # the checker's findings by line, without the GM's file path: errors were not carried out
    # (engine/orders/screen.py), warnings say what the turn may still refuse
    out["problems"] = [_finding(d) for d in diagnostics if _severity(d) == "error"]
    out["warnings"] = [_finding(d) for d in diagnostics if _severity(d) == "warning"]
    out["top_clans"] = _top_clans(state)
    if world is not None and world.finished:
        out["game_over"] = {"winner": world.winner, "game_turn": world.game_turn - 1}
    out["prices"] = {p.item: p.price for p in sorted(state["prices"], key=lambda p: p.item)}
    # vehicles sell at the book's fixed prices (BUY): the market lists them too
    out["vehicle_prices"] = {str(v["id"]): int(v["cost"]) for v in scenario.catalogs["vehicles"]}
    if faction is None:
        out["clans"] = [_stocks(c) | {"clan": c.number, "name": c.name, "turns": c.turns_run,
                                      "dropped": c.dropped} for c in sorted(state["clans"], key=lambda c: c.number)]
        return out
    clan = next((c for c in state["clans"] if c.number == faction), None)
    if clan is None:
        out["missing"] = f"clan {faction} is not in this game"
        return out
    book = Book(scenario.catalogs)
    out |= {"name": clan.name, "turn": clan.turns_run, "status": _stocks(clan),
            "income_estimate": production(state, scenario.catalogs, scenario.options, faction)}
    out["due"] = due_date(clan.last_turn_at, scenario)
    out["convoys"] = _convoys(state, book, faction, label)
    out["hexes"], out["cities"] = _places(state, scenario, faction, label)
    out["spotted"] = _spotted(state, book, faction, label, scenario)
    out["clans_met"] = _clans_met(state, faction, out)
    if not (world is not None and world.finished) and not clan.dropped:
        from engine.rulesets.cc.orders_template import orders_template

        out["orders_sheet"] = orders_template(state, faction, scenario)
    return out


def due_date(last_turn_at: str, scenario: Scenario) -> str:
    """X4: the clan's next turn runs no sooner than the interval after its last one; the
    date (UTC) the report gives as when its next orders may run. "" before its first turn."""
    days = int(scenario.options["min_days_between_turns"])
    if not last_turn_at:
        return ""
    try:
        t = datetime.fromisoformat(last_turn_at.replace("Z", "+00:00"))
    except ValueError:
        return ""
    return (t + timedelta(days=days)).strftime("%Y-%m-%d %H:%M UTC")


def _clans_met(state: State, clan: int, rep: dict[str, Any]) -> list[dict[str, Any]]:
    """[P10]: the clans whose hexes, cities or named convoys the clan met this turn, with their
    name, phone number (if they show it) and slogan; not their address (reading X130)."""
    met = {h["owner"] for h in rep["hexes"]} | {c["owner"] for c in rep["cities"]}
    met |= {s["owner"] for s in rep["spotted"] if s["owner"] is not None}
    out = []
    for c in sorted(state["clans"], key=lambda c: c.number):
        if c.number in met and c.number != clan:
            out.append({"clan": c.number, "name": c.name, "phone": c.phone if c.phone_on else "",
                        "slogan": c.slogan})
    return out


def _top_clans(state: State) -> dict[str, list[dict[str, Any]]]:
    """The lists recorded at the last game turn's end; before the first, popularity now."""
    names = {c.number: c.name for c in state["clans"]}
    last = max((t.game_turn for t in state["top_clans"]), default=None)
    if last is None:
        rows = sorted(state["clans"], key=lambda c: (-c.popularity, c.number))[:10]
        return {"popularity": [{"clan": c.number, "name": c.name, "value": c.popularity} for c in rows]}
    out: dict[str, list[dict[str, Any]]] = {}
    for t in sorted(state["top_clans"], key=lambda t: (t.ranking != "popularity", t.ranking, t.rank)):
        if t.game_turn == last:
            out.setdefault(t.ranking, []).append({"clan": t.clan, "name": names.get(t.clan, ""),
                                                  "value": t.value})
    return out


def _stocks(clan: Any) -> dict[str, int]:
    out = {k: getattr(clan, k) for k in STOCKS if k != "food"}
    return {"food": clan.food_tenths // 10, **out}


def _convoys(state: State, book: Book, clan: int, label) -> list[dict[str, Any]]:
    out = []
    owner = next((c.name for c in state["clans"] if c.number == clan), "")
    fleets = _fleets(state)
    for cv in sorted((c for c in state["convoys"] if c.owner == clan), key=lambda c: c.number):
        fleet = fleets.get(cv.id, {})
        experts = sorted(e.code for e in state["experts"] if e.convoy == cv.id)
        cap = cs.troop_capacity(book, fleet, experts)
        out.append({
            "number": cv.number, "name": cv.name or f"{owner} #{cv.number}", "type": cv.type, "hex": label(cv.cell),
            "mode": cv.mode, "hidden": cv.hidden, "guarding": cv.guarding, "patrolling": cv.patrolling,
            "vehicles": {_vehicle_word(book, v, n): n for v, n in sorted(fleet.items())}, "troops": cv.troops, "troop_capacity": cap,
            "rifles": cv.rifles, "grenades": cv.grenades, "rockets": cv.rockets, "bombs": cv.bombs,
            "strength": cs.combat_strength(book, fleet, cv.troops, cv.rockets, experts),
            "morale": cv.morale, "training": cv.training, "health": cv.health,
            "fuel_cost": cs.fuel_rate(book, fleet, experts), "kill": cv.kill_mode,
            "cargo": cv.cargo, "cargo_type": cv.cargo_type,
            "cargo_capacity": cs.cargo_capacity(book, fleet, experts, cv.mode == "empty"),
            "size": cs.size_category(book, cs.size(book, fleet)), "experts": experts})
    return out


def _fleets(state: State) -> dict[int, dict[str, int]]:
    """Vehicles by type for every convoy (Convoy.id), from one pass over the vehicle table."""
    out: dict[int, dict[str, int]] = {}
    for v in state["vehicles"]:
        fleet = out.setdefault(v.convoy, {})
        fleet[v.type] = fleet.get(v.type, 0) + v.count
    return out


def _vehicle_word(book: Book, vid: str, n: int) -> str:
    row = book.vehicles.get(vid, {})
    word = (row.get("plural") if n != 1 else row.get("name")) or vid
    return word.lower()


def _places(state: State, scenario: Scenario, clan: int, label) -> tuple[list, list]:
    now = next((c.turns_run for c in state["clans"] if c.number == clan), 0)  # the turn just run
    met = {s.cell for s in state["seen"] if s.clan == clan and s.game_turn == now}
    gmap, terrain = scenario.map, scenario.catalogs["terrain"].by("id")
    roads: dict[int, list[int]] = {}
    for r in state["roads"]:
        roads.setdefault(r.cell, []).append(r.to)
        roads.setdefault(r.to, []).append(r.cell)
    hexes = []
    for h in sorted(state["hexes"], key=lambda h: h.cell):
        if h.owner != clan and h.cell not in met:
            continue
        t = terrain.get(gmap.terrain_at(h.cell), {})
        hexes.append({"hex": label(h.cell), "new": h.owner == clan and h.conquered_turn == now,
                      "terrain": t.get("abbr", "?"), "owner": h.owner, "defense": h.defense,
                      "troops": h.troops, "value": h.value, "food": h.food, "fuel": h.fuel,
                      "parts": h.parts, "vaccine": h.vaccine, "special": h.special, "custom": h.custom,
                      "roads": " ".join(sorted(label(c) for c in roads.get(h.cell, [])))})
    hostile = {(x.cell, x.clan) for x in state["hostile"]}
    bans = {(r.clan, r.other) for r in state["relations"] if r.ban}
    ban_all = {c.number for c in state["clans"] if c.ban_all}
    buildings: dict[int, list[str]] = {}
    for b in state["buildings"]:
        buildings.setdefault(b.cell, []).append(b.code)
    cities = []
    plagued = plague_known(state, clan, now)  # cc-cycle: where its Hospital or a Doctor found it
    views = spy_views(state, clan, now)  # cc-house (K24): a spy's report beside a counter-spy
    for c in sorted(state["cities"], key=lambda c: c.cell):
        if c.owner != clan and c.cell not in met:
            continue
        if c.cell in views:
            v = views[c.cell]
            c = replace(c, fortification=v.fortification, troops=v.troops, claymores=v.claymores)
            buildings[c.cell] = v.buildings.split()
        status = ("Owned" if c.owner == clan else "Hostile" if (c.cell, clan) in hostile else
                  "Banned" if c.owner and ((c.owner, clan) in bans or c.owner in ban_all) else "Friendly")
        cities.append({"hex": label(c.cell), "new": c.owner == clan and c.conquered_turn == now,
                       "name": c.name.upper() if c.major else c.name, "owner": c.owner,
                       "value": c.value, "population": c.population, "fortification": c.fortification,
                       "troops": c.troops, "claymores": c.claymores, "produces": c.produces,
                       "needs": c.needs, "expert": c.guild or "None", "status": status,
                       "buildings": " ".join(sorted(buildings.get(c.cell, []))),
                       "plague": c.cell in plagued})
    return hexes, cities


def spotted_convoys(state: State, book: Book, clan: int, scenario: Scenario) -> list[tuple[Any, bool, bool]]:
    """[SPOTTING REPORTS]: (convoy, owner named, size shown) for each foreign convoy within an
    owned city's range (X56: allies too); owners are named within range-2, sizes shown within
    range-4 of a city with a Spotting Tower."""
    grid = scenario.map.grid
    towers = {b.cell for b in state["buildings"] if b.code == "SPO"}
    now = next((c.turns_run for c in state["clans"] if c.number == clan), 0)
    blind = {m.cell for m in state["turn_marks"]  # cc-cycle: lookouts a spy blinded (SABOTAGE)
             if m.clan == clan and m.game_turn == now and m.kind == "sabotage spotting"}
    mine = [c for c in state["cities"] if c.owner == clan and c.cell not in blind]
    # cc-cycle (PLANT): a spy spots from its city as if the clan owned it, at half range where
    # the owner's counter-spy hides
    spies = {(s.cell, s.clan) for s in state["spies"]}
    halved = {c.cell for c in state["cities"] if (c.cell, c.owner) in spies}
    mine += [c for c in state["cities"] if c.owner != clan and (c.cell, clan) in spies]
    out = []
    for cv in sorted(state["convoys"], key=lambda c: c.id):
        if cv.owner == clan or not mine:
            continue
        seen = named = sized = False
        for city in mine:
            reach, name_reach, size_reach = costs.spotting(book, city.fortification, city.cell in towers)
            if city.owner != clan and city.cell in halved:
                reach, name_reach, size_reach = reach // 2, name_reach // 2, size_reach // 2
            d = grid.distance(city.cell, cv.cell)
            seen, named, sized = seen or d <= reach, named or d <= name_reach, sized or d <= size_reach
        if seen:
            out.append((cv, named, sized))
    return out


def _spotted(state: State, book: Book, clan: int, label, scenario: Scenario) -> list[dict[str, Any]]:
    out, fleets = [], _fleets(state)
    for cv, named, sized in spotted_convoys(state, book, clan, scenario):
        size = cs.size_category(book, cs.size(book, fleets.get(cv.id, {}))) if sized else ""
        out.append({"hex": label(cv.cell), "owner": cv.owner if named else None, "size": size})
    return sorted(out, key=lambda s: s["hex"])


# ---- rendering (report_text.py: the text's sections; report_html.py: the page) ----------------

def render(report: dict[str, Any], fmt: str = "text") -> str:
    from engine.rulesets.cc.report_html import render_html
    from engine.rulesets.cc.report_text import render_text

    if fmt == "json":
        return json.dumps(report, indent=1, ensure_ascii=False, sort_keys=True)
    if fmt == "html":
        return render_html(report)
    if fmt != "text":
        raise ValueError(f"unknown report format {fmt!r}; use text, html or json")
    return render_text(report)


def _severity(d: Any) -> str:
    sev = getattr(d, "severity", "error")
    return getattr(sev, "value", sev)


def _finding(d: Any) -> str:
    """`line 8: message` and the line as written, the way a player finds it on the sheet."""
    if not hasattr(d, "message"):
        return str(d)
    where = f"line {d.line}: " if d.line else ""
    return f"{where}{d.message}" + (f"\n    {d.text.strip()}" if d.text.strip() else "")
