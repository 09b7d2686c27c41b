"""What the service says when the world or the scenario is against it: a full disk, a
read-only game, a `new` killed half way, a scenario no game can run with. Each is one clear
line and an exit code (4 bad input, 5 nothing changed), never a traceback, and the game or
the file name is as it was before."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from kok_fixtures import demo_game_with_orders

from app.cli import EXIT_FAILED, EXIT_INPUT, EXIT_OK, EXIT_USAGE, main
from engine import registry
from engine.db import DiskFull, GameStore, ReadOnlyGame
from engine.db.store import make_engine
from engine.outbox import write_outbox
from engine.scenario_file import dump_scenario
from engine.service import GameService
from engine.state import CELL_FIELDS
from engine.validation import INT64, ScenarioInvalid

RULESETS = ("kok", "artnes", "coi")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True,
                          text=True, timeout=300)


def _no_traceback(p: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


# ---- the disk fills up --------------------------------------------------------------------

@contextlib.contextmanager
def _small_disk(megabytes: int):
    """A tmpfs of that size (root only; skipped where mounting is not allowed)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("needs root to mount a small tmpfs")
    where = Path(tempfile.mkdtemp(prefix="rs-full-"))
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def _fill(folder: Path, leave: int = 0) -> None:
    """Fill the disk up to `leave` bytes."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize - leave
    with open(folder / "filler", "wb") as f:
        with contextlib.suppress(OSError):
            while free > 0:
                n = min(free, 1 << 20)
                f.write(b"\0" * n)
                free -= n


def test_disk_full_at_new_import_and_run_is_a_message_and_changes_nothing(tmp_path):
    with _small_disk(8) as disk:
        db = disk / "g.db"
        demo_game_with_orders(db)
        _fill(disk)
        for args in (["run", str(db), "-q"],
                     ["new", str(disk / "h.db"), "--ruleset", "kok"]):
            p = _cli(*args)
            _no_traceback(p)
            assert p.returncode == EXIT_FAILED, (args, p.stderr)
            assert "disk is full" in p.stderr
        assert not (disk / "h.db").exists()
        assert not [p for p in disk.iterdir() if p.name.endswith(".part")]
        (disk / "filler").unlink()
        with GameService.open(db) as svc:
            assert svc.current_step == 0
            assert svc.run().steps == [1]  # with room again, the same game runs


def test_disk_full_surfaces_as_diskfull_in_the_service():
    scen = registry.get("kok").demo()[0]
    with _small_disk(8) as disk:
        svc = GameService.create(disk / "g.db", scen)
        _fill(disk)
        with pytest.raises(DiskFull, match="disk is full; nothing was changed"):
            for i in range(200):  # the WAL grows until the disk says no
                svc.import_text("x" * 50_000, source_name=f"big{i}.txt")
        svc.close()


# ---- a read-only game -----------------------------------------------------------------------

def test_read_only_game_is_refused_before_the_turn_runs(tmp_path):
    db = tmp_path / "g.db"
    demo_game_with_orders(db)
    with GameService.open(db) as svc:
        gid = svc.store.game_id
    # SQLite's own read-only mode: what a file without write permission gives a non-root user
    ro = make_engine(f"sqlite:///file:{db}?mode=ro&uri=true")
    svc = GameService(GameStore(ro, str(db), gid, "kok"), registry.get("kok"))
    said: list[str] = []
    with pytest.raises(ReadOnlyGame, match="read-only"):
        svc.run(progress=lambda f, m: said.append(m))
    assert said == []  # refused before any phase was computed
    svc.close()
    with GameService.open(db) as svc:
        assert svc.current_step == 0


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_read_only_file_through_the_cli(tmp_path):
    """As a user who may not write the file (root may write anything: run as nobody)."""
    folder = Path(tempfile.mkdtemp(prefix="rs-ro-"))
    try:
        db = folder / "g.db"
        assert main(["new", str(db), "--ruleset", "kok"]) == EXIT_OK
        os.chmod(folder, 0o755)
        os.chmod(db, 0o444)
        cmd = [sys.executable, "-m", "app.cli", "run", str(db)]
        kw: dict = {}
        if os.geteuid() == 0:
            kw["preexec_fn"] = lambda: os.setuid(65534)
            probe = subprocess.run([sys.executable, "-c", "import app.cli"], capture_output=True,
                                   timeout=120, **kw)
            if probe.returncode != 0:
                pytest.skip("user nobody cannot read this checkout")
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                           cwd=Path(__file__).parent.parent, **kw)
        _no_traceback(p)
        assert p.returncode != EXIT_OK
        assert "read-only" in p.stderr or "cannot open or write" in p.stderr, p.stderr
        assert "adjudicating" not in p.stderr and "saving the new state" not in p.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---- `new` killed half way -----------------------------------------------------------------

def test_killed_new_leaves_no_half_made_game(tmp_path):
    db = tmp_path / "g.db"
    script = textwrap.dedent(f"""
        import os, signal
        from engine import registry
        from engine.db.store import GameStore
        from engine.service import GameService
        def die(*a, **k):
            os.kill(os.getpid(), signal.SIGKILL)
        GameStore.save_state = die     # killed while writing the start
        GameService.create({str(db)!r}, registry.get("kok").demo()[0])
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert p.returncode == -signal.SIGKILL
    assert not db.exists()
    assert [x.name for x in tmp_path.iterdir() if x.name.endswith(".part")]  # the part file...
    assert main(["new", str(db), "--ruleset", "kok"]) == EXIT_OK
    assert not [x for x in tmp_path.iterdir() if x.name != "g.db" and "wal" not in x.name
                and "shm" not in x.name]  # ...removed by the next new of that name
    with GameService.open(db) as svc:
        assert svc.current_step == 0


