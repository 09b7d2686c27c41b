"""The checker's dry run: the clan's turn played on a copy of what the clan knows, with the
turn's own code, to find on the sheet's exact line what the turn will refuse.

It follows money, fuel, food, parts, troops, weapons, cargo and each convoy's position from
income through the pre-turn clan orders, the ten (twelve) pulses and the post-turn orders,
as turn/ does: the phases and order handlers are the turn's (`clan_orders.carry_out`,
`pulses.run_pulses` with `convoy_orders.carry_out`, `upkeep.pick_up_and_heal`). In Continental
Conquest the other clans are passive during a clan's turn, so only chance and what the clan
cannot see stand between the dry run and the turn. Fairness first:

- It runs on the clan's own view (view.py `visible_state`, the player's bundle): hexes and
  cities it holds or met, the foreign convoys its cities spot, the map's public geography.
  The GM's check and the viewer's therefore say the same, and nothing unseen shows through.
- It rolls no dice. Every roll the turn's code asks for is answered by `ProbeDice`, which
  knows what the roll is about: a battle (a foreign convoy in the hex entered, HUNT, ATTACK)
  or catching the Plague is an assumption: the convoy is followed on as if it came through
  unharmed (it clears the hex, loses nothing, catches nothing; X252), with a warning on the
  line ("from here on convoy #2 depends on the battle in 0912") and on each later line of the
  convoy, a refusal there saying it holds "if convoy #2 comes through ... unharmed"; a hex
  attack, income's rolled output, a casino, desertion, a Scout's loot, a Chemist's find,
  training or morale gains make the things they touch uncertain.
- A refusal is an ERROR only when the turn is certain to refuse: nothing it depends on (the
  convoy's own course, the stock it was short of, its troops, the cities and hexes held) has
  become uncertain before it. Otherwise the same finding is a warning.

Findings name the pulse and the convoy ("pulse 4: convoy #2 has 3 fuel left; the move into
mountains (0912) needs 6: it stays in 0812").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from engine.dice import Dice
from engine.events import Event, EventLog
from engine.orders import ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.orders.screen import screen
from engine.ruleset import TurnContext
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import _book_table
from engine.rulesets.cc.setup import city_sites
from engine.rulesets.cc.turn import clan_orders, convoy_orders, pulses
from engine.rulesets.cc.turn.clan_turn import WEAPONS, ClanTurn
from engine.rulesets.cc.turn.movement import entry_cost
from engine.rulesets.cc.turn.random_events import STOCKS as EVENT_STOCKS
from engine.rulesets.cc.view import visible_state
from engine.scenario import Scenario
from engine.state import State

UNKNOWN = -1        # the owner of a hex or city the clan has not met: anybody's
STOCKS = ("money", "fuel", "food", "parts", "vaccine", "troops", "rifles", "grenades",
          "rockets", "claymores", "bombs")
# the words of the turn's refusals that tell what they depend on
TOPICS = {"troop": ("troops",), "morale": ("morale",), "training": ("training",),
          "cargo": ("cargo",), "city": ("holdings",), "hex": ("holdings",), "yours": ("holdings",),
          "ally": ("holdings",), "casino": ("holdings",), "spy": ("holdings",),
          "conquered": ("holdings",), "hostile": ("holdings", "friendly"), "bans": ("friendly",),
          "friendly": ("friendly",), "guarding": ("friendly",),
          "$": ("money",), "money": ("money",), "fuel": ("fuel",), "food": ("food",),
          "parts": ("parts",), "vaccine": ("vaccine",), "agent": ("money",),
          # the Plague is known only where the report tells it (view.py, X135): never certain
          "plague": ("unknown",)}
# what an order carried out in another clan's city changes, had the city not let it (its bans
# are its secret): GUARD holds the convoy, HIRE pays and adds an expert, a move's entry picks
# up troops and lets a Merchant sell
USED_CITY = {"GUARD": {"friendly"}, "HIRE": {"money", "fuel", "friendly"},
             "CELEBRATE": {"morale", "food"}, "PRACTICE": {"training", "fuel", "food"},
             "PICKUP": {"cargo", "money"}, "DROPOFF": {"cargo", "money"}}
ENTERED_CITY = frozenset({"troops", "weapons", "food", "cargo", "money"})
PLACE_ONLY = ("there is no city", "there is no fishery", "there is no hex that way")
EVERYTHING = frozenset({*STOCKS, "morale", "training", "cargo", "holdings", "weapons", "friendly"})
# what decides a convoy's course, as its later lines name it
SHORT = {"whether it catches the Plague": "the Plague's chance", "how the bombing goes": "the bombing",
         "how the razing goes": "the razing"}


class Surprise(Exception):
    """A roll that decides the running order's end (a city's battle, a bombing, the Plague):
    the order is cut short there and the convoy followed on as if it came through (X252)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def _roll_topic(why: str) -> tuple[str, frozenset[str] | str]:
    """What a roll of the turn is about: ("stop", what it decides) when the convoy's course
    depends on it, or ("taint", the things it makes uncertain)."""
    w = why.lower()
    if w.startswith(("hex defence", "hex guard")):
        return "taint", frozenset({"troops", "food", "weapons", "holdings", "morale", "training"})
    if w.startswith(("celebrat", "rec center", "indoctrination")):
        return "taint", frozenset({"morale", "training"})
    if w.startswith(("practice", "police")):  # training changes what moves and meals cost
        return "taint", frozenset({"training", "fuel", "food"})
    if w.startswith(("desertion", "deserters", "which weapon")):
        return "taint", frozenset({"troops", "weapons", "morale", "food"})
    if w.startswith(("marketplace", "armory")):
        return "income", frozenset()
    if w.startswith(("casino", "bank loot")):
        return "taint", frozenset({"money", "holdings"})
    if w.startswith(("counter-spy", "sabotage")):
        return "taint", frozenset({"money", "holdings", "fuel", "food", "parts"})
    if w.startswith("cure gift"):
        return "taint", EVERYTHING
    if w.startswith("chemist"):   # hidden fuel along a road (X209)
        return "taint", frozenset({"fuel"})
    if w.startswith("loot"):      # a Scout's or LOOT's find (X204): any stock, or a vehicle
        return "taint", frozenset({*STOCKS, "weapons", "cargo"})
    if w.startswith("plague"):
        return "stop", "whether it catches the Plague"
    parts = w.split(" ")
    if len(parts) >= 4 and parts[2] == "at" and parts[1] in STOCKS:  # a special structure's output
        return "income", frozenset()
    return "stop", ""   # a battle, an invasion, a bombing...: named by the order (_carry)


