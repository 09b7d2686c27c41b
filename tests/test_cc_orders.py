"""Continental Conquest orders: every convoy and clan order of the book read from its printed
examples, the book's sample sheet blocks, diagnostics with line numbers, a reader that never
raises, and the sheet template read back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.orders import AMBIGUOUS, INVALID, Severity
from engine.rulesets.cc import RULESET
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import default_catalogs
from engine.rulesets.cc.orders_sheet import parse


def convoy(line: str):
    sheet = parse(f"CONVOY #2\n1: {line}\n")
    assert not sheet.errors, [d.format() for d in sheet.diagnostics]
    assert len(sheet.orders) == 1
    order = sheet.orders[0]
    assert (order.section, order.convoy, order.slot, order.line) == ("convoy", 2, 1, 2)
    return order


def clan(line: str):
    sheet = parse(f"POST-TURN CLAN ORDERS\n3: {line}\n")
    assert not sheet.errors, [d.format() for d in sheet.diagnostics]
    assert len(sheet.orders) == 1
    order = sheet.orders[0]
    assert (order.section, order.slot, order.line) == ("post", 3, 2)
    return order


# ---- the 27 convoy orders, from the book's formats and examples ------------------------------

CONVOY = [
    ("NW", o.Move, {"keyword": "MOVE", "direction": "NW"}),
    ("NORTHEAST", o.Move, {"direction": "NE"}),
    ("s", o.Move, {"direction": "S"}),
    ("5034", o.Move, {"hex": "5034", "direction": ""}),
    ("PAUSE", o.ConvoyOrder, {"keyword": "PAUSE"}),
    ("PA", o.ConvoyOrder, {"keyword": "PAUSE"}),
    ("ATTACK 50", o.ConvoyOrder, {"keyword": "ATTACK", "amount": 50}),
    ("AT", o.ConvoyOrder, {"keyword": "ATTACK", "amount": None}),
    ("BOMB BUILDINGS", o.ConvoyOrder, {"keyword": "BOMB", "word": "B"}),
    ("BO S", o.ConvoyOrder, {"keyword": "BOMB", "word": "S"}),
    ("BOMB", o.ConvoyOrder, {"keyword": "BOMB", "word": ""}),
    ("LOOT", o.ConvoyOrder, {"keyword": "LOOT"}),
    ("FISH", o.ConvoyOrder, {"keyword": "FISH"}),
    ("HIRE", o.ConvoyOrder, {"keyword": "HIRE", "word": ""}),
    ("HIRE ENGINEER", o.ConvoyOrder, {"keyword": "HIRE", "word": "ENG"}),
    ("HI ENG", o.ConvoyOrder, {"keyword": "HIRE", "word": "ENG"}),
    ("CELEBRATE", o.ConvoyOrder, {"keyword": "CELEBRATE"}),
    ("CELEBR.", o.ConvoyOrder, {"keyword": "CELEBRATE"}),
    ("PRACTICE", o.ConvoyOrder, {"keyword": "PRACTICE"}),
    ("PICKUP", o.ConvoyOrder, {"keyword": "PICKUP"}),
    ("DROPOFF", o.ConvoyOrder, {"keyword": "DROPOFF"}),
    ("DUMP", o.ConvoyOrder, {"keyword": "DUMP"}),
    ("GUARD", o.ConvoyOrder, {"keyword": "GUARD"}),
    ("PATROL", o.ConvoyOrder, {"keyword": "PATROL"}),
    ("PT", o.ConvoyOrder, {"keyword": "PATROL"}),
    ("HUNT", o.ConvoyOrder, {"keyword": "HUNT"}),
    ("RECON", o.ConvoyOrder, {"keyword": "RECON"}),
    ("CAPTURE", o.ConvoyOrder, {"keyword": "CAPTURE"}),
    ("EMPTY", o.ConvoyOrder, {"keyword": "EMPTY"}),
    ("RAZE", o.ConvoyOrder, {"keyword": "RAZE"}),
    ("CURE", o.ConvoyOrder, {"keyword": "CURE"}),
    ("AID ON", o.ConvoyOrder, {"keyword": "AID", "word": "ON"}),
    ("AI OFF", o.ConvoyOrder, {"keyword": "AID", "word": "OFF"}),
    ("KILL MODE N", o.ConvoyOrder, {"keyword": "KILL MODE", "word": "N"}),
    ("KM V", o.ConvoyOrder, {"keyword": "KILL MODE", "word": "V"}),
    ("SCAN", o.ConvoyOrder, {"keyword": "SCAN"}),
    ("PLANT", o.ConvoyOrder, {"keyword": "PLANT"}),
    ("SPY", o.ConvoyOrder, {"keyword": "PLANT"}),                  # the book's printed format (X73)
    ("ABSORB 3", o.ConvoyOrder, {"keyword": "ABSORB", "amount": 3}),
    ("AB #3", o.ConvoyOrder, {"keyword": "ABSORB", "amount": 3}),
    ("SPLIT", o.ConvoyOrder, {"keyword": "SPLIT"}),
    ("PAVE NW", o.ConvoyOrder, {"keyword": "PAVE", "word": "NW"}),
    ("PV SOUTHEAST", o.ConvoyOrder, {"keyword": "PAVE", "word": "SE"}),
]


def test_every_convoy_order_and_code_of_the_book_is_read():
    """All 27 rows of the convoy orders chart, by keyword and by two-letter code."""
    seen = {"MOVE"}
    for row in default_catalogs()["convoy_orders"]:
        if row["keyword"] == "MOVE":
            continue
        args = {"ABSORB": " 2", "AID": " ON", "KILL MODE": " T", "PAVE": " N"}.get(row["keyword"], "")
        for word in (row["keyword"], row["code"]):
            order = convoy(word + args)
            assert order.keyword == row["keyword"]
        seen.add(row["keyword"])
    assert len(seen) == 27


# ---- the 26 clan orders ------------------------------------------------------------------------

CLAN = [
    ('CREATE 1505 LAND "Light Brigade"', o.Create, {"hex": "1505", "type": "land", "name": "Light Brigade"}),
    ("CR 1505 AMPHIB", o.Create, {"type": "amphibious", "name": ""}),
    ("BUY 2 BIKES #1", o.Buy, {"quantity": 2, "vehicle": "bike", "convoy": 1, "item": ""}),
    ("BUY 1 PIPER CUB #4", o.Buy, {"vehicle": "piper_cub", "convoy": 4}),
    ("BUY 500 FUEL", o.Buy, {"quantity": 500, "item": "fuel", "convoy": None}),
    ("BU 10 CLAYMORES", o.Buy, {"item": "claymores"}),
    ("ENLIST 20", o.Enlist, {"quantity": 20}),
    ("ASSIGN 4551 50 5", o.Assign, {"hex": "4551", "troops": 50, "claymores": 5, "fortify": False}),
    ("ASSIGN 4551 -50 -5", o.Assign, {"troops": -50, "claymores": -5}),
    ("FORTIFY 3219 10 2", o.Assign, {"hex": "3219", "troops": 10, "claymores": 2, "fortify": True}),
    ("FO 3219", o.Assign, {"troops": 0, "fortify": True}),
    ("ERECT 2914 AIR ARM STO", o.Erect, {"hex": "2914", "buildings": ["AIR", "ARM", "STO"]}),
    ("ER 2914 AIRPORT STOCKYARD", o.Erect, {"buildings": ["AIR", "STO"]}),
    ("DEFEND 0415", o.Defend, {"troops": None, "hexes": ["0415"], "raise_level": True}),
    ("DEFEND 0416 0615 12** ****", o.Defend, {"hexes": ["0416", "0615", "12**", "****"]}),
    ("DEFEND 10 0417 **14", o.Defend, {"troops": 10, "hexes": ["0417", "**14"]}),
    ("GARRISON 10 0417 **14", o.Defend, {"troops": 10, "hexes": ["0417", "**14"], "raise_level": False}),
    ("GR -5 0417", o.Defend, {"troops": -5, "raise_level": False}),
    ("SELL 1 BIKE #2", o.Sell, {"quantity": 1, "vehicle": "bike", "convoy": 2}),
    ("SELL 10 FOOD", o.Sell, {"quantity": 10, "item": "food"}),
    ("SELL CONVOY #1", o.Sell, {"whole_convoy": True, "convoy": 1}),
    ("GIVE 3 CARS #3 #1", o.Give, {"quantity": 3, "vehicle": "car", "giver": 3, "receiver": 1}),
    ("GIVE 40 TROOPS 2 5", o.Give, {"quantity": 40, "item": "troops", "giver": 2, "receiver": 5}),
    ("GIVE GUNNER 2 5", o.Give, {"expert": "GUN", "quantity": 1}),
    ("GIVE ALL EXPERTS 2 5", o.Give, {"all_experts": True, "giver": 2, "receiver": 5}),
    ("BUILD 1711 FARM", o.Build, {"hex": "1711", "structure": "farm"}),
    ("TRAIN 3", o.Train, {"quantity": 3}),
    ("VI 50", o.Vigilance, {"percent": 50}),
    ("ES 455 CITIES HEXES", o.Espionage, {"clan": 455, "keywords": ["CITIES", "HEXES"]}),
    ("ESPIONAGE 405 OWNER INCOME ENEMIES", o.Espionage, {"keywords": ["OWNER", "INCOME", "ENEMIES"]}),
    ("CONVERT 3 AMPHIB", o.Convert, {"convoy": 3, "type": "amphibious"}),
    ("SABOTAGE 1432", o.HexOrder, {"keyword": "SABOTAGE", "hex": "1432"}),
    ("GAMBLE 1424", o.HexOrder, {"keyword": "GAMBLE", "hex": "1424"}),
    ("ORDER 4 6", o.BuyLines, {"pre": 4, "post": 6}),
    ("EVENT", o.Event, {"keyword": "EVENT"}),
    ("ALLY 392", o.Toward, {"keyword": "ALLY", "clan": 392}),
    ("BAN 133", o.Toward, {"keyword": "BAN", "clan": 133, "all": False}),
    ("BAN ALL", o.Toward, {"all": True}),
    ('MESSAGE ALL "Get off my continent or die!"', o.Message,
     {"to_all": True, "message": "Get off my continent or die!", "signed": False}),
    ('ME 588 "hello"', o.Message, {"to_clan": 588}),
    ('BROADCAST 0825 "Limerick is ours"', o.Message, {"to_hex": "0825", "signed": True}),
    ('NAME "Jury Riggers"', o.Name, {"convoy": None, "name": "Jury Riggers"}),
    ('NAME #3 "Rolling Thunder"', o.Name, {"convoy": 3, "name": "Rolling Thunder"}),
    ("PHONE ON (513)555-3902", o.Phone, {"on": True, "number": "(513)555-3902"}),
    ("PHONE OFF", o.Phone, {"on": False}),
    ('SLOGAN "We are prepared to die. Are you?"', o.Slogan, {"slogan": "We are prepared to die. Are you?"}),
]


EXAMPLES = [(convoy, *c) for c in CONVOY] + [(clan, *c) for c in CLAN]


@pytest.mark.parametrize("read,line,cls,fields", EXAMPLES, ids=[f"{e[0].__name__}: {e[1]}" for e in EXAMPLES])
def test_each_order_as_the_book_writes_it(read, line, cls, fields):
    order = read(line)
    assert type(order) is cls
    for k, v in fields.items():
        assert getattr(order, k) == v, k


def test_every_clan_order_code_of_the_book_is_read():
    examples = {c[0].split()[0]: c[0] for c in CLAN}
    for row in default_catalogs()["clan_orders"]:
        line = next(v for k, v in examples.items() if k in (row["keyword"], row["code"]))
        args = line.split(" ", 1)[1] if " " in line else ""
        for word in (row["keyword"], row["code"]):
            assert clan(f"{word} {args}").keyword == row["keyword"]


# ---- the book's sample sheet blocks --------------------------------------------------------------

BOOK_SAMPLE = """\
CLAN 122  ACCOUNT 48213  TURN 5
-------------------------------- PRE-TURN MISCELLANEOUS ORDERS --------------------------------
Money: $43,038 Food: 7883 Fuel: 5181 Parts: 2168 Vaccine: 753
Troops: 186 Rifles: 0 Grenades: 0 Rockets: 0 Claymores: 0 Bombs: 0
1: BUY 500 FUEL
2: ________ ________ ________ ________ ________ ________________________________________
3:
4: ENLIST 20
5: ________ ________ ________ ________ ________ ________________________________________
ORDERS FOR LAND CONVOY #1 (Robin's Hood #1) IN HEX 1525 [CAPTURE]:
Vehicles: 4 trucks, 1 bus, 3 vans, 9 cars, 6 bikes
Troops: 172 of 172 Rifles: 6 of 6 Grenades: 17 of 17 Rockets: 4 of 4
Combat Strength: 748 Morale: 95 Training: 100 Health: 100
Fuel Cost: 56 Kill: N Cargo: 0 (max 81)
Experts: Gunner, Merchant, Chemist, Politician, Armsmaster, Trainer
Convoy Orders:
1: NW
2: ______
3: NORTHWEST
4: ATTACK
5: ______
6: ______
7: ______
8: ______
9: ______
10: ______
"""


def test_the_books_sample_blocks_read_as_orders_and_blank_lines():
    sheet = parse(BOOK_SAMPLE, "sample.txt")
    assert sheet.diagnostics == []
    assert sheet.header == {"clan": 122, "clan_line": 1, "account": "48213", "account_line": 1,
                            "turn": 5, "turn_line": 1}
    got = [(x.section, getattr(x, "convoy", None), x.slot, x.line, x.keyword) for x in sheet.orders]
    assert got == [("pre", None, 1, 5, "BUY"), ("pre", None, 4, 8, "ENLIST"),
                   ("convoy", 1, 1, 17, "MOVE"), ("convoy", 1, 3, 19, "MOVE"),
                   ("convoy", 1, 4, 20, "ATTACK")]


# ---- diagnostics --------------------------------------------------------------------------------

def test_diagnostics_name_the_line_and_what_is_wrong():
    text = ("CONVOY #1\n1: FOO\n2: BUY 3 FUEL\n3: 12\n1: N\nPRE-TURN\n1: NW\n2: BUY 3 TROOPS\n"
            "3: ASSIGN 45x1 5\n4: ERECT 2914 AIR ARM STO BAT CHU HEL HOS\n5: GARRISON 0417\n"
            '6: MESSAGE ALL "a > b"\n7: CREATE 1505 BOAT\n8: KILL MODE X\n')
    sheet = parse(text, "o.txt")
    found = {(d.line, d.kind, d.severity) for d in sheet.diagnostics}
    messages = {d.line: d.message for d in sheet.diagnostics}
    assert (2, INVALID, Severity.ERROR) in found and "unknown convoy order 'FOO'" in messages[2]
    assert "BUY is a clan order" in messages[3]
    assert "not a hex" in messages[4]
    assert "written twice" in messages[5]
    assert "NW is a convoy order" in messages[7]
    assert "ENLIST" in messages[8]
    assert "not a hex" in messages[9]
    assert "at most 6 buildings" in messages[10]
    assert "troops first" in messages[11]
    assert "'>'" in messages[12]
    assert "convoy type" in messages[13]
    assert "unknown clan order 'KILL'" in messages[14]
    assert all(d.file == "o.txt" and d.text for d in sheet.diagnostics)
    erect = [x for x in sheet.orders if isinstance(x, o.Erect)]
    assert erect and erect[0].buildings == ["AIR", "ARM", "STO", "BAT", "CHU", "HEL"]


def test_ambiguous_readings_are_warnings_that_say_what_was_chosen():
    sheet = parse('BUY 5 FOOD\nPRE-TURN\n2: NAME #2 Rolling Thunder\n3: SLOGAN "unclosed\n')
    kinds = {(d.line, d.kind, d.severity) for d in sheet.diagnostics}
    assert kinds == {(1, AMBIGUOUS, Severity.WARNING), (3, AMBIGUOUS, Severity.WARNING),
                     (4, AMBIGUOUS, Severity.WARNING)}
    assert [x.keyword for x in sheet.orders] == ["BUY", "NAME", "SLOGAN"]
    assert sheet.orders[1].name == "Rolling Thunder" and sheet.orders[2].slogan == "unclosed"


def test_see_below_takes_the_texts_of_the_below_block_in_order():
    sheet = parse("POST-TURN\n1: MESSAGE ALL SEE BELOW\n2: SLOGAN see below\n3: ME 122 SEE BELOW\n"
                  'BELOW\n"Get off my continent or die!"\n\nWe are prepared to die.\n')
    assert [getattr(x, "message", None) or getattr(x, "slogan", None) for x in sheet.orders] == [
        "Get off my continent or die!", "We are prepared to die."]
    assert [d.line for d in sheet.errors] == [4]


def test_agents_block_and_comments_with_semicolons():
    sheet = parse("AGENTS\n1: 0825 ; Limerick\n2: 1125\nAGENT 4 5034\n")
    assert [(x.agent, x.hex) for x in sheet.orders] == [(1, "0825"), (2, "1125"), (4, "5034")]
    assert sheet.diagnostics == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_the_reader_never_raises(text):
    sheet = parse(text, "x")
    assert all(d.line >= 0 for d in sheet.diagnostics)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["CONVOY #1", "PRE-TURN", "POST-TURN", "AGENTS", "BELOW", "1:", "2: NW",
                                 "BUY", "BUY 3", "GIVE ALL", "DE 1 ****", 'ME ALL "x', "KM", "12: 0825",
                                 "SEE BELOW", "NAME #", "#", "PHONE ON", "ES 1", "\ufeff", '"', "*"]),
                max_size=30).map("\n".join))
def test_the_reader_never_raises_on_sheet_like_text(text):
    parse(text)


# ---- the ruleset's face ------------------------------------------------------------------------

def test_unregistered_but_reads_orders_through_the_ruleset():
    sheet = RULESET.parse_orders(BOOK_SAMPLE, "s")
    assert len(sheet.orders) == 5 and not sheet.errors
    assert "ATTACK" in RULESET.order_keywords() and "NW" in RULESET.order_keywords()


def test_defend_and_garrison_take_six_hexes_at_most():
    sheet = parse("PRE-TURN\n1: GARRISON 5 0101 0102 0103 0104 0105 0106 0107\n2: DE 0101 **** 0102 0103 0104 0105 01*7\n")
    assert [len(x.hexes) for x in sheet.orders] == [6, 6]
    assert [(d.line, d.kind) for d in sheet.errors] == [(2, INVALID), (3, INVALID)]
    assert "0107 ignored" in sheet.errors[0].message


# ---- words written below the order line (the book's sheet layout; X220, X221) ---------------

def test_a_convoy_orders_parameter_written_below_its_line():
    sheet = parse("CONVOY #1\n 1: NW\n 2: HIRE\n    ENGINEER\n 3: PAVE\n    NE\n 4: N\n")
    assert not sheet.diagnostics, [d.format() for d in sheet.diagnostics]
    got = [(x.slot, x.keyword, x.word, x.line) for x in sheet.orders]
    assert got == [(1, "MOVE", "", 2), (2, "HIRE", "ENG", 3), (3, "PAVE", "NE", 5), (4, "MOVE", "", 7)]
    assert sheet.orders[1].text == "2: HIRE ENGINEER"


def test_a_parameter_on_the_next_numbered_line_is_taken_and_that_pulse_stays_empty():
    sheet = parse("CONVOY #1\n 1: BOMB\n 2: T\n 3: N\nNE\n")
    assert not sheet.errors
    got = [(x.slot, x.keyword, x.word or getattr(x, "direction", "")) for x in sheet.orders]
    assert got == [(1, "BOMB", "T"), (3, "MOVE", "N"), (4, "MOVE", "NE")]
    (warn,) = sheet.diagnostics
    assert (warn.line, warn.kind, warn.severity) == (3, AMBIGUOUS, Severity.WARNING)
    assert "order on line 2" in warn.message and "line 2 of convoy #1 stays empty" in warn.message


def test_a_line_that_reads_both_ways_is_its_own_order_and_says_so():
    sheet = parse("CONVOY #1\n 1: BOMB\n    S\n")  # SCOURGE below BOMB, or a move south?
    assert [(x.slot, x.keyword) for x in sheet.orders] == [(1, "BOMB"), (2, "MOVE")]
    (warn,) = sheet.diagnostics
    assert warn.line == 3 and warn.kind == AMBIGUOUS and "'S' could be more words" in warn.message


def test_a_clan_order_written_one_word_a_line_as_the_sheets_boxes():
    sheet = parse('PRE-TURN\n 1: CREATE\n    1505\n    LAND\n    "Light Brigade"\n 2: ENLIST 5\n')
    assert not sheet.diagnostics, [d.format() for d in sheet.diagnostics]
    cr, en = sheet.orders
    assert (type(cr), cr.hex, cr.type, cr.name, cr.slot, cr.line) == (o.Create, "1505", "land",
                                                                       "Light Brigade", 1, 2)
    assert (type(en), en.quantity, en.slot) == (o.Enlist, 5, 2)


def test_the_words_that_do_not_fit_go_on_the_long_line_below():
    sheet = parse("POST-TURN\n1: ERECT 2914 AIR ARM STO BAR\n   HOS RAD\n2: SLOGAN\n   SEE BELOW\n"
                  'BELOW\n"We rebuild"\n')
    assert not sheet.diagnostics, [d.format() for d in sheet.diagnostics]
    erect, slogan = sheet.orders
    assert erect.buildings == ["AIR", "ARM", "STO", "BAR", "HOS", "RAD"] and erect.slot == 1
    assert (slogan.slogan, slogan.slot) == ("We rebuild", 2)


def test_lines_that_complete_nothing_are_read_alone_with_their_own_line_numbers():
    # orders one a line without numbers stay apart
    sheet = parse("PRE-TURN\nBUY 500 FUEL\nENLIST 50\n")
    assert not sheet.diagnostics and [x.slot for x in sheet.orders] == [1, 2]
    # an incomplete order whose lines below do not complete it: every line says what is wrong
    sheet = parse("PRE-TURN\n1: CREATE\n   1505\n   XYZZY\n")
    assert sorted({d.line for d in sheet.errors}) == [2, 3, 4], [d.format() for d in sheet.diagnostics]
    assert not sheet.orders
    # a misspelt order after a complete one is not swallowed as its extra words
    sheet = parse("PRE-TURN\n1: BUY 500 FUEL\n   ENLSIT 50\n")
    assert [d.line for d in sheet.errors] == [3] and "ENLSIT" in sheet.errors[0].message
    # a blank line ends an order: the word below it is not its parameter
    sheet = parse("CONVOY #1\n1: HIRE\n\nENGINEER\n")
    assert sheet.orders[0].word == "" and [d.line for d in sheet.errors] == [4]
