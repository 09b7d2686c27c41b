"""Continental Conquest: the orders template a clan fills in, identify() by clan and account
number, and the checks that need no turn simulation (check)."""

from __future__ import annotations

import re

import pytest

from engine.intake.match import BAD_PASSWORD, OK, match_submission
from engine.mapfile import load_map
from engine.orders import ILLEGAL, Severity
from engine.orders.screen import screen
from engine.ruleset import Submission
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.state import Expert, Vehicle
from tests.test_cc_map import MAP
from tests.test_cc_setup import scenario


@pytest.fixture(scope="module")
def game():
    sc = scenario(load_map(MAP), n=4, seed=11)
    state = RULESET.initial_state(sc)
    return sc, state


def fill_template(text, fill):
    """An orders template with some lines filled in: fill = {"pre 1": "BUY 5 FUEL", "c1 2": "N"}
    (blocks pre, post, agents and c<convoy number>); fill["extra"] is added at the end."""
    block = ""
    out = []
    for line in text.splitlines():
        if "PRE-TURN CLAN ORDERS" in line:
            block = "pre"
        elif "POST-TURN CLAN ORDERS" in line:
            block = "post"
        elif (m := re.match(r"ORDERS FOR \w+ CONVOY #(\d+)", line)):
            block = f"c{m.group(1)}"
        elif line.startswith("AGENTS"):
            block = "agents"
        m = re.match(r"^\s*(\d+):$", line)
        if m and f"{block} {int(m.group(1))}" in fill:
            line = f"{line} {fill[f'{block} {int(m.group(1))}']}"
        out.append(line)
    return "\n".join(out) + "\n" + fill.get("extra", "")


def sheet_for(game, clan=100, **fill):
    """The clan's template with some lines filled in: fill = {"pre 1": "BUY 5 FUEL", ...}."""
    sc, state = game
    return fill_template(RULESET.orders_template(state, clan, sc), fill)


def findings(game, text, clan=100):
    sc, state = game
    sheet = RULESET.parse_orders(text, "t.txt")
    assert not sheet.errors, [d.format() for d in sheet.diagnostics]
    return sheet, RULESET.check(sheet, state, clan, sc)


def test_the_template_shows_the_books_blocks_and_reads_back_clean(game):
    sc, state = game
    text = RULESET.orders_template(state, 100, sc)
    clan = next(c for c in state["clans"] if c.number == 100)
    assert f"CLAN 100  ACCOUNT {clan.account}  TURN 1" in text
    assert "PRE-TURN CLAN ORDERS" in text and "POST-TURN CLAN ORDERS" in text
    assert re.search(r"ORDERS FOR LAND CONVOY #1 \(Clan 0 #1\) IN HEX \d{4} \[CAPTURE, HIDDEN\]:", text)
    assert "Vehicles: 1 car, 2 bikes" in text and "Troops: 5 of 5" in text
    assert "Money: $50,000  Food: 200" in text
    pre = text.split("PRE-TURN CLAN ORDERS")[1].split("ORDERS FOR")[0]
    convoy = text.split("Convoy Orders:")[1].split("POST-TURN")[0]
    post = text.split("POST-TURN CLAN ORDERS")[1]
    assert len(re.findall(r"^\s*\d+:$", pre, re.M)) == 5
    assert len(re.findall(r"^\s*\d+:$", convoy, re.M)) == 10
    assert len(re.findall(r"^\s*\d+:$", post, re.M)) == 10
    sheet, found = findings(game, text)
    assert sheet.orders == [] and sheet.diagnostics == [] and found == []


def test_bought_lines_agents_and_an_engineer_at_sea_lengthen_the_sheet(game):
    sc, state = game
    s = state.copy()
    clan = next(c for c in s["clans"] if c.number == 137)
    clan.extra_pre, clan.extra_post, clan.agents = 2, 3, 2
    convoy = next(c for c in s["convoys"] if c.owner == 137)
    convoy.type = "sea"
    s.tables["vehicles"] = [v for v in s["vehicles"] if v.convoy != convoy.id] + [Vehicle(convoy.id, "motorboat", 1)]
    s["experts"].append(Expert(convoy.id, "ENG"))
    text = RULESET.orders_template(s, 137, sc)
    assert "ORDERS FOR SEA CONVOY #1" in text and "Experts: Engineer" in text
    assert "Convoy Orders: 12 pulses" in text and "\n12:" in text.split("Convoy Orders")[1]
    sheet = RULESET.parse_orders(text.replace("\n12:", "\n12: NW", 1).replace("AGENTS (2): the hex each agent "
                                              "reports on this turn\n 1:", "AGENTS\n 1: 0825"))
    assert not sheet.errors
    # the twelfth line is read and followed: the dry run finds the motorboat on land
    found = RULESET.check(sheet, s, 137, sc)
    assert [(d.severity, d.message.split(":")[0]) for d in found] == [(Severity.ERROR, "pulse 12")]
    assert "a sea convoy on land must move onto water" in found[0].message
    assert [x.keyword for x in sheet.orders] == ["MOVE", "AGENT"]
    pre = text.split("PRE-TURN CLAN ORDERS")[1].split("ORDERS FOR")[0]
    assert len(re.findall(r"^\s*\d+:$", pre, re.M)) == 7


