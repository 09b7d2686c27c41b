"""`realmsmith run --orders ... --out ...`: import, run and export in one process give
byte for byte what the three commands give, with the reports made by forked copies or
not; the run takes the import's reading and checking of each set only while the state
and scenario are those it was checked against (engine/db/checked.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.db.checked import CheckedSets, same_state
from engine.interventions import Intervention
from engine.orders import Diagnostic, OrderSheet
from engine.rulesets.atlantis.generate import generate_game
from engine.service import GameService

ROOT = Path(__file__).resolve().parents[1]


def _game(tmp_path: Path, factions: int, name: str = "g") -> tuple[Path, Path]:
    scen, orders = generate_game(factions, units=3, seed=5)
    folder = tmp_path / "orders"
    folder.mkdir(exist_ok=True)
    for f, text in orders.items():
        (folder / f"f{f}.txt").write_text(text, encoding="utf-8")
    GameService.create(tmp_path / f"{name}.db", scen).close()
    return tmp_path / f"{name}.db", folder


def _cli(*args: str, workers: int) -> None:
    env = {**os.environ, "REALMSMITH_WORKERS": str(workers), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_one_process_with_copies_writes_what_three_commands_write(tmp_path):
    db, orders = _game(tmp_path, 70)  # enough factions for the reports to be shared
    one = tmp_path / "one.db"
    one.write_bytes(db.read_bytes())
    _cli("run", str(one), "-q", "--orders", str(orders), "--out", str(tmp_path / "out1"), workers=2)
    _cli("import", str(db), str(orders), workers=1)
    _cli("run", str(db), "-q", workers=1)
    _cli("export", str(db), "--out", str(tmp_path / "out3"), workers=1)
    a, b = _files(tmp_path / "out1"), _files(tmp_path / "out3")
    assert len(a) == 70 * 4 and a == b
    with GameService.open(one) as s1, GameService.open(db) as s3:
        assert s1.state_json(1) == s3.state_json(1)
        assert [r.event.to_dict() for r in s1.events(1).records] == \
            [r.event.to_dict() for r in s3.events(1).records]


def test_the_run_takes_the_import_checks_only_against_the_same_state(tmp_path, monkeypatch):
    db, orders = _game(tmp_path, 4)
    calls: list[int] = []

    def counting(svc: GameService) -> None:
        real = svc._check_findings

        def check(sheet, state, faction, scen):
            calls.append(faction)
            return real(sheet, state, faction, scen)
        monkeypatch.setattr(svc, "_check_findings", check)

    with GameService.open(db) as svc:  # import and run in one service: checked once
        counting(svc)
        svc.import_paths([str(orders)])
        assert sorted(calls) == [1, 2, 3, 4]
        svc.run()
        assert sorted(calls) == [1, 2, 3, 4] and len(svc._checked) == 0
        svc.rollback(0)
    calls.clear()
    with GameService.open(db) as svc:
        counting(svc)
        svc.import_paths([str(orders)])  # seen before: nothing new is read
        svc._checked.forget()
        with GameService.open(db) as other:  # another process changes the state meanwhile
            other.intervene(Intervention("give", 2, {"unit": _a_unit(other, 2), "item": "silver",
                                                     "count": 100}))
        svc.check()  # status-like reads do not keep anything
        assert len(svc._checked) == 0
        svc.import_paths([str(orders)])
        calls.clear()
        svc.run()
        assert sorted(calls) == [1, 2, 3, 4]  # every set checked again by the run


def _a_unit(svc: GameService, faction: int) -> int:
    return next(u.number for u in svc.state().tables["units"] if u.faction == faction)


def test_checked_sets_compare_states_and_scenarios(tmp_path):
    db, _orders = _game(tmp_path, 4)
    with GameService.open(db) as svc:
        a, b = svc.state(0), svc.state(0)
        scen = svc.scenario
        kept = CheckedSets()
        sheet, found = OrderSheet(source="f1.txt"), [Diagnostic("illegal", "no")]
        kept.keep("f1.txt", "text", 1, sheet, found, a, scen)
        assert kept.take("f1.txt", "text", 2, b, scen) is None  # another faction's
        kept.keep("f1.txt", "text", 1, sheet, found, a, scen)
        assert kept.take("f1.txt", "text", 1, b, scen) == (sheet, found)  # equal, not the same
        assert kept.take("f1.txt", "text", 1, b, scen) is None  # taken once
        changed = svc.state(0)
        changed.tables["units"][0].men += 1
        assert not same_state(a, changed)
        kept.keep("f1.txt", "text", 1, sheet, found, a, scen)
        assert kept.take("f1.txt", "text", 1, changed, scen) is None


def _give(svc: GameService) -> None:
    svc.intervene(Intervention("give", 2, {"unit": _a_unit(svc, 2), "item": "silver",
                                           "count": 12345}))


@pytest.mark.parametrize("who", ["another connection", "the same service"])
def test_a_change_after_the_import_is_in_the_turn(tmp_path, who):
    """The run takes the import's state only while nothing was written since: a GM's
    intervention between import and run, from another process or this one, is in the turn
    exactly as if it had come before the import."""
    db, orders = _game(tmp_path, 4)
    ref = tmp_path / "ref.db"
    ref.write_bytes(db.read_bytes())
    with GameService.open(ref) as svc:
        _give(svc)
        svc.import_paths([str(orders)])
        svc.run()
        expected = svc.state_json(1)
    with GameService.open(db) as svc:
        svc.import_paths([str(orders)])
        if who == "the same service":
            _give(svc)
        else:
            with GameService.open(db) as other:
                _give(other)
        svc.run()
        assert svc.state_json(1) == expected
