"""Land battles (3.4), tactics and retreat (3.5, 3.5.1), victory points (3.6).

Chance of one hit roll (2.1, 3.4): the unit's to-hit (initial in round 1, continuous
after) minus the target's armour; for the attacker capped by the terrain's to-hit value;
then plus the to-hit bonuses of the side's troop types (each type once: general +10,
castle +5) and the tactic modifier. A d100 roll at or below the chance hits.
Units roll in casualty order (land), each at the first enemy unit its side has not hit
yet this round; both sides roll (attacker first), then the hit units are removed.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dice import Dice
from engine.ruleset import TurnContext
from engine.rulesets.kok.board import Board
from engine.rulesets.kok.catalogs import Troop
from engine.rulesets.kok.events import (
    BattleEnded,
    BattleRound,
    BattleStarted,
    HitRoll,
    LoyaltyConverted,
    ProvinceConquered,
    Retreat,
    Surrender,
    UnitsCaptured,
    UnitsLost,
)
from engine.rulesets.kok.movement import occupy
from engine.rulesets.kok.turn import Assault, TurnData, data

MAX_ROUNDS = 100  # a battle nobody can win (all chances 0) ends with the attacker withdrawing
DIRECTION_ORDER = ("N", "E", "S", "W")


def run(ctx: TurnContext) -> None:
    b = Board.load(ctx)
    d = data(ctx)
    dice = ctx.dice.sub("battles")
    done: set[int] = set()
    for a in sorted(d.assaults.values(), key=lambda a: a.seq):
        land_battle(ctx, b, d, a, dice, done)
        done.add(a.cell)
    b.save()


# ---- the hit-roll procedure, shared with sea battles ----------------------------------------

def line_up(b: Board, units: dict[str, int], key: str) -> list[Troop]:
    """One entry per fighting unit in casualty order (`key`: land_order or sea_order)."""
    out: list[Troop] = []
    for sym, n in units.items():
        t = b.troop(sym)
        if getattr(t, key) > 0:
            out.extend([t] * n)
    out.sort(key=lambda t: (getattr(t, key), t.row))
    return out


def fire(shooters: list[Troop], targets: list[Troop], chance: Callable[[Troop, Troop], int],
         dice: Dice, note: Callable[[int, Troop, int, Troop, int, int, bool], None]) -> list[Troop]:
    """One side's hit rolls of a round; returns the target units hit."""
    hit: list[Troop] = []
    nxt = 0
    for i, u in enumerate(shooters):
        if nxt >= len(targets):
            break  # every enemy unit is hit already: the rest need not roll
        t = targets[nxt]
        c = chance(u, t)
        roll = dice.percent("hit")
        ok = roll <= c
        note(i + 1, u, nxt + 1, t, c, roll, ok)
        if ok:
            hit.append(t)
            nxt += 1
    return hit


def take_losses(units: dict[str, int], hit: list[Troop]) -> dict[str, int]:
    lost: dict[str, int] = {}
    for t in hit:
        lost[t.symbol] = lost.get(t.symbol, 0) + 1
    for sym, n in lost.items():
        units[sym] -= n
        if units[sym] <= 0:
            del units[sym]
    return lost


def value(b: Board, units: dict[str, int]) -> int:
    return sum(b.troop(s).value * n for s, n in units.items())


def wants_retreat(modifier: int, own: int, enemy: int) -> bool:
    """3.5.1 for modifiers above -10 (that one withdraws after the first round anyway)."""
    if modifier >= 10:
        return False                # fight till death
    if modifier >= 5:
        return enemy > 2 * own      # only against more than two-to-one
    if modifier > -5:
        return enemy > own          # unless the enemy is stronger
    return not own > enemy          # -5: only while outnumbering the enemy


# ---- one land battle ---------------------------------------------------------------------

def _tactic(b: Board, units: dict[str, int], tactic: str) -> str:
    if tactic == "P" and not any(b.troop(s).pincer for s in units):
        return "T"  # 3.5: pincer needs a pincer troop (horsemen); otherwise standard
    return tactic if tactic in ("F", "P", "T", "U", "C") else "T"


