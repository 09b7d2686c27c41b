"""Magic (the book's Magic section): CAST in step 6 ("instant magic"), Teleport at the
month's end, and which combat spells a unit may set with COMBAT.

- The item-creating spells (Create Staff of Light / Fear / Fire, Create Amulet of
  Invisibility / True Seeing): the mage must know the spell; the attempt costs the spell's
  silver (`spells.csv` cost) from the mage's own silver whether it works or not, and
  succeeds with a chance of `chance_per_level` % times the spell's level (one d100, seeded
  dice). The item goes to the mage.
- Teleport (`CAST TELEPORT target UNITS unit ...`) runs after the month-long orders: the
  target knows Teleport and its faction has declared the caster's Friendly (or is the
  caster's); every sent unit of another faction likewise; the units stand in the caster's
  region, weigh at most `teleport_weight` in all (men, goods, horses) and the target's
  region lies at most `teleport_range` x the mage's Teleport level away (hex distance of
  the map). Sent units come out in the target's building or ship.
- Who is told (reading 94): the sent units' factions and the caster's; the target's faction
  only of the sent units its units in the target's region see (the book's sight rules, so
  always inside a building or ship), and not who sent them nor from where; a sent unit's
  faction that does not see the caster beside it is not told the caster's number.
- One CAST a month per mage (both steps count), and CAST is not a month-long order.
- Automatic spells and the amulets change Stealth and Observation: sight.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.ruleset import TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat.muster import sees, unseen_note
from engine.rulesets.atlantis.sight import unseen
from engine.rulesets.atlantis.turn import Turn, turn_of

TELEPORT = "teleport"
_CAST = "atlantis.cast"   # ctx.scratch: the mages that have cast this month


def cast_level(levels: Mapping[str, int], items: Mapping[str, int], spell: str,
               item_rows: Mapping[str, Mapping]) -> int:
    """The level at which a unit casts `spell` (0: it cannot): its own level in the spell,
    or the level of a magic item it holds that casts it (a staff: level 3), the higher.
    The battle reads the same function for `Unit.combat_spell`."""
    best = levels.get(spell, 0)
    for item, n in items.items():
        row = item_rows.get(item)
        if n > 0 and row is not None and row.get("casts") == spell:
            best = max(best, int(row.get("cast_level", 0)))
    return best


def combat_refusal(level: int, items: Mapping[str, int], mage: bool, spell: str,
                   item_rows: Mapping[str, Mapping]) -> str:
    """Why a unit with `level` in `spell`, holding `items`, may not choose it with COMBAT
    ("" if it may); a staff serves only a mage (the book: it "allows a mage to cast")."""
    if level >= 1 or (mage and cast_level({}, items, spell, item_rows) >= 1):
        return ""
    if cast_level({}, items, spell, item_rows) >= 1:
        return f"only a mage may cast {spell} with a staff"
    return f"the unit does not know {spell} and holds no staff that casts it"


def _spell_rows(t: Turn) -> dict:
    return t.ctx.catalogs["spells"].by("name")


def _once(t: Turn, u: st.Unit, order: o.Cast) -> bool:
    """True the first time a mage casts this month; a second CAST is refused."""
    done: set[int] = t.ctx.scratch.setdefault(_CAST, set())
    if u.number in done:
        t.fail(u, order, "a mage may CAST only one spell a month")
        return False
    done.add(u.number)
    return True


# ---- 6. instant magic ---------------------------------------------------------------------


def instant_magic(ctx: TurnContext) -> None:
    """CAST of every spell but Teleport, mages in report order."""
    t = turn_of(ctx)
    rows = _spell_rows(t)
    dice = ctx.dice.sub("instant magic")
    for u, order in t.acting(o.Cast):
        if order.spell == TELEPORT:
            continue
        row = rows.get(order.spell)
        why = _why_not(t, u, order, row)
        if why:
            t.fail(u, order, why)
            continue
        if not _once(t, u, order):
            continue
        cost = int(row["cost"])
        t.add(u.number, "silver", -cost)
        level = t.level(u.number, order.spell)
        chance = min(100, int(row["chance_per_level"]) * level)
        roll = dice.d(100, f"unit {u.number} casts {order.spell}")
        made = row["creates"] if roll <= chance else ""
        if made:
            t.add(u.number, made, 1)
        t.emit(ev.SpellCast(u.faction, u.number, order.spell, made, cost))


def _why_not(t: Turn, u: st.Unit, order: o.Cast, row: Mapping | None) -> str:
    if row is None:
        return f"there is no spell {order.spell}"
    if row["use"] != "cast":
        how = ("is used automatically; no order is needed" if row["use"] == "automatic"
               else "is cast in battle: set it with COMBAT")
        return f"{order.spell} {how}"
    if not row["creates"]:
        return f"{order.spell} cannot be cast this way"
    if t.level(u.number, order.spell) < 1:
        return f"the unit does not know {order.spell}"
    cost = int(row["cost"])
    if t.has(u.number, "silver") < cost:
        return f"casting {order.spell} costs {cost} silver; the mage has {t.has(u.number, 'silver')}"
    return ""


# ---- Teleport at the month's end -----------------------------------------------------------


def teleport(ctx: TurnContext) -> None:
    t = turn_of(ctx)
    for u, order in t.acting(o.Cast):
        if order.spell != TELEPORT:
            continue
        if t.level(u.number, TELEPORT) < 1:
            t.fail(u, order, "the unit does not know teleport")
            continue
        target = _target(t, u, order)
        if target is None or not _once(t, u, order):
            continue
        sent = _senders(t, u, order, target)
        if sent is None:
            continue
        # the sent units' factions see the caster beside them, or not (sight.py)
        beside = {x.number: x.faction == u.faction or x is u or sees(t, x.faction, u)
                  for x in sent}
        for x in sent:
            origin = x.cell
            x.cell, x.structure, x.seq = target.cell, target.structure, t.next_seq(target.cell)
            t.emit(ev.Teleported(x.faction, x.number, u.number, u.faction, target.faction,
                                 origin, x.cell, x.structure, beside[x.number]))
        for x in sent:  # the target's faction: only what its units there see arrive
            if target.faction not in (x.faction, u.faction) and sees(t, target.faction, x):
                t.emit(ev.TeleportSeen(target.faction, x.number, x.cell, x.structure))
        t.emit(ev.SpellCast(u.faction, u.number, TELEPORT, "", 0, len(sent)))


class World(Protocol):
    """What the Teleport rules read: the turn (`Turn`) or the checker's view of the state."""

    units: Mapping[int, st.Unit]
    items: Mapping[int, Mapping[str, int]]

    def level(self, unit: int, skill: str) -> int: ...

    def declared_friendly(self, faction: int, other: int) -> bool: ...


