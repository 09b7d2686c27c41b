"""King of Kings report (section 8): data, text layout, HTML, JSON and the orders template."""

import dataclasses
import json

import kok_fixtures as fx

from engine.events import EventLog
from engine.orders import OrderSheet
from engine.rulesets.kok import events as ev
from engine.rulesets.kok.check import check
from engine.rulesets.kok.orders import parse_orders
from engine.rulesets.kok.reports import map_cell_text, orders_template, render, report

c = fx.cell


def _turn_log() -> EventLog:
    log = EventLog()
    log.emit(ev.BattleStarted(c(5, 1), 1, 2, (("H", 2), ("G", 1)), (("F", 1),), "P", "T", 10, 0,
                              "forest", 25, frm=c(4, 1)))
    log.emit(ev.BattleRound(c(5, 1), 1, 1, 2, (("H", 1),), (("F", 1),), 2, 0))
    log.emit(ev.BattleEnded(c(5, 1), 1, 2, 1, 1, 12, 6, -6, 6, 1))
    log.emit(ev.ProvinceConquered(1, c(5, 1), 2, 0))
    log.emit(ev.OrderFailed(1, 5, "LAND 9 9 FO E", "no troops there", "LAND"))
    log.emit(ev.OrderPartial(1, 3, "LAND 1 1 BO 3 E", "2 Bowmen moved, not 3", "LAND"))
    log.emit(ev.Named(1, c(1, 1), "Athens"))
    log.emit(ev.AllianceChanged(1, 2, 1, 2))
    log.emit(ev.AllianceChanged(2, 1, 1, 2))
    return log


def _world():
    scen, st = fx.scenario(loyalty=True), fx.state()
    p11 = next(p for p in st["provinces"] if p.cell == c(1, 1))
    p11.name, p11.tactic = "Athens", "U"
    p51 = next(p for p in st["provinces"] if p.cell == c(5, 1))
    p51.owner, p51.loyal = 1, 2   # conquered by 1, still loyal to 2
    st["tribes"][1].nmr_turns = 1
    return scen, st


def _diags(st, scen):
    sheet = parse_orders("BEGIN\nPLA 6 1 FO\nLAND 1 1 BO 3 E\nLANF 1 1\nEND", "SP1.R4")
    found = sheet.diagnostics + check(sheet, st, 1, scen)
    return [dataclasses.replace(d, faction=1) for d in found]


def _report():
    scen, st = _world()
    return report(st, _turn_log(), None, scen, _diags(st, scen))


def test_head_and_alliance_table():
    r = _report()
    assert (r["game"], r["turn"], r["next_turn"], r["end_turn"]) == ("TESTGAME", 3, 4, 20)
    assert r["alliances"]["players"] == [1, 2, 3]
    assert r["alliances"]["rows"] == [[None, 2, 0], [2, None, 0], [0, 0, None]]
    text = render(r)
    assert "Orders for turn 4: subject \"TESTGAME 4\" or file SP<player>.R4" in text
    assert "\n   1   -  2  0\n   2   2  -  0\n   3   0  0  -\n" in text
    assert "7.2 Loyalty" in text and "7.1 Build" in text


def test_player_table_columns_of_8_2():
    r = _report()
    text = render(r)
    assert " Nr Name      Gold Wood Ship Foot Bowm Hors Cast Gene Trp. Food Prov Fame" in text
    p1 = r["players"][0]
    assert p1["units"] == {"S": 2, "F": 4, "B": 2, "H": 2, "C": 0, "G": 1}
    # Trp. counts land units (not ships); food: plains 2*3 + cultivated 3 + forest... 5/1 is f
    assert (p1["troops"], p1["provinces"]) == (9, 5)
    assert p1["food"] == 2 + 2 + 2 + 3 + 1
    assert "  1 Hellenes    20   20    2    4    2    2    0    1    9   10    5    0" in text
    assert "NMR 1" in text.splitlines()[[i for i, ln in enumerate(text.splitlines())
                                         if ln.startswith("  2 Persians")][0]]


