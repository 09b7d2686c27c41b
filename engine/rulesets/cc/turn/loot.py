"""[LOOT], the Scout's looting on entry and the Chemist's fuel finds ([CONVOY EXPERTS]).

LOOT searches the convoy's hex: a bank pays $2,000-3,000 every turn; any other hex holds
what the GM's loot table (`loot.csv`, d100; the book gives none, X203) says the first time it
is searched in the game, and nothing after ("the hex will be empty"), whoever searched it. Not
hidden (the catalog's `allowed_hidden`), not in recon mode. A convoy with a Scout loots every
hex it enters the same way, in capture or empty mode, without the order (X204); it says
nothing where there was nothing left to find.

A Chemist "can occasionally locate hidden gasoline along roads": each move along a road
finds `chemist_fuel_min`-`chemist_fuel_max` fuel with `chemist_find_pct` chance (X209).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import d100_row
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own
from engine.rulesets.cc.turn.reshape import join_vehicles


@dataclass(frozen=True)
class Looted(_Own, Event):
    """A hex searched (LOOT, or a Scout entering it): what was found (`find` nothing: the
    search came up empty; the hex is empty from now on either way, banks apart)."""

    kind = "cc.looted"
    clan: int
    convoy: int
    pulse: int
    line: int           # the LOOT order's line, 0 for a Scout's search on entry
    cell: int
    find: str           # nothing | money | food | ... | vehicle | bank
    amount: int
    scout: bool = False

    def describe(self, label=None, width: int = 80) -> str:
        where = label(self.cell) if label else str(self.cell)
        who = f"Convoy #{self.convoy}" + (f", pulse {self.pulse}" if self.pulse > 0 else "")
        how = "its Scout searched" if self.scout else "looted"
        return f"{who}: {how} {where} and {found(self.find, self.amount)}"


@dataclass(frozen=True)
class FuelFound(_Own, Event):
    """A Chemist found hidden fuel along the road the convoy followed."""

    kind = "cc.fuel_found"
    clan: int
    convoy: int
    pulse: int
    cell: int
    fuel: int

    def describe(self, label=None, width: int = 80) -> str:
        where = label(self.cell) if label else str(self.cell)
        return f"Convoy #{self.convoy}, pulse {self.pulse}: the Chemist found {self.fuel} fuel hidden along the road to {where}"


def found(find: str, n: int) -> str:
    if find == "nothing":
        return "found nothing"
    if find in ("money", "bank"):
        return f"found ${n:,}" + (" in the bank" if find == "bank" else "")
    if find == "vehicle":
        return "found a vehicle in working order"
    return f"found {n:,} {find}"


def loot(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """The LOOT order (hiding is refused before, by the catalog's `allowed_hidden`)."""
    if cv.mode == "recon":
        return t.fail(order, "a convoy in recon mode does not loot", cv.number, pulse)
    h = t.hexes.get(cv.cell)
    if h is not None and h.special == "BAN":
        if not t.mark("loot bank", 0, cv.cell):
            return t.fail(order, "the bank was looted already this turn", cv.number, pulse)
        return _bank(t, cv, pulse, order.line, False)
    if not t.terrain(cv.cell).get("ownable"):
        return t.fail(order, "there is nothing to loot on open water", cv.number, pulse)
    if h is None:   # a land hex always has its row in a game; a hand-made state may lack it
        h = t.hexes[cv.cell] = st.Hex(cell=cv.cell)
        t.ctx.state["hexes"].append(h)
    if h.looted:
        return t.fail(order, f"{t.label(h.cell)} was looted already: nothing is left", cv.number, pulse)
    search(t, cv, h, pulse, order.line, False)


def on_entry(t: ClanTurn, cv: st.Convoy, pulse: int) -> None:
    """A Scout loots the hex entered, banks included (once a turn), quietly where it is empty."""
    if "SCO" not in t.experts(cv) or cv.mode == "recon" or cv.hidden:
        return
    h = t.hexes.get(cv.cell)
    if h is None:
        return
    if h.special == "BAN":
        if t.mark("loot bank", 0, cv.cell):
            _bank(t, cv, pulse, 0, True)
    elif not h.looted:
        search(t, cv, h, pulse, 0, True)


def _bank(t: ClanTurn, cv: st.Convoy, pulse: int, line: int, scout: bool) -> None:
    got = t.roll(2000, 3000, "bank loot")
    t.clan.money += got
    t.emit(Looted(t.number, cv.number, pulse, line, cv.cell, "bank", got, scout))


def search(t: ClanTurn, cv: st.Convoy, h: st.Hex, pulse: int, line: int, scout: bool) -> None:
    """One search of a hex: a roll on the loot table; the hex is empty afterwards."""
    h.looted = True
    row = d100_row(t.ctx.catalogs, "loot", t.dice.d(100, "loot"))
    find = row["find"] if row else "nothing"
    n = t.roll(int(row["least"]), int(row["most"]), f"loot {find}") if row and find != "nothing" else 0
    if find == "vehicle":
        scout_vehicle = next((v for v, r in t.book.vehicles.items()
                              if r["convoy_type"] == cv.type and r["class"] == "fast_scout"), "")
        if scout_vehicle:
            join_vehicles(t, cv, scout_vehicle, 1)
            n = 1
        else:
            find, n = "nothing", 0
    elif find != "nothing":
        t.put(find, n)
    t.emit(Looted(t.number, cv.number, pulse, line, h.cell, find, n, scout))


def chemist(t: ClanTurn, cv: st.Convoy, pulse: int, road: bool) -> None:
    """After a move along a road: the Chemist's chance of hidden fuel."""
    pct = int(t.opts.chemist_find_pct)
    if not road or pct <= 0 or "CHE" not in t.experts(cv):
        return
    if t.dice.chance(pct, "chemist finds fuel"):
        n = t.roll(int(t.opts.chemist_fuel_min), int(t.opts.chemist_fuel_max), "chemist fuel")
        t.put("fuel", n)
        t.emit(FuelFound(t.number, cv.number, pulse, cv.cell, n))
