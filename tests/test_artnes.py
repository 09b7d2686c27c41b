"""ARTNES: orders parser, checker, identify, reports, demo, determinism and the Europe map."""

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.casefile import build_scenario, load_case, run_case
from engine.dice import Dice
from engine.events import EventLog
from engine.mapfile import load_map
from engine.ruleset import Submission, TurnContext
from engine.rulesets.artnes import RULESET as rs
from engine.rulesets.artnes.orders import Buy, Convoy, Move, Opening, Peace, War, parse
from engine.rulesets.artnes.rules import board_of

ROOT = Path(__file__).resolve().parents[1]
CASES_DIR = ROOT / "tests" / "cases" / "artnes"


# ---- the parser ---------------------------------------------------------------------------

def test_parser_reads_the_book_style_orders():
    sheet = parse("""#artnes France
Gold 12, PP 14, left 3
Buy knight in Paris
Buy 2 spearmen in Navarre
buy a Castle at Paris
Move knight Paris - Champagne - Lorraine
Move 2 spearmen from Navarre to Gascony
MOVE ALL KNIGHTS Paris -> Champagne   // comment
Convoy spearman Brittany to Cornwall via Channel
Convoy 2 knights from Brittany to Cornwall
Declare war on England
Make peace with Castile
""")
    assert sheet.header["nation"] == "France"
    assert not sheet.diagnostics
    o = sheet.orders
    assert o[0] == Opening(2, "Gold 12, PP 14, left 3", 12, 14, 3)
    assert (o[1].unit, o[1].count, o[1].realm) == ("knight", 1, "Paris")
    assert isinstance(o[2], Buy) and (o[2].unit, o[2].count, o[2].realm) == ("spearman", 2, "Navarre")
    assert (o[3].unit, o[3].realm) == ("castle", "Paris")
    assert isinstance(o[4], Move) and o[4].route == ["Paris", "Champagne", "Lorraine"]
    assert (o[5].count, o[5].unit, o[5].route) == (2, "spearman", ["Navarre", "Gascony"])
    assert (o[6].count, o[6].route) == (None, ["Paris", "Champagne"])
    assert isinstance(o[7], Convoy) and (o[7].src, o[7].dest, o[7].sea) == ("Brittany", "Cornwall", "Channel")
    assert (o[8].count, o[8].sea) == (2, "")
    assert isinstance(o[9], War) and o[9].nation == "England"
    assert isinstance(o[10], Peace) and o[10].nation == "Castile"


def test_opening_line_in_other_word_orders():
    o = parse("12 gold, 14 PP, 3 left").orders[0]
    assert (o.gold, o.pp, o.left) == (12, 14, 3)
    o = parse("Treasury: 7; Population points: 9; left over: 2").orders[0]
    assert (o.gold, o.pp, o.left) == (7, 9, 2)


def test_bad_lines_become_diagnostics_with_line_numbers():
    sheet = parse("Buy\nMove knight Paris\nBuy 0 knights in Paris\nBuy dragon in Paris\nfly away\n"
                  + "x" * 600 + "\nMove knight Paris - Champagne")
    lines = sorted(d.line for d in sheet.diagnostics)
    assert lines == [1, 2, 3, 4, 5, 6]
    assert all(d.kind == "invalid" for d in sheet.diagnostics)
    assert len(sheet.orders) == 1


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_parser_never_raises(text):
    sheet = parse(text, "fuzz.txt")
    for d in sheet.diagnostics:
        assert d.line >= 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Buy", "Move", "Convoy", "knight", "2", "all", "spearmen", "galley",
                                 "castle", "in", "to", "via", "-", "Burgundy", "Flan", "Ar", "West Sea",
                                 "Declare war on", "Make peace with", "Faction 2", "from", "Gold 5,",
                                 "PP 3", "\n"]), max_size=30))
def test_checker_never_raises_and_never_changes_the_state(words):
    rs_, scen = build_scenario(load_case(CASES_DIR / "land_combat_worked_example.toml"))
    state = rs_.initial_state(scen)
    before = state.to_json()
    sheet = rs_.parse_orders(" ".join(words))
    rs_.check(sheet, state, 1, scen)
    assert state.to_json() == before


def test_ambiguous_prefix_lists_candidates():
    result = run_case(load_case(CASES_DIR / "orders_names_and_bad_lines.toml"))
    amb = [d for d in result.diagnostics if d.kind == "ambiguous"]
    assert amb and "Aragon" in amb[0].message and "Artois" in amb[0].message


# ---- identify and templates --------------------------------------------------------------------

