"""The cc report's first page (due date from the turn interval), its HTML page (a heading a
section, conquests bold, player text escaped) and the orders sheet at its end."""

from __future__ import annotations

import json

from app.cli import EXIT_OK, main
from engine.casefile import load_case, run_case
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.report import due_date
from engine.service import GameService
from tests.test_cc_turn_cases import CASES

HEX_ATTACK = next(p for p in CASES if p.stem == "hex-attack")
SCENARIO = CASES[0].parents[3] / "maps" / "cc" / "north-america-8.toml"


def test_the_due_date_is_the_interval_after_the_clans_last_turn():
    r = run_case(load_case(HEX_ATTACK))
    assert due_date("2026-03-02T12:00:00Z", r.scenario) == "2026-03-09 12:00 UTC"
    assert due_date("", r.scenario) == "" and due_date("not a time", r.scenario) == ""


def test_a_run_at_a_given_time_puts_the_due_date_on_the_first_page(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--scenario", str(SCENARIO), "--seed", "3"]) == EXIT_OK
    assert main(["export", str(db), "--out", str(tmp_path / "t0")]) == EXIT_OK
    sheet = (tmp_path / "t0" / "north-america-t000-f100-orders.txt").read_text(encoding="utf-8")
    (tmp_path / "c.txt").write_text(sheet, encoding="utf-8")
    assert main(["import", str(db), str(tmp_path / "c.txt")]) == EXIT_OK
    assert main(["run", str(db), "--now", "not-a-time"]) != EXIT_OK
    assert main(["run", str(db), "--now", "2026-03-02T12:00:00Z"]) == EXIT_OK
    capsys.readouterr()
    assert main(["report", str(db), "--faction", "100", "--turn", "1"]) == EXIT_OK
    text = capsys.readouterr().out
    assert "Orders for your turn 2 may run from 2026-03-09 12:00 UTC" in text
    # the orders sheet for the next turn ends the report, with the clan's account number
    tail = text.split("ORDERS SHEET FOR YOUR NEXT TURN")[1]
    assert "CLAN 100  ACCOUNT 48213  TURN 2" in tail and "PRE-TURN CLAN ORDERS" in tail
    with GameService.open(db) as svc:
        clan = next(c for c in svc.state(1)["clans"] if c.number == 100)
    assert clan.last_turn_at == "2026-03-02T12:00:00Z"
    assert main(["report", str(db), "--faction", "100", "--turn", "1", "--format", "json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["due"] == "2026-03-09 12:00 UTC"


def test_the_html_page_has_a_heading_a_section_and_bold_conquests():
    r = run_case(load_case(HEX_ATTACK))
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    rep["radio"] = [{"kind": "message", "hex": "", "text": "<script>alert(1)</script>"}]
    page = RULESET.render(rep, "html")
    for title in ("TURN RESULTS", "STATUS", "MARKET", "CONVOYS", "HEXES", "CITIES", "SPOTTING REPORTS",
                  "CLANS MET", "HEARD ON THE RADIO"):
        assert f">{title}</h2>" in page
    assert "<span class='new'> *0102" in page            # taken this turn: bold, as the book
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.startswith("<!DOCTYPE html>") and "<h1>CONTINENTAL CONQUEST" in page
    # the market lists the vehicles at the book's prices too (a truck: $40,000)
    assert rep["vehicle_prices"]["truck"] == 40000 and "truck: $40,000" in RULESET.render(rep, "text")
