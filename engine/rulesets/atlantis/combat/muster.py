"""The muster (Combat: Attacking, The Muster, Victory!): who may attack whom, who gathers
on each side, and what a battle leaves behind in the turn.

Seeing is a faction's business, as in the report: a faction sees a unit when its best
Observation among its units in the region is at least the unit's effective Stealth (units
on guard, inside a structure or revealing themselves are always seen), and names its
faction when that Observation is higher (sight.py's effective levels, so spells and
amulets count). At sea nobody hides and nobody rides away (Attacking, last paragraph).

The battle engine (battle.py) is pure; this module builds its `Combatant`s from the turn
and applies its `BattleResult`: men and their study days lost, the dead's items, the
spoils, emptied units removed, winners with losses held (`Turn.no_move`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.rulesets.atlantis import rules, sight
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.combat.battle import (
    ATTACKERS,
    BattleOptions,
    BattleResult,
    Combatant,
)
from engine.rulesets.atlantis.combat.report import battle_events
from engine.rulesets.atlantis.sailing import is_ocean, terrain_of
from engine.rulesets.atlantis.turn import Turn
from engine.rulesets.atlantis.world import area_name

SEEING = ("stealth", "invisibility", "observation", "true seeing")


# ---- seeing and catching --------------------------------------------------------------------

def unit_stealth(t: Turn, u: st.Unit) -> int:
    return sight.stealth({k: t.level(u.number, k) for k in SEEING}, t.items[u.number], u.men)


def unit_observation(t: Turn, u: st.Unit) -> int:
    return sight.observation({k: t.level(u.number, k) for k in SEEING}, t.items[u.number])


def observers(t: Turn, units: Iterable[st.Unit]) -> dict[int, int]:
    """{faction: best Observation} over `units` (those of a region, as a rule)."""
    best: dict[int, int] = {}
    for u in units:
        if u.men > 0:
            best[u.faction] = max(best.get(u.faction, -1), unit_observation(t, u))
    return best


def sighting(t: Turn, best: dict[int, int], faction: int, u: st.Unit) -> sight.Sighting:
    """What `faction` (its best Observation in the region in `best`) makes of unit `u`."""
    if faction == u.faction or is_ocean(t, u.cell):
        return sight.Sighting(True, True)
    return sight.sighting(best.get(faction), unit_stealth(t, u), guarding=u.guard,
                          inside=bool(u.structure), reveal=u.reveal)


def sees(t: Turn, faction: int, u: st.Unit) -> bool:
    """Whether `faction` sees `u` by its units in `u`'s region (GIVE and TEACH: an unseen
    unit reads as absent, so an order cannot probe for hidden units)."""
    if faction == u.faction:
        return True
    return sighting(t, observers(t, [x for x in t.units.values() if x.cell == u.cell]),
                    faction, u).seen


def unseen_note(t: Turn, u: st.Unit, ref: object, x: st.Unit | None) -> str:
    """The GM's reason (sight.unseen_note) why `u`'s faction does not see unit `x` (None:
    none resolved from `ref`) where `u` stands; the player is told only sight.unseen."""
    def place(cell: int) -> str:
        cx, cy = t.ctx.map.grid.atlantis(cell)
        return f"({cx},{cy})"

    if x is u:
        return f"unit {ref} is the unit itself"
    if x is None or x.number not in t.units:
        return sight.unseen_note(ref, None, place(u.cell))
    if x.men <= 0:
        return f"unit {ref} has no men left"
    best = (observers(t, [y for y in t.units.values() if y.cell == x.cell]).get(u.faction)
            if x.cell == u.cell else None)
    return sight.unseen_note(ref, place(x.cell), place(u.cell), unit_stealth(t, x), best)


def mounts(t: Turn, u: st.Unit) -> int:
    return sum(n for item, n in t.items[u.number].items()
               if t.item_rows.get(item, {}).get("kind") == "mount")


def catches(t: Turn, attacker: st.Unit, target: st.Unit) -> bool:
    """The attacker's effective Riding (one rider is enough) is at least the target's (the
    whole unit must ride, and not from inside a structure); at sea nobody rides away."""
    if is_ocean(t, target.cell):
        return True
    attack = rules.attack_riding(t.level(attacker.number, "riding"), mounts(t, attacker))
    load = rules.load(target.men, t.items[target.number], t.item_rows)
    defence = rules.defence_riding(t.level(target.number, "riding"), target.men,
                                   mounts(t, target), load.can_ride, bool(target.structure))
    return rules.catches(attack, defence)


def attitude_towards(t: Turn, faction: int, u: st.Unit, look: sight.Sighting) -> str:
    """How `faction` treats unit `u` it sees: by its faction when it names it, else by its
    default attitude unless it declared the unit's faction Friendly or Ally."""
    f = t.factions.get(faction)
    return rules.attitude_seen(t.attitude(faction, u.faction),
                               f.default_attitude if f else "neutral", look.faction_seen)


