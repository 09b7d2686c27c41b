"""A faction's Atlantis turn report as plain data: only what the faction may see.

The book (Report Format, Regions, Structures, Stealth and Observation): the regions where
the faction has units, each with its economy, its exits, the units the faction's units
there can see (engine/rulesets/atlantis/sight.py) and its structures with the units inside;
other factions' units show their large items only, their faction only when the
faction's Observation is higher than their Stealth; own units show everything. Then the
events of the month the faction may see, the errors of its orders, skill/item/object
reports, attitudes, unclaimed silver and the orders template.

`faction=None` is the GM's report: every region with units, everything named.
The text, HTML and JSON renderings are in report_text.py and report_html.py.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from engine.chronicle import Chronicle, cells_of, told
from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet, Severity
from engine.rulesets.atlantis import report_text, rules, sight
from engine.rulesets.atlantis.catalog import level_of
from engine.rulesets.atlantis.events import Battle, OrderFailed, OrderNotBuilt
from engine.rulesets.atlantis.lore import (
    ShowItem,
    ShowObject,
    ShowSkill,
    item_report,
    object_report,
    skill_report,
)
from engine.rulesets.atlantis.sentences import Names, deed, refusal, sentence
from engine.rulesets.atlantis.state import ATTITUDES
from engine.rulesets.atlantis.world import DIRECTION_NAMES
from engine.scenario import Scenario
from engine.state import State

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
FLAG_WORDS = (("avoid", "avoiding"), ("behind", "behind"), ("hold", "holding"),
              ("noaid", "receiving no aid"))
LAYOUTS = ("server", "book")


def date(month: int) -> tuple[str, int]:
    """(month name, year) of a state that has run `month` turns: turn 0 is January, Year 1."""
    return MONTHS[month % 12], month // 12 + 1


class _Index:
    """The state's tables indexed once per report (or once for all reports of a turn)."""

    def __init__(self, state: State, scenario: Scenario) -> None:
        self.state, self.scenario = state, scenario
        self.area_names: dict[int, str] | None = None
        self.ocean_name = scenario.options.values.get("ocean_name", "Atlantis Ocean")
        cats = scenario.catalogs
        self.items = cats["items"].by("name")
        self.skills = cats["skills"].by("name")
        self.skill_order = {name: i for i, name in enumerate(self.skills)}
        self.objects = cats["objects"].by("name")
        self.factions = {f.number: f for f in state["factions"]}
        self.regions = {r.cell: r for r in state["regions"]}
        self.products: dict[int, list] = defaultdict(list)
        for p in state["products"]:
            self.products[p.cell].append(p)
        self.unit_items: dict[int, dict[str, int]] = defaultdict(dict)
        for r in state["unit_items"]:
            if r.count:
                self.unit_items[r.unit][r.item] = self.unit_items[r.unit].get(r.item, 0) + r.count
        self.unit_days: dict[int, dict[str, int]] = defaultdict(dict)
        for r in state["unit_skills"]:
            self.unit_days[r.unit][r.skill] = r.days
        self.units = sorted(state["units"], key=lambda u: (u.seq, u.number))
        self.names = {u.number: u.name or "Unit" for u in self.units}
        self.by_cell: dict[int, list] = defaultdict(list)
        self.by_faction: dict[int, list] = defaultdict(list)
        for u in self.units:
            self.by_cell[u.cell].append(u)
            self.by_faction[u.faction].append(u)
        self.structures: dict[int, list] = defaultdict(list)
        for s in sorted(state["structures"], key=lambda s: s.number):
            self.structures[s.cell].append(s)
        self._as_template: bool | None = None  # units_as_template, when first asked
        self.known: dict[int | None, dict[str, int]] = defaultdict(dict)  # skill reports had
        for k in state["known_skills"]:
            self.known[k.faction][k.skill] = k.level
        self.attitudes: dict[int, list] = defaultdict(list)  # each faction's, by the other
        for a in sorted(state["attitudes"], key=lambda a: a.other):
            self.attitudes[a.faction].append(a)
        self.repeats: dict[int, list] = defaultdict(list)
        for r in sorted(state["repeat_orders"], key=lambda r: (r.unit, r.seq)):
            self.repeats[r.unit].append(r.text)
        self.levels = {u.number: {k: level_of(d, u.men) for k, d in self.unit_days[u.number].items()}
                       for u in self.units}
        self.stealth = {u.number: sight.stealth(self.levels[u.number], self.unit_items[u.number],
                                                u.men) for u in self.units}
        self.best_obs = sight.best_observations(
            (u.faction, u.cell, sight.observation(self.levels[u.number], self.unit_items[u.number]))
            for u in self.units)
        self._fought: tuple[EventLog, int, frozenset[tuple[int, int]]] | None = None
        self._exits: dict[int, list[dict[str, Any]]] = {}
        self._titles: dict[int, tuple[str, int, int, str]] = {}
        report_text.forget_heads()  # laid out for the exits of another index: not needed now

    def fought(self, events: EventLog | None) -> frozenset[tuple[int, int]]:
        """`_fought` of the turn's log, walked once for all the factions' reports rather
        than once per report (it reads every event); walked again for another or a longer log."""
        if events is None:
            return frozenset()
        if self._fought is None or self._fought[0] is not events \
                or self._fought[1] != len(events.records):
            self._fought = (events, len(events.records), frozenset(_fought(events)))
        return self._fought[2]

    def exits(self, cell: int) -> list[dict[str, Any]]:
        """A region's exits as the reports list them: the same for every faction that sees
        the region, so made once and shared by their reports (which only read them)."""
        out = self._exits.get(cell)
        if out is None:
            grid = self.scenario.map.grid
            out = self._exits[cell] = [{"direction": word, **self.title(other)}
                                       for code, word in DIRECTION_NAMES.items()
                                       if (other := grid.step(cell, code)) is not None]
        return out

    def faction_name(self, number: int) -> str:
        f = self.factions.get(number)
        return f.name if f is not None and f.name else f"Faction {number}"

    def sentence_names(self, layout: str = "server") -> Names:
        """What sentences.py needs to name units, factions, places and items."""

        def place(cell: int) -> str:
            t = self.title(cell)
            if layout == "book":
                return f"{t['terrain']} in {t['area']} ({t['x']},{t['y']})"
            return f"{t['terrain']} ({t['x']},{t['y']}) in {t['area']}"
        return Names(self.names, self.faction_name, place,
                     {k: r["plural"] for k, r in self.items.items()})

    def units_as_template(self) -> bool:
        """Whether each report lists a faction's own units, region by region, in the order
        template_data does: every unit in a structure finds it in its region, and no
        region has two structures of one number (the report lists a structure's units
        under each). Then the template can be made from the report's data."""
        if self._as_template is None:
            numbers = {c: [s.number for s in ss] for c, ss in self.structures.items()}
            self._as_template = all(len(set(n)) == len(n) for n in numbers.values()) and all(
                u.structure in numbers.get(u.cell, ()) for u in self.units if u.structure)
        return self._as_template

    def title(self, cell: int) -> dict[str, Any]:
        """Terrain, Atlantis coordinates and area of a region (world.area_name's answer,
        from a table of the map's areas made once: a 1,000-faction map has over a
        thousand areas to search otherwise)."""
        got = self._titles.get(cell)
        if got is None:  # a region is named in many reports (and as many regions' exit)
            gmap = self.scenario.map
            if self.area_names is None:
                self.area_names = {}
                for a in gmap.areas.values():
                    for c in a.cells:
                        self.area_names.setdefault(c, a.name)
            x, y = gmap.grid.atlantis(cell)
            got = self._titles[cell] = (gmap.terrain_at(cell), x, y,
                                        self.area_names.get(cell, self.ocean_name))
        return {"terrain": got[0], "x": got[1], "y": got[2], "area": got[3]}


