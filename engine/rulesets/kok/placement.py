"""Placement phase: generals falling due (2.4), PLA (4.3, 5.1), BUILD (5.8), and the
storage limits applied right after placement (4.4)."""

from __future__ import annotations

from engine.ruleset import TurnContext
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.admin import build
from engine.rulesets.kok.board import Board
from engine.rulesets.kok.events import GeneralAvailable, PlacementRefused, StorageLoss, UnitPlaced
from engine.rulesets.kok.turn import TurnData, data


def general_allowance(options, turn: int) -> int:
    """Generals a tribe may have placed by `turn`: one more every N turns, up to the cap."""
    every = int(options["general_every"])
    if every <= 0:
        return 0
    return min(int(options["general_max"]), turn // every)


def run(ctx: TurnContext) -> None:
    b = Board.load(ctx)
    d = data(ctx)
    turn = ctx.state.step
    every = int(ctx.options["general_every"])
    if every and turn % every == 0 and turn // every <= int(ctx.options["general_max"]):
        for t in sorted(b.tribes.values(), key=lambda t: t.number):
            if t.alive:
                ctx.emit(GeneralAvailable(t.number, general_allowance(ctx.options, turn) - t.generals_placed))
    for tribe, o in d.orders["PLA"]:
        place(ctx, b, d, tribe, o)
    dice = ctx.dice.sub("build")
    for tribe, o in d.orders["BUILD"]:
        build(ctx, b, tribe, o, dice)
    storage_limits(ctx, b, ("gold", "wood"))
    b.save()


def storage_limits(ctx: TurnContext, b: Board, resources: tuple[str, ...]) -> None:
    for t in sorted(b.tribes.values(), key=lambda t: t.number):
        for res in resources:
            limit = int(ctx.options[f"{res}_limit"])
            have = getattr(t, res)
            if 0 <= limit < have:
                setattr(t, res, limit)
                ctx.emit(StorageLoss(t.number, res, have - limit, limit))


def _refusal(b: Board, d: TurnData, ctx: TurnContext, tribe: int, cell: int, sym: str) -> str:
    """Why this one placement is not allowed, or '' (4.3 a-e, 5.1, 2.4, 2.7, 7.7)."""
    troop = b.troops.get(sym)
    if troop is None:
        return f"unknown troop type {sym!r}"
    if not b.on_map(cell):
        return "no such province"
    opts = ctx.options
    tr = b.tribes[tribe]
    if b.is_sea(cell):
        if not opts["sea_placement"]:
            return "units may not be placed at sea"
        if troop.land_bound:
            return f"{troop.name} cannot be placed at sea"
        if b.owner(cell) != tribe and not any(b.owner(n) == tribe and not b.is_sea(n)
                                              for n in b.neighbours(cell)):
            return "a sea area must border a province of yours to place units in it"
    else:
        if b.owner(cell) != tribe:
            return f"province {b.label(cell)} is not yours"
        if troop.sea_bound and not b.coastal(cell):
            return f"{troop.name} can only be placed in a coastal province"
        if opts["home_only"] and b.province(cell).home != tribe:
            return f"province {b.label(cell)} is not one of your home provinces"
        if cell in d.isolated:
            return f"province {b.label(cell)} is isolated"
        loyal = b.province(cell).loyal
        if opts["loyalty"] and loyal not in (0, tribe):
            return f"province {b.label(cell)} is loyal to player {loyal}"
    if not troop.buyable:
        if not troop.general:
            return f"{troop.name} cannot be placed"
        free = general_allowance(opts, ctx.state.step) - tr.generals_placed
        if free <= 0:
            return "no general is available to you yet"
    if (troop.general or troop.static) and b.of(cell, tribe).get(sym, 0) > 0:
        return f"there can be only one {troop.name} in a province"
    if troop.is_land_unit and cell in d.land_placed:
        return "only one land unit may be placed into a province each turn"
    if troop.buyable and (tr.gold < troop.gold or tr.wood < troop.wood):
        cost = " and ".join(f"{n} {what}" for n, what in ((troop.gold, "gold"), (troop.wood, "wood")) if n)
        return f"{troop.name} costs {cost}; you have {tr.gold} gold and {tr.wood} wood"
    return ""


def place(ctx: TurnContext, b: Board, d: TurnData, tribe: int, o: om.Place) -> None:
    limit = int(ctx.options["pla_limit"])
    for i, (cell, sym) in enumerate(o.items):
        sym = (sym or "").upper()
        why = (f"a PLA order places at most {limit} units" if i >= limit
               else _refusal(b, d, ctx, tribe, cell, sym))
        if why:
            ctx.emit(PlacementRefused(tribe, cell, sym, why, o.line, o.text))
            continue
        troop = b.troops[sym]
        tr = b.tribes[tribe]
        gold = wood = 0
        if troop.buyable:
            gold, wood = troop.gold, troop.wood
            tr.gold -= gold
            tr.wood -= wood
        else:
            tr.generals_placed += 1
        b.add(cell, tribe, sym, 1)
        if troop.is_land_unit and not b.is_sea(cell):
            d.land_placed.add(cell)
        key = (cell, tribe, sym)
        d.placed[key] = d.placed.get(key, 0) + 1
        ctx.emit(UnitPlaced(tribe, cell, sym, gold, wood, o.line))
