"""The Atlantis GM's hand between turns: what server GMs do by editing the player file, and
the factions that join (a new player signing up, RESTART).

Interventions (engine/interventions; `Ruleset.intervene`), each checked whole before it
changes anything, so a refused one leaves the state as it was:

- `unit`: a new unit for a faction (params: region, men, name, items {item: n}, skills
  {skill: months per man, or "<n>d" for total study days}, flags [guard avoid behind hold
  noaid autotax], reveal); it takes the next unit number and is listed last in its region;
- `give`: items or silver given to (count > 0) or taken from (count < 0) a unit, or
  silver to or from a faction's unclaimed silver (params: unit or none, item, count);
  `man`/`men` changes the unit's men (their skill days stay, so levels thin out);
- `join`: a new faction (params: name, email, password, region): the next faction number,
  a free starting island (a start site of the map with no unit on its island), else the
  region given, one one-man unit and the start silver, as at the game's start;
- `address`, `password`: the faction's record in the game and in the state.
"""

from __future__ import annotations

import re
from typing import Any

from engine.interventions import Applied, Intervention, InterventionRefused, generic
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.catalog import Names
from engine.scenario import Faction, Scenario
from engine.state import State

FLAGS = ("guard", "avoid", "behind", "hold", "noaid", "autotax")
KINDS = ("unit", "give", "join", "address", "password")


def intervene(state: State, scenario: Scenario, iv: Intervention) -> Applied:
    if iv.kind == "unit":
        return _add_unit(state, scenario, iv)
    if iv.kind == "give":
        return _give(state, scenario, iv)
    if iv.kind == "join":
        return join(state, scenario, iv.params)
    if iv.kind in ("address", "password"):
        f = _faction(state, iv.faction)
        applied = generic(scenario, iv)
        if iv.kind == "address":
            f.email = applied.factions[0].email
        else:
            f.password = applied.factions[0].password
        return applied
    raise InterventionRefused(f"Atlantis has no GM intervention {iv.kind!r} (it has: "
                              f"{', '.join(KINDS)})")


# ---- helpers ---------------------------------------------------------------------------------

def _faction(state: State, number: int | None) -> st.Faction:
    for f in state["factions"]:
        if f.number == number:
            if f.eliminated:
                raise InterventionRefused(f"faction {number} is out of the game")
            return f
    raise InterventionRefused(f"no faction {number} in this game")


def _world(state: State) -> st.World:
    if not state["world"]:
        state["world"].append(st.World())
    return state["world"][0]


