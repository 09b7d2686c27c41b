"""End to end on the three rulesets' demos: rollback and re-run, late orders, export.

Each demo is made once per session (`realmsmith demo`, tests/conftest.py) and copied for this
module; each test that writes works on a copy of that.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import EXIT_ERRORS, EXIT_INPUT, EXIT_OK, main
from engine.service import GameService

RULESETS = ("kok", "artnes", "coi")
FORMATS = {"kok": {"txt", "html", "json"}, "artnes": {"txt", "html", "json", "bbcode"},
           "coi": {"txt", "html", "json", "bbcode"}}


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


@pytest.fixture(scope="module")
def demos(demo_games):
    """ruleset -> this module's copy of its demo folder (played once a session)."""
    return {r: demo_games.copy(r) for r in RULESETS}


def game_copy(demos, ruleset, tmp_path) -> Path:
    src = demos[ruleset] / f"{ruleset}-demo.db"
    for p in src.parent.glob(src.name + "*"):  # the db and any -wal/-shm
        shutil.copy(p, tmp_path / p.name)
    return tmp_path / src.name


def current(capsys, db) -> int:
    return json.loads(cli(capsys, "status", db, "--json")[1])["current_turn"]


def snapshot(capsys, db, tmp_path, label) -> dict[str, bytes]:
    """state and events of every turn, and every exported file of every turn, as bytes."""
    snap: dict[str, bytes] = {}
    for t in range(current(capsys, db) + 1):
        snap[f"state-{t}"] = cli(capsys, "state", db, "--json", "--turn", t)[1].encode()
        snap[f"events-{t}"] = cli(capsys, "events", db, "--turn", t, "--json")[1].encode()
        snap[f"told-{t}"] = cli(capsys, "events", db, "--turn", t)[1].encode()
        if t:
            out = tmp_path / f"{label}-{t}"
            assert cli(capsys, "export", db, "--out", out, "--turn", t)[0] == EXIT_OK
            snap.update({f"{t}/{p.name}": p.read_bytes() for p in sorted(out.iterdir())})
    return snap


@pytest.mark.parametrize("ruleset", ["kok", "artnes"])
def test_rollback_two_turns_and_rerun_is_byte_identical(demos, tmp_path, capsys, ruleset):
    db = game_copy(demos, ruleset, tmp_path)
    last = current(capsys, db)
    before = snapshot(capsys, db, tmp_path, "before")
    assert cli(capsys, "rollback", db, "--to", last - 2)[0] == EXIT_OK
    assert current(capsys, db) == last - 2
    for _ in range(2):
        assert cli(capsys, "run", db, "-q")[0] == EXIT_OK
    after = snapshot(capsys, db, tmp_path, "after")
    assert sorted(after) == sorted(before)
    assert [k for k in before if before[k] != after[k]] == []


def test_coi_rerun_after_rollback_reaches_the_same_state(demos, tmp_path, capsys):
    db = game_copy(demos, "coi", tmp_path)
    last = current(capsys, db)
    final = json.loads(cli(capsys, "state", db, "--json")[1])
    assert cli(capsys, "rollback", db, "--to", last - 2)[0] == EXIT_OK
    for _ in range(2):
        assert cli(capsys, "run", db, "-q")[0] == EXIT_OK
    again = json.loads(cli(capsys, "state", db, "--json")[1])
    assert again["tables"] == final["tables"]


def test_coi_rollback_two_turns_and_rerun_is_byte_identical(demos, tmp_path, capsys):
    db = game_copy(demos, "coi", tmp_path)
    last = current(capsys, db)
    before = snapshot(capsys, db, tmp_path, "before")
    cli(capsys, "rollback", db, "--to", last - 2)
    for _ in range(2):
        cli(capsys, "run", db, "-q")
    assert snapshot(capsys, db, tmp_path, "after") == before


_DEMOS_SCRIPT = """
import sys
from app.cli import main
for r in ("kok", "artnes", "coi"):
    assert main(["demo", "--ruleset", r, "--dir", sys.argv[1] + "/" + r, "--turns", "2"]) == 0
"""


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "reports" in p.parts}


def test_demos_identical_across_folders_and_hash_seeds(tmp_path):
    trees = []
    for seed in ("1", "2"):
        d = tmp_path / f"run-{seed}" / "deeper"
        d.mkdir(parents=True)
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-c", _DEMOS_SCRIPT, str(d)], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        trees.append(_tree(d))
    a, b = trees
    assert len(a) > 100 and sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []
    for name, data in a.items():  # no folder names leak into what players get
        assert b"run-1" not in data and str(tmp_path).encode() not in data, name


def _orders_file(demo: Path, turn: int, faction: int) -> str:
    return (demo / "orders" / f"turn-{turn:03d}" / f"faction-{faction:02d}.txt").read_text("utf-8")