def test_new_never_replaces_a_game(tmp_path):
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--ruleset", "kok"]) == EXIT_OK
    before = db.read_bytes()
    assert main(["new", str(db), "--ruleset", "kok"]) == 3
    assert db.read_bytes() == before


# ---- scenarios no game can run with ---------------------------------------------------------

def _kok_scenario_file(tmp_path: Path) -> str:
    scen = registry.get("kok").demo()[0]
    scen.initial = registry.get("kok").initial_state(scen)
    return dump_scenario(scen)


HOSTILE_FILES = {
    "army in a cell that does not exist": ("26,1,F,1\n", "99999,1,F,1\n", "cell 99999 is not a cell"),
    "negative cell": ("26,1,F,1\n", "-3,1,F,1\n", "cell -3 is not a cell"),
    "count over 2^63": ("26,1,F,1\n", "26,1,F,99999999999999999999\n", "beyond the largest number"),
    "unknown troop": ("26,1,F,1\n", "26,1,Q,1\n", "'Q' is not in the troops catalog"),
    "unknown faction": ("26,1,F,1\n", "26,9,F,1\n", "tribe 9 is no faction"),
    "site id over 2^63": ("{ id = 1,", "{ id = 99999999999999999999,", "site Argos: 99999999999999999999"),
    "seed over 2^63": ('ruleset = "kok"\n', 'ruleset = "kok"\nseed = 99999999999999999999\n',
                       "99999999999999999999"),
    "CR/LF in a name": ('name = "Achaeans"', 'name = "Ach\\r\\nBcc: evil@example.org"',
                        "holds a line break"),
    "CR/LF in an address": ('email = "persians@example.org"',
                            'email = "p@example.org\\r\\nBcc: evil@example.org"', "holds a line break"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_FILES))
def test_hostile_scenario_file_is_refused_by_new(tmp_path, case, capsys):
    old, new, said = HOSTILE_FILES[case]
    text = re.sub(r"^seed = \d+\n", "", _kok_scenario_file(tmp_path), flags=re.M)
    assert old in text
    (tmp_path / "s.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--scenario", str(tmp_path / "s.toml")]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert said in err and "s.toml" in err, err
    assert not db.exists() and not list(tmp_path.glob(".g.db*"))