class ProbeDice(Dice):
    """Dice that roll nothing: each call says what it was about (`Surprise` for a roll that
    decides a convoy's course, taints for the rest) and answers the lowest face, or for
    income's rolls in the `high` run the highest (the dry run plays both ends of income)."""

    def __init__(self, turn: DryTurn | None = None, high: bool = False):
        super().__init__("dry run")
        self.turn, self.high = turn, high

    def sub(self, *keys) -> Dice:
        return self

    def d(self, sides: int, why: str = "") -> int:
        how, what = _roll_topic(why)
        if how == "income":
            return sides if self.high else 1
        if self.turn is not None:
            if how == "stop" and self.turn.acting is not None:
                raise Surprise(what)
            self.turn.taint |= what if how == "taint" else EVERYTHING
        return 1


class _Known(dict):
    """Hexes or cities by cell; a cell the clan has not met gives a row of an unknown owner
    (an ownable hex, a city of the map), not nothing, so the turn's code treats it as someone's;
    whatever the order then does or is refused depends on the unknown."""

    def __init__(self, rows: dict, unknown, turn: DryTurn) -> None:
        super().__init__(rows)
        self.unknown, self.turn = unknown, turn
        self.made: dict[int, object] = {}   # the rows given for unmet cells, kept: what the
        # turn's code did to one (LOOT searched it, a hex attack took it) holds for later orders

    def get(self, cell, default=None):
        got = super().get(cell)
        if got is not None:
            return got
        row = self.made.get(cell)
        if row is None:
            row = self.unknown(cell)
            if row is None:
                return default
            self.made[cell] = row
        self.turn.short.add("unknown")
        return row

    def __missing__(self, cell):   # t.cities[cell] where .get found the unmet city
        row = self.get(cell)
        if row is None:
            raise KeyError(cell)
        return row

    def __contains__(self, cell) -> bool:
        return super().__contains__(cell) or self.unknown(cell) is not None


