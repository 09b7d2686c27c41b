"""King of Kings order parser (rule book section 5): every order, abbreviations, bad lines."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.orders import AMBIGUOUS, ILLEGAL, INVALID, Severity
from engine.rulesets.kok.orders import bind, parse_orders, unparse, xy
from engine.rulesets.kok.orders_model import (
    Ally,
    Build,
    Cede,
    Defend,
    Donate,
    LandMove,
    Name,
    Place,
    SeaMove,
)

W = 40  # map width used to turn co-ordinates into cells


def sheet(body: str, **kw):
    return parse_orders(f"BEGIN\n{body}\nEND\n", "SP1.R1", width=W, **kw)


def one(body: str, **kw):
    s = sheet(body, **kw)
    assert len(s.orders) == 1, [d.format() for d in s.diagnostics]
    return s.orders[0], s


def c(x: int, y: int) -> int:
    return y * W + x


# ---- the rule book's examples ---------------------------------------------------------

def test_place_example_5_1():
    o, s = one("PLA 7 18 FOOT 8 18 CASTLE")
    assert o == Place(line=2, text="PLA 7 18 FOOT 8 18 CASTLE",
                      items=[(c(7, 18), "F"), (c(8, 18), "C")])
    assert s.diagnostics == []


def test_sea_example_5_2():
    o, _ = one("SEA 12 7 BOWMEN 3 SHIP 3 W W S W S W W N")
    assert isinstance(o, SeaMove)
    assert (o.cell, o.units, o.at) == (c(12, 7), {"B": 3, "S": 3}, False)
    assert o.route == list("WWSWSWWN")


def test_land_example_5_3_tactic_and_at():
    o, _ = one("LAND 8 18 T AT FOOT 1 E E")
    assert isinstance(o, LandMove)
    assert (o.cell, o.tactic, o.at, o.units, o.route) == (c(8, 18), "T", True, {"F": 1}, ["E", "E"])


def test_def_example_5_4():
    o, _ = one("DEF 10 18 C 11 18 C")
    assert o == Defend(line=2, text="DEF 10 18 C 11 18 C", items=[(c(10, 18), "C"), (c(11, 18), "C")])


def test_all_cede_donate_build_name():
    s = sheet('ALL 5 0\nCEDE 5 0 3\nDON 1 35\nDONATE 2 10\nBUILD 3 4\nNAME 3 4 "New Troy"')
    kinds = [(type(o), o.line) for o in s.orders]
    assert kinds == [(Ally, 2), (Cede, 3), (Donate, 4), (Donate, 5), (Build, 6), (Name, 7)]
    ally, cede, don, don2, build, name = s.orders
    assert (ally.other, ally.status) == (5, 0)
    assert (cede.cell, cede.other) == (c(5, 0), 3)
    assert (don.other, don.gold, don2.other, don2.gold) == (1, 35, 2, 10)
    assert build.cell == c(3, 4)
    assert (name.cell, name.name) == (c(3, 4), "New Troy")
    assert s.diagnostics == []


def test_section_9_3_sheet_reads_without_errors():
    text = """BEGIN
