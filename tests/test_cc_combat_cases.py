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
    assert kinds >= {"convoy_battle", "hex_battles", "city", "hex", "repair"}
