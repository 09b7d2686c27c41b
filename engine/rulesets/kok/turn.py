"""The King of Kings turn as a table of phases, and what the phases share.

Order of a turn (our reading of sections 3-5, see docs/kok-rules.md):
 1 orders      ALL declarations, DEF, NAME, CEDE, DON (the paperwork)
 2 placement   generals due, PLA, BUILD, then gold/wood above the storage limits lost (4.4)
 3 sea         SEA moves in round-robin order, fleet detection, sea battles (3.2, 3.3)
 4 land        LAND moves in round-robin order: occupation, blocking, assaults (3.1)
 5 battles     land battles in the order the provinces were first assaulted (3.4-3.6)
 6 isolation   siege losses of isolated provinces (2.6)
 7 production  food, gold, wood; disbanding for want of food; food storage (4.1, 4.2)
 8 loyalty     disloyal provinces revert or convert (2.7, option)
 9 alliances   status set to the lower declaration (2.8)
10 end         fame, generals, eliminated tribes, final ranking (3.6, 6.2)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from engine.orders import Order, OrderSheet
from engine.ruleset import Phase, TurnContext
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.events import OrderFailed, OrderPartial

VERB = {om.Place: "PLA", om.SeaMove: "SEA", om.LandMove: "LAND", om.Defend: "DEF",
        om.Ally: "ALL", om.Cede: "CEDE", om.Donate: "DON", om.Build: "BUILD", om.Name: "NAME"}


@dataclass
class Assault:
    """A province under attack this turn (3.1 c, d): who attacks, from where, how."""

    cell: int
    attacker: int
    defender: int
    frm: int
    tactic: str
    amphibious: bool
    seq: int


@dataclass
class TurnData:
    """Working data of one turn, kept in ctx.scratch['kok'] from phase to phase."""

    orders: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)  # verb -> (tribe, order)
    isolated: set[int] = field(default_factory=set)       # provinces isolated at turn start
    land_done: set[tuple[int, int]] = field(default_factory=set)  # (cell, tribe) moved by land
    sea_done: set[tuple[int, int]] = field(default_factory=set)   # (cell, tribe) moved by sea
    placed: dict[tuple[int, int, str], int] = field(default_factory=dict)  # placed this turn
    land_placed: set[int] = field(default_factory=set)    # provinces that got a land unit (4.3 a)
    assaults: dict[int, Assault] = field(default_factory=dict)
    victory: dict[int, int] = field(default_factory=dict)  # tribe -> victory points this turn
    ceded: set[int] = field(default_factory=set)          # tribes that ceded this turn


def data(ctx: TurnContext) -> TurnData:
    d = ctx.scratch.get("kok")
    if d is None:
        d = ctx.scratch["kok"] = TurnData()
    return d


def fail(ctx: TurnContext, tribe: int, order: Order, reason: str, cell: int = -1) -> None:
    ctx.emit(OrderFailed(tribe, order.line, order.text, reason, VERB.get(type(order), ""), cell))


def partial(ctx: TurnContext, tribe: int, order: Order, reason: str, cell: int = -1) -> None:
    ctx.emit(OrderPartial(tribe, order.line, order.text, reason, VERB.get(type(order), ""), cell))


def _bind(sheet: OrderSheet, width: int) -> None:
    """Cells in the sheet re-encoded for this map's width (the parser may not know it)."""
    try:
        bind = importlib.import_module("engine.rulesets.kok.orders").bind
    except (ModuleNotFoundError, AttributeError):
        return
    bind(sheet, width)


def round_robin(per_tribe: dict[int, list[Any]], turn: int) -> list[tuple[int, Any]]:
    """First order of every tribe, then the second... ; the first tribe rotates by turn so
    no tribe always moves first (moves are executed one after another, 3.1)."""
    tribes = sorted(t for t, lst in per_tribe.items() if lst)
    if not tribes:
        return []
    k = (turn - 1) % len(tribes)
    tribes = tribes[k:] + tribes[:k]
    out = []
    depth = max(len(per_tribe[t]) for t in tribes)
    for i in range(depth):
        for t in tribes:
            if i < len(per_tribe[t]):
                out.append((t, per_tribe[t][i]))
    return out


def sort_orders(ctx: TurnContext) -> None:
    """Bind every sheet to the map, apply the order limit, file the orders by verb."""
    d = data(ctx)
    width = ctx.map.grid.width
    limit = int(ctx.options["max_orders"])
    by_verb: dict[str, dict[int, list[Any]]] = {v: {} for v in VERB.values()}
    for tribe in sorted(ctx.orders):
        sheet = ctx.orders[tribe]
        _bind(sheet, width)
        for n, order in enumerate(sheet.orders):
            verb = VERB.get(type(order))
            if verb is None:
                continue
            if limit and n >= limit:
                fail(ctx, tribe, order, f"only {limit} orders a turn are allowed")
                continue
            by_verb[verb].setdefault(tribe, []).append(order)
    turn = ctx.state.step
    for verb, per in by_verb.items():
        if verb in ("SEA", "LAND"):
            d.orders[verb] = round_robin(per, turn)
        else:
            d.orders[verb] = [(t, o) for t in sorted(per) for o in per[t]]


def phases() -> list[Phase]:
    from engine.rulesets.kok import admin, battle, movement, placement, sea, upkeep

    return [
        Phase("orders", admin.run_orders, "alliance declarations, DEF, NAME, CEDE, DON"),
        Phase("placement", placement.run, "generals due, PLA, BUILD, storage limits (4.3, 4.4)"),
        Phase("sea", sea.run, "sea movement, detection and sea battles (3.2, 3.3)"),
        Phase("land", movement.run, "land movement (3.1)"),
        Phase("battles", battle.run, "land battles in order of assault (3.4-3.6)"),
        Phase("isolation", upkeep.run_isolation, "siege losses (2.6)"),
        Phase("production", upkeep.run_production, "food supply, production, storage (4.1, 4.2)"),
        Phase("loyalty", upkeep.run_loyalty, "loyalty (2.7)"),
        Phase("alliances", upkeep.run_alliances, "alliance status set to the lower declaration (2.8)"),
        Phase("end", upkeep.run_end, "fame, generals, end of game (3.6, 6.2)"),
    ]
