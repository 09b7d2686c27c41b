"""Spotting and sabotage (report.spotted_convoys with turn/espionage.py's marks): a city whose
lookouts a spy blinded spots nothing after its owner's next turn, and only then."""

from __future__ import annotations

from engine.map import new_map
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.report import spotted_convoys
from engine.rulesets.cc.state import SCHEMA, City, Clan, Convoy, TurnMark, World
from engine.scenario import Faction, Scenario
from engine.state import State


def _game():
    scen = Scenario("cc", "t", new_map("hex", 6, 3), RULESET.default_catalogs(), RULESET.default_options(),
                    [Faction(1, "A"), Faction(2, "B")], seed=1)
    s = State(SCHEMA, 3)
    s["world"].append(World(game_turn=6))
    s["clans"].extend([Clan(number=1, turns_run=6), Clan(number=2, turns_run=6)])
    s["cities"].append(City(cell=0, name="Derry", owner=2, population=30000, fortification=2))
    s["convoys"].append(Convoy(id=1, owner=1, number=1, cell=1))
    return scen, s


def test_blinded_lookouts_spot_nothing_for_one_turn():
    scen, s = _game()
    book = Book(scen.catalogs)
    assert [cv.id for cv, _, _ in spotted_convoys(s, book, 2, scen)] == [1]
    s["turn_marks"].append(TurnMark(2, 6, "sabotage spotting", 0, 0))
    assert spotted_convoys(s, book, 2, scen) == []
    s["clans"][1].turns_run = 7                                       # the next turn: seeing again
    assert [cv.id for cv, _, _ in spotted_convoys(s, book, 2, scen)] == [1]
