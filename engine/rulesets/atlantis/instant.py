"""Step 1 of the turn: the instant orders.

FORM comes first, so new units exist (and have numbers) before anything names them: new
units are numbered from `World.next_unit` by faction number, then in the order the FORM
lines stand in the faction's orders. Then every unit, in report order, carries out its
other instant orders in the order written. A new unit inherits the flags its former had
when the month began (the book: AVOID, BEHIND, AUTOTAX...; GUARD is not inherited, since
a unit of no men cannot guard).
"""

from __future__ import annotations

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.catalog import level_of
from engine.rulesets.atlantis.lore import ShowItem, ShowSkill
from engine.rulesets.atlantis.magic import combat_refusal
from engine.rulesets.atlantis.turn import Turn, turn_of

FLAGS = {o.Autotax: "autotax", o.Avoid: "avoid", o.Behind: "behind", o.Guard: "guard",
         o.Hold: "hold", o.Noaid: "noaid"}
INSTANT = (o.Address, o.Name, o.Describe, o.Password, o.Option, o.Declare, o.Flag, o.Combat,
           o.Claim, o.Leave, o.Enter, o.Promote, o.Quit, o.Restart, o.Forget, o.Destroy,
           o.Reveal, o.Consume, o.Show, o.Find)


def run(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    for u in t.units.values():
        u.given_from = 0          # "given this month" is this month's
    record_known_skills(t)
    form_units(t)
    t.bind_orders()
    for u, order in t.acting(*INSTANT):
        handler = HANDLERS.get(type(order)) or (_flag if isinstance(order, o.Flag) else None)
        if handler is not None:
            handler(t, u, order)


def record_known_skills(t: Turn) -> None:
    """Last month's report gave each faction a skill report for every level its units had
    reached (report.py, lore.py): those levels are known from now on."""
    known = {(k.faction, k.skill): k for k in t.ctx.state["known_skills"]}
    for u in sorted(t.units.values(), key=lambda u: u.number):
        for skill, days in sorted(t.days[u.number].items()):
            level = level_of(days, u.men)
            row = known.get((u.faction, skill))
            if row is None and level > 0:
                known[(u.faction, skill)] = st.KnownSkill(u.faction, skill, level)
            elif row is not None and level > row.level:
                row.level = level
    t.ctx.state.tables["known_skills"] = [known[k] for k in sorted(known)]


def form_units(t: Turn) -> None:
    for faction, order in t.orders:
        if not isinstance(order, o.Form):
            continue
        by = t.units.get(t.resolve(order.unit, faction))
        if by is None or by.faction != faction:
            continue              # the checker has said so
        n = t.world.next_unit
        t.world.next_unit += 1
        new = st.Unit(n, faction, by.cell, "Unit", men=0, structure=by.structure,
                      seq=t.next_seq(by.cell), avoid=by.avoid, behind=by.behind,
                      hold=by.hold, noaid=by.noaid, autotax=by.autotax, reveal=by.reveal,
                      consume=by.consume, formed=t.world.month + 1)
        t.units[n] = new
        t.new_units.add(n)
        t.formed[(faction, order.alias)].append(n)
        t.formed_at[(faction, order.line)] = n
        t.emit(ev.UnitFormed(faction, n, order.alias, by.number, by.cell))


def _faction(t: Turn, u: st.Unit, order: o.AtlantisOrder, value: str) -> None:
    t.emit(ev.FactionChanged(u.faction, u.number, o.verb(order), value))


def _unit(t: Turn, u: st.Unit, order: o.AtlantisOrder, value: str) -> None:
    t.emit(ev.UnitChanged(u.faction, u.number, o.verb(order), value))


def _owned(t: Turn, u: st.Unit, order: o.AtlantisOrder) -> st.Structure | None:
    """The structure `u` is in and owns, or None with the reason said."""
    x = t.structures.get(u.structure) if u.structure else None
    if x is None:
        t.fail(u, order, "the unit is not in a building or ship")
        return None
    owner = t.owner(x.number)
    if owner is None or owner.number != u.number:
        t.fail(u, order, f"only the owner of [{x.number}] may do this")
        return None
    return x


def _address(t: Turn, u: st.Unit, order: o.Address) -> None:
    t.factions[u.faction].email = order.address
    _faction(t, u, order, order.address)


def _name(t: Turn, u: st.Unit, order: o.Name) -> None:
    if order.target == "faction":
        t.factions[u.faction].name = order.name
        _faction(t, u, order, order.name)
    elif order.target == "unit":
        u.name = order.name
        _unit(t, u, order, order.name)
    elif (x := _owned(t, u, order)) is not None:
        x.name = order.name
        t.emit(ev.StructureChanged(u.faction, u.number, x.number, "NAME", order.name))


def _describe(t: Turn, u: st.Unit, order: o.Describe) -> None:
    if order.target == "unit":
        u.description = order.description
        _unit(t, u, order, order.description)
        return
    x = _owned(t, u, order)
    if x is None:
        return
    kind = t.object_rows.get(x.kind, {}).get("kind", "building")
    if kind != order.target:
        t.fail(u, order, f"[{x.number}] is a {kind}, not a {order.target}")
        return
    x.description = order.description
    t.emit(ev.StructureChanged(u.faction, u.number, x.number, "DESCRIBE", order.description))


def _password(t: Turn, u: st.Unit, order: o.Password) -> None:
    t.factions[u.faction].password = order.password
    _faction(t, u, order, "set" if order.password else "cleared")


def _option(t: Turn, u: st.Unit, order: o.Option) -> None:
    f = t.factions[u.faction]
    if order.setting == "template":
        f.template = order.value
    else:
        f.times = order.setting == "times"
    _faction(t, u, order, f"{order.setting} {order.value}".strip())


def _declare(t: Turn, u: st.Unit, order: o.Declare) -> None:
    t.declarations += 1
    if order.default:
        t.factions[u.faction].default_attitude = order.attitude
        _faction(t, u, order, f"default {order.attitude}")
        return
    if order.other not in t.factions or order.other == u.faction:
        t.fail(u, order, f"there is no other faction {order.other}")
        return
    if order.attitude:
        t.attitudes[(u.faction, order.other)] = order.attitude
    else:
        t.attitudes.pop((u.faction, order.other), None)
    _faction(t, u, order, f"{order.other} {order.attitude or 'default'}")


def _flag(t: Turn, u: st.Unit, order: o.Flag) -> None:
    name = FLAGS[type(order)]
    if name == "guard" and order.value and not t.combat_ready(u.number):
        t.fail(u, order, "only combat-ready units may guard (Combat 1, or Longbow or "
               "Crossbow 1 with the bow)")
        return
    setattr(u, name, bool(order.value))
    if order.value and name in ("guard", "avoid"):   # the two exclude each other
        setattr(u, "avoid" if name == "guard" else "guard", False)
    _unit(t, u, order, "1" if order.value else "0")


def _combat(t: Turn, u: st.Unit, order: o.Combat) -> None:
    why = combat_refusal(t.level(u.number, order.spell), t.items[u.number],
                         t.is_mage(u.number), order.spell, t.item_rows)
    if why:
        t.fail(u, order, why)
        return
    u.combat_spell = order.spell
    _unit(t, u, order, order.spell)


def _claim(t: Turn, u: st.Unit, order: o.Claim) -> None:
    f = t.factions[u.faction]
    amount = max(0, min(order.amount, f.unclaimed))
    f.unclaimed -= amount
    t.add(u.number, "silver", amount)
    t.emit(ev.Claimed(u.faction, u.number, amount, order.amount))


def _leave(t: Turn, u: st.Unit, order: o.Leave) -> None:
    if not u.structure:
        t.fail(u, order, "the unit is not in a building or ship")
    elif u.cell not in t.regions:
        t.fail(u, order, "a unit cannot LEAVE at sea")
    else:
        was, u.structure = u.structure, 0
        t.emit(ev.StructureChanged(u.faction, u.number, was, "LEAVE", ""))


def _enter(t: Turn, u: st.Unit, order: o.Enter) -> None:
    x = t.structures.get(order.object)
    if x is None or x.cell != u.cell:
        t.fail(u, order, f"there is no object [{order.object}] here")
        return
    if u.structure == x.number:
        t.fail(u, order, f"the unit is already in [{x.number}]")
        return
    owner = t.owner(x.number)
    if owner is not None and not t.declared_friendly(owner.faction, u.faction):
        t.fail(u, order, f"the owner of [{x.number}] does not admit the unit")
        return
    u.structure, u.seq = x.number, t.next_seq(u.cell)
    t.emit(ev.StructureChanged(u.faction, u.number, x.number, "ENTER", ""))


def _promote(t: Turn, u: st.Unit, order: o.Promote) -> None:
    x = _owned(t, u, order)
    if x is None:
        return
    target = t.units.get(t.resolve(order.target, u.faction, u.cell))
    if target is None or target.structure != x.number:
        t.fail(u, order, f"unit {order.target} is not in [{x.number}]")
        return
    if not t.declared_friendly(target.faction, u.faction):
        t.fail(u, order, f"unit {target.number} has not declared the unit's faction Friendly")
        return
    u.seq, target.seq = target.seq, u.seq
    t.emit(ev.StructureChanged(u.faction, u.number, x.number, "PROMOTE", str(target.number)))


def _password_ok(t: Turn, u: st.Unit, order: o.Quit | o.Restart) -> bool:
    # the password as the month began (the one the #atlantis line gave): a PASSWORD order
    # takes effect only when the turn has run, so it neither unlocks nor blocks a QUIT
    was = {f.number: f.password for f in t.ctx.previous["factions"]}
    password = was.get(u.faction, t.factions[u.faction].password)
    if password and order.password != password:
        t.fail(u, order, "the password is wrong")
        return False
    return True


def _quit(t: Turn, u: st.Unit, order: o.Quit) -> None:
    if _password_ok(t, u, order):
        t.factions[u.faction].quit = True
        _faction(t, u, order, "the faction leaves the game at the end of the month")


def _restart(t: Turn, u: st.Unit, order: o.Restart) -> None:
    """Like QUIT, and the month's end founds a new faction for the player (gm.restart)."""
    if _password_ok(t, u, order):
        f = t.factions[u.faction]
        f.quit = True
        restarts = t.ctx.scratch.setdefault("restart", [])
        if f.number not in restarts:
            restarts.append(f.number)
        _faction(t, u, order, "the faction leaves the game at the end of the month; a new "
                 "faction begins for its player")


def _forget(t: Turn, u: st.Unit, order: o.Forget) -> None:
    if t.days[u.number].pop(order.skill, 0) <= 0:
        t.fail(u, order, f"the unit does not know {order.skill}")
        return
    t.emit(ev.SkillForgotten(u.faction, u.number, order.skill))


def _destroy(t: Turn, u: st.Unit, order: o.Destroy) -> None:
    if u.cell not in t.regions:
        t.fail(u, order, "nothing can be destroyed at sea")
        return
    x = _owned(t, u, order)
    if x is None:
        return
    del t.structures[x.number]
    for other in t.units.values():
        if other.structure == x.number:
            other.structure = 0
    t.emit(ev.StructureChanged(u.faction, u.number, x.number, "DESTROY", x.kind))


def _reveal(t: Turn, u: st.Unit, order: o.Reveal) -> None:
    u.reveal = order.mode
    _unit(t, u, order, order.mode)


def _consume(t: Turn, u: st.Unit, order: o.Consume) -> None:
    u.consume = order.mode
    _unit(t, u, order, order.mode)


def _show(t: Turn, u: st.Unit, order: o.Show) -> None:
    """SHOW ITEM of any item; SHOW SKILL of a level the faction knows (its `known_skills`,
    brought up to date as the month began). The report writes the texts (lore.py)."""
    if order.what == "item":
        if order.name not in t.item_rows:
            t.fail(u, order, f"no such item {order.name}")
        else:
            t.emit(ShowItem(u.faction, order.name))
        return
    known = max((k.level for k in t.ctx.state["known_skills"]
                 if k.faction == u.faction and k.skill == order.name), default=0)
    if known < order.level:
        t.fail(u, order, f"the faction does not know {order.name} {order.level}")
        return
    t.emit(ShowSkill(u.faction, order.name, order.level))


def _find(t: Turn, u: st.Unit, order: o.Find) -> None:
    f = t.factions.get(order.other)
    if f is None:
        t.fail(u, order, f"there is no faction {order.other}")
        return
    t.emit(ev.Found(u.faction, u.number, f.number, f.name, f.email))


HANDLERS = {o.Address: _address, o.Name: _name, o.Describe: _describe, o.Password: _password,
            o.Option: _option, o.Declare: _declare, o.Combat: _combat, o.Claim: _claim,
            o.Leave: _leave, o.Enter: _enter, o.Promote: _promote, o.Quit: _quit,
            o.Restart: _restart, o.Forget: _forget, o.Destroy: _destroy, o.Reveal: _reveal,
            o.Consume: _consume, o.Show: _show, o.Find: _find}