def test_late_orders_replace_after_rollback_and_both_are_kept(demos, tmp_path, capsys):
    db = game_copy(demos, "kok", tmp_path)
    last = current(capsys, db)
    text = _orders_file(demos["kok"], last, 1)
    assert "NAME 4 1 Korinthos" in text
    late = tmp_path / f"SP1.R{last}"
    late.write_text(text.replace("Korinthos", "Mykenai"), encoding="utf-8")
    code, out, _ = cli(capsys, "import", db, late)
    assert "has been run already" in out
    st = json.loads(cli(capsys, "status", db, "--json")[1])
    assert st["other_turns"] == [str(late)]  # kept, listed, not used yet
    assert cli(capsys, "rollback", db, "--to", last - 1)[0] == EXIT_OK
    st = json.loads(cli(capsys, "status", db, "--json")[1])
    assert st["factions"][0]["source"] == str(late) and st["factions"][0]["replaced"] == 1
    assert st["other_turns"] == []
    assert cli(capsys, "run", db, "-q")[0] == EXIT_OK
    named = [json.loads(x) for x in cli(capsys, "events", db, "--turn", last, "--kind",
                                        "kok.named", "--json")[1].splitlines()]
    assert [(e["faction"], e["name"]) for e in named if e["faction"] == 1] == [(1, "Mykenai")]
    with GameService.open(db) as svc:
        mine = [s for s in svc.submissions() if s.faction == 1 and s.submission.step == last]
    assert [(s.submission.source_name == str(late), s.superseded, s.applied_step) for s in mine] == [
        (False, True, None), (True, False, last)]


def test_late_orders_are_rechecked_after_rollback(demos, tmp_path, capsys):
    db = game_copy(demos, "kok", tmp_path)
    last = current(capsys, db)
    late = tmp_path / f"SP1.R{last}"
    late.write_text(_orders_file(demos["kok"], last, 1), encoding="utf-8")
    cli(capsys, "import", db, late)
    cli(capsys, "rollback", db, "--to", last - 1)
    code, out, _ = cli(capsys, "check", db, "--faction", "1")
    st = json.loads(cli(capsys, "status", db, "--json")[1])
    assert (st["factions"][0]["errors"], st["factions"][0]["warnings"]) == (0, 0)
    assert code == EXIT_OK


def test_kok_events_are_decoded_for_the_gm(demos, capsys):
    db = demos["kok"] / "kok-demo.db"
    kinds = {json.loads(x)["kind"] for x in cli(capsys, "events", db, "--turn", 1, "--json")[1].splitlines()}
    assert "rs_unknown_event" not in kinds and "kok.placed" in kinds


@pytest.mark.parametrize("ruleset", RULESETS)
def test_export_every_faction_every_format_idempotent(demos, tmp_path, capsys, ruleset):
    db = demos[ruleset] / f"{ruleset}-demo.db"
    with GameService.open(db) as svc:
        factions = [f.number for f in svc.scenario.factions]
        from engine.service import export_stem
        stem = export_stem(svc.name)
    last = current(capsys, db)
    out = tmp_path / "out"
    assert cli(capsys, "export", db, "--out", out)[0] == EXIT_OK
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    want = {f"{stem}-t{last:03d}-{who}.{ext}" for who in ["gm"] + [f"f{f:02d}" for f in factions]
            for ext in FORMATS[ruleset]}
    want |= {f"{stem}-t{last:03d}-f{f:02d}-orders.txt" for f in factions}
    assert set(first) == want
    assert all(first.values())  # none empty
    for name, data in first.items():  # every JSON report is JSON
        if name.endswith(".json"):
            json.loads(data)
    assert cli(capsys, "export", db, "--out", out)[0] == EXIT_OK
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    # the demo's own export of the last turn is the same bytes
    demo_dir = demos[ruleset] / "reports" / f"turn-{last:03d}"
    assert {p.name: p.read_bytes() for p in demo_dir.iterdir()} == first


def test_export_bad_turns(demos, tmp_path, capsys):
    db = demos["kok"] / "kok-demo.db"
    for turn in ("99", "-1"):
        code, _, err = cli(capsys, "export", db, "--out", tmp_path / "x", "--turn", turn)
        assert code == EXIT_INPUT and f"turn {turn}" in err
    # turn 0 is the starting position (issue 12): its reports and first templates
    code, out, _ = cli(capsys, "export", db, "--out", tmp_path / "t0", "--turn", "0")
    assert code == EXIT_OK and "-t000-f01-orders.txt" in out


def test_export_to_a_file_is_a_clear_error(demos, tmp_path, capsys):
    db = demos["kok"] / "kok-demo.db"
    f = tmp_path / "afile"
    f.write_text("x")
    code, _, err = cli(capsys, "export", db, "--out", f)
    assert code in (EXIT_INPUT, EXIT_ERRORS) and str(f) in err
