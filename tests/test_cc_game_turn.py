"""The end of a Continental Conquest game turn (cycle_phases) on a small hand-made state: the
counter and dropped positions, city growth, the market, popularity, Top Clans and victory."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.events import EventLog
from engine.map import new_map
from engine.ruleset import TurnContext
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.state import SCHEMA, City, Clan, Convoy, Hex, Price, Vehicle, World
from engine.scenario import Faction, Scenario
from engine.state import State


def _game(**options):
    options = {"plague_chance_pct": 0, **options}  # cc-cycle: no Plague rolls in these scripts
    m = new_map("hex", 4, 3)
    scen = Scenario("cc", "t", m, RULESET.default_catalogs(), RULESET.default_options(),
                    [Faction(1, "A"), Faction(2, "B"), Faction(3, "C")], seed=1)
    for k, v in options.items():
        scen.options.set(k, v)
    s = State(SCHEMA, 7)
    s["world"].append(World(game_turn=4))
    s["clans"].extend([Clan(number=1, name="A", turns_run=4), Clan(number=2, name="B", turns_run=4),
                   Clan(number=3, name="C", turns_run=2)])
    s["hexes"].extend([Hex(cell=0, owner=1), Hex(cell=1, owner=1, special="STA"), Hex(cell=2, owner=2)])
    s["cities"].extend([City(cell=0, name="Ur", owner=1, population=50000, value=25000),
                    City(cell=5, name="Kish", owner=0, population=30000, value=15000),
                    City(cell=2, name="Lagash", owner=2, population=99000, value=50000)])
    s["convoys"].append(Convoy(id=1, owner=2, number=1))
    s["vehicles"].append(Vehicle(convoy=1, type="truck", count=2))
    s["prices"].append(Price("fuel", 20))
    return scen, s


def _end(scen, s, dice):
    new = s.copy()
    ctx = TurnContext(RULESET, scen, new, s, {}, ScriptedDice(dice), EventLog())
    for phase in RULESET.cycle_phases():
        ctx.events.phase = phase.name
        phase.run(ctx)
    return new, {r.event.kind: r.event for r in ctx.events.records}


def test_counter_drops_growth_market_popularity_and_top_lists():
    scen, s = _game(top_lists_from_turn=4)
    # growth 8-12%: Ur d5 = 3 -> 10%; Lagash d5 = 5 -> 12% but capped at 100,000; fuel d21 = 21 -> +10%
    new, ev = _end(scen, s, [3, 5, 21])
    w = new["world"][0]
    assert (w.game_turn, w.step_in_turn) == (5, 0)
    clans = {c.number: c for c in new["clans"]}
    assert clans[3].dropped and not clans[1].dropped          # two game turns behind (X3)
    cities = {c.name: c for c in new["cities"]}
    assert (cities["Ur"].population, cities["Ur"].value) == (55000, 27500)   # value follows (X61)
    assert cities["Lagash"].population == 100000 and cities["Kish"].population == 30000
    assert new["prices"][0].price == 22
    assert ev["cc.game_turn_ended"].dropped == (3,) and ev["cc.game_turn_ended"].grown == 2
    # popularity: 100 + hexes (the Stadium's is worth 5) + people // 10,000
    assert (clans[1].popularity, clans[2].popularity, clans[3].popularity) == (100 + 6 + 5, 100 + 1 + 10, 100)
    tops = {(t.ranking, t.rank): (t.clan, t.value) for t in new["top_clans"]}
    assert tops[("popularity", 1)] == (1, 111) and tops[("popularity", 2)] == (2, 111)
    assert tops[("hexes", 1)] == (1, 2) and tops[("power", 1)] == (2, 2 * 52)
    assert "cc.cycle_not_built" not in ev


def test_victory_needs_the_level_held_for_one_more_game_turn():
    scen, s = _game(victory_popularity=111, top_lists_from_turn=99)
    s["cities"][2].population = 50000
    # Ur 50,000 +10% -> 55,000: A has 100 + 6 + 5 = 111; Lagash +8% -> 54,000: B 106
    new, ev = _end(scen, s, [3, 1, 11])
    w = new["world"][0]
    assert (w.leader, w.leader_since, w.finished) == (1, 4, False)   # A reached it first
    assert ev["cc.leading"].clan == 1 and not RULESET.is_finished(new, scen)
    again, ev2 = _end(scen, new, [1, 1, 11])                         # A still holds 111
    w2 = again["world"][0]
    assert w2.finished and w2.winner == 1 and ev2["cc.game_won"].clans == (1,)
    assert RULESET.is_finished(again, scen)
    assert RULESET.step_report_factions(again, EventLog(), 1, scen) == {1, 2, 3}


def test_a_tie_at_the_top_shares_the_victory():
    scen, s = _game(victory_popularity=111, top_lists_from_turn=99)
    s["cities"][2].population = 100000          # Lagash is full: B has 100 + 1 + 10 = 111
    s["world"][0].leader, s["world"][0].leader_since = 1, 3
    new, ev = _end(scen, s, [3, 1, 11])         # Ur +10%: A 111 too; Lagash stays full
    assert new["world"][0].winner == -1 and ev["cc.game_won"].clans == (1, 2)


def _end_seeded(scen, s, seed):
    from engine.dice import Dice

    new = s.copy()
    ctx = TurnContext(RULESET, scen, new, s, {}, Dice(seed, "t"), EventLog())
    for phase in RULESET.cycle_phases():
        ctx.events.phase = phase.name
        phase.run(ctx)
    return new, {r.event.kind: r.event for r in ctx.events.records}


def test_hex_production_rerolled_each_game_turn_with_option_reroll():
    """cc-house (X15, X212): hex_production = reroll rolls every land hex's production anew from
    its terrain's ranges at the end of each game turn, from the game's seeded dice; fixed (the
    default) keeps the values rolled at set-up."""
    scen, s = _game(hex_production="reroll")
    for h in s["hexes"]:
        h.value, h.food, h.fuel, h.parts = 5000, 99, 99, 99     # outside the plains' ranges
    new, ev = _end_seeded(scen, s, 7)
    again, _ = _end_seeded(scen, s, 7)
    plains = scen.catalogs["terrain"].by("id")["plains"]
    for h in new["hexes"]:
        assert plains["money_min"] <= h.value <= plains["money_max"]
        assert plains["food_min"] <= h.food <= plains["food_max"]
        assert plains["fuel_min"] <= h.fuel <= plains["fuel_max"]
        assert plains["parts_min"] <= h.parts <= plains["parts_max"]
    assert [(h.value, h.food, h.fuel, h.parts) for h in new["hexes"]] == \
        [(h.value, h.food, h.fuel, h.parts) for h in again["hexes"]]     # same seed, same rolls
    assert ev["cc.production_rerolled"].hexes == 3
    scen, s = _game()
    assert scen.options["hex_production"] == "fixed"
    for h in s["hexes"]:
        h.value = 5000
    new, ev = _end_seeded(scen, s, 7)
    assert [h.value for h in new["hexes"]] == [5000, 5000, 5000] and "cc.production_rerolled" not in ev
