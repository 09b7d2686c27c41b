"""Fairness: nothing sent to a player lets them predict the dice or read the GM's notes.

Every ruleset's demo is played for two turns with a known seed and a GM note in the meta;
then every output meant for players -- exported reports and templates, report bundles
(their whole database content), outbox mails, the public scenario file -- is searched for the
seed, for every value the dice derived from it, and for the note.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import engine.dice
from app.cli import main
from engine import registry
from engine.bundle import open_bundle, write_bundles
from engine.outbox import write_outbox
from engine.scenario_file import dump_scenario
from engine.service import GameService

SEED = 7_364_019_285_517
NOTE = "GM-ONLY: the Persians get reinforcements in turn 4"


def _texts(folder: Path) -> dict[str, str]:
    """Every file under folder as text; a database file as the dump of all its rows."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file() or p.name.endswith(("-wal", "-shm")):
            continue
        raw = p.read_bytes()
        if raw.startswith(b"SQLite format 3\x00"):
            con = sqlite3.connect(p)
            try:
                out[str(p)] = "\n".join(con.iterdump())
            finally:
                con.close()
        else:
            out[str(p)] = raw.decode("utf-8", errors="replace")
    return out


@pytest.fixture
def derived(monkeypatch):
    """Every seed the dice derive from SEED while the test runs."""
    got: set[int] = set()
    real = engine.dice.derive_seed

    def spy(*keys):
        v = real(*keys)
        if keys and str(keys[0]) == str(SEED):
            got.add(v)
        return v

    monkeypatch.setattr(engine.dice, "derive_seed", spy)
    return got


@pytest.mark.parametrize("ruleset", ["kok", "artnes", "coi"])
def test_no_output_for_players_holds_the_seed_or_gm_notes(ruleset, tmp_path, monkeypatch,
                                                          derived, capsys):
    rs = registry.get(ruleset)
    real_demo = rs.demo

    def demo():
        scen, script = real_demo()
        scen.seed = SEED
        scen.meta["gm_notes"] = NOTE
        scen.map.meta["generator"] = {"style": "islands", "seed": SEED}
        return scen, script

    monkeypatch.setattr(rs, "demo", demo)
    assert main(["demo", "--ruleset", ruleset, "--dir", str(tmp_path / "d"), "--turns", "2"]) == 0
    capsys.readouterr()
    db = next((tmp_path / "d").glob("*-demo.db"))
    out = tmp_path / "out"
    with GameService.open(db) as svc:
        assert svc.seed == SEED and svc.current_step >= 1
        svc.export(out / "reports")
        bundles = write_bundles(svc, out / "bundles")
        write_outbox(svc, out / "outbox", bundles={i + 1: b for i, b in enumerate(bundles)})
        dump_scenario(svc.scenario, out / "public.toml", public=True)
        gm_copy = dump_scenario(svc.scenario)  # the GM's file: notes and addresses, no seed
        assert NOTE in gm_copy and str(SEED) not in gm_copy
        assert f"seed = {SEED}" in dump_scenario(svc.scenario, with_seed=True)
        emails = {f.email for f in svc.scenario.factions if f.email}
        for b in bundles:
            got = open_bundle(b)
            assert got.seed == 0 and "gm_notes" not in got.meta
            assert "generator" not in got.map.meta
    assert derived, "the run rolled no dice from the seed: the test would prove nothing"
    secrets = {str(SEED), hex(SEED)[2:], NOTE} | {str(v) for v in derived}
    files = _texts(out)
    public = files.pop(str(out / "public.toml"))
    assert not {e for e in emails if e in public}
    assert any(p.endswith(".rsbundle") for p in files) and any(p.endswith(".eml") for p in files)
    files["public.toml"] = public
    leaks = {(Path(p).name, s) for p, text in files.items() for s in secrets if s in text}
    assert not leaks


def test_new_game_without_seed_gets_a_secret_random_one(tmp_path, capsys):
    seeds = []
    for name in ("a", "b"):
        assert main(["new", str(tmp_path / f"{name}.db"), "--ruleset", "kok"]) == 0
        with GameService.open(tmp_path / f"{name}.db") as svc:
            seeds.append(svc.seed)
    out = capsys.readouterr().out
    demo_seed = registry.get("kok").demo()[0].seed
    assert seeds[0] != seeds[1] and demo_seed not in seeds
    assert not any(str(s) in out for s in seeds)  # not even printed
    assert main(["new", str(tmp_path / "c.db"), "--ruleset", "kok", "--seed", "12"]) == 0
    with GameService.open(tmp_path / "c.db") as svc:
        assert svc.seed == 12


def test_rollback_and_rerun_stay_byte_identical_with_a_secret_seed(tmp_path, capsys):
    """The secret seed lives in the GM's database: rolling back and running again gives
    the same bytes."""
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--ruleset", "kok"]) == 0
    scen, script = registry.get("kok").demo()
    with GameService.open(db) as svc:
        for faction, text in script[1].items():
            svc.import_text(text, "file", f"f{faction}.txt", faction=faction)
        svc.run()
        first = (svc.state_json(), svc.report(1, None, "text"))
        svc.rollback(0)
        svc.run()
        assert (svc.state_json(), svc.report(1, None, "text")) == first