def could_reach(t: Turn, u: st.Unit, cell: int) -> bool:
    """A virtual move into `cell` with the movement points the unit has now (its load and
    horses, the terrain's cost); no ships: neither end may be ocean."""
    if is_ocean(t, u.cell) or is_ocean(t, cell):
        return False
    cost = rules.entry_cost(t.terrain_rows[terrain_of(t, cell)])
    points = rules.load(u.men, t.items[u.number], t.item_rows).points
    return cost is not None and points >= cost


# ---- the sides ------------------------------------------------------------------------------

class Regions:
    """The units of each region in report order, indexed once (for `cells`, or all), for a
    step in which nobody moves: units only die, and readers skip the dead."""

    def __init__(self, t: Turn, cells: Iterable[int] | None = None) -> None:
        wanted = None if cells is None else set(cells)
        self.t = t
        self.by: dict[int, list[st.Unit]] = defaultdict(list)
        for u in t.units.values():
            if wanted is None or u.cell in wanted:
                self.by[u.cell].append(u)
        for units in self.by.values():
            units.sort(key=lambda u: (u.seq, u.number))

    def at(self, cell: int) -> list[st.Unit]:
        return [u for u in self.by.get(cell, ()) if u.men > 0 and u.cell == cell
                and self.t.units.get(u.number) is u]


@dataclass
class Call:
    """One battle to muster: where, who starts it against whom, and who else attacks that
    faction there (explicit attackers join regardless of AVOID; explicit targets too)."""

    cell: int
    attacker: st.Unit
    target: st.Unit
    factions: list[int]                     # attacking factions, the starter's first
    explicit: set[int] = field(default_factory=set)     # units that attacked
    targets: set[int] = field(default_factory=set)      # units attacked
    outsider: st.Unit | None = None         # an ADVANCE: the mover at the border
    regions: Regions | None = None          # the step's index (None: made for the battle)


def muster(t: Turn, call: Call) -> tuple[list[st.Unit], list[st.Unit]]:
    """(attackers, defenders) in report order, the starter and its target first."""
    near = list(t.ctx.map.grid.neighbours(call.cell))
    rg = call.regions or Regions(t, [call.cell, *near])
    here = rg.at(call.cell)
    best = observers(t, here)
    attacking = set(call.factions)
    tf = call.target.faction
    # allies fight only with units here (their units around join through those)
    allies = {u.faction for u in here if u.faction != tf and u.faction not in attacking
              and t.attitude(u.faction, tf) == "ally"}

    def may_attack(u: st.Unit) -> bool:
        return u.number not in t.no_move and (not u.avoid or u.number in call.explicit)

    def identified(u: st.Unit) -> bool:
        return any(sighting(t, best, f, u).faction_seen for f in attacking)

    att = [u for u in here if u.faction in attacking and may_attack(u)]
    if call.outsider is not None:
        att.insert(0, call.outsider)
    dfn = [u for u in here if (u.faction == tf and (not u.avoid or u.number in call.targets
                                                    or identified(u)))
           or (u.faction in allies and not u.avoid)]
    att = _first(att, call.attacker)
    dfn = _first(dfn, call.target)
    for side, ok in ((att, lambda u: u.faction in attacking and u.number not in t.no_move),
                     (dfn, lambda u: u.faction == tf or u.faction in allies)):
        if all(u.noaid for u in side):
            continue  # NOAID on every unit of the side: no aid from other regions
        present = {u.faction for u in side}
        there = {u.number for u in side}
        side += [u for c in near for u in rg.at(c)
                 if u.faction in present and ok(u) and not u.avoid and not u.hold
                 and u.number not in there and could_reach(t, u, call.cell)]
    return att, dfn


