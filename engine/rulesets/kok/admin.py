"""The paperwork orders: ALL (5.5), DEF (5.4), NAME (5.9), CEDE (5.6), DON (5.7), BUILD (5.8)."""

from __future__ import annotations

from engine.ruleset import TurnContext
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.board import Board
from engine.rulesets.kok.catalogs import TACTIC_LETTERS
from engine.rulesets.kok.events import (
    AllianceDeclared,
    BuildResult,
    Ceded,
    Donation,
    LoyaltyConverted,
    Named,
    TacticSet,
)
from engine.rulesets.kok.turn import data, fail, partial, sort_orders
from engine.rulesets.kok.upkeep import isolated_provinces

MAX_NAME = 40


def run_orders(ctx: TurnContext) -> None:
    sort_orders(ctx)
    b = Board.load(ctx)
    d = data(ctx)
    d.isolated = isolated_provinces(b)
    for tribe, o in d.orders["ALL"]:
        declare(ctx, b, tribe, o)
    for tribe, o in d.orders["DEF"]:
        defend(ctx, b, tribe, o)
    for tribe, o in d.orders["NAME"]:
        name(ctx, b, tribe, o)
    for tribe, o in d.orders["CEDE"]:
        cede(ctx, b, tribe, o)
    for tribe, o in d.orders["DON"]:
        donate(ctx, b, tribe, o)
    b.save()


def declare(ctx: TurnContext, b: Board, tribe: int, o: om.Ally) -> None:
    """A declaration acts at once on the declarer's own conduct this turn (2.8 example:
    who raised the status may not attack); the status in force changes at turn end."""
    other, want = o.other, o.status
    if other == tribe:
        return fail(ctx, tribe, o, "a tribe cannot ally with itself")
    if other not in b.tribes:
        return fail(ctx, tribe, o, f"there is no player {other}")
    if not 0 <= want <= 5:
        return fail(ctx, tribe, o, f"alliance status is 0 to 5, not {want}")
    row = b.alliance(tribe, other)
    old = row.declared
    if abs(want - old) > 1:
        new = old + (1 if want > old else -1)
        partial(ctx, tribe, o, f"status may change by one a turn: {old} -> {new}, not {want}")
        want = new
    row.declared = want
    ctx.emit(AllianceDeclared(tribe, other, old, want))


def defend(ctx: TurnContext, b: Board, tribe: int, o: om.Defend) -> None:
    limit = int(ctx.options["def_limit"])
    for i, (cell, tactic) in enumerate(o.items):
        if i >= limit:
            fail(ctx, tribe, o, f"a DEF order names at most {limit} provinces", cell)
            continue
        if not b.on_map(cell):
            fail(ctx, tribe, o, "no such province", cell)
            continue
        tactic = (tactic or "").upper()
        if tactic not in TACTIC_LETTERS:
            fail(ctx, tribe, o, f"unknown tactic {tactic!r}", cell)
            continue
        if b.owner(cell) != tribe:
            fail(ctx, tribe, o, f"province {b.label(cell)} is not yours", cell)
            continue
        b.province(cell).tactic = tactic
        ctx.emit(TacticSet(tribe, cell, tactic))


def name(ctx: TurnContext, b: Board, tribe: int, o: om.Name) -> None:
    if not b.on_map(o.cell):
        return fail(ctx, tribe, o, "no such province", o.cell)
    if b.owner(o.cell) != tribe:
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is not yours", o.cell)
    if o.cell in data(ctx).isolated:  # 2.6: only DEF, and LAND/SEA with a general
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is isolated", o.cell)
    text = " ".join((o.name or "").split())
    if not text:
        return fail(ctx, tribe, o, "no name given", o.cell)
    if len(text) > MAX_NAME:
        partial(ctx, tribe, o, f"name cut to {MAX_NAME} characters", o.cell)
        text = text[:MAX_NAME]
    b.province(o.cell).name = text
    ctx.emit(Named(tribe, o.cell, text))