_ROADS: dict[int, tuple[object, int, frozenset]] = {}


def _map_roads(gmap) -> frozenset:
    """The map's road links as pairs, kept while the map's road layer is the same (the viewer
    checks at every pause in typing; an edited map builds them again)."""
    links = gmap.links.get("road", ())
    got = _ROADS.get(id(gmap))
    if got is None or got[0] is not links or got[1] != len(links):
        if len(_ROADS) > 8:
            _ROADS.clear()
        got = _ROADS[id(gmap)] = (links, len(links), frozenset(frozenset(ab) for ab in links))
    return got[2]


def _site_city(attrs: dict, cell: int, name: str) -> st.City:
    """An unmet city as the map shows it: its name, and its goods where the map names them."""
    return st.City(cell=cell, owner=UNKNOWN, name=name, produces=str(attrs.get("produces") or ""),
                   needs=str(attrs.get("needs") or ""))


@dataclass
class Refusal:
    order: o.CcOrder
    reason: str
    convoy: int
    pulse: int
    depends: frozenset[str]
    certain: bool
    after: Assumed | None = None   # holds only if this convoy came through that unharmed


@dataclass
class Assumed:
    """Where the dice decide a convoy's course (a battle, the Plague): the dry run follows it
    on as if it came through unharmed (X252)."""
    order: o.ConvoyOrder
    pulse: int
    why: str        # what decides it, for its own line ("the battle for Ennis")
    convoy: int     # its number on the sheet
    short: str      # the same named on later lines ("the Plague's chance")


