"""Continental Conquest formulas (convoy_stats.py, costs.py) against the book's worked examples."""

from __future__ import annotations

import pytest

from engine.rulesets.cc.catalog import Book, default_catalogs
from engine.rulesets.cc.convoy_stats import (
    bomb_capacity,
    cargo_capacity,
    combat_strength,
    fuel_rate,
    grenade_capacity,
    max_damage,
    moves_per_turn,
    pulses,
    rifle_capacity,
    rocket_capacity,
    size,
    size_category,
    troop_capacity,
)
from engine.rulesets.cc.costs import (
    agent_cost,
    conquest_range,
    convoy_cost,
    cure_vaccine,
    espionage_cost,
    fish_food,
    pave_cost,
    radio_range,
    spotting,
)

BOOK = Book()
SAMPLE = {"truck": 4, "bus": 1, "van": 3, "car": 9, "bike": 6}
SAMPLE_EXPERTS = ("GUN", "MER", "CHE", "POL", "ARM", "TRA")


def test_the_sample_convoy_sheet():
    """[CONVOY ORDERS] sample sheet: Troops 172, Rifles 6, Grenades 17, Rockets 4, Combat
    Strength 748, Fuel Cost 56, Cargo max 81."""
    troops = troop_capacity(BOOK, SAMPLE, SAMPLE_EXPERTS)
    rockets = rocket_capacity(BOOK, SAMPLE)
    assert (troops, rifle_capacity(troops), grenade_capacity(troops), rockets) == (172, 6, 17, 4)
    assert combat_strength(BOOK, SAMPLE, troops, rockets, SAMPLE_EXPERTS) == 748
    assert fuel_rate(BOOK, SAMPLE, SAMPLE_EXPERTS) == 56
    assert cargo_capacity(BOOK, SAMPLE, SAMPLE_EXPERTS) == 81
    assert cargo_capacity(BOOK, SAMPLE, (), empty_mode=True) == 71 * 125 // 100


def test_sizes_fuel_and_dice():
    fleet = {"bike": 5, "car": 2, "truck": 1}
    assert size(BOOK, fleet) == 29 and size_category(BOOK, 29) == "small"  # X76
    assert [size_category(BOOK, n) for n in (1, 15, 16, 61, 721, 5000)] == \
        ["tiny", "tiny", "small", "large", "monstrous", "monstrous"]
    assert fuel_rate(BOOK, {"truck": 1, "car": 3, "bike": 5}) * BOOK.terrain["jungle"]["fuel_factor"] == 45
    assert (max_damage("8d6+4"), max_damage("1d3"), max_damage("10d15+20"), max_damage("junk")) == (52, 3, 170, 0)
    assert bomb_capacity(BOOK, {"fighter": 2, "jet": 1, "biplane": 3}) == 3


@pytest.mark.parametrize("ctype,fleet,experts,airport,moves", [
    ("land", {"car": 1, "bike": 2}, (), False, 5),
    ("land", {"bike": 3}, ("ENG",), False, 7),
    ("sea", {"motorboat": 1}, ("ENG",), False, 11),
    ("amphibious", {"gev": 1}, (), False, 6),
    ("military", {"jeep": 2}, (), False, 6),
    ("air", {"ultralight": 1}, ("PIL", "ENG"), True, 40),
    ("air", {"jet": 1}, (), False, 20),
])
def test_speed_chart(ctype, fleet, experts, airport, moves):
    assert moves_per_turn(BOOK, ctype, fleet, experts, airport) == moves


def test_pulses_and_the_priest():
    assert pulses(BOOK, "sea", ("ENG",)) == 12 and pulses(BOOK, "land", ("ENG",)) == 10
    assert fish_food(BOOK, 80) == 50 and fish_food(BOOK, 80, ("GOU",)) == 57
    assert fish_food(BOOK, 80, ("GOU", "PRI")) == 65 and fish_food(BOOK, 12, ("GOU",)) == 13


def test_costs_from_the_book():
    assert convoy_cost(BOOK, 1) == 15_000 and convoy_cost(BOOK, 3) == 40_000 and convoy_cost(BOOK, 12) is None
    assert agent_cost(BOOK, 4) == 16_000 and agent_cost(BOOK, 9) == 512_000
    assert pave_cost(BOOK, 2500, "desert", "wilderness") == 13_750
    assert espionage_cost(BOOK, 110, ["OWNER", "income", "ENEMIES"]) == 13_750
    assert cure_vaccine(BOOK, 60_001) == 61 and cure_vaccine(BOOK, 60_001, ("DOC",)) == 52
    assert cure_vaccine(BOOK, 60_001, ("DOC", "PRI")) == 43


def test_hex_conquest_and_city_ranges():
    assert conquest_range(BOOK, 8, 6, "plains") == (20, 44)
    assert conquest_range(BOOK, 5, 5, "plains") == (15, 31)
    assert conquest_range(BOOK, 5, 5, "swamp") == (20, 36)
    assert spotting(BOOK, 5) == (5, 3, -1) and spotting(BOOK, 6, tower=True) == (8, 6, 4)
    assert [radio_range(BOOK, f) for f in (1, 2, 3)] == [4, 6, 8] and radio_range(BOOK, 1, True) == 10


def test_a_gm_edit_changes_the_formulas():
    cats = default_catalogs()
    i = next(i for i, r in enumerate(cats["experts"]) if r["code"] == "POL")
    cats["experts"].update(i, {"bonus_pct": 20})
    assert troop_capacity(Book(cats), SAMPLE, ("POL",)) == 180
