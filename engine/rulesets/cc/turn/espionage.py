"""Information about other clans: the ESPIONAGE clan order, agents and planted spies
([ESPIONAGE], [TRAIN], [PLANT], [POPULARITY], [CITY REPORTS], [HEX REPORTS]).

ESPIONAGE (from game turn `espionage_from_turn`): the price is the target's popularity times
the keywords' costs (espionage.csv; a keyword named twice is paid once); paid in full or
not at all. Each keyword's findings go to the buyer's report as they stand when the order
runs: OWNER (name, player, address, the phone if switched on), ALLIES, ENEMIES (bans, "all"
after BAN ALL), INCOME (the estimate the target's own report shows, X100), HEXES and CITIES
(where, nothing more), CONVOYS (hex, type and vehicles; no troops, goods or experts).

Agents: each agent named on the sheet reports its hex this turn (X88: no convoys), which joins
the clan's hex list and, if a city stands there, its city list. Planted spies (PLANT) report
their city every turn the same way; the report's spotting list counts their cities as owned,
at half range where the owner's own spy (a counter-spy) hides, and there each figure of the
city report may be wrong (cc-house: `false_view`, K24).

SABOTAGE (with the clan's spy in the city, not its own city): the owner's counter-spy catches the
spy at 10% the first attempt, 10% more each attempt after, and then names his clan to the
owner; a spy not caught is still spoiled by a counter-spy at `sabotage_countered_pct`. The
book names the kinds of mishap but gives no odds or sizes: the house table sabotage.csv rolls
nothing, people killed (never below `min_population`; a Shelter halves it), defenders killed,
a random building burnt, no income from the city on its owner's next turn, no spotting report
from it after that turn (the book's "inaccurate" reports read as empty ones), money stolen from
the owner, or fuel, food and parts stolen. The owner hears of a mishap on the radio, without
the saboteur's name.

Each event here tells its own report line (`describe`), which report_words uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event
from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import d100_row
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own
from engine.rulesets.cc.turn.income import city_value, production


@dataclass(frozen=True)
class EspionageReport(_Own, Event):
    """What an ESPIONAGE order learned about another clan, keyword by keyword."""

    kind = "cc.espionage"
    clan: int
    target: int
    cost: int
    findings: tuple[tuple[str, str], ...]    # (keyword, what it found)

    def describe(self, label=None, width: int = 80) -> str:
        lines = [f"Espionage on clan {self.target} (${self.cost:,}):"]
        lines += [f"    {k}: {v}" for k, v in self.findings]
        return "\n".join(lines)


@dataclass(frozen=True)
class AgentReport(_Own, Event):
    """An agent looked at a hex (its details join the hex and city lists)."""

    kind = "cc.agent"
    clan: int
    agent: int
    cell: int
    owner: int          # the hex's owner (0: nobody)
    city: str           # the city there ("" none)

    def describe(self, label=None, width: int = 80) -> str:
        where = label(self.cell) if label else str(self.cell)
        held = f"held by clan {self.owner}" if self.owner else "unowned"
        city = f", with the city of {self.city}" if self.city else ""
        return f"Agent {self.agent} reports on {where}: {held}{city}"


@dataclass(frozen=True)
class SpyReport(_Own, Event):
    """A planted spy reported its city this turn (or, in the clan's own city, keeps watch)."""

    kind = "cc.spy"
    clan: int
    cell: int
    city: str
    owner: int
    counter: bool       # the clan's own city: a counter-spy

    def describe(self, label=None, width: int = 80) -> str:
        if self.counter:
            return f"Your counter-spy keeps watch in {self.city}"
        return f"Your spy in {self.city} (clan {self.owner or 'none'}) sends a city and spotting report"


@dataclass(frozen=True)
class Sabotaged(_Own, Event):
    """A SABOTAGE attempt: its result, or the spy caught by a counter-spy."""

    kind = "cc.sabotage"
    clan: int
    cell: int
    city: str
    result: str         # nothing | people | troops | building | money | supplies | caught | countered
    amount: int
    what: str = ""      # the building burnt

    def describe(self, label=None, width: int = 80) -> str:
        return f"Sabotage in {self.city}: your spy {mishap(self.result, self.amount, self.what)}"


def mishap(result: str, n: int, what: str = "") -> str:
    """A sabotage result in words (the saboteur's report; the owner's radio says the same)."""
    return {
        "nothing": "achieved nothing", "caught": "was caught and killed by a counter-spy",
        "countered": "was hindered by a counter-spy and achieved nothing",
        "people": f"set off an explosion that killed {n:,} people", "troops": f"killed {n} defenders",
        "building": f"burnt down the {what}", "money": f"stole ${n:,}",
        "income": "wrecked the city's production for a turn",
        "spotting": "blinded the city's lookouts for a turn",
        "supplies": f"stole {n} each of fuel, food and parts",
    }.get(result, result)


# ---- ESPIONAGE ------------------------------------------------------------------------------


def _clans(numbers) -> str:
    return ", ".join(f"clan {n}" for n in sorted(numbers)) or "none"


def findings(t: ClanTurn, target: st.Clan, keyword: str) -> str:
    s, n = t.ctx.state, target.number
    if keyword == "OWNER":
        phone = f", phone {target.phone}" if target.phone_on and target.phone else ""
        return (f"{target.name or 'unnamed'}, run by {target.player or 'unknown'}, "
                f"{target.address or 'no address given'}{phone}")
    if keyword == "ALLIES":
        return _clans(r.other for r in s["relations"] if r.clan == n and r.ally)
    if keyword == "ENEMIES":
        banned = _clans(r.other for r in s["relations"] if r.clan == n and r.ban)
        return "every clan (BAN ALL)" + (f"; also {banned}" if banned != "none" else "") if target.ban_all else banned
    if keyword == "INCOME":
        got = production(s, t.ctx.catalogs, t.opts, n)
        return (f"about ${got['money']:,} next turn, food {got['food']}, fuel {got['fuel']}, "
                f"parts {got['parts']}, vaccine {got['vaccine']}")
    if keyword == "HEXES":
        cells = sorted(h.cell for h in s["hexes"] if h.owner == n)
        return f"{len(cells)}: " + " ".join(t.label(c) for c in cells) if cells else "none"
    if keyword == "CITIES":
        cities = sorted((c for c in s["cities"] if c.owner == n), key=lambda c: c.cell)
        return "; ".join(f"{c.name} ({t.label(c.cell)})" for c in cities) or "none"
    if keyword == "CONVOYS":
        out = []
        for cv in sorted((c for c in s["convoys"] if c.owner == n), key=lambda c: c.number):
            fleet: dict[str, int] = {}
            for v in s["vehicles"]:
                if v.convoy == cv.id and v.count > 0:
                    fleet[v.type] = fleet.get(v.type, 0) + v.count
            veh = ", ".join(f"{k} {t.book.vehicles[v]['plural' if k != 1 else 'name'].lower()}"
                            for v, k in sorted(fleet.items()))
            out.append(f"#{cv.number} {cv.type} in {t.label(cv.cell)} ({veh or 'no vehicles'})")
        return "; ".join(out) or "none"
    return ""


def espionage(t: ClanTurn, order: o.Espionage) -> None:
    start = int(t.opts.espionage_from_turn)
    if t.turn < start:
        return t.fail(order, f"ESPIONAGE is allowed only from game turn {start}")
    target = t.clans.get(order.clan)
    if target is None or order.clan == t.number:
        return t.fail(order, f"there is no other clan {order.clan} to spy on")
    words = list(dict.fromkeys(k.upper() for k in order.keywords))
    unknown = [k for k in words if k not in t.book.espionage]
    if unknown or not words:
        known = ", ".join(t.book.espionage)
        return t.fail(order, f"unknown information {', '.join(unknown) or '(none named)'}; ask for {known}")
    cost = costs.espionage_cost(t.book, target.popularity, words)
    if not t.pay(cost):
        return t.fail(order, f"espionage on clan {target.number} costs ${cost:,} "
                             f"({target.popularity} popularity); the clan has ${t.clan.money:,}")
    t.emit(EspionageReport(t.number, target.number, cost,
                           tuple((k, findings(t, target, k)) for k in words)))


# ---- agents and spies -----------------------------------------------------------------------


def intelligence(t: ClanTurn) -> None:
    """The agents' hexes and the spies' cities join this turn's hex and city lists."""
    for a in sorted((a for a in t.ctx.state["agent_targets"] if a.clan == t.number), key=lambda a: a.agent):
        h, city = t.hexes.get(a.cell), t.cities.get(a.cell)
        t.seen(a.cell, "agent")
        t.emit(AgentReport(t.number, a.agent, a.cell, h.owner if h else 0, city.name if city else ""))
    spies = t.ctx.state["spies"]
    views = t.ctx.state["spy_views"]
    views[:] = [v for v in views if v.clan != t.number]   # last turn's are no longer shown
    for spy in sorted((s for s in spies if s.clan == t.number), key=lambda s: s.cell):
        city = t.cities.get(spy.cell)
        if city is None:
            continue
        if city.owner != t.number:
            t.seen(spy.cell, "spy")
            if city.owner and any(s.cell == spy.cell and s.clan == city.owner for s in spies):
                views.append(false_view(t, city))   # cc-house (K24): beside a counter-spy
        t.emit(SpyReport(t.number, spy.cell, city.name, city.owner, city.owner == t.number))


def false_view(t: ClanTurn, city: st.City) -> st.SpyView:
    """A spy's report of a city where the owner's counter-spy works (K24, X211): the
    fortification, the buildings, the troops and the claymores are each wrong with
    `spy_wrong_pct` chance, drawn from the game's seeded dice (a sub-stream of their own, so
    the rest of the turn rolls as it would). A wrong figure is another value the city could
    have, and the figures agree with each other (troops within the capacity shown), so the
    report itself never tells which are wrong."""
    dice = t.ctx.dice.sub("spy report", t.number, t.turn, city.cell)
    pct = int(t.opts.spy_wrong_pct)
    fort = city.fortification
    levels = [lv for lv in sorted(t.book.fortifications) if lv != fort]
    if dice.chance(pct, "spy report: fortification") and levels:
        fort = dice.choice(levels, "spy report: which level")
    codes = set(t.buildings[city.cell])
    if dice.chance(pct, "spy report: buildings") and t.building_rows:
        codes ^= {dice.choice(sorted(t.building_rows), "spy report: which building")}
    row = t.book.fortifications.get(fort, {})
    cap = int(row.get("capacity_barracks" if "BAR" in codes else "capacity", 0))
    troops, claymores = min(city.troops, cap), min(city.claymores, cap // 10)
    if dice.chance(pct, "spy report: troops"):
        troops = _other(dice, troops, cap)
    if dice.chance(pct, "spy report: claymores"):
        claymores = _other(dice, claymores, cap // 10)
    return st.SpyView(t.number, t.turn, city.cell, fort, troops, claymores, " ".join(sorted(codes)))


def _other(dice, true: int, top: int) -> int:
    """A number from 0 to top other than `true` (the true one if there is no other)."""
    if top < 1:
        return true
    r = dice.d(top, "spy report: a wrong figure") - 1   # 0..top-1, then skip the true value
    return r + 1 if r >= true else r


def spy_views(state, clan: int, now: int) -> dict[int, st.SpyView]:
    """The cities the clan knows this turn only through a spy beside a counter-spy, with the
    figures its spy reported (a convoy's visit, a scan or an agent sees the truth)."""
    if "spy_views" not in state.tables:
        return {}
    other = {s.cell for s in state["seen"] if s.clan == clan and s.game_turn == now and s.how != "spy"}
    return {v.cell: v for v in state["spy_views"]
            if v.clan == clan and v.game_turn == now and v.cell not in other}


def plant(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """PLANT (SPY): the convoy's Spy hides in the city for good; in the clan's own city he is a
    counter-spy."""
    spy = next((e for e in t.expert_rows(cv) if e.code == "SPY"), None)
    if spy is None:
        return t.fail(order, "PLANT needs an Expert Spy in the convoy", cv.number, pulse)
    city = t.cities.get(cv.cell)
    if city is None:
        return t.fail(order, f"there is no city in {t.label(cv.cell)} to hide a spy in", cv.number, pulse)
    spies = t.ctx.state["spies"]
    if any(s.cell == city.cell and s.clan == t.number for s in spies):
        return t.fail(order, f"a spy of yours already hides in {city.name}", cv.number, pulse)
    t.drop_expert(spy)
    spies.append(st.Spy(city.cell, t.number))
    what = "a counter-spy" if city.owner == t.number else "a spy"
    t.done(order, f"hid {what} in {city.name}", cv.number, pulse)


# ---- SABOTAGE --------------------------------------------------------------------------------


def sabotage(t: ClanTurn, order: o.HexOrder) -> None:
    cell = t.board.parse(order.hex, "ccrr") if order.hex else None
    city = t.cities.get(cell) if cell is not None else None
    spies = t.ctx.state["spies"]
    mine = next((s for s in spies if s.cell == cell and s.clan == t.number), None)
    if city is None or mine is None:
        return t.fail(order, f"you have no spy hidden in a city at {order.hex}")
    if city.owner == t.number:
        return t.fail(order, f"{city.name} is your own city")
    counter = city.owner and any(s.cell == cell and s.clan == city.owner for s in spies)
    if counter:
        mine.attempts += 1
        if t.dice.chance(min(100, 10 * mine.attempts), "counter-spy"):
            spies.remove(mine)
            t.emit(Sabotaged(t.number, cell, city.name, "caught", 0))
            t.tell(city.owner, "sabotage", cell, f"your counter-spy caught and killed a spy of clan "
                                                  f"{t.number} in {city.name}")
            return
        if t.dice.chance(int(t.opts.sabotage_countered_pct), "counter-spy hinders"):
            return t.emit(Sabotaged(t.number, cell, city.name, "countered", 0))
    roll = t.dice.d(100, "sabotage")
    row = d100_row(t.ctx.catalogs, "sabotage", roll)
    result = row["result"] if row else "nothing"
    n = t.roll(row["least"], row["most"], f"sabotage {result}") if row and result != "nothing" else 0
    what, owner = "", t.clans.get(city.owner)
    if result == "people":
        if "SHE" in t.buildings[cell]:
            n //= 2
        n = max(0, min(n, city.population - int(t.opts.min_population)))
        if n:
            city.value = city_value(t.ctx.catalogs, city, city.population - n)  # X243
        city.population -= n
    elif result == "troops":
        n = min(n, city.troops)
        city.troops -= n
    elif result == "building":
        here = sorted((b for b in t.ctx.state["buildings"] if b.cell == cell), key=lambda b: b.code)
        if here:
            gone = t.dice.choice(here, "building burnt")
            t.ctx.state["buildings"].remove(gone)
            t.buildings[cell].discard(gone.code)
            what = t.building_rows.get(gone.code, {}).get("name", gone.code)
        else:
            result = "nothing"
    elif result in ("income", "spotting"):
        if owner is None:
            result = "nothing"
        else:  # the owner's next turn: income.production and report.spotted_convoys look for it
            t.ctx.state["turn_marks"].append(st.TurnMark(owner.number, owner.turns_run + 1,
                                                         f"sabotage {result}", 0, cell))
    elif result == "money":
        n = min(n, owner.money) if owner else 0
        if owner:
            owner.money -= n
        t.clan.money += n
    elif result == "supplies":
        if owner is None:
            n = 0
        else:
            n = min(n, owner.fuel, owner.parts, owner.food_tenths // 10)
            owner.fuel, owner.parts, owner.food_tenths = owner.fuel - n, owner.parts - n, owner.food_tenths - 10 * n
            t.clan.fuel += n
            t.clan.parts += n
            t.put("food", n)
    if result in ("money", "supplies", "people", "troops") and not n:
        result = "nothing"
    t.emit(Sabotaged(t.number, cell, city.name, result, n, what))
    if city.owner and result != "nothing":
        t.tell(city.owner, "sabotage", cell, f"sabotage in {city.name}: a spy {mishap(result, n, what)}")
