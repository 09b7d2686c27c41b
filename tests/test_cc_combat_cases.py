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
