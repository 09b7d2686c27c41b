"""The sequential turn model (engine/db/sequence.py) on the tiny sequential ruleset:
turn order by the ruleset's key, catch-up turns, the least interval between a faction's
turns, reports for the faction whose turn ran, and the end of each game turn."""

from __future__ import annotations

import json

import pytest
import tinyrules

from app.cli import EXIT_OK, main
from engine.db.errors import GameDbError
from engine.outbox import write_outbox
from engine.service import GameService

T0 = "2026-03-02T12:00:00Z"


def _game(tmp_path, seq: dict[int, int] | None = None, interval: int = 0, due: int = 0) -> GameService:
    scen = tinyrules.tiny_scenario("tiny-seq")
    for f in scen.factions:
        if seq and f.number in seq:
            f.attrs["seq"] = seq[f.number]
    scen.options.set("interval_days", interval)
    scen.options.set("cycle_days", due)
    return GameService.create(tmp_path / "g.db", scen, busy_timeout=0.2)


def _turns(svc):
    """(step, faction, faction's turn, cycle_end) of every step after the start."""
    out = []
    for s in svc.steps()[1:]:
        info = json.loads(s.info)
        out.append((s.number, s.faction, info.get("turn"), info.get("cycle_end")))
    return out


def test_sequence_key_orders_the_turns_of_one_game_turn(tmp_path):
    svc = _game(tmp_path, seq={1: 1200, 2: 1050})
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-01T10:00:00Z")
    res = svc.run(now=T0)
    # faction 2 arrived later but has the lower sequence number
    assert _turns(svc) == [(1, 2, 1, None), (2, 1, 1, 1)]
    assert res.steps == [1, 2] and res.waiting == []
    svc.close()


def test_catch_up_turns_are_two_steps_and_do_not_supersede(tmp_path):
    svc = _game(tmp_path)
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.import_text("#tiny 2 2\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T10:00:00Z")
    # a corrected turn 2 replaces the first turn-2 sheet, not the turn-1 sheet
    last = svc.import_text("#tiny 2 2\nMOVE 2/0 S\n", received_at="2026-03-01T11:00:00Z")
    assert len(last.superseded) == 1
    mine = [s for s in svc.submissions() if s.faction == 2]
    assert [(s.submission.meta["turn"], s.superseded) for s in mine] == [
        (1, False), (2, True), (2, False)]
    svc.run(now=T0)
    # every turn 1 first (arrival order: no keys), then faction 2's catch-up turn 2
    assert _turns(svc) == [(1, 2, 1, None), (2, 1, 1, 1), (3, 2, 2, None)]
    assert [r.event.kind for r in svc.events(3).records] == ["tiny_moved"]
    svc.close()


