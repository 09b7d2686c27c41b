"""Game service: intake bookkeeping, check, status, running turns, rollback, determinism."""

from __future__ import annotations

import threading

import pytest
import tinyrules

from engine.db.results import DUPLICATE, EDITED
from engine.ruleset import Submission
from engine.service import GameService, RunCancelled, RunFailed

_dump = tinyrules.dump_db


def _make(tmp_path, ruleset="tiny", **options):
    scen = tinyrules.tiny_scenario(ruleset)
    for k, v in options.items():
        scen.options.set(k, v)
    return GameService.create(tmp_path / "g.db", scen, busy_timeout=0.2)


@pytest.fixture
def game(tmp_path):
    svc = _make(tmp_path)
    yield svc
    svc.close()


def test_import_matches_checks_and_names_file_and_line(game):
    r = game.import_text("#tiny 1 1\nGROW 9\nMOVE 0/0 E\nDANCE\n", source_kind="file", source_name="reds.txt")
    assert (r.submission.faction, r.submission.step, r.status) == (1, 1, "stored")
    found = {(d.file, d.line, d.kind, d.severity.value) for d in r.diagnostics}
    assert found == {("reds.txt", 2, "illegal", "error"), ("reds.txt", 4, "invalid", "error")}
    assert all(d.faction == 1 for d in r.diagnostics)
    # check() recomputes the same findings on what the next run would use
    assert {(d.line, d.kind) for d in game.check()[1]} == {(2, "illegal"), (4, "invalid")}
    assert game.check()[2] == []


def test_unmatched_submission_is_stored_and_reported(game):
    r = game.import_text("GROW 1\n", source_name="mystery.txt", sender="who@nowhere.org")
    assert not r.matched and r.submission_id is not None
    assert any(d.kind == "intake" and "not matched" in d.message for d in r.diagnostics)
    st = game.status()
    assert [s.source_name for s in st.unmatched] == ["mystery.txt"]
    assert [f.faction for f in st.missing] == [1, 2]
    assert any(f"unmatched: submission {r.submission_id}, mystery.txt" in line for line in st.lines())
    # the GM assigns it; it then counts as faction 2's orders
    game.reassign(r.submission_id, 2)
    st = game.status()
    assert st.unmatched == [] and [f.faction for f in st.missing] == [1]


def test_sender_address_matches(game):
    r = game.import_text("GROW 1\n", source_kind="email", source_name="<m1@x>",
                         sender="Blue Player <blue@example.org>")
    assert r.submission.faction == 2 and r.submission.step == 1


def test_later_submission_supersedes_both_kept(game):
    first = game.import_text("#tiny 1 1\nGROW 1\n", source_name="a.txt", received_at="2026-01-01T10:00:00Z")
    second = game.import_text("#tiny 1 1\nGROW 2\n", source_name="b.txt", received_at="2026-01-01T11:00:00Z")
    assert second.superseded == [first.submission_id]
    # an older e-mail arriving late does not replace the newer orders
    late = game.import_text("#tiny 1 1\nGROW 3\n", source_name="c.txt", received_at="2026-01-01T09:00:00Z")
    assert "later" in late.note
    subs = {s.submission.source_name: s for s in game.submissions()}
    assert [subs[n].superseded for n in ("a.txt", "b.txt", "c.txt")] == [True, False, True]
    st = game.status()
    reds = st.factions[0]
    assert (reds.source, reds.replaced) == ("b.txt", 2)
    res = game.run()
    assert res.nmr == {1: [2]}
    spent = 3 - game.state()["purses"][0].gold + 1  # income 1 for one band
    assert spent == 2  # GROW 2 from b.txt was used


