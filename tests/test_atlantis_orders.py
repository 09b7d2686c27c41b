"""Atlantis orders: the syntax cases (tests/cases/atlantis/orders/*.toml), the parser's
never-raise property, identify, the state checker and `realmsmith check --ruleset`."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.orders import Severity
from engine.ruleset import Submission
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis.parser import parse_orders

CASES = Path(__file__).parent / "cases" / "atlantis" / "orders"
RS = registry.get("atlantis")


def _cases():
    for path in sorted(CASES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data["case"]):
            yield pytest.param(case, id=f"{path.stem}-{i + 1}")


def _plain(v):
    if isinstance(v, o.UnitRef):
        return str(v)
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def as_dict(order: o.AtlantisOrder) -> dict:
    d = {f.name: _plain(getattr(order, f.name)) for f in dataclasses.fields(order)}
    d["verb"] = o.verb(order)
    return d


@pytest.mark.parametrize("case", list(_cases()))
def test_orders_case(case):
    sheet = parse_orders(case["text"].lstrip("\n"), "case.txt")
    got = [as_dict(x) for x in sheet.orders]
    for want in case.get("orders", []):
        assert any(all(g.get(k) == v for k, v in want.items()) for g in got), \
            f"no order matches {want}\n got: {got}\n diagnostics: {sheet.diagnostics}"
    if "count" in case:
        assert len(got) == case["count"], got
    diags = sheet.diagnostics
    for want in case.get("diagnostics", []):
        assert any(d.line == want.get("line", d.line) and d.kind == want.get("kind", d.kind)
                   and d.severity.value == want.get("severity", d.severity.value)
                   and want.get("says", "") in d.message for d in diags), \
            f"no diagnostic matches {want}\n got: {[(d.line, d.kind, d.message) for d in diags]}"
    if case.get("clean"):
        assert diags == [], [d.format() for d in diags]


def test_every_book_order_has_a_case():
    text = " ".join(p.read_text(encoding="utf-8") for p in CASES.glob("*.toml"))
    missing = [k for k in o.BOOK_ORDERS if f'verb = "{k}"' not in text]
    assert len(o.BOOK_ORDERS) == 43 and missing == []


def test_month_long_orders_are_the_books_nine():
    assert o.MONTH_LONG == {"ADVANCE", "BUILD", "ENTERTAIN", "MOVE", "PRODUCE", "SAIL",
                            "STUDY", "TEACH", "WORK"}


LINES = st.sampled_from([
    "#atlantis 3 \"pw\"", "#atlantis", "#end", "unit 1", "unit", "FORM 1", "END", "@", "@WORK",
    "MOVE N NE IN 3", "GIVE NEW 1 5 silver", "GIVE FACTION 2 NEW", "CAST TELEPORT 5 UNITS",
    "BUY", "STUDY \"horse", "SHOW SKILL", "DECLARE DEFAULT", "NAME UNIT (x)", "; c", "\"",
    "TEACH NEW", "NAME", "OPTION TEMPLATE", "CAST", "COMBAT", "GIVE 0 UNIT", "\x00", "unit -1",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(LINES, st.text(max_size=40)), max_size=25))
def test_parser_never_raises(lines):
    sheet = parse_orders("\n".join(lines), "fuzz")
    assert isinstance(sheet.orders, list)
    for d in sheet.diagnostics:
        assert d.line >= 0 and d.message
        assert not d.message.startswith("this line could not be read"), d.message


def test_identify_reads_the_header():
    sub = Submission('Hi GM\n#ATLANTIS 27 "xyzzy"\nunit 5\nwork\n#end\n#atlantis 28\n#end\n')
    m = RS.identify(sub, None)
    assert (m.faction, m.password, m.step) == (27, "xyzzy", None)
    assert "faction(s) 28" in m.reason
    assert RS.identify(Submission("unit 5\nwork\n"), None).faction is None
    assert RS.identify(Submission("#atlantis 4 my_pw\n"), None).password == "my_pw"
    assert RS.identify(Submission("#atlantis 4\n"), None).password == ""


# ---- checking against a game state -----------------------------------------------------------

@pytest.fixture(scope="module")
def game():
    from engine.rulesets.atlantis.world import conquest_map
    from engine.scenario import Faction, Scenario

    scen = Scenario("atlantis", "t", conquest_map(4, 5), RS.default_catalogs(),
                    RS.default_options(), [Faction(n, f"F{n}") for n in (1, 2, 3, 4)], 5)
    return scen, RS.initial_state(scen)


def test_check_against_the_state(game):
    scen, state = game
    text = """#atlantis 1
