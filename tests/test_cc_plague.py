"""The Plague at the end of a game turn and in the income phase (plague.py, income.py): an
afflicted city loses people (half with a Hospital, never below the floor), its value following;
owned healthy cities may catch it; an afflicted city pays less; its owner sees it only where
a Hospital stands. The convoy side is proven by rule cases (tests/cases/cc/plague-*.toml)."""

from __future__ import annotations

from engine.dice import Dice, ScriptedDice
from engine.events import EventLog
from engine.map import new_map
from engine.ruleset import TurnContext
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.state import SCHEMA, Building, City, Clan, World
from engine.rulesets.cc.turn import plague
from engine.rulesets.cc.turn.income import production
from engine.scenario import Faction, Scenario
from engine.state import State


def _game(**options):
    scen = Scenario("cc", "t", new_map("hex", 4, 3), RULESET.default_catalogs(), RULESET.default_options(),
                    [Faction(1, "A"), Faction(2, "B")], seed=1)
    for k, v in options.items():
        scen.options.set(k, v)
    s = State(SCHEMA, 7)
    s["world"].append(World(game_turn=5))
    s["clans"].extend([Clan(number=1, name="A"), Clan(number=2, name="B")])
    s["cities"].extend([
        City(cell=0, name="Ur", owner=1, population=50000, value=25000, plague=True, needs="gems"),
        City(cell=1, name="Kish", owner=1, population=40000, value=20000, plague=True, needs="gems"),
        City(cell=2, name="Lagash", owner=2, population=30000, value=15000),
        City(cell=3, name="Eridu", owner=0, population=20000, value=10000),
        City(cell=4, name="Nippur", owner=2, population=1500, value=700, plague=True),
    ])
    s["buildings"].append(Building(cell=1, code="HOS"))
    return scen, s


def _cycle(scen, s, dice):
    ctx = TurnContext(RULESET, scen, s, s.copy(), {}, dice, EventLog())
    plague.cycle(ctx)
    return ctx.events


def test_afflicted_cities_decline_the_hospital_halves_it_and_the_floor_holds():
    scen, s = _game(plague_chance_pct=0)
    events = _cycle(scen, s, ScriptedDice([]))
    c = {x.name: x for x in s["cities"]}
    # inside the normal band (25,000-50,000) the value holds (X243)
    assert (c["Ur"].population, c["Ur"].value) == (45000, 25000)        # 10%
    assert (c["Kish"].population, c["Kish"].value) == (38000, 20000)     # 5% with a Hospital
    assert c["Nippur"].population == 1350                                # 150 lost, above 1,000
    assert c["Lagash"].population == 30000 and not c["Lagash"].plague
    declined = {e.city: e for e in (r.event for r in events.records)}
    assert declined["Ur"].lost == 5000 and not declined["Ur"].hospital
    # the owner sees it only where its Hospital stands; the GM sees every line
    assert [r.event.city for r in events.for_faction(1)] == ["Kish"]
    assert events.for_faction(2) == [] and len(events.for_faction(None)) == 3


def test_the_floor_stops_the_decline():
    scen, s = _game(plague_chance_pct=0, min_population=1400)
    _cycle(scen, s, ScriptedDice([]))
    assert next(c for c in s["cities"] if c.name == "Nippur").population == 1400


def test_only_owned_healthy_cities_catch_it():
    scen, s = _game(plague_chance_pct=30)
    # one roll: Lagash (owned, healthy) d100 = 30 -> struck; Eridu is uncontrolled: no roll
    events = _cycle(scen, s, ScriptedDice([30]))
    c = {x.name: x for x in s["cities"]}
    assert c["Lagash"].plague and not c["Eridu"].plague
    struck = [r.event for r in events.records if r.event.struck]
    assert [e.city for e in struck] == ["Lagash"] and struck[0].population == 30000


def test_the_same_seed_gives_the_same_plague():
    runs = []
    for _ in range(2):
        scen, s = _game(plague_chance_pct=50)
        events = _cycle(scen, s, Dice(11, "plague"))
        runs.append((events.to_list(), [(c.name, c.population, c.plague) for c in s["cities"]]))
    assert runs[0] == runs[1]


def test_an_afflicted_city_pays_less():
    scen, s = _game(plague_income_loss_pct=50)
    got = production(s, scen.catalogs, scen.options, 1)
    assert got["money"] == 25000 // 2 + 20000 // 2
    for c in s["cities"]:
        c.plague = False
    assert production(s, scen.catalogs, scen.options, 1)["money"] == 45000


def test_a_clan_knows_of_the_plague_only_by_its_hospital_or_a_doctor():
    from engine.rulesets.cc.state import Seen
    from engine.rulesets.cc.view import visible_state

    scen, s = _game()
    s["clans"][0].turns_run = 3                          # clan 1's last turn was its third
    s["seen"].append(Seen(1, 4, 3, "plague"))            # its Doctor found Nippur's Plague
    assert plague.plague_known(s, 1, 3) == {1, 4}        # Kish (its Hospital) and Nippur
    next(c for c in s["cities"] if c.name == "Lagash").plague = True
    s["seen"].append(Seen(1, 2, 3, "visit"))             # a visit without a Doctor tells nothing
    shown = {c.name: c.plague for c in visible_state(s, 1, scen)["cities"]}
    assert shown == {"Ur": False, "Kish": True, "Lagash": False, "Nippur": True}
    assert next(c for c in s["cities"] if c.name == "Ur").plague     # the state itself unchanged


def test_the_house_d100_tables_are_checked_for_gaps():
    from engine.rulesets.cc.catalog import check_catalogs

    cats = RULESET.default_catalogs()
    assert check_catalogs(cats) == []
    for table in ("cure_gifts", "sabotage"):
        broken = {k: v.copy() for k, v in cats.items()}
        broken[table].update(0, {"roll_to": broken[table].rows[0]["roll_to"] - 1})
        assert any(p.startswith(f"{table}: rolls") for p in check_catalogs(broken)), table


def test_a_scourge_bomb_infects_a_city_and_a_hospital_stops_it_half_the_time():
    from engine.rulesets.cc.turn.clan_turn import ClanTurn

    scen, s = _game()
    ctx = TurnContext(RULESET, scen, s, s.copy(), {}, ScriptedDice([51, 50]), EventLog())
    t = ClanTurn(ctx, 2, None)
    c = {x.name: x for x in s["cities"]}
    assert plague.scourge(t, c["Lagash"]) and c["Lagash"].plague          # no Hospital: no roll
    assert not plague.scourge(t, c["Ur"])                                 # afflicted already
    c["Kish"].plague = False
    assert not plague.scourge(t, c["Kish"]) and not c["Kish"].plague      # Hospital: d100 = 51 > 50
    assert plague.scourge(t, c["Kish"]) and c["Kish"].plague              # d100 = 50
