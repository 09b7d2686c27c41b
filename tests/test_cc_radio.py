"""Heard on the Radio ([RADIO REPORTS]): a broadcast reaches the clans involved and those
with a city in reception range (fortification x2 + 2; +6 with a Radio Tower standing before
the turn), never the dropped; the GM's news (meta.gm_news) reach every clan in its turn."""

from __future__ import annotations

import pytest

from engine.casefile import load_case, run_case
from engine.dice import Dice
from engine.orders import OrderSheet
from engine.ruleset import TurnContext
from engine.rulesets.cc import RULESET
from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.radio import broadcast, news_problems
from tests.test_cc_turn_cases import CASES

HEX_ATTACK = next(p for p in CASES if p.stem == "hex-attack")


def _turn(cities, buildings=(), clans=(3, 4)):
    case = load_case(HEX_ATTACK)
    case.data.pop("expect")
    r = run_case(case)
    state = r.state
    for n in clans:
        state["clans"].append(st.Clan(number=n, account=str(n), sequence=1000 + n))
    state["cities"][:] = [st.City(cell=r.scenario.map.grid.parse(h, "ccrr"), name=h, owner=o, fortification=f)
                          for h, o, f in cities]
    state["buildings"][:] = [st.Building(cell=r.scenario.map.grid.parse(h, "ccrr"), code=c) for h, c in buildings]
    ctx = TurnContext(RULESET, r.scenario, state, state.copy(), {}, Dice(1))
    return ClanTurn(ctx, 1, OrderSheet()), r.scenario.map.grid


def test_a_battle_is_heard_in_reception_range_and_by_the_clans_involved():
    # an Outpost (level 1) hears 4 hexes away; clan 3's city is 1 away, clan 4's too far
    t, grid = _turn([("0101", 3, 1), ("0401", 4, 1)])
    far = grid.parse("0101", "ccrr")
    heard = broadcast(t, "battle", far, "clan 1 fought clan 2 in 0101", involved=(2,))
    assert 3 in heard and 2 in heard and 1 not in heard
    box = {m.clan: m for m in t.ctx.state["inbox"] if m.kind == "battle"}
    assert set(box) == heard and box[3].text == "clan 1 fought clan 2 in 0101"


def test_reception_range_grows_with_the_fortification_and_a_radio_tower():
    from engine.rulesets.cc import costs
    from engine.rulesets.cc.catalog import Book

    book = Book(RULESET.default_catalogs())
    # the book: an outpost hears 4 hexes away, a station 6, a base 8; a tower adds 6
    assert [costs.radio_range(book, level) for level in (1, 2, 3)] == [4, 6, 8]
    assert costs.radio_range(book, 1, tower=True) == 10
    # a tower built this turn (not in the previous state) does not count yet
    t, grid = _turn([("0401", 3, 1)])
    t.ctx.state["buildings"].append(st.Building(cell=grid.parse("0401", "ccrr"), code="RAD"))
    assert not {b.code for b in t.ctx.previous["buildings"]}


def test_the_dropped_hear_nothing_and_unknown_broadcasts_are_refused():
    t, grid = _turn([("0101", 3, 1)])
    next(c for c in t.ctx.state["clans"] if c.number == 3).dropped = True
    broadcast(t, "battle", grid.parse("0101", "ccrr"), "x")
    assert not [m for m in t.ctx.state["inbox"] if m.clan == 3 and m.kind == "battle"]
    with pytest.raises(ValueError, match="unknown broadcast"):
        broadcast(t, "gossip", 0, "x")


def test_gm_news_reach_the_clan_in_its_turn_and_its_report():
    case = load_case(HEX_ATTACK)
    case.data.pop("expect")
    case.data.setdefault("meta", {})["gm_news"] = [{"game_turn": 1, "text": "<b>Storms</b> in the north"},
                                                   {"game_turn": 2, "text": "later"}]
    r = run_case(case)
    assert r.scenario.meta["gm_news"]
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    assert {"kind": "gm", "hex": "", "text": "<b>Storms</b> in the north"} in rep["radio"]
    assert all(x["text"] != "later" for x in rep["radio"])
    text = RULESET.render(rep, "text")
    assert "From the GM: <b>Storms</b> in the north" in text
    html = RULESET.render(rep, "html")
    assert "&lt;b&gt;Storms&lt;/b&gt;" in html and "<b>Storms" not in html


def test_malformed_gm_news_are_named():
    assert news_problems([{"game_turn": "x"}]) == [
        "meta.gm_news entry 1: needs game_turn (a number) and text (a string)"]
    assert news_problems("news") and news_problems(None) == []