def _first(units: list[st.Unit], lead: st.Unit) -> list[st.Unit]:
    return [lead] + [u for u in units if u is not lead]


# ---- combatants and the aftermath -----------------------------------------------------------

def protection(t: Turn, units: Sequence[st.Unit]) -> dict[int, int]:
    """Men of each unit a finished building protects: its size, handed out to the units
    inside in report order (those there longest first)."""
    left: dict[int, int] = {}
    out: dict[int, int] = {}
    for u in sorted(units, key=lambda u: (u.seq, u.number)):
        x = t.structures.get(u.structure) if u.structure else None
        row = t.object_rows.get(x.kind) if x is not None else None
        if row is None or row["kind"] != "building" or x.work < int(row["cost"]):
            continue
        room = left.setdefault(x.number, int(row["size"]))
        out[u.number] = min(u.men, room)
        left[x.number] = room - out[u.number]
    return out


def combatants(t: Turn, units: Sequence[st.Unit], everyone: Sequence[st.Unit],
               region: Sequence[st.Unit]) -> list[Combatant]:
    """The battle's view of `units`; `everyone` on the field and the `region`'s units
    decide who may name whose faction in the battle report."""
    best = observers(t, [*everyone, *region])
    shield = protection(t, units)
    out = []
    for u in units:
        f = t.factions.get(u.faction)
        named = frozenset(x for x in best if x != u.faction and (
            u.reveal == "faction" or best[x] > unit_stealth(t, u)))
        out.append(Combatant(
            unit=u.number, faction=u.faction, men=u.men, name=u.name,
            faction_name=f.name if f else "", levels={k: t.level(u.number, k)
                                                      for k in sorted(t.days[u.number])},
            items=dict(t.items[u.number]), behind=u.behind,
            protected=shield.get(u.number, 0), combat_spell=u.combat_spell,
            structure=u.structure, identified_by=named))
    return out


def options(t: Turn) -> BattleOptions:
    return BattleOptions(spell_range=str(t.ctx.options["spell_range"]))


def spells(t: Turn) -> dict:
    return dict(t.ctx.catalogs["spells"].by("name"))


def where(t: Turn, cell: int) -> str:
    """The region as the server's reports name it: `plain (11,15) in Turia`."""
    gmap = t.ctx.map
    x, y = gmap.grid.atlantis(cell)
    ocean = str(t.ctx.options["ocean_name"])
    return f"{terrain_of(t, cell)} ({x},{y}) in {area_name(gmap, cell, ocean)}"


def settle(t: Turn, result: BattleResult, cell: int, reason: str = "killed in battle") -> None:
    """Apply a battle: the dead and what they carried, the spoils, units left without men
    removed, the winners held if they lost anyone; then every faction in it told."""
    fought = [*result.attackers, *result.defenders]
    for c in fought:
        u = t.units.get(c.unit)
        if u is None:
            continue
        for item, n in result.lost_items.get(c.unit, {}).items():
            t.add(u.number, item, -min(n, t.has(u.number, item)))
        for item, n in result.spoils.get(c.unit, {}).items():
            t.add(u.number, item, n)
        dead = min(result.losses.get(c.unit, 0), u.men)
        if dead:
            for skill, days in list(t.days[u.number].items()):
                t.days[u.number][skill] = rules.split_days(days, u.men, dead)[0]
            u.men -= dead
    if result.winner is not None and result.side_losses(result.winner):
        t.no_move.update(c.unit for c in result.side(result.winner))
    for e in battle_events(result, cell, {c.faction for c in fought}, where=where(t, cell),
                           items=t.item_rows):
        t.emit(e)
    for c in fought:
        u = t.units.get(c.unit)
        if u is not None and u.men <= 0:
            t.remove_unit(u, reason)


def attackers_won(result: BattleResult) -> bool:
    return result.winner == ATTACKERS
