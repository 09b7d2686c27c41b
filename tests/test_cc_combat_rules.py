"""Continental Conquest combat, rule by rule where a case file would only repeat a formula:
the modifiers, the over-100% rule, the hiding and conquest checks, building the sides from
state rows, purity and determinism."""

from __future__ import annotations

import pytest

from engine.dice import Dice, ScriptedDice
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import (
    CityDefence,
    CombatConvoy,
    CombatRules,
    Invader,
    attack_hex,
    city,
    conquered_city_refusal,
    convoy_battle,
    hex_attack_refusal,
    hidden_after,
    hidden_refusal,
    hiding,
    invade_city,
    may_attack_convoy,
)
from engine.rulesets.cc.combat.convoy_battle import salvo
from engine.rulesets.cc.combat.rules import condition_pct, hits, police_pct
from engine.rulesets.cc.options import OPTIONS

BOOK = Book()
R = CombatRules()


@pytest.mark.parametrize("training, morale, health, pct", [
    (30, 30, 100, 0), (35, 30, 100, 1), (34, 30, 100, 0), (100, 100, 100, 28),
    (25, 30, 100, -1), (26, 30, 100, 0), (0, 0, 100, -12),          # X35: 5 points a step below 30 too
    (30, 30, 97, -1), (30, 30, 98, 0), (30, 30, 50, -16),
])
def test_training_morale_and_health_steps(training, morale, health, pct):
    assert condition_pct(R, training, morale, health) == pct


def test_police_and_sergeant_make_thirty_together():
    assert [police_pct(R, p, s) for p, s in ((False, False), (True, False), (False, True), (True, True))] \
        == [0, 10, 10, 30]


def test_over_a_hundred_is_a_sure_hit_and_a_chance_of_the_rest():
    d = ScriptedDice([18, 19])
    assert hits(d, 118, "") == 2 and hits(d, 118, "") == 1
    sure = ScriptedDice([])
    assert hits(sure, 100, "") == 1 and hits(sure, 200, "") == 2 and hits(sure, 0, "") == 0


def test_rifles_count_one_per_25_troops_present():   # X92
    inv = Invader(1, 1, 100, rifles=10)
    assert city.attacker_chance(inv, 100, R) == 54
    assert city.attacker_chance(inv, 24, R) == 50
    assert city.attacker_chance(inv, 1000, R) == 60


@pytest.mark.parametrize("level, pct", [(1, 60), (2, 70), (3, 85), (4, 100), (5, 150), (6, 200)])
def test_the_city_hits_by_its_fortification_plus_shelter_and_claymores(level, pct):
    c = CityDefence(1, 2, level, 10, 10000)
    assert city.defender_chance(BOOK, c, 0, R) == pct
    c.shelter = True
    assert city.defender_chance(BOOK, c, 7, R) == pct + 17


def test_a_grenade_at_100_percent_hits_without_a_roll_and_a_miss_kills_one():   # X94, X41
    assert city._grenade(ScriptedDice([4]), 100, R) == ("hit", 5)       # only the kills rolled
    assert city._grenade(ScriptedDice([60]), 59, R) == ("miss", 1)


def _truck(**kw) -> CombatConvoy:
    return CombatConvoy.build(BOOK, 1, {"truck": 1}, kw.pop("experts", ()), owner=1, **kw)


SIXES = [6] * 8   # the truck's best roll: 8d6+4 = 52


@pytest.mark.parametrize("kw, rnd, damage", [
    ({}, 1, 52),
    ({"experts": ("GUN",)}, 1, 57),                    # +10%
    ({"experts": ("GUN", "PIL")}, 1, 62),              # +10% each
    ({"police": True}, 1, 57),                         # X42: Police +10% against convoys too
    ({"police": True, "experts": ("SER",)}, 1, 62),    # doubled by a Sergeant
    ({"experts": ("GUN",), "kill_mode": "V"}, 1, 45),  # 57 less 20%
    ({"kill_mode": "T"}, 1, 52),                       # no Gunner: the kill mode reverts to N
    ({"type": "military", "hunting": True}, 1, 104),   # the first round of a hunt doubled
    ({"type": "military", "hunting": True}, 2, 52),
    ({"type": "land", "hunting": True}, 1, 52),        # only military convoys
    ({"type": "amphibious", "in_water": True}, 1, 26),  # X25
    ({"training": 80, "morale": 55, "health": 91}, 1, 58),   # +10 +5 -3 = 112%
])
def test_salvo_modifiers(kw, rnd, damage):
    enemy = CombatConvoy.build(BOOK, 2, {"car": 1}, owner=2)
    assert salvo(_truck(**kw), enemy, rnd, False, ScriptedDice(SIXES), R) == damage


