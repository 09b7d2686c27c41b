"""Steps 4, 5, 7 and 10 of the turn: GIVE, PILLAGE and TAX, the market, maintenance.

Monthly supplies (taxable silver, men for sale, entertainment, products) are the region's
figures for a month; what is taken is counted in the turn (`Turn.used`), so the figures
in the state stay the next month's supply. The book gives no growth or decline of regions
other than after pillaging (a region's tax silver recovers over `pillage_recovery`
months, `recover`), so they stay as they are.
"""

from __future__ import annotations

from collections import defaultdict

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat.muster import observers, sees, sighting, unseen_note
from engine.rulesets.atlantis.sight import unseen
from engine.rulesets.atlantis.turn import Turn, turn_of

# ---- 4. GIVE ------------------------------------------------------------------------------


def give(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    for u, order in t.acting(o.Give):
        if u.given_from and t.attitude(u.faction, u.given_from) != "ally":
            t.fail(u, order, "a unit given away this month may not GIVE unless its new "
                   "faction is allied to the old")
            continue
        ref = order.target
        if not ref.number and not ref.alias:
            _discard(t, u, order)
            continue
        target = t.units.get(t.resolve(ref, u.faction, u.cell))
        if target is None or target.cell != u.cell or target is u \
                or not sees(t, u.faction, target):   # unseen reads as absent
            t.fail(u, order, unseen(ref), unseen_note(t, u, ref, target))
        elif order.whole_unit:
            _give_unit(t, u, target, order)
        elif order.item == "man":
            _give_men(t, u, target, order)
        else:
            _give_items(t, u, target, order)


def _discard(t: Turn, u: st.Unit, order: o.Give) -> None:
    if order.whole_unit:
        t.fail(u, order, "a whole unit cannot be discarded")
    elif order.item == "man":
        _disband(t, u, order)
    else:
        _give_items(t, u, None, order)


def _disband(t: Turn, u: st.Unit, order: o.Give) -> None:
    """GIVE 0 n men: the men are disbanded (the book's "killed or disbanded"; the servers'
    GIVE 0 of men) and take their share of every skill's days with them; a unit left
    without men is dissolved after the market, like any other."""
    n = min(order.quantity, u.men)
    if n <= 0:
        t.fail(u, order, "the unit has no men to disband")
        return
    for skill, days in sorted(t.days[u.number].items()):
        t.days[u.number][skill] = rules.split_days(days, u.men, n)[0]
    u.men -= n
    t.emit(ev.Given(u.faction, u.number, 0, 0, "man", n, order.quantity))


def _give_items(t: Turn, u: st.Unit, target: st.Unit | None, order: o.Give) -> None:
    """Items to `target`, or thrown away (None)."""
    if (target is not None and order.item != "silver"
            and not t.declared_friendly(target.faction, u.faction)):
        t.fail(u, order, f"unit {target.number}'s faction has not declared yours Friendly")
        return
    amount = min(order.quantity, t.has(u.number, order.item))
    if amount <= 0:
        t.fail(u, order, f"the unit has no {order.item}")
        return
    t.add(u.number, order.item, -amount)
    if target is not None:
        t.add(target.number, order.item, amount)
    t.emit(ev.Given(u.faction, u.number, target.number if target else 0,
                    target.faction if target else 0, order.item, amount, order.quantity))


def _one_man_skill(t: Turn, unit: int) -> str:
    for k in sorted(t.days[unit]):
        if t.skill_rows.get(k, {}).get("one_man") and t.days[unit][k] > 0:
            return k
    return ""


def _give_men(t: Turn, u: st.Unit, target: st.Unit, order: o.Give) -> None:
    if target.faction != u.faction:
        t.fail(u, order, "men may be given only to units of your faction (give the whole unit)")
        return
    n = min(order.quantity, u.men)
    if n <= 0:
        t.fail(u, order, "the unit has no men to give")
        return
    if target.men + n > 1 and (_one_man_skill(t, target.number) or _one_man_skill(t, u.number)):
        t.fail(u, order, "a unit knowing " + (_one_man_skill(t, target.number)
                                              or _one_man_skill(t, u.number))
               + " must stay a one-man unit")
        return
    # the men take their share of every skill's days; the receiver's days add up, so the
    # merged unit's level is the exact average (catalog.level_of)
    for skill, days in sorted(t.days[u.number].items()):
        kept, going = rules.split_days(days, u.men, n)
        t.days[u.number][skill] = kept
        t.days[target.number][skill] = t.days[target.number].get(skill, 0) + going
    u.men -= n
    target.men += n
    t.emit(ev.Given(u.faction, u.number, target.number, target.faction, "man", n,
                    order.quantity))


def _give_unit(t: Turn, u: st.Unit, target: st.Unit, order: o.Give) -> None:
    if target.faction == u.faction:
        t.fail(u, order, "the unit already belongs to that faction")
        return
    if not t.declared_friendly(target.faction, u.faction):
        t.fail(u, order, f"unit {target.number}'s faction has not declared yours Friendly")
        return
    if t.is_mage(u.number) and _mages(t, target.faction) >= int(t.ctx.options["max_mages"]):
        t.fail(u, order, f"faction {target.faction} has as many mages as it may")
        return
    old, u.faction, u.given_from = u.faction, target.faction, u.faction
    t.emit(ev.UnitGiven(old, u.number, target.faction))


def _mages(t: Turn, faction: int) -> int:
    return sum(1 for x in t.units.values() if x.faction == faction and t.is_mage(x.number))


# ---- 5. PILLAGE and TAX ------------------------------------------------------------------


def tax(ctx: TurnContext) -> None:
    """PILLAGE first (TAX then finds nothing left where a region was pillaged), then TAX and
    AUTOTAX. Guards of another faction block PILLAGE whatever their attitude, and TAX by
    factions they have not declared Friendly."""
    t = turn_of(ctx)
    per_man = int(ctx.options["tax_per_man"])
    types = bool(ctx.options["faction_types"])
    guards: dict[int, list[st.Unit]] = defaultdict(list)
    everyone = t.in_report_order()
    for g in everyone:
        if g.guard and g.men > 0:
            guards[g.cell].append(g)
    pillagers = _pillage(t, per_man, types, guards)
    ordered = {u.number: order for u, order in t.acting(o.Tax)}
    takers: dict[int, list[st.Unit]] = defaultdict(list)
    for u in everyone:
        order = ordered.get(u.number)
        if order is None and not (u.autotax and u.number not in pillagers):
            continue
        why = _cannot_tax(t, u, types, guards[u.cell], "tax")
        if why:
            if order is not None:
                t.fail(u, order, why)
            else:
                t.emit(ev.OrderFailed(u.faction, u.number, "AUTOTAX", 0, why))
            continue
        takers[u.cell].append(u)
    for cell in sorted(takers):
        units = takers[cell]
        got = t.hand_out("tax", cell, "silver", _available(t, cell),
                         [u.men * per_man for u in units])
        for u, amount in zip(units, got, strict=True):
            t.add(u.number, "silver", amount)
            t.emit(ev.Taxed(u.faction, u.number, cell, amount))


def _available(t: Turn, cell: int) -> int:
    """The region's taxable silver this month (less while it recovers from a pillage)."""
    r = t.regions[cell]
    return rules.tax_silver(r.silver, r.pillaged, int(t.ctx.options["pillage_recovery"]))


def _pillage(t: Turn, per_man: int, types: bool, guards: dict[int, list[st.Unit]]) -> set[int]:
    """PILLAGE: each faction needs combat-ready men in the region enough to tax half its
    silver; the pillagers share twice that silver by their men; the region's tax silver is
    gone and comes back over `pillage_recovery` months. Returns who ordered PILLAGE."""
    asked: set[int] = set()
    want: dict[int, list[tuple[st.Unit, o.Pillage]]] = defaultdict(list)
    for u, order in t.acting(o.Pillage):
        asked.add(u.number)
        why = _cannot_tax(t, u, types, guards[u.cell], "pillage")
        if why:
            t.fail(u, order, why)
        else:
            want[u.cell].append((u, order))
    here = t.by_cell() if want else {}
    for cell in sorted(want):
        available = max(0, _available(t, cell) - t.used[("tax", cell, "silver")])
        needs = rules.pillage_needs(available, per_man)
        ready: dict[int, int] = defaultdict(int)
        for x in here[cell]:
            if x.men > 0 and t.combat_ready(x.number):
                ready[x.faction] += x.men
        units = []
        for u, order in want[cell]:
            why = pillage_refusal(available, needs, ready[u.faction])
            if why:
                t.fail(u, order, why)
            else:
                units.append(u)
        if not units:
            continue
        loot = 2 * available
        t.used[("tax", cell, "silver")] += available
        for u, amount in zip(units, rules.share(loot, [u.men * loot for u in units]),
                             strict=True):
            t.add(u.number, "silver", amount)
            t.emit(ev.Pillaged(u.faction, u.number, cell, amount))
        t.regions[cell].pillaged = int(t.ctx.options["pillage_recovery"])
        raiders = {u.faction for u in units}
        best = observers(t, here[cell])
        for f in sorted({x.faction for x in here[cell]} - raiders):
            # a pillager is named only to a faction that sees it (Stealth and Observation)
            seen = next((u.number for u in units if sighting(t, best, f, u).seen), 0)
            t.emit(ev.RegionPillaged(f, seen, cell))
    return asked


def _cannot_tax(t: Turn, u: st.Unit, types: bool, guards: list[st.Unit], verb: str) -> str:
    """Why `u` may not TAX (or PILLAGE) here; "" if it may."""
    if u.cell not in t.regions:
        return f"there is nothing to {verb} at sea"
    if types and t.factions[u.faction].kind != "war":
        return f"only War factions may {verb}"
    if u.men <= 0 or not t.combat_ready(u.number):
        return (f"only combat-ready units may {verb} (Combat 1, or Longbow or Crossbow 1 "
                "with the bow)")
    return guard_refusal(t, u, guards, verb)


def guard_refusal(w, u: st.Unit, guards: list[st.Unit], verb: str) -> str:
    """Why guards stop `u` taxing or pillaging ("" if they do not): a guard of another
    faction stops PILLAGE whatever its attitude, TAX unless its faction declared `u`'s
    Friendly. `w` is the turn, or the checker's view (`declared_friendly`)."""
    for g in guards:
        if g.faction == u.faction:
            continue
        if verb == "pillage":
            return f"unit {g.number} is on guard here and lets no other faction pillage"
        if not w.declared_friendly(g.faction, u.faction):
            return f"unit {g.number} is on guard here and does not let your faction tax"
    return ""


def pillage_refusal(available: int, needs: int, has: int) -> str:
    """Why a faction with `has` combat-ready men in a region may not pillage it."""
    if available <= 0:
        return "there is no silver here to pillage"
    if has < needs:
        return (f"pillaging {available} silver of tax needs {needs} combat-ready men of the "
                f"faction here; it has {has}")
    return ""


def recover(t: Turn) -> None:
    """As the month closes, pillaged regions come a month nearer their old tax silver."""
    for r in t.regions.values():
        if r.pillaged > 0:
            r.pillaged -= 1


# ---- 7. the market ----------------------------------------------------------------------


def market(ctx: TurnContext) -> None:
    """BUY: men from the region's recruits, shared in proportion to what each buyer asked
    (as much as it could pay for); recruits bring no skills, so a unit's skill days are
    spread over more men (its level falls). Conquest regions sell nothing else. Then units
    without men dissolve (a new unit that got no recruits: the book's rule)."""
    t = turn_of(ctx)
    buyers: dict[int, list[tuple[st.Unit, o.Buy, int]]] = defaultdict(list)
    for u, order in t.acting(o.Buy):
        region = t.regions.get(u.cell)
        if order.item != "man":
            t.fail(u, order, f"no {order.item} is for sale here (Conquest regions sell only men)")
        elif region is None or region.recruits <= 0:
            t.fail(u, order, "no men are for sale here")
        elif _one_man_skill(t, u.number):
            t.fail(u, order, f"a unit knowing {_one_man_skill(t, u.number)} must stay a "
                   "one-man unit")
        else:
            price = region.recruit_price
            can = order.quantity if price <= 0 else min(order.quantity,
                                                        t.has(u.number, "silver") // price)
            buyers[u.cell].append((u, order, max(0, can)))
    for cell in sorted(buyers):
        region = t.regions[cell]
        rows = buyers[cell]
        got = t.hand_out("men", cell, "man", region.recruits, [c for _u, _o, c in rows])
        for (u, order, _can), n in zip(rows, got, strict=True):
            if n <= 0:
                t.fail(u, order, "the unit could buy no men (no silver, or none left for sale)")
                continue
            t.add(u.number, "silver", -n * region.recruit_price)
            u.men += n
            t.emit(ev.Bought(u.faction, u.number, cell, "man", n, order.quantity,
                             region.recruit_price))
    for u in t.in_report_order():
        if u.men <= 0:
            t.remove_unit(u, "no recruits" if u.number in t.new_units else "no men left")


# ---- 10. maintenance ----------------------------------------------------------------------


def maintenance(ctx: TurnContext) -> None:
    """Each man costs `maintenance` silver: paid from the unit's silver, then the surplus of
    its faction's units in the region, then the unclaimed fund, then the surplus of units
    of factions allied to it there. Each man left unfed starves with a chance of one in
    `starve_one_in` (seeded dice, one roll a man, units in report order). Then pillaged
    regions recover a month (`recover`)."""
    t = turn_of(ctx)
    per_man = int(ctx.options["maintenance"])
    one_in = int(ctx.options["starve_one_in"])
    order = t.in_report_order()
    here = t.by_cell()
    due = {u.number: u.men * per_man for u in order}
    paid: dict[int, list[int]] = {}
    for u in order:                      # own silver first, so surplus is known
        own = min(due[u.number], t.has(u.number, "silver"))
        t.add(u.number, "silver", -own)
        paid[u.number] = [own, 0, 0, 0]
    for u in order:
        short = due[u.number] - paid[u.number][0]
        if short <= 0:
            continue
        mates = [x for x in here[u.cell] if x.faction == u.faction and x is not u]
        short -= _take(t, u, mates, short, paid[u.number], 1)
        f = t.factions.get(u.faction)
        if short > 0 and f is not None and f.unclaimed > 0:
            got = min(short, f.unclaimed)
            f.unclaimed -= got
            paid[u.number][2] += got
            short -= got
        if short > 0:
            allies = [x for x in here[u.cell] if x.faction != u.faction
                      and t.attitude(x.faction, u.faction) == "ally"]
            short -= _take(t, u, allies, short, paid[u.number], 3)
    dice = ctx.dice.sub("starvation")
    for u in order:
        own, shared, unclaimed, allies = paid[u.number]
        unpaid = due[u.number] - own - shared - unclaimed - allies
        t.emit(ev.Maintained(u.faction, u.number, due[u.number], own, shared, unclaimed,
                             allies, unpaid))
        if unpaid <= 0 or per_man <= 0:
            continue
        unfed = min(u.men, -(-unpaid // per_man))
        died = sum(1 for _ in range(unfed)
                   if one_in > 0 and dice.d(one_in, f"unit {u.number} starves") == 1)
        t.emit(ev.Starved(u.faction, u.number, u.cell, unfed, died))
        if died:
            for skill, days in sorted(t.days[u.number].items()):
                t.days[u.number][skill] = rules.split_days(days, u.men, died)[0]
            u.men -= died
            if u.men <= 0:
                t.remove_unit(u, "starved")
    recover(t)


def _take(t: Turn, u: st.Unit, givers: list[st.Unit], short: int, paid: list[int],
          slot: int) -> int:
    """Silver for `u`'s upkeep from `givers`' silver left after their own upkeep."""
    got = 0
    for g in givers:
        if got >= short:
            break
        n = min(short - got, t.has(g.number, "silver"))
        if n > 0:
            t.add(g.number, "silver", -n)
            got += n
    paid[slot] += got
    return got