class DryTurn(ClanTurn):
    """ClanTurn over the clan's view: records refusals with what they depend on, answers dice
    with ProbeDice, tells no one, and takes a battle with a foreign convoy as won unharmed (X252)."""

    def __init__(self, ctx: TurnContext, clan: int, sheet: OrderSheet, known_cells: set[int],
                 known_cities: set[int], city_names: dict[int, str]) -> None:
        super().__init__(ctx, clan, sheet)
        self.dice.turn = self
        self.refusals: list[Refusal] = []
        self.done_lines: set[int] = set()
        self.assumed: dict[int, list[Assumed]] = {}   # Convoy.id -> its assumptions, in order
        self.taint: set[str] = set()
        self.short: set[str] = set()             # stocks found short during the current order
        self.acting: st.Convoy | None = None     # the convoy whose order runs (None: clan orders)
        self.keyword = ""                         # and its order's keyword
        self.pending: set[str] = set()           # uncertain if the running order succeeds
        self.battle = ""                          # the battle the running order met (others_here)
        sites = {c: getattr(site, "attrs", {}) or {} for c, site in city_sites(self.gmap).items()}
        names = {c: getattr(site, "name", "") for c, site in city_sites(self.gmap).items()}
        names.update(city_names)
        # the map's roads are public geography: a road outside the clan's view still counts
        self.roads |= _map_roads(self.gmap)
        # an unmet hex of land or water (its owner, guards, structure or fishery unknown)
        self.hexes = _Known(self.hexes, lambda c: st.Hex(cell=c, owner=UNKNOWN) if (
            c not in known_cells and self.terrain(c)) else None, self)
        self.cities = _Known(self.cities, lambda c: _site_city(sites.get(c, {}), c, names[c] or self.label(c))
                             if c in names and c not in known_cities else None, self)
        self.taint.add("unknown")   # never known: what touched an unmet hex or city is uncertain

    # ---- what the turn's code calls --------------------------------------------------------

    def emit(self, event: Event) -> None:
        pass  # the dry run reports refusals only (fail); events would be the turn's to tell

    def tell(self, clan: int, kind: str, cell: int, text: str) -> None:
        pass

    def done(self, order: o.CcOrder, detail: str, convoy: int = 0, pulse: int = 0, amount: int = 0) -> None:
        self.done_lines.add(order.line)   # part of it was carried out: its refusals are partial

    def seen(self, cell: int, how: str) -> None:
        pass

    def fail(self, order, reason: str, convoy: int = 0, pulse: int = 0) -> None:
        if isinstance(order, str):
            return
        if isinstance(order, o.Move) and reason.startswith("not enough fuel to move") and self.acting:
            reason = _fuel_words(self, self.acting, order) or reason
        text = reason.lower()
        depends = set(self.short) | {v for k, vs in TOPICS.items() if k in text for v in vs}
        if reason.startswith(PLACE_ONLY):  # the map's cities and terrain: only the position counts
            depends.discard("holdings")
        after = self._after(text)
        self.refusals.append(Refusal(order, reason, convoy, pulse, frozenset(depends),
                                     not (depends & self.taint) and after is None, after))

    def _after(self, text: str) -> Assumed | None:
        """The assumption a refusal rests on: the acting convoy's first, or that of a convoy
        the refusal names ("convoys #1 and #2 are not in one hex")."""
        if self.acting is not None and self.acting.id in self.assumed:
            return self.assumed[self.acting.id][0]
        for marks in self.assumed.values():
            if re.search(rf"#{marks[0].convoy}\b", text):
                return marks[0]
        return None

    def assume(self, cv: st.Convoy, order: o.ConvoyOrder, pulse: int, why: str, short: str = "") -> None:
        """The dice decide what happens to the convoy here: follow it on as if it came through
        unharmed. What it may still change is uncertain: its troops' pick-ups and meals, its
        repairs, the hexes and cities it takes; with orders left, the fuel and money they cost
        or earn (it may stop here); a Merchant sells its cargo wherever it comes out."""
        short = short or SHORT.get(why, why)
        self.assumed.setdefault(cv.id, []).append(Assumed(order, pulse, why, cv.number, short))
        self.taint |= {"troops", "weapons", "food", "parts", "holdings", "morale", "training", "cargo"}
        later = any(p > pulse for p in pulses.pulse_orders(self).get(cv.number, {}))
        if later or "MER" in self.experts(cv):
            self.taint |= {"fuel", "money"}

    def random_event(self, order: o.CcOrder | None, chance_pct: int = 100) -> None:
        """The turn's random event (turn/random_events.py) unrolled, whatever its chance: the
        least run takes the table's worst loss of every stock, the most run its best gain of
        every stock (X197), so only a refusal that no event could prevent is certain; what a
        morale, training or vehicle row would change is uncertain."""
        if order is not None:   # the EVENT order's once-a-turn mark, as the turn sets it
            self.mark("random event")
        high = bool(getattr(self.ctx.dice, "high", False))
        rows = (self.ctx.catalogs.get("random_events") or _book_table("random_events")).rows
        for item in EVENT_STOCKS:
            amounts = [int(r[k]) for r in rows if r["effect"] == item for k in ("least", "most")]
            best = max([0, *amounts]) if high else min([0, *amounts])
            self.put(item, max(best, -self.stock(item)))
        effects = {r["effect"] for r in rows}
        self.taint |= {e for e in ("morale", "training") if e in effects}
        if "vehicle" in effects:   # a scavenged vehicle adds room (and costs fuel and parts,
            self.taint |= {"cargo", "troops"}   # which the most run, without it, already spares)

    def pay(self, dollars: int) -> bool:
        ok = super().pay(dollars)
        if not ok:
            self.short.add("money")
        return ok

    def take(self, item: str, n: int, cv: st.Convoy | None = None) -> bool:
        ok = super().take(item, n, cv)
        if not ok:
            self.short.add(item)
        return ok

    def friendly_city(self, cell: int) -> st.City | None:
        c = self.cities.get(cell)
        if c is not None and c.owner == UNKNOWN:
            # an unmet city's owner and bans are unknown: taken as friendly, what it gives
            # (troops and weapons picked up, a Merchant's sale) as uncertain
            self.taint |= {"troops", "weapons", "food", "cargo"}
            if self.acting is not None and self.acting.cargo and "MER" in self.experts(self.acting):
                self.taint.add("money")
            return c
        c = super().friendly_city(cell)
        if c is not None and c.owner not in (0, self.number):
            # another clan's city: whether it bans you is its secret (the view holds only your
            # own relations), so what it lets you do there may not happen; an order refused
            # anyway is refused either way, so only what succeeds makes things uncertain
            if self.acting is None:   # the pick-ups after a pulse
                if self.clan.troops or any(getattr(self.clan, w) for w in WEAPONS):
                    self.taint |= {"troops", "weapons", "food"}
            else:
                self.pending |= USED_CITY.get(self.keyword, ENTERED_CITY)
        return c

    def others_here(self, cell: int, hidden: bool = False) -> Iterator[st.Convoy]:
        found = list(super().others_here(cell, hidden))
        if found and self.acting is not None:
            # a battle (on entering, HUNT): its end is the dice's, so the convoy is taken to
            # clear the hex without a loss and is followed on (X252)
            self.battle = f"the battle in {self.label(cell)}"
            return iter(())
        return iter(found)


