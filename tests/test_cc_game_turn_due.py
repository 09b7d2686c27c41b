"""X230, option close_game_turn = due: a game turn ends when every clan has had its turn or,
at the latest, `days_per_turn` days after it began (the book: "the game is not delayed for
late players"). The run after the due date ends it without the late clan, as a step of its
own; the late clan's turn still runs when it comes (a catch-up turn), and a clan that falls
more than a turn behind is dropped at the end of a game turn (`drop_when_behind`)."""

from __future__ import annotations

import json
from pathlib import Path

from app.cli import EXIT_OK, main
from engine.service import GameService

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "cc" / "north-america-8.toml"
CLANS = (100, 111, 122, 133, 144, 155, 166, 177)
LATE = 177


def _sheets(tmp_path) -> dict[int, str]:
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--scenario", str(SCENARIO), "--seed", "3"]) == EXIT_OK
    assert main(["export", str(db), "--out", str(tmp_path / "t0")]) == EXIT_OK
    with GameService.open(db) as svc:
        svc.set_option("close_game_turn", "due")
        svc.set_option("days_per_turn", 14)
    return {f: (tmp_path / "t0" / f"north-america-t000-f{f}-orders.txt").read_text(encoding="utf-8")
            for f in CLANS}


def _send(svc, sheets, clans, turn, at):
    for f in clans:
        svc.import_text(sheets[f].replace("TURN 1", f"TURN {turn}"), "file", f"c{f}-{turn}.txt",
                        received_at=at, faction=f)


def _info(svc, step):
    s = svc.steps()[step]
    return s.faction, json.loads(s.info)


def test_a_game_turn_past_its_due_date_ends_without_the_late_clan(tmp_path):
    sheets = _sheets(tmp_path)
    others = [f for f in CLANS if f != LATE]
    with GameService.open(tmp_path / "g.db") as svc:
        _send(svc, sheets, others, 1, "2026-03-02T10:00:00Z")
        assert svc.run(now="2026-03-02T12:00:00Z").steps == list(range(1, 8))
        # game turn 1 began with the first clan turn; it is due two weeks later
        assert svc.status(now="2026-03-03T00:00:00Z").game_turn_due == "2026-03-16T12:00:00Z"
        assert svc.run(now="2026-03-10T12:00:00Z").steps == []  # not due yet: nothing
        # a sheet sent before the due date runs in its game turn, even when the run is after
        _send(svc, sheets, [LATE], 1, "2026-03-15T09:00:00Z")
        assert svc.run(now="2026-03-17T12:00:00Z").steps == [8]
        assert _info(svc, 8)[0] == LATE and _info(svc, 8)[1]["cycle_end"] == 1
        # game turn 2 began at the step that ended game turn 1; the late clan sends nothing
        _send(svc, sheets, others, 2, "2026-03-20T09:00:00Z")
        assert svc.run(now="2026-03-24T12:00:00Z").steps == list(range(9, 16))
        res = svc.run(now="2026-04-01T12:00:00Z")
        assert res.steps == [16] and "ended at its due date" in res.note
        faction, info = _info(svc, 16)
        assert faction is None and info["cycle_end"] == 2 and info["behind"] == [LATE]
        assert info["due"] == "2026-03-31T12:00:00Z"
        assert svc.state(16)["world"][0].game_turn == 3
        kinds = {r.event.kind for r in svc.events(16).records}
        assert {"cc.game_turn_ended", "cc.popularity"} <= kinds
        # the late clan catches up: its turn 2 runs when it comes, before the others' turn 3
        _send(svc, sheets, [LATE], 2, "2026-04-02T09:00:00Z")
        _send(svc, sheets, others, 3, "2026-04-02T10:00:00Z")
        steps = svc.run(now="2026-04-03T12:00:00Z").steps
        assert [(_info(svc, s)[0], _info(svc, s)[1]["turn"]) for s in steps][0] == (LATE, 2)
        assert not any("cycle_end" in _info(svc, s)[1] for s in steps)  # game turn 3 waits for it
        # then silent for two game turns: one run after both due dates ends both, and the
        # clan, more than a turn behind, is dropped at the second
        res = svc.run(now="2026-04-29T12:00:00Z")
        assert len(res.steps) == 2
        ends = [_info(svc, s)[1] for s in res.steps]
        assert [(i["cycle_end"], i["due"]) for i in ends] == [(3, "2026-04-14T12:00:00Z"),
                                                             (4, "2026-04-28T12:00:00Z")]
        assert ends[0]["behind"] == [LATE] and ends[1]["behind"] == sorted(CLANS)
        clans = {c.number: c for c in svc.state(res.steps[-1])["clans"]}
        assert clans[LATE].dropped and not any(clans[f].dropped for f in others)
        dropped = [r.event for r in svc.events(res.steps[-1]).records if r.event.kind == "cc.game_turn_ended"]
        assert [e.dropped for e in dropped] == [(LATE,)]
        # the dropped clan's orders are not run: they wait, and status says why
        _send(svc, sheets, [LATE], 3, "2026-04-30T09:00:00Z")
        res = svc.run(now="2026-05-01T12:00:00Z")
        assert res.steps == [] and [(f, why) for _sid, f, _t, why, _r in res.waiting] == [
            (LATE, f"faction {LATE} is out of the game (dropped); its orders are not run")]


def test_without_the_option_a_game_turn_waits_for_every_clan(tmp_path):
    sheets = _sheets(tmp_path)
    with GameService.open(tmp_path / "g.db") as svc:
        svc.set_option("close_game_turn", "auto")
        _send(svc, sheets, CLANS[:-1], 1, "2026-03-02T10:00:00Z")
        svc.run(now="2026-03-02T12:00:00Z")
        assert svc.status(now="2026-03-03T00:00:00Z").game_turn_due == ""
        assert svc.run(now="2027-03-02T12:00:00Z").steps == []
        assert svc.state(svc.current_step)["world"][0].game_turn == 1
