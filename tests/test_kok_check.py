"""King of Kings order checker: orders against the current state, which stays unchanged."""

import kok_fixtures as fx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.orders import AMBIGUOUS, ILLEGAL, Severity
from engine.rulesets.kok.check import check
from engine.rulesets.kok.orders import parse_orders
from engine.rulesets.kok.state import Army


def run(body: str, faction: int = 1, st=None, scen=None, **options):
    st = st or fx.state()
    scen = scen or fx.scenario(**options)
    sheet = parse_orders(f"BEGIN\n{body}\nEND", "SP1.R4")
    before = st.to_json()
    diags = check(sheet, st, faction, scen)
    assert st.to_json() == before, "check changed the state"
    assert all(d.faction == faction and d.file == "SP1.R4" for d in diags)
    return diags


def errors(diags):
    return [(d.line, d.message) for d in diags if d.severity == Severity.ERROR]


def warnings(diags):
    return [(d.line, d.message) for d in diags if d.severity == Severity.WARNING]


def only(diags, line, severity=Severity.ERROR):
    got = [d for d in diags if d.line == line and d.severity == severity]
    assert len(got) == 1, [d.format() for d in diags]
    return got[0].message


def test_a_good_sheet_is_clean():
    diags = run("PLA 1 2 BO 2 1 FO\nLAND 2 2 T HO 2 N\nDEF 1 1 C\nALL 2 3\nNAME 1 1 Athens\n"
                "SEA 1 1 FO 1 SH 2 N W")
    assert diags == []


# ---- PLA ----------------------------------------------------------------------------------

def test_place_rules():
    diags = run("PLA 5 1 FO\nPLA 0 0 FO\nPLA 1 2 FO 1 2 BO\nPLA 9 9 FO\nPLA 2 1 HO 2 2 HO\n"
                "PLA 1 1 GE")
    assert "not your province" in only(diags, 2)
    assert "at sea" in only(diags, 3)
    assert "one land unit a province (already placed by line 4)" in only(diags, 4)
    assert "9 9 is off the map (0-7, 0-5)" in only(diags, 5)
    # 20 gold: BO (6) on line 4, HO (12) on line 6 leaves 2: the second HO waits on gold
    # that player 2 (status 2 both ways) may donate first, so it is a warning (5.7)
    assert "costs more than you have (12 gold, 2 left); placed only if a donation arrives" \
        in only(diags, 6, Severity.WARNING)
    assert "no General available" in only(diags, 7)
    # without anyone to donate it is refused, and only that item (part 2) of the triple
    st = fx.state()
    st.tables["alliances"] = []
    diags = run("PLA 2 1 HO 2 2 HO", st=st)
    assert "costs more than you have (12 gold, 8 left)" in only(diags, 2)
    assert [d.part for d in diags] == [2]


def test_place_ships_need_wood_and_may_share_a_province():
    assert run("PLA 1 1 SH 1 1 SH") == []
    diags = run("PLA 1 1 SH 1 1 SH\nPLA 1 1 SH")
    assert "10 wood, 0 left" in only(diags, 3)


def test_ship_placed_inland_is_refused():
    # the turn refuses it (4.3), so the checker does too
    diags = run("PLA 2 2 SH")
    assert "can only be placed in a coastal province" in only(diags, 2)


def test_pla_limit_three():
    diags = run("PLA 1 2 FO 2 1 FO 2 2 FO 1 1 FO")
    assert "at most 3 units; this one is ignored" in only(diags, 2)
    assert [d.part for d in diags] == [4]


def test_home_only_and_loyalty_options():
    st = fx.state()
    p = next(p for p in st["provinces"] if p.cell == fx.cell(2, 1))
    p.home, p.loyal = 2, 2
    assert errors(run("PLA 2 1 FO", st=st)) == []
    assert "home provinces" in only(run("PLA 2 1 FO", st=st, home_only=True), 2)
    assert "loyal to player 2" in only(run("PLA 2 1 FO", st=st, loyalty=True), 2)


def test_isolated_province_takes_no_placement_or_move_but_def():
    diags = run("PLA 6 4 FO\nLAND 6 4 FO 1 N\nDEF 6 4 C\nNAME 6 4 Olbia", faction=3)
    assert "isolated" in only(diags, 2)
    assert "isolated and no general" in only(diags, 3)
    assert "isolated" in only(diags, 5)
    assert not [d for d in diags if d.line == 4]


