"""One ARTNES year as a table of phases: diplomacy, purchases, moves, sea battles, convoys,
arrivals (contests and claims), land battles, retreats, starvation and income.

Moves are simultaneous: every unit leaves at once and the defenders of a realm are the
owner's units that end their move there. Units on their way are kept in `scratch`
("transit") until they arrive, bounce home or fight.
"""

from __future__ import annotations

from collections import defaultdict

from engine.ruleset import Phase, TurnContext
from engine.rulesets.artnes import events as ev
from engine.rulesets.artnes.combat import (
    casualty_counts,
    ladder,
    odds,
    pick,
    pick_casualties,
    result,
    sea_battle,
    shift_for,
)
from engine.rulesets.artnes.plan import Movement, Plan, make_plan
from engine.rulesets.artnes.rules import (
    LAND_KINDS,
    add_units,
    at_war,
    board_of,
    count_units,
    normalise_units,
    owner_of,
    points_used,
    population_points,
    realm_numbers,
    salary,
    set_owner,
    take_units,
    unit_table,
)
from engine.rulesets.artnes.state import War


def plans(ctx: TurnContext) -> dict[int, Plan]:
    if "plans" not in ctx.scratch:
        board = board_of(ctx.map)
        out = {}
        for n in sorted(x.nation for x in ctx.previous["nations"]):
            sheet = ctx.orders.get(n)
            if sheet is not None:
                out[n] = make_plan(sheet, board, ctx.previous, ctx.scenario, n)
        ctx.scratch["plans"] = out
    return ctx.scratch["plans"]


def diplomacy(ctx: TurnContext) -> None:
    asks: set[tuple[int, int]] = set()
    for n, plan in plans(ctx).items():
        for other in plan.wars:
            if not at_war(ctx.state, n, other):
                ctx.state["wars"].append(War(min(n, other), max(n, other)))
                ctx.emit(ev.WarDeclared(n, other))
        asks |= {(n, other) for other in plan.peace}
    for n, other in sorted(asks):
        if not at_war(ctx.state, n, other):
            continue
        if ctx.options.peace == "unilateral" or (other, n) in asks:
            lo, hi = min(n, other), max(n, other)
            ctx.state.tables["wars"] = [w for w in ctx.state["wars"] if (w.nation, w.other) != (lo, hi)]
            ctx.emit(ev.PeaceMade(lo, hi))
        else:
            ctx.emit(ev.PeaceOffered(n, other))


def purchases(ctx: TurnContext) -> None:
    nations = {x.nation: x for x in ctx.state["nations"]}
    for n, plan in plans(ctx).items():
        for p in plan.purchases:
            nations[n].gold -= p.cost
            if p.unit == "castle":
                set_owner(ctx.state, p.realm, n)
                next(r for r in ctx.state["realms"] if r.realm == p.realm).castle = True
            else:
                add_units(ctx.state, n, p.unit, p.realm, p.count)
            ctx.emit(ev.Purchased(n, p.unit, p.realm, p.count, p.cost))
    normalise_units(ctx.state)


def _send_back(ctx: TurnContext, m: Movement, reason: str) -> None:
    add_units(ctx.state, m.nation, m.unit, m.origin, m.count)
    ctx.emit(ev.Bounced(m.nation, m.unit, m.count, m.dest, m.origin, reason))


