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
at half range where the owner's own spy (a counter-spy) hides.

Each event here tells its own report line (`describe`), which report_words uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event
from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own
from engine.rulesets.cc.turn.income import production


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
    for spy in sorted((s for s in t.ctx.state["spies"] if s.clan == t.number), key=lambda s: s.cell):
        city = t.cities.get(spy.cell)
        if city is None:
            continue
        if city.owner != t.number:
            t.seen(spy.cell, "spy")
        t.emit(SpyReport(t.number, spy.cell, city.name, city.owner, city.owner == t.number))


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
