"""Conquest of Island intake: a batch of posts is judged as it will apply (a post may
need an earlier one of the batch), the GM's posts are not intake errors, `run --strict`
runs the demo thread, a misspelt action is a warning with a suggestion, and each player's
orders template is theirs, with their real AP and no example that is already an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import EXIT_OK, main
from engine import registry
from engine.orders import Severity
from engine.rulesets.coi.actions import read_post
from engine.rulesets.coi.catalog import Rules
from engine.service import GameService
from engine.threads import load_thread

ROOT = Path(__file__).resolve().parents[1]
THREAD = ROOT / "maps" / "coi" / "demo-thread.txt"


@pytest.fixture
def game(tmp_path):
    scen = registry.get("coi").demo()[0]
    db = tmp_path / "coi.db"
    GameService.create(db, scen).close()
    return db


def _posts(*ids: int):
    posts, problems = load_thread(THREAD)
    assert not problems
    return [p for p in posts if int(p.meta["post_id"]) in ids] if ids else posts


def _findings(svc: GameService, post: int) -> list:
    [s] = [s for s in svc.submissions() if s.post_id == str(post)]
    return s.diagnostics


def test_a_post_is_judged_by_the_state_the_earlier_posts_of_its_batch_leave(game):
    # post 103 lands swordsmen on 5,3; post 107 builds a centre there and recruits
    with GameService.open(game) as svc:
        svc.import_submissions(_posts(101, 102, 103, 107))
        assert [d for d in _findings(svc, 107) if d.severity != Severity.INFO] == []
        assert not [d for ds in svc.check().values() for d in ds if d.severity == Severity.ERROR]
    # without post 103 the same post cannot build there: said (a warning: the post will
    # be applied as written and its impossible actions ignored)
    with GameService.create(game.with_name("b.db"), registry.get("coi").demo()[0]) as svc:
        svc.import_submissions(_posts(101, 102, 107))
        found = [d.message for d in _findings(svc, 107) if d.severity == Severity.WARNING]
        assert any("5,3 is not your hex" in m for m in found), found


def test_the_demo_thread_imports_checks_and_runs_strict(game, capsys):
    assert main(["import", str(game), str(THREAD)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "error (intake)" not in out
    # the GM's posts (the start, AP corrections) are no one's errors: the ruleset knows the
    # GM (Match.role), so they are told as the GM's posts, not as unmatched
    assert "demo-thread.txt#101: stored, GM post, 0 error(s)" in out
    assert "demo-thread.txt#127: stored, UNMATCHED" in out  # a stranger stays unmatched
    with GameService.open(game) as svc:
        for post in (101, 102):
            assert [d for d in _findings(svc, post) if d.severity != Severity.INFO] == []
        [gm] = [s for s in svc.submissions() if s.post_id == "101"]
        assert gm.submission.meta["role"] == "GM post"
        assert gm.state_words(1, {1, 2, 3, 4}) == "GM post"
        assert gm.state_words(1, {1, 2, 3, 4}, realtime=True) == "waiting for the run"
        # only the stranger is listed as unmatched; check below exits 0
        assert {s.sender for s in svc.status().unmatched} == {"notquitethere"}
    assert main(["submissions", str(game)]) == EXIT_OK
    listed = capsys.readouterr().out.splitlines()
    assert any("GM post  demo-thread.txt#101 from IslandGM" in x for x in listed), listed
    assert main(["check", str(game)]) == EXIT_OK
    capsys.readouterr()
    assert main(["run", str(game), "--strict", "-q"]) == EXIT_OK
    assert "turn 1 run" in capsys.readouterr().out
    with GameService.open(game) as svc:  # the report lists only what really happened
        report = svc.report(1, None, "text")
        assert "is not your hex" not in report and "ignored: ships move only on water" in report


def test_a_misspelt_action_is_a_warning_with_a_suggestion(game, capsys):
    names = Rules.from_catalogs(registry.get("coi").demo()[0].catalogs).unit_names()
    sheet = read_post("Buidl fort at 2,7\nHi all, good luck!\nMvoe 1 swordsman from 4,5 to 5,5",
                      names)
    got = [(d.line, d.severity, d.message) for d in sheet.diagnostics]
    assert got[0][:2] == (1, Severity.WARNING) and "did you mean 'Build'?" in got[0][2]
    assert got[1][:2] == (2, Severity.INFO)                       # chat stays chat
    assert got[2][:2] == (3, Severity.WARNING) and "'Move'" in got[2][2]
    assert sheet.orders == []
    with GameService.open(game) as svc:
        svc.import_submissions(_posts(101, 102))
        r = svc.import_text("Buidl fort at 5,2\n", source_kind="post", source_name="post 900",
                            sender="scapheap", received_at="2026-11-20T12:30:00Z",
                            meta={"post_id": "900"})
        assert any("did you mean 'Build'?" in d.message and d.severity == Severity.WARNING
                   for d in r.diagnostics), r.diagnostics


def test_each_players_template_is_theirs_with_real_ap_and_no_error(tmp_path):
    assert main(["demo", "--ruleset", "coi", "--dir", str(tmp_path)]) == 0
    with GameService.open(tmp_path / "coi-demo.db") as svc:
        rs, scen = svc.ruleset, svc.scenario
        for step in range(svc.current_step + 1):
            state = svc.state(step)
            report = rs.report(state, svc.events(step), None, scen)
            ap_now = {p["number"]: p["ap_now"] for p in report["players"]}
            texts = set()
            for p in state["players"]:
                text = rs.orders_template(state, p.number, scen)
                texts.add(text)
                assert f"a post for {p.name} (player {p.number})" in text
                assert text.rstrip().endswith(f"AP: {ap_now[p.number]}")
                found = rs.check(rs.parse_orders(text), state, p.number, scen)
                assert [d for d in found if d.severity == Severity.ERROR] == [], (step, p.name)
                # the template's own '#' notes are not flagged as chat in the live checker
                notes = {i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("#")}
                assert notes and not [d for d in [*rs.parse_orders(text).diagnostics, *found]
                                      if d.line in notes], (step, p.name)
                actions = rs.parse_orders(text).orders
                assert actions  # something to start from
            assert len(texts) == len(state["players"])  # one per player, not one for all