def _bonus(b: Board, units: dict[str, int], what: str) -> int:
    return sum(getattr(b.troop(s), what) for s in units if units[s] > 0)


def land_battle(ctx: TurnContext, b: Board, d: TurnData, a: Assault, dice: Dice,
                done: set[int]) -> None:
    x, att = a.cell, a.attacker
    dfn = b.owner(x)
    if not b.of(x, att) or dfn == att:
        return
    if dfn == 0 or not b.of(x, dfn):
        occupy(ctx, b, x, att)  # defenders left (3.1.2): the province is simply taken
        return
    au, du = dict(b.of(x, att)), dict(b.of(x, dfn))
    at = "F" if a.amphibious else _tactic(b, au, a.tactic)
    dt = _tactic(b, du, b.province(x).tactic)
    am, dm = b.tactics.get((at, dt), (0, 0))
    terrain = b.terrain(x)
    cap = terrain.hit_cap
    ctx.emit(BattleStarted(x, att, dfn, b.sorted_units(au), b.sorted_units(du), at, dt, am, dm,
                           terrain.name, cap, a.frm, a.amphibious))
    lost_a: dict[str, int] = {}
    lost_d: dict[str, int] = {}
    outcome, rounds = "", 0
    while not outcome:
        rounds += 1
        r = rounds
        al, dl = line_up(b, au, "land_order"), line_up(b, du, "land_order")
        if not al or not dl:
            rounds -= 1
            break
        ab, db = _bonus(b, au, "hit_bonus"), _bonus(b, du, "hit_bonus")

        def a_chance(u: Troop, t: Troop, r: int = r, ab: int = ab) -> int:
            c = (u.initial_hit if r == 1 else u.hit) - t.armour
            if cap:
                c = min(c, cap)
            return c + ab + am

        def d_chance(u: Troop, t: Troop, r: int = r, db: int = db) -> int:
            return (u.initial_hit if r == 1 else u.hit) - t.armour + db + dm

        def note(side: str, f: int, o: int, r: int = r):
            def emit_roll(i, u, j, t, c, roll, ok):
                ctx.emit(HitRoll(x, r, side, f, u.symbol, i, o, t.symbol, j, c, roll, ok))
            return emit_roll

        hits_d = fire(al, dl, a_chance, dice, note("attacker", att, dfn))
        hits_a = fire(dl, al, d_chance, dice, note("defender", dfn, att))
        la, ld = take_losses(au, hits_a), take_losses(du, hits_d)
        for s, n in la.items():
            lost_a[s] = lost_a.get(s, 0) + n
        for s, n in ld.items():
            lost_d[s] = lost_d.get(s, 0) + n
        an, dn = len(line_up(b, au, "land_order")), len(line_up(b, du, "land_order"))
        ctx.emit(BattleRound(x, r, att, dfn, b.sorted_units(la), b.sorted_units(ld), an, dn))
        # retreat tests use the morale of the troop types still standing (a fallen castle
        # no longer steadies its side)
        a_morale, d_morale = am + _bonus(b, au, "morale"), dm + _bonus(b, du, "morale")
        if an and a_morale <= -10:
            outcome = "attacker retreats"
        elif an == 0 or dn == 0:
            outcome = "over"
        elif r >= MAX_ROUNDS or wants_retreat(a_morale, an, dn):
            outcome = "attacker retreats"
        elif d_morale <= -10 or wants_retreat(d_morale, dn, an):
            outcome = "defender retreats"
    # write the round losses back to the board
    for s, n in lost_a.items():
        b.remove(x, att, s, n)
    for s, n in lost_d.items():
        b.remove(x, dfn, s, n)
    winner = dfn
    if outcome == "attacker retreats":
        _withdraw_attacker(ctx, b, a, lost_a, dfn)
    elif outcome == "defender retreats":
        _withdraw_defender(ctx, b, d, x, dfn, att, lost_d, done)
        winner = att
    elif b.combatants(x, att) and not b.combatants(x, dfn):
        winner = att
    elif not b.combatants(x, att):
        _lose_rest(ctx, b, x, att, dfn, lost_a, "left without fighting troops")
    if winner == att:
        _lose_rest(ctx, b, x, dfn, att, lost_d, "left behind in a conquered province")
        p = b.province(x)
        castles = sum(n for s, n in lost_d.items() if b.troop(s).static)
        p.owner = att
        ctx.emit(ProvinceConquered(att, x, dfn, castles))
        if ctx.options["loyalty"] and p.loyal == 0:
            p.loyal = att
            ctx.emit(LoyaltyConverted(x, att, 0, "leaderless"))
    va, vd = value(b, lost_a), value(b, lost_d)
    d.victory[att] = d.victory.get(att, 0) + vd - va
    d.victory[dfn] = d.victory.get(dfn, 0) + va - vd
    ctx.emit(BattleEnded(x, att, dfn, winner, rounds, va, vd, vd - va, va - vd, b.owner(x)))