def moves(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    transit: list[Movement] = []
    for n, plan in plans(ctx).items():
        for m in plan.moves:
            m.count = take_units(ctx.state, n, m.unit, m.origin, m.count)
            if not m.count:
                continue
            if board.is_sea(m.dest):
                add_units(ctx.state, n, m.unit, m.dest, m.count)
                ctx.emit(ev.Moved(n, m.unit, m.count, tuple(m.path)))
            else:
                transit.append(m)
    if ctx.options.swaps == "bounce":
        swapped = [m for m in transit if any(
            o.nation != m.nation and o.came_from == m.dest and o.dest == m.came_from
            and not board.is_sea(o.came_from) for o in transit)]
        for m in swapped:
            transit.remove(m)
            _send_back(ctx, m, "swap")
    ctx.scratch["transit"] = transit
    normalise_units(ctx.state)


def sea_battles(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    dice = ctx.dice.sub("sea")
    for sea in board.seas:
        fleets = {u.nation: u.count for u in ctx.state["units"] if u.location == sea and u.kind == "galley"}
        if len(fleets) < 2:
            continue
        hostile = lambda a, b: at_war(ctx.state, a, b)  # noqa: E731
        if not any(hostile(a, b) for a in fleets for b in fleets if a < b):
            continue
        before = dict(sorted(fleets.items()))
        lost = sea_battle(before, hostile, ctx.options.sea_removal, dice, f"sea battle {sea}")
        for n, k in lost.items():
            take_units(ctx.state, n, "galley", sea, k)
        ctx.emit(ev.SeaBattle(sea, tuple(before), tuple(before.values()), tuple(lost[n] for n in before)))
    normalise_units(ctx.state)


def _convoy_galley(ctx: TurnContext, nation: int, sea: str) -> bool:
    for u in ctx.state["units"]:
        if u.kind == "galley" and u.location == sea and u.count > 0:
            if u.nation == nation or (ctx.options.convoy_galley == "any" and not at_war(ctx.state, nation, u.nation)):
                return True
    return False


def convoys(ctx: TurnContext) -> None:
    kept = []
    for m in ctx.scratch.get("transit", []):
        if m.sea:
            ok = _convoy_galley(ctx, m.nation, m.sea)
            ctx.emit(ev.Convoyed(m.nation, m.unit, m.count, m.origin, m.dest, m.sea, ok))
            if not ok:
                add_units(ctx.state, m.nation, m.unit, m.origin, m.count)
                continue
        kept.append(m)
    ctx.scratch["transit"] = kept
    normalise_units(ctx.state)


def arrivals(ctx: TurnContext) -> None:
    """Reinforcements arrive, several nations entering one realm contest it, claims."""
    dice = ctx.dice.sub("contest")
    by_dest: dict[str, list[Movement]] = defaultdict(list)
    for m in ctx.scratch.get("transit", []):
        by_dest[m.dest].append(m)
    attacks: dict[str, list[Movement]] = {}
    for dest in sorted(by_dest):
        owner = owner_of(ctx.state, dest)
        entering: dict[int, list[Movement]] = defaultdict(list)
        for m in by_dest[dest]:
            if m.nation == owner:
                add_units(ctx.state, m.nation, m.unit, dest, m.count)
                if not m.sea:
                    ctx.emit(ev.Moved(m.nation, m.unit, m.count, tuple(m.path)))
            else:
                entering[m.nation].append(m)
        if not entering:
            continue
        winner = next(iter(entering))
        if len(entering) > 1:
            nations = sorted(entering)
            knights = [sum(m.count for m in entering[n] if m.unit == "knight") for n in nations]
            best = max(knights)
            tied = [n for n, k in zip(nations, knights, strict=True) if k == best]
            winner = tied[0] if len(tied) == 1 else dice.choice(tied, f"contest {dest}")
            ctx.emit(ev.Contest(dest, tuple(nations), tuple(knights), winner, len(tied) > 1))
            for n in nations:
                if n != winner:
                    for m in entering[n]:
                        _send_back(ctx, m, "contest")
        if owner == 0:
            set_owner(ctx.state, dest, winner)
            ctx.emit(ev.Claimed(winner, dest))
            for m in entering[winner]:
                add_units(ctx.state, winner, m.unit, dest, m.count)
                if not m.sea:
                    ctx.emit(ev.Moved(winner, m.unit, m.count, tuple(m.path)))
        else:
            attacks[dest] = entering[winner]
            for m in entering[winner]:
                if not m.sea:
                    ctx.emit(ev.Moved(winner, m.unit, m.count, tuple(m.path)))
    ctx.scratch["attacks"] = attacks
    ctx.scratch["transit"] = []
    normalise_units(ctx.state)


def _stacks(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for kind, n in items:
        if n:
            out[kind] = out.get(kind, 0) + n
    return out


def _lose_realm(ctx: TurnContext, realm: str, loser: int, winner: int) -> None:
    set_owner(ctx.state, realm, winner)
    row = next(r for r in ctx.state["realms"] if r.realm == realm)
    if row.castle and ctx.options.castle_on_capture == "destroy":
        row.castle = False
        ctx.emit(ev.CastleRazed(realm))
    galleys = take_units(ctx.state, loser, "galley", realm, 10**9)
    if galleys:
        ctx.emit(ev.GalleysLost(loser, realm, galleys))


def battles(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    units = unit_table(ctx.catalogs)
    cols = ladder(ctx.catalogs["crt"], ctx.options.column_order)
    opts = ctx.options
    retreats: list[tuple[int, str, int, str, str, str]] = []  # nation, unit, n, src, came_from, origin
    for realm, movs in sorted(ctx.scratch.get("attacks", {}).items()):
        attacker = movs[0].nation
        defender = owner_of(ctx.state, realm)
        castle = any(r.realm == realm and r.castle for r in ctx.state["realms"])
        d_units = {k: count_units(ctx.state, defender, k, realm) for k in LAND_KINDS}
        d_units = {k: v for k, v in d_units.items() if v}
        if not d_units and not castle and opts.undefended == "capture":
            _lose_realm(ctx, realm, defender, attacker)
            for m in movs:
                add_units(ctx.state, attacker, m.unit, realm, m.count)
            ctx.emit(ev.Captured(attacker, realm, defender))
            continue
        a_units = _stacks((m.unit, m.count) for m in movs)
        att = sum(n * int(units[k]["attack"]) for k, n in a_units.items())
        dfn = sum(n * int(units[k]["defence"]) for k, n in d_units.items())
        terrain = realm_numbers(board, realm, False)[0]
        shift = shift_for(terrain, castle, opts)
        o = odds(att, dfn, shift, cols, opts)
        dice = ctx.dice.sub("battle", realm)
        die = 0 if o.automatic else dice.d(6, f"battle {realm}")
        res = result(cols, o, die)
        a_n, d_n = casualty_counts(res, sum(a_units.values()), sum(d_units.values()), opts)
        a_lost = pick_casualties(a_units, a_n, opts.casualties, dice, f"attacker losses {realm}")
        d_lost = pick_casualties(d_units, d_n, opts.casualties, dice, f"defender losses {realm}")
        for kind, n in d_lost.items():
            take_units(ctx.state, defender, kind, realm, n)
        left = dict(a_lost)
        for m in movs:  # the dead come off the movements in order
            k = min(left.get(m.unit, 0), m.count)
            m.count -= k
            left[m.unit] = left.get(m.unit, 0) - k
        lost_realm = res in ("D", "E")
        ctx.emit(ev.Battle(realm, attacker, defender, att, dfn, o.base, shift, o.column or "-", die, res,
                           tuple(sorted(a_units.items())), tuple(sorted(d_units.items())),
                           tuple(sorted(a_lost.items())), tuple(sorted(d_lost.items())),
                           lost_realm, castle, terrain))
        if lost_realm:
            for kind in LAND_KINDS:
                n = take_units(ctx.state, defender, kind, realm, 10**9)
                if n:
                    retreats.append((defender, kind, n, realm, "", ""))
            _lose_realm(ctx, realm, defender, attacker)
            for m in movs:
                add_units(ctx.state, attacker, m.unit, realm, m.count)
        else:
            for m in movs:
                if m.count:
                    retreats.append((attacker, m.unit, m.count, realm, m.came_from, m.origin))
    ctx.scratch["retreats"] = retreats
    ctx.scratch["attacks"] = {}
    normalise_units(ctx.state)


def retreats(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    for nation, kind, n, src, came_from, origin in ctx.scratch.get("retreats", []):
        dest = ""
        for cand in (came_from, origin):
            if cand and owner_of(ctx.state, cand) == nation:
                dest = cand
                break
        if not dest:
            own = [r for r in board.land_neighbours(src) if owner_of(ctx.state, r) == nation]
            if own:
                strength = {r: sum(count_units(ctx.state, nation, k, r) for k in LAND_KINDS) for r in own}
                dest = sorted(own, key=lambda r: (-strength[r], r.casefold()))[0]
        if dest:
            add_units(ctx.state, nation, kind, dest, n)
        ctx.emit(ev.Retreated(nation, kind, n, src, dest))
    ctx.scratch["retreats"] = []
    normalise_units(ctx.state)


def starvation(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    units = unit_table(ctx.catalogs)
    dice = ctx.dice.sub("starvation")
    for nation in sorted(x.nation for x in ctx.state["nations"]):
        total = population_points(board, ctx.state, nation)
        used = points_used(ctx.state, nation, units)
        starved: dict[tuple[str, str], int] = {}
        while used > total:
            flat = [(u.location, u.kind) for u in ctx.state["units"] if u.nation == nation
                    and int(units[u.kind]["pp"]) > 0 for _ in range(u.count)]
            if not flat:
                break
            loc, kind = pick(dice, flat, f"starvation {nation}")
            take_units(ctx.state, nation, kind, loc, 1)
            used -= int(units[kind]["pp"])
            starved[(kind, loc)] = starved.get((kind, loc), 0) + 1
            normalise_units(ctx.state)
        for (kind, loc), n in sorted(starved.items()):
            ctx.emit(ev.Starved(nation, kind, loc, n))


def income(ctx: TurnContext) -> None:
    board = board_of(ctx.map)
    for row in sorted(ctx.state["nations"], key=lambda x: x.nation):
        row.salary = salary(board, ctx.state, row.nation)
        row.population = population_points(board, ctx.state, row.nation)
        row.gold += row.salary
        realms = sum(1 for r in ctx.state["realms"] if r.owner == row.nation)
        ctx.emit(ev.Income(row.nation, row.salary, row.gold, row.population, realms))


PHASES: list[Phase] = [
    Phase("diplomacy", diplomacy, "Declarations of war and peace take effect."),
    Phase("purchase", purchases, "Units and castles bought in your own realms; gold is paid."),
    Phase("moves", moves, "All units move at once; galleys reach the seas."),
    Phase("sea battles", sea_battles, "Galleys of nations at war sharing a sea fight."),
    Phase("convoys", convoys, "Convoys cross where an own galley holds the sea."),
    Phase("arrivals", arrivals, "Contests (most knights), claims of neutral realms."),
    Phase("land battles", battles, "Attacks on foreign realms on the combat results table."),
    Phase("retreats", retreats, "Losers of battles retreat or are destroyed."),
    Phase("starvation", starvation, "Nations over their population points lose random units."),
    Phase("income", income, "Each realm's gold is paid into the treasury."),
]
