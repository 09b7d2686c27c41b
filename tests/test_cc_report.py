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
