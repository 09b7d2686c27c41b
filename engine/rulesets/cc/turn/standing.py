"""The standing of the clans at the end of a game turn: popularity, the Top Clans lists and
the victory check ([POPULARITY], [POST-TURN STATUS REPORT], [FINISHING THE GAME]).

Popularity (C20, X8): 100 at the start, plus one point a hex held (a Stadium's hex five, the
special structure's `popularity` column) and one per 10,000 people in the clan's cities,
totalled and rounded down; recounted from scratch each game turn (option `popularity` =
recompute) or added on each game turn (accumulate). No dice.

Top Clans: the popularity list every game turn; from game turn `top_lists_from_turn` (X9) also
the most cities, hexes, income (the income estimate's dollars) and power (the sum of every
vehicle's best damage roll), ten clans each, kept in `top_clans`.

Victory (O1, O2): the first clan at the game's level (`victory_popularity`, X11) becomes the
leader; if it still holds the level at the end of the next game turn the game ends, won by the
qualifying clan with the most popularity (a tie: shared, winner -1).
"""

from __future__ import annotations

from collections import defaultdict

from engine.ruleset import TurnContext
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn.income import production

TOP = 10


def _ended(ctx: TurnContext) -> int:
    return ctx.state["world"][0].game_turn - 1


def popularity(ctx: TurnContext) -> None:
    s, opts = ctx.state, ctx.options
    special = ctx.catalogs["special_structures"].by("code")
    points: dict[int, int] = defaultdict(int)
    for h in s["hexes"]:
        if h.owner:
            points[h.owner] += int(special[h.special]["popularity"]) if h.special in special else 1
    people: dict[int, int] = defaultdict(int)
    for c in s["cities"]:
        if c.owner:
            people[c.owner] += c.population
    for clan in s["clans"]:
        gain = points[clan.number] + people[clan.number] // 10000
        if opts.popularity == "accumulate":
            clan.popularity += gain
        else:
            clan.popularity = int(opts.start_popularity) + gain
    ranked = sorted(s["clans"], key=lambda c: (-c.popularity, c.number))
    ctx.emit(ev.PopularityCounted(_ended(ctx), tuple((c.number, c.popularity) for c in ranked)))


def top_clans(ctx: TurnContext) -> None:
    s, ended = ctx.state, _ended(ctx)
    rankings: dict[str, dict[int, int]] = {"popularity": {c.number: c.popularity for c in s["clans"]}}
    if ended >= int(ctx.options.top_lists_from_turn):
        book = Book(ctx.catalogs)
        cities: dict[int, int] = defaultdict(int)
        hexes: dict[int, int] = defaultdict(int)
        for c in s["cities"]:
            cities[c.owner] += 1 if c.owner else 0
        for h in s["hexes"]:
            hexes[h.owner] += 1 if h.owner else 0
        owner = {c.id: c.owner for c in s["convoys"]}
        power: dict[int, int] = defaultdict(int)
        for v in s["vehicles"]:
            if v.convoy in owner and v.type in book.vehicles:
                power[owner[v.convoy]] += cs.max_damage(book.vehicles[v.type]["damage"]) * v.count
        numbers = [c.number for c in s["clans"]]
        rankings["cities"] = {n: cities[n] for n in numbers}
        rankings["hexes"] = {n: hexes[n] for n in numbers}
        rankings["income"] = {n: production(s, ctx.catalogs, ctx.options, n)["money"] for n in numbers}
        rankings["power"] = {n: power[n] for n in numbers}
    for name, values in rankings.items():
        best = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
        for rank, (clan, value) in enumerate(best, 1):
            s["top_clans"].append(st.TopClan(ended, name, rank, clan, value))


def victory(ctx: TurnContext) -> None:
    w, ended = ctx.state["world"][0], _ended(ctx)
    level = int(ctx.options.victory_popularity)
    qualifying = sorted((c for c in ctx.state["clans"] if c.popularity >= level),
                        key=lambda c: (-c.popularity, c.number))
    if w.leader and w.leader_since < ended and any(c.number == w.leader for c in qualifying):
        best = qualifying[0].popularity
        winners = tuple(c.number for c in qualifying if c.popularity == best)
        w.winner = winners[0] if len(winners) == 1 else -1
        w.finished = True
        ctx.emit(ev.GameWon(ended, w.winner, winners, best))
    elif qualifying and not any(c.number == w.leader for c in qualifying):
        w.leader, w.leader_since = qualifying[0].number, ended
        ctx.emit(ev.Leading(ended, w.leader, qualifying[0].popularity))
    elif not qualifying:
        w.leader = w.leader_since = 0
