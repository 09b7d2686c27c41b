"""Drafting Continental Conquest orders in the player viewer (engine/rulesets/cc/drafting.py):
a path becomes pulse lines in the convoy's block (directions, or an air convoy's hex), the
reach preview follows the movement rules, and the orders file and mail name clan and turn
without upsetting the GM's intake."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import orderdraft as od
from engine.intake.match import OK, match_submission
from engine.mapfile import load_map
from engine.ruleset import Submission
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.dryrun import play
from engine.rulesets.cc.turn.movement import entry_cost
from engine.state import State
from tests.test_cc_check import MAP, scenario, sheet_for

DIRS = ("N", "NE", "SE", "S", "SW", "NW")


@pytest.fixture(scope="module")
def game():
    sc = scenario(load_map(MAP), n=4, seed=11)
    return sc, RULESET.initial_state(sc)


def _convoy(game_, clan=100):
    sc, state = game_
    return next(c for c in state["convoys"] if c.owner == clan and c.number == 1)


def _as_air(game_):
    """The game with clan 100's convoy #1 flying three ultralights."""
    sc, state = game_
    out = State(state.schema, state.step)
    out.tables.update(state.tables)
    cv = _convoy(game_)
    out.tables["convoys"] = [replace(c, type="air") if c.id == cv.id else c for c in state["convoys"]]
    first = next(v for v in state["vehicles"] if v.convoy == cv.id)
    out.tables["vehicles"] = [v for v in state["vehicles"] if v.convoy != cv.id] + \
        [replace(first, type="ultralight", count=3)]
    return sc, out


def test_a_path_becomes_one_direction_a_pulse_in_the_convoys_block(game):
    sc, state = game
    cv = _convoy(game)
    board = sc.map.board()
    budget, cost = RULESET.move_range(state, 100, sc, cv.cell, cv.number)
    assert budget == 5  # a land convoy's five hexes a turn, no bonus
    reach = board.reachable(cv.cell, budget, cost)
    goal = next(c for c, d in reach.items() if d == 3)
    path = board.path(cv.cell, goal)
    line = od.move_order(RULESET, state, 100, sc, path, cv.number)
    steps = line.split("\n")
    assert len(steps) == 3 and set(steps) <= set(DIRS)
    text = sheet_for(game, **{"c1 1": "PAUSE", "c1 3": "PAUSE ; wait for the others"})
    out, at = od.place_order(RULESET, text, line, cv.number)
    lines = out.split("\n")
    assert lines[at - 1:at + 2] == [f" 4: {steps[0]}", f" 5: {steps[1]}", f" 6: {steps[2]}"]
    assert lines[at - 3] == " 2:"  # a blank line before the last order stays the player's
    sheet = RULESET.parse_orders(out)
    assert not sheet.errors and not [d for d in RULESET.check(sheet, state, 100, sc) if d.severity == "error"]
    routes = od.order_paths(RULESET, state, 100, sc, out)
    assert [cells for _line, cells in routes] == [path[i:i + 2] for i in range(3)]
    assert [ln for ln, _cells in routes] == [at, at + 1, at + 2]


def test_a_path_longer_than_the_free_lines_is_refused_with_the_reason(game):
    sc, state = game
    cv = _convoy(game)
    text = sheet_for(game, **{"c1 8": "PAUSE"})
    with pytest.raises(ValueError, match="2 free pulse lines after its last order; this path needs 3"):
        RULESET.insert_order(text, "N\nN\nN", cv.number)


def test_a_convoy_missing_from_the_sheet_gets_a_block_before_the_post_turn_orders(game):
    sc, state = game
    text = sheet_for(game)
    head = next(t for t in text.split("\n") if t.startswith("ORDERS FOR LAND CONVOY #1"))
    cut = text.split("\n")
    i = cut.index(head)
    text = "\n".join(cut[:i] + cut[i + 18:])  # the player deleted the block
    assert "CONVOY #1" not in text
    out, at = RULESET.insert_order(text, "N\nNE", 1)
    sheet = RULESET.parse_orders(out)
    moves = [(m.convoy, m.slot, m.direction) for m in sheet.orders]
    assert moves == [(1, 1, "N"), (1, 2, "NE")] and out.split("\n")[at - 1] == " 1: N"
    assert out.index("CONVOY #1") < out.index("POST-TURN CLAN ORDERS")


def test_the_land_convoys_reach_stops_at_water_and_the_air_convoys_flies_its_range(game):
    sc, state = game
    cv = _convoy(game)
    board = sc.map.board()
    budget, cost = RULESET.move_range(state, 100, sc, cv.cell, cv.number)
    reach = board.reachable(cv.cell, budget, cost)
    roads = {frozenset((r.cell, r.to)) for r in state["roads"]}
    for c in reach:
        if sc.map.terrain_at(c) == "water":  # only along a road
            assert any(frozenset((c, n)) in roads for n in board.neighbours(c)), c
    air = _as_air(game)
    budget, cost = RULESET.move_range(air[1], 100, sc, cv.cell, cv.number)
    assert budget == 28  # 20 hexes, +8 all scouts
    far = next(c for c in sc.map.grid.cells() if board.distance(cv.cell, c) == 6)
    path = od.complete_path(board, [cv.cell, far])
    line = od.move_order(RULESET, air[1], 100, sc, path, cv.number)
    assert line == sc.map.grid.label(far, "ccrr")  # one pulse: the hex flown to
    out, _at = RULESET.insert_order(sheet_for((sc, air[1])), line, cv.number)
    assert [(m.slot, m.hex) for m in RULESET.parse_orders(out).orders] == [(1, line)]
    assert od.order_paths(RULESET, air[1], 100, sc, out)[0][1] == [cv.cell, far]


