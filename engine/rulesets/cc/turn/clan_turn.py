"""The working view of one clan's turn: the state indexed for the phases, and the small
questions every order asks (is this city friendly? what does this convoy carry? can it pay?).

Only the active clan acts ([PLAYER SEQUENCING]); the other clans' things are read (their
convoys in a hex, their cities' owners and bans) and changed only by what the active clan
does to them. Food is counted here in 120ths of a unit so that tenths (ten pulses) and
twelfths (a sea convoy with an Engineer) share one exact count; it goes back to the clan's
tenths at the end of the turn, a part tenth eaten counting as eaten.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator

from engine.dice import Dice
from engine.events import Event
from engine.map import GameMap
from engine.orders import OrderSheet
from engine.ruleset import TurnContext
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.turn import events as ev

FOOD_UNIT = 120      # one unit of food in the turn's count (a tenth is 12, a twelfth 10)
WEAPONS = ("rifles", "grenades", "rockets", "bombs")


class Ground:
    """Terrain, roads and rivers as movement reads them (turn/movement.why_not_enter), for a
    clan's turn and for the viewer's reach preview alike; needs `book`, `gmap`, `roads`,
    `rivers` (sets of frozenset hex pairs)."""

    book: Book
    gmap: GameMap
    roads: set[frozenset[int]]
    rivers: set[frozenset[int]]

    def terrain(self, cell: int) -> dict:
        return self.book.terrain.get(self.gmap.terrain_at(cell), {})

    def road(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.roads

    def river(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.rivers


class ClanTurn(Ground):
    """One clan's turn over the context's state: indexes, the clan's orders by block, dice."""

    def __init__(self, ctx: TurnContext, clan: int, sheet: OrderSheet | None) -> None:
        self.ctx = ctx
        s = ctx.state
        if not s["world"]:
            s["world"].append(st.World())
        self.world: st.World = s["world"][0]
        self.opts = ctx.options
        self.book = Book(ctx.catalogs)
        self.board = ctx.map.grid
        self.gmap = ctx.map
        found = [c for c in s["clans"] if c.number == clan]
        if not found:
            raise ValueError(f"clan {clan} is not in the clans table")
        self.clan: st.Clan = found[0]
        self.number = clan
        # the clan's own turn number: its turn N is its turn of game turn N (X5), even when it
        # runs ahead of a late clan or behind as a catch-up; once-a-turn marks, sightings and
        # "taken this turn" are counted by it, as the checker counts (sheet_stats.next_turn)
        self.turn = self.clan.turns_run + 1
        self.dice: Dice = ctx.dice.sub("clan", clan, self.turn)
        self.hexes: dict[int, st.Hex] = {h.cell: h for h in s["hexes"]}
        self.cities: dict[int, st.City] = {c.cell: c for c in s["cities"]}
        self.buildings: dict[int, set[str]] = defaultdict(set)
        for b in s["buildings"]:
            self.buildings[b.cell].add(b.code)
        self.roads: set[frozenset[int]] = {frozenset((r.cell, r.to)) for r in s["roads"]}
        self.rivers: set[frozenset[int]] = {frozenset(ab) for ab in self.gmap.links.get("river", ())}
        self.relations: dict[tuple[int, int], st.Relation] = {(r.clan, r.other): r for r in s["relations"]}
        self.clans: dict[int, st.Clan] = {c.number: c for c in s["clans"]}
        self.hostile: set[tuple[int, int]] = {(h.cell, h.clan) for h in s["hostile"]}
        self.marks: set[tuple[str, int, int]] = {
            (m.kind, m.convoy, m.cell) for m in s["turn_marks"]
            if m.clan == clan and m.game_turn == self.turn}
        self.food = self.clan.food_tenths * (FOOD_UNIT // 10)
        self.prices: dict[str, int] = {p.item: p.price for p in s["prices"]}
        cats = ctx.catalogs
        self.special = cats["special_structures"].by("code")
        self.custom = cats["custom_structures"].by("id")
        self.building_rows = cats["buildings"].by("code")
        self.goods = cats["goods"].by("id")
        # vehicles and experts by Convoy.id, kept in step with the state's tables (a game of
        # hundreds of convoys must not scan every vehicle each time a convoy moves)
        self._vehicles: dict[int, list[st.Vehicle]] = defaultdict(list)
        for v in s["vehicles"]:
            self._vehicles[v.convoy].append(v)
        self._experts: dict[int, list[st.Expert]] = defaultdict(list)
        for e in s["experts"]:
            self._experts[e.convoy].append(e)
        self._last_seq: dict[int, int] | None = None   # inbox seq by clan (tell), read lazily
        self.stopped: set[int] = set()            # Convoy.id of convoys done for the turn
        self.entered: dict[int, int] = {}          # Convoy.id -> cell it entered this pulse
        self.orders: list[o.CcOrder] = [x for x in (sheet.orders if sheet else [])
                                        if isinstance(x, o.CcOrder)]

    # ---- events and bookkeeping ---------------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.ctx.emit(event)

    def fail(self, order: o.CcOrder | str, reason: str, convoy: int = 0, pulse: int = 0) -> None:
        kw, line = (order, 0) if isinstance(order, str) else (order.keyword, order.line)
        self.emit(ev.OrderFailed(self.number, kw, convoy, pulse, line, reason))

    def done(self, order: o.CcOrder, detail: str, convoy: int = 0, pulse: int = 0, amount: int = 0) -> None:
        self.emit(ev.OrderDone(self.number, order.keyword, convoy, pulse, order.line, detail, amount))

    def not_built(self, order: o.CcOrder, needs: str, convoy: int = 0, pulse: int = 0) -> None:
        self.emit(ev.NotBuilt(self.number, order.keyword, convoy, pulse, order.line, needs))

    def random_event(self, order: o.CcOrder | None, chance_pct: int = 100) -> None:
        """The turn's random event: for sure for an EVENT order, else with `chance_pct` percent
        (turn/random_events.py rolls and applies it). The checker's dry run overrides this:
        it rolls nothing and bounds what an event could do (dryrun.DryTurn)."""
        # imported here: random_events builds on this class
        from engine.rulesets.cc.turn.random_events import happen

        happen(self, order, chance_pct)

    def roll(self, lo: int, hi: int, why: str) -> int:
        """A number from lo to hi, both included (the book's "10-15")."""
        return lo if hi <= lo else lo + self.dice.d(hi - lo + 1, why) - 1

    def mark(self, kind: str, convoy: int = 0, cell: int = -1) -> bool:
        """A once-a-turn use: True the first time (and remembered), False after."""
        key = (kind, convoy, cell)
        if key in self.marks:
            return False
        self.marks.add(key)
        self.ctx.state["turn_marks"].append(st.TurnMark(self.number, self.turn, kind, convoy, cell))
        return True

    def seen(self, cell: int, how: str) -> None:
        self.ctx.state["seen"].append(st.Seen(self.number, cell, self.turn, how))

    def tell(self, clan: int, kind: str, cell: int, text: str) -> None:
        """News for another clan's next report ("Heard on the Radio", passings, messages)."""
        box = self.ctx.state["inbox"]
        if self._last_seq is None:   # the inbox keeps every delivered item: scanned once a turn
            self._last_seq = {}
            for m in box:
                self._last_seq[m.clan] = max(m.seq, self._last_seq.get(m.clan, 0))
        seq = self._last_seq[clan] = 1 + self._last_seq.get(clan, 0)
        box.append(st.Inbox(clan, seq, self.turn, kind, cell, text))

    def label(self, cell: int) -> str:
        return self.board.label(cell, "ccrr")

    # ---- the clan's convoys ------------------------------------------------------------------

    def convoys(self) -> list[st.Convoy]:
        """The clan's convoys in number order (the order they act and pay maintenance)."""
        return sorted((c for c in self.ctx.state["convoys"] if c.owner == self.number),
                      key=lambda c: c.number)

    def convoy(self, number: int | None) -> st.Convoy | None:
        return next((c for c in self.ctx.state["convoys"]
                     if c.owner == self.number and c.number == number), None)

    def fleet(self, cv: st.Convoy) -> dict[str, int]:
        out: dict[str, int] = {}
        for v in self._vehicles.get(cv.id, ()):
            if v.count > 0:
                out[v.type] = out.get(v.type, 0) + v.count
        return out

    def vehicle_rows(self, cv: st.Convoy) -> list[st.Vehicle]:
        return list(self._vehicles.get(cv.id, ()))

    def experts(self, cv: st.Convoy) -> set[str]:
        return {e.code for e in self._experts.get(cv.id, ())}

    def morale_gain(self, cv: st.Convoy, gain: int) -> int:
        """A morale improvement (a celebration, a Rec Center), raised by the convoy's Gourmet
        (X251, option `gourmet_morale`)."""
        pct = cs.expert_pct(self.book, "GOU", self.experts(cv)) if self.opts.gourmet_morale else 0
        return cs.more_morale(gain, pct)

    def expert_rows(self, cv: st.Convoy) -> list[st.Expert]:
        return list(self._experts.get(cv.id, ()))

    def add_expert(self, cv: st.Convoy, code: str) -> None:
        e = st.Expert(cv.id, code)
        self.ctx.state["experts"].append(e)
        self._experts[cv.id].append(e)

    def drop_expert(self, e: st.Expert) -> None:
        """An expert leaves the convoy for good (cc-cycle: a planted spy)."""
        self.ctx.state["experts"].remove(e)
        self._experts[e.convoy].remove(e)

    def move_expert(self, e: st.Expert, to: st.Convoy) -> None:
        """An expert changes convoy; the modes it allowed lapse in the convoy it left (KILL
        MODE back to N without a Gunner, AID off without a Doctor)."""
        self._experts[e.convoy].remove(e)
        frm = next((c for c in self.ctx.state["convoys"] if c.id == e.convoy), None)
        e.convoy = to.id
        self._experts[to.id].append(e)
        if frm is not None:
            left = self.experts(frm)
            if "GUN" not in left:
                frm.kill_mode = "N"
            if "DOC" not in left:
                frm.aid = False

    def add_vehicles(self, cv: st.Convoy, vid: str, n: int) -> None:
        """Add (or with n < 0 remove) vehicles; rows with no vehicles left are dropped."""
        mine = self._vehicles[cv.id]
        row = next((v for v in mine if v.type == vid), None)
        if row is None:
            if n > 0:
                row = st.Vehicle(cv.id, vid, n)
                self.ctx.state["vehicles"].append(row)
                mine.append(row)
            return
        row.count += n
        if row.count <= 0:
            self.ctx.state["vehicles"].remove(row)
            mine.remove(row)

    def troop_cap(self, cv: st.Convoy) -> int:
        return cs.troop_capacity(self.book, self.fleet(cv), self.experts(cv))

    def cargo_cap(self, cv: st.Convoy) -> int:
        return cs.cargo_capacity(self.book, self.fleet(cv), self.experts(cv), cv.mode == "empty")

    def weapon_caps(self, cv: st.Convoy) -> dict[str, int]:
        fleet, cap = self.fleet(cv), self.troop_cap(cv)
        return {"rifles": cs.rifle_capacity(cap), "grenades": cs.grenade_capacity(cap),
                "rockets": cs.rocket_capacity(self.book, fleet),
                "bombs": cs.bomb_capacity(self.book, fleet)}

    def size(self, cv: st.Convoy) -> int:
        return cs.size(self.book, self.fleet(cv))

    def training_pct(self, cv: st.Convoy) -> int:
        """Consumption change in percent from training: -1 per 5 points above 30, +1 below."""
        step = int(self.opts.stat_step)
        return -int((cv.training - 30) / step)

    def remove_convoy(self, cv: st.Convoy, reason: str) -> None:
        s = self.ctx.state
        s["convoys"].remove(cv)
        s["vehicles"][:] = [v for v in s["vehicles"] if v.convoy != cv.id]
        s["experts"][:] = [e for e in s["experts"] if e.convoy != cv.id]
        self._vehicles.pop(cv.id, None)
        self._experts.pop(cv.id, None)
        self.stopped.add(cv.id)
        self.emit(ev.ConvoyLost(cv.owner, cv.number, reason))   # told to its own clan

    def new_convoy(self, kind: str, cell: int, name: str = "") -> st.Convoy:
        """A convoy with the lowest free number (X30) and a fresh game-wide id."""
        s = self.ctx.state
        used = {c.number for c in s["convoys"] if c.owner == self.number}
        number = next(n for n in range(1, len(used) + 2) if n not in used)
        cid = 1 + max((c.id for c in s["convoys"]), default=0)
        cv = st.Convoy(id=cid, owner=self.number, number=number, type=kind, cell=cell,
                       name=name or f"{self.clan.name} #{number}", created_turn=self.turn)
        s["convoys"].append(cv)
        return cv

    # ---- the map: Ground's terrain, road, river ---------------------------------------------

    def ally(self, other: int) -> bool:
        r = self.relations.get((self.number, other))
        return bool(r and r.ally)

    def owns_hex(self, cell: int) -> bool:
        h = self.hexes.get(cell)
        return h is not None and h.owner == self.number

    def banned_by(self, owner: int) -> bool:
        if not owner or owner == self.number:
            return False
        r = self.relations.get((owner, self.number))
        return bool(r and r.ban) or self.clans.get(owner, st.Clan()).ban_all

    def friendly_city(self, cell: int) -> st.City | None:
        """The city here if it is the clan's, or neither hostile to it nor banning it ([CITIES])."""
        c = self.cities.get(cell)
        if c is None:
            return None
        if c.owner == self.number:
            return c
        if (cell, self.number) in self.hostile or self.banned_by(c.owner):
            return None
        return c

    def city_capacity(self, city: st.City) -> int:
        row = self.book.fortifications.get(city.fortification, {})
        # X247 (D23): a Barracks in a city the clan took this turn does not work for it yet
        fresh = city.owner == self.number and city.conquered_turn == self.turn
        key = "capacity_barracks" if "BAR" in self.buildings[city.cell] and not fresh else "capacity"
        return int(row.get(key, 0))

    def others_here(self, cell: int, hidden: bool = False) -> Iterator[st.Convoy]:
        """Other clans' convoys in the hex that could fight, not the clan's allies: the visible
        ones, or with `hidden` the hidden ones too (a hunt, a battle's other side)."""
        for c in self.ctx.state["convoys"]:
            if (c.cell == cell and c.owner != self.number and (hidden or not c.hidden)
                    and not self.ally(c.owner)):
                yield c

    # ---- paying -----------------------------------------------------------------------------

    def price(self, item: str) -> int:
        if item in self.prices:
            return self.prices[item]
        row = self.book.supplies.get(item) or self.goods.get(item)
        return int(row["price"]) if row else 0

    def pay(self, dollars: int) -> bool:
        if dollars > self.clan.money:
            return False
        self.clan.money -= dollars
        return True

    def stock(self, item: str) -> int:
        return self.food // FOOD_UNIT if item == "food" else getattr(self.clan, item)

    def take(self, item: str, n: int, cv: st.Convoy | None = None) -> bool:
        """Draw n of a stock (fuel, parts, food...); a Dealer in the convoy buys what is short
        at the dealer's price if the money is there (F22, X64). False: not enough, nothing drawn."""
        have = self.stock(item)
        if have < n and cv is not None and "DEA" in self.experts(cv) and item in ("food", "fuel", "parts"):
            short = n - have
            cost = math.ceil(short * self.price(item) * int(self.opts.dealer_price_pct) / 100)
            if self.pay(cost):
                self.put(item, short)
                self.emit(ev.OrderDone(self.number, "DEALER", cv.number, 0, 0,
                                       f"the Dealer bought {short} {item} for ${cost:,}", cost))
        if self.stock(item) < n:
            return False
        self.put(item, -n)
        return True

    def put(self, item: str, n: int) -> None:
        if item == "food":
            self.food += n * FOOD_UNIT
        else:
            setattr(self.clan, item, getattr(self.clan, item) + n)

    def close(self) -> None:
        """Write the turn's food count back to the clan's tenths (a part tenth eaten is gone)."""
        self.clan.food_tenths = max(0, self.food // (FOOD_UNIT // 10))
