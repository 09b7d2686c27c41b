"""End of turn: isolation and siege losses (2.6), production and the central food supply
with its disbanding order (4.1), food storage (4.2), loyalty (2.7), alliances (2.8),
fame (3.6), eliminated tribes and the final ranking (6.2)."""

from __future__ import annotations

import heapq

from engine.ruleset import TurnContext
from engine.rulesets.kok.board import Board
from engine.rulesets.kok.events import (
    AllianceChanged,
    Disbanded,
    FameAwarded,
    Isolated,
    LoyaltyConverted,
    LoyaltyReverted,
    Production,
    SiegeLoss,
    TribeEliminated,
)
from engine.rulesets.kok.turn import data

# ---- isolation (2.6) -----------------------------------------------------------------------

def _counts_as_province(b: Board, cell: int) -> bool:
    return not b.is_sea(cell) or bool(b.options["sea_ownership"])


def is_isolated(b: Board, cell: int) -> bool:
    """A province is cut off unless a neighbour is (a) its owner's, (b) an ally's (status
    in force >= 1), or (c) a sea area without foreign units while it has ships itself."""
    owner = b.owner(cell)
    if not owner:
        return False
    ships = any(b.troop(s).sea_move > 0 for s in b.of(cell, owner))
    for n in b.neighbours(cell):
        o = b.owner(n)
        if o and (o == owner or b.status(owner, o) >= 1) and _counts_as_province(b, n):
            return False
        if ships and b.is_sea(n) and all(t == owner or b.status(owner, t) >= 1 for t in b.tribes_at(n)):
            return False
    return True


def isolated_provinces(b: Board) -> set[int]:
    return {c for c, p in b.provinces.items()
            if p.owner and _counts_as_province(b, c) and is_isolated(b, c)}