def test_no_convoy_there_or_another_clans_convoy_says_why(game):
    sc, state = game
    other = next(c for c in state["convoys"] if c.owner != 100)
    with pytest.raises(ValueError, match="none of your convoys"):
        RULESET.move_order(state, 100, sc, [other.cell, other.cell], None)
    with pytest.raises(ValueError, match="not one of yours"):
        RULESET.move_order(state, 100, sc, [other.cell, other.cell], 9)
    assert od.movers(RULESET, state, 100, sc, other.cell) == []


def test_the_orders_file_and_subject_name_clan_and_turn_and_the_intake_takes_them(game):
    sc, state = game
    name = od.orders_filename(RULESET, state, 100, sc)
    subject = od.orders_subject(RULESET, state, 100, sc)
    assert name.endswith("-clan100-turn01.txt") and "clan 100 turn 1 orders" in subject
    account = next(c.account for c in state["clans"] if c.number == 100)
    assert account not in name and account not in subject  # the account is the password
    sub = Submission(sheet_for(game), source_kind="email", subject=f"Re: {subject}",
                     meta={"file_name": name})
    match_submission(sub, RULESET, sc, 17)  # the game's step is not the clan's turn
    assert (sub.faction, sub.step, sub.meta["match"]) == (100, 17, OK)


def _with_fuel(game_, fuel: int):
    """The game with clan 100 holding `fuel` and its hexes producing none (income adds none)."""
    sc, state = game_
    s = state.copy()
    next(c for c in s["clans"] if c.number == 100).fuel = fuel
    for h in s["hexes"]:
        if h.owner == 100:
            h.fuel = 0
    return sc, s


def test_the_reach_starts_where_the_written_moves_leave_the_convoy_with_the_moves_left(game):
    """X253: the preview counts the moves already on the sheet: a new path starts at their end
    (the origin, at 0) with the moves a turn less those written."""
    sc, state = game
    cv = _convoy(game)
    board = sc.map.board()
    fresh = RULESET.reach(state, 100, sc, cv.cell, cv.number, sheet_for(game))
    budget, cost = RULESET.move_range(state, 100, sc, cv.cell, cv.number)
    assert fresh[cv.cell] == 0 and max(fresh.values()) == budget == 5
    assert set(fresh) <= set(board.reachable(cv.cell, budget, cost))   # fuel only takes away
    goal = next(c for c, d in fresh.items() if d == 2)
    line = od.move_order(RULESET, state, 100, sc, board.path(cv.cell, goal), cv.number)
    text, _at = od.place_order(RULESET, sheet_for(game), line, cv.number)
    after = RULESET.reach(state, 100, sc, cv.cell, cv.number, text)
    assert after[goal] == 0 and after.get(cv.cell, 1) > 0
    assert max(after.values()) == 3   # five moves a turn, two written
    assert RULESET.reach(state, 100, sc, goal, cv.number, text) == after   # the convoy, not the hex


def test_the_reach_ends_where_the_fuel_left_ends(game):
    sc, state = game
    cv = _convoy(game)
    board = sc.map.board()
    plenty = RULESET.reach(state, 100, sc, cv.cell, cv.number, sheet_for(game))
    sc0, none = _with_fuel(game, 0)
    assert RULESET.reach(none, 100, sc0, cv.cell, cv.number, sheet_for((sc0, none))) == {cv.cell: 0.0}
    # fuel for one hex: the neighbours it can pay for, nothing further
    t = play(RULESET.parse_orders(sheet_for(game)), state, 100, sc)
    dry = t.convoy(cv.number)
    costs = {n: entry_cost(t, dry, cv.cell, n)[0] for n in board.neighbours(cv.cell) if n in plenty}
    cheapest = min(costs.values())
    sc1, one = _with_fuel(game, cheapest)
    got = RULESET.reach(one, 100, sc1, cv.cell, cv.number, sheet_for((sc1, one)))
    assert set(got) == {cv.cell} | {n for n, f in costs.items() if f == cheapest}
    # a move written spends the fuel: the next path can go nowhere
    first = next(n for n, f in costs.items() if f == cheapest)
    text, _at = od.place_order(RULESET, sheet_for((sc1, one)),
                               od.move_order(RULESET, one, 100, sc1, [cv.cell, first], cv.number), cv.number)
    assert RULESET.reach(one, 100, sc1, cv.cell, cv.number, text) == {first: 0.0}
    # an air convoy's one order flies as far as its fuel pays for
    sca, air = _as_air((sc1, one))
    flown = RULESET.reach(air, 100, sca, cv.cell, cv.number, sheet_for((sca, air)))
    t = play(RULESET.parse_orders(sheet_for((sca, air))), air, 100, sca)
    far = max(d for d in range(1, 29) if entry_cost(t, t.convoy(cv.number), cv.cell, cv.cell, d)[0] <= cheapest)
    assert max(flown.values()) == far < 28
    assert all(board.distance(cv.cell, c) <= far for c in flown)
