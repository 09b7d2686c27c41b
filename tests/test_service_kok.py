"""End to end on King of Kings: demo, determinism over rollback, scenario file, check."""

from __future__ import annotations

import pytest

from app.cli import EXIT_ERRORS, EXIT_OK, main
from engine import registry
from engine.scenario_file import dump_scenario, load_scenario
from engine.service import GameService


def _kok():
    try:
        rs = registry.get("kok")
        return rs, rs.demo()
    except Exception as e:  # KoK still being written
        pytest.skip(f"King of Kings demo does not load: {e}")


def _play(svc, script, turns):
    out = []
    for step in turns:
        for faction, text in sorted(script.get(step, {}).items()):
            svc.import_text(text, "file", f"kok-{faction}-{step}.txt", faction=faction)
        svc.run()
        out.append((svc.state_json(), [r.to_dict() for r in svc.events(step).records],
                    {(f, fmt): svc.report(step, f, fmt)
                     for f in [None] + [x.number for x in svc.scenario.factions]
                     for fmt in svc.ruleset.report_formats}))
    return out


def test_kok_determinism_run_rollback_rerun(tmp_path):
    _rs, (scen, script) = _kok()
    with GameService.create(tmp_path / "k.db", scen) as svc:
        first = _play(svc, script, [1, 2, 3])
        svc.rollback(1)
        again = _play(svc, {}, [2, 3])  # the submissions of turns 2 and 3 are used again
        assert again == first[1:]
        svc.rollback(0)
        assert _play(svc, {}, [1, 2, 3]) == first
    # and a fresh game from the same scenario gives the same bytes
    _rs, (scen2, script2) = _kok()
    with GameService.create(tmp_path / "k2.db", scen2) as svc:
        assert _play(svc, script2, [1, 2, 3]) == first


def test_kok_scenario_file_round_trip(tmp_path):
    _rs, (scen, script) = _kok()
    with GameService.create(tmp_path / "a.db", scen) as a:
        import dataclasses

        dump_scenario(dataclasses.replace(a.scenario, initial=a.state(0)), tmp_path / "kok.toml", with_seed=True)
        again = load_scenario(tmp_path / "kok.toml")
        assert again.map.to_dict() == a.scenario.map.to_dict()
        with GameService.create(tmp_path / "b.db", again) as b:
            assert b.state_json(0) == a.state_json(0)
            assert _play(b, script, [1]) == _play(a, script, [1])


def test_kok_cli_demo_and_check(tmp_path, capsys):
    _kok()
    assert main(["demo", "--dir", str(tmp_path / "demo"), "--turns", "2"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "turn 2:" in out
    db = tmp_path / "demo" / "kok-demo.db"
    reports = sorted(p.name for p in (tmp_path / "demo" / "reports" / "turn-002").iterdir())
    assert len([r for r in reports if "orders" not in r]) == 3 * 5  # 4 tribes + GM, 3 formats
    assert len([r for r in reports if r.endswith("-orders.txt")]) == 4  # orders templates
    bad = tmp_path / "SP1.R3"
    bad.write_text("BEGIN\nPLA 99 99 HO\nFROBNICATE 1 2\nEND\n", encoding="utf-8")
    assert main(["check", str(db), str(bad), "--faction", "1"]) == EXIT_ERRORS
    out = capsys.readouterr().out
    assert f"{bad}:2" in out and f"{bad}:3" in out and "error (" in out
    assert main(["import", str(db), str(bad)]) == EXIT_ERRORS
    assert main(["status", str(db)]) == EXIT_OK
    assert "1 of 4 factions have sent orders" in capsys.readouterr().out
    assert main(["run", str(db), "-q"]) == EXIT_OK
    assert main(["state", str(db), "--json", "--turn", "3"]) == EXIT_OK