def _region(state: State, scenario: Scenario, text: Any) -> int:
    """A land region from `(x,y)`, `x,y` or a cell label."""
    raw = str(text or "").strip()
    if not raw:
        raise InterventionRefused("a region is needed, as (x,y)")
    board = scenario.map.board()
    m = re.fullmatch(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?", raw)
    try:
        cell = board.parse(f"({m.group(1)},{m.group(2)})" if m else raw)
    except Exception:
        cell = None
    if cell is None:
        raise InterventionRefused(f"no region {raw} on this map")
    if not _land(scenario, cell):
        raise InterventionRefused(f"region {raw} is ocean; a unit is placed on land")
    return cell


def _land(scenario: Scenario, cell: int) -> bool:
    """Land by the map's terrain (the state's regions are land; reading them all for one
    cell would cost a big world's whole table)."""
    row = scenario.catalogs["terrains"].by("name").get(scenario.map.terrain_at(cell))
    return row is not None and not row["ocean"]


def _count(value: Any, what: str) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise InterventionRefused(f"{what} must be a whole number, not {value!r}") from None
    return n


def _days(value: Any, men: int, skill: str) -> int:
    """Months of study per man (the book's measure) or `<n>d`, total days of the unit."""
    text = str(value).strip().lower()
    if text.endswith("d"):
        days = _count(text[:-1], f"days of {skill}")
    else:
        days = _count(text, f"months of {skill}") * 30 * men
    if days < 0:
        raise InterventionRefused(f"study of {skill} cannot be negative")
    return days


def _next_seq(state: State, cell: int) -> int:
    return max((u.seq for u in state["units"] if u.cell == cell), default=0) + 1


def _new_unit(state: State, faction: int, cell: int, men: int, name: str = "Unit") -> st.Unit:
    w = _world(state)
    u = st.Unit(w.next_unit, faction, cell, name, men=men, seq=_next_seq(state, cell),
                formed=w.month)
    w.next_unit += 1
    state["units"].append(u)
    return u


# ---- the kinds ---------------------------------------------------------------------------

def _add_unit(state: State, scenario: Scenario, iv: Intervention) -> Applied:
    p, names = iv.params, Names.of(scenario.catalogs)
    f = _faction(state, iv.faction)
    cell = _region(state, scenario, p.get("region"))
    men = _count(p.get("men", 1), "men")
    if men < 1:
        raise InterventionRefused("a unit needs at least one man")
    name = str(p.get("name") or "Unit").strip()
    if any(c in name for c in "\r\n"):
        raise InterventionRefused("a unit's name is one line")
    items: dict[str, int] = {}
    for text, n in dict(p.get("items") or {}).items():
        item = names.item(str(text))
        if item is None or item == "man":
            raise InterventionRefused(f"unknown item {text!r}" if item is None else
                                      "men are given with men=, not as an item")
        count = _count(n, f"the number of {item}")
        if count < 0:
            raise InterventionRefused(f"a new unit cannot have {count} {item}")
        items[item] = items.get(item, 0) + count
    skills: dict[str, int] = {}
    for text, v in dict(p.get("skills") or {}).items():
        skill = names.skill(str(text))
        if skill is None:
            raise InterventionRefused(f"unknown skill {text!r}")
        skills[skill] = skills.get(skill, 0) + _days(v, men, skill)
    flags = [str(x).lower() for x in (p.get("flags") or [])]
    for x in flags:
        if x not in FLAGS:
            raise InterventionRefused(f"unknown flag {x!r} (flags: {', '.join(FLAGS)})")
    reveal = str(p.get("reveal") or "").lower()
    if reveal not in ("", "unit", "faction"):
        raise InterventionRefused("reveal is unit or faction")
    u = _new_unit(state, f.number, cell, men, name)
    for x in flags:
        setattr(u, x, True)
    u.reveal = reveal
    state["unit_items"].extend(st.UnitItem(u.number, i, n) for i, n in sorted(items.items()) if n)
    state["unit_skills"].extend(st.UnitSkill(u.number, s, d) for s, d in sorted(skills.items()) if d)
    x, y = scenario.map.grid.atlantis(cell)
    return Applied(f"unit {u.number} ({name}, {men} men) added to faction {f.number} in "
                   f"({x},{y})")


def _give(state: State, scenario: Scenario, iv: Intervention) -> Applied:
    p = iv.params
    item = Names.of(scenario.catalogs).item(str(p.get("item") or "silver"))
    if item is None:
        raise InterventionRefused(f"unknown item {p.get('item')!r}")
    count = _count(p.get("count", 0), "count")
    if count == 0:
        raise InterventionRefused("count is 0: nothing to give or take")
    verb = "given to" if count > 0 else "taken from"
    if p.get("unit") in (None, "", 0):
        f = _faction(state, iv.faction)
        if item != "silver":
            raise InterventionRefused("a faction holds only unclaimed silver; give items to a unit")
        if f.unclaimed + count < 0:
            raise InterventionRefused(f"faction {f.number} has only ${f.unclaimed} unclaimed")
        f.unclaimed += count
        return Applied(f"${abs(count)} {verb} faction {f.number}'s unclaimed silver "
                       f"(now ${f.unclaimed})")
    number = _count(p["unit"], "unit")
    u = next((u for u in state["units"] if u.number == number), None)
    if u is None:
        raise InterventionRefused(f"no unit {number} in this game")
    if iv.faction is not None and iv.faction != u.faction:
        raise InterventionRefused(f"unit {number} is faction {u.faction}'s, not {iv.faction}'s")
    if item == "man":
        if u.men + count < 1:
            raise InterventionRefused(f"unit {number} has {u.men} men; a unit keeps at least one "
                                      "(give its goods away and let the turn disband it)")
        u.men += count
        return Applied(f"{abs(count)} men {verb} unit {number} (now {u.men})")
    row = next((r for r in state["unit_items"] if r.unit == number and r.item == item), None)
    have = row.count if row is not None else 0
    if have + count < 0:
        raise InterventionRefused(f"unit {number} has only {have} {item}")
    if row is None:
        row = st.UnitItem(number, item, 0)
        state["unit_items"].append(row)
    row.count += count
    if row.count == 0:
        state["unit_items"].remove(row)
    return Applied(f"{abs(count)} {item} {verb} unit {number} (now {have + count})")


# ---- joining --------------------------------------------------------------------------------

def free_start(state: State, scenario: Scenario) -> int | None:
    """The first start site of the map (by id) whose island holds no unit: a starting
    island nobody plays from (never handed out, or its faction gone from it)."""
    gmap = scenario.map
    occupied = {u.cell for u in state["units"]}
    for site in sorted(gmap.sites.values(), key=lambda s: s.id):
        if site.kind != "start" or not _land(scenario, site.cell):
            continue
        area = gmap.area_of(site.cell)
        cells = set(area.cells) if area is not None else {site.cell}
        if not cells & occupied:
            return site.cell
    return None


def found(state: State, scenario: Scenario, number: int, name: str, email: str,
          password: str, cell: int) -> st.Unit:
    """A faction as at the game's start: its record, one one-man unit, the start silver."""
    w = _world(state)
    state["factions"].append(st.Faction(number, name, email, password,
                                        unclaimed=int(scenario.options["start_silver"]),
                                        joined=w.month))
    w.next_faction = max(w.next_faction, number + 1)
    return _new_unit(state, number, cell, 1)


def join(state: State, scenario: Scenario, p: dict[str, Any]) -> Applied:
    name = str(p.get("name") or "").strip()
    email = str(p.get("email") or "").strip()
    password = str(p.get("password") or "")
    if not name:
        raise InterventionRefused("a new faction needs a name")
    for what, v in (("name", name), ("address", email), ("password", password)):
        if any(c in v for c in "\r\n"):
            raise InterventionRefused(f"the {what} is one line")
    if '"' in password:
        raise InterventionRefused("a password cannot hold a double quote")
    w = _world(state)
    number = max([w.next_faction, *(f.number + 1 for f in scenario.factions),
                  *(f.number + 1 for f in state["factions"])])
    if p.get("region") not in (None, ""):
        cell = _region(state, scenario, p["region"])
    else:
        found_cell = free_start(state, scenario)
        if found_cell is None:
            raise InterventionRefused("no starting island is free; give the region to start in")
        cell = found_cell
    u = found(state, scenario, number, name, email, password, cell)
    x, y = scenario.map.grid.atlantis(cell)
    return Applied(f"faction {number} ({name}) joins with unit {u.number} in ({x},{y})",
                   [Faction(number, name, email, password, attrs={"start": f"({x},{y})"})],
                   joined=number)


def restart(state: State, scenario: Scenario, old: int) -> st.Faction:
    """RESTART: a brand new faction for the player of `old` (same name, address and
    password): a free starting island, else where `old` started."""
    f = next(f for f in state["factions"] if f.number == old)
    cell = free_start(state, scenario)
    if cell is None:
        sf = scenario.faction(old)
        start = sf.attrs.get("start") if sf is not None else None
        cell = scenario.map.board().parse(str(start)) if start else None
        if cell is None:
            from engine.rulesets.atlantis.world import start_cell

            cell = start_cell(scenario, old)
    if cell is None:  # no start of its own on record: the first land region
        cell = min(r.cell for r in state["regions"])  # (in a turn: the state is whole)
    number = max(_world(state).next_faction, *(g.number + 1 for g in state["factions"]),
                 *(g.number + 1 for g in scenario.factions))
    found(state, scenario, number, f.name, f.email, f.password, cell)
    return state["factions"][-1]


def new_factions(state: State, scenario: Scenario) -> list[Faction]:
    """Factions of the state the scenario does not list (RESTART made them this month)."""
    known = {f.number for f in scenario.factions}
    out = []
    for f in state["factions"]:
        if f.number not in known:
            start = next((u.cell for u in state["units"] if u.faction == f.number), None)
            attrs = {}
            if start is not None:
                x, y = scenario.map.grid.atlantis(start)
                attrs["start"] = f"({x},{y})"
            out.append(Faction(f.number, f.name, f.email, f.password, attrs=attrs))
    return out


def report_factions(state: State) -> set[int]:
    """Every faction still in, and those that went out this month (their last report)."""
    month = _world(state).month
    return {f.number for f in state["factions"] if not f.eliminated or f.eliminated == month}

