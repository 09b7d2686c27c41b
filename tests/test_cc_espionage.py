"""Spotting and sabotage (report.spotted_convoys with turn/espionage.py's marks): a city whose
lookouts a spy blinded spots nothing after its owner's next turn, and only then."""

from __future__ import annotations

from engine.events import EventLog
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


def _spied(seed: int):
    """A clan-1 turn's agents phase over Derry, where clan 2's counter-spy hides (cc-house)."""
    from engine.dice import Dice
    from engine.ruleset import TurnContext
    from engine.rulesets.cc.state import Building, Spy
    from engine.rulesets.cc.turn import ClanTurn
    from engine.rulesets.cc.turn.espionage import intelligence

    scen, s = _game()
    s["clans"][0].turns_run = 5
    s["cities"][0].troops, s["cities"][0].claymores = 30, 2
    s["buildings"].extend([Building(0, "SHE"), Building(0, "MAR")])
    s["spies"].extend([Spy(0, 1), Spy(0, 2)])
    ctx = TurnContext(RULESET, scen, s, s.copy(), {}, Dice(seed, "t"), EventLog())
    intelligence(ClanTurn(ctx, 1, None))
    s["clans"][0].turns_run = 6          # the turn ran: its report and bundle are of turn 6
    return scen, s


def test_a_spy_beside_a_counter_spy_reports_about_half_its_figures_wrong_and_never_which():
    """K24 (X211): each figure wrong at spy_wrong_pct = 50, from the seeded dice; the wrong
    figures are ones the city could have (another level, troops within the capacity shown)."""
    book = None
    wrong = {"fortification": 0, "troops": 0, "claymores": 0, "buildings": 0}
    n = 300
    for seed in range(n):
        scen, s = _spied(seed)
        book = book or Book(scen.catalogs)
        (v,) = s["spy_views"]
        wrong["fortification"] += v.fortification != 2
        wrong["troops"] += v.troops != 30
        wrong["claymores"] += v.claymores != 2
        wrong["buildings"] += v.buildings != "MAR SHE"
        row = book.fortifications[v.fortification]
        cap = row["capacity_barracks" if "BAR" in v.buildings.split() else "capacity"]
        assert v.fortification in book.fortifications and 0 <= v.troops <= cap and 0 <= v.claymores <= cap // 10
    # binomial(300, 0.5): mean 150, sigma 8.7; six sigma either side
    for figure, k in wrong.items():
        assert 98 <= k <= 202, (figure, k)
    scen, a = _spied(11)
    _, b = _spied(11)
    assert a["spy_views"] == b["spy_views"]                    # the game's seed decides


def test_the_spying_clans_report_and_bundle_hold_the_spys_figures_not_the_truth():
    from engine.rulesets.cc.report import build_report
    from engine.rulesets.cc.state import Seen, SpyView
    from engine.rulesets.cc.view import visible_state

    scen, s = _spied(1)
    s["spy_views"][:] = [SpyView(1, 6, 0, 4, 120, 0, "BAR SHE")]
    rep = build_report(s, EventLog(), 1, scen, [])
    (derry,) = [c for c in rep["cities"] if c["name"] == "Derry"]
    assert (derry["fortification"], derry["troops"], derry["claymores"], derry["buildings"]) == (4, 120, 0, "BAR SHE")
    seen = visible_state(s, 1, scen)
    (city,) = seen["cities"]
    assert (city.fortification, city.troops, city.claymores) == (4, 120, 0)
    assert sorted(b.code for b in seen["buildings"]) == ["BAR", "SHE"]
    assert seen["spy_views"] == []                             # the table stays with the GM
    from engine.rulesets.cc.state import Hex

    s["hexes"].append(Hex(cell=0, owner=2, looted=True))       # searched by someone: not told
    assert [h.looted for h in visible_state(s, 1, scen)["hexes"]] == [False]
    assert s["hexes"][0].looted
    # the owner's own report is the truth
    rep2 = build_report(s, EventLog(), 2, scen, [])
    assert [(c["fortification"], c["troops"]) for c in rep2["cities"]] == [(2, 30)]
    # a convoy of clan 1 visiting Derry the same turn sees it as it is
    s["seen"].append(Seen(1, 0, 6, "visit"))
    rep = build_report(s, EventLog(), 1, scen, [])
    assert [(c["fortification"], c["troops"], c["buildings"]) for c in rep["cities"]] == [(2, 30, "MAR SHE")]
    assert visible_state(s, 1, scen)["cities"][0].troops == 30