def test_isolated_with_a_general_may_move():
    st = fx.state()
    st["armies"].append(Army(fx.cell(6, 4), 3, "G", 1))
    st["tribes"][2].generals_placed = 1
    assert errors(run("LAND 6 4 AT W", faction=3, st=st)) == []


def test_general_becomes_available_with_time():
    st = fx.state(turn=9)  # general_every 5: turn 10 allows 2, one already placed
    st["tribes"][0].generals_placed = 1
    assert run("PLA 1 2 GE", st=st) == []
    assert "no General available" in only(run("PLA 1 2 GE 2 1 GE", st=st), 2)


# ---- LAND ---------------------------------------------------------------------------------

def test_fewer_troops_than_ordered_is_a_warning_8_5():
    diags = run("LAND 1 1 BO 3 E")
    assert only(diags, 2, Severity.WARNING) == "only 2 Bowmen at 1 1, not 3; 2 will move"
    assert errors(diags) == []


def test_placed_units_count_when_place_and_move_is_on():
    assert run("PLA 1 2 BO\nLAND 1 2 BO 1 E") == []
    diags = run("PLA 1 2 BO\nLAND 1 2 BO 1 E", place_and_move=False)
    assert "none of the troops named are there" in only(diags, 3)


def test_land_without_troops_and_unknown_types():
    diags = run("LAND 2 1 FO 1 E\nLAND 1 2 HO 1 E")
    assert "no troops there" in only(diags, 2)
    assert "none of the troops named" in only(diags, 3)


def test_land_route_problems():
    diags = run("LAND 1 2 FO 1 W\nLAND 1 1 FO 1 E E E E\nLAND 2 2 HO 1 E E E")
    assert "runs into the sea at 0 2" in only(diags, 2, Severity.WARNING)
    # foot soldiers: 2 points; plains 1 then forest 2 -> stop after step 2 of 4
    assert "movement points run out at 3 1 after step 2 of 4" in only(diags, 3, Severity.WARNING)
    # horsemen with a general? no: G not moved; mountains (3) end it after step 1
    assert "after step 1 of 3" in only(diags, 4, Severity.WARNING)


def test_general_lets_the_army_move_at_its_fastest():
    # H 2 + G: 3 points; grassland... east of 2/2 is mountains (3): one step only either way,
    # but foot soldiers with a general move at 3 too (2.1): plains 1 + plains 1 + plains 1
    st = fx.state()
    st["armies"].append(Army(fx.cell(2, 2), 1, "F", 1))
    assert run("LAND 2 2 FO 1 GE 1 S E E", st=st) == []
    assert "after step 2 of 3" in only(run("LAND 2 2 FO 1 S E E", st=st), 2, Severity.WARNING)


def test_off_map_step():
    scen = fx.scenario()
    scen.map.set_terrain([fx.cell(1, 5)], "plains")
    st = fx.state()
    st["armies"].append(Army(fx.cell(1, 4), 1, "F", 1))
    st["provinces"][0].cell = fx.cell(1, 4)
    st["provinces"][1].cell = fx.cell(2, 4)
    diags = run("LAND 1 4 FO 1 S S", st=st, scen=scen)
    assert "step 2 (S) leaves the map; the move stops at 1 5" in only(diags, 2, Severity.WARNING)


def test_move_ending_at_an_ally_is_cancelled():
    st = fx.state()
    st["armies"].append(Army(fx.cell(4, 1), 1, "F", 1))
    diags = run("LAND 4 1 FO 1 E", st=st)
    assert "of player 2, whom you declared allied (2): the whole move is cancelled" \
        in only(diags, 2)
    # the declaration binds at once: offering an alliance forbids attacking that turn
    diags = run("ALL 3 1\nLAND 6 3 FO 1 S", st=st, faction=2)
    assert "declared allied (1)" in only(diags, 3)
    assert run("LAND 6 3 FO 1 S", st=st, faction=2) == []


def test_moving_out_of_a_province_troops_moved_into():
    diags = run("LAND 1 2 FO 1 N\nLAND 1 1 FO 1 E")
    assert "moved in by line 2" in only(diags, 3, Severity.WARNING)
    assert run("LAND 1 1 FO 1 E\nLAND 1 2 FO 1 N") == []