def test_a_wrong_or_missing_account_refuses_the_whole_sheet(game):
    text = sheet_for(game, **{"pre 1": "BUY 5 FUEL"})
    wrong = re.sub(r"ACCOUNT \S+", "ACCOUNT 999", text)
    sheet, found = findings(game, wrong)
    assert [(d.kind, d.line, d.severity) for d in found] == [(ILLEGAL, 0, Severity.ERROR)]
    assert "not clan 100's" in found[0].message
    assert screen(sheet, found).sheet.orders == []
    _, found = findings(game, re.sub(r"ACCOUNT \S+", "", text))
    assert "no account number" in found[0].message
    _, found = findings(game, text.replace("CLAN 100 ", "CLAN 137 "))
    assert [(d.line, d.severity) for d in found] == [(0, Severity.ERROR)]
    assert "says clan 137 (line 2)" in found[0].message


def test_limits_that_need_no_simulation(game):
    text = sheet_for(game, **{
        "pre 1": "FORTIFY 0101 5", "pre 2": "FORTIFY 0101", "pre 3": "ORDER 6 5", "pre 4": "ES 137 OWNER",
        "pre 5": "ALLY 555",
        "c1 1": "BOMB", "c1 2": "SCAN", "c1 3": "SCAN", "c1 4": "9999", "c1 5": "CELEBRATE",
        "c1 6": "CELEBRATE", "c1 7": "ABSORB 4",
        "post 1": 'ME ALL "one"', "post 2": 'BR ALL "two"', "post 3": 'ME 137 "three"',
        "post 4": 'ME 174 "four"', "post 5": "GAMBLE 1424", "post 6": "GAMBLE 1424",
        "post 7": 'NAME "The Jury Riggers"', "post 8": "VIGILANCE 60", "post 9": "BUY 2 JEEPS #1",
        "post 10": 'SLOGAN "' + "x" * 101 + '"',
        "extra": "POST-TURN\n11: EVENT\nCONVOY #2\n1: NW\nAGENTS\n1: 0825\n"})
    sheet, found = findings(game, text)
    errors = [d for d in found if d.severity == Severity.ERROR]
    messages = " | ".join(d.message for d in errors)
    for expect in ("already fortified", "ORDER buys at most 10", "ESPIONAGE only from turn 5",
                   "no clan 555", "BOMB is for air convoys", "SCAN only once a turn",
                   "9999 is not on this map", "CELEBRATE only once a turn", "no convoy #4",
                   "at most 3 messages", "once a casino a turn", 'may not start with "the"',
                   "VIGILANCE is at most 50%", "not a land convoy's vehicle", "slogan is at most 100",
                   "beyond the 10 post-turn order lines", "no convoy #2", "agent 1 does not exist"):
        assert expect in messages, expect
    assert [d.text for d in errors if "fortified" in d.message] == ["2: FORTIFY 0101"]  # the first is fine
    assert all(d.kind == ILLEGAL and d.line > 0 for d in errors)
    refused = screen(sheet, found).refused_lines
    assert len(refused) == len({d.line for d in errors})


def test_pulse_lines_beyond_the_convoys_ten(game):
    text = sheet_for(game, extra="CONVOY #1\n11: NW\n")
    _, found = findings(game, text)
    assert [d.message for d in found] == ["convoy #1 has 10 pulses; line 11 is one too many"]


def test_orders_for_a_convoy_created_this_turn_wait_for_the_next(game):
    sc, state = game
    city = next(c for c in state["cities"] if c.owner == 100)
    label = sc.map.grid.label(city.cell, "ccrr")
    text = sheet_for(game, **{"pre 1": f"CREATE {label} LAND", "pre 2": "BUY 2 CARS #2",
                              "extra": "CONVOY #2\n1: NW\n"})
    _, found = findings(game, text)
    assert len(found) == 1 and "created this turn cannot move" in found[0].message


def test_the_turn_on_the_sheet_is_compared_with_the_clans_next(game):
    text = sheet_for(game).replace("TURN 1", "TURN 3")
    _, found = findings(game, text)
    assert [(d.severity, d.line) for d in found] == [(Severity.WARNING, 2)]


