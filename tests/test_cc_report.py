"""The Continental Conquest status report: what a clan sees (its own events and things, the
hexes and cities it met, conquests marked), what its cities spot, what it heard."""

from __future__ import annotations

import json

from engine.casefile import load_case, run_case
from engine.rulesets.cc import RULESET
from tests.test_cc_turn_cases import CASES

HEX_ATTACK = next(p for p in CASES if p.stem == "hex-attack")


def test_a_clan_sees_its_own_turn_and_what_it_met():
    r = run_case(load_case(HEX_ATTACK))
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    text = RULESET.render(rep, "text")
    assert "Convoy #1, pulse 1: conquered clan 2's hex 0102 (needed 23, lost 23, 5 guards killed)" in text
    assert " *0102  Pla   1" in text                    # taken this turn: marked, the book's bold
    assert "  0302  Pla   2" in text                    # met, not taken
    assert json.loads(RULESET.render(rep, "json"))["hexes"][0]["hex"] == "0102"
    # clan 2's report of the same step has none of clan 1's events, and no hex it did not own
    two = RULESET.render(RULESET.report(r.state, r.events, 2, r.scenario, []), "text")
    assert "conquered" not in two and "0102" not in two and "0302" in two


def test_spotting_and_city_status_and_radio():
    case = load_case(HEX_ATTACK)
    case.data["state"]["cities"] = [
        {"cell": "0401", "name": "Derry", "owner": 1, "fortification": 3},
        {"cell": "0302", "name": "Omagh", "owner": 2}]
    case.data["state"]["hostile"] = [{"cell": "0302", "clan": 1}]
    case.data["state"]["buildings"] = [{"cell": "0401", "code": "SPO"}]
    case.data["state"]["convoys"].append({"id": 7, "owner": 2, "number": 1, "cell": "0203"})
    case.data["state"]["vehicles"].append({"convoy": 7, "type": "truck", "count": 3})
    case.data["state"]["inbox"] = [{"clan": 1, "seq": 1, "kind": "message", "text": ">Beware"}]
    case.data.pop("expect")
    r = run_case(case)
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    # a Base with a Spotting Tower sees 5 hexes, names owners within 3, sizes within 1;
    # 0203 is 3 from Derry (0401): owner named, size not
    assert rep["spotted"] == [{"hex": "0203", "owner": 2, "size": ""}]
    cities = {c["name"]: c["status"] for c in rep["cities"]}
    assert cities == {"Derry": "Owned", "Omagh": "Hostile"}
    text = RULESET.render(rep, "text")
    assert "  0203 (2)" in text and ">Beware" in text
    assert all(not m.delivered for m in r.state["inbox"] if m.clan == 2)
    assert all(m.delivered for m in r.state["inbox"] if m.clan == 1)


def test_html_is_the_text_escaped():
    r = run_case(load_case(HEX_ATTACK))
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    rep["name"] = "<b>Robin</b>"
    html = RULESET.render(rep, "html")
    assert "&lt;b&gt;Robin&lt;/b&gt;" in html and "<b>Robin" not in html


def test_the_chronicle_tells_the_report_lines_with_clan_and_place():
    r = run_case(load_case(HEX_ATTACK))
    ch = RULESET.chronicle(r.events, r.state, r.scenario)
    taken = ch.filter(faction=1, kind="hex_taken")
    assert [t.text for t in taken] == [
        "Convoy #1, pulse 1: conquered clan 2's hex 0102 (needed 23, lost 23, 5 guards killed)"]
    assert taken[0].place == "0102" and ch.filter(faction=2) == []
    assert ch.filter(kind="cc.fed", details=False) == [] and ch.filter(kind="cc.fed")


def test_clans_met_show_their_name_phone_and_slogan_but_not_their_address():
    case = load_case(HEX_ATTACK)
    case.data["state"]["clans"][1].update(name="Iron Wolves", address="wolves@example.org",
                                          phone="555-0101", phone_on=True, slogan="Howl")
    case.data["state"]["clans"][2].update(name="Allies", phone="555-0303", phone_on=False)
    case.data.pop("expect")
    r = run_case(case)
    rep = RULESET.report(r.state, r.events, 1, r.scenario, [])
    assert rep["clans_met"] == [
        {"clan": 2, "name": "Iron Wolves", "phone": "555-0101", "slogan": "Howl"},
        {"clan": 3, "name": "Allies", "phone": "", "slogan": ""}]
    text = RULESET.render(rep, "text")
    assert 'Clan 2 (Iron Wolves)  phone 555-0101  "Howl"' in text and "wolves@" not in text


