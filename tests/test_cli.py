"""Every CLI command with its exit code (in-process, on the tiny test ruleset)."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys

import pytest
import tinyrules  # noqa: F401 - registers the tiny rulesets

from app.cli import EXIT_ERRORS, EXIT_FAILED, EXIT_INPUT, EXIT_OK, EXIT_OPEN, EXIT_USAGE, main
from engine.scenario_file import dump_scenario
from engine.service import GameService


@pytest.fixture
def game(tmp_path):
    assert main(["new", str(tmp_path / "g.db"), "--ruleset", "tiny", "--seed", "5"]) == EXIT_OK
    return tmp_path / "g.db"


def _orders(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_new(tmp_path, capsys):
    assert main(["new", str(tmp_path / "g.db"), "--ruleset", "tiny", "--seed", "5", "--name", "Alpha"]) == 0
    assert "created" in capsys.readouterr().out
    with GameService.open(tmp_path / "g.db") as svc:
        assert (svc.seed, svc.name, svc.ruleset.name) == (5, "Alpha", "tiny")
    assert main(["new", str(tmp_path / "g.db"), "--ruleset", "tiny"]) == EXIT_OPEN
    assert "exists already" in capsys.readouterr().err
    assert main(["new", str(tmp_path / "h.db"), "--ruleset", "nosuch"]) == EXIT_INPUT
    assert "unknown ruleset" in capsys.readouterr().err
    assert main(["new", str(tmp_path / "h.db")]) == EXIT_USAGE
    assert not (tmp_path / "h.db").exists()


def test_new_from_scenario_and_map(tmp_path, capsys):
    from engine.map import new_map
    from engine.mapfile import save_map

    scen = tinyrules.tiny_scenario()
    dump_scenario(scen, tmp_path / "s.toml", with_seed=True)
    m = new_map("square", 6, 5)
    save_map(m, tmp_path / "wide.rsmap")
    assert main(["new", str(tmp_path / "g.db"), "--scenario", str(tmp_path / "s.toml"),
                 "--map", str(tmp_path / "wide.rsmap")]) == EXIT_OK
    with GameService.open(tmp_path / "g.db") as svc:
        assert svc.scenario.map.grid.width == 6 and svc.name == "Tiny Demo"
    assert main(["new", str(tmp_path / "x.db"), "--scenario", str(tmp_path / "nope.toml")]) == EXIT_INPUT
    assert "nope.toml: cannot read" in capsys.readouterr().err


def test_import_check_status_run_export_state(game, tmp_path, capsys):
    good = _orders(tmp_path, "reds.txt", "#tiny 1 1\nGROW 1\nMOVE 0/0 E\n")
    assert main(["import", str(game), good]) == EXIT_OK
    out = capsys.readouterr().out
    assert "reds.txt: stored, faction 1 turn 1, 0 error(s)" in out

    bad = _orders(tmp_path, "blues.txt", "#tiny 2 1\nGROW 99\nJUMP\n")
    assert main(["import", str(game), bad]) == EXIT_ERRORS
    capsys.readouterr()
    assert main(["check", str(game)]) == EXIT_ERRORS
    out = capsys.readouterr().out
    assert f"{bad}:2: error (illegal): GROW 99 needs 99 gold; you have 4" in out
    assert f"{bad}:3:1: error (invalid): cannot read 'JUMP'" in out

    assert main(["status", str(game)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "2 of 2 factions have sent orders" in out
    assert main(["status", str(game), "--json"]) == EXIT_OK
    st = json.loads(capsys.readouterr().out)
    assert st["missing"] == [] and st["collecting_turn"] == 1

    assert main(["run", str(game), "-q"]) == EXIT_OK
    assert "the game is at turn 1" in capsys.readouterr().out
    assert main(["export", str(game), "--out", str(tmp_path / "out")]) == EXIT_OK
    assert len(list((tmp_path / "out").iterdir())) == 9
    # turn 0 is the starting position: its reports and templates are made when asked
    assert main(["export", str(game), "--out", str(tmp_path / "t0"), "--turn", "0"]) == EXIT_OK
    assert "tiny-demo-t000-f01.txt" in capsys.readouterr().out
    assert (tmp_path / "t0" / "tiny-demo-t000-f01.txt").read_text().startswith(
        "Turn 0 report for faction 1")
    assert main(["state", str(game), "--json", "--turn", "0"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["step"] == 0
    assert main(["state", str(game), "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["step"] == 1
    assert main(["state", str(game), "--json", "--turn", "7"]) == EXIT_INPUT
    assert main(["report", str(game), "--faction", "1"]) == EXIT_OK
    assert "Turn 1 report for faction 1" in capsys.readouterr().out


def test_check_files_without_storing(game, tmp_path, capsys):
    ok = _orders(tmp_path, "ok.txt", "#tiny 1 1\nGROW 1\n")
    assert main(["check", str(game), ok]) == EXIT_OK
    bad = _orders(tmp_path, "bad.txt", "GROW x\n")
    assert main(["check", str(game), bad, "--faction", "2"]) == EXIT_ERRORS
    assert f"{bad}:1:1: error (invalid)" in capsys.readouterr().out
    with GameService.open(game) as svc:
        assert svc.submissions() == []
    assert main(["check", str(game), str(tmp_path / "missing.txt")]) == EXIT_INPUT


def test_import_stdin_and_unmatched(game, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("GROW 1\n"))
    assert main(["import", str(game), "-"]) == EXIT_ERRORS  # no faction: unmatched
    assert "UNMATCHED" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("GROW 1\n"))
    assert main(["import", str(game), "--paste", "--faction", "2"]) == EXIT_OK
    assert main(["check", str(game)]) == EXIT_ERRORS  # the unmatched one is an error
    assert "not matched to a faction" in capsys.readouterr().out
    assert main(["import", str(game)]) == EXIT_USAGE


def test_rollback(game, capsys):
    assert main(["run", str(game), "-q"]) == 0
    assert main(["run", str(game), "-q"]) == 0
    assert main(["rollback", str(game), "--to", "1"]) == EXIT_OK
    assert "rolled back from turn 2 to turn 1" in capsys.readouterr().out
    assert main(["rollback", str(game), "--to", "5"]) == EXIT_INPUT
    assert main(["rollback", str(game)]) == EXIT_USAGE


def test_run_failure_exit_code(tmp_path, capsys):
    scen = tinyrules.tiny_scenario()
    scen.options.set("explode_at", 1)
    GameService.create(tmp_path / "g.db", scen).close()
    assert main(["run", str(tmp_path / "g.db"), "-q"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "turn 1 failed in phase fight" in err and "unchanged" in err


@pytest.mark.parametrize("setup, words", [
    ("missing", "no such file"), ("text", "not a Realmsmith"), ("foreign", "not a Realmsmith")])
def test_cannot_open(tmp_path, capsys, setup, words):
    p = tmp_path / "x.db"
    if setup == "text":
        p.write_text("hello\n" * 100)
    elif setup == "foreign":
        con = sqlite3.connect(p)
        con.execute("CREATE TABLE t (a)")
        con.commit()
        con.close()
    for cmd in (["status", str(p)], ["run", str(p)], ["check", str(p)], ["state", str(p), "--json"]):
        assert main(cmd) == EXIT_OPEN
        assert words in capsys.readouterr().err
    assert setup != "missing" or not p.exists()


def test_locked_game(game, capsys):
    other = sqlite3.connect(game, isolation_level=None, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")
    try:
        from engine.db import store

        old = store.make_engine
        store.make_engine = lambda url, busy_timeout=5.0: old(url, 0.2)
        try:
            assert main(["run", str(game), "-q"]) == EXIT_OPEN
        finally:
            store.make_engine = old
        assert "locked by another process" in capsys.readouterr().err
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_scenario_export_import(game, tmp_path, capsys):
    assert main(["run", str(game), "-q"]) == 0
    out = tmp_path / "s.toml"
    assert main(["scenario", "export", str(game), str(out), "--turn", "1", "--with-seed"]) == EXIT_OK
    assert main(["scenario", "import", str(out), str(tmp_path / "copy.db")]) == EXIT_OK
    with GameService.open(game) as a, GameService.open(tmp_path / "copy.db") as b:
        assert b.state_json(0).replace('"step":0', '"step":1') == a.state_json(1)
        assert b.scenario.map.to_dict() == a.scenario.map.to_dict()
    assert main(["scenario", "export", str(game), str(tmp_path / "m.toml"), "--map-file"]) == 0
    assert (tmp_path / "m.rsmap").exists()
    # without --with-seed the dice stay secret: no seed in the file, a fresh one per game
    assert "seed" not in (tmp_path / "m.toml").read_text() and "seed = 5" in out.read_text()
    assert main(["scenario", "import", str(tmp_path / "m.toml"), str(tmp_path / "m.db")]) == 0
    with GameService.open(tmp_path / "m.db") as m, GameService.open(tmp_path / "copy.db") as b:
        assert b.seed == 5 and m.seed != 5
    (tmp_path / "broken.toml").write_text(out.read_text().replace("seed = 5", "seed = ="))
    capsys.readouterr()
    assert main(["scenario", "import", str(tmp_path / "broken.toml"), str(tmp_path / "b.db")]) == EXIT_INPUT
    assert "broken.toml:5: not valid TOML" in capsys.readouterr().err
    assert not (tmp_path / "b.db").exists()
    assert main(["scenario"]) == EXIT_USAGE


def test_demo_and_rulesets(tmp_path, capsys):
    assert main(["demo", "--ruleset", "tiny", "--dir", str(tmp_path / "d"), "--turns", "4"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "turn 4:" in out and str(tmp_path / "d" / "reports") in out
    assert (tmp_path / "d" / "reports" / "turn-003" / "tiny-demo-t003-gm.txt").exists()
    with GameService.open(tmp_path / "d" / "tiny-demo.db") as svc:
        assert svc.current_step == 4
    # running it again replaces the earlier demo game
    assert main(["demo", "--ruleset", "tiny", "--dir", str(tmp_path / "d"), "--turns", "1"]) == 0
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "tiny-demo.db").write_text("my precious notes")
    assert main(["demo", "--ruleset", "tiny", "--dir", str(tmp_path / "e")]) == EXIT_OPEN
    assert (tmp_path / "e" / "tiny-demo.db").read_text() == "my precious notes"
    capsys.readouterr()
    assert main(["rulesets"]) == EXIT_OK
    assert "tiny" in capsys.readouterr().out


def test_usage_and_help(capsys):
    assert main([]) == EXIT_USAGE
    assert main(["--help"]) == EXIT_OK
    assert "Exit codes" in capsys.readouterr().out
    assert main(["frobnicate"]) == EXIT_USAGE


def test_cli_imports_no_qt():
    code = ("import sys; from app.cli import build_parser; build_parser(); "
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'pyqtgraph'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_demo_open_starts_the_gui_command(tmp_path, capsys, monkeypatch):
    import app.cli as cli

    opened = []
    try:
        import app.cli.gui_cmd as gui
    except Exception:
        gui = None
    if gui is not None:
        monkeypatch.setattr(gui, "run", lambda args: opened.append(args.game) or 0)
    else:  # no GUI command here: demo --open says so and still succeeds
        monkeypatch.setattr(cli, "LOAD_PROBLEMS", {})
    assert main(["demo", "--ruleset", "tiny", "--dir", str(tmp_path), "--turns", "1", "--open"]) == 0
    if gui is not None:
        assert opened == [str(tmp_path / "tiny-demo.db")]
    else:
        assert "GUI is not available" in capsys.readouterr().out


def test_events(game, capsys):
    assert main(["run", str(game), "-q"]) == 0
    capsys.readouterr()
    assert main(["events", str(game), "--faction", "2", "--json"]) == EXIT_OK
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines and all(e["faction"] == 2 for e in lines)
    # by default the same events as sentences (the ruleset's chronicle), one a line
    assert main(["events", str(game), "--faction", "2"]) == EXIT_OK
    told = capsys.readouterr().out.splitlines()
    assert len(told) == len(lines) and not any(x.startswith("{") for x in told)
    for flags in ([], ["--json"]):
        assert main(["events", str(game), "--kind", "nothing", *flags]) == EXIT_OK
        assert capsys.readouterr().out == ""


def test_run_wait_for_all_and_strict(game, tmp_path, capsys):
    reds = _orders(tmp_path, "reds.txt", "#tiny 1 1\nGROW 1\n")
    assert main(["import", str(game), reds]) == 0
    assert main(["run", str(game), "--wait-for-all"]) == EXIT_ERRORS
    assert "no orders yet from 2 (Blues)" in capsys.readouterr().out
    blues = _orders(tmp_path, "blues.txt", "#tiny 2 1\nGROW x\n")
    assert main(["import", str(game), blues]) == EXIT_ERRORS
    assert main(["run", str(game), "--wait-for-all", "--strict"]) == EXIT_ERRORS
    assert "1 error(s) in the orders" in capsys.readouterr().out
    with GameService.open(game) as svc:
        assert svc.current_step == 0
    assert main(["run", str(game), "--wait-for-all", "-q"]) == EXIT_OK


def test_realtime_import_and_status_wording(tmp_path, capsys):
    pytest.importorskip("engine.threads")
    GameService.create(tmp_path / "rt.db", tinyrules.tiny_scenario("tiny-rt")).close()
    thread = tmp_path / "thread.txt"
    thread.write_text("--- post 1 | GM | 2026-01-01T09:00:00Z\nThe game starts.\n\n"
                      "--- post 2 | Reds | 2026-01-01T10:00:00Z\n#tiny 1\nGROW 1\n", encoding="utf-8")
    assert main(["import", str(tmp_path / "rt.db"), str(thread)]) == EXIT_OK  # GM post is normal
    capsys.readouterr()
    assert main(["status", str(tmp_path / "rt.db")]) == EXIT_OK
    out = capsys.readouterr().out
    assert "posts waiting to be applied: 2" in out and "1 of 2 players have posts waiting" in out
    assert main(["run", str(tmp_path / "rt.db"), "-q"]) == EXIT_OK
    assert main(["import", str(tmp_path / "rt.db"), str(thread)]) == EXIT_OK
    assert "2 seen before (skipped)" in capsys.readouterr().out
    thread.write_text(thread.read_text().replace("GROW 1", "GROW 2"), encoding="utf-8")
    assert main(["import", str(tmp_path / "rt.db"), str(thread)]) == EXIT_ERRORS  # edited post
    assert "edited after it was applied" in capsys.readouterr().out


def test_gui_without_a_display_says_so(tmp_path, monkeypatch, capsys):
    from app.cli import main

    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["gui", str(tmp_path / "game.db")]) == 1
    err = capsys.readouterr().err
    assert "no display" in err and "--screenshot" in err


def test_events_kind_filter_takes_a_word(tmp_path, capsys):
    import json

    from app.cli import main

    assert main(["demo", "--dir", str(tmp_path), "--turns", "2"]) == 0
    capsys.readouterr()
    db = str(tmp_path / "kok-demo.db")
    assert main(["events", db, "--turn", "2", "--kind", "battle", "--json"]) == 0
    kinds = {json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()}
    assert kinds and all("battle" in k for k in kinds)
    assert main(["events", db, "--turn", "2", "--kind", "kok.placed", "--json"]) == 0
    placed = capsys.readouterr().out.splitlines()
    assert {json.loads(line)["kind"] for line in placed} == {"kok.placed"}
    # the report's sentences, filtered the same way
    assert main(["events", db, "--turn", "2", "--kind", "kok.placed"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert len(told) == len(placed) and all(" places " in x for x in told), told
    from engine.service import GameService

    report = GameService.open(db)
    try:
        text = report.report(2, None, "text")
    finally:
        report.close()
    assert all(x.split(" at ")[0] in text for x in told)
