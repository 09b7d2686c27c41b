"""Continental Conquest: the checker's dry run (engine/rulesets/cc/dryrun.py) is fair.

It runs on what the clan knows, so the GM's check and the player's viewer (the bundle's
pruned state) find the same, and nothing the clan cannot see shows through: not a convoy
out of its cities' sight on the convoy's road, not the Plague in a city it has not met, not
the game's dice seed. It never changes the state it checks. (What it refuses is in the rule
cases `tests/cases/cc/dry-run-*.toml`; speed is in benchmarks/test_bench_cc_check.py.)
"""

from __future__ import annotations

import pytest

from engine.mapfile import load_map
from engine.orders import Severity
from engine.rulesets.cc import RULESET
from engine.rulesets.cc.state import Convoy, Relation, Vehicle
from engine.rulesets.cc.view import visible_state
from tests.test_cc_check import fill_template
from tests.test_cc_map import MAP
from tests.test_cc_setup import scenario

CLAN = 100
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


@pytest.fixture(scope="module")
def game():
    sc = scenario(load_map(MAP), n=8, seed=11)
    return sc, RULESET.initial_state(sc)


def _walk(sc, state, steps=6):
    """Moves over drivable land away from the clan's city: (directions, cells entered)."""
    from engine.rulesets.cc.catalog import Book

    grid, gmap, book = sc.map.grid, sc.map, Book(sc.catalogs)
    home = next(c.cell for c in state["cities"] if c.owner == CLAN)
    here, moves, cells = home, [], []
    for _ in range(steps):
        best = None
        for d in DIRECTIONS:
            there = grid.step(here, d)
            if there is None or there in cells or there == home:
                continue
            if not book.terrain.get(gmap.terrain_at(there), {}).get("drivable"):
                continue
            if best is None or grid.distance(home, there) > grid.distance(home, best[1]):
                best = (d, there)
        if best is None:
            break
        moves.append(best[0])
        cells.append(best[1])
        here = best[1]
    return moves, cells


def _sheet(sc, state, fuel_short=False):
    moves, _ = _walk(sc, state)
    fill = {f"c1 {i + 1}": m for i, m in enumerate(moves)}
    fill |= {"c1 7": "PICKUP", "c1 8": "ATTACK", "pre 1": "BUY 10 FUEL", "post 1": "BUY 999999 FUEL",
             "post 2": "ENLIST 5"}
    text = fill_template(RULESET.orders_template(state, CLAN, sc), fill)
    return RULESET.parse_orders(text, "t.txt")


def _found(sheet, state, sc):
    return sorted((d.line, d.severity.value, d.message) for d in RULESET.check(sheet, state, CLAN, sc))


def test_the_gm_and_the_viewer_find_the_same_and_the_state_is_untouched(game):
    sc, state = game
    sheet = _sheet(sc, state)
    before = state.to_json()
    gm = _found(sheet, state, sc)
    assert state.to_json() == before
    viewer = visible_state(state, CLAN, sc)
    assert _found(sheet, viewer, sc) == gm
    # the post-turn BUY beyond the money held is certain; so are the place refusals
    assert any(s == "error" and m.startswith("post-turn: $") for _, s, m in gm), gm


def test_what_the_clan_cannot_see_changes_nothing(game):
    sc, state = game
    sheet = _sheet(sc, state)
    plain = _found(sheet, state, sc)
    _, cells = _walk(sc, state)
    other = next(c.number for c in state["clans"] if c.number != CLAN)
    s = state.copy()
    # another clan's convoy on the road, beyond the sight of the clan's city (a Station's 2)
    home = next(c.cell for c in state["cities"] if c.owner == CLAN)
    far = next(c for c in cells[:5] if sc.map.grid.distance(home, c) > 2)
    s["convoys"].append(Convoy(id=999, owner=other, number=9, cell=far, troops=50))
    s["vehicles"].append(Vehicle(999, "truck", 3))
    # the Plague in every city the clan does not own; other clans' garrisons doubled; every
    # other clan bans it from its cities
    for c in s["cities"]:
        if c.owner != CLAN:
            c.plague, c.troops = True, c.troops * 2 + 7
    for c in s["clans"]:
        if c.number != CLAN:
            c.ban_all = True
            s["relations"].append(Relation(c.number, CLAN, ban=True))
    assert _found(sheet, s, sc) == plain
    # the dice seed of the game is never used
    sc2 = scenario(load_map(MAP), n=8, seed=11)
    sc2.seed = 12345
    assert _found(sheet, state, sc2) == plain


