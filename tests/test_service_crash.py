"""A process killed in the middle of a run (power cut, kill -9) leaves the game as it was."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tinyrules

from engine.service import GameService

ROOT = Path(__file__).resolve().parents[1]

RUNNER = """
import sys, time
sys.path.insert(0, 'tests')
import tinyrules
from engine.service import GameService
svc = GameService.open(sys.argv[1])
def progress(frac, msg):
    if 'saving reports' in msg:       # state and events are written, not committed
        print('inside', flush=True)
        time.sleep(60)
svc.run(progress=progress)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")
def test_killed_mid_run(tmp_path):
    db = tmp_path / "g.db"
    with GameService.create(db, tinyrules.tiny_scenario()) as svc:
        svc.import_text("#tiny 1 1\nGROW 1\n")
        svc.run()
        svc.import_text("#tiny 2 2\nGROW 1\n")
        before = svc.state_json()
    p = subprocess.Popen([sys.executable, "-c", RUNNER, str(db)], cwd=ROOT,
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "inside"
        time.sleep(0.2)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(10)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    with GameService.open(db) as svc:
        assert svc.current_step == 1 and svc.state_json() == before
        assert [s.number for s in svc.steps()] == [0, 1]
        assert [s.applied_step for s in svc.submissions()] == [1, None]
        assert svc.run().steps == [2]  # and the turn runs normally afterwards
