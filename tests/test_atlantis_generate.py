"""The generated Atlantis game of the whole-turn benchmark (engine/rulesets/atlantis/generate.py):
reproducible, its orders files are clean for the checker, and a whole turn runs on it
through the command line (import, check, run, export)."""

from __future__ import annotations

import contextlib
import io

from app.cli import main
from engine import registry
from engine.rulesets.atlantis.generate import generate_game

RS = registry.get("atlantis")


def test_same_arguments_same_game():
    (a, oa), (b, ob) = generate_game(13, seed=2), generate_game(13, seed=2)
    assert oa == ob and a.map.to_dict() == b.map.to_dict()
    assert a.initial.tables == b.initial.tables
    assert len(a.initial["units"]) == 130 and len({u.number for u in a.initial["units"]}) == 130


def test_orders_are_realistic_and_parse():
    scen, orders = generate_game(12)
    verbs: set[str] = set()
    for f, text in orders.items():
        sheet = RS.parse_orders(text, f"f{f}.txt")
        assert not sheet.errors, (f, sheet.errors)
        assert sheet.header.get("faction") == f
        verbs |= {type(o).__name__.upper() for o in sheet.orders}
    for verb in ("CLAIM", "TAX", "WORK", "ENTERTAIN", "PRODUCE", "STUDY", "TEACH", "BUY", "GIVE",
                 "FORM", "BUILD", "MOVE", "ADVANCE", "SAIL", "ATTACK", "STEAL", "CAST"):
        assert verb in verbs, verb


def test_a_whole_turn_through_the_command_line(tmp_path):
    from app.cli.game_cmd import create_game

    scen, orders = generate_game(12, units=10, seed=3)
    (tmp_path / "orders").mkdir()
    for f, text in orders.items():
        (tmp_path / "orders" / f"f{f:04d}.txt").write_text(text, encoding="utf-8")
    db = str(tmp_path / "game.db")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert create_game(db, scen, "generated") == 0
        assert main(["import", db, str(tmp_path / "orders")]) == 0
        main(["check", db, "-q"])
        assert main(["run", db, "-q"]) == 0
        assert main(["export", db, "--out", str(tmp_path / "out")]) == 0
    assert "imported 12 submission(s); 0 unmatched" in out.getvalue()
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert sum(name.endswith("-orders.txt") for name in files) == 12
    report = next(p for p in (tmp_path / "out").iterdir() if p.name.endswith("-f01.txt")).read_text()
    assert "Atlantis Report For:" in report and "Faction 1 (1)" in report
    assert "* Unit 2 (2)" in report  # its own units, marked as its own
    assert "- Unit 11 (11)" in report  # its scout sees the next faction's leader
