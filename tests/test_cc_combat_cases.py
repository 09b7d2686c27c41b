"""Every Continental Conquest combat case (tests/cases/cc/combat/*.toml) gives its expected
outcome and events, and uses up its scripted dice exactly (a leftover roll means the rules
asked for fewer dice than the case's author read in the book)."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from tests import cc_combat_harness as h

CASES = sorted(h.CASES.glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    case = h.load(path)
    out, events, dice = h.outcome(case)
    want = dict(case["expect"])
    wanted_events, unwanted = want.pop("events", []), want.pop("no_events", [])
    for key, value in want.items():
        assert key in out, f"{path.name}: unknown expect key {key!r}"
        assert out[key] == value, f"{path.name}: {key}"
    for w in wanted_events:
        assert any(h.matches(e, w) for e in events), f"{path.name}: no event like {w}"
    for w in unwanted:
        assert not any(h.matches(e, w) for e in events), f"{path.name}: unexpected event {w}"
    if isinstance(dice, ScriptedDice):
        assert dice.used == len(dice.rolls), f"{path.name}: {len(dice.rolls) - dice.used} rolls left"


def test_there_is_a_case_for_every_kind():
    kinds = {h.load(p)["kind"] for p in CASES}
    assert kinds >= {"convoy_battle", "hex_battles", "city", "hex", "repair", "bomb", "raze"}


def test_every_event_of_the_cases_reads_as_a_sentence():
    from engine.rulesets.cc.combat.report import sentence

    seen = set()
    for path in CASES:
        _, events, _ = h.outcome(h.load(path))
        for e in events:
            text = sentence(e, lambda c: f"#{c}", lambda cell: f"{cell:04d}")
            assert text.endswith(".") and "None" not in text, (path.name, text)
            seen.add(e.kind)
    assert seen == {"cc.hex_attacked", "cc.city_round", "cc.city_invaded", "cc.convoy_battle",
                    "cc.battle_declined", "cc.salvo", "cc.convoy_fled",
                    "cc.convoy_battle_ended", "cc.repaired", "cc.city_bombed", "cc.city_razed"}


def test_the_worked_example_reads_like_the_book():
    from engine.rulesets.cc.combat.report import sentence

    _, events, _ = h.outcome(h.load(h.CASES / "truck-against-two-cars.toml"))
    text = [sentence(e, lambda c: f"convoy #{c}", lambda cell: "0516") for e in events]
    assert text[:5] == [
        "convoy #1 attacked convoy #2 in 0516.",
        "Round 1: convoy #1 fired, 42 damage; vehicles hit: car 42.",
        "Round 1: convoy #2 fired, 19 damage; vehicles hit: truck 19.",
        "convoy #2 fled after round 1 and went into hiding.",
        "convoy #1 won the battle in 0516 after 1 round.",
    ]


def test_combat_events_survive_the_event_log_round_trip():
    from engine.events import Event

    for path in CASES:
        _, events, _ = h.outcome(h.load(path))
        for e in events:
            assert Event.from_dict(e.to_dict()) == e, (path.name, e)


def test_without_the_armsmaster_and_gourmet_the_first_car_falls_and_the_win_adds_5():
    """armsmaster-and-gourmet.toml's dice without the experts: the first car's 30 points end
    it (the target rolls of the last three hits become d1s), and the win is the plain +5."""
    case = h.load(h.CASES / "armsmaster-and-gourmet.toml")
    case["attacker"]["experts"] = case["defender"]["experts"] = []
    dice = case["dice"]
    for i in (57, 60, 63):           # the second car's target rolls: one car is left
        assert dice[i] == 2
        dice[i] = 1
    out, _events, _dice = h.outcome(case)
    assert out["convoys"]["2"]["fleet"] == {"car": 1} and out["convoys"]["2"]["troops"] == 3
    assert out["morale"] == {"1": 35, "2": 30}


def test_a_gourmet_adds_his_share_to_the_morale_of_taking_a_city():
    """city-falls.toml with a Gourmet (and a Priest) in the invading convoy: +10 becomes
    +12 (15%, 1.5 rounded up) and +13 (30%) (X251)."""
    case = h.load(h.CASES / "city-falls.toml")
    for experts, morale in (((), 40), (("GOU",), 42), (("GOU", "PRI"), 43)):
        c = {**case, "invader": {**case["invader"], "experts": experts}}
        out, _events, _dice = h.outcome(c)
        assert out["captured"] and out["morale"] == morale
