"""End to end: a damaged, foreign, read-only or busy game file, through the CLI.

Each must give `realmsmith: <file>: <what is wrong>` and exit 3 (docs/cli.md), no
traceback, and must not create or change anything.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

from app.cli import EXIT_OK, EXIT_OPEN, main

COMMANDS = [["status"], ["run", "-q"], ["state", "--json"], ["rollback", "--to", "0"],
            ["check"], ["events"], ["import", "-"]]


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A KoK game one turn in (made once; tests copy it)."""
    d = tmp_path_factory.mktemp("played")
    db = d / "g.db"
    assert main(["new", str(db), "--ruleset", "kok", "--seed", "3"]) == EXIT_OK
    assert main(["run", str(db), "-q"]) == EXIT_OK
    return db


def _copy(played, tmp_path, name="g.db"):
    dst = tmp_path / name
    shutil.copy(played, dst)
    return dst


def _damage(kind: str, path):
    data = bytearray(path.read_bytes())
    if kind == "truncated":
        path.write_bytes(data[:len(data) // 3])
    elif kind == "header":
        path.write_bytes(b"X" * 16 + data[16:])
    elif kind == "random":
        path.write_bytes(os.urandom(50_000))
    elif kind == "text":
        path.write_text("this is my shopping list\n")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "other-sqlite":
        path.unlink()
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE photos (id, data)")
    elif kind == "folder":
        path.unlink()
        path.mkdir()
    elif kind == "missing":
        path.unlink()


EXPECT = {"truncated": "damaged", "header": "not a Realmsmith game", "random": "not a Realmsmith game",
          "text": "not a Realmsmith game", "empty": "empty file", "other-sqlite": "not a Realmsmith game",
          "folder": "folder", "missing": "no such file"}


@pytest.mark.parametrize("kind", sorted(EXPECT))
def test_bad_game_files(played, tmp_path, capsys, kind):
    db = _copy(played, tmp_path)
    _damage(kind, db)
    before = sorted(p.name for p in tmp_path.iterdir())
    for cmd in COMMANDS:
        code, out, err = cli(capsys, cmd[0], db, *cmd[1:])
        assert code == EXIT_OPEN, (cmd, out, err)
        assert err.startswith(f"realmsmith: {db}: ") and EXPECT[kind] in err, (cmd, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing made on the side


def _state(capsys, db) -> str:
    code, out, _ = cli(capsys, "state", db, "--json")
    assert code == EXIT_OK
    return out


def test_locked_by_another_writer(played, tmp_path, capsys):
    db = _copy(played, tmp_path)
    before = _state(capsys, db)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); c.execute('UPDATE rs_game SET name = name')\n"
         "print('locked', flush=True); sys.stdin.read()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        for cmd in (["run", "-q"], ["rollback", "--to", "0"]):
            t0 = time.monotonic()
            code, _, err = cli(capsys, cmd[0], db, *cmd[1:])
            assert code == EXIT_OPEN and "locked by another process" in err, err
            assert time.monotonic() - t0 < 60
        # readers are not blocked (WAL)
        assert _state(capsys, db) == before
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert _state(capsys, db) == before  # the failed run changed nothing
    assert cli(capsys, "run", db, "-q")[0] == EXIT_OK  # and works once the lock is gone


def _make_read_only(path) -> bool:
    if os.geteuid() != 0:
        path.chmod(0o444)
        return True
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(path)],
                                                 capture_output=True).returncode == 0:
        return True
    return False


def _undo_read_only(path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    else:
        path.chmod(0o644)


def test_read_only_game_file(played, tmp_path, capsys):
    db = _copy(played, tmp_path)
    before = _state(capsys, db)
    if not _make_read_only(db):
        pytest.skip("cannot make a file read-only here (root without chattr)")
    try:
        assert cli(capsys, "status", db)[0] == EXIT_OK  # reading works
        for cmd in (["run", "-q"], ["rollback", "--to", "0"]):
            code, _, err = cli(capsys, cmd[0], db, *cmd[1:])
            assert code == EXIT_OPEN and err.startswith(f"realmsmith: {db}: "), err
        assert _state(capsys, db) == before
    finally:
        _undo_read_only(db)


def test_new_never_overwrites(played, tmp_path, capsys):
    db = _copy(played, tmp_path)
    data = db.read_bytes()
    code, _, err = cli(capsys, "new", db, "--ruleset", "kok")
    assert code == EXIT_OPEN and "exists" in err
    assert db.read_bytes() == data
    code, _, err = cli(capsys, "new", tmp_path / "nosuchdir" / "g.db", "--ruleset", "kok")
    assert code in (EXIT_OPEN, 4) and "nosuchdir" in err
