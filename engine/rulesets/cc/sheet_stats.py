"""What the orders sheet says about a clan and its convoys: order lines, pulses, statistics.

Shared by the template (which prints them) and the checker (which holds orders to them), so
the sheet a player fills in and the limits the checker applies cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.state import Clan, Convoy
from engine.scenario import Scenario
from engine.state import State


def clan_of(state: State, number: int) -> Clan | None:
    return next((c for c in state["clans"] if c.number == number), None)


def next_turn(clan: Clan) -> int:
    """The turn a clan's next orders are for (a late clan is behind the game turn)."""
    return clan.turns_run + 1


def order_lines(scenario: Scenario, clan: Clan) -> tuple[int, int]:
    """(pre-turn, post-turn) clan order lines: the book's 5 and 10 plus the lines bought."""
    opts = scenario.options
    return int(opts.pre_turn_orders) + clan.extra_pre, int(opts.post_turn_orders) + clan.extra_post


@dataclass
class ConvoySheet:
    """One convoy as its block on the sheet shows it."""

    convoy: Convoy
    fleet: dict[str, int]
    experts: list[str]
    pulses: int
    troop_cap: int
    cargo_cap: int
    rifle_cap: int
    grenade_cap: int
    rocket_cap: int
    bomb_cap: int
    strength: int
    fuel_cost: int


def convoy_sheets(state: State, clan: int, scenario: Scenario) -> list[ConvoySheet]:
    """The clan's convoys in number order, with what their sheet blocks print."""
    book, opts = Book(scenario.catalogs), scenario.options
    out = []
    for c in sorted((c for c in state["convoys"] if c.owner == clan), key=lambda c: c.number):
        fleet: dict[str, int] = {}
        for v in state["vehicles"]:
            if v.convoy == c.id and v.count > 0 and v.type in book.vehicles:
                fleet[v.type] = fleet.get(v.type, 0) + v.count
        experts = sorted({e.code for e in state["experts"] if e.convoy == c.id})
        extra = c.type in book.convoy_types and cs.pulses(book, c.type, experts) > book.convoy_types[c.type]["pulses"]
        troop_cap = cs.troop_capacity(book, fleet, experts)
        out.append(ConvoySheet(
            c, fleet, experts, int(opts.engineer_pulses) if extra else int(opts.pulses), troop_cap,
            cs.cargo_capacity(book, fleet, experts, c.mode == "empty"), cs.rifle_capacity(troop_cap),
            cs.grenade_capacity(troop_cap), cs.rocket_capacity(book, fleet), cs.bomb_capacity(book, fleet),
            cs.combat_strength(book, fleet, c.troops, c.rockets, experts), cs.fuel_rate(book, fleet, experts)))
    return out
