"""The Atlantis GM's report of the whole world is made when asked (Ruleset.gm_report_on_demand),
not at every run: the same text as a run that stores it would have written, from the turn's
stored state, events and findings; `export` writes it only when asked (`--gm`)."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine import registry
from engine.db.errors import GameDbError
from engine.rulesets.atlantis.generate import generate_game
from engine.service import GameService

RS = registry.get("atlantis")


def _game(tmp_path, name: str):
    """A generated 4-faction game with every faction's orders imported, one set with a bad
    order (a finding the GM's report lists) and one faction silent (NMR)."""
    scen, orders = generate_game(4, units=3, seed=7)
    folder = tmp_path / f"{name}-orders"
    folder.mkdir()
    for f, text in orders.items():
        if f == 4:
            continue  # silent: the turn writes its orders (NMR), and checks them
        if f == 2:
            text = text.replace("#end", "unit 999\nFLY north\n#end")
        (folder / f"f{f}.txt").write_text(text, encoding="utf-8")
    svc = GameService.create(tmp_path / f"{name}.db", scen)
    svc.import_paths([str(folder)])
    return svc


def test_the_gm_report_made_when_asked_is_what_the_run_would_have_stored(tmp_path, monkeypatch):
    stored = _game(tmp_path, "stored")
    monkeypatch.setattr(type(RS), "gm_report_on_demand", False)
    stored.run()
    monkeypatch.setattr(type(RS), "gm_report_on_demand", True)
    asked = _game(tmp_path, "asked")
    res = asked.run()
    assert res.reports == 3 * 4  # every faction's three, not the GM's
    with asked.store.reading() as c:
        assert {who for who, _fmt in asked.store.report_keys(c, 1)} == {1, 2, 3, 4}
    with stored.store.reading() as c:
        assert 0 in {who for who, _fmt in stored.store.report_keys(c, 1)}
    for fmt in RS.report_formats:
        assert asked.report(1, None, fmt) == stored.report(1, None, fmt)
        assert asked.report(1, 3, fmt) == stored.report(1, 3, fmt)
    gm = json.loads(asked.report(1, None, "json"))
    assert gm["faction"] is None and len(gm["errors"]) > 0  # faction 2's bad order among them
    assert len(gm["regions"]) == len({u.cell for u in asked.state(1)["units"]})
    stored.close()
    asked.close()


def test_export_writes_the_gm_report_only_when_asked(tmp_path, capsys):
    svc = _game(tmp_path, "g")
    svc.run()
    plain = {p.name for p in svc.export(tmp_path / "plain")}
    full = {p.name for p in svc.export(tmp_path / "full", gm=True)}
    gm = {n for n in full if "-gm." in n}
    assert len(gm) == 3 and not plain & gm and full - plain == gm
    assert (tmp_path / "full" / next(n for n in gm if n.endswith(".txt"))).read_text(
        encoding="utf-8") == svc.report(1, None, "text")
    with pytest.raises(GameDbError, match="no text report for the GM at turn 2"):
        svc.report(2, None, "text")
    path = str(tmp_path / "g.db")
    svc.close()
    capsys.readouterr()
    assert main(["export", path, "--out", str(tmp_path / "cli"), "--gm"]) == 0
    assert "-t001-gm.txt" in capsys.readouterr().out
    assert main(["report", path, "--format", "text"]) == 0
    assert capsys.readouterr().out.startswith("Atlantis Report For:\nGame master\n")
