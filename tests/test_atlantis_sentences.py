"""Atlantis events told as sentences in the server's manner (sentences.py): every event
kind has one, the reports and the chronicle print the same lines, and refused orders are
errors (`Unit (n): VERB: reason.`), not events."""

from __future__ import annotations

import inspect

import pytest
from atlantis_report_world import scenario

from app.cli import main
from engine import registry
from engine.chronicle import chronicle_of
from engine.events import Event, EventLog
from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis.sentences import Names, sentence, told_kinds
from engine.service import GameService

RS = registry.get("atlantis")
NAMES = Names({1: "Merlin", 5: "Merlin's Guards", 6: "Merlin's Workers"},
              lambda n: {2: "The Silent"}.get(n, f"Faction {n}"),
              lambda cell: {622: "plain (22,40) in Iskar"}.get(cell, f"cell {cell}"),
              {"man": "men", "grain": "grain", "sword": "swords"})


def test_every_atlantis_event_kind_has_a_sentence():
    kinds = {c.kind for _, c in inspect.getmembers(ev, inspect.isclass)
             if issubclass(c, Event) and c.kind.startswith("atlantis.")}
    assert len(kinds) >= 20
    assert kinds - told_kinds() == set()


@pytest.mark.parametrize("event, line", [
    (ev.Studied(1, 5, "combat", 30, 50, 1), "Merlin's Guards (5): Studies combat."),
    (ev.Earned(1, 6, 622, "WORK", 225),
     "Merlin's Workers (6): Earns 225 silver working in plain (22,40) in Iskar."),
    (ev.Earned(1, 6, 622, "ENTERTAIN", 40),
     "Merlin's Workers (6): Earns 40 silver entertaining in plain (22,40) in Iskar."),
    (ev.Given(1, 1, 5, 1, "silver", 1000, 1000),
     "Merlin (1): Gives 1000 silver to Merlin's Guards (5)."),
    (ev.Given(1, 1, 0, 0, "sword", 1, 1), "Merlin (1): Discards 1 sword."),
    (ev.Given(1, 1, 0, 0, "man", 2, 2), "Merlin (1): Disbands 2 men."),
    (ev.Claimed(1, 1, 2500, 2500), "Merlin (1): Claims 2500 silver."),
    (ev.Bought(1, 5, 622, "man", 5, 5, 60), "Merlin's Guards (5): Buys 5 men at $60 each."),
    (ev.Taxed(1, 5, 622, 200),
     "Merlin's Guards (5): Collects $200 in taxes in plain (22,40) in Iskar."),
    (ev.Produced(1, 6, 622, "grain", 10),
     "Merlin's Workers (6): Produces 10 grain in plain (22,40) in Iskar."),
    (ev.Taught(1, 1, 5, "combat"), "Merlin (1): Teaches combat to Merlin's Guards (5)."),
    (ev.Built(1, 6, 3, "tower", 5, False), "Merlin's Workers (6): Performs construction on tower [3]."),
    (ev.Built(1, 6, 3, "tower", 5, True), "Merlin's Workers (6): Completes construction of tower [3]."),
    (ev.FactionChanged(1, 1, "PASSWORD", "secret"), "Merlin (1): Password changed."),
    (ev.Starved(1, 6, 622, 3, 1),
     "Merlin's Workers (6): 3 men go hungry; 1 man starves to death."),
    (ev.FactionGone(2, "no units left"), "The Silent (2) leaves the game (no units left)."),
    (ev.OrderFailed(1, 5, "ENTER", 4, "there is no structure [9] here"),
     "Merlin's Guards (5): ENTER: there is no structure [9] here."),
])
def test_exact_sentences(event, line):
    assert sentence(event, NAMES) == line


def test_the_password_is_never_told():
    assert "secret" not in sentence(ev.FactionChanged(1, 1, "PASSWORD", "secret"), NAMES)


def test_refusals_are_errors_not_events(tmp_path):
    scen = scenario(tmp_path)
    s = RS.initial_state(scen)
    log = EventLog()
    log.emit(ev.OrderFailed(14, 15, "enter", 3, "there is no structure [9] here."))
    log.emit(ev.OrderNotBuilt(14, 15, "MOVE", 4, "move", "movement is not built yet"))
    log.emit(ev.Claimed(14, 15, 100, 100))
    text = RS.render(RS.report(s, log, 14, scen))
    errors = text.split("Errors during turn:\n")[1].split("\n\n")[0].splitlines()
    assert errors == ["Hans Shadowspawn (15): ENTER: there is no structure [9] here.",
                      "Hans Shadowspawn (15): MOVE: movement is not built yet."]
    events = text.split("Events during turn:\n")[1].split("\n\n")[0].splitlines()
    assert events == ["Hans Shadowspawn (15): Claims 100 silver."]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    d = tmp_path_factory.mktemp("atl")
    assert main(["demo", "--ruleset", "atlantis", "--dir", str(d), "--turns", "2"]) == 0
    return d


def test_no_demo_report_prints_a_raw_event(demo):
    reports = [p for p in (demo / "reports").rglob("*") if p.suffix in (".txt", ".html")]
    assert len(reports) >= 10
    for p in reports:
        assert "atlantis." not in p.read_text(encoding="utf-8"), p.name


def test_the_chronicle_tells_what_the_gm_report_tells(demo):
    db = next(demo.glob("*.db"))
    with GameService.open(db) as svc:
        assert svc.current_step >= 1
        for step in range(1, svc.current_step + 1):
            log = svc.events(step)
            ch = chronicle_of(svc.ruleset, log, svc.state(step), svc.scenario)
            assert [t.seq for t in ch.told] == [r.seq for r in log.records]
            told = {" ".join(t.text.split()) for t in ch.told}
            assert not any("atlantis." in t for t in told)
            report = svc.report(step, None, "text")
            body = report.split("Events during turn:\n")[1].split("\n\n")[0]
            # the report wraps at its width; its lines joined back are the told sentences
            lines = [ln for ln in body.replace("\n  ", " ").splitlines() if ln]
            assert lines and all(ln in told for ln in lines)
            gave = [t for t in ch.told if t.kind == "atlantis.earned"]
            assert all(t.place and t.cells for t in gave)