def _items(ix: _Index, unit, own: bool) -> list[dict[str, Any]]:
    """The unit's men first, then its items in catalog order; others see large items only."""
    out = []
    if unit.men:
        man = ix.items.get("man", {"plural": "men", "code": "MAN"})
        out.append({"item": "man", "count": unit.men, "name": "man", "plural": man["plural"],
                    "code": man["code"]})
    carried = ix.unit_items.get(unit.number, {})
    order = [n for n in ix.items if n in carried] + sorted(n for n in carried if n not in ix.items)
    for name in order:
        row = ix.items.get(name)
        if row is not None and row["kind"] == "man":
            continue
        if not own and (row is None or row["small"] or row["weight"] == 0):
            continue  # the book: silver and zero-weight items are not seen on others
        out.append({"item": name, "count": carried[name], "name": name,
                    "plural": row["plural"] if row else name, "code": row["code"] if row else ""})
    return out


def _unit(ix: _Index, unit, viewer: int | None, named: bool) -> dict[str, Any]:
    own = viewer is None or unit.faction == viewer
    d: dict[str, Any] = {
        "number": unit.number, "name": unit.name or "Unit", "own": unit.faction == viewer,
        "faction": unit.faction if (own or named) else None,
        "faction_name": ix.faction_name(unit.faction) if (own or named) else None,
        "guard": unit.guard, "structure": unit.structure,
        "description": unit.description,
        "items": _items(ix, unit, own),
    }
    if own:
        d["flags"] = [word for attr, word in FLAG_WORDS if getattr(unit, attr)]
        if unit.reveal:
            d["flags"].append(f"revealing {unit.reveal}")
        if unit.autotax:
            d["flags"].append("taxing")
        if unit.consume:
            d["flags"].append(f"consuming {unit.consume}'s food")
        load = rules.load(unit.men, ix.unit_items.get(unit.number, {}), ix.items)
        d["weight"] = load.total
        d["capacity"] = [0, load.ride_capacity, load.walk_capacity, 0]
        men = max(unit.men, 1)
        d["skills"] = [
            {"skill": s, "code": ix.skills[s]["code"] if s in ix.skills else "",
             "level": ix.levels[unit.number].get(s, 0), "days": days // men}
            for s, days in sorted(ix.unit_days[unit.number].items(),
                                  key=lambda kv: (ix.skill_order.get(kv[0], 999), kv[0]))
            if days > 0]
        d["combat_spell"] = unit.combat_spell
        d["orders"] = [t if t.startswith("@") else "@" + t for t in ix.repeats.get(unit.number, [])]
    else:
        d["flags"] = []
    return d


def _fought(events: EventLog | None) -> set[tuple[int, int]]:
    """(unit, cell) of every unit that fought a battle this month where it fought (the GM's
    copy of each battle lists them all); an assassination is not a battle the region sees."""
    if events is None:
        return set()
    return {(u, e.cell) for e in events.of(Battle)
            if e.faction == 0 and e.what == "battle" for u in e.units}


def _region(ix: _Index, cell: int, viewer: int | None,
            fought: set[tuple[int, int]] = frozenset()) -> dict[str, Any]:
    reg = ix.regions.get(cell)
    d = ix.title(cell)
    d["cell"] = cell
    if reg is not None:
        recovery = int(ix.scenario.options["pillage_recovery"])  # less after a pillage
        d.update(peasants=reg.peasants, wages=reg.wages, entertainment=reg.entertainment,
                 silver=rules.tax_silver(reg.silver, reg.pillaged, recovery))
        man = ix.items.get("man", {"plural": "men", "code": "MAN"})
        d["for_sale"] = ([{"item": "man", "count": reg.recruits, "plural": man["plural"],
                           "code": man["code"], "price": reg.recruit_price}]
                         if reg.recruits else [])
        d["products"] = [{"item": p.item, "count": p.amount,
                          "plural": ix.items[p.item]["plural"] if p.item in ix.items else p.item,
                          "code": ix.items[p.item]["code"] if p.item in ix.items else ""}
                         for p in ix.products.get(cell, []) if p.amount > 0]
    else:  # ocean: no population and no economy (the book)
        d.update(peasants=0, silver=0, wages=0, entertainment=0, for_sale=[], products=[])
    d["wanted"] = []
    d["exits"] = ix.exits(cell)
    best = None if viewer is None else ix.best_obs.get((viewer, cell))
    outside, inside = [], defaultdict(list)
    for u in ix.by_cell.get(cell, []):
        if viewer is None or u.faction == viewer:
            named = True
        else:
            s = sight.sighting(best, ix.stealth[u.number], guarding=u.guard,
                               inside=bool(u.structure), reveal=u.reveal,
                               in_battle=(u.number, cell) in fought)
            if not s.seen:
                continue
            named = s.faction_seen
        entry = _unit(ix, u, viewer, named)
        (inside[u.structure] if u.structure else outside).append(entry)
    d["units"] = outside
    d["structures"] = []
    for s in ix.structures.get(cell, []):
        row = ix.objects.get(s.kind, {})
        cost = row.get("cost", 0)
        d["structures"].append({"number": s.number, "name": s.name or s.kind.title(),
                                "kind": s.kind, "description": s.description,
                                "needs": max(cost - s.work, 0),
                                "units": inside.get(s.number, [])})
    return d


def _errors(diagnostics: list[Diagnostic], sheet: OrderSheet | None, ix: _Index,
            events: list) -> list[dict[str, Any]]:
    """`Name (N): VERB: message` for each error of the faction's orders; the unit is found
    from the sheet's order on that line (or the nearest `unit` line above it)."""
    by_line: dict[int, int] = {}
    if sheet is not None:
        for o in sorted(sheet.orders, key=lambda o: o.line):
            ref = getattr(o, "unit", None)
            if ref is not None and getattr(ref, "number", 0):
                by_line[o.line] = ref.number
    lines = sorted(by_line)
    names = ix.names
    out = []
    for d in diagnostics:
        if d.severity != Severity.ERROR:
            continue
        unit = by_line.get(d.line)
        if unit is None and lines:
            before = [n for n in lines if n <= d.line]
            unit = by_line[before[-1]] if before else None
        words = d.text.strip().lstrip("@").split()
        verb = words[0].upper() if words else ""
        # the checker's messages start with the verb the line is printed under already
        message = d.message[len(verb) + 2:] if verb and d.message.startswith(f"{verb}: ") \
            else d.message
        out.append({"unit": unit, "unit_name": names.get(unit, "Unit") if unit else None,
                    "verb": verb, "message": message, "line": d.line})
    for e in events:
        out.append(e)
    return out


def _event_entry(rec, names: Names) -> dict[str, Any]:
    """A typed event as a report line: its unit (`Name (N): `) and its sentence
    (sentences.py); a refused order as an error entry (`VERB: reason`)."""
    ev = rec.event
    unit = getattr(ev, "unit", None)
    unit = unit if isinstance(unit, int) and unit else None
    entry = {"kind": ev.kind, "unit": unit,
             "unit_name": names.units.get(unit, "Unit") if unit else None}
    if isinstance(ev, (OrderFailed, OrderNotBuilt)):
        entry.update(verb=ev.order.upper(), message=ev.reason, line=ev.line,
                     text=refusal(ev))
    else:
        entry["text"] = deed(ev, names)
    if isinstance(ev, Battle):   # JSON readers get the battle's lines and outcome as data
        entry.update(cell=ev.cell, what=ev.what, attacking_unit=ev.attacking_unit,
                     target_unit=ev.target_unit,
                     winner=ev.winner, lines=list(ev.lines))
    return entry


def build(state: State, events: EventLog, faction: int | None, scenario: Scenario,
          diagnostics: list[Diagnostic] | None = None, sheet: OrderSheet | None = None,
          index: _Index | None = None) -> dict[str, Any]:
    """The report of `faction` (None: the GM's) as plain data (JSON-ready)."""
    ix = index if index is not None and index.state is state else _cached_index(state, scenario)
    world = state.one("world") if state["world"] else None
    month = world.month if world is not None else state.step
    mname, year = date(month)
    f = ix.factions.get(faction) if faction is not None else None
    layout = scenario.options.values.get("report_layout", "server")
    names = ix.sentence_names(layout)
    recs = events.for_faction(faction) if events is not None else []
    battles, happened, errors_ev, shows = [], [], [], []
    for rec in recs:
        if isinstance(rec.event, (ShowSkill, ShowItem, ShowObject)):
            shows.append(rec.event)
            continue
        if faction is None and isinstance(rec.event, Battle) and rec.event.faction != 0:
            continue   # the GM reads a battle once, in its full copy (faction 0)
        entry = _event_entry(rec, names)
        if faction is None and getattr(rec.event, "gm_reason", ""):  # the GM's alone (r. 97)
            entry["gm_reason"] = rec.event.gm_reason
            entry["message"] = f"{rec.event.reason.rstrip('.')} (for the GM: {rec.event.gm_reason})"
        kind = rec.event.kind
        (battles if "battle" in kind else errors_ev if "verb" in entry else happened).append(entry)
    own_units = ix.by_faction.get(faction, []) if faction is not None else ix.units
    cells = sorted({u.cell for u in own_units})
    r: dict[str, Any] = {
        "ruleset": "atlantis", "layout": layout if layout in LAYOUTS else "server",
        "turn": month, "month": mname, "year": year,
        "faction": faction,
        "faction_name": ix.faction_name(faction) if faction is not None else "Game master",
        "password_set": bool(f.password) if f is not None else True,
        "password": f.password if f is not None else "",
        "eliminated": bool(f.eliminated) if f is not None else False,
        "quit": bool(f.quit) if f is not None else False,
        "times": f.times if f is not None else False,
        "template": f.template if f is not None else "long",
        "mages": sum(1 for u in own_units
                     if any(ix.skills.get(s, {}).get("magic") and d > 0
                            for s, d in ix.unit_days[u.number].items())),
        "max_mages": int(scenario.options.values.get("max_mages", 5)),
        "errors": _errors(diagnostics or [], sheet, ix, errors_ev),
        "battles": battles, "events": happened,
        "unclaimed": f.unclaimed if f is not None else 0,
    }
    r.update(_lore(ix, faction, own_units, shows, scenario))
    r["attitudes"] = _attitudes(ix, f)
    fought = ix.fought(events) if faction is not None else frozenset()
    r["regions"] = [_region(ix, c, faction, fought) for c in cells]
    return r


def regions(state: State, events: EventLog | None, faction: int,
            scenario: Scenario) -> list[dict[str, Any]]:
    """The report's regions alone, as `build` lists them (the bundle's pruned state,
    view.py, keeps what they show): the month's battles count (reading 77)."""
    ix = _cached_index(state, scenario)
    fought = ix.fought(events)
    return [_region(ix, c, faction, fought)
            for c in sorted({u.cell for u in ix.by_faction.get(faction, [])})]


def template_data(state: State, faction: int, scenario: Scenario) -> dict[str, Any]:
    """Only what the orders template needs (report_text.template_lines): the faction's
    password and template option, and its own units region by region - the template file
    is written for every faction every turn, so it skips the rest of the report."""
    ix = _cached_index(state, scenario)
    f = ix.factions.get(faction)
    regions: dict[int, dict[str, Any]] = {}
    for u in ix.by_faction.get(faction, []):
        reg = regions.get(u.cell)
        if reg is None:
            reg = regions[u.cell] = {**ix.title(u.cell), "units": [], "structures": []}
        reg["units"].append(_unit(ix, u, faction, True))
    for reg in regions.values():  # as the report lists them: outside, then by structure
        reg["units"].sort(key=lambda u: (u["structure"] != 0, u["structure"]))
    return {"faction": faction, "password": f.password if f is not None else "",
            "template": f.template if f is not None else "long",
            "regions": [regions[c] for c in sorted(regions)]}


def template_from_report(state: State, faction: int, scenario: Scenario,
                         report: dict[str, Any]) -> dict[str, Any]:
    """What template_data gives, taken from the faction's report data (`build` of the same
    state) when that lists the units alike (_Index.units_as_template), else template_data:
    the run makes every template with its report without a second walk of the units."""
    ix = _cached_index(state, scenario)
    if report.get("faction") != faction or not ix.units_as_template():
        return template_data(state, faction, scenario)
    return report


def _lore(ix: _Index, faction: int | None, own_units: list, shows: list,
          scenario: Scenario) -> dict[str, list[str]]:
    """Skill reports for every level a unit of the faction has reached that the faction
    had not had a report for (`known_skills`), and SHOW requests."""
    cats = scenario.catalogs
    known = ix.known.get(faction, {})  # indexed once: a scan per faction was quadratic
    reached: dict[str, int] = {}
    for u in own_units:
        for s, lvl in ix.levels[u.number].items():
            reached[s] = max(reached.get(s, 0), lvl)
    wanted = [(s, lvl) for s in ix.skills for top in [reached.get(s, 0)]
              for lvl in range(known.get(s, 0) + 1, top + 1)] if faction is not None else []
    for e in shows:
        if isinstance(e, ShowSkill) and (e.skill, e.level) not in wanted:
            wanted.append((e.skill, e.level))
    return {
        "skill_reports": [skill_report(cats, s, lvl) for s, lvl in wanted],
        "item_reports": [item_report(cats, e.item) for e in shows if isinstance(e, ShowItem)],
        "object_reports": [object_report(cats, e.object) for e in shows
                           if isinstance(e, ShowObject)],
    }


def _attitudes(ix: _Index, f) -> dict[str, Any]:
    out: dict[str, Any] = {"default": f.default_attitude if f is not None else "neutral"}
    for a in ATTITUDES:
        out[a] = []
    if f is None:
        return out
    for a in ix.attitudes.get(f.number, ()):  # indexed once: a sort per faction was quadratic
        if a.attitude in out:
            out[a.attitude].append({"faction": a.other, "name": ix.faction_name(a.other)})
    return out


_LAST: list = []  # (key, index): one entry, the state whose reports are being written


def _cached_index(state: State, scenario: Scenario) -> _Index:
    """The index of the state being reported on: a turn writes every faction's report from
    one state, so it is indexed once, not once per faction (which would be quadratic).
    The key holds the state itself (so its id is not reused), its step and month, and every
    table's length; a state changed in place between two reports with all of these equal
    would be missed, which the runner never does (it reports on the finished state)."""
    world = state.one("world") if state["world"] else None
    key = (id(state), id(scenario), state.step, world.month if world else -1,
           tuple((id(v), len(v)) for v in state.tables.values()))
    if _LAST and _LAST[0][0] == key and _LAST[0][1].state is state:
        return _LAST[0][1]
    ix = _Index(state, scenario)
    _LAST[:] = [(key, ix)]
    return ix


def index(state: State, scenario: Scenario) -> _Index:
    """Index a state once to build many factions' reports from it (a turn's reports)."""
    return _Index(state, scenario)


def chronicle(state: State, events: EventLog, scenario: Scenario) -> Chronicle:
    """The turn's events as the reports tell them (engine.chronicle), for the GM console's
    and the viewer's lists: each event's sentence (sentences.py), its factions and the
    region it names, written as the report writes it."""
    ix = _cached_index(state, scenario)
    layout = scenario.options.values.get("report_layout", "server")
    names = ix.sentence_names(layout if layout in LAYOUTS else "server")
    where = {u.number: u.cell for u in ix.units}   # for events naming only a unit
    out = Chronicle()
    for r in events.records:
        e = r.event
        cells = cells_of(e)
        if not cells and isinstance(getattr(e, "unit", None), int):
            cells = (where[e.unit],) if e.unit in where else ()
        text = sentence(e, names) if e.kind.startswith("atlantis.") else e.describe()
        if getattr(e, "gm_reason", ""):  # a bundle's events hold none (OrderFailed.seen_by)
            text += f" (for the GM: {e.gm_reason})"
        out.told.append(told(r, text, cells=cells,
                             place=names.place(cells[0]) if cells else ""))
    return out