def run_isolation(ctx: TurnContext) -> None:
    """Siege losses: each isolated province loses `siege_loss` % (rounded up) of its
    food-eating units, taken in land casualty order; castles, generals, ships endure."""
    b = Board.load(ctx)
    pct = int(ctx.options["siege_loss"])
    for cell in sorted(isolated_provinces(b)):
        owner = b.owner(cell)
        units = b.of(cell, owner)
        if not units:
            continue
        ctx.emit(Isolated(owner, cell))
        eaters = sorted((s for s in units if b.troop(s).food > 0),
                        key=lambda s: (b.troop(s).land_order, b.troop(s).row))
        total = sum(units[s] for s in eaters)
        k = -(-total * pct // 100)
        gone: dict[str, int] = {}
        for s in eaters:
            if k <= 0:
                break
            took = b.remove(cell, owner, s, k)
            gone[s] = took
            k -= took
        if gone:
            ctx.emit(SiegeLoss(owner, cell, b.sorted_units(gone), 0, pct))
    b.save()


# ---- production and supply (4.1, 4.2) ------------------------------------------------------

def run_production(ctx: TurnContext) -> None:
    b = Board.load(ctx)
    food: dict[int, int] = {}
    gold: dict[int, int] = {}
    wood: dict[int, int] = {}
    provs: dict[int, int] = {}
    for cell, p in sorted(b.provinces.items()):
        if p.owner and p.owner in b.tribes and _counts_as_province(b, cell):
            t = b.terrain(cell)
            food[p.owner] = food.get(p.owner, 0) + t.food
            gold[p.owner] = gold.get(p.owner, 0) + t.gold
            wood[p.owner] = wood.get(p.owner, 0) + t.wood
            provs[p.owner] = provs.get(p.owner, 0) + 1
    eaters: dict[int, dict[int, int]] = {}  # tribe -> cell -> food eaten there
    for cell in b.cells_with_units():
        for tribe, units in b.at(cell).items():
            need = sum(b.troop(s).food * n for s, n in units.items())
            if need:
                eaters.setdefault(tribe, {})[cell] = need
    limit = int(ctx.options["food_limit"])
    for number in sorted(b.tribes):
        tr = b.tribes[number]
        need = sum(eaters.get(number, {}).values())
        have = food.get(number, 0) + tr.food
        if need > have:
            need -= _disband(ctx, b, number, eaters.get(number, {}), need - have)
        left = have - need
        tr.food = left if limit < 0 else min(left, limit)
        tr.gold += gold.get(number, 0)
        tr.wood += wood.get(number, 0)
        ctx.emit(Production(number, food.get(number, 0), gold.get(number, 0), wood.get(number, 0),
                            need, provs.get(number, 0)))
    b.save()


def _disband(ctx: TurnContext, b: Board, tribe: int, eaten: dict[int, int], short: int) -> int:
    """Disband one unit at a time where units most exceed the province's own food rating
    (a province not the tribe's, or at sea, rates 0); returns the food saved."""
    def rating(cell: int) -> int:
        return b.terrain(cell).food if b.owner(cell) == tribe else 0

    heap = [(-(need - rating(c)), c) for c, need in eaten.items()]
    heapq.heapify(heap)
    saved = 0
    gone: dict[tuple[int, str], int] = {}
    while short > 0 and heap:
        diff, cell = heapq.heappop(heap)
        units = b.of(cell, tribe)
        eaters = sorted((s for s in units if b.troop(s).food > 0),
                        key=lambda s: (b.troop(s).land_order, b.troop(s).row))
        if not eaters:
            continue
        s = eaters[0]
        b.remove(cell, tribe, s, 1)
        f = b.troop(s).food
        short -= f
        saved += f
        gone[(cell, s)] = gone.get((cell, s), 0) + 1
        heapq.heappush(heap, (diff + f, cell))
    for (cell, s), n in sorted(gone.items(), key=lambda kv: (kv[0][0], b.troop(kv[0][1]).row)):
        ctx.emit(Disbanded(tribe, cell, s, n))
    return saved


# ---- loyalty (2.7) ---------------------------------------------------------------------

def run_loyalty(ctx: TurnContext) -> None:
    if not ctx.options["loyalty"]:
        return
    b = Board.load(ctx)
    dice = ctx.dice.sub("loyalty")
    chance = int(ctx.options["loyalty_chance"])
    for cell, p in sorted(b.provinces.items()):
        if not p.loyal or p.owner == p.loyal:
            continue
        if not b.at(cell):
            prev = p.owner
            p.owner = p.loyal
            ctx.emit(LoyaltyReverted(cell, p.loyal, prev))
            continue
        if not p.owner:
            continue
        roll = dice.percent("loyalty")
        if roll <= chance:
            ctx.emit(LoyaltyConverted(cell, p.owner, p.loyal, "chance", roll))
            p.loyal = p.owner
    b.save()


# ---- alliances (2.8) -------------------------------------------------------------------

def run_alliances(ctx: TurnContext) -> None:
    """2.8, 8.1: at turn end the status of both players is set to the lower of their two
    declarations, so a raise the other did not match lapses (the declarer was bound by it
    during this turn only). Option `declarations_persist` keeps each side's declaration."""
    b = Board.load(ctx)
    keep = bool(ctx.options["declarations_persist"])
    tribes = sorted(b.tribes)
    for i, x in enumerate(tribes):
        for y in tribes[i + 1:]:
            new = min(b.declared(x, y), b.declared(y, x))
            old = b.status(x, y)
            if new != old or b.status(y, x) != old:
                b.alliance(x, y).status = new
                b.alliance(y, x).status = new
                ctx.emit(AllianceChanged(x, y, old, new))
            if not keep:
                for a, o in ((x, y), (y, x)):
                    if b.declared(a, o) != new:
                        b.alliance(a, o).declared = new
    b.save()


# ---- end of turn -------------------------------------------------------------------------

def run_end(ctx: TurnContext) -> None:
    from engine.rulesets.kok.victory import ranking

    b = Board.load(ctx)
    d = data(ctx)
    for number in sorted(d.victory):
        if number not in b.tribes:
            continue
        pts = d.victory[number]
        added = max(pts, 0)
        tr = b.tribes[number]
        tr.fame += added
        ctx.emit(FameAwarded(number, pts, added, tr.fame))
    has_units = {t for c in b.cells_with_units() for t in b.at(c)}
    owners = {p.owner for p in b.provinces.values() if p.owner}
    for number in sorted(b.tribes):
        tr = b.tribes[number]
        sheet = ctx.orders.get(number)
        sent = sheet is not None and sheet.source != "NMR" and not sheet.header.get("nmr")
        tr.nmr_turns = 0 if sent else tr.nmr_turns + 1
        if tr.alive and number not in has_units and number not in owners:
            tr.alive = False
            ctx.emit(TribeEliminated(number))
    world = ctx.state.tables["world"]
    if world:
        world[0].turn = ctx.state.step
    b.save()
    end = world[0].end_turn if world else int(ctx.options["end_turn"])
    if ctx.state.step >= end:
        for ev in ranking(ctx.state, ctx.scenario):
            ctx.emit(ev)
