"""Clan orders that need a city or hex the clan holds, judged against the state.

`[CLAN ORDERS]`: CREATE, ASSIGN, FORTIFY and ERECT need a city you own (military convoys an
Armory there, air convoys an Airport, sea convoys a coast), BUILD a hex you own whose terrain
suits the structure and holds none yet, GAMBLE a casino hex you own, SABOTAGE your spy in the
city, DEFEND and GARRISON hexes you own. The pre-turn block runs before any convoy moves, so
what the clan holds then is what the state says: such an order is refused. The post-turn
block runs after the pulses, when the convoys may have taken more (or lost some), so there the
same finding is only a warning; what no pulse changes (terrain, coast, a casino, a building
named earlier on the sheet) is an error in either block. Hex patterns with `*` cover only the hexes you hold, by the
book, so they are never faulted here.
"""

from __future__ import annotations

from engine.orders import ILLEGAL, Diagnostic, Severity
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import Book
from engine.scenario import Scenario
from engine.state import State

CITY_ORDERS = ("CREATE", "ASSIGN", "FORTIFY", "ERECT")
NEEDS = {"military": ("ARM", "an Armory"), "air": ("AIR", "an Airport")}


def check_holdings(orders: list[o.CcOrder], state: State, faction: int, scenario: Scenario,
                   book: Book, source: str = "") -> list[Diagnostic]:
    grid, gmap = scenario.map.grid, scenario.map
    cities = {c.cell: c for c in state["cities"]}
    hexes = {h.cell: h for h in state["hexes"]}
    built = {(b.cell, b.code) for b in state["buildings"]}
    spies = {s.cell for s in state["spies"] if s.clan == faction}
    structures = {s["id"]: s for s in scenario.catalogs["custom_structures"]}
    custom_built: set[int] = set()
    out: list[Diagnostic] = []
    clan_orders = [x for x in orders if x.section in (o.PRE, o.POST)]
    for x in sorted(clan_orders, key=lambda x: (x.section != o.PRE, x.slot, x.line)):
        pre = x.section == o.PRE
        later = "" if pre else " now (unless your convoys take it this turn, the order fails)"

        def say(message: str, x: o.CcOrder = x, pre: bool = pre, fixed: bool = False) -> None:
            """`fixed`: a fact no pulse changes (terrain, coast, a casino), an error anywhere."""
            out.append(Diagnostic(ILLEGAL, message, x.line, 0, x.text, source,
                                  Severity.ERROR if pre or fixed else Severity.WARNING))

        label = getattr(x, "hex", "")
        cell = grid.parse(label, "ccrr") if label else None
        if label and cell is None:
            continue  # not on the map: check.py says so
        if x.keyword in CITY_ORDERS:
            city = cities.get(cell)
            if city is None or city.owner != faction:
                say(f"you hold no city at {label}" + later)
                continue
            if isinstance(x, o.Create):
                need = NEEDS.get(x.type)
                if need and (cell, need[0]) not in built:
                    say(f"a {x.type} convoy is created only in a city with {need[1]}; "
                        f"{city.name} has none", fixed=True)
                if x.type == "sea" and not any(
                        book.terrain.get(gmap.terrain_at(n), {}).get("navigable")
                        for n in grid.neighbours(cell)):
                    say(f"a sea convoy is created only on a coast; {city.name} has no water beside it",
                        fixed=True)
            elif isinstance(x, o.Erect):
                for code in x.buildings:
                    if (cell, code) in built:
                        out.append(Diagnostic(ILLEGAL, f"{city.name} already has {code}: the turn "
                                              "skips it", x.line, 0, x.text, source, Severity.WARNING))
                    built.add((cell, code))  # a later CREATE may count on it
        elif isinstance(x, o.Build):
            h = hexes.get(cell)
            if h is None or h.owner != faction:
                say(f"you hold no hex {label}" + later)
                continue
            allowed = structures.get(x.structure, {}).get("terrains", "").split("|")
            if gmap.terrain_at(cell) not in allowed:
                say(f"a {x.structure} cannot stand on {gmap.terrain_at(cell)} (only on "
                    f"{', '.join(a for a in allowed if a)})", fixed=True)
            elif h.custom or cell in custom_built:
                say(f"{label} already has a custom structure: one a hex", fixed=True)
            custom_built.add(cell)
        elif x.keyword == "GAMBLE":
            h = hexes.get(cell)
            if h is None or h.owner != faction:
                say(f"you hold no hex {label}" + later)
            elif h.special != "CAS":
                say(f"there is no casino at {label}", fixed=True)
        elif x.keyword == "SABOTAGE":
            if cell not in spies:
                say(f"you have no spy planted at {label}" + ("" if pre else " (unless one is "
                                                              "planted this turn)"))
        elif isinstance(x, o.Defend):
            for pattern in x.hexes:
                c = grid.parse(pattern, "ccrr") if "*" not in pattern else None
                if c is not None and (c not in hexes or hexes[c].owner != faction):
                    say(f"you hold no hex {pattern}" + later)
    return out
