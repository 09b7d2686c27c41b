"""The Atlantis turn: the book's sequence of events as a declared phase table, and the
working view of the state its phases share.

The book's ten steps, plus the Teleport step the Magic section places at the end of the
month (read: after month-long orders, before maintenance) and a closing step that files
the month. Within a phase, units act in report order (region, then place in the region's
list, `Unit.seq`), and a unit's orders in the order written. Every step is built; an order
a step cannot carry out is refused with an `atlantis.failed` event naming it, so no order is
ever silently dropped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from engine.ruleset import Phase, TurnContext
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.catalog import level_of

FRIENDLY = ("friendly", "ally")


class Turn:
    """The state of one turn, indexed: units, their items and skills (written back to the
    state's tables at the month's end), factions, regions, structures, attitudes, the
    orders by unit, and what each region has given out this month."""

    def __init__(self, ctx: TurnContext) -> None:
        self.ctx = ctx
        s = ctx.state
        if not s["world"]:
            s["world"].append(st.World())
        self.world: st.World = s.one("world")
        self.units: dict[int, st.Unit] = {u.number: u for u in s["units"]}
        self.items: dict[int, dict[str, int]] = defaultdict(dict)
        for r in s["unit_items"]:
            self.items[r.unit][r.item] = self.items[r.unit].get(r.item, 0) + r.count
        self.days: dict[int, dict[str, int]] = defaultdict(dict)
        for r in s["unit_skills"]:
            self.days[r.unit][r.skill] = self.days[r.unit].get(r.skill, 0) + r.days
        self.factions: dict[int, st.Faction] = {f.number: f for f in s["factions"]}
        strays = sorted(u.number for u in self.units.values() if u.faction not in self.factions)
        if strays:  # a hand-made state: say which rows are wrong rather than fail somewhere
            raise ValueError(f"units {', '.join(map(str, strays[:10]))} belong to factions that "
                             "are not in the factions table; add the factions or fix the units")
        self.regions: dict[int, st.Region] = {r.cell: r for r in s["regions"]}
        self.structures: dict[int, st.Structure] = {x.number: x for x in s["structures"]}
        self.attitudes: dict[tuple[int, int], str] = {(a.faction, a.other): a.attitude
                                                      for a in s["attitudes"]}
        self.declarations = 0  # DECLAREs carried out: what was worked out from attitudes holds
        self.hostile_kept: tuple[tuple[int, int, int], frozenset[int]] | None = None  # attack.py
        self.products: dict[tuple[int, str], int] = {(p.cell, p.item): p.amount
                                                     for p in s["products"]}
        cats = ctx.catalogs
        self.item_rows = cats["items"].by("name")
        self.skill_rows = cats["skills"].by("name")
        self.object_rows = cats["objects"].by("name")
        self.terrain_rows = cats["terrains"].by("name")
        self.used: dict[tuple[str, int, str], int] = defaultdict(int)  # (what, cell, item)
        self.formed: dict[tuple[int, int], list[int]] = defaultdict(list)  # (faction, alias)
        self.formed_at: dict[tuple[int, int], int] = {}   # (faction, line of FORM) -> unit
        self.new_units: set[int] = set()
        self.orders: list[tuple[int, o.AtlantisOrder]] = []   # (faction of the set, order)
        for faction in sorted(ctx.orders):
            for order in ctx.orders[faction].orders:
                # only the faction's own set counts: another faction's set in the same
                # mail is that faction's business (the checker names it)
                if isinstance(order, o.AtlantisOrder) and order.faction in (faction, 0):
                    self.orders.append((faction, order))
        self.orders.sort(key=lambda fo: (fo[0], fo[1].line))
        self.by_unit: dict[int, list[o.AtlantisOrder]] = {}
        self.by_kind: dict[type, set[int]] = {}  # an order's class -> the units that have one
        self._last_seq: dict[int, int] = {}
        # units that fought and took losses (combat fills it): they may not move this month
        self.no_move: set[int] = set()

    # ---- references ---------------------------------------------------------------------

    def resolve(self, ref: o.UnitRef, faction: int, near: int | None = None) -> int:
        """A unit reference as a number (0: none): NEW aliases name units formed this month,
        the one in region `near` if two share an alias."""
        if ref.number or not ref.alias:
            return ref.number
        made = self.formed.get((ref.faction or faction, ref.alias), [])
        for n in made:
            if near is None or self.units[n].cell == near:
                return n
        return made[0] if made else 0

    def bind_orders(self) -> None:
        """Every order to the unit that gives it, once FORM has made the new units; a unit
        obeys only its own faction (the checker refuses the rest; this holds without it)."""
        self.by_unit = defaultdict(list)
        self.by_kind = {}
        block: dict[tuple[int, int], int] = {}   # (faction, alias) -> the FORM block's unit
        for faction, order in self.orders:       # in the order written (faction, line)
            if isinstance(order, o.Form):
                block[(faction, order.alias)] = self.formed_at.get((faction, order.line), 0)
            if order.unit.alias and not order.unit.faction and (faction, order.unit.alias) in block:
                # an order inside FORM n ... END is the unit that FORM made: the book lets
                # two regions' new units share an alias
                n = block[(faction, order.unit.alias)]
            else:
                n = self.resolve(order.unit, faction)
            u = self.units.get(n)
            if u is not None and u.faction == faction and not isinstance(order, o.Form):
                self.by_unit[n].append(order)
                self.by_kind.setdefault(type(order), set()).add(n)

    def in_report_order(self) -> list[st.Unit]:
        return sorted(self.units.values(), key=lambda u: (u.cell, u.seq, u.number))

    def acting(self, *kinds: type[o.AtlantisOrder]) -> Iterator[tuple[st.Unit, o.AtlantisOrder]]:
        """(unit, order) for the orders of these kinds, units in report order."""
        # only the units with such orders are put in report order, not every unit of the
        # world (a phase's few ATTACKs or CASTs among 10,000 units, twenty times a turn)
        numbers = {n for kind, units in self.by_kind.items() if issubclass(kind, kinds)
                   for n in units}
        having = [u for n in numbers if (u := self.units.get(n)) is not None]
        for u in sorted(having, key=lambda u: (u.cell, u.seq, u.number)):
            for order in self.by_unit.get(u.number, ()):
                if isinstance(order, kinds) and u.number in self.units:
                    yield u, order

    # ---- a unit's things ------------------------------------------------------------------

    def level(self, unit: int, skill: str) -> int:
        u = self.units.get(unit)
        return level_of(self.days[unit].get(skill, 0), u.men if u else 0)

    def has(self, unit: int, item: str) -> int:
        return self.items[unit].get(item, 0)

    def add(self, unit: int, item: str, n: int) -> None:
        have = self.items[unit].get(item, 0) + n
        if have:
            self.items[unit][item] = have
        else:
            self.items[unit].pop(item, None)

    def combat_ready(self, unit: int) -> bool:
        levels = {k: self.level(unit, k) for k in ("combat", "longbow", "crossbow")}
        return rules.combat_ready(levels, self.items[unit])

    def is_mage(self, unit: int) -> bool:
        return any(self.skill_rows.get(k, {}).get("magic") and d > 0
                   for k, d in self.days[unit].items())

    def attitude(self, faction: int, other: int) -> str:
        """`faction`'s attitude towards `other` (its default where it declared none)."""
        if faction == other:
            return "ally"
        f = self.factions.get(faction)
        return self.attitudes.get((faction, other), f.default_attitude if f else "neutral")

    def declared_friendly(self, faction: int, other: int) -> bool:
        """`faction` has declared `other` Friendly (or Ally), or they are one faction."""
        return self.attitude(faction, other) in FRIENDLY

    def owner(self, structure: int) -> st.Unit | None:
        """The first unit to enter: listed first under the structure."""
        inside = [u for u in self.units.values() if u.structure == structure]
        return min(inside, key=lambda u: (u.seq, u.number)) if inside else None

    def next_seq(self, cell: int) -> int:
        """The place after the last unit of the region's list (kept per region, so forming
        thousands of units does not rescan them all)."""
        if not self._last_seq:
            for u in self.units.values():
                self._last_seq[u.cell] = max(self._last_seq.get(u.cell, 0), u.seq)
        self._last_seq[cell] = self._last_seq.get(cell, 0) + 1
        return self._last_seq[cell]

    def by_cell(self) -> dict[int, list[st.Unit]]:
        """The units of each region in report order."""
        out: dict[int, list[st.Unit]] = defaultdict(list)
        for u in self.in_report_order():
            out[u.cell].append(u)
        return out

    def hand_out(self, what: str, cell: int, item: str, full: int,
                 wants: list[int]) -> list[int]:
        """A region's monthly supply `full` (tax, men, entertainment, a product), less what
        was taken already this month, shared among claims `wants` (rules.share)."""
        key = (what, cell, item)
        got = rules.share(max(0, full - self.used[key]), wants)
        self.used[key] += sum(got)
        return got

    # ---- movement: the ADVANCE battle ----------------------------------------------------

    def advance_fight(self, unit: st.Unit, from_cell: int, to_cell: int) -> str:
        """The battle of an ADVANCE against the guards that deny `unit` entry to `to_cell`,
        fought once all movement out of `from_cell` this round is done (movement.py). The
        unit is still in `from_cell` when this is called; the mover then places it:
        "continue" (won without losses: it enters and may go on), "stop" (won with losses,
        or a draw: it enters and stops), "retreat" (lost: it stays in the previous region).

        The battle is combat/attack.py's `advance`."""
        from engine.rulesets.atlantis.combat import attack

        return attack.advance(self, unit, from_cell, to_cell)

    # ---- events ----------------------------------------------------------------------------

    def emit(self, event) -> None:
        self.ctx.emit(event)

    def fail(self, u: st.Unit, order: o.AtlantisOrder, reason: str, gm_reason: str = "") -> None:
        """Refuse `order` with `reason` (the player's words); `gm_reason`, what only the GM
        may read (why a unit named is not seen: muster.unseen_note)."""
        self.emit(ev.OrderFailed(u.faction, u.number, o.verb(order), order.line, reason,
                                 gm_reason))

    # ---- the month's end ------------------------------------------------------------------

    def remove_unit(self, u: st.Unit, reason: str) -> None:
        """A unit without men leaves the game; its goods go to the lowest-numbered unit of
        its faction in the region (the book's rule for a new unit that got no recruits)."""
        heir = min((n for n, x in self.units.items()
                    if x.faction == u.faction and x.cell == u.cell and x.men > 0
                    and n != u.number), default=0) if self.items.get(u.number) else 0
        for item, n in sorted(self.items.pop(u.number, {}).items()):
            if heir:
                self.add(heir, item, n)
        self.days.pop(u.number, None)
        del self.units[u.number]
        self.emit(ev.UnitDissolved(u.faction, u.number, heir, u.cell, reason))

    def write_back(self) -> None:
        s = self.ctx.state
        s.tables["units"] = sorted(self.units.values(), key=lambda u: u.number)
        s.tables["unit_items"] = [st.UnitItem(n, item, c) for n in sorted(self.items)
                                  if n in self.units
                                  for item, c in sorted(self.items[n].items()) if c > 0]
        s.tables["unit_skills"] = [st.UnitSkill(n, k, d) for n in sorted(self.days)
                                   if n in self.units
                                   for k, d in sorted(self.days[n].items()) if d > 0]
        s.tables["structures"] = sorted(self.structures.values(), key=lambda x: x.number)
        s.tables["attitudes"] = [st.Attitude(f, other, a) for (f, other), a
                                 in sorted(self.attitudes.items())]


