"""[GAME TURN ACTIVITIES]: the end of a game turn, after the last clan's turn of it.

In the book's order: the turn counter advances and clans too far behind are dropped (their
units stay and defend but never move: the runner stops waiting for them); city populations
grow; the market prices move (X57: a random walk at the game turn's end); popularity is
recounted, the Top Clans lists recorded and the victory checked (standing.py). Cities with
the Plague decline instead of growing, and owned cities may catch it (plague.py).

Growth ([POPULATION]): a city a clan owns grows 8-12% (16-24% with a Church, X46), never past
its maximum (higher with a Stockyard); an uncontrolled city never grows. Its dollar value
follows its population in proportion (X61).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.events import Event
from engine.ruleset import Phase, TurnContext
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.setup import roll_production
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn import plague, standing
from engine.rulesets.cc.turn.income import city_value


def _world(ctx: TurnContext) -> st.World:
    if not ctx.state["world"]:
        ctx.state["world"].append(st.World())
    return ctx.state["world"][0]


def _dice(ctx: TurnContext, what: str) -> Dice:
    return ctx.dice.sub("game turn", _world(ctx).game_turn, what)


def advance(ctx: TurnContext) -> None:
    w = _world(ctx)
    ended = w.game_turn
    behind = int(ctx.options.drop_when_behind)
    dropped = []
    for c in sorted(ctx.state["clans"], key=lambda c: c.number):
        if behind and not c.dropped and ended - c.turns_run >= behind:
            c.dropped = True
            dropped.append(c.number)
    w.game_turn, w.step_in_turn = ended + 1, 0
    ctx.scratch["cc_cycle"] = {"ended": ended, "dropped": tuple(dropped)}


def growth(ctx: TurnContext) -> None:
    dice = _dice(ctx, "growth")
    maxima = ctx.catalogs["population"].by("id")
    churches, stockyards = set(), set()
    for b in ctx.state["buildings"]:
        if b.code == "CHU":
            churches.add(b.cell)
        elif b.code == "STO":
            stockyards.add(b.cell)
    lo, hi = int(ctx.options.growth_min_pct), int(ctx.options.growth_max_pct)
    grown = people = 0
    for city in sorted(ctx.state["cities"], key=lambda c: c.cell):
        if not city.owner:
            continue
        if city.plague:
            continue  # declines instead (plague.cycle)
        pct = (lo if hi <= lo else lo + dice.d(hi - lo + 1, f"growth {city.cell}") - 1)
        pct *= 2 if city.cell in churches else 1
        band = maxima["major" if city.major else "minor"]
        top = band["maximum_stockyard" if city.cell in stockyards else "maximum"]
        new = min(top, city.population + city.population * pct // 100)
        if new > city.population:
            city.value = city_value(ctx.catalogs, city, new)  # X243: the band's people count nothing
            people += new - city.population
            grown += 1
            city.population = new
    info = ctx.scratch.get("cc_cycle", {"ended": _world(ctx).game_turn - 1, "dropped": ()})
    ctx.emit(ev.GameTurnEnded(info["ended"], info["dropped"], grown, people))


def market(ctx: TurnContext) -> None:
    if ctx.options.market != "random_walk":
        return
    dice = _dice(ctx, "market")
    vol = int(ctx.options.market_volatility_pct)
    for p in sorted(ctx.state["prices"], key=lambda p: p.item):
        move = dice.d(2 * vol + 1, f"price {p.item}") - 1 - vol if vol else 0
        p.price = max(1, p.price * (100 + move) // 100)


@dataclass(frozen=True)
class ProductionRerolled(Event):
    """Option hex_production = reroll: every hex's production rolled anew (public: it is the
    game's rule, and the hex lists show the new figures)."""

    kind = "cc.production_rerolled"
    game_turn: int      # the game turn that begins
    hexes: int

    def describe(self, label=None, width: int = 80) -> str:
        return f"Game turn {self.game_turn}: the production of {self.hexes:,} hexes was rolled anew"


def hex_production(ctx: TurnContext) -> None:
    """X15, X212: with `hex_production` = reroll each land hex's money, food, fuel, parts and
    vaccine are rolled again from its terrain's ranges (with the road's parts and the river's
    food, paved roads counting) at the end of every game turn, for the next one."""
    if ctx.options.hex_production != "reroll":
        return
    book, gmap = Book(ctx.catalogs), ctx.map
    roads = {c for r in ctx.state["roads"] for c in (r.cell, r.to)}
    rivers = {c for link in gmap.links.get("river", ()) for c in link}
    road, river = book.links.get("road"), book.links.get("river")
    dice = _dice(ctx, "hex production")
    n = 0
    for h in sorted(ctx.state["hexes"], key=lambda h: h.cell):
        t = book.terrain.get(gmap.terrain_at(h.cell))
        if t is None or not t["ownable"]:
            continue
        roll_production(h, t, dice, road if h.cell in roads else None, river if h.cell in rivers else None)
        n += 1
    ctx.emit(ProductionRerolled(_world(ctx).game_turn, n))


CYCLE_PHASES: list[Phase] = [
    Phase("turn counter", advance, "the game turn advances; clans too far behind are dropped"),
    Phase("population growth", growth, "owned cities grow 8-12% (Church: doubled) up to their maximum"),
    Phase("plague", plague.cycle, "afflicted cities decline (Hospital: half); owned cities may catch it"),
    Phase("market", market, "prices move at random by up to the volatility option"),
    Phase("hex production", hex_production, "with hex_production = reroll, every hex's production rolled anew"),
    Phase("popularity", standing.popularity, "100 + a point a hex (Stadium 5) + one per 10,000 people"),
    Phase("top clans", standing.top_clans, "the Top Clans lists of the game turn"),
    Phase("victory", standing.victory, "the leader at the victory level one game turn later wins"),
]


# ---- the GM's steps (engine/db/gm_steps.py) ---------------------------------------------------

def drop_clan(ctx: TurnContext, clan: int, reason: str) -> None:
    """The GM drops a position: it takes no more turns, its units stay and defend (J6)."""
    c = next((c for c in ctx.state["clans"] if c.number == clan), None)
    if c is None:
        raise ValueError(f"clan {clan} is not in this game")
    c.dropped = True
    ctx.emit(ev.ClanDropped(clan, reason))


def standby_player(ctx: TurnContext, clan: int, name: str, password: str) -> None:
    """A standby player takes the position over ("replaced if a standby player is
    available"): it plays on, its account number is the new player's password."""
    c = next((c for c in ctx.state["clans"] if c.number == clan), None)
    if c is None:
        raise ValueError(f"clan {clan} is not in this game")
    c.dropped = False
    c.account = password
    if name:
        c.player = name
    ctx.emit(ev.StandbyJoined(clan, name))