def test_a_spotted_convoy_on_the_road_means_a_battle_the_convoy_is_followed_past(game):
    sc, state = game
    sheet = _sheet(sc, state)
    _, cells = _walk(sc, state)
    other = next(c.number for c in state["clans"] if c.number != CLAN)
    s = state.copy()
    s["convoys"].append(Convoy(id=999, owner=other, number=9, cell=cells[0], troops=5))
    s["vehicles"].append(Vehicle(999, "car", 1))
    found = RULESET.check(sheet, s, CLAN, sc)
    lost = [d for d in found if "depends on the battle" in d.message]
    assert lost and all(d.severity == Severity.WARNING for d in lost)
    assert lost[0].message.startswith("pulse 1: from here on convoy #1 depends on the battle")
    assert lost[0].message.endswith("are checked as if it came through unharmed")   # X252
    # every later line of the convoy is followed, and says what it rests on
    later = [d for d in found if d.line > lost[0].line and d.message.startswith("pulse")
             and "convoy #1" in d.message]
    assert later and all("through the battle in" in d.message or "came through unharmed" in d.message
                         for d in later)
    # nothing after the battle is refused for certain
    first = lost[0].line
    assert not [d for d in found if d.severity == Severity.ERROR and d.line > first
                and d.message.startswith("pulse")]


def _without_fuel(state):
    """A copy of the state where the clan has no fuel, nor any from its hexes' income."""
    s = state.copy()
    next(c for c in s["clans"] if c.number == CLAN).fuel = 0
    for h in s["hexes"]:
        if h.owner == CLAN:
            h.fuel = 0
    return s


def _check_without_events(text, state, sc):
    """The checker's findings in a game with no chance of a random event."""
    sc.options.set("event_chance_pct", 0)
    try:
        return RULESET.check(RULESET.parse_orders(text), state, CLAN, sc)
    finally:
        sc.options.set("event_chance_pct", 50)


def test_a_move_short_of_fuel_says_what_it_needs_and_where_the_convoy_stays(game):
    sc, state = game
    moves, cells = _walk(sc, state)
    s = _without_fuel(state)
    text = fill_template(RULESET.orders_template(s, CLAN, sc), {"c1 1": moves[0]})
    # a random event (turn/random_events.py) may bring fuel before the move: only a warning
    found = RULESET.check(RULESET.parse_orders(text), s, CLAN, sc)
    fuel = [d for d in found if "fuel left" in d.message]
    assert len(fuel) == 1 and fuel[0].severity == Severity.WARNING
    assert "a random event" in fuel[0].message
    # with no random event in the game nothing can bring fuel: the turn will refuse the move
    found = _check_without_events(text, s, sc)
    fuel = [d for d in found if "fuel left" in d.message]
    assert len(fuel) == 1 and fuel[0].severity == Severity.ERROR
    label = sc.map.grid.label(cells[0], "ccrr")
    assert fuel[0].message.startswith("pulse 1: convoy #1 has ")
    assert f"({label})" in fuel[0].message and "it stays in" in fuel[0].message


def test_an_event_order_is_bounded_not_rolled_by_the_dry_run(game):
    """EVENT makes the turn's random event sure even where the game has no chance of one: the
    dry run (DryTurn.random_event) bounds what it could bring, so the fuel-short move is only
    a warning, and it rolls nothing (no dice were asked: the move is still checked)."""
    sc, state = game
    moves, _ = _walk(sc, state)
    s = _without_fuel(state)
    text = fill_template(RULESET.orders_template(s, CLAN, sc), {"pre 1": "EVENT", "c1 1": moves[0]})
    found = _check_without_events(text, s, sc)
    fuel = [d for d in found if "fuel left" in d.message]
    assert len(fuel) == 1 and fuel[0].severity == Severity.WARNING
    assert "a random event" in fuel[0].message
    assert not [d for d in found if "EVENT" in d.text]


def test_the_dry_run_takes_every_phase_of_the_turn():
    """A phase added to the turn must be taken by the dry run too (dryrun.STEPS)."""
    from engine.rulesets.cc.dryrun import STEPS
    from engine.rulesets.cc.turn import PLAYER_TURN

    assert [p.name for p in PLAYER_TURN] == list(STEPS)