def turn_of(ctx: TurnContext) -> Turn:
    t = ctx.scratch.get("atlantis")
    if t is None:
        t = ctx.scratch["atlantis"] = Turn(ctx)
    return t


def _month_end(ctx: TurnContext) -> None:
    """The month is over: its number, factions left without units, the tables written."""
    t = turn_of(ctx)
    t.world.month += 1
    alive = {u.faction for u in t.units.values()}
    gone = False
    for f in sorted(t.factions.values(), key=lambda f: f.number):
        if f.quit:
            for u in [u for u in t.in_report_order() if u.faction == f.number]:
                t.units.pop(u.number)
                t.items.pop(u.number, None)
                t.days.pop(u.number, None)
        if not f.eliminated and (f.quit or f.number not in alive):
            f.eliminated = t.world.month
            t.emit(ev.FactionGone(f.number, "quit" if f.quit else "no units left"))
            gone = True
    if gone and rules.game_over(t.factions.values(), victory(t.ctx.options)):
        left = [f.number for f in t.factions.values() if not f.eliminated]
        t.emit(ev.GameWon(left[0] if left else 0, t.world.month))
    _keep_repeat_orders(t)
    t.write_back()
    _restarts(ctx, t)


def _restarts(ctx: TurnContext, t: Turn) -> None:
    """RESTART: a new faction for each player who gave it, after the old one is gone."""
    from engine.rulesets.atlantis.gm import restart

    for old in ctx.scratch.get("restart", []):
        new = restart(ctx.state, ctx.scenario, old)
        unit = next(u for u in ctx.state["units"] if u.faction == new.number)
        t.emit(ev.FactionJoined(new.number, old, unit.number, unit.cell))