def test_pincer_needs_horsemen():
    assert "pincer" in only(run("LAND 1 1 P FO 1 E"), 2, Severity.WARNING)
    assert run("LAND 2 2 P HO 1 N") == []
    assert "pincer" in only(run("DEF 1 2 P"), 2, Severity.WARNING)


def test_castles_do_not_move():
    st = fx.state()
    st["armies"].append(Army(fx.cell(1, 2), 1, "C", 1))
    assert "Castle cannot move" in only(run("LAND 1 2 CA 1 FO 1 E", st=st), 2, Severity.WARNING)
    assert run("LAND 1 2 AT E", st=st) == []  # AT leaves castles and ships behind


# ---- SEA ----------------------------------------------------------------------------------

def test_sea_moves():
    assert "starts at sea or on the coast" in only(run("SEA 2 2 HO 1 N"), 2)
    diags = run("SEA 1 1 FO 3 SH 2 N", no_crew=False)
    assert "carry at most 2 units, not 3" in only(diags, 2, Severity.WARNING)
    assert "need 1 crew" in only(run("SEA 1 1 SH 2 N", no_crew=False), 2)  # the fleet stays
    diags = run("SEA 1 1 FO 1 SH 2 E")
    assert "never reaches the sea" in only(diags, 2)
    assert "reaches land at 2 1" in only(diags, 2, Severity.WARNING)
    assert [m for _, m in warnings(run("SEA 1 1 SH 2 N", no_crew=True))] == []


def test_troops_that_sailed_may_go_ashore_and_are_gone_from_the_start():
    # 3.2.1: a sea move and then a landing from where the fleet ended, in one turn
    assert run("SEA 1 1 FO 2 SH 2 N E E\nLAND 3 0 FO 2 S") == []
    diags = run("SEA 1 1 FO 2 SH 2 N\nLAND 1 1 FO 3 E")
    assert "only 1 Foot Soldiers at 1 1, not 3" in only(diags, 3, Severity.WARNING)


def test_sea_without_ships_fails():
    assert "no ships" in only(run("SEA 1 1 FO 1 N"), 2)


def test_land_then_sea_from_the_same_province_is_warned():
    diags = run("LAND 1 1 FO 1 E\nSEA 1 1 FO 1 SH 2 N")
    assert "cannot move by sea later" in only(diags, 3, Severity.WARNING)


# ---- DEF, ALL, CEDE, DON, BUILD, NAME -----------------------------------------------------

def test_def_items():
    diags = run("DEF 1 1 F 5 1 T 1 2 U 2 2 C")
    msgs = sorted(m for _, m in errors(diags))
    assert msgs == ["DEF 5 1: not your province",
                    "DEF covers at most 3 provinces; this one is ignored"]
    assert sorted(d.part for d in diags) == [2, 4]


def test_alliance_one_step_a_turn():
    diags = run("ALL 2 4\nALL 3 1\nALL 1 1\nALL 9 1\nALL 3 2")
    assert "status to player 2 is 2; it moves by one a turn, so 2 -> 3, not 4" \
        in only(diags, 2, Severity.WARNING)
    assert [d for d in diags if d.line == 3] == []
    assert "your own player number" in only(diags, 4)
    assert "no player 9" in only(diags, 5)
    # the second ALL for player 3 counts, and moves one step from the declared 0
    assert [d.kind for d in diags if d.line == 6] == [AMBIGUOUS, ILLEGAL]


def test_cede_needs_status_five_and_once_a_turn():
    st = fx.state()
    for a in st["alliances"]:
        if {a.tribe, a.other} == {1, 2}:
            a.status = a.declared = 5
    diags = run("CEDE 1 2 2\nCEDE 2 1 2", st=st)
    assert [d for d in diags if d.line == 2] == []
    assert "only one CEDE a turn" in only(diags, 3)
    assert "status 5 with player 2 (now 2)" in only(run("CEDE 1 2 2"), 2)
    assert "not your province" in only(run("CEDE 5 1 2", st=st), 2)