def _carry(t: DryTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """convoy_orders.carry_out, watched: a battle or a Surprise is an assumption (X252), after
    which the convoy is followed on from where it is. A HUNT the turn does not refuse may find
    hidden convoys (no foreign convoy known there is no proof)."""
    t.acting, t.keyword, t.short, t.pending, t.battle = cv, order.keyword, set(), set(), ""
    refused = len(t.refusals)
    try:
        convoy_orders.carry_out(t, cv, order, pulse)
        if len(t.refusals) == refused:
            t.taint |= t.pending
        if t.battle:
            t.assume(cv, order, pulse, t.battle)
        elif order.keyword == "HUNT" and len(t.refusals) == refused:
            t.assume(cv, order, pulse, "what it finds: no convoy of another clan is known to be "
                     f"in {t.label(cv.cell)}, but hidden ones may be", "its hunt")
    except Surprise as s:   # the order's end is the dice's: the convoy goes on from where it is
        t.assume(cv, order, pulse, t.battle or s.why or _dice_words(t, cv, order))
    finally:
        t.acting = None


def _dice_words(t: DryTurn, cv: st.Convoy, order: o.ConvoyOrder) -> str:
    """What the dice decide for the order that rolled them, in the player's words."""
    city = t.cities.get(cv.cell)
    if order.keyword == "ATTACK" and city is not None:
        return f"the battle for {city.name}"
    if order.keyword in ("BOMB", "RAZE"):
        return f"how the {'bombing' if order.keyword == 'BOMB' else 'razing'} goes"
    return "the battle"


def _fuel_words(t: DryTurn, cv: st.Convoy, order: o.Move) -> str:
    """The turn's "not enough fuel to move" in the player's words: what is left, the hex and
    its terrain, what it needs, where the convoy stays."""
    here = cv.cell
    there = t.board.step(here, order.direction) if order.direction else (
        t.board.parse(order.hex, "ccrr") if order.hex else None)
    if there is None:
        return ""
    hexes = 1 if order.direction else t.board.distance(here, there)
    fuel = entry_cost(t, cv, here, there, hexes)[0]
    terrain = "" if cv.type == "air" else f"{t.terrain(there).get('name', '').lower()} "
    road = " along the road" if cv.type != "air" and t.road(here, there) else ""
    return (f"convoy #{cv.number} has {t.clan.fuel} fuel left; the move into {terrain}"
            f"({t.label(there)}){road} needs {fuel}: it stays in {t.label(here)}")


def _clan_block(t: DryTurn, section: str) -> None:
    for order in t.orders:
        if isinstance(order, o.ClanOrder) and order.section == section:
            t.acting, t.short = None, set()
            try:
                clan_orders.carry_out(t, order)
            except Surprise:
                t.taint |= EVERYTHING


def _end_of_pulse(t: DryTurn, pulse: int) -> None:
    t.acting = None
    try:
        pulses.end_of_pulse(t, pulse)
    except Surprise:
        t.taint |= EVERYTHING


# How the dry run takes each phase of the turn (turn/__init__.py PLAYER_TURN), by name:
# "turn" runs the turn's own phase, watched; PRE/POST the clan blocks order by order; "pulses"
# and "engineers" the pulse loop with the dry run's hooks; "skip" what no later order of the
# sheet depends on (the agents' reports; maintenance comes after the last order).
# tests/test_cc_dryrun.py checks that every phase of the turn is named here.
STEPS = {"income": "turn", "pre-turn clan orders": o.PRE, "agents": "skip",
         "pre-turn pick-up and healing": "turn", "convoy orders": "pulses",
         "engineers' pulses": "engineers", "post-turn clan orders": o.POST,
         "post-turn maintenance": "skip"}


def play(sheet: OrderSheet, state: State, faction: int, scenario: Scenario,
         high: bool = False, view: State | None = None) -> DryTurn:
    """The clan's turn on a copy of its view of `state`, the sheet as the turn would get it:
    with the least income the clan can have, or with `high` the most (X196)."""
    from engine.rulesets.cc.turn import PLAYER_TURN

    # the GM's state and the player's bundle alike: the bundle is this view already, and the
    # view of a view is the same view
    if view is None:
        view = visible_state(state, faction, scenario)
    known_cells = {h.cell for h in view["hexes"]}
    known_cities = {c.cell for c in view["cities"]}
    ctx = TurnContext(ruleset=None, scenario=scenario, state=view.copy(), previous=view,
                      orders={faction: sheet}, dice=ProbeDice(high=high), events=EventLog())
    # where cities stand is the map's public geography (every city of a game is a map site;
    # a rule case's state may hold cities its map does not show): their names only
    names = {c.cell: c.name for c in state["cities"]}
    t = DryTurn(ctx, faction, sheet, known_cells, known_cities, names)
    ctx.scratch["cc_turn"] = t
    ten, twelve = int(t.opts.pulses), int(t.opts.engineer_pulses)
    # the Plague cuts an afflicted city's income, and the clan knows of it only with a Hospital
    # there (X135): the least income counts every other city of its own as afflicted
    own = [c for c in ctx.state["cities"] if c.owner == faction]
    hospitals = {b.cell for b in ctx.state["buildings"] if b.code == "HOS"}
    afflicted = {c.cell for c in own if c.plague or (not high and c.cell not in hospitals)}
    for phase in PLAYER_TURN:
        how = STEPS.get(phase.name, "turn")
        if how == "turn":   # income counts each rolled output at its lowest, marked uncertain
            known = {c.cell: c.plague for c in own}
            if phase.name == "income":
                for c in own:
                    c.plague = c.cell in afflicted
            try:
                phase.run(ctx)
            except Surprise:
                t.taint |= EVERYTHING
            for c in own:
                c.plague = known[c.cell]
        elif how in (o.PRE, o.POST):
            _clan_block(t, how)
        elif how == "pulses":
            pulses.run_pulses(t, 1, ten, carry=_carry, after=_end_of_pulse)
        elif how == "engineers" and twelve > ten:
            pulses.run_pulses(t, ten + 1, twelve, carry=_carry, after=_end_of_pulse)
    return t


def dry_run(sheet: OrderSheet, found: list[Diagnostic], state: State, faction: int,
            scenario: Scenario) -> list[Diagnostic]:
    """Findings of the dry run for the orders `found` (the checker's other findings) lets
    through: an error where the turn is certain to refuse, a warning where it may."""
    kept = screen(sheet, found).sheet
    if not kept.orders:
        return []
    view = visible_state(state, faction, scenario)
    t = play(kept, state, faction, scenario, view=view)
    # a refusal is certain only if the most income the clan can have does not prevent it (with
    # nothing refused on the least income, more refuses nothing either: one run is enough)
    rich = play(kept, state, faction, scenario, high=True, view=view) if t.refusals else t
    sure = {r.order.line for r in rich.refusals if r.certain}
    said = {d.line for d in found}   # a line warned of already: only a certain refusal is news
    out: list[Diagnostic] = []
    for r in t.refusals:
        if r.certain and r.order.line not in sure:
            r.certain = False
            r.depends = r.depends | {"income"}
            t.taint.add("income")
        if r.order.line in said and not r.certain:
            continue
        where = _where(r.order, r.pulse)
        reason = r.reason if r.reason.startswith("convoy #") else (
            f"convoy #{r.convoy}: {r.reason}" if r.convoy and r.order.section == o.CONVOY else r.reason)
        if "unknown" in r.depends:   # the order touched an unmet hex or city: no guessing
            place = t.label(t.convoy(r.convoy).cell) if r.convoy and t.convoy(r.convoy) else ""
            text = (f"{where}convoy #{r.convoy}: {r.order.keyword} at {place} depends on what you "
                    "have not seen there this turn; not checked") if place else \
                f"{where}{r.order.keyword} depends on a hex or city you have not seen this turn; not checked"
        elif r.order.line in t.done_lines:   # ERECT, DEFEND, TRAIN...: the rest is carried out
            text = f"{where}{reason} (the rest of the order is carried out)"
        elif r.after is not None:   # X252: found on the assumption the convoy came through
            a = r.after
            who = "it" if a.convoy == r.convoy else f"convoy #{a.convoy}"
            text = (f"{where}{reason} (if {who} comes through {a.short} at pulse {a.pulse} "
                    "unharmed, the turn will refuse it)")
        elif r.certain:
            text = f"{where}{reason} (the turn will refuse it)"
        else:
            text = f"{where}{reason} (as things stand: the turn may refuse it; " \
                   f"{_uncertain(r.depends & t.taint)})"
        error = r.certain and "unknown" not in r.depends and r.order.line not in t.done_lines
        out.append(Diagnostic(ILLEGAL, text, r.order.line, 0, r.order.text, sheet.source,
                              Severity.ERROR if error else Severity.WARNING))
    poor = {r.order.line for r in t.refusals}
    for r in rich.refusals:   # refused only with more income (it bought more before): may be
        if r.order.line not in poor and r.order.line not in said:
            out.append(Diagnostic(
                ILLEGAL, f"{_where(r.order, r.pulse)}{r.reason} (as things stand: the turn may "
                f"refuse it; {_uncertain(frozenset({'income'}))})", r.order.line, 0, r.order.text,
                sheet.source, Severity.WARNING))
    plan = pulses.pulse_orders(t)
    refused = {r.order.line for r in t.refusals if r.after is not None}
    for marks in t.assumed.values():
        number, first = marks[0].convoy, marks[0]
        own = {a.order.line for a in marks}
        for a in marks:
            later = [x for p, x in sorted(plan.get(number, {}).items()) if p > a.pulse]
            if later:
                out.append(Diagnostic(
                    ILLEGAL, f"{_where(a.order, a.pulse)}from here on convoy #{number} depends on "
                    f"{a.why}; its orders from pulse {later[0].slot} on are checked as if it came "
                    "through unharmed", a.order.line, 0, a.order.text, sheet.source, Severity.WARNING))
        # each later line the turn may still refuse, or not carry out: the convoy may stop
        for x in (x for p, x in sorted(plan.get(number, {}).items()) if p > first.pulse):
            if x.line not in own and x.line not in refused:
                out.append(Diagnostic(
                    ILLEGAL, f"pulse {x.slot}: convoy #{number} depends on {first.short} from pulse "
                    f"{first.pulse}; checked as if it came through unharmed", x.line, 0, x.text,
                    sheet.source, Severity.WARNING))
    return out


def _where(order: o.CcOrder, pulse: int) -> str:
    if order.section == o.CONVOY:
        return f"pulse {pulse}: "
    return "pre-turn: " if order.section == o.PRE else "post-turn: "


def _uncertain(what: frozenset[str]) -> str:
    words = {"holdings": "the hexes and cities you hold", "weapons": "weapons",
             "income": "what your income brings (rolled output, the Plague, a random event)",
             "friendly": "whether other clans' cities ban you"}
    return "it depends on " + ", ".join(sorted(words.get(w, w) for w in what)) + \
        " after earlier dice or unseen things"


__all__ = ["ProbeDice", "Surprise", "dry_run", "play"]
