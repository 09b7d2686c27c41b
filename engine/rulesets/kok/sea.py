"""Sea movement (3.2), transports and crew (2.1, 2.2, option 7.5), fleet detection
(3.2.2) and sea battles with the losses of carried units (3.3)."""

from __future__ import annotations

from engine.dice import Dice
from engine.ruleset import TurnContext
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.battle import MAX_ROUNDS, fire, line_up, take_losses, value
from engine.rulesets.kok.board import Board
from engine.rulesets.kok.catalogs import Troop
from engine.rulesets.kok.events import (
    CarriedLosses,
    FleetDetected,
    HitRoll,
    MoveBlocked,
    MoveEnded,
    MoveHalted,
    MoveStarted,
    MoveStep,
    ProvinceOccupied,
    SeaBattle,
    SeaBattleRound,
)
from engine.rulesets.kok.movement import choose_units, has_general, strands
from engine.rulesets.kok.turn import TurnData, data, fail, partial


def run(ctx: TurnContext) -> None:
    b = Board.load(ctx)
    d = data(ctx)
    dice = ctx.dice.sub("sea")
    for tribe, o in d.orders["SEA"]:
        sea_move(ctx, b, d, tribe, o, dice)
    b.save()


def _load(ctx: TurnContext, b: Board, tribe: int, o: om.SeaMove,
          units: dict[str, int]) -> tuple[dict[str, int], int] | None:
    """Check transports, passengers and crew; returns (units, movement points) or None."""
    kinds = sorted(s for s in units if b.troop(s).transport)
    if len(kinds) > 1:
        fail(ctx, tribe, o, "only one kind of transport may be moved in one order", o.cell)
        return None
    sailors = [s for s in units if not b.troop(s).transport and b.troop(s).sea_move > 0]
    if not kinds and not sailors:
        fail(ctx, tribe, o, "no ships to move", o.cell)
        return None
    speed = min([b.troop(s).sea_move for s in kinds] + [b.troop(s).sea_move for s in sailors])
    ships = units[kinds[0]] if kinds else 0
    escorts = {s for s in sailors if b.troop(s).sea_move >= speed}
    carried = sorted((s for s in units if s not in escorts and s not in kinds),
                     key=lambda s: (b.troop(s).land_order, b.troop(s).row))
    room = ships
    out = {s: n for s, n in units.items() if s in escorts or s in kinds}
    dropped = 0
    for s in carried:
        take = min(units[s], room)
        room -= take
        dropped += units[s] - take
        if take:
            out[s] = take
    if dropped:
        partial(ctx, tribe, o, f"{ships} ships carry only {ships} units; {dropped} stay behind", o.cell)
    crew = sum(n for s, n in out.items() if b.troop(s).crew)
    need = (ships + 1) // 2
    if ships and not ctx.options["no_crew"] and crew < need:
        fail(ctx, tribe, o, f"{ships} ships need {need} crew units, there are {crew}", o.cell)
        return None
    return out, speed


def sea_move(ctx: TurnContext, b: Board, d: TurnData, tribe: int, o: om.SeaMove, dice: Dice) -> None:
    start = o.cell
    if not b.on_map(start):
        return fail(ctx, tribe, o, "no such province", start)
    if not (b.is_sea(start) or b.coastal(start)):
        return fail(ctx, tribe, o, f"{b.label(start)} is neither sea nor coast", start)
    if not b.of(start, tribe):
        return fail(ctx, tribe, o, f"you have no troops in {b.label(start)}", start)
    if (start, tribe) in d.sea_done or (start, tribe) in d.land_done:
        return fail(ctx, tribe, o, f"the troops in {b.label(start)} have moved this turn", start)
    if start in d.isolated and not has_general(b, start, tribe):
        return fail(ctx, tribe, o, f"{b.label(start)} is isolated and has no general", start)
    units = choose_units(ctx, b, d, tribe, o, start, o.units, o.at, "sea")
    if not units:
        return fail(ctx, tribe, o, "nothing to move", start)
    loaded = _load(ctx, b, tribe, o, units)
    if loaded is None:
        return
    units, points = loaded
    if (n := strands(b, start, tribe, units)):
        return fail(ctx, tribe, o, f"the move would leave {n} troops at sea without ships", start)
    route = list(o.route)
    if not route:
        return fail(ctx, tribe, o, "no directions given", start)
    path: list[tuple[int, int]] = []
    cur, mp = start, points
    halt = ""
    blocked_to = None
    left = 0
    detected_by = 0
    for i, direction in enumerate(route):
        left = len(route) - i
        if mp <= 0:
            halt = "no movement points left"
            break
        nxt = b.step(cur, direction)
        if nxt is None:
            halt, blocked_to = "the map ends there", -1
            break
        if not b.is_sea(nxt):
            halt, blocked_to = "a sea move stops in the last sea area before land", nxt
            break
        mp -= b.terrain(nxt).move
        path.append((nxt, mp))
        cur = nxt
        left -= 1
        detected_by = _detect(ctx, b, tribe, nxt, dice)
        if detected_by:
            halt = f"detected by the fleet of player {detected_by}"
            break
    if not path:
        return fail(ctx, tribe, o, halt or "the fleet could not move", start)
    end = cur
    ctx.emit(MoveStarted(tribe, "sea", start, b.sorted_units(units), "", points, o.line))
    for s, n in units.items():
        b.remove(start, tribe, s, n)
        b.add(end, tribe, s, n)
    prev = start
    for cell, p in path:
        ctx.emit(MoveStep(tribe, "sea", prev, cell, p))
        prev = cell
    if blocked_to is not None:
        ctx.emit(MoveBlocked(tribe, "sea", end, blocked_to, halt, o.line, o.text))
    elif halt and left:
        ctx.emit(MoveHalted(tribe, "sea", end, halt, left, o.line, o.text))
    d.sea_done.add((end, tribe))
    ctx.emit(MoveEnded(tribe, "sea", start, end, b.sorted_units(units), len(path), o.line))
    for other in b.tribes_at(end):
        if other != tribe and b.at_war(tribe, other) and b.of(end, tribe):
            sea_battle(ctx, b, d, end, tribe, other, dice)
    if ctx.options["sea_ownership"] and b.of(end, tribe) and b.owner(end) != tribe and not any(
            b.at_war(tribe, t) for t in b.tribes_at(end)):
        p = b.province(end)
        ctx.emit(ProvinceOccupied(tribe, end, p.owner))
        p.owner = tribe