def test_donate_needs_status_two_both_ways_and_gold():
    assert run("DON 2 10") == []
    assert "status 2 or more both ways (you: 0, player 3: 0)" in only(run("DON 3 5"), 2)
    # donations come first in the turn: 10 of 20 gold leaves too little for horsemen
    diags = run("PLA 1 2 HO\nDON 2 10")
    assert "12 gold, 10 left" in only(diags, 2, Severity.WARNING)  # player 2 could give some
    diags = run("DON 2 15\nDON 2 10")
    assert "only 5 gold left to give, not 10" in only(diags, 3, Severity.WARNING)


def test_build_option_owner_and_cost():
    assert "not allowed in this game" in only(run("BUILD 1 1", build=False), 2)
    assert run("BUILD 1 1") == []
    assert "costs 12 gold; 8 left; carried out only if a donation arrives" \
        in only(run("BUILD 1 1\nBUILD 1 2"), 3, Severity.WARNING)
    st = fx.state()
    st.tables["alliances"] = []
    assert "costs 12 gold; 8 left" in only(run("BUILD 1 1\nBUILD 1 2", st=st), 3)
    assert "not your province" in only(run("BUILD 5 1"), 2)


def test_name_own_province_only():
    assert "not your province" in only(run("NAME 5 1 Susa"), 2)


def test_max_orders_option():
    diags = run("ALL 2 3\nNAME 1 1 A\nNAME 1 2 B", max_orders=2)
    assert "more than 2 orders" in only(diags, 4)


def test_unknown_or_dead_player():
    assert "not in this game" in run("ALL 2 1", faction=9)[0].message
    st = fx.state()
    st["tribes"][2].alive = False
    assert "has left the game" in run("ALL 1 1", faction=3, st=st)[0].message


@pytest.mark.parametrize("kind", [ILLEGAL])
def test_findings_are_illegal_kind(kind):
    diags = run("PLA 5 1 FO\nLAND 1 1 BO 3 E")
    assert {d.kind for d in diags} == {kind}


def test_custom_troop_list_is_read_with_the_games_names():
    from engine.rulesets.kok.catalogs import TROOPS
    from engine.tables import Catalog

    scen = fx.scenario()
    rows = [dict(r) for r in scen.catalogs["troops"].rows]
    for r in rows:
        if r["symbol"] == "F":
            r["name"] = "Legionaries"
    scen.catalogs["troops"] = Catalog(TROOPS, rows)
    st = fx.state()
    sheet = parse_orders("BEGIN\nLAND 1 1 LE 2 E\nPLA 1 2 LEGIONARY\nEND", "SP1.R4")
    assert sheet.orders[:1] == []   # the standard list knows no LE
    diags = check(sheet, st, 1, scen)
    assert [type(o).__name__ for o in sheet.orders] == ["LandMove", "Place"]
    assert sheet.orders[0].units == {"F": 2} and sheet.orders[1].items == [(fx.cell(1, 2), "F")]
    assert [d for d in diags if d.severity == Severity.ERROR] == []


_WORDS = ["PLA", "SEA", "LAND", "DEF", "ALL", "CEDE", "DON", "BUILD", "NAME", "AT", "FO", "HO",
          "SH", "CA", "GE", "BO", "N", "S", "E", "W", "T", "P", "C", "0", "1", "2", "3", "5",
          "7", "9", "40", "-1", "1/1", "x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=10).map(" ".join),
                max_size=8).map("\n".join), st.integers(1, 4))
def test_any_sheet_checks_without_raising(body, faction):
    st_ = fx.state()
    before = st_.to_json()
    sheet = parse_orders(f"BEGIN\n{body}\nEND")
    diags = check(sheet, st_, faction, fx.scenario())
    assert st_.to_json() == before
    assert all(d.line >= 0 and d.kind in (ILLEGAL, AMBIGUOUS, "invalid") for d in diags)


def test_findings_point_at_the_item_or_step():
    st_ = fx.state()
    sheet = parse_orders("BEGIN\n  PLA 1 2 BO 5 1 FO\nLAND 1 1 FO 1 E E E E\nDEF 1/1 F 5 1 T\nEND")
    found = {d.line: d.col for d in check(sheet, st_, 1, fx.scenario())}
    assert found == {2: 14, 3: 17, 4: 11}   # "5 1" (after the indent), step 2, "5 1"