def test_turns_without_a_turn_number_take_the_next_turns(tmp_path):
    svc = _game(tmp_path)
    svc.import_text("#tiny 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.run(now=T0)
    svc.import_text("#tiny 1\nGROW 1\n", received_at="2026-03-02T08:00:00Z")
    svc.run(now=T0)
    assert _turns(svc) == [(1, 1, 1, None), (2, 1, 2, None)]
    svc.close()


def _two_turns_a_week_apart(tmp_path) -> GameService:
    """Faction 1 sends its turns 1 and 2 at once; turns must be 7 days apart."""
    svc = _game(tmp_path, interval=7)
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.import_text("#tiny 1 2\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    return svc


def test_a_turn_too_soon_waits_and_status_says_until_when(tmp_path):
    svc = _two_turns_a_week_apart(tmp_path)
    res = svc.run(now=T0)
    assert res.steps == [1]
    (sid, faction, turn, why, ready), = res.waiting
    assert (faction, turn, ready) == (1, 2, "2026-03-09T12:00:00Z")
    assert "less than 7 days" in why and "--early" in why
    st = svc.status(now=T0)
    assert [(h[1], h[2], h[4]) for h in st.waiting] == [(1, 2, "2026-03-09T12:00:00Z")]
    assert any("waiting: submission" in line and "2026-03-09" in line for line in st.lines())
    assert svc.run(now="2026-03-05T12:00:00Z").steps == []
    assert svc.run(now="2026-03-09T12:00:00Z").steps == [2]
    assert _turns(svc) == [(1, 1, 1, None), (2, 1, 2, None)]
    svc.close()


def test_the_gm_runs_a_turn_early(tmp_path, capsys):
    svc = _two_turns_a_week_apart(tmp_path)
    svc.run(now="2099-01-01T00:00:00Z")  # so that the CLI's clock is too soon for turn 2
    assert main(["run", str(tmp_path / "g.db"), "-q"]) == EXIT_OK
    assert "waiting: submission 2, faction 1's turn 2" in capsys.readouterr().out
    assert [t[:3] for t in _turns(svc)] == [(1, 1, 1)]
    assert main(["run", str(tmp_path / "g.db"), "-q", "--early"]) == EXIT_OK
    assert [t[:3] for t in _turns(svc)] == [(1, 1, 1), (2, 1, 2)]
    svc.close()


def test_a_turn_whose_earlier_turn_is_missing_waits(tmp_path):
    svc = _game(tmp_path)
    svc.import_text("#tiny 1 2\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    res = svc.run(now=T0)
    assert res.steps == [] and "waits for faction 1's turn 1" in res.waiting[0][3]
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    assert svc.run(now=T0).steps == [1, 2]
    svc.close()


def test_reports_only_for_the_faction_whose_turn_ran(tmp_path):
    svc = _game(tmp_path)
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.run(now=T0)
    assert svc.reported_factions(1) == [2]
    assert "bands" in svc.report(1, 2, "json") and svc.report(1, None, "text")
    with pytest.raises(GameDbError, match="no text report for faction 1 at turn 1"):
        svc.report(1, 1, "text")
    names = sorted(p.name for p in svc.export(tmp_path / "out"))
    assert all("-f01" not in n for n in names) and any("-f02" in n for n in names)
    assert any("-gm." in n for n in names)
    assert [e.faction for e in write_outbox(svc, tmp_path / "outbox", sender="gm@example.org")] == [2]
    svc.close()


def test_the_end_of_a_game_turn_runs_after_every_faction_had_its_turn(tmp_path):
    svc = _game(tmp_path)
    gold0 = {p.faction: p.gold for p in svc.state(0)["purses"]}
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.import_text("#tiny 1 2\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    svc.run(now=T0)
    # faction 1 ran twice; faction 2 has not had its turn 1: no game turn has ended
    assert [t[3] for t in _turns(svc)] == [None, None]
    assert not svc.state().one("clock").note.startswith("year")
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-03T09:00:00Z")
    svc.run(now=T0)
    assert _turns(svc)[-1] == (3, 2, 1, 1)
    assert [r.event.kind for r in svc.events(3).records][-1] == "tiny_year_ended"
    assert svc.state().one("clock").note == "year 1"
    gold = {p.faction: p.gold for p in svc.state()["purses"]}
    assert gold[2] >= gold0[2] + 10 - 1  # GROW 1 spent one gold, the year gave ten
    svc.close()


def test_rollback_and_rerun_gives_the_same_steps(tmp_path):
    svc = _game(tmp_path, seq={1: 1300, 2: 1100})
    svc.import_text("#tiny 1 1\nMOVE 0/0 E\n", received_at="2026-03-01T08:00:00Z")
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-01T09:00:00Z")
    svc.import_text("#tiny 1 2\nGROW 1\n", received_at="2026-03-01T10:00:00Z")
    svc.run(now=T0)
    before = (_turns(svc), svc.state_json())
    svc.rollback(0)
    assert all(not s.superseded for s in svc.submissions())
    svc.run(now=T0)
    assert (_turns(svc), svc.state_json()) == before
    svc.close()


def test_a_game_turn_does_not_wait_for_a_faction_the_ruleset_leaves_out(tmp_path):
    scen = tinyrules.tiny_scenario("tiny-seq")
    scen.factions[1].attrs["dropped"] = True
    svc = GameService.create(tmp_path / "g.db", scen, busy_timeout=0.2)
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.run(now=T0)
    assert _turns(svc) == [(1, 1, 1, 1)]
    svc.close()


def test_a_run_stops_when_the_game_ends(tmp_path):
    svc = _game(tmp_path)  # the tiny game ends at step 9
    for turn in range(1, 12):
        svc.import_text(f"#tiny 1 {turn}\nGROW 0\n", received_at=f"2026-03-01T{turn:02d}:00:00Z")
    res = svc.run(now=T0)
    assert res.steps == list(range(1, 10)) and "ended at turn 9" in res.note
    assert len([s for s in svc.submissions() if s.applied_step is None]) == 2
    svc.close()


def test_a_game_turn_past_its_due_date_ends_before_the_turns_sent_after_it(tmp_path):
    svc = _game(tmp_path, due=14)
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.run(now=T0)  # game turn 1 begins with this first turn: due 14 days later
    assert svc.status(now=T0).game_turn_due == "2026-03-16T12:00:00Z"
    assert svc.run(now="2026-03-10T12:00:00Z").steps == []
    # faction 2's turn 1 came after the due date: the game turn ends first, without it
    svc.import_text("#tiny 2 1\nGROW 1\n", received_at="2026-03-17T08:00:00Z")
    svc.import_text("#tiny 1 2\nGROW 1\n", received_at="2026-03-17T09:00:00Z")
    res = svc.run(now="2026-03-17T12:00:00Z")
    assert _turns(svc) == [(1, 1, 1, None), (2, None, None, 1), (3, 2, 1, None), (4, 1, 2, None)]
    info = json.loads(svc.steps()[2].info)
    assert info["due"] == "2026-03-16T12:00:00Z" and info["behind"] == [2]
    assert [r.event.kind for r in svc.events(2).records][-1] == "tiny_year_ended"
    assert res.steps == [2, 3, 4]
    # game turn 2 began at the due date; a sheet sent before its due date runs in it, even
    # when the run comes after, and ends it as usual
    svc.import_text("#tiny 2 2\nGROW 1\n", received_at="2026-03-29T08:00:00Z")
    assert svc.run(now="2026-04-02T12:00:00Z").steps == [5]
    assert _turns(svc)[-1] == (5, 2, 2, 2)
    # rolled back and run again in one go, later: the sheet that came after the due date
    # still waits for the end of the game turn, the one that came in time still runs in it
    before = svc.state_json(5)
    svc.rollback(1)
    svc.run(now="2026-04-02T12:00:00Z")
    assert [t[:4] for t in _turns(svc)] == [(1, 1, 1, None), (2, None, None, 1), (3, 2, 1, None),
                                           (4, 1, 2, None), (5, 2, 2, 2)]
    assert svc.state_json(5) == before
    svc.close()


def test_without_a_due_date_a_game_turn_waits(tmp_path):
    svc = _game(tmp_path)
    svc.import_text("#tiny 1 1\nGROW 1\n", received_at="2026-03-01T08:00:00Z")
    svc.run(now=T0)
    assert svc.run(now="2027-03-02T12:00:00Z").steps == []
    assert svc.status(now=T0).game_turn_due == ""
    svc.close()