unit 1
CLAIM 4000
CLAIM 2000
GIVE 2 10 silver
GIVE 99 10 silver
GIVE NEW 3 10 silver
TAX
BUY 51 men
unit 2
WORK
#end
"""
    sheet = RS.parse_orders(text, "f1.txt")
    assert sheet.errors == []
    diags = RS.check(sheet, state, 1, scen)
    said = {(d.line, d.severity): d.message for d in diags}
    assert "4999" not in str(said)
    assert "5000 unclaimed silver; 6000 claimed" in said[(4, Severity.WARNING)]
    assert "unit 99 is not here (or you cannot see it)" in said[(6, Severity.WARNING)]
    assert "NEW 3 is not formed" in said[(7, Severity.ERROR)]
    assert "combat-ready" in said[(8, Severity.ERROR)]
    assert "only 50 men are for sale" in said[(9, Severity.WARNING)]
    assert "not a unit of faction 1" in said[(11, Severity.ERROR)]
    assert all(d.kind == "illegal" and d.faction == 1 for d in diags)
    assert (5, Severity.ERROR) not in said  # unit 2 exists (another faction's: silver is fine)
    two = RS.parse_orders(text + "#atlantis 2\nunit 2\nWORK\n#end\n", "f1.txt")
    extra = [d for d in RS.check(two, state, 1, scen) if d not in diags]
    assert [(d.line, d.severity) for d in extra] == [(13, Severity.WARNING)]
    assert "the set for faction 2 is not faction 1's orders" in extra[0].message


def test_check_command_without_a_game(tmp_path, capsys):
    from app.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, main

    good = tmp_path / "good.txt"
    good.write_text('#atlantis 3 "pw"\nunit 7\nSTUDY combat\n#end\n', encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text("#atlantis 3\nunit 7\nMOVE E\nSELL 1 sword\n#end\n", encoding="utf-8")
    assert main(["check", "--ruleset", "atlantis", str(good)]) == EXIT_OK
    assert main(["check", "--ruleset", "atlantis", str(good), str(bad)]) == EXIT_ERRORS
    out = capsys.readouterr()
    assert "bad.txt:3: error (invalid): MOVE: bad direction 'E'" in out.out
    assert "bad.txt:4: error (invalid): SELL is an order of later Atlantis servers" in out.out
    assert "good.txt: faction 3, 1 order(s), 0 error(s)" in out.err
    assert main(["check", "--ruleset", "nosuch", str(good)]) == EXIT_USAGE
    assert main(["check", "--ruleset", "atlantis"]) == EXIT_USAGE
    assert main(["check"]) == EXIT_USAGE


def test_what_is_not_built_says_so():
    assert RS.capabilities == {"parse", "turn", "reports", "play", "demo"}
    # every step of the book is built; what is not (RESTART) is refused aloud (steps-not-built.toml)
    helps = {p.name: p.help for p in RS.phases()}
    assert not any("not built" in helps[n] for n in ("combat", "steal", "tax", "instant magic",
                                                     "movement", "teleport"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127, blacklist_characters='"'), max_size=60))
def test_fast_tokens_are_the_shared_tokenizers(line):
    from engine.rulesets.atlantis.parser import TOKENS, tokens

    assert tokens(line, 3) == TOKENS.tokenize(line, 3)


def test_check_a_unit_too_heavy_to_move(game):
    from engine.rulesets.atlantis.state import UnitItem

    scen, state = game
    heavy = state.copy()
    heavy["unit_items"].append(UnitItem(1, "stone", 2))
    sheet = RS.parse_orders("#atlantis 1\nunit 1\nMOVE N\n#end\n", "f1.txt")
    said = [(d.severity, d.message) for d in RS.check(sheet, heavy, 1, scen)]
    # a warning: GIVE and BUY come before movement and may lighten the load
    assert said == [(Severity.WARNING, "MOVE: too heavy to move: 100 weight of goods, the men "
                     "and horses carry 5 (unless it gets horses or gives goods away before "
                     "moving)")]
    assert all("too heavy" not in d.message for d in RS.check(sheet, state, 1, scen))


def test_every_order_of_a_unit_not_the_factions_is_refused(game):
    """Checker errors are binding (engine/orders/screen.py): all of unit 2's orders go."""
    from engine.orders.screen import screen

    scen, state = game
    sheet = RS.parse_orders("#atlantis 1\nunit 2\nCLAIM 5\nWORK\nunit 1\nWORK\n#end\n", "f1.txt")
    found = RS.check(sheet, state, 1, scen)
    assert [(d.line, d.severity) for d in found] == [(3, Severity.ERROR), (4, Severity.ERROR)]
    kept = screen(sheet, found).sheet.orders
    assert [(o.verb(x), x.unit.number) for x in kept] == [("WORK", 1)]