def cede(ctx: TurnContext, b: Board, tribe: int, o: om.Cede) -> None:
    d = data(ctx)
    if tribe in d.ceded:
        return fail(ctx, tribe, o, "only one CEDE order a turn", o.cell)
    if not b.on_map(o.cell):
        return fail(ctx, tribe, o, "no such province", o.cell)
    if b.owner(o.cell) != tribe:
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is not yours", o.cell)
    if o.cell in d.isolated:  # 2.6
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is isolated", o.cell)
    if o.other not in b.tribes or o.other == tribe:
        return fail(ctx, tribe, o, f"there is no other player {o.other}", o.cell)
    if b.status(tribe, o.other) < 5:
        return fail(ctx, tribe, o, f"alliance status with player {o.other} is "
                    f"{b.status(tribe, o.other)}, a CEDE needs 5", o.cell)
    d.ceded.add(tribe)
    p = b.province(o.cell)
    p.owner = o.other
    ctx.emit(Ceded(tribe, o.other, o.cell))
    if ctx.options["loyalty"] and p.loyal != o.other:
        ctx.emit(LoyaltyConverted(o.cell, o.other, p.loyal, "cede"))
        p.loyal = o.other


def donate(ctx: TurnContext, b: Board, tribe: int, o: om.Donate) -> None:
    need = int(ctx.options["donation_status"])
    if o.other not in b.tribes or o.other == tribe:
        return fail(ctx, tribe, o, f"there is no other player {o.other}")
    if b.status(tribe, o.other) < need:
        return fail(ctx, tribe, o, f"both sides need alliance status {need} to donate "
                    f"(it is {b.status(tribe, o.other)})")
    if o.gold <= 0:
        return fail(ctx, tribe, o, "nothing to donate")
    donor = b.tribes[tribe]
    gold = o.gold
    if gold > donor.gold:
        if donor.gold <= 0:
            return fail(ctx, tribe, o, "no gold in the treasury")
        partial(ctx, tribe, o, f"only {donor.gold} gold in the treasury; that much is given")
        gold = donor.gold
    pct = int(ctx.options["donation_fee"])
    fee = -(-gold * pct // 100)  # rounded up (5.7: 35 -> 4)
    donor.gold -= gold
    b.tribes[o.other].gold += gold - fee
    ctx.emit(Donation(tribe, o.other, gold, fee, gold - fee))


def build(ctx: TurnContext, b: Board, tribe: int, o: om.Build, dice) -> None:
    if not ctx.options["build"]:
        return fail(ctx, tribe, o, "BUILD is not allowed in this game", o.cell)
    if not b.on_map(o.cell):
        return fail(ctx, tribe, o, "no such province", o.cell)
    if b.owner(o.cell) != tribe:
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is not yours", o.cell)
    if o.cell in data(ctx).isolated:  # 2.6
        return fail(ctx, tribe, o, f"province {b.label(o.cell)} is isolated", o.cell)
    terrain = b.terrain(o.cell)
    into = terrain.build_into.lower()
    if not into or into not in b.terrains:
        return fail(ctx, tribe, o, f"{terrain.name} cannot be built up any further", o.cell)
    cost = int(ctx.options["build_cost"])
    t = b.tribes[tribe]
    if t.gold < cost:
        return fail(ctx, tribe, o, f"a BUILD costs {cost} gold, you have {t.gold}", o.cell)
    t.gold -= cost
    roll = dice.percent("build")
    ok = roll <= terrain.build_chance
    p = b.province(o.cell)
    if ok:
        p.terrain = into
    ctx.emit(BuildResult(tribe, o.cell, cost, terrain.build_chance, roll, ok, terrain.name,
                         into if ok else terrain.name))
    if ok and ctx.options["loyalty"] and p.loyal != tribe:
        ctx.emit(LoyaltyConverted(o.cell, tribe, p.loyal, "build"))
        p.loyal = tribe
