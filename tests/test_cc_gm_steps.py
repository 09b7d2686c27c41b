"""The GM's steps in a sequential game (engine/db/gm_steps.py, `realmsmith close/drop/
standby`): ending a game turn where option close_game_turn = gm, dropping a clan, a standby
player taking a position over; each a step of the history that status shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import EXIT_OK, main
from engine.service import GameService, GmStepRefused

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "cc" / "north-america-8.toml"
CLANS = (100, 111, 122, 133, 144, 155, 166, 177)


def _game(tmp_path, gm_closes: bool):
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--scenario", str(SCENARIO), "--seed", "3"]) == EXIT_OK
    if gm_closes:
        with GameService.open(db) as svc:
            svc.set_option("close_game_turn", "gm")
    assert main(["export", str(db), "--out", str(tmp_path / "t0")]) == EXIT_OK
    return db


def _send(tmp_path, db, clans, turn=1):
    for f in clans:
        text = (tmp_path / "t0" / f"north-america-t000-f{f}-orders.txt").read_text(encoding="utf-8")
        text = text.replace("TURN 1", f"TURN {turn}")
        (tmp_path / f"c{f}-{turn}.txt").write_text(text, encoding="utf-8")
        assert main(["import", str(db), str(tmp_path / f"c{f}-{turn}.txt")]) == EXIT_OK


def test_the_gm_cannot_close_a_game_turn_that_ends_by_itself(tmp_path, capsys):
    db = _game(tmp_path, gm_closes=False)
    assert main(["close", str(db)]) != EXIT_OK
    assert "close_game_turn = gm" in capsys.readouterr().err
    with GameService.open(db) as svc, pytest.raises(GmStepRefused):
        svc.close_game_turn()


def test_with_the_gm_option_the_game_turn_waits_for_the_gm(tmp_path, capsys):
    db = _game(tmp_path, gm_closes=True)
    _send(tmp_path, db, CLANS[:-1])   # every clan but 177
    assert main(["run", str(db), "--early", "--now", "2026-03-02T12:00:00Z"]) == EXIT_OK
    with GameService.open(db) as svc:
        assert [json.loads(s.info).get("cycle_end") for s in svc.steps()[1:]] == [None] * 7
        assert svc.state(7)["world"][0].game_turn == 1
    capsys.readouterr()
    assert main(["close", str(db), "--now", "2026-03-03T12:00:00Z"]) == EXIT_OK
    assert "turn 8: closed the game turn" in capsys.readouterr().out
    with GameService.open(db) as svc:
        step = svc.steps()[8]
        info = json.loads(step.info)
        assert step.faction is None and info["cycle_end"] == 1 and info["behind"] == [177]
        world = svc.state(8)["world"][0]
        assert world.game_turn == 2
        kinds = [r.event.kind for r in svc.events(8).records]
        st = svc.status(now="2026-03-04T00:00:00Z")
    assert "cc.game_turn_ended" in kinds and "cc.popularity" in kinds
    assert st.game_turns == 1 and st.gm_steps == [(8, "2026-03-03T12:00:00Z", "closed the game turn")]
    lines = "\n".join(st.lines())
    assert "GM, turn 8 (2026-03-03T12:00:00Z): closed the game turn" in lines
    assert "[turns 1; next may run from 2026-03-09T12:00:00Z]" in lines and "177 Free Traders" in lines
    # 177's late turn 1 still runs when it comes, after the game turn it belonged to
    _send(tmp_path, db, [177])
    assert main(["run", str(db), "--now", "2026-03-05T12:00:00Z"]) == EXIT_OK
    with GameService.open(db) as svc:
        assert svc.steps()[9].faction == 177 and json.loads(svc.steps()[9].info)["turn"] == 1


def test_a_dropped_clan_takes_no_turn_and_a_standby_player_takes_over(tmp_path, capsys):
    db = _game(tmp_path, gm_closes=False)
    assert main(["drop", str(db), "166", "--reason", "silent for a month"]) == EXIT_OK
    with GameService.open(db) as svc:
        clan = next(c for c in svc.state(1)["clans"] if c.number == 166)
        st = svc.status()
        report = svc.report(1, None)
    assert clan.dropped
    assert next(f for f in st.factions if f.faction == 166).dropped
    line = next(x for x in st.lines() if "Rust Kings" in x)
    assert "GM, turn 1" in "\n".join(st.lines()) and line.rstrip().endswith("DROPPED")
    assert "The GM dropped clan 166: silent for a month" in report
    # the game turn now waits for seven clans only
    _send(tmp_path, db, [c for c in CLANS if c != 166])
    assert main(["run", str(db), "--early"]) == EXIT_OK
    with GameService.open(db) as svc:
        infos = [json.loads(s.info) for s in svc.steps()[2:]]
        assert infos[-1].get("cycle_end") == 1
    # a standby player: the position plays on under a new account number (the password)
    assert main(["standby", str(db), "166", "--password", "77777", "--name", "Pat",
                 "--email", "pat@example.org"]) == EXIT_OK
    with GameService.open(db) as svc:
        last = svc.current_step
        clan = next(c for c in svc.state(last)["clans"] if c.number == 166)
        f = svc.scenario.faction(166)
    assert not clan.dropped and clan.account == "77777" and clan.player == "Pat"
    assert f.password == "77777" and f.email == "pat@example.org" and f.name == "Rust Kings"
    assert main(["drop", str(db), "999"]) != EXIT_OK
    capsys.readouterr()
    assert main(["status", str(db), "--json"]) == EXIT_OK
    st = json.loads(capsys.readouterr().out)
    assert [g["what"] for g in st["gm_steps"]][0] == "dropped faction 166: silent for a month"
    assert st["game_turns"] == 1 and {f["faction"]: f["turns"] for f in st["factions"]}[100] == 1
