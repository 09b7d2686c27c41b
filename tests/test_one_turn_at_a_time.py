"""Two runs started together make one turn: a run is for the turn it was started for.

`realmsmith run --wait-for-all` looks at the status, then takes the game's lock. If another
run made the turn meanwhile, the second one must not go on to make the next turn with
every faction NMR: it stops with exit 6 and says so (docs/cli.md, docs/security.md).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from kok_fixtures import demo_game_with_orders

from app.cli import EXIT_ERRORS, EXIT_MOVED, EXIT_OK, EXIT_OPEN, main
from engine.service import GameService, TurnMoved


@pytest.fixture
def game(tmp_path):
    """A KoK demo game with every faction's orders for turn 1 in."""
    db = tmp_path / "g.db"
    demo_game_with_orders(db)
    with GameService.open(db) as svc:
        assert not svc.status().missing
    return db


def test_a_run_for_a_turn_made_meanwhile_does_nothing(game):
    first, second = GameService.open(game), GameService.open(game)
    due = second.pending_step
    assert first.run(for_step=1).steps == [1]
    with pytest.raises(TurnMoved, match="for turn 1, but the game is at turn 1"):
        second.run(for_step=due)
    assert second.current_step == 1
    assert [s.number for s in second.steps()] == [0, 1]
    assert second.run(for_step=2).steps == [2]  # asked for the right turn, it runs
    first.close()
    second.close()


def test_cli_run_stops_when_another_run_won_the_lock(game, monkeypatch, capsys):
    """The race made certain: between this run's look at the status and its lock, another
    `realmsmith run` process makes turn 1."""
    looked = GameService.status

    def status_then_other_run(self):
        st = looked(self)
        other = subprocess.run([sys.executable, "-m", "app.cli", "run", str(game), "-q"],
                               capture_output=True, text=True, timeout=300)
        assert other.returncode == EXIT_OK, other.stderr
        return st

    monkeypatch.setattr(GameService, "status", status_then_other_run)
    assert main(["run", str(game), "--wait-for-all", "-q"]) == EXIT_MOVED
    err = capsys.readouterr().err
    assert "this run was for turn 1" in err and "nothing was done" in err
    monkeypatch.undo()
    with GameService.open(game) as svc:
        assert svc.current_step == 1
        assert [s.number for s in svc.steps()] == [0, 1]


def test_two_cli_runs_started_together_make_one_turn(game):
    """Whatever the timing, one run makes turn 1 and the other makes nothing: it either
    finds turn 1 made (exit 6), sees no orders for turn 2 yet (exit 1) or finds the game
    locked (exit 3)."""
    cmd = [sys.executable, "-m", "app.cli", "run", str(game), "--wait-for-all", "-q"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    codes = sorted(p.wait(timeout=300) for p in procs)
    assert codes[0] == EXIT_OK
    assert codes[1] in (EXIT_ERRORS, EXIT_OPEN, EXIT_MOVED)
    with GameService.open(game) as svc:
        assert svc.current_step == 1