def test_identify_reads_clan_and_account_and_the_intake_checks_the_password(game):
    sc, state = game
    text = sheet_for(game)
    m = RULESET.identify(Submission(text), sc)
    assert (m.faction, m.step, m.password) == (100, None, sc.faction(100).password)
    sub = match_submission(Submission(text), RULESET, sc, 1)
    assert (sub.faction, sub.meta["match"]) == (100, OK)
    bad = match_submission(Submission(re.sub(r"ACCOUNT \S+", "ACCOUNT 1", text)), RULESET, sc, 1)
    assert bad.meta["match"] == BAD_PASSWORD
    assert RULESET.identify(Submission("CLAN 999\n"), sc).faction is None
    assert RULESET.identify(Submission("no header"), sc).faction is None


ONE_BY_ONE = [
    ({"c1 1": "BOMB", "c1 2": "BOMB"}, "BOMB only once a turn"),
    ({"c1 1": "PRACTICE", "c1 2": "PR"}, "PRACTICE only once a turn"),
    ({"c1 1": "HUNT", "c1 2": "HU"}, "HUNT only once a turn"),
    ({"c1 1": "RAZE", "c1 2": "RAZE"}, "RAZE only once a turn"),
    ({"c1 1": "FISH"}, "FISH is for sea convoys"),
    ({"c1 1": "PAVE N"}, "PAVE needs a land convoy with a truck"),   # the dry run's
    ({"c1 1": "ABSORB 1"}, "cannot absorb itself"),
    ({"pre 1": "DEFEND 9901"}, "9901 is not on this map"),
    ({"pre 1": "GARRISON 5 99**"}, "99** matches no hex"),
    ({"pre 1": "DEFEND 0101", "pre 2": "DEFEND 010*"}, "already raised by an earlier DEFEND"),
    ({"pre 1": "SELL 1 CAR #3"}, "no convoy #3"),
    ({"pre 1": "SELL CONVOY #3"}, "no convoy #3"),
    ({"pre 1": "GIVE 1 CAR #1 #1"}, "two different convoys"),
    ({"pre 1": "GIVE 1 CAR #1 #7"}, "no convoy #7"),
    ({"pre 1": "CONVERT 5 SEA"}, "no convoy #5"),
    ({"pre 1": "ORDER 1 1", "pre 2": "ORDER 1 1"}, "ORDER only once a turn"),
    ({"pre 1": "BAN 137", "pre 2": "BAN 100"}, "BAN names your own clan"),
    ({"pre 1": "BAN 444"}, "no clan 444"),
    ({"pre 1": 'ME ALL "a"', "pre 2": 'BR ALL "b"'}, "only one message to ALL"),
    ({"pre 1": 'ME 137 "' + "y" * 101 + '"'}, "messages are at most 100"),
    ({"pre 1": 'ME 9901 "hello"'}, "9901 is not on this map"),
    ({"pre 1": 'NAME #1 "' + "z" * 21 + '"'}, "names are at most 20"),
    ({"pre 1": "CREATE 9901 LAND"}, "9901 is not on this map"),
    ({"pre 1": "ASSIGN 9901 5"}, "9901 is not on this map"),
    ({"pre 1": "ERECT 9901 AIR"}, "9901 is not on this map"),
    ({"pre 1": "BUILD 9901 FARM"}, "9901 is not on this map"),
    ({"pre 1": "SABOTAGE 9901"}, "9901 is not on this map"),
    ({"pre 1": "GAMBLE 9901"}, "9901 is not on this map"),
]


@pytest.mark.parametrize("fill,expect", ONE_BY_ONE, ids=[e or "clean" for _, e in ONE_BY_ONE])
def test_each_check_on_its_own_line(game, fill, expect):
    text = sheet_for(game, **fill)
    sheet, found = findings(game, text)
    if expect is None:
        assert found == []
        return
    hits = [d for d in found if expect in d.message]
    assert len(hits) == 1, [d.message for d in found]
    last = max(sheet.orders, key=lambda x: x.line)
    assert hits[0].line == last.line  # the later order of a pair, or the only one


def test_turn_bound_orders_follow_the_clans_own_turn(game):
    sc, state = game
    late = state.copy()
    next(c for c in late["clans"] if c.number == 100).turns_run = 4   # its next turn is 5
    text = RULESET.orders_template(late, 100, sc).replace(
        "PRE-TURN CLAN ORDERS -", "PRE-TURN CLAN ORDERS -\n1: NAME \"Jury Riggers\"\n2: ES 999 OWNER\n"
                                  "3: ES 137 OWNER INCOME\n;", 1)
    sheet = RULESET.parse_orders(text)
    found = RULESET.check(sheet, late, 100, sc)
    # ESPIONAGE is built (cc-cycle): no "not built" warning, only the unknown clan
    assert sorted((d.line, d.message) for d in found) == [
        (9, "the clan's name can be changed only until turn 3"),
        (10, "there is no clan 999 in this game")]


