"""Events told as the text report tells them (engine.chronicle), for every ruleset's demo:
the lists on screen say what the report says, battles as the report's narratives, and
the filters by faction, kind and place keep what they should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.chronicle import Chronicle, chronicle_of
from engine.events import EventLog
from engine.service import GameService


@pytest.fixture(scope="module")
def demos(demo_games) -> dict[str, Path]:
    """name -> this module's copy of the demo game (played once a session, tests/conftest.py)."""
    return {name: demo_games.db(name) for name in ("kok", "artnes", "coi")}


def _each_turn(db: Path):
    with GameService.open(db) as svc:
        for step in range(1, svc.current_step + 1):
            log = svc.events(step)
            yield svc, step, log, chronicle_of(svc.ruleset, log, svc.state(step), svc.scenario)


def test_kok_lines_are_the_reports_sentences(demos):
    battles = 0
    for svc, step, log, ch in _each_turn(demos["kok"]):
        report = svc.report(step, None, "text")
        assert [t.seq for t in ch.told] == [r.seq for r in log.records]  # every event, once
        events = report.split("\nEVENTS\n")[1].split("\n\n")[0].splitlines()
        told = {t.text for t in ch.told}
        for line in events:  # "  [1] Achaeans places 1 Horseman at Argos (3 2)"
            assert line.split("] ", 1)[1] in told
        for b in ch.battles:
            battles += 1
            assert f"  {b.title}\n" + "".join(f"    {ln}\n" for ln in b.lines) in report
            assert b.cell is not None and b.place in b.title and len(b.sides) == 2
            assert any(ln.startswith("Round 1:") for ln in b.lines) or b.kind == "sea"
        # battle events point at their story, and nothing the report tells is a "detail"
        assert all(ch.battles[t.battle].title in t.text for t in ch.told if t.battle is not None)
        assert not any(t.detail and t.text in report for t in ch.told)
    assert battles >= 2


def test_kok_filters(demos):
    svc, step, log, ch = next(_each_turn(demos["kok"]))
    placed = ch.filter(kind="placed")
    assert placed and all(" places " in t.text for t in placed)
    persians = ch.filter(faction=2, details=False)
    assert persians and all(2 in t.factions for t in persians)
    assert {t.text.split()[0] for t in persians if t.battle is None} <= {"Persians", "Player"}
    argos = ch.filter(place="argos")
    assert argos and all("Argos" in t.place or "Argos" in t.text for t in argos)
    placed_at_argos = [t for t in argos if t.kind == "kok.placed"]
    assert placed_at_argos and placed_at_argos[0].place == "Argos (3 2)"
    assert placed_at_argos[0].cells[0] == svc.scenario.map.grid.cell(3, 2)  # where a click goes
    assert len(ch.filter(details=False)) < len(ch.filter())  # move steps are details


def test_artnes_news_and_battles_are_the_map_updates(demos):
    battles = 0
    for svc, step, _log, ch in _each_turn(demos["artnes"]):
        report = svc.report(step, 1, "text")
        gm = svc.report(step, None, "json")
        told = {t.text for t in ch.told}
        for line in json.loads(gm)["news"]:
            assert line in told
        for b in ch.battles:
            battles += 1
            assert b.cell is not None and b.sides and b.lines
            if b.kind == "land":  # the map update's battle line, in four sentences
                assert b.lines[-1].rstrip(".") in report or b.lines[-1].rstrip(".") in gm
        realms = ch.filter(place="Castile")
        assert all("Castile" in t.place or "Castile" in t.text for t in realms)
    assert battles >= 3


def test_coi_actions_and_battles_are_the_action_log(demos):
    seen_battle = False
    for svc, step, _log, ch in _each_turn(demos["coi"]):
        report = svc.report(step, None, "text")
        for t in ch.told:
            if t.kind in ("coi_action_done", "coi_action_ignored"):
                assert f"  {t.text}" in report
        for b in ch.battles:
            seen_battle = True
            assert b.title.startswith("Battle at ") and b.place in b.title
            assert any("wins" in ln for ln in b.lines)
            assert any("lost" in ln for ln in b.lines)   # the losses are part of the story
    assert seen_battle


def test_a_broken_chronicle_falls_back_to_describe(demos):
    with GameService.open(demos["kok"]) as svc:
        class Broken:
            def chronicle(self, *a):
                raise RuntimeError("boom")

        log = svc.events(1)
        ch = chronicle_of(Broken(), log, svc.state(1), svc.scenario)
        assert isinstance(ch, Chronicle) and len(ch.told) == len(log.records)
        assert ch.told[0].text.startswith(log.records[0].event.kind + ":")
        assert chronicle_of(Broken(), EventLog(), svc.state(1), svc.scenario).told == []


def test_the_viewer_on_a_gm_game_lists_what_the_faction_may_see(demos):
    from engine.viewer_model import from_service

    with GameService.open(demos["artnes"]) as svc:
        tv = from_service(svc, 1, 3)
        # the news of every nation, as England's own report tells it, not only England's
        assert len(tv.events) == len(svc.events(3).for_faction(1)) > len(svc.events(3, 1))
