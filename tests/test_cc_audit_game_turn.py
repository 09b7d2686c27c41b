"""The end of a game turn read from the book alone (cc-audit): population growth and the
city's dollar value against the population bands, and the popularity example of turn 1."""

from __future__ import annotations

from engine.map import new_map
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.state import SCHEMA, Building, City, Clan, Hex, Price, World
from engine.scenario import Faction, Scenario
from engine.state import State
from tests.test_cc_game_turn import _end as end_of_game_turn


def _game(cities: list[City], hexes: list[Hex] = (), buildings: list[Building] = ()):
    scen = Scenario("cc", "t", new_map("hex", 4, 3), RULESET.default_catalogs(),
                    RULESET.default_options(), [Faction(1, "A"), Faction(2, "B")], seed=1)
    scen.options.set("plague_chance_pct", 0)
    s = State(SCHEMA, 7)
    s["world"].append(World(game_turn=2))
    s["clans"].extend([Clan(number=1, turns_run=2), Clan(number=2, turns_run=2)])
    s["cities"].extend(cities)
    s["hexes"].extend(hexes)
    s["buildings"].extend(buildings)
    s["prices"].append(Price("fuel", 20))
    return scen, s


def _end(scen, s, dice):
    """The state after the end of the game turn (tests/test_cc_game_turn.py runs it)."""
    return end_of_game_turn(scen, s, dice)[0]


def test_growth_changes_the_value_only_outside_the_normal_band():
    # [POPULATION]: 25,000-50,000 people (majors 100,000-200,000) do not change production;
    # fewer lower the value, more raise it (X61, X243). Growth d5 = 3 -> 10% each.
    scen, s = _game([
        City(cell=0, name="Inside", owner=1, population=30000, value=15000),
        City(cell=1, name="Across", owner=1, population=48000, value=25000),
        City(cell=2, name="Low", owner=1, population=20000, value=10000),
        City(cell=3, name="Major", owner=1, major=True, population=150000, value=100000),
        City(cell=4, name="Wild", owner=0, population=30000, value=15000),
    ])
    new = _end(scen, s, [3, 3, 3, 3, 11])
    c = {x.name: (x.population, x.value) for x in new["cities"]}
    assert c["Inside"] == (33000, 15000)            # inside the band: value holds
    assert c["Across"] == (52800, 26400)            # 2,800 above 50,000: x 52,800 / 50,000
    assert c["Low"] == (22000, 11000)               # below 25,000: x 22,000 / 20,000
    assert c["Major"] == (165000, 100000)           # a major's band is 100,000-200,000
    assert c["Wild"] == (30000, 15000)              # uncontrolled cities never grow


def test_a_church_doubles_growth_and_the_maximum_holds():
    scen, s = _game([City(cell=0, name="Holy", owner=1, population=40000, value=20000),
                     City(cell=1, name="Full", owner=1, population=95000, value=47500)],
                    buildings=[Building(cell=0, code="CHU")])
    new = _end(scen, s, [3, 3, 11])                 # 10% -> 20% with the Church
    c = {x.name: x.population for x in new["cities"]}
    assert c == {"Holy": 48000, "Full": 100000}     # a minor city holds 100,000 at most


def test_popularity_after_turn_one_is_about_107_or_108():
    # [POPULARITY]: 100, +1 a hex, +1 per 10,000 people (totalled, rounded down): one hex and a
    # start city of 70,000 (after its growth) give 108
    scen, s = _game([City(cell=0, name="Home", owner=1, population=65000, value=30000)],
                    hexes=[Hex(cell=0, owner=1)])
    new = _end(scen, s, [1, 11])                    # 8%: 70,200 people
    clan = next(c for c in new["clans"] if c.number == 1)
    assert new["cities"][0].population == 70200 and clan.popularity == 108
