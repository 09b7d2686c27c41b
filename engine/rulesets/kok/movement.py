"""Land movement (3.1): movement points, blocking, two-to-one superiority (3.1.1),
blockade by enemy assault (3.1.2), empty provinces (3.1.3), map edges, isolation (2.6 f),
alliances (2.8: allies pass, status 5 supports), putting ships ashore (3.2.1).

Moves run one after another in round-robin order (turn.round_robin). Each route is first
walked without changing anything, so a move cancelled at its end (2.8) leaves no trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.orders import Order
from engine.ruleset import TurnContext
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.board import Board, units_text
from engine.rulesets.kok.events import (
    LoyaltyConverted,
    MoveBlocked,
    MoveCancelled,
    MoveEnded,
    MoveHalted,
    MoveStarted,
    MoveStep,
    ProvinceOccupied,
)
from engine.rulesets.kok.turn import Assault, TurnData, data, fail, partial


def run(ctx: TurnContext) -> None:
    b = Board.load(ctx)
    d = data(ctx)
    for tribe, o in d.orders["LAND"]:
        land_move(ctx, b, d, tribe, o)
    b.save()


def movable(ctx: TurnContext, b: Board, d: TurnData, cell: int, tribe: int, sym: str) -> int:
    n = b.of(cell, tribe).get(sym, 0)
    if not ctx.options["place_and_move"]:
        n -= d.placed.get((cell, tribe, sym), 0)
    return max(n, 0)


def choose_units(ctx: TurnContext, b: Board, d: TurnData, tribe: int, o: Order, cell: int,
                 units: dict[str, int], at: bool, medium: str) -> dict[str, int]:
    """The troops an order moves: AT = every troop that can move this way except ships and
    the types listed, whose counts are taken as written (fewer if fewer are there: 8.5)."""
    chosen: dict[str, int] = {}
    listed = {s.upper(): n for s, n in units.items()}
    for sym, n in listed.items():
        troop = b.troops.get(sym)
        if troop is None:
            partial(ctx, tribe, o, f"unknown troop type {sym!r} ignored", cell)
            continue
        if medium == "land" and troop.static:
            partial(ctx, tribe, o, f"{troop.name} cannot move", cell)
            continue
        if medium == "sea" and not (troop.transport or troop.crew or troop.sea_move > 0):
            partial(ctx, tribe, o, f"{troop.name} cannot be carried by sea", cell)
            continue
        have = movable(ctx, b, d, cell, tribe, sym)
        if have <= 0:
            partial(ctx, tribe, o, f"no {troop.name} here to move", cell)
            continue
        if n > have:
            partial(ctx, tribe, o, f"only {have} {troop.name} here; {have} moved, not {n}", cell)
            n = have
        if n > 0:
            chosen[sym] = n
    if at:
        for sym in sorted(b.of(cell, tribe)):
            troop = b.troop(sym)
            if sym in listed or troop.transport or troop.static:
                continue
            if medium == "sea" and not (troop.crew or troop.sea_move > 0):
                continue
            n = movable(ctx, b, d, cell, tribe, sym)
            if n > 0:
                chosen[sym] = n
    return chosen


def land_points(b: Board, units: dict[str, int]) -> int:
    """The slowest member's rate, or the fastest's with a general (2.1, 2.2); transports
    put ashore do not slow a stack, and a stack of transports alone moves one province."""
    moves = [b.troop(s).land_move for s in units if not b.troop(s).transport]
    if not moves:
        return 1
    if any(b.troop(s).general for s in units):
        return max(moves)
    return min(moves)


def strands(b: Board, cell: int, tribe: int, units: dict[str, int]) -> int:
    """Troops a move would leave at sea without ships to carry them (0 on land)."""
    if not b.is_sea(cell):
        return 0
    left = {s: n - units.get(s, 0) for s, n in b.of(cell, tribe).items()}
    ships = sum(n for s, n in left.items() if b.troop(s).transport)
    carried = sum(n for s, n in left.items() if not b.troop(s).transport and b.troop(s).sea_move == 0)
    return max(0, carried - ships)


def has_general(b: Board, cell: int, tribe: int) -> bool:
    return any(b.troop(s).general for s in b.of(cell, tribe))


def blockaded(b: Board, d: TurnData, cell: int, tribe: int) -> bool:
    """3.1.2: defenders under assault by at least equal numbers must stay."""
    a = d.assaults.get(cell)
    if a is None or a.defender != tribe:
        return False
    return b.land_units(cell, a.attacker) >= b.land_units(cell, tribe)


@dataclass
class Walk:
    path: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    occupy: list[int] = field(default_factory=list)   # empty provinces taken on the way
    stop: str = ""                # why it ended early ("" = route done)
    blocked_to: int | None = None  # the step not taken (MoveBlocked), -1 = map edge
    steps_left: int = 0
    role: str = "move"            # move | attack | reinforce | support
    joins: int = 0                # tribe the units fight for when supporting


def walk(b: Board, d: TurnData, tribe: int, start: int, route: list[str], points: int,
         conquers: bool) -> Walk:
    w = Walk()
    cur, mp = start, points
    for i, direction in enumerate(route):
        left = len(route) - i
        if mp <= 0:
            w.stop, w.steps_left = "no movement points left", left
            break
        nxt = b.step(cur, direction)
        if nxt is None:
            w.stop, w.blocked_to, w.steps_left = "the map ends there", -1, left
            break
        if b.is_sea(nxt):
            w.stop, w.blocked_to, w.steps_left = "land troops cannot enter a sea area", nxt, left
            break
        a = d.assaults.get(nxt)
        if a is not None and tribe not in (a.attacker, a.defender):
            if b.declared(tribe, a.defender) == 5:
                w.role, w.joins = "support", a.defender
            elif b.declared(tribe, a.attacker) == 5 and b.hostile(tribe, a.defender):
                w.role, w.joins = "support", a.attacker
            else:
                w.stop, w.blocked_to, w.steps_left = (
                    f"{b.label(nxt)} is under attack by player {a.attacker}", nxt, left)
                break
        mp -= b.terrain(nxt).move
        w.path.append(nxt)
        w.points.append(mp)
        cur = nxt
        if w.role == "support":
            w.steps_left = left - 1
            if w.steps_left:
                w.stop = "joined the battle of an ally"
            break
        owner = b.owner(nxt)
        if a is not None and tribe == a.attacker:
            if b.land_units(nxt, tribe) >= 2 * b.land_units(nxt, a.defender) and left > 1:
                continue  # 3.1.1: two-to-one superiority lets the stack pass
            w.role, w.steps_left = "attack", left - 1
            if w.steps_left:
                w.stop = "blocked by enemy troops (no two-to-one superiority)"
            break
        if a is not None and tribe == a.defender:
            w.role, w.steps_left = "reinforce", left - 1
            if w.steps_left:
                w.stop = "blocked by enemy troops"
            break
        if owner and b.hostile(tribe, owner) and b.of(nxt, owner):
            if not conquers:  # 2.3: ships alone cannot take a defended province
                w.path.pop()
                w.points.pop()
                w.stop, w.blocked_to, w.steps_left = "ships alone cannot attack", nxt, left
                break
            w.role, w.steps_left = "attack", left - 1
            if w.steps_left:
                w.stop = "blocked by enemy troops"
            break
        if owner and owner != tribe and b.of(nxt, owner) and b.status(tribe, owner) == 0:
            # declared friendly but no alliance in force yet: the owner's troops still block,
            # and as the mover may not attack them the move ends there (and is cancelled)
            w.steps_left = left - 1
            w.stop = f"player {owner}'s troops block the way (no alliance in force yet)"
            break
        if owner != tribe and conquers and not b.friendly(tribe, owner) and not _anyone(b, nxt, tribe):
            w.occupy.append(nxt)  # 3.1.3: an empty province goes to whoever walks in
    return w


def _anyone(b: Board, cell: int, tribe: int) -> bool:
    return any(t != tribe for t in b.at(cell))


def land_move(ctx: TurnContext, b: Board, d: TurnData, tribe: int, o: om.LandMove) -> None:
    start = o.cell
    if not b.on_map(start):
        return fail(ctx, tribe, o, "no such province", start)
    if not b.of(start, tribe):
        return fail(ctx, tribe, o, f"you have no troops in {b.label(start)}", start)
    if (start, tribe) in d.land_done:
        return fail(ctx, tribe, o, f"the troops in {b.label(start)} have moved this turn", start)
    if start in d.isolated and not has_general(b, start, tribe):
        return fail(ctx, tribe, o, f"{b.label(start)} is isolated and has no general", start)
    if blockaded(b, d, start, tribe):
        return fail(ctx, tribe, o, f"{b.label(start)} is under assault by at least equal "
                    "numbers; its troops must stay and defend", start)
    units = choose_units(ctx, b, d, tribe, o, start, o.units, o.at, "land")
    if not units:
        return fail(ctx, tribe, o, "nothing to move", start)
    if not o.route:
        return fail(ctx, tribe, o, "no directions given", start)
    if len({s for s in units if b.troop(s).transport}) > 1:
        return fail(ctx, tribe, o, "only one kind of transport may be moved in one order", start)
    if (n := strands(b, start, tribe, units)):
        return fail(ctx, tribe, o, f"the move would leave {n} troops at sea without ships", start)
    points = land_points(b, units)
    if points <= 0:
        return fail(ctx, tribe, o, "these troops cannot move over land", start)
    from_sea = b.is_sea(start)
    tactic = "F" if from_sea else ((o.tactic or "").upper() or b.province(start).tactic)
    if from_sea and o.tactic and o.tactic.upper() != "F":
        partial(ctx, tribe, o, "amphibious assaults always use the frontal assault (3.5)", start)
    conquers = any(not b.troop(s).transport for s in units)
    w = walk(b, d, tribe, start, list(o.route), points, conquers)
    if not w.path:
        return fail(ctx, tribe, o, w.stop or "the troops could not move", start)
    end = w.path[-1]
    owner = b.owner(end)
    if w.role == "move" and owner not in (0, tribe) and b.friendly(tribe, owner):
        ctx.emit(MoveCancelled(tribe, "land", start, end, f"a move may not end in the province "
                               f"of an ally (player {owner})", o.line, o.text))
        return
    ctx.emit(MoveStarted(tribe, "land", start, b.sorted_units(units), tactic, points, o.line))
    for sym, n in units.items():
        b.remove(start, tribe, sym, n)
    prev = start
    for cell, mp in zip(w.path, w.points, strict=True):
        ctx.emit(MoveStep(tribe, "land", prev, cell, mp))
        if cell in w.occupy:
            occupy(ctx, b, cell, tribe)
        prev = cell
    frm = w.path[-2] if len(w.path) > 1 else start
    if w.blocked_to is not None:
        ctx.emit(MoveBlocked(tribe, "land", end, w.blocked_to, w.stop, o.line, o.text))
    elif w.stop:
        ctx.emit(MoveHalted(tribe, "land", end, w.stop, w.steps_left, o.line, o.text))
    fights_for = w.joins if w.role == "support" else tribe
    for sym, n in units.items():
        b.add(end, fights_for, sym, n)
    if w.role == "attack" and end not in d.assaults:
        d.assaults[end] = Assault(end, tribe, owner, frm, tactic, from_sea, len(d.assaults))
    d.land_done.add((end, tribe))
    d.land_done.add((end, fights_for))
    ctx.emit(MoveEnded(tribe, "land", start, end, b.sorted_units(units), len(w.path), o.line))
    if w.role == "support":
        partial(ctx, tribe, o, f"{units_text(b.sorted_units(units))} put under the command of "
                f"player {fights_for} (alliance status 5)", end)


def occupy(ctx: TurnContext, b: Board, cell: int, tribe: int) -> None:
    p = b.province(cell)
    prev = p.owner
    p.owner = tribe
    ctx.emit(ProvinceOccupied(tribe, cell, prev))
    if ctx.options["loyalty"] and p.loyal == 0:
        p.loyal = tribe
        ctx.emit(LoyaltyConverted(cell, tribe, 0, "leaderless"))