def test_wrong_turn_is_kept_not_used(game):
    r = game.import_text("#tiny 1 5\nGROW 1\n", source_name="early.txt")
    assert r.submission.step == 5
    assert any("turn 5" in d.message and d.severity.value == "warning" for d in r.diagnostics)
    assert [s.source_name for s in game.status().other_steps] == ["early.txt"]
    game.run()
    assert game.events(1, kind="tiny_grew").records[0].event.faction == 1  # NMR GROW 1 for faction 1
    assert game.state()["purses"][0].gold == 3  # 3 - 1 (NMR) + 1 income


def test_import_paths_folder(game, tmp_path):
    d = tmp_path / "orders"
    d.mkdir()
    (d / "one.txt").write_bytes(b"#tiny 1 1\r\nGROW 1\r\n")
    (d / "two.txt").write_bytes("#tiny 2 1\nGROW 1 # caf\xe9\n".encode("latin-1"))
    rep = game.import_paths([d, tmp_path / "missing.txt"])
    assert sorted(r.submission.faction for r in rep.results) == [1, 2]
    assert any("missing.txt" in p.file for p in rep.problems)
    assert game.problems()  # stored for the GM
    assert any("problem:" in line and "missing.txt" in line for line in game.status().lines())


def test_run_writes_state_events_and_reports_for_everyone(game):
    game.import_text("#tiny 1 1\nGROW 1\nMOVE 0/0 E\n")
    seen = []
    res = game.run(progress=lambda f, m: seen.append((f, m)))
    assert res.steps == [1] and res.nmr == {1: [2]}
    assert [f for f, _ in seen] == sorted(f for f, _ in seen) and seen[-1][0] == 1.0
    assert any("fight" in m for _, m in seen)
    kinds = [r.event.kind for r in game.events(1).records]
    assert kinds == ["tiny_grew", "tiny_grew", "tiny_moved"]
    assert [r.event.faction for r in game.events(1, faction=2).records] == [2]
    for faction in (1, 2, None):
        for fmt in ("text", "html", "json"):
            assert game.report(1, faction, fmt)
    assert "faction 1" in game.report(1, 1) and "band of 2" not in game.report(1, 1)
    assert [s.applied_step for s in game.submissions()] == [1]
    assert [s.number for s in game.steps()] == [0, 1]


def test_export_names(game, tmp_path):
    game.run()
    files = game.export(tmp_path / "out")
    assert sorted(p.name for p in files) == sorted(
        f"tiny-demo-t001-{who}.{ext}" for who in ("f01", "f02", "gm") for ext in ("txt", "html", "json"))
    assert (tmp_path / "out" / "tiny-demo-t001-gm.txt").read_text().startswith("Turn 1 report for the GM")
    # each file holds the stored report (export streams them as UTF-8 bytes from SQLite)
    for p in files:
        who, fmt = p.stem.split("-")[-1], {"txt": "text"}.get(p.suffix[1:], p.suffix[1:])
        assert p.read_text(encoding="utf-8") == game.report(1, None if who == "gm" else int(who[1:]), fmt)


def _run_three(game):
    out = []
    for step, orders in sorted(tinyrules.Tiny().demo()[1].items()):
        for faction, text in orders.items():
            game.import_text(text, source_name=f"f{faction}-t{step}.txt")
        game.run()
        reports = {(f, fmt): game.report(step, f, fmt) for f in (1, 2, None) for fmt in ("text", "html", "json")}
        out.append((game.state_json(), [r.to_dict() for r in game.events(step).records], reports))
    return out


def test_determinism_run_rollback_rerun(game):
    first = _run_three(game)
    game.rollback(0)
    assert game.current_step == 0 and [s.number for s in game.steps()] == [0]
    assert all(s.applied_step is None for s in game.submissions())
    again = []
    for step in (1, 2, 3):
        game.run()
        reports = {(f, fmt): game.report(step, f, fmt) for f in (1, 2, None) for fmt in ("text", "html", "json")}
        again.append((game.state_json(), [r.to_dict() for r in game.events(step).records], reports))
    assert again == first