SEA 31 18 ho 3 bo 1 fo 1 sh 9 e e e e e n n e e
SEA 31 18 ho 1 sh 2 e e e e e n n e e n
PLA 14 12 bo 13 12 bo 12 12 ho
LAND 13 8 u at sh 2 n
LAND 12 7 u at e
LAND 37 15 ho 1 n
LAND 39 15 ho 3 bo 1 fo 1 sh 9 s
PLA 12 9 ho 31 18 ca 2 14 ho
SEA 13 14 bo 1 fo 1 sh 2 s s e s s e e e
DEF 14 12 u 12 9 c
END"""
    s = parse_orders(text, width=W)
    assert s.diagnostics == []
    assert len(s.orders) == 10
    sea = s.orders[0]
    assert sea.units == {"H": 3, "B": 1, "F": 1, "S": 9} and len(sea.route) == 9
    at_only = s.orders[4]
    assert (at_only.tactic, at_only.at, at_only.units, at_only.route) == ("U", True, {}, ["E"])
    assert s.orders[7].items == [(c(12, 9), "H"), (c(31, 18), "C"), (c(2, 14), "H")]


# ---- abbreviations ----------------------------------------------------------------------

def test_types_by_two_letters_full_names_and_plurals():
    o, s = one("LAND 1 1 fo 2 BO 3 HORSE 1 ca 1 GENERALS 1 ships 4 n")
    assert o.units == {"F": 2, "B": 3, "H": 1, "C": 1, "G": 1, "S": 4}
    assert s.diagnostics == []


def test_multi_word_name_foot_soldiers():
    o, s = one("LAND 1 1 Foot Soldiers 2 E")
    assert o.units == {"F": 2} and o.route == ["E"] and s.diagnostics == []


def test_omitted_amount_is_one():
    o, _ = one("LAND 2 2 HO BO 2 FO N")
    assert o.units == {"H": 1, "B": 2, "F": 1}


def test_directions_by_first_letter_and_full_words():
    o, s = one("SEA 5 5 SH 1 north South EAST w")
    assert o.route == ["N", "S", "E", "W"] and s.diagnostics == []


def test_tactic_full_word_and_case():
    o, _ = one("land 4 4 counter at e")
    assert o.tactic == "C" and o.at
    o, _ = one("LAND 4 4 standard HO 1 E")
    assert o.tactic == "T"


def test_keyword_abbreviations_and_case():
    s = sheet("pla 1 1 fo\nPlace 2 2 ho\nDEFEND 1 1 f\nally 2 1\nla 1 1 fo e")
    assert [type(o) for o in s.orders] == [Place, Place, Defend, Ally, LandMove]


def test_coordinates_written_as_pairs():
    o, _ = one("DEF 7/18 F 8,18 P")
    assert o.items == [(c(7, 18), "F"), (c(8, 18), "P")]


def test_at_alone_and_at_with_ship():
    o, _ = one("SEA 3 3 AT SH 2 E E")
    assert o.at and o.units == {"S": 2}


def test_custom_troop_list():
    troops = [("Legionary", "L"), ("Archer", "A"), ("Trireme", "T"), ("Cataphract", "K")]
    o, s = one("LAND 1 1 le 3 ar 2 CATA 1 tr 1 e", troops=troops)
    assert o.units == {"L": 3, "A": 2, "K": 1, "T": 1}
    assert s.diagnostics == []


# ---- bad lines --------------------------------------------------------------------------

def test_unknown_order_gets_a_suggestion():
    s = sheet("LANF 1 1 FO E")
    assert s.orders == []
    (d,) = s.diagnostics
    assert (d.kind, d.line, d.col, d.severity) == (INVALID, 2, 1, Severity.ERROR)
    assert "did you mean LAND?" in d.message
    assert d.file == "SP1.R1"


def test_bad_lines_do_not_stop_the_sheet():
    s = sheet("PLA 1 x FO\nLAND 1 1 FO\nLAND 1 1 E\nDEF 1 1 Q\nALL 3 7\nDON 2 -5\nPLA 2 2 FO")
    assert [type(o) for o in s.orders] == [Place]
    lines = sorted({d.line for d in s.errors})
    assert lines == [2, 3, 4, 5, 6, 7]
    assert all(d.kind == INVALID for d in s.errors)
    msgs = " | ".join(d.message for d in s.errors)
    assert "no route" in msgs and "names no troops" in msgs and "0 to 5" in msgs


def test_error_column_points_at_the_word():
    s = sheet("LAND 3 3 FO 2 E XX")
    (d,) = s.errors
    assert d.col == 17 and "XX" in d.message


def test_single_letter_troop_gets_a_hint():
    s = sheet("LAND 3 3 H 2 E")
    (d,) = s.errors
    assert "write HO" in d.message


def test_amount_before_type_is_ambiguous_but_read():
    o, s = one("LAND 3 3 2 HO E")
    assert o.units == {"H": 2}
    assert [d.kind for d in s.warnings] == [AMBIGUOUS]


def test_guessed_words_are_ambiguous_warnings():
    o, s = one("LAND 1 1 FOOL 2 EEN")
    assert o.units == {"F": 2} and o.route == ["E"]
    assert [d.kind for d in s.warnings] == [AMBIGUOUS, AMBIGUOUS]


def test_four_placements_are_read_the_checker_applies_the_limit():
    o, s = one("PLA 1 1 FO 2 2 FO 3 3 FO 4 4 FO")
    assert len(o.items) == 4 and s.errors == []


def test_place_amount_after_type():
    o, s = one("PLA 7 18 SH 2 8 18 FO")
    assert o.items == [(c(7, 18), "S"), (c(7, 18), "S"), (c(8, 18), "F")]
    assert [d.kind for d in s.warnings] == [AMBIGUOUS]


def test_huge_amount_does_not_blow_up():
    o, s = one("PLA 1 1 FO 999999999999")
    assert len(o.items) == 24 and s.errors[0].kind == ILLEGAL


def test_sea_takes_no_tactic():
    s = sheet("SEA 1 1 T SH 1 E")
    assert s.orders == [] and "no tactic" in s.errors[0].message


def test_troop_after_route_is_invalid():
    s = sheet("LAND 1 1 E FO 1")
    assert s.orders == [] and "after the route" in s.errors[0].message


def test_extra_words_warn():
    o, s = one("ALL 2 1 please")
    assert isinstance(o, Ally) and s.warnings[0].message.startswith("extra words")


def test_name_keeps_case_and_spaces_and_quotes():
    s = sheet('NAME 1 1 Castle   Rock\nNAME 2 2 "Fort #1"\nNAME 3 3\nNAME 4 4 "open')
    names = [o.name for o in s.orders]
    assert names == ["Castle Rock", "Fort #1", "open"]
    assert any(d.line == 4 for d in s.errors)
    assert any("closing quote" in d.message for d in s.warnings)


# ---- BEGIN / END ------------------------------------------------------------------------

def test_text_outside_begin_end_is_ignored_with_warnings():
    s = parse_orders("Dear GM,\nhere are my orders\nBEGIN\nALL 2 1\nEND\n-- \nsig\n", width=W)
    assert len(s.orders) == 1
    msgs = [(d.line, d.message) for d in s.warnings]
    assert msgs == [(1, "text before BEGIN ignored (lines 1-2)"),
                    (6, "text after END ignored (lines 6-7)")]


def test_missing_end_is_a_warning():
    s = parse_orders("BEGIN\nALL 2 1\n", width=W)
    assert len(s.orders) == 1 and s.errors == []
    assert "no END" in s.warnings[0].message


def test_missing_begin_reads_everything_with_a_warning():
    s = parse_orders("ALL 2 1\r\nDON 2 5\r\n", width=W)
    assert len(s.orders) == 2 and "no BEGIN" in s.warnings[0].message


def test_comments_bom_and_crlf():
    s = parse_orders("\ufeffBEGIN\r\n# my plan\r\nALL 2 1 ; raise\r\nEND\r\n", width=W)
    assert len(s.orders) == 1 and s.diagnostics == []


def test_empty_text():
    s = parse_orders("", width=W)
    assert s.orders == [] and s.errors == [] and s.warnings


# ---- cells ------------------------------------------------------------------------------

def test_bind_re_encodes_cells_for_the_map():
    s = parse_orders("BEGIN\nPLA 7 18 FO\nLAND 3 2 FO E\nNAME 99 1 far\nEND")
    bind(s, 30)
    assert s.orders[0].items == [(18 * 30 + 7, "F")]
    assert s.orders[1].cell == 2 * 30 + 3
    assert s.orders[2].cell < 0 and xy(s.orders[2].cell, 30) == (99, 1)
    bind(s, 30)  # idempotent
    assert s.orders[1].cell == 63


def test_unparse_round_trips():
    text = ("PLA 7 18 FO 8 18 CA\nSEA 12 7 BO 3 SH 3 W W S\nLAND 8 18 T AT FO 1 E E\n"
            "DEF 10 18 C\nALL 5 0\nCEDE 5 0 3\nDON 1 35\nBUILD 3 4\nNAME 3 4 \"New Troy\"")
    s = sheet(text)
    again = sheet("\n".join(unparse(o, W) for o in s.orders))
    assert [(type(a), {k: v for k, v in vars(a).items() if k not in ("text",)})
            for a in s.orders] == [(type(b), {k: v for k, v in vars(b).items() if k != "text"})
                                   for b in again.orders]


# ---- property: no input makes the parser raise ------------------------------------------

_words = st.sampled_from(["BEGIN", "END", "PLA", "SEA", "LAND", "DEF", "ALL", "CEDE", "DON",
                          "BUILD", "NAME", "AT", "FO", "SH", "n", "e", "T", "C", "7", "-3",
                          "7/18", '"', '"x y"', "#", ";", "_", "999999999999999999999"])


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_random_text_never_raises(text):
    s = parse_orders(text)
    assert not any(d.message.startswith("internal error") for d in s.diagnostics)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_words, max_size=12).map(" ".join), max_size=8).map("\n".join))
def test_order_like_text_never_raises(text):
    s = parse_orders(text, width=20)
    assert not any(d.message.startswith("internal error") for d in s.diagnostics)
    for d in s.diagnostics:
        assert d.kind in (INVALID, ILLEGAL, AMBIGUOUS)
