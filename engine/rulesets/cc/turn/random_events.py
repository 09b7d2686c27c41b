"""[EVENT]: the turn's random event. Each clan turn has `event_chance_pct` (the book's 50%)
of one; the EVENT clan order makes it sure. The book describes events only as "various
effects, both good and bad, though the majority are good": what they are is the GM's table
`random_events.csv` (house rows: money, supplies, troops, morale, training, a city's people or
garrison, a scavenged vehicle; X200-X202).

When: a sheet with an EVENT order gets its event where the order stands (pre- or post-turn
block); otherwise the chance is rolled once at the income phase. One event a turn: a second
EVENT is refused. The dice are a sub-stream of the game's seeded generator of their own, so
an event never shifts the rolls of the rest of the turn.

Both ways go through `ClanTurn.random_event`, which rolls and applies the event here (`happen`);
the checker's dry run (dryrun.DryTurn) overrides it to roll nothing and bound what any row of
the table could do instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import d100_row
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own
from engine.rulesets.cc.turn.reshape import join_vehicles

STOCKS = ("money", "food", "fuel", "parts", "vaccine", "troops", "rifles", "grenades")


@dataclass(frozen=True)
class RandomEvent(_Own, Event):
    """The turn's random event and what it did (`amount` as applied: a loss is negative and
    never more than there was)."""

    kind = "cc.random_event"
    clan: int
    line: int           # the EVENT order's line, 0 for the turn's chance
    effect: str         # the table's effect (nothing, money... population, garrison, vehicle)
    amount: int
    cell: int = -1      # the city it struck
    convoy: int = 0     # the convoy given a vehicle
    text: str = ""      # the table's sentence, filled in

    def describe(self, label=None, width: int = 80) -> str:
        return f"Random event: {self.text}"


def _dice(t: ClanTurn) -> Dice:
    return t.ctx.dice.sub("random event", t.number, t.turn)


def turn_chance(t: ClanTurn) -> None:
    """At the income phase: the turn's chance of an event, unless an EVENT order will bring it."""
    if any(isinstance(x, o.Event) for x in t.orders):
        return
    pct = int(t.opts.event_chance_pct)
    if pct > 0:
        t.random_event(None, pct)


def event_order(t: ClanTurn, order: o.CcOrder) -> None:
    """EVENT: this turn's event, for sure (it costs only the order line)."""
    if ("random event", 0, -1) in t.marks:
        return t.fail(order, "you had this turn's random event already")
    t.random_event(order)


def happen(t: ClanTurn, order: o.CcOrder | None, chance_pct: int = 100) -> None:
    """The turn's event (ClanTurn.random_event): with `chance_pct` percent (the turn's chance,
    order None) or for sure, a row of the table rolled and applied."""
    if chance_pct < 100 and not _dice(t).chance(chance_pct, "random event this turn?"):
        return
    t.mark("random event")
    dice = _dice(t)
    row = d100_row(t.ctx.catalogs, "random_events", dice.d(100, "random event"))
    effect = row["effect"] if row else "nothing"
    lo, hi = sorted((int(row["least"]), int(row["most"]))) if row else (0, 0)
    n = lo if hi <= lo else lo + dice.d(hi - lo + 1, f"random event {effect}") - 1
    text = row["text"] if row else ""
    cell, convoy = -1, 0
    if effect in STOCKS:
        n = max(n, -t.stock(effect))
        t.put(effect, n)
    elif effect in ("morale", "training"):
        convoys = t.convoys()
        for cv in convoys:
            value = max(0, getattr(cv, effect) + n)
            setattr(cv, effect, min(100, value) if effect == "training" else value)
        if not convoys:
            effect, n, text = "nothing", 0, "a random event passed you by: you have no convoy"
    elif effect == "vehicle":
        convoys = t.convoys()
        scouts = {cv.id: _scout(t, cv.type) for cv in convoys}
        convoys = [cv for cv in convoys if scouts[cv.id]]
        if convoys:
            cv = dice.choice(convoys, "random event convoy")
            join_vehicles(t, cv, scouts[cv.id], 1)
            convoy, n = cv.number, 1
        else:
            effect, n, text = "nothing", 0, "a random event passed you by: you have no convoy"
    elif effect in ("population", "garrison"):
        cities = sorted((c for c in t.cities.values() if c.owner == t.number), key=lambda c: c.cell)
        if cities:
            city = dice.choice(cities, "random event city")
            cell = city.cell
            n = _population(t, city, n) if effect == "population" else _garrison(t, city, n)
        else:
            effect, n, text = "nothing", 0, "a random event passed you by: you hold no city"
    else:
        effect, n = "nothing", 0
    city = t.cities.get(cell)
    text = (text.replace("{n}", f"{abs(n):,}").replace("{city}", city.name if city else "")
            .replace("{convoy}", str(convoy)))
    t.emit(RandomEvent(t.number, order.line if order else 0, effect, n, cell, convoy, text))


def _scout(t: ClanTurn, kind: str) -> str:
    return next((v for v, r in t.book.vehicles.items()
                 if r["convoy_type"] == kind and r["class"] == "fast_scout"), "")


def _population(t: ClanTurn, city, pct: int) -> int:
    """A city's people grow (or fall) by pct percent, never below `min_population`; its value
    follows (X61). Returns the percent as applied (0 if nothing changed)."""
    new = max(int(t.opts.min_population), city.population + city.population * pct // 100)
    if pct > 0:
        new = max(new, city.population)
    elif pct < 0:
        new = min(new, city.population)
    if new == city.population:
        return 0
    if city.population:
        city.value = round(city.value * new / city.population)
    city.population = new
    return pct


def _garrison(t: ClanTurn, city, n: int) -> int:
    """Free defenders join a city's garrison up to its capacity (or, negative, die)."""
    n = max(-city.troops, min(n, max(0, t.city_capacity(city) - city.troops)))
    city.troops += n
    return n