def _detect(ctx: TurnContext, b: Board, tribe: int, cell: int, dice: Dice) -> int:
    """3.2.2: every ship of a tribe hostile to the mover has a chance to see the fleet."""
    chance = int(ctx.options["detection"])
    for other in b.tribes_at(cell):
        if other == tribe or not b.hostile(other, tribe):
            continue
        ships = sum(n for s, n in b.of(cell, other).items() if b.troop(s).sea_order > 0)
        for _ in range(ships):
            roll = dice.percent("detection")
            if roll <= chance:
                ctx.emit(FleetDetected(tribe, other, cell, roll, chance))
                return other
    return 0


def sea_battle(ctx: TurnContext, b: Board, d: TurnData, cell: int, att: int, dfn: int,
               dice: Dice) -> None:
    """3.3: only ships fight, no bonuses or tactics, no retreat, until one side is gone."""
    au, du = dict(b.of(cell, att)), dict(b.of(cell, dfn))
    a0, d0 = len(line_up(b, au, "sea_order")), len(line_up(b, du, "sea_order"))
    if not a0 or not d0:
        return
    r = 0
    lost_a: dict[str, int] = {}
    lost_d: dict[str, int] = {}
    while r < MAX_ROUNDS:
        r += 1
        al, dl = line_up(b, au, "sea_order"), line_up(b, du, "sea_order")
        if not al or not dl:
            r -= 1
            break

        def chance(u: Troop, t: Troop, r: int = r) -> int:
            return (u.initial_hit if r == 1 else u.hit) - t.armour

        def note(side: str, f: int, o: int, r: int = r):
            def emit_roll(i, u, j, t, c, roll, ok):
                ctx.emit(HitRoll(cell, r, side, f, u.symbol, i, o, t.symbol, j, c, roll, ok))
            return emit_roll

        hd = fire(al, dl, chance, dice, note("attacker", att, dfn))
        ha = fire(dl, al, chance, dice, note("defender", dfn, att))
        for s, n in take_losses(au, ha).items():
            lost_a[s] = lost_a.get(s, 0) + n
        for s, n in take_losses(du, hd).items():
            lost_d[s] = lost_d.get(s, 0) + n
        an, dn = len(line_up(b, au, "sea_order")), len(line_up(b, du, "sea_order"))
        ctx.emit(SeaBattleRound(cell, r, att, dfn, len(ha), len(hd), an, dn))
        if not an or not dn:
            break
    for s, n in lost_a.items():
        b.remove(cell, att, s, n)
    for s, n in lost_d.items():
        b.remove(cell, dfn, s, n)
    an, dn = a0 - sum(lost_a.values()), d0 - sum(lost_d.values())
    for tribe, start, left, lost in ((att, a0, an, lost_a), (dfn, d0, dn, lost_d)):
        _carried_losses(ctx, b, cell, tribe, start, start - left, lost)
    winner = att if an and not dn else dfn if dn and not an else 0
    ctx.emit(SeaBattle(cell, att, dfn, a0, d0, r, winner, a0 - an, d0 - dn))
    va, vd = value(b, lost_a), value(b, lost_d)
    d.victory[att] = d.victory.get(att, 0) + vd - va
    d.victory[dfn] = d.victory.get(dfn, 0) + va - vd


def _carried_losses(ctx: TurnContext, b: Board, cell: int, tribe: int, ships: int, sunk: int,
                    lost: dict[str, int]) -> None:
    """The share of ships sunk is the share of carried troops lost, rounded per type."""
    if not sunk:
        return
    carried = {s: n for s, n in b.of(cell, tribe).items() if b.troop(s).sea_order == 0}
    gone: dict[str, int] = {}
    for s, n in sorted(carried.items()):
        k = n if sunk >= ships else (2 * n * sunk + ships) // (2 * ships)
        if k:
            gone[s] = b.remove(cell, tribe, s, k)
            lost[s] = lost.get(s, 0) + gone[s]
    if gone:
        ctx.emit(CarriedLosses(tribe, cell, b.sorted_units(gone), 100 * sunk // ships))