def target_refusal(w: World, caster: st.Unit, target: st.Unit, options: Mapping,
                   grid) -> str:
    """Why `caster` may not Teleport to `target` ("" if it may): the target knows Teleport,
    its faction declared the caster's Friendly, and it is within reach (hex distance)."""
    level = w.level(caster.number, TELEPORT)
    reach = int(options["teleport_range"]) * level
    # consent first: a unit whose faction has not declared the caster's Friendly tells
    # nothing of its skills or whereabouts, not even that it exists (any number can be named)
    if not w.declared_friendly(target.faction, caster.faction):
        return no_target(target.number)
    if w.level(target.number, TELEPORT) < 1:
        return f"unit {target.number} does not know teleport"
    far = grid.distance(caster.cell, target.cell) if grid is not None else 0
    if far > reach:
        return f"unit {target.number} is {far} regions away; Teleport at level {level} reaches {reach}"
    return ""


def no_target(ref: object) -> str:
    """The one answer for a Teleport target that does not exist or has not consented."""
    return f"unit {ref} cannot be teleported to: no such unit has declared your faction Friendly"


def sent_refusal(w: World, caster: st.Unit, x: st.Unit) -> str:
    """Why unit `x` (one the caster's faction sees) may not be sent by `caster` ("" if it
    may)."""
    if x.cell != caster.cell:
        return unseen(x.number)
    if not w.declared_friendly(x.faction, caster.faction):
        return f"unit {x.number}'s faction has not declared yours Friendly"
    return ""


def weight_refusal(w: World, sent: list[st.Unit], item_rows: Mapping, options: Mapping) -> str:
    """Why these units are too heavy to send together ("" if they are not)."""
    most = int(options["teleport_weight"])
    weight = sum(rules.load(x.men, w.items[x.number], item_rows).total for x in sent)
    return f"the units weigh {weight}; Teleport carries at most {most}" if weight > most else ""


def _target(t: Turn, u: st.Unit, order: o.Cast) -> st.Unit | None:
    ref = order.target or o.UnitRef()
    target = t.units.get(t.resolve(ref, u.faction))
    why = (no_target(ref) if target is None
           else target_refusal(t, u, target, t.ctx.options, t.ctx.map.grid))
    if why:
        gm = ("" if why != no_target(ref) else f"no unit {ref} is in the game" if target is None
              else f"unit {ref}'s faction {target.faction} has not declared faction "
                   f"{u.faction} Friendly")
        t.fail(u, order, why, gm)
        return None
    return target


def _senders(t: Turn, u: st.Unit, order: o.Cast, target: st.Unit) -> list[st.Unit] | None:
    """The units to send (each refused one named), or None when none may go."""
    sent: list[st.Unit] = []
    for ref in order.units:
        x = t.units.get(t.resolve(ref, u.faction, u.cell))
        why = (unseen(ref) if x is None or x.cell != u.cell or not sees(t, u.faction, x)
               else f"unit {x.number} is the target itself" if x is target
               else sent_refusal(t, u, x))
        if why:
            t.fail(u, order, why, unseen_note(t, u, ref, x) if why == unseen(ref) else "")
        elif x not in sent:
            sent.append(x)
    why = weight_refusal(t, sent, t.item_rows, t.ctx.options) or ("" if sent else
                                                                   "no unit to teleport")
    if why:
        t.fail(u, order, why)
        return None
    return sent