def test_air_fights_at_half_only_when_attacked_by_non_air():
    air = CombatConvoy.build(BOOK, 1, {"fighter": 1}, type="air")
    land = CombatConvoy.build(BOOK, 2, {"car": 1})
    jets = CombatConvoy.build(BOOK, 3, {"jet": 1}, type="air")
    twelves = [12] * 10    # 10d12+5 = 125
    assert salvo(air, land, 1, True, ScriptedDice(twelves), R) == 62
    assert salvo(air, land, 1, False, ScriptedDice(twelves), R) == 125
    assert salvo(air, jets, 1, True, ScriptedDice(twelves), R) == 125


def test_armsmaster_adds_a_tenth_to_hit_points():
    assert _truck(experts=("ARM",)).vehicles[0].hit_points == 165


def test_no_rocket_at_an_enemy_half_our_size_or_all_scouts():
    from engine.rulesets.cc.combat.convoy_battle import _rocket
    truck = _truck(rockets=1)
    assert _rocket(truck, CombatConvoy.build(BOOK, 2, {"bike": 5}), ScriptedDice([]), R) is None
    assert _rocket(truck, CombatConvoy.build(BOOK, 2, {"van": 1, "car": 1}), ScriptedDice([]), R) is None
    assert truck.rockets == 1
    big = CombatConvoy.build(BOOK, 2, {"bus": 1})
    assert _rocket(truck, big, ScriptedDice([1, 1]), R) == ("bus", 20) and truck.rockets == 0


def test_a_battle_changes_nothing_it_is_given_and_repeats_with_the_seed():
    a, d = _truck(troops=20), CombatConvoy.build(BOOK, 2, {"van": 2}, owner=2, troops=14)
    before = (repr(a), repr(d))
    r1 = convoy_battle(a, d, Dice(7, "x"))
    r2 = convoy_battle(a, d, Dice(7, "x"))
    assert (repr(a), repr(d)) == before
    assert [e.to_dict() for e in r1.events] == [e.to_dict() for e in r2.events]
    assert r1.rounds >= 1


def test_round_cap_makes_the_attacker_break_off():   # X164
    rules = CombatRules(engage_rule="always", flee_rule="never", convoy_round_cap=2)
    a, d = _truck(), CombatConvoy.build(BOOK, 2, {"truck": 1}, owner=2)
    r = convoy_battle(a, d, Dice(3), rules)
    assert r.rounds == 2 and r.fled == (1,) and r.hidden == (1,) and r.winner == 2


def test_the_greatest_requirement_always_takes_the_hex():
    for seed in range(50):
        r = attack_hex(BOOK, cell=1, convoy=1, clan=1, troops=31, owner=2, defense=5,
                       terrain="plains", guards=5, dice=Dice(seed))
        assert r.captured and 15 <= r.needed <= 31 and r.troops_left == 31 - r.needed


def test_who_may_attack_a_hex():
    ok = dict(mode="capture", hidden=False, owner=2, clan=1, allied=False, enemies_left=False)
    assert hex_attack_refusal(**ok) == ""
    assert hex_attack_refusal(**{**ok, "mode": "recon"}) == "recon mode"
    assert hex_attack_refusal(**{**ok, "hidden": True}) == "in hiding"
    assert hex_attack_refusal(**{**ok, "allied": True}) == "the owner is an ally"
    assert hex_attack_refusal(**{**ok, "enemies_left": True}).startswith("enemy convoys")
    assert hex_attack_refusal(**{**ok, "owner": 1}) == "own hex"


@pytest.mark.parametrize("order", ["ATTACK", "LOOT", "CELEBRATE", "PRACTICE", "PATROL", "PICKUP",
                                   "DROPOFF", "FISH", "HIRE", "BOMB", "SCAN"])
def test_a_hidden_convoy_may_not(order):
    assert hidden_refusal(BOOK, order, hidden=True)
    assert hidden_refusal(BOOK, order, hidden=False) == ""


@pytest.mark.parametrize("order", ["MOVE", "PAUSE", "GUARD", "HUNT", "KILL MODE"])
def test_a_hidden_convoy_may(order):
    assert hidden_refusal(BOOK, order, hidden=True) == ""


def test_coming_out_of_hiding_and_who_can_attack_it():
    assert hidden_after("MOVE", True) is False and hidden_after("PAUSE", True) is False
    assert hidden_after("CELEBRATE", True) is True
    assert may_attack_convoy(target_hidden=True, hunting=True)
    assert not may_attack_convoy(target_hidden=True, hunting=False)
    assert not hiding.is_order(BOOK, "HIDE") and hiding.NEW_CONVOYS_HIDDEN


def test_a_city_taken_this_turn():
    assert conquered_city_refusal("FORTIFY", 4, 4) and conquered_city_refusal("erect", 4, 4)
    assert conquered_city_refusal("CREATE", 4, 4)
    assert conquered_city_refusal("ASSIGN", 4, 4) == ""
    assert conquered_city_refusal("FORTIFY", 3, 4) == ""