def test_map_letters():
    r = _report()
    cells = {(x["x"], x["y"]): x for x in r["map"]["cells"]}
    # home plains of 1: capital N, owner 1, tactic u, troops 3F 2B 2S
    assert map_cell_text(cells[(1, 1)]) == ("N1u", "3F2B2S")
    # general and castle only by letter: 2H and G; cultivated is r (c is a tactic)
    assert map_cell_text(cells[(2, 2)]) == ("R1t", "2HG")
    # conquered forest still loyal to 2: asterisk (home of 2, so capital E); the foot
    # soldier there is player 2's, so it is marked 2:
    assert map_cell_text(cells[(5, 1)]) == ("E1t*", "2:1F")
    # unowned land in lower case, sea as ~
    assert map_cell_text(cells[(3, 1)]) == ("n", "")
    assert map_cell_text(cells[(0, 0)]) == ("~", "")
    text = render(r)
    lines = text.splitlines()
    row1 = next(i for i, ln in enumerate(lines) if ln.startswith("  1 ~"))
    assert lines[row1].split() == ["1", "~", "N1u", "N1t", "n", "e", "E1t*", "N2t", "~"]
    assert lines[row1 + 1].split() == ["3F2B2S", "2:1F"]


def test_terrain_letters_are_not_tactic_letters():
    # 8.3: lower-case letters after the owner are tactics; a terrain letter must not read
    # as one (nor, as a home province's capital, as a troop letter on the unit line)
    from engine.rulesets.kok import RULESET
    from engine.rulesets.kok.catalogs import TACTIC_LETTERS

    letters = {r["letter"] for r in RULESET.default_catalogs()["terrain"].rows}
    assert not letters & {t.lower() for t in TACTIC_LETTERS}
    text = render(_report())
    assert "  tactics: f Frontal Assault, p Pincer Attack, t Standard Attack, u Outflank, " \
           "c Counter Attack" in text
    assert "n plains" in text and "r cultivated" in text
    # the old letters still read in case and scenario files
    assert RULESET.terrain_letters()["p"] == RULESET.terrain_letters()["n"] == "plains"


def test_named_provinces_on_the_text_map():
    # 5.9: the name is used when the province is shown on the text map
    text = render(_report())
    lines = text.splitlines()
    row = next(i for i, ln in enumerate(lines) if ln.startswith("  1 ~      N1u"))
    assert lines[row + 2].split()[0] == "Athens"
    assert lines[row + 2].index("Athens") == lines[row].index("N1u")
    assert '<span class="name">Athens</span>' in render(_report(), "html")


def test_alliance_table_shows_each_declaration_when_they_persist():
    scen, st = _world()
    scen.options.set("declarations_persist", True)
    for a in st["alliances"]:
        if (a.tribe, a.other) == (1, 3):
            a.declared = 1  # player 1's one-sided raise: binds player 1 only
    r = report(st, _turn_log(), None, scen, [])
    assert r["alliances"]["declared"] is not None
    text = render(r)
    assert "DECLARED  (row: what that player declared" in text
    # by default (2.8, 8.1) both sides are set to the lower value: one table
    scen2, st2 = _world()
    assert report(st2, _turn_log(), None, scen2, [])["alliances"]["declared"] is None


def test_units_of_another_player_are_marked():
    scen, st = _world()
    from engine.rulesets.kok.state import Army
    st["armies"].append(Army(c(0, 1), 2, "S", 3))
    r = report(st, EventLog(), None, scen)
    cell = next(x for x in r["map"]["cells"] if (x["x"], x["y"]) == (0, 1))
    assert map_cell_text(cell) == ("~", "2:3S")


def test_battle_narrative_from_events():
    r = _report()
    (b,) = r["battles"]
    assert b["title"] == "Battle of 5 1" and b["winner"] == 1
    story = "\n".join(b["lines"])
    assert "Player 1 (Hellenes), attacking from 4 1 with 2 Horsemen and 1 General" in story
    assert "Pincer Attack" in story and "(modifiers +10/0)" in story
    assert "caps the attackers' chance at 25%" in story
    assert "Round 1: the attackers lose 1 Horseman, the defenders lose 1 Foot Soldier" in story
    assert "Player 1 (Hellenes) conquers 5 1." in story
    assert "Victory points: player 1 (Hellenes) -6, player 2 (Persians) +6." in story


def test_errors_and_warnings_per_8_5():
    r = _report()
    text = render(r)
    # the checker's findings are part of the turn: its refusal of line 2 (not carried out)
    # is an error line, and its warning on line 3 stands beside what the turn reported
    assert [(m["line"], m["message"]) for m in r["warnings"]] == [
        (3, "2 Bowmen moved, not 3"), (3, "only 2 Bowmen at 1 1, not 3; 2 will move")]
    assert [m["line"] for m in r["errors"]] == [2, 4, 5]
    assert "* 1 PLA 6 1 FO\n      line 2: PLA 6 1: 6 1 is not your province" in text
    assert ("[1 LAND 1 1 BO 3 E]\n      line 3: 2 Bowmen moved, not 3\n"
            "      line 3: only 2 Bowmen at 1 1, not 3; 2 will move") in text
    assert "* 1 LANF 1 1\n      line 4: unknown order 'LANF'; did you mean LAND?" in text


