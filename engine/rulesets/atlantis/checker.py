"""Checking a parsed Atlantis orders sheet against the game state (nothing is changed).

The parser has already said everything the text alone shows. Here: units that are not
the faction's, targets not seen where the order acts (one wording for a unit that does
not exist, stands elsewhere or is hidden: no probe for hidden units), NEW aliases never formed, CLAIM
and BUY beyond what is there, TAX, PILLAGE and GUARD 1 without combat readiness, MOVE and
ADVANCE by units too heavy to walk, STEAL and ASSASSINATE by units not of one man, ATTACK,
STEAL and ASSASSINATE of one's own units, ATTACK of an ally's unit (a warning), CAST and
COMBAT of spells the unit cannot cast, CAST without the silver, CAST TELEPORT to a target
that cannot receive it, TAX and PILLAGE that guards would stop, PILLAGE without enough men.
Findings are warnings where the server would still carry out part of the order (it claims
what there is), errors where it would not.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from engine.orders import ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules, sight
from engine.rulesets.atlantis.catalog import OPTIONS, default_catalog, level_of
from engine.rulesets.atlantis.economy import guard_refusal, pillage_refusal
from engine.rulesets.atlantis.magic import (
    TELEPORT,
    combat_refusal,
    no_target,
    sent_refusal,
    target_refusal,
    weight_refusal,
)
from engine.scenario import Scenario
from engine.state import State


@dataclass
class _View:
    """The parts of the state the checks read, indexed once."""

    units: dict
    skills: dict
    items: dict
    factions: dict
    regions: dict
    structures: dict
    attitudes: dict

    @classmethod
    def of(cls, state: State) -> _View:
        skills: dict = defaultdict(dict)
        for r in state["unit_skills"]:
            skills[r.unit][r.skill] = r.days
        items: dict = defaultdict(dict)
        for r in state["unit_items"]:
            items[r.unit][r.item] = r.count
        return cls({u.number: u for u in state["units"]}, skills, items,
                   {f.number: f for f in state["factions"]},
                   {r.cell: r for r in state["regions"]},
                   {x.number: x for x in state["structures"]},
                   {(a.faction, a.other): a.attitude for a in state["attitudes"]})

    def level(self, unit: int, skill: str) -> int:
        u = self.units.get(unit)
        return level_of(self.skills[unit].get(skill, 0), u.men if u else 0)

    def declared_friendly(self, faction: int, other: int) -> bool:
        """As Turn.declared_friendly: `faction` declared `other` Friendly or Ally."""
        f = self.factions.get(faction)
        said = self.attitudes.get((faction, other), f.default_attitude if f else "neutral")
        return faction == other or said in ("friendly", "ally")

    def combat_ready(self, unit: int) -> bool:
        levels = {k: self.level(unit, k) for k in ("combat", "longbow", "crossbow")}
        return rules.combat_ready(levels, self.items[unit])

    @cached_property
    def declared(self) -> dict[int, dict[int, str]]:
        """faction -> {other: attitude}: what each faction has declared (the same records
        as `attitudes`, grouped once instead of scanned for every sheet)."""
        out: dict[int, dict[int, str]] = defaultdict(dict)
        for (faction, other), attitude in self.attitudes.items():
            out[faction][other] = attitude
        return out

    @cached_property
    def by_cell(self) -> dict[int, list]:
        out: dict[int, list] = defaultdict(list)
        for u in self.units.values():
            out[u.cell].append(u)
        return out


_LAST: list = []  # (state, its tables' lists and lengths, view): one entry


def _view(state: State) -> _View:
    """The index of a state, kept while the same state is checked again (the intake checks
    every faction's orders against one state); holding the state keeps its identity."""
    key = tuple((id(state[t]), len(state[t])) for t in ("units", "unit_skills", "unit_items",
                                                         "factions", "regions", "structures",
                                                         "attitudes"))
    if _LAST and _LAST[0] is state and _LAST[1] == key:
        return _LAST[2]
    v = _View.of(state)
    _LAST[:] = [state, key, v]
    return v


def check(sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list[Diagnostic]:
    v = _view(state)
    out: list[Diagnostic] = []

    def say(order: o.AtlantisOrder, message: str, severity: Severity = Severity.ERROR,
            gm_note: str = "") -> None:
        out.append(Diagnostic(ILLEGAL, f"{o.verb(order)}: {message}", order.line, 0,
                              order.text, sheet.source, severity, faction, gm_note=gm_note))

    for s in sheet.header.get("sets", []):
        if s.get("faction") and s["faction"] != faction:
            out.append(Diagnostic(ILLEGAL, f"the set for faction {s['faction']} is not faction "
                                  f"{faction}'s orders and is not checked here; import it on its "
                                  "own", s.get("line", 0), 0, "", sheet.source, Severity.WARNING,
                                  faction))
    mine = [x for x in sheet.orders if isinstance(x, o.AtlantisOrder) and x.faction == faction]
    def catalog(name: str) -> dict:
        return (scenario.catalogs[name] if scenario is not None else default_catalog(name)).by("name")

    cats = {k: catalog(k) for k in ("items", "skills", "spells")}
    items = cats["items"]
    skills = cats["skills"]
    ships = {name for name, row in catalog("objects").items() if row["kind"] == "ship"}
    options = scenario.options if scenario is not None else {x.name: x.default for x in OPTIONS}
    formed = {x.alias for x in mine if isinstance(x, o.Form)}
    steered = {v.units[x.unit.number].structure for x in mine
               if isinstance(x, o.Sail) and x.steps and x.unit.number in v.units
               and v.units[x.unit.number].structure}   # ships this sheet sails (SAIL first)
    told: set[int] = set()
    attitudes = _attitudes(v, faction, mine)
    # GIVE (step 4) comes before TAX and PILLAGE (step 5): men or a bow given this month
    # may make a unit combat-ready in time (unit -> line of the first such GIVE)
    arming = {}
    for x in mine:
        if isinstance(x, o.Give) and x.target.number and not x.target.alias \
                and not x.whole_unit and x.item in ("man", "longbow", "crossbow"):
            arming.setdefault(x.target.number, x.line)
    claimed = 0
    f = v.factions.get(faction)
    orphans = (0, 0)   # (alias, line) of a refused FORM whose block follows
    for order in mine:
        who = order.unit
        if orphans[0] and who.alias == orphans[0] and not who.faction and not who.number:
            # the orders of a refused FORM's block: no unit is formed to carry them out,
            # and no other new unit of that alias may (the turn would bind them to it)
            say(order, f"the FORM {orphans[0]} of line {orphans[1]} is refused, so NEW "
                f"{orphans[0]} is not formed there and this order is not carried out")
            continue
        orphans = (0, 0)
        if who.number:
            u = v.units.get(who.number)
            if u is None or u.faction != faction:
                # an error on every order of the unit: none of them is carried out; one
                # wording whether the unit exists or not (no probe for others' units)
                say(order, f"unit {who.number} is not a unit of faction {faction}"
                    + ("" if who.number not in told else " (its orders are ignored)"))
                told.add(who.number)
                if isinstance(order, o.Form):
                    orphans = (order.alias, order.line)
                continue
        for ref in _targets(order):
            if ref.alias and not ref.faction and ref.alias not in formed:
                say(order, f"NEW {ref.alias} is not formed in these orders (FORM {ref.alias})")
            elif ref.number and who.number and _far(order, ref) \
                    and not _here(v, faction, v.units[who.number].cell, ref.number):
                # a warning (TEACH comes after the month's moves), the same for a unit that
                # does not exist, stands elsewhere or is hidden: as the turn will say it
                say(order, sight.unseen(ref.number), Severity.WARNING,
                    _unseen_note(v, faction, v.units[who.number].cell, ref.number,
                                 scenario.map.grid if scenario is not None else None))
        if isinstance(order, o.Claim) and f is not None:
            claimed += order.amount
            if claimed > f.unclaimed:
                say(order, f"the faction has {f.unclaimed} unclaimed silver; "
                    f"{claimed} claimed in all", Severity.WARNING)
        if isinstance(order, o.Buy) and order.item == "man" and who.number:
            r = v.regions.get(v.units[who.number].cell)
            if r is None or order.quantity > r.recruits:
                say(order, f"only {r.recruits if r else 0} men are for sale here this month",
                    Severity.WARNING)
        if isinstance(order, o.Study) and who.number and order.skill in skills:
            row = skills[order.skill]
            need = int(row["requires_level"] or 0)
            if row["requires"] and v.level(who.number, row["requires"]) < need:
                say(order, f"{order.skill} needs {row['requires']} {need} first (the unit has "
                    f"{row['requires']} {v.level(who.number, row['requires'])})",
                    Severity.WARNING)
        if isinstance(order, o.Move) and who.number:  # MOVE and ADVANCE
            u = v.units[who.number]
            have = rules.load(u.men, v.items[who.number], items)
            if have.points == 0:
                say(order, f"too heavy to move: {have.goods} weight of goods, the men and "
                    f"horses carry {have.walk_capacity} (unless it gets horses or gives "
                    "goods away before moving)", Severity.WARNING)
            elif u.structure in steered:
                say(order, f"the unit is aboard [{u.structure}], which these orders SAIL first: "
                    "if it sails, the unit may not MOVE this month", Severity.WARNING)
            elif scenario is not None:
                problem = _route_problem(v, scenario, u, order.steps, have.points)
                if problem:
                    say(order, problem, Severity.WARNING)
        if isinstance(order, o.Sail) and who.number:
            say_sail = _sail_problem(v, v.units[who.number], order, ships)
            if say_sail:
                say(order, say_sail, Severity.WARNING)
        _check_crime(v, order, faction, attitudes, say)
        if who.number and isinstance(order, (o.Cast, o.Combat)):
            grid = scenario.map.grid if scenario is not None else None
            for message, severity in _magic(v, who.number, order, cats, options, grid):
                say(order, message, severity)
        ready_orders = (o.Tax, o.Pillage)
        if who.number and (isinstance(order, ready_orders)
                           or isinstance(order, o.Guard) and order.value) \
                and not v.combat_ready(who.number):
            if isinstance(order, ready_orders) and who.number in arming:
                say(order, "the unit is not combat-ready as the month begins; the GIVE on "
                    f"line {arming[who.number]} comes first and may make it so",
                    Severity.WARNING)
            else:
                say(order, "only combat-ready units may do this (Combat 1, or Longbow or "
                    "Crossbow 1 with the bow)")
        elif who.number and isinstance(order, ready_orders):
            message = _raid(v, v.units[who.number], order, options)
            if message:
                say(order, message, Severity.WARNING)
    return out


def _route_problem(v: _View, scenario: Scenario, u, steps: tuple[str, ...], points: int) -> str:
    """Where a route will stop, read on the map from where the unit stands now (a warning:
    a ship may carry it elsewhere first, and GIVE or BUY may change its points)."""
    grid, terrains = scenario.map.grid, scenario.catalogs["terrains"].by("name")
    cell, spent = u.cell, 0
    if u.cell not in v.regions and any(d in o.DIRECTIONS.values() for d in steps):
        return "the unit is at sea: only its ship moves it (SAIL)"
    for i, d in enumerate(steps, 1):
        if d == "IN":
            return f"step {i} (IN) will fail: no structure of this world has an inner passage"
        if d not in o.DIRECTIONS.values():
            continue  # a structure number or OUT: free, judged in the turn
        nxt = grid.step(cell, d)
        if nxt is None:
            return f"step {i} ({d}) leaves the map: the unit will stop there"
        r = v.regions.get(nxt)
        cost = rules.entry_cost(terrains.get(r.terrain if r else scenario.map.terrain_at(nxt),
                                             {"ocean": True, "move_cost": 0}))
        if cost is None:
            return f"step {i} ({d}) is ocean: the unit will stop before it (ships SAIL)"
        if spent + cost > points:
            return (f"step {i} ({d}) needs {cost} movement points, {max(points - spent, 0)} "
                    f"left of {points}: the unit will stop before it")
        cell, spent = nxt, spent + cost
    return ""


def _sail_problem(v: _View, u, order: o.Sail, ships: set[str]) -> str:
    """Warnings only: ENTER, LEAVE and PROMOTE run before SAIL and may change who is aboard."""
    x = v.structures.get(u.structure)
    if x is None or x.kind not in ships:
        return "the unit is not aboard a ship (unless it ENTERs one first)"
    owner = min((w for w in v.by_cell.get(u.cell, ()) if w.structure == x.number),
                key=lambda w: (w.seq, w.number))
    if order.steps and owner.number != u.number:
        return (f"only the owner of [{x.number}] steers it; this unit's course is ignored and "
                "it helps sail")
    return ""


def _attitudes(v: _View, faction: int, mine: list[o.AtlantisOrder]) -> dict[int, str]:
    """The faction's declared attitudes as its DECLARE orders (instant, before combat)
    leave them; "default" stands for the default attitude."""
    out = dict(v.declared.get(faction, {}))
    f = v.factions.get(faction)
    default = f.default_attitude if f is not None else "neutral"
    for x in mine:
        if isinstance(x, o.Declare):
            if x.default:
                default = x.attitude or default
            elif x.attitude:
                out[x.other] = x.attitude
            else:
                out.pop(x.other, None)
    out[0] = default
    return out


def _check_crime(v: _View, order: o.AtlantisOrder, faction: int, attitudes: dict[int, str],
                 say) -> None:
    """ATTACK, STEAL and ASSASSINATE: what the state shows before the turn (whether the
    target is in the region and seen is the turn's business: telling it here would tell
    a player where hidden units are)."""
    if not isinstance(order, (o.Attack, o.Steal, o.Assassinate)):
        return
    who = order.unit
    if isinstance(order, (o.Steal, o.Assassinate)):
        verb = "steal" if isinstance(order, o.Steal) else "assassinate"
        if who.alias:
            say(order, f"a unit formed this month has no men until the market step, which "
                f"comes after the step in which units {verb}")
        elif who.number in v.units and v.units[who.number].men != 1:
            say(order, f"only a unit of one man may {verb} (unit {who.number} has "
                f"{v.units[who.number].men})")
    for ref in _targets(order):
        target = v.units.get(ref.number) if ref.number else None
        if target is None:
            continue
        if target.faction == faction:
            say(order, f"unit {ref.number} is of your own faction")
        elif isinstance(order, o.Attack) and _sees(v, faction, target) and \
                attitudes.get(target.faction, attitudes[0]) == "ally":
            say(order, f"unit {ref.number} belongs to a faction declared Ally: attacking it "
                "calls the attack off and withdraws your troops", Severity.WARNING)


def _sees(v: _View, faction: int, target) -> bool:
    """Whether `faction`'s units in `target`'s region see it as the month begins (sight.py):
    only then may a warning tell anything of its faction (the book lets a seen unit of a
    faction declared Ally be known as one, as attack.py does)."""
    def levels(n: int) -> dict[str, int]:
        return {k: v.level(n, k) for k in v.skills[n]}

    obs = [sight.observation(levels(u.number), v.items[u.number])
           for u in v.by_cell.get(target.cell, ()) if u.faction == faction and u.men > 0]
    if not obs:
        return False
    stealth = sight.stealth(levels(target.number), v.items[target.number], target.men)
    return sight.sighting(max(obs), stealth, guarding=target.guard,
                          inside=bool(target.structure), reveal=target.reveal).seen


def _raid(v: _View, u, order: o.Tax | o.Pillage, options) -> str:
    """TAX and PILLAGE against the guards and men in the region as the month begins
    (economy.py's rules): warnings, since guards may stand down or DECLARE, and men may
    arrive, before step 5."""
    here = v.by_cell[u.cell]
    verb = "pillage" if isinstance(order, o.Pillage) else "tax"
    why = guard_refusal(v, u, [g for g in here if g.guard and g.men > 0], verb)
    r = v.regions.get(u.cell)
    if why or verb == "tax" or r is None:
        return why
    silver = rules.tax_silver(r.silver, r.pillaged, int(options["pillage_recovery"]))
    has = sum(x.men for x in here
              if x.faction == u.faction and x.men > 0 and v.combat_ready(x.number))
    return pillage_refusal(silver, rules.pillage_needs(silver, int(options["tax_per_man"])), has)


def _magic(v: _View, unit: int, order: o.Cast | o.Combat, cats: dict[str, dict], options,
           grid) -> list[tuple[str, Severity]]:
    """CAST and COMBAT as the turn will see them (magic.py). Instant magic and COMBAT run
    before any STUDY or GIVE of the month, so not knowing the spell is an error there; a
    Teleport comes after the month's study and DECLAREs, so its findings are warnings."""
    u = v.units[unit]
    if isinstance(order, o.Combat):
        mage = any(d > 0 and cats["skills"].get(k, {}).get("magic")
                   for k, d in v.skills[unit].items())
        why = combat_refusal(v.level(unit, order.spell), v.items[unit], mage, order.spell,
                             cats["items"])
        return [(why, Severity.ERROR)] if why else []
    spell = order.spell
    if spell != TELEPORT:
        if v.level(unit, spell) < 1:
            return [(f"the unit does not know {spell}", Severity.ERROR)]
        cost = cats["spells"].get(spell, {}).get("cost", 0)
        have = v.items[unit].get("silver", 0)
        return ([(f"casting {spell} costs {cost} silver; the mage has {have}", Severity.WARNING)]
                if have < cost else [])
    return [(m, Severity.WARNING) for m in _teleport(v, u, order, cats, options, grid)]


def _teleport(v: _View, u, order: o.Cast, cats: dict[str, dict], options, grid) -> list[str]:
    """Teleport as the month begins (magic.py's rules): all warnings, since the month's
    study, DECLAREs, GIVEs and moves come before it."""
    out = []
    if v.level(u.number, TELEPORT) < 1:
        out.append("the unit does not know teleport")
    target = v.units.get(order.target.number) if order.target is not None else None
    if target is not None:
        out.append(target_refusal(v, u, target, options, grid))
    elif order.target is not None and order.target.number:
        out.append(no_target(order.target.number))
    # units not seen here are told of once, with the other targets (check)
    sent = [v.units[ref.number] for ref in order.units
            if ref.number and _here(v, u.faction, u.cell, ref.number)]
    out += [sent_refusal(v, u, x) for x in sent]
    out.append(weight_refusal(v, [x for x in sent if not sent_refusal(v, u, x)],
                              cats["items"], options))
    return [m for m in out if m]


def _far(order: o.AtlantisOrder, ref: o.UnitRef) -> bool:
    """Whether `ref` must stand in the acting unit's region (all but a Teleport's target)."""
    return not (isinstance(order, o.Cast) and ref is order.target)


def _unseen_note(v: _View, faction: int, cell: int, number: int, grid) -> str:
    """The GM's words for a unit the faction does not see in `cell` (sight.unseen_note)."""
    def place(c: int) -> str:
        x, y = grid.atlantis(c) if grid is not None else (c, 0)
        return f"({x},{y})"

    x = v.units.get(number)
    if x is None:
        return sight.unseen_note(number, None, place(cell))
    obs = [sight.observation({k: v.level(u.number, k) for k in v.skills[u.number]},
                             v.items[u.number])
           for u in v.by_cell.get(x.cell, ()) if u.faction == faction and u.men > 0]
    stealth = sight.stealth({k: v.level(x.number, k) for k in v.skills[x.number]},
                            v.items[x.number], x.men)
    return sight.unseen_note(number, place(x.cell), place(cell), stealth,
                             max(obs) if obs else None)


def _here(v: _View, faction: int, cell: int, number: int) -> bool:
    """Whether `faction` sees unit `number` in region `cell` as the month begins."""
    x = v.units.get(number)
    return x is not None and x.cell == cell and (x.faction == faction or _sees(v, faction, x))


def _targets(order: o.AtlantisOrder) -> list[o.UnitRef]:
    if isinstance(order, (o.Give, o.Steal, o.Assassinate, o.Promote)):
        return [order.target] if order.target.number or order.target.alias else []
    if isinstance(order, (o.Attack, o.Teach)):
        return list(order.targets)
    if isinstance(order, o.Cast) and order.target is not None:
        return [order.target, *order.units]
    return []