def test_identify_by_header_subject_and_sender():
    scen, _ = rs.demo()
    assert rs.identify(Submission("Nation: France\nYear 1301\n"), scen).faction == 2
    m = rs.identify(Submission("#artnes venice\nBuy knight in Venice"), scen)
    assert (m.faction, m.step) == (6, None)
    assert rs.identify(Submission("Buy knight", sender="Hungary@artnes.example"), scen).faction == 7
    assert rs.identify(Submission("Buy knight", sender="Byzantium"), scen).faction == 8
    assert rs.identify(Submission("Buy knight", subject="ARTNES orders: Castile"), scen).faction == 3
    assert rs.identify(Submission("Year 1302\nBuy knight", sender="stranger"), scen).step == 3
    assert rs.identify(Submission("Buy knight", sender="stranger"), scen).faction is None


def test_orders_template_parses_and_checks_clean():
    scen, _ = rs.demo()
    state = rs.initial_state(scen)
    text = rs.orders_template(state, 1, scen)
    assert "Gold 5, PP 9, left 6" in text
    sheet = rs.parse_orders(text)
    assert not sheet.diagnostics and not rs.check(sheet, state, 1, scen)
    assert rs.identify(Submission(text), scen).faction == 1


# ---- the demo, reports and determinism -------------------------------------------------------------

def run_demo():
    scen, script = rs.demo()
    state = rs.initial_state(scen)
    logs, diags = [], []
    for step in sorted(script):
        sheets = {}
        for f, text in sorted(script[step].items()):
            sheet = rs.parse_orders(text, f"turn{step}-{f}.txt")
            diags += sheet.diagnostics + rs.check(sheet, state, f, scen)
            sheets[f] = sheet
        new = state.copy()
        new.step = step
        ctx = TurnContext(rs, scen, new, state, sheets, Dice(scen.seed, step))
        rs.run_step(ctx)
        logs.append(ctx.events)
        state = new
    return scen, state, logs, diags


def test_demo_runs_three_years_with_eight_nations_and_clean_orders():
    scen, state, logs, diags = run_demo()
    assert len(scen.factions) == 8 and len(logs) >= 3
    assert diags == []
    kinds = {e.kind for log in logs for e in log}
    assert {"purchase", "move", "claim", "contest", "bounce", "capture", "battle", "sea_battle",
            "convoy", "war", "income"} <= kinds


def test_demo_is_deterministic():
    a, b = run_demo(), run_demo()
    assert a[1].to_json() == b[1].to_json()
    assert [log.to_list() for log in a[2]] == [log.to_list() for log in b[2]]


def test_reports_show_nations_battles_and_map():
    scen, state, logs, _ = run_demo()
    rep = rs.report(state, logs[-1], 1, scen)
    bb = rs.render(rep, "bbcode")
    assert "[table]" in bb and "map update 1303 AD" in bb
    eng = next(n for n in rep["nations"] if n["name"] == "England")
    assert f"[tr][td]England[/td][td]{eng['realms']}[/td][td]{eng['population']} ({eng['left']} left)[/td]" \
           f"[td]{eng['salary']}[/td][td]{eng['treasury']}[/td]" in bb
    battle = rep["battles"][0]
    assert f"column {battle['base_column']}" in bb and f"die {battle['die']}" in bb
    assert "Battle of Normandy: England (1 knight) attacks France (1 knight); odds 4:1, column 3:1" in bb
    text = rs.render(rep, "text")
    assert "NATIONS" in text and "BATTLES" in text and "Battle of Normandy" in text
    assert "London" in text and "England: " in text
    html = rs.render(rep, "html")
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html
    data = json.loads(rs.render(rep, "json"))
    assert data["year"] == 1303 and data["battles"]
    assert "bbcode" in rs.report_formats


def test_worked_example_battle_line():
    result = run_case(load_case(CASES_DIR / "land_combat_worked_example.toml"))
    rep = rs.report(result.state, result.events, None, result.scenario)
    text = rs.render(rep, "text")
    assert "odds 9:4, column 2:1, 1 left to 3:2, die 4: C (standoff)" in text
    assert isinstance(result.events, EventLog)


# ---- the Europe map ----------------------------------------------------------------------------------

def test_europe_map_is_playable():
    m = load_map(ROOT / "maps" / "artnes" / "europe1300.rsmap")
    board = board_of(m)
    assert len(board.realms) >= 60 and len(board.seas) >= 15
    assert len(set(board.homes.values())) >= 8
    for name in ("London", "Wessex", "Cornwall"):
        assert all(board.is_sea(n) or n in {"London", "Wessex", "Cornwall", "Mercia", "Wales", "York"}
                   for n in board.adjacent[name])
    assert board.is_coastal("Brittany") and "Channel" in board.seas_of("Cornwall")
    assert not board.is_coastal("Bohemia")
    for r in board.realms:
        t, p, g = board.stats[r]
        assert 0 <= t <= 2 and 1 <= p <= 4 and 1 <= g <= 4
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_map", ROOT / "maps" / "artnes" / "make_map.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.check(m) == []