def test_the_turn_that_ends_the_game_turn_still_reports_what_it_met():
    """The last clan of a game turn: the game turn advances in the same step, yet its report
    lists what it met and took in its turn (counted by the clan's own turn number)."""
    from engine.dice import Dice
    from engine.ruleset import TurnContext

    r = run_case(load_case(HEX_ATTACK))
    ctx = TurnContext(RULESET, r.scenario, r.state, r.state, {}, Dice(1, 2))
    for phase in RULESET.cycle_phases():
        phase.run(ctx)
    assert r.state["world"][0].game_turn == 2
    text = RULESET.render(RULESET.report(r.state, r.events, 1, r.scenario, []), "text")
    assert " *0102  Pla   1" in text and "  0302  Pla   2" in text


def _next_turn(r, clan: int, account: str):
    """The next step: `clan`'s own turn, a sheet with no orders, after the case's turn."""
    from engine.dice import Dice
    from engine.ruleset import TurnContext

    sheet = RULESET.parse_orders(f"CLAN {clan} ACCOUNT {account} TURN 1\n", source="t")
    new = r.state.copy()
    new.step = r.state.step + 1
    ctx = TurnContext(RULESET, r.scenario, new, r.state, {clan: sheet}, Dice(1, "t"))
    RULESET.run_step(ctx)
    return new, ctx.events


def test_the_hexes_report_the_convoys_passing_them_in_capture_mode():
    """[MOVEMENT MODES]: a convoy in capture (or empty) mode entering another clan's hex is reported to
    that clan on its next turn; the list by hex, the convoy named by its clan's own number
    (as battles name it), never by a game-wide id; recon convoys pass unnoticed."""
    case = load_case(HEX_ATTACK)
    case.data["state"]["convoys"].append({"id": 9, "owner": 1, "number": 4, "cell": "0201",
                                          "mode": "recon", "troops": 5})
    case.data["state"]["vehicles"].append({"convoy": 9, "type": "bus", "count": 1})
    case.data["orders"]["1"] += "CONVOY #4\n 1: SW\n"     # 0201 -> 0102, clan 2's hex, in recon
    case.data.pop("expect")
    r = run_case(case)
    new, events = _next_turn(r, 2, "22")
    rep = RULESET.report(new, events, 2, r.scenario, [])
    assert rep["passing"] == [{"hex": "0102", "text": "convoy #1 of clan 1 passed through 0102"},
                              {"hex": "0302", "text": "convoy #2 of clan 1 passed through 0302"}]
    assert all(x["kind"] != "passing" for x in rep["radio"])       # not told twice
    text = RULESET.render(rep, "text")
    block = text.split("CONVOYS PASSING YOUR HEXES")[1].split("HEARD ON THE RADIO")[0]
    assert "  0102: convoy #1 of clan 1 passed through 0102" in block and "#4" not in block
    assert "convoy #3" not in text                   # it passed clan 3's hex, not clan 2's
    # clan 1 itself, and clan 3 before its own turn, have none in their lists
    assert RULESET.report(new, events, 1, r.scenario, [])["passing"] == []
    assert RULESET.report(new, events, 3, r.scenario, [])["passing"] == []


def test_when_the_game_is_won_every_clan_gets_its_last_report():
    """[GAME TURN ACTIVITIES]: the game won, an end-of-game report for each player: it says
    who won after which game turn, gives the final Top Clans and no orders sheet."""
    from engine.events import EventLog
    from tests.test_cc_game_turn import _end, _game

    scen, s = _game(victory_popularity=111, top_lists_from_turn=99)
    s["cities"][2].population = 50000
    mid, _ = _end(scen, s, [3, 1, 11])
    mid_text = RULESET.render(RULESET.report(mid, EventLog(), 2, scen, []), "text")
    assert "GAME IS OVER" not in mid_text and "FINAL" not in mid_text
    last, ended = _end(scen, mid, [1, 1, 11])
    log = EventLog()
    log.emit(ended["cc.game_won"])
    assert RULESET.step_report_factions(last, log, 1, scen) == {1, 2, 3}
    for clan in (1, 2, 3):
        rep = RULESET.report(last, log, clan, scen, [])
        assert "Game turn 5: the game is over: clan 1 won with popularity 111" in [
            x["text"] for x in rep["results"]]
        assert rep["game_over"] == {"winner": 1, "game_turn": 5} and "orders_sheet" not in rep
        assert rep["top_clans"]["popularity"][0] == {"clan": 1, "name": "A", "value": 111}
        text = RULESET.render(rep, "text")
        assert "THE GAME IS OVER after game turn 5: won by clan 1" in text
        assert text.startswith("CONTINENTAL CONQUEST  GAME t  GAME TURN 5 (THE LAST)\n")
        assert "FINAL TOP CLANS: POPULARITY" in text and "ORDERS SHEET" not in text
