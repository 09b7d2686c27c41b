"""Radio broadcasts ([RADIO REPORTS]) and the GM's news, for "Heard on the Radio".

A battle, an attack on a city, a bombing (X52) or a razing is broadcast: every clan involved hears it, and
every other clan hears it if one of its cities is within reception range (fortifications
table: level x2 + 2; +6 with a Radio Tower standing before this turn began, since a tower
built this turn hears nothing of battles already fought). What is heard reaches the clan's
inbox and is listed in its next report (upkeep.news delivers it).

The GM's news are the scenario's `meta.gm_news` entries (`{game_turn = 3, text = "..."}`):
every clan not dropped hears each one in its turn of that game turn.
"""

from __future__ import annotations

from typing import Any

from engine.rulesets.cc import costs
from engine.rulesets.cc.turn.clan_turn import ClanTurn

BROADCASTS = ("battle", "city attack", "bombing", "razing")


def listeners(t: ClanTurn, cell: int) -> set[int]:
    """Clans (not the acting one) with a city whose radio reaches `cell`."""
    towers = {b.cell for b in t.ctx.previous["buildings"] if b.code == "RAD"}
    out = set()
    for city in t.ctx.state["cities"]:
        if not city.owner or city.owner == t.number or city.owner in out:
            continue
        reach = costs.radio_range(t.book, city.fortification, city.cell in towers)
        if t.board.distance(city.cell, cell) <= reach:
            out.add(city.owner)
    return out


def broadcast(t: ClanTurn, kind: str, cell: int, text: str, involved: tuple[int, ...] = ()) -> set[int]:
    """Tell the clans involved and those in radio range; returns who heard it. `kind` is one
    of BROADCASTS (the report groups by it)."""
    if kind not in BROADCASTS:
        raise ValueError(f"unknown broadcast {kind!r}; one of {', '.join(BROADCASTS)}")
    heard = (listeners(t, cell) | set(involved)) - {t.number}
    dropped = {c.number for c in t.ctx.state["clans"] if c.dropped}
    for clan in sorted(heard - dropped):
        t.tell(clan, kind, cell, text)
    return heard


def gm_news(t: ClanTurn) -> None:
    """The GM's news for this clan's game turn, into its inbox (heard in this report)."""
    for item in _news_items(t.ctx.scenario.meta.get("gm_news")):
        if item[0] == t.turn:
            t.tell(t.number, "gm", -1, item[1])


def _news_items(raw: Any) -> list[tuple[int, str]]:
    """(game turn, text) from meta.gm_news, skipping malformed entries (the scenario's
    validation names them)."""
    out = []
    for x in raw if isinstance(raw, list) else []:
        if isinstance(x, dict) and isinstance(x.get("game_turn"), int) and isinstance(x.get("text"), str):
            out.append((x["game_turn"], x["text"]))
    return out


def news_problems(raw: Any) -> list[str]:
    """What is wrong with meta.gm_news, for the scenario's validation."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        return ["meta.gm_news must be a list of {game_turn = N, text = \"...\"}"]
    return [f"meta.gm_news entry {i + 1}: needs game_turn (a number) and text (a string)"
            for i, x in enumerate(raw)
            if not (isinstance(x, dict) and isinstance(x.get("game_turn"), int) and isinstance(x.get("text"), str))]
