"""A small hand-built King of Kings world for parser, checker, NMR and report tests.

    x: 0 1 2 3 4 5 6 7
    0  ~ ~ ~ ~ ~ ~ ~ ~
    1  ~ p p p f f p ~      tribe 1 owns 1/1 2/1 1/2 2/2, tribe 2 owns 5/1 6/1 5/2 6/2
    2  ~ p c m h t p ~      tribe 2 also 6/3, tribe 3 only 6/4 (isolated)
    3  ~ p p p p p p ~
    4  ~ g g s d w a ~
    5  ~ ~ ~ ~ ~ ~ ~ ~
"""

from __future__ import annotations

from engine.map import new_map
from engine.rulesets.kok import RULESET
from engine.rulesets.kok.state import SCHEMA, Alliance, Army, Province, Tribe, World
from engine.scenario import Faction, Scenario
from engine.state import State

ROWS = ["~~~~~~~~", "~pppffp~", "~pcmhtp~", "~pppppp~", "~ggsdwa~", "~~~~~~~~"]
W = 8


def cell(x: int, y: int) -> int:
    return y * W + x


def scenario(**options) -> Scenario:
    m = new_map("square", W, len(ROWS))
    letters = RULESET.terrain_letters()
    for y, row in enumerate(ROWS):
        for x, ch in enumerate(row):
            m.set_terrain([cell(x, y)], letters[ch])
    opts = RULESET.default_options()
    for k, v in options.items():
        opts.set(k, v)
    factions = [Faction(1, "Hellenes", "one@example.org"), Faction(2, "Persians", "two@example.org"),
                Faction(3, "Scyths", "three@example.org")]
    return Scenario("kok", "fixture", m, RULESET.default_catalogs(), opts, factions,
                    seed=7, meta={"game": "TESTGAME"})


def state(turn: int = 3) -> State:
    s = State(SCHEMA, turn)
    s.tables["world"] = [World(turn=turn, end_turn=20, game="TESTGAME")]
    s.tables["tribes"] = [Tribe(1, "Hellenes", gold=20, wood=20), Tribe(2, "Persians", gold=12),
                          Tribe(3, "Scyths", gold=6)]
    owners = {(1, 1): 1, (2, 1): 1, (1, 2): 1, (2, 2): 1,
              (5, 1): 2, (6, 1): 2, (5, 2): 2, (6, 2): 2, (6, 3): 2, (6, 4): 3}
    s.tables["provinces"] = [Province(cell(x, y), owner=o, home=o, loyal=o)
                             for (x, y), o in sorted(owners.items())]
    s.tables["armies"] = [
        Army(cell(1, 1), 1, "F", 3), Army(cell(1, 1), 1, "B", 2), Army(cell(1, 1), 1, "S", 2),
        Army(cell(2, 2), 1, "H", 2), Army(cell(2, 2), 1, "G", 1), Army(cell(1, 2), 1, "F", 1),
        Army(cell(5, 1), 2, "F", 1), Army(cell(5, 2), 2, "F", 2), Army(cell(6, 3), 2, "F", 1),
        Army(cell(6, 4), 3, "F", 2),
    ]
    s.tables["alliances"] = [Alliance(1, 2, 2, 2), Alliance(2, 1, 2, 2),
                             Alliance(1, 3, 0, 0), Alliance(3, 1, 0, 0)]
    return s


def demo_game_with_orders(db) -> None:  # noqa: ANN001 (a path)
    """The KoK demo game at `db` with every faction's orders for turn 1 imported."""
    from engine import registry
    from engine.service import GameService

    scen, orders = registry.get("kok").demo()
    with GameService.create(db, scen) as svc:
        for faction, text in sorted(orders[1].items()):
            svc.import_text(text, source_name=f"SP{faction}.R1", faction=faction, step=1)