def victory(options) -> str:
    """The `victory` option (games made before it had it: the book's reading)."""
    return str(options.values.get("victory", "last_faction"))


def _keep_repeat_orders(t: Turn) -> None:
    """`@` orders go into next month's template: a faction that sent orders has its units'
    `@` orders of this month (none written: none kept); one that did not keeps its old."""
    sent = {f for f, sheet in t.ctx.orders.items() if sheet.source != "NMR"}
    keep = [r for r in t.ctx.state["repeat_orders"]
            if r.unit in t.units and t.units[r.unit].faction not in sent]
    new = [st.RepeatOrder(n, i, order.text.strip())
           for n in sorted(t.by_unit) if n in t.units and t.units[n].faction in sent
           for i, order in enumerate(x for x in t.by_unit[n] if x.repeat)]
    t.ctx.state.tables["repeat_orders"] = sorted(keep + new, key=lambda r: (r.unit, r.seq))


def phases() -> list[Phase]:
    from engine.rulesets.atlantis import economy, instant, magic, monthly, movement, stealth
    from engine.rulesets.atlantis.combat import attack

    return [
        Phase("instant", instant.run, "1. instant orders: FORM, names, flags, CLAIM, "
              "ENTER/LEAVE/PROMOTE, DECLARE, QUIT, FORGET, DESTROY ..."),
        Phase("combat", attack.run, "2. combat: ATTACK, and attacks on units taken for "
              "Hostile; the muster, the battles, the spoils"),
        Phase("steal", stealth.run, "3. STEAL and ASSASSINATE"),
        Phase("give", economy.give, "4. GIVE items, silver, men and units"),
        Phase("tax", economy.tax, "5. PILLAGE, then TAX and AUTOTAX; guards block them"),
        Phase("instant magic", magic.instant_magic, "6. CAST: the item-creating spells"),
        Phase("market", economy.market, "7. BUY recruits; empty units dissolve"),
        Phase("movement", movement.run, "8. SAIL, ship by ship; then MOVE and ADVANCE, one hex "
              "at a time across the world"),
        Phase("month-long", monthly.run, "9. WORK, ENTERTAIN, PRODUCE, STUDY, TEACH, BUILD"),
        Phase("teleport", magic.teleport, "CAST TELEPORT at the end of the month"),
        Phase("maintenance", economy.maintenance, "10. maintenance: $10 a man, shared; "
              "starvation"),
        Phase("month end", _month_end, "the month filed: factions without units are out"),
    ]