def test_seed_over_2_63_on_the_command_line(tmp_path, capsys):
    code = main(["new", str(tmp_path / "g.db"), "--ruleset", "kok", "--seed", str(2 ** 63)])
    err = capsys.readouterr().err
    assert code in (EXIT_USAGE, EXIT_INPUT) and "seed" in err and "Traceback" not in err
    assert not (tmp_path / "g.db").exists()


def _references(rs_name: str):
    """(ruleset, table, field, target) for every declared reference and cell field of the
    ruleset's demo start that has rows to spoil."""
    rs = registry.get(rs_name)
    scen = rs.demo()[0]
    state = rs.initial_state(scen)
    out = []
    for table, fields in rs.state_references().items():
        for field, target in fields.items():
            if state.tables.get(table):
                out.append((rs_name, table, field, target))
    for table, rows in state.tables.items():
        for field in CELL_FIELDS:
            if rows and hasattr(rows[0], field):
                out.append((rs_name, table, field, "cell"))
    return out


CASES = [c for name in RULESETS for c in _references(name)]


def test_every_ruleset_declares_references():
    assert {c[0] for c in CASES} == set(RULESETS)
    assert {c[3] for c in CASES} >= {"faction", "area", "cell", "troops.symbol", "units.kind",
                                     "units.id"}


@pytest.mark.parametrize("rs_name,table,field,target", CASES,
                         ids=[f"{c[0]}-{c[1]}.{c[2]}" for c in CASES])
def test_start_state_referring_to_nothing_is_refused(tmp_path, rs_name, table, field, target):
    rs = registry.get(rs_name)
    scen = rs.demo()[0]
    state = rs.initial_state(scen)
    row = state.tables[table][0]
    bad = {"faction": 99, "cell": -1, "area": "Atlantis"}.get(target, "no such thing")
    setattr(row, field, bad)
    scen.initial = state
    with pytest.raises(ScenarioInvalid, match=rf"state\.{table} row \d+: {field}"):
        GameService.create(tmp_path / "g.db", scen)
    assert not (tmp_path / "g.db").exists()
    if not isinstance(getattr(rs.initial_state(rs.demo()[0]).tables[table][0], field), int):
        return
    setattr(row, field, INT64[1] + 1)
    with pytest.raises(ScenarioInvalid, match="beyond the largest number"):
        GameService.create(tmp_path / "g.db", scen)


# ---- outbox: names and addresses cannot write mail headers ----------------------------------

def test_outbox_with_crlf_in_names_and_addresses(tmp_path):
    from engine.scenario import Faction

    scen, orders = registry.get("kok").demo()
    svc = GameService.create(tmp_path / "g.db", scen)
    svc.run()
    f1 = scen.factions[0]
    hostile = Faction(f1.number, "Ach\r\nBcc: evil@example.org",
                      "a@example.org\r\nBcc: evil@example.org", "", f1.colour, f1.attrs)
    with pytest.raises(ValueError, match="line break"):
        svc.upsert_faction(hostile)  # the designer cannot put it in...
    with svc.store.transaction() as c:  # ...but a database from an older version may hold it
        svc.store.save_faction(c, hostile)
    svc._scenario = None
    entries = write_outbox(svc, tmp_path / "out", sender="gm@example.org\nBcc: x@example.org")
    by = {e.faction: e for e in entries}
    assert "not one plain e-mail address" in by[f1.number].note
    for e in entries:
        msg = message_from_bytes(e.path.read_bytes(), policy=policy.default)
        assert msg["Bcc"] is None
        assert "evil" not in str(msg.get("To", "")) and msg.get("From") is None
        assert "\n" not in str(msg["X-Realmsmith-Faction"])
    second = message_from_bytes(by[scen.factions[1].number].path.read_bytes(), policy=policy.default)
    assert str(second["To"]) == scen.factions[1].email
    svc.close()


def test_outbox_command_on_a_full_disk_or_unwritable_folder_is_a_message(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--ruleset", "kok"]) == EXIT_OK
    assert main(["run", str(db), "-q"]) == EXIT_OK
    (tmp_path / "out").write_text("a file where the folder should be")
    assert main(["outbox", str(db), "--out", str(tmp_path / "out")]) == EXIT_INPUT
    assert "realmsmith:" in capsys.readouterr().err