def _lose_rest(ctx: TurnContext, b: Board, cell: int, loser: int, winner: int,
               lost: dict[str, int], why: str) -> None:
    """Units that cannot fight or move away are lost (and count for fame, 3.4), or with
    the capture option (7.6) non-combatants change sides."""
    rest = b.remove_all(cell, loser)
    if not rest:
        return
    captured = {s: n for s, n in rest.items()
                if ctx.options["capture"] and b.troop(s).land_order == 0}
    for s, n in rest.items():
        lost[s] = lost.get(s, 0) + n
    for s, n in captured.items():
        b.add(cell, winner, s, n)
    if captured:
        ctx.emit(UnitsCaptured(winner, loser, cell, b.sorted_units(captured)))
    gone = {s: n for s, n in rest.items() if s not in captured}
    if gone:
        ctx.emit(UnitsLost(loser, cell, b.sorted_units(gone), why))


def _split_static(b: Board, units: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    mobile = {s: n for s, n in units.items() if not b.troop(s).static}
    static = {s: n for s, n in units.items() if b.troop(s).static}
    return mobile, static


def _withdraw_attacker(ctx: TurnContext, b: Board, a: Assault, lost: dict[str, int],
                       dfn: int) -> None:
    x, att, back = a.cell, a.attacker, a.frm
    mobile, static = _split_static(b, b.of(x, att))
    if b.is_sea(back):
        ok = not any(b.at_war(att, t) for t in b.tribes_at(back))
    else:
        ok = b.owner(back) == att
    if ok:
        for s, n in mobile.items():
            b.remove(x, att, s, n)
            b.add(back, att, s, n)
        ctx.emit(Retreat(att, "attacker", x, back, b.sorted_units(mobile)))
    else:
        for s, n in mobile.items():
            b.remove(x, att, s, n)
        ctx.emit(Surrender(att, "attacker", x, dfn, b.sorted_units(mobile),
                           f"{b.label(back)} is no longer theirs"))
    if static:
        _lose_rest(ctx, b, x, att, dfn, lost, "could not retreat")


def _withdraw_defender(ctx: TurnContext, b: Board, d: TurnData, x: int, dfn: int, att: int,
                       lost: dict[str, int], done: set[int]) -> None:
    mobile, static = _split_static(b, b.of(x, dfn))
    to = None
    for direction in DIRECTION_ORDER:
        n = b.step(x, direction)
        if n is None or b.is_sea(n) or b.owner(n) != dfn:
            continue
        if n in d.assaults and n not in done:
            continue  # a province about to be fought over does not take retreating troops
        if any(b.hostile(t, dfn) for t in b.tribes_at(n)):
            continue
        to = n
        break
    if to is not None:
        for s, n in mobile.items():
            b.remove(x, dfn, s, n)
            b.add(to, dfn, s, n)
        ctx.emit(Retreat(dfn, "defender", x, to, b.sorted_units(mobile)))
    else:
        for s, n in mobile.items():
            b.remove(x, dfn, s, n)
        ctx.emit(Surrender(dfn, "defender", x, att, b.sorted_units(mobile),
                           "no neighbouring province of theirs to retreat into"))
    if static:
        _lose_rest(ctx, b, x, dfn, att, lost, "could not retreat")