def test_rollback_then_corrected_orders(game):
    game.import_text("#tiny 1 1\nGROW 1\n")
    game.run()
    game.import_text("#tiny 1 1\nGROW 2\n", source_name="late.txt")  # too late for turn 1
    game.rollback(0)
    subs = game.submissions()
    assert [(s.superseded, s.applied_step) for s in subs] == [(True, None), (False, None)]
    game.run()
    assert game.state()["purses"][0].gold == 3 - 2 + 1


def test_rollback_limits(game):
    from engine.db import GameDbError

    with pytest.raises(GameDbError, match="turns 0 to 0"):
        game.rollback(3)
    with pytest.raises(GameDbError, match="no turn 2"):
        game.state(2)


@pytest.mark.parametrize("option", ["explode_at", "bad_report_at"])
def test_failure_midway_leaves_database_as_it_was(tmp_path, option):
    svc = _make(tmp_path, **{option: 2})
    svc.import_text("#tiny 1 1\nGROW 1\n")
    svc.run()
    svc.import_text("#tiny 2 2\nGROW 1\n")
    before = _dump(tmp_path / "g.db")
    with pytest.raises(RunFailed, match="turn 2 failed in phase fight|report for the GM failed"):
        svc.run()
    assert _dump(tmp_path / "g.db") == before
    assert svc.current_step == 1
    svc.close()


def test_cancel_leaves_database_as_it_was(game, tmp_path):
    before = _dump(tmp_path / "g.db")
    stop = threading.Event()

    def progress(frac, msg):
        if "move" in msg:
            stop.set()

    with pytest.raises(RunCancelled):
        game.run(progress=progress, cancel=stop)
    assert _dump(tmp_path / "g.db") == before


def test_sequential_one_step_per_submission(tmp_path):
    svc = _make(tmp_path, "tiny-seq")
    # imported out of order (an mbox sorted by sender): the mail dates decide
    svc.import_text("#tiny 1\nMOVE 0/0 E\n", received_at="2026-01-01T11:00:00Z")
    svc.import_text("#tiny 2\nGROW 1\n", received_at="2026-01-01T10:00:00Z")
    res = svc.run()
    assert res.steps == [1, 2] and res.nmr == {1: [], 2: []}
    assert [(s.number, s.faction) for s in svc.steps()] == [(0, None), (1, 2), (2, 1)]
    assert [r.event.kind for r in svc.events(1).records] == ["tiny_grew"]
    # both factions have had a turn: the game turn's end (tests/test_sequential.py)
    assert [r.event.kind for r in svc.events(2).records] == ["tiny_moved", "tiny_year_ended"]
    assert svc.run().steps == []  # nothing waiting
    svc.close()


def _post(pid, text, at, author="Reds"):
    return Submission(text, "post", f"thread#{pid}", author, received_at=at,
                      meta={"post_id": pid})


def test_realtime_posts_in_time_order_reimport_and_edits(tmp_path):
    svc = _make(tmp_path, "tiny-rt")
    posts = [_post("p2", "#tiny 1\nMOVE 1/0 S\n", "2026-01-01T10:05:00Z"),
             _post("p1", "#tiny 1\nMOVE 0/0 E\n", "2026-01-01T10:00:00Z")]
    rep = svc.import_submissions(posts)
    assert [r.status for r in rep.results] == ["stored", "stored"]
    assert svc.status().pending_posts == 2
    res = svc.run()
    assert res.steps == [1]
    moves = [(r.event.frm, r.event.to) for r in svc.events(1).records if r.event.kind == "tiny_moved"]
    assert moves == [(0, 1), (1, 5)]  # p1 first: time order, not import order
    again = svc.import_submissions([_post("p1", "#tiny 1\nMOVE 0/0 E\n", "2026-01-01T10:00:00Z"),
                                    _post("p2", "#tiny 1\nMOVE 1/0 E\n", "2026-01-01T10:05:00Z"),
                                    _post("p3", "#tiny 1\nGROW 1\n", "2026-01-01T12:00:00Z")])
    assert [r.status for r in again.results] == [DUPLICATE, EDITED, "stored"]
    assert any("edited after it was applied" in d.message for d in again.results[1].diagnostics)
    assert [s.source_name for s in svc.status().edited] == ["thread#p2"]
    res = svc.run()
    assert [r.event.kind for r in svc.events(2).records] == ["tiny_grew"]  # only p3
    svc.close()


