"""The default faction colours (engine/palette.py): apart from every marker the map draws over
holdings, and from each other, so a GM's first faction is never mistaken for neutral cities."""

from __future__ import annotations

from engine.palette import (
    FACTION_COLOURS,
    MARKER_COLOURS,
    SITE_COLOURS,
    colour_difference,
    faction_colour,
    is_water,
    load_palette,
)


def test_the_difference_is_zero_for_one_colour_and_large_for_black_and_white():
    assert colour_difference("#b8322a", "#b8322a") == 0
    assert colour_difference("#000000", "#ffffff") > 99
    # the old first colour of the designer was the city marker's red, all but
    assert colour_difference("#c0392b", SITE_COLOURS["city"]) < 5


def test_every_faction_colour_stands_apart_from_the_markers_and_the_others():
    assert len(set(FACTION_COLOURS)) == 12
    for c in FACTION_COLOURS:
        near = min(MARKER_COLOURS, key=lambda m: colour_difference(c, m))
        assert colour_difference(c, near) >= 30, (c, near)
    waters = [v for k, v in load_palette().items() if is_water(k)]
    assert len(waters) >= 5
    for c in FACTION_COLOURS:
        assert min(colour_difference(c, w) for w in waters) >= 25, c
    for i, a in enumerate(FACTION_COLOURS):
        for b in FACTION_COLOURS[i + 1:]:
            assert colour_difference(a, b) >= 25, (a, b)


def test_the_next_colour_skips_those_taken():
    assert faction_colour() == FACTION_COLOURS[0]
    assert faction_colour([FACTION_COLOURS[0].upper(), "#123456"], 2) == FACTION_COLOURS[1]
    assert faction_colour(FACTION_COLOURS, 14) == FACTION_COLOURS[1]


def test_players_who_joined_in_play_get_the_next_free_colours():
    from engine.political import PoliticalMap, Side, fill_sides
    from engine.rulesets.coi import RULESET

    scen, _ = RULESET.demo()
    pm = PoliticalMap(owners={1: 1, 2: 9, 3: 8})
    state = RULESET.initial_state(scen)
    fill_sides(pm, state, scen)
    extra = {s.number: s.colour for s in pm.sides if s.number in (8, 9)}
    assert extra == {8: FACTION_COLOURS[4], 9: FACTION_COLOURS[5]}
    assert all(isinstance(s, Side) for s in pm.sides)