def test_chronicle_and_named_provinces():
    text = render(_report())
    assert "[1] Hellenes names 1 1: Athens" in text
    assert "[1] Hellenes and player 2 (Persians): alliance 1 -> 2" in text
    assert text.count("alliance 1 -> 2") == 1
    assert "NAMED PROVINCES\n    1 1   Athens  (player 1)" in text


def test_public_report_is_the_same_for_everyone():
    scen, st = _world()
    log, diags = _turn_log(), _diags(st, scen)
    texts = {render(report(st, log, f, scen, diags)) for f in (None, 1, 2, 3)}
    assert len(texts) == 1


def test_json_and_html():
    r = _report()
    again = json.loads(render(r, "json"))
    assert again["alliances"] == r["alliances"] and again["errors"] == r["errors"]
    html = render(r, "html")
    assert html.startswith("<!DOCTYPE html>") and "</html>" in html
    assert "Battle of 5 1" in html and "LANF 1 1" in html
    assert "<td>-</td><td>2</td><td>0</td>" in html
    # the owner's colour tints the map cell
    assert "#888888" in html


def test_html_escapes_names():
    scen, st = _world()
    st["provinces"][0].name = "<script>x</script>"
    html = render(report(st, EventLog(), None, scen), "html")
    assert "<script>x" not in html and "&lt;script&gt;" in html


def test_ranking_shown_when_game_ends():
    scen, st = _world()
    st.step = 20
    log = EventLog()
    log.emit(ev.Ranking(2, 1, 1.33, 10, 1, 12, 2, 9, 1))
    log.emit(ev.Ranking(1, 2, 2.0, 4, 2, 20, 1, 5, 3))
    r = report(st, log, None, scen)
    assert r["finished"] and [k["player"] for k in r["ranking"]] == [2, 1]
    text = render(r)
    assert "The game is over." in text and "FINAL RANKING" in text


def test_calendar_dates_are_deterministic():
    scen, st = _world()
    scen.meta.update({"start_date": "2026-01-01", "days_per_turn": 7})
    r = report(st, EventLog(), None, scen)
    assert (r["date"], r["deadline"]) == ("2026-01-22", "2026-01-29")


def test_orders_template():
    scen, st = _world()
    t = orders_template(st, 1, scen)
    assert t.startswith("# King of Kings, game TESTGAME: orders of player 1 (Hellenes) for turn 4")
    assert "#   2 2: HO 2 GE 1" in t
    sheet = parse_orders(t)
    assert isinstance(sheet, OrderSheet) and sheet.orders == [] and sheet.diagnostics == []


def test_sea_battle_narrative():
    log = EventLog()
    log.emit(ev.FleetDetected(1, 2, c(0, 2), 7, 10))
    log.emit(ev.SeaBattleRound(c(0, 2), 1, 1, 2, 1, 0, 1, 1))
    log.emit(ev.SeaBattleRound(c(0, 2), 2, 1, 2, 1, 0, 1, 0))
    log.emit(ev.SeaBattle(c(0, 2), 1, 2, 2, 2, 2, 1, 1, 2))
    log.emit(ev.CarriedLosses(1, c(0, 2), (("F", 1),), 50))
    log.emit(ev.SeaBattleRound(c(0, 3), 1, 3, 1, 1, 1, 0, 0))
    log.emit(ev.SeaBattle(c(0, 3), 3, 1, 1, 1, 1, 0, 1, 1))
    scen, st = _world()
    first, second = report(st, log, None, scen)["battles"]
    assert first["title"] == "Sea battle at 0 2" and first["winner"] == 1
    assert first["lines"][0].startswith("Ships of player 2 (Persians) sight the fleet")
    assert first["lines"][1] == "2 ship(s) of player 1 (Hellenes) fight 2 of player 2 (Persians)."
    assert first["lines"][-1] == ("Player 1 (Hellenes) loses 1 Foot Soldier with the sunken "
                                  "ships (50%).")
    assert second["title"] == "Sea battle at 0 3" and second["winner"] == 0
    assert second["lines"][-1].startswith("Both fleets go down after 1 round(s)")


def test_scenario_validation_warns_of_terrain_letters_read_as_tactics():
    from engine.rulesets.kok import RULESET

    scen, _ = _world()
    assert RULESET.validate(scen) == []
    row = next(i for i, r in enumerate(scen.catalogs["terrain"].rows) if r["name"] == "plains")
    scen.catalogs["terrain"].update(row, {"letter": "p"})
    (p,) = RULESET.validate(scen)
    assert p.severity == "warning" and p.row == row and "'p' is also a tactic letter" in p.message
