"""Atlantis battles, rule by rule: the cases in tests/cases/atlantis/battles/*.toml drive the
battle engine (combat.fight / combat.duel) directly with scripted dice - the muster that
makes battles out of ATTACK orders is tested with the turn's cases. Each case lists its
combatants, the dice in the order the rules ask for them (every one must be used), and
what must come of it: winner, rounds, free rounds, leaders, men and items lost, spoils,
and lines of each faction's battle report (in order), or lines it must not show."""

from __future__ import annotations

from pathlib import Path

import pytest
from atlantis_battle_harness import CASES, events, load, run

from engine.events import Event
from engine.rulesets.atlantis.combat.report import battle_lines


def _ints(d: dict) -> dict:
    return {int(k): v for k, v in d.items()}


def _subsequence(lines: list[str], wanted: list[str]) -> str | None:
    """None if `wanted` appear in `lines` in this order, else the first one missing."""
    i = 0
    for w in wanted:
        while i < len(lines) and lines[i] != w:
            i += 1
        if i == len(lines):
            return w
        i += 1
    return None


@pytest.mark.parametrize("path", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_battle_case(path: Path) -> None:
    case = load(path)
    assert case["title"] and case["section"]
    r, dice = run(case)
    assert dice.used == len(dice.rolls), f"{len(dice.rolls) - dice.used} scripted dice unused"
    ex = case["expect"]
    assert (r.winner or "draw") == ex["winner"]
    if "rounds" in ex:
        assert r.rounds == ex["rounds"]
    if "free_rounds" in ex:
        assert [f"{f.side}:{f.reason}" for f in r.free_rounds] == ex["free_rounds"]
    if "leaders" in ex:
        assert r.leaders == ex["leaders"]
    assert r.losses == _ints(ex["losses"])
    if "lost_items" in ex:
        assert r.lost_items == _ints(ex["lost_items"])
    if "found" in ex:
        assert r.found == ex["found"]
    if "spoils" in ex:
        assert r.spoils == _ints(ex["spoils"])
    where = case.get("where", "forest (1,1) in Turia")
    for viewer, wanted in ex.get("report", {}).items():
        lines = battle_lines(r, int(viewer), where=where)
        missing = _subsequence(lines, wanted)
        assert missing is None, f"faction {viewer} lacks {missing!r} in order:\n" + "\n".join(lines)
    for viewer, unwanted in ex.get("absent", {}).items():
        text = "\n".join(battle_lines(r, int(viewer), where=where))
        for u in unwanted:
            assert u not in text, f"faction {viewer} is shown {u!r}"


@pytest.mark.parametrize("path", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_battle_events_round_trip(path: Path) -> None:
    """Each faction in the battle gets one `atlantis.battle` event, seen by it alone."""
    out = events(path)
    assert out and len({e.faction for e in out}) == len(out)
    for e in out:
        assert e.visible_to() == frozenset({e.faction})
        assert Event.from_dict(e.to_dict()) == e