def test_the_template_prints_the_books_sample_convoy_as_the_book_does(game):
    """[CONVOY ORDERS]: Robin's Hood #1, 4 trucks, 1 bus, 3 vans, 9 cars, 6 bikes with a Gunner,
    Merchant, Chemist, Politician, Armsmaster and Trainer: troops 172 of 172, rifles 6 of 6,
    grenades 17 of 17, rockets 4 of 4, strength 748, fuel cost 56, cargo max 81, kill mode N."""
    sc, state = game
    s = state.copy()
    clan = next(c for c in s["clans"] if c.number == 100)
    clan.name = "Robin's Hood"
    c = next(c for c in s["convoys"] if c.owner == 100)
    c.cell = sc.map.grid.parse("1525", "ccrr")
    c.hidden, c.troops, c.rifles, c.grenades, c.rockets, c.morale, c.training = False, 172, 6, 17, 4, 95, 100
    s.tables["vehicles"] = [v for v in s["vehicles"] if v.convoy != c.id] + [
        Vehicle(c.id, t, n) for t, n in (("truck", 4), ("bus", 1), ("van", 3), ("car", 9), ("bike", 6))]
    s["experts"].extend(Expert(c.id, e) for e in ("GUN", "MER", "CHE", "POL", "ARM", "TRA"))
    block = RULESET.orders_template(s, 100, sc).split("ORDERS FOR")[1].split("POST-TURN")[0]
    assert block.splitlines()[:6] == [
        " LAND CONVOY #1 (Robin's Hood #1) IN HEX 1525 [CAPTURE]:",
        "Vehicles: 4 trucks, 1 bus, 3 vans, 9 cars, 6 bikes",
        "Troops: 172 of 172  Rifles: 6 of 6  Grenades: 17 of 17  Rockets: 4 of 4",
        "Combat Strength: 748  Morale: 95  Training: 100  Health: 100",
        "Fuel Cost: 56  Kill: N  Cargo: 0 (max 81)",
        "Experts: Armsmaster, Chemist, Gunner, Merchant, Politician, Trainer"]


def _own_city(game, clan=100):
    sc, state = game
    city = next(c for c in state["cities"] if c.owner == clan)
    return sc.map.grid.label(city.cell, "ccrr"), city


def test_pre_turn_orders_need_what_the_clan_holds_and_post_turn_ones_are_warned(game):
    sc, state = game
    mine, city = _own_city(game)
    theirs, _ = _own_city(game, 137)
    text = sheet_for(game, **{
        "pre 1": f"ASSIGN {theirs} 5", "pre 2": f"ASSIGN {mine} 5", "pre 3": f"CREATE {mine} MILITARY",
        "pre 4": f"ERECT {mine} ARM", "pre 5": f"CREATE {mine} MILITARY",
        "post 1": f"FORTIFY {theirs}", "post 2": f"GAMBLE {mine}", "post 3": f"SABOTAGE {theirs}",
        "post 4": f"DEFEND {theirs} {mine}", "post 5": f"BUILD {mine} GARRISON"})
    sheet, found = findings(game, text)
    line = {x.line: f"{x.section} {x.slot}" for x in sheet.orders}
    got = sorted((line[d.line], d.severity.value, d.message.split(" (")[0].split(";")[0]) for d in found)
    terrain = sc.map.terrain_at(city.cell)
    expect = [("post 1", "warning", f"you hold no city at {theirs} now"),
              ("post 2", "error", f"there is no casino at {mine}"),
              ("post 3", "warning", f"you have no spy planted at {theirs}"),
              ("post 4", "warning", f"you hold no hex {theirs} now"),
              ("pre 1", "error", f"you hold no city at {theirs}"),
              ("pre 3", "error", "a military convoy is created only in a city with an Armory")]
    if terrain != "metropolis":
        expect.append(("post 5", "error", f"a garrison cannot stand on {terrain}"))
    assert got == sorted(expect)


def test_a_sea_convoy_needs_a_coast(game):
    sc, state = game
    for clan in (100, 137, 174, 211):
        label, city = _own_city(game, clan)
        coastal = any(sc.map.terrain_at(n) in ("water", "sea_lane") for n in sc.map.grid.neighbours(city.cell))
        _, found = findings(game, sheet_for(game, clan, **{"pre 1": f"CREATE {label} SEA"}), clan)
        assert [d.message.endswith("has no water beside it") for d in found] == ([] if coastal else [True])
