"""Step 9 of the turn: the month-long orders WORK, ENTERTAIN, PRODUCE, STUDY, TEACH, BUILD
(MOVE, ADVANCE and SAIL belong to the movement step). One a unit: the parser keeps one;
a unit formed this month without one WORKs, as the book says.

Shared monthly supplies (entertainment, a region's products) are split among the units
asking in proportion to what each could take (rules.share), units higher on the report
getting the odd units. STUDY is judged first, so TEACH knows who studies what.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat.muster import sees, unseen_note
from engine.rulesets.atlantis.sailing import coastal
from engine.rulesets.atlantis.turn import Turn, turn_of

LONG = (o.Work, o.Entertain, o.Produce, o.Study, o.Teach, o.Build)
MAX_LEVEL = 5


def run(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    jobs: dict[type, list[tuple[st.Unit, o.AtlantisOrder]]] = defaultdict(list)
    busy = set()
    for u in t.in_report_order():
        for order in t.by_unit.get(u.number, ()):
            if order.month_long:
                busy.add(u.number)
                if isinstance(order, LONG):
                    jobs[type(order)].append((u, order))
        if u.number in t.new_units and u.number not in busy:
            jobs[o.Work].append((u, o.Work(unit=o.UnitRef(u.number), faction=u.faction)))
    _study_and_teach(t, jobs[o.Study], jobs[o.Teach])
    for u, order in jobs[o.Work]:
        _work(t, u, order)
    _entertain(t, jobs[o.Entertain])
    _produce(t, jobs[o.Produce])
    for u, order in jobs[o.Build]:
        _build(t, u, order)


def _work(t: Turn, u: st.Unit, order: o.AtlantisOrder) -> None:
    region = t.regions.get(u.cell)
    if region is None:
        t.fail(u, order, "there is no work at sea")
        return
    amount = u.men * region.wages
    t.add(u.number, "silver", amount)
    t.emit(ev.Earned(u.faction, u.number, u.cell, "WORK", amount))


def _entertain(t: Turn, jobs: list) -> None:
    per_level = int(t.ctx.options["entertain_per_level"])
    wants: dict[int, list[tuple[st.Unit, int]]] = defaultdict(list)
    for u, order in jobs:
        level = t.level(u.number, "entertainment")
        if u.cell not in t.regions:
            t.fail(u, order, "nobody is entertained at sea")
        elif level < 1:
            t.fail(u, order, "the unit has no Entertainment skill")
        else:
            wants[u.cell].append((u, rules.entertainment_wanted(u.men, level, per_level)))
    for cell in sorted(wants):
        region = t.regions[cell]
        got = t.hand_out("entertain", cell, "silver", region.entertainment,
                         [w for _u, w in wants[cell]])
        for (u, _w), amount in zip(wants[cell], got, strict=True):
            t.add(u.number, "silver", amount)
            t.emit(ev.Earned(u.faction, u.number, cell, "ENTERTAIN", amount))


def _produce(t: Turn, jobs: list) -> None:
    types = bool(t.ctx.options["faction_types"])
    from_land: dict[tuple[int, str], list[tuple[st.Unit, int]]] = defaultdict(list)
    for u, order in jobs:
        row = t.item_rows.get(order.item)
        if row is None or not row["skill"] or row["kind"] == "magic":
            t.fail(u, order, f"{order.item} cannot be produced" + (
                " (mages make it with CAST)" if row is not None and row["kind"] == "magic" else ""))
            continue
        if types and t.factions[u.faction].kind != "trade":
            t.fail(u, order, "only Trade factions may produce")
            continue
        level = t.level(u.number, row["skill"])
        if rules.production(u.men, level, row) <= 0:
            t.fail(u, order, f"producing {order.item} needs {row['skill']} "
                   f"{max(1, int(row['level']))}")
            continue
        if not row["material"]:              # from the land: the region's monthly product
            if t.products.get((u.cell, order.item), 0) <= 0:
                t.fail(u, order, f"no {order.item} can be produced here")
            else:
                from_land[(u.cell, order.item)].append((u, rules.production(u.men, level, row)))
            continue
        material = row["material"]
        amount = rules.production(u.men, level, row, t.has(u.number, material))
        if amount <= 0:
            t.fail(u, order, f"the unit has no {material}")
            continue
        t.add(u.number, material, -amount * max(1, int(row["material_qty"])))
        t.add(u.number, order.item, amount)
        t.emit(ev.Produced(u.faction, u.number, u.cell, order.item, amount))
    for (cell, item), rows in sorted(from_land.items()):
        got = t.hand_out("product", cell, item, t.products[(cell, item)], [w for _u, w in rows])
        for (u, _w), amount in zip(rows, got, strict=True):
            t.add(u.number, item, amount)
            t.emit(ev.Produced(u.faction, u.number, cell, item, amount))


# ---- STUDY and TEACH ----------------------------------------------------------------------

def _study_and_teach(t: Turn, studies: list, teaches: list) -> None:
    studying: dict[int, str] = {}        # unit -> skill, for those who may study
    mages = {u.faction: 0 for u in t.units.values()}
    for u in t.units.values():
        mages[u.faction] += t.is_mage(u.number)
    limit = int(t.ctx.options["max_mages"])
    for u, order in studies:
        why = _cannot_study(t, u, order.skill, mages.get(u.faction, 0), limit)
        if why:
            t.fail(u, order, why)
            continue
        row = t.skill_rows[order.skill]
        if row["magic"] and not t.is_mage(u.number):
            mages[u.faction] += 1
        studying[u.number] = order.skill
    teachers: dict[int, Fraction] = defaultdict(Fraction)
    taught: list[tuple[st.Unit, st.Unit]] = []
    for teacher, order in teaches:
        students = []
        for ref in order.targets:
            s = t.units.get(t.resolve(ref, teacher.faction, teacher.cell))
            why = _cannot_teach(t, teacher, s, studying)
            if why:
                t.fail(teacher, order, f"cannot teach unit {ref}: {why}",
                       unseen_note(t, teacher, ref, s) if why == NOT_HERE else "")
            elif s not in students:
                students.append(s)
        total = sum(s.men for s in students)
        for s in students:
            teachers[s.number] += rules.teachers_share(teacher.men, s.men, total)
            taught.append((teacher, s))
    for u, order in studies:
        if u.number not in studying:
            continue
        row = t.skill_rows[order.skill]
        cost = u.men * int(row["cost"])
        t.add(u.number, "silver", -cost)
        per_man = rules.study_days(u.men, teachers.get(u.number, 0))
        have = t.days[u.number].get(order.skill, 0)
        cap = 30 * MAX_LEVEL * (MAX_LEVEL + 1) // 2 * u.men    # level 5: 15 months a man
        new = min(cap, have + per_man * u.men)
        t.days[u.number][order.skill] = new
        t.emit(ev.Studied(u.faction, u.number, order.skill, new - have, cost,
                          t.level(u.number, order.skill)))
    for teacher, s in taught:
        t.emit(ev.Taught(teacher.faction, teacher.number, s.number, studying[s.number]))


def _cannot_study(t: Turn, u: st.Unit, skill: str, mages: int, limit: int) -> str:
    row = t.skill_rows.get(skill)
    if row is None:
        return f"there is no skill {skill}"
    if t.level(u.number, skill) >= MAX_LEVEL:
        return f"the unit already knows {skill} {MAX_LEVEL}, the highest level"
    if row["requires"] and t.level(u.number, row["requires"]) < int(row["requires_level"]):
        return f"{skill} needs {row['requires']} {row['requires_level']} first"
    if row["one_man"] and u.men != 1:
        return f"only a one-man unit may study {skill}"
    if row["magic"] and not t.is_mage(u.number) and mages >= limit:
        return f"the faction has as many mages as it may ({limit})"
    cost = u.men * int(row["cost"])
    if t.has(u.number, "silver") < cost:
        return f"studying {skill} costs ${cost} and the unit has ${t.has(u.number, 'silver')}"
    return ""


NOT_HERE = "it is not here (or you cannot see it)"


def _cannot_teach(t: Turn, teacher: st.Unit, s: st.Unit | None, studying: dict) -> str:
    # unseen reads as absent, and consent comes before anything about the student's study:
    # a TEACH must not probe for hidden units or what other factions' units learn
    if s is None or s.cell != teacher.cell or s is teacher or not sees(t, teacher.faction, s):
        return NOT_HERE
    if not t.declared_friendly(s.faction, teacher.faction):
        return "its faction has not declared yours Friendly"
    skill = studying.get(s.number)
    if skill is None:
        return "it does not study this month"
    if t.level(teacher.number, skill) <= t.level(s.number, skill):
        return f"the teacher's {skill} is not higher than the student's"
    return ""


# ---- BUILD ----------------------------------------------------------------------------------

def _build(t: Turn, u: st.Unit, order: o.Build) -> None:
    if u.cell not in t.regions:
        t.fail(u, order, "nothing can be built at sea")
        return
    if t.ctx.options["faction_types"] and t.factions[u.faction].kind != "trade":
        t.fail(u, order, "only Trade factions may build")
        return
    if order.object_type:
        kind = order.object_type
        x = None
    else:
        x = t.structures.get(u.structure) if u.structure else None
        if x is None:
            t.fail(u, order, "the unit is in no building or ship to work on")
            return
        kind = x.kind
    row = t.object_rows.get(kind)
    if row is None:
        t.fail(u, order, f"there is no object type {kind}")
        return
    if x is not None and x.work >= int(row["cost"]):
        t.fail(u, order, f"[{x.number}] is finished")
        return
    level = t.level(u.number, row["skill"])
    if level < 1:
        t.fail(u, order, f"building a {kind} needs {row['skill']} 1")
        return
    if t.has(u.number, row["material"]) <= 0:
        t.fail(u, order, f"the unit has no {row['material']}")
        return
    if row["kind"] == "ship" and not coastal(t, u.cell):
        t.fail(u, order, "ships are built only in coastal regions")
        return
    if x is None:
        x = st.Structure(t.world.next_object, kind, u.cell,
                         "Ship" if row["kind"] == "ship" else "Building")
        t.world.next_object += 1
        t.structures[x.number] = x
        u.structure, u.seq = x.number, t.next_seq(u.cell)
    work = min(rules.work_done(u.men, level), int(row["cost"]) - x.work,
               t.has(u.number, row["material"]))
    t.add(u.number, row["material"], -work)
    x.work += work
    t.emit(ev.Built(u.faction, u.number, x.number, kind, work, x.work >= int(row["cost"])))
