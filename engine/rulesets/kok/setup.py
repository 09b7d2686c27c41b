"""Step 0 of a King of Kings game (6.1).

Two ways in:
- `scenario.initial` (a scenario file or a rule case): used as given; what it lacks is
  filled in: the world row, a tribe row per faction (start gold), every alliance pair (0).
- built from the factions and the map. A tribe's starting provinces come from
    Faction.attrs["provinces"]   list of "x/y" labels or cell numbers,
    map sites of kind "start"    with attrs {"tribe": n},
    map areas of kind "start" or "home" with attrs {"tribe": n};
  each gets one unit of option `start_units` (6.1: a foot soldier) unless the faction
  lists its armies in attrs["armies"] = [{"cell": "x/y", "troop": "F", "count": 2}, ...].
  attrs["gold"] / attrs["wood"] override the start gold (option `start_gold`) and wood 0.
Starting provinces are the tribe's home provinces (4.3 d, 8.3) and loyal to it (2.7).
"""

from __future__ import annotations

from typing import Any

from engine.rulesets.kok.state import Alliance, Army, Province, Tribe, World
from engine.scenario import Scenario
from engine.state import State


def _cell(board, v: Any) -> int | None:
    if isinstance(v, int):
        return v if 0 <= v < len(board) else None
    return board.parse(str(v))


def initial_state(rs, scenario: Scenario) -> State:
    opts = scenario.options
    if scenario.initial is not None:
        st = scenario.initial.copy()
    else:
        st = rs.new_state(0)
        _from_factions(st, scenario)
    if not st.tables["world"]:
        end = int(scenario.meta.get("end_turn", opts["end_turn"]))
        game = str(scenario.meta.get("game", "") or scenario.name or "KOK").split()[0].upper()
        st.tables["world"] = [World(turn=st.step, end_turn=end, game=game)]
    tribes = {t.number: t for t in st.tables["tribes"]}
    numbers = {f.number for f in scenario.factions}
    numbers |= {p.owner for p in st.tables["provinces"] if p.owner}
    numbers |= {a.tribe for a in st.tables["armies"] if a.tribe}
    for n in sorted(numbers - set(tribes)):
        f = scenario.faction(n)
        attrs = f.attrs if f else {}
        tribes[n] = Tribe(n, f.name if f else f"Tribe {n}", int(attrs.get("gold", opts["start_gold"])),
                          int(attrs.get("wood", 0)))
    st.tables["tribes"] = [tribes[n] for n in sorted(tribes)]
    pairs = {(a.tribe, a.other): a for a in st.tables["alliances"]}
    for x in sorted(tribes):
        for y in sorted(tribes):
            if x != y and (x, y) not in pairs:
                pairs[(x, y)] = Alliance(x, y, 0, 0)
    st.tables["alliances"] = [pairs[k] for k in sorted(pairs)]
    st.tables["provinces"] = sorted(st.tables["provinces"], key=lambda p: p.cell)
    return st


def _from_factions(st: State, scenario: Scenario) -> None:
    m = scenario.map
    board = m.board()
    starts: dict[int, int] = {}  # cell -> tribe
    for f in scenario.factions:
        for v in f.attrs.get("provinces", []):
            c = _cell(board, v)
            if c is not None:
                starts[c] = f.number
    for site in sorted(m.sites.values(), key=lambda s: s.id):
        t = site.attrs.get("tribe", site.attrs.get("faction"))
        if site.kind == "start" and t:
            starts.setdefault(site.cell, int(t))
    for name in sorted(m.areas):
        area = m.areas[name]
        t = area.attrs.get("tribe", area.attrs.get("faction"))
        if area.kind in ("start", "home") and t:
            for c in sorted(area.cells):
                starts.setdefault(c, int(t))
    garrison = str(scenario.options["start_units"]).strip().upper()
    explicit = {f.number for f in scenario.factions if f.attrs.get("armies")}
    armies: dict[tuple[int, int, str], int] = {}
    for c, t in sorted(starts.items()):
        st.tables["provinces"].append(Province(c, owner=t, home=t, loyal=t))
        if garrison and t not in explicit:
            armies[(c, t, garrison)] = armies.get((c, t, garrison), 0) + 1
    for f in scenario.factions:
        for a in f.attrs.get("armies", []):
            c = _cell(board, a.get("cell"))
            if c is not None and int(a.get("count", 1)) > 0:
                key = (c, f.number, str(a.get("troop", "F")).upper())
                armies[key] = armies.get(key, 0) + int(a.get("count", 1))
    st.tables["armies"] = [Army(c, t, s, n) for (c, t, s), n in sorted(armies.items())]
