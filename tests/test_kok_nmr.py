"""NMR orders (rule book 2.9): capital, spiral, DEF, three placement tries, 2:1 attacks."""

import kok_fixtures as fx

from engine.dice import Dice, ScriptedDice
from engine.rulesets.kok.check import Board, check
from engine.rulesets.kok.nmr import auto_orders, capital, nmr_text, spiral, spiral_rank
from engine.rulesets.kok.orders_model import Defend, LandMove, Place
from engine.rulesets.kok.state import Army, Province


def body(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln and ln[0] not in "#" and ln not in ("BEGIN", "END")]


def test_spiral_goes_east_then_north_anticlockwise():
    # y grows downwards: north is dy = -1
    order = sorted([(dx, dy) for dx in range(-1, 2) for dy in range(-1, 2)],
                   key=lambda d: spiral_rank(*d))
    assert order == [(0, 0), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]
    assert spiral_rank(2, 1) == 9 and spiral_rank(2, 0) == 10
    ranks = sorted(spiral_rank(dx, dy) for dx in range(-3, 4) for dy in range(-3, 4))
    assert ranks == list(range(49))


def test_capital_is_the_richest_province():
    scen, st = fx.scenario(), fx.state()
    board = Board(st, scen)
    assert capital(board, 2) == fx.cell(5, 2)       # the town (10 gold)
    assert capital(board, 1) == fx.cell(2, 2)       # cultivated (3) beats plains (2)
    assert capital(board, 9) is None
    assert spiral(board, 1, fx.cell(2, 2)) == [fx.cell(2, 2), fx.cell(2, 1), fx.cell(1, 1),
                                               fx.cell(1, 2)]


def _frontier_world():
    """Tribe 1 at 2/3 (3 horsemen) faces tribe 2 at 3/3 (1 foot); 1/3 is quiet."""
    scen, st = fx.scenario(), fx.state()
    st["provinces"].extend([Province(fx.cell(2, 3), owner=1, home=1, loyal=1),
                            Province(fx.cell(3, 3), owner=2, home=2, loyal=2)])
    st["armies"].extend([Army(fx.cell(2, 3), 1, "H", 3), Army(fx.cell(3, 3), 2, "F", 1)])
    for a in st["alliances"]:
        a.status = a.declared = 0
    return scen, st


def test_def_place_and_attack_with_scripted_dice():
    scen, st = _frontier_world()
    # Only 2/3 borders an enemy: DEF tactic roll 4 -> U; troop tries: 6 -> S (a ship, not
    # suitable), 2 -> B (6 gold, fine); attack: 3*50+45 = 195 >= 2*35 -> LAND, tactic 2 -> P
    dice = ScriptedDice([4, 6, 2, 2])
    text = nmr_text(st, 1, scen, dice)
    assert body(text) == ["DEF 2 3 U", "PLA 2 3 BO", "LAND 2 3 P AT E"]
    assert dice.used == 4


def test_three_failed_tries_place_nothing():
    scen, st = _frontier_world()
    st["tribes"][0].gold = 0
    text = nmr_text(st, 1, scen, ScriptedDice([1, 1, 2, 3, 5]))
    assert body(text) == ["DEF 2 3 F", "LAND 2 3 C AT E"]


def test_no_attack_without_two_to_one():
    scen, st = _frontier_world()
    st["armies"].append(Army(fx.cell(3, 3), 2, "H", 2))   # 35 + 100 = 135; need 270
    st["tribes"][0].gold = 0
    text = nmr_text(st, 1, scen, ScriptedDice([3, 4, 4, 4]))
    assert body(text) == ["DEF 2 3 T"]


def test_allies_are_no_targets():
    scen, st = _frontier_world()
    for a in st["alliances"]:
        if {a.tribe, a.other} == {1, 2}:
            a.status = a.declared = 1
    assert body(nmr_text(st, 1, scen, Dice(1))) == []


def test_auto_orders_are_a_bound_checked_sheet_and_deterministic():
    scen, st = _frontier_world()
    before = st.to_json()
    a = auto_orders(st, 1, scen, Dice(5, 3, "nmr", 1))
    b = auto_orders(st, 1, scen, Dice(5, 3, "nmr", 1))
    assert a.header["text"] == b.header["text"] and a.header["nmr"]
    assert a.diagnostics == []
    assert [type(o) for o in a.orders][:1] == [Defend]
    assert all(isinstance(o, (Defend, Place, LandMove)) for o in a.orders)
    assert a.orders[0].items[0][0] == fx.cell(2, 3)
    assert a.orders[0].line == 3  # BEGIN and the comment line come first
    assert [d for d in check(a, st, 1, scen) if d.severity == "error"] == []
    assert st.to_json() == before


def test_nmr_of_a_tribe_without_provinces_is_empty():
    scen, st = fx.scenario(), fx.state()
    sheet = auto_orders(st, 9, scen, Dice(1))
    assert sheet.orders == [] and sheet.diagnostics == []


def test_many_seeds_never_give_invalid_orders():
    scen, st = _frontier_world()
    for seed in range(30):
        sheet = auto_orders(st, 1, scen, Dice(seed))
        assert sheet.errors == []
        assert [d for d in check(sheet, st, 1, scen) if d.severity == "error"] == []