def test_sides_from_state_rows():
    cv = st.Convoy(id=9, owner=3, type="land", troops=12, rockets=1, morale=40, training=20,
                   kill_mode="V", police_turn=5, rifles=4, grenades=2)
    vehicles = [st.Vehicle(9, "truck", 1, 0), st.Vehicle(9, "car", 2, 25)]
    c = CombatConvoy.from_state(BOOK, cv, vehicles, [st.Expert(9, "GUN")], game_turn=5)
    assert [v.type for v in c.vehicles] == ["truck", "car", "car"]
    assert [v.damage for v in c.vehicles] == [0, 25, 0]
    assert c.police and c.kill_mode == "V" and c.owner == 3 and c.troop_capacity() == 26
    assert not CombatConvoy.from_state(BOOK, cv, vehicles, [], game_turn=6).police
    inv = Invader.from_state(cv, ["SER"], game_turn=5, troops=50)
    assert (inv.troops, inv.rifles, inv.grenades, inv.sergeant, inv.police) == (12, 4, 2, True, True)


def test_options_reach_the_rules():
    names = {o.name for o in OPTIONS}
    for name in ("troop_hit_pct", "troop_damage_pct", "kill_mode_penalty_pct", "stat_step",
                 "engage_rule", "flee_rule", "flee_ratio_pct", "engage_ratio_pct",
                 "tinkerer_repair", "grenade_miss_kills", "attacker_to_hit", "min_population",
                 "morale_win", "morale_capture", "training_combat"):
        assert name in names and hasattr(R, name)
    r = CombatRules.from_options({"troop_hit_pct": 10, "capture_garrison_min": 6, "turn_order": "x"})
    assert r.troop_hit_pct == 10 and r.capture_garrison == (6, 10)


def test_an_empty_city_falls_without_a_round():
    r = invade_city(BOOK, Invader(1, 1, 8), CityDefence(5, 0, 1, 0, 30000), ScriptedDice([1, 1]))
    assert r.captured and r.rounds == 0 and r.garrison_left == 5 and r.population == 30000 - 3300


def test_a_battle_written_back_to_state_rows():
    cv = st.Convoy(id=1, owner=1, troops=25, rockets=1)
    rows = [st.Vehicle(1, "truck", 1), st.Vehicle(1, "car", 1), st.Vehicle(1, "bike", 2)]
    c = CombatConvoy.from_state(BOOK, cv, rows, [])
    c.vehicles[1].destroyed = True          # the car
    c.vehicles[0].damage = 12
    c.troops, c.rockets, c.hidden = 20, 0, True
    assert c.write_to(cv, rows) == {"car": -1}
    assert (cv.troops, cv.rockets, cv.hidden) == (20, 0, True)
    assert [r.damage for r in rows] == [12, 0, 0]


def test_entering_a_hex_repairs_after_each_battle_whatever_the_dice():
    from engine.rulesets.cc.combat import fight_through

    for seed in range(30):
        truck = CombatConvoy.build(BOOK, 1, {"truck": 1}, owner=1)   # no troops: every point hits it
        bikes = [CombatConvoy.build(BOOK, i, {"bike": 1}, owner=i) for i in (2, 3)]
        parts = {1: 10}
        hb = fight_through(truck, bikes, Dice(seed, "hex"), parts=parts)
        assert hb.cleared and parts[1] == 8 and hb.convoy.vehicles[0].damage == 0
        assert sorted(b.defender.id for b in hb.battles) == [2, 3]
        assert all(hb.after[i].wiped_out for i in (2, 3))


def test_repair_leaves_the_battle_result_as_it_was():
    from engine.rulesets.cc.combat import repair

    c = CombatConvoy.build(BOOK, 1, {"car": 2}, owner=1)
    c.vehicles[0].damage = 22
    rr = repair(c, 10)
    assert c.vehicles[0].damage == 22 and rr.convoy.vehicles[0].damage == 0 and rr.parts_used == 5


def test_the_games_default_options_are_the_books_figures():
    from engine.tables import Options

    assert CombatRules.from_options(Options(OPTIONS)) == CombatRules()
    assert CombatRules.from_options(Options(OPTIONS, {"flee_ratio_pct": 70})).flee_ratio_pct == 70


def test_the_gourmets_morale_is_a_house_option():
    """X251: a Gourmet adds his share of a morale gain, rounded up; the option turns it off."""
    from engine.rulesets.cc.convoy_stats import more_morale

    assert (more_morale(5, 15), more_morale(10, 15), more_morale(10, 30), more_morale(5, 0)) == (6, 12, 13, 5)
    gourmet = CombatConvoy.build(BOOK, 1, {"car": 1}, ("GOU",))
    assert gourmet.morale_gain(5, R) == 6
    assert gourmet.morale_gain(5, CombatRules.from_options({"gourmet_morale": False})) == 5