def test_summary_for_charts(game):
    game.run()
    game.run()
    summ = game.summary()
    assert sorted(summ) == [0, 1, 2]
    assert summ[0][1] == {"bands": 1, "strength": 2, "gold": 3}


def test_no_run_after_the_end(game):
    for _ in range(9):
        assert game.run().steps
    res = game.run()
    assert res.steps == [] and "ended at turn 9" in res.note
    assert game.status().finished and "THE GAME HAS ENDED" in game.status().lines()[0]


def test_reading_while_a_run_holds_the_game(game):
    """The GM console reads status and history while a run works in the background."""
    game.import_text("#tiny 1 1\nGROW 1\n")
    inside, release = threading.Event(), threading.Event()

    def slow(frac, msg):
        if "fight" in msg:
            inside.set()
            release.wait(10)

    errors = []
    t = threading.Thread(target=lambda: errors.append(game.run(progress=slow)))
    t.start()
    try:
        assert inside.wait(10)
        assert game.status().current_step == 0
        assert game.state(0).step == 0
        from engine.db import GameLocked

        with pytest.raises(GameLocked):  # a second writer is refused, not interleaved
            game.import_text("#tiny 2 1\nGROW 1\n")
    finally:
        release.set()
        t.join(10)
    assert errors[0].steps == [1] and game.current_step == 1


def test_realtime_imports_a_thread_export(tmp_path):
    pytest.importorskip("engine.threads")
    svc = _make(tmp_path, "tiny-rt")
    thread = tmp_path / "thread.txt"
    thread.write_text("--- post 1 | Reds | 2026-01-01T10:00:00Z\n#tiny 1\nMOVE 0/0 E\n\n"
                      "--- post 2 | Blues | 2026-01-01T10:01:00Z\n#tiny 2\nGROW 1\n", encoding="utf-8")
    rep = svc.import_paths([thread])
    assert [(r.submission.faction, r.status) for r in rep.results] == [(1, "stored"), (2, "stored")]
    assert [r.status for r in svc.import_paths([thread]).results] == [DUPLICATE, DUPLICATE]
    assert svc.run().steps == [1]
    assert [r.event.kind for r in svc.events(1).records] == ["tiny_grew", "tiny_moved"]
    svc.close()


def test_bad_input_files_are_reported_never_crash(game, tmp_path):
    d = tmp_path / "inbox"
    d.mkdir()
    (d / "empty.txt").write_bytes(b"")
    (d / "binary.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4)
    (d / "huge.txt").write_text("#tiny 1 1\n" + "GROW 1\n" * 10_000)
    (d / "mac.txt").write_bytes("#tiny 2 1\rGROW 1 # \x8e\r".encode("latin-1"))
    rep = game.import_paths([d])
    names = {r.submission.source_name.rsplit("/", 1)[-1] for r in rep.results}
    flagged = {p.file.rsplit("/", 1)[-1] for p in rep.problems}
    assert {"empty.txt", "binary.png"} <= flagged | names
    assert "huge.txt" in names | flagged and "mac.txt" in names
    st = game.status()
    assert st.factions[1].submitted  # the Mac file's orders were read
    game.run()  # and the turn runs with whatever arrived
    assert game.current_step == 1


def test_pasted_correction_without_date_replaces_mailed_orders(game):
    mailed = game.import_text("#tiny 1 1\nGROW 1\n", "email", "<m@x>", sender="red@example.org",
                              received_at="2020-01-01T10:00:00Z")
    pasted = game.import_text("#tiny 1 1\nGROW 2\n")  # pasted by the GM now, no date
    assert pasted.superseded == [mailed.submission_id]
