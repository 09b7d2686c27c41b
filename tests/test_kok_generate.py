"""Generated benchmark games: deterministic, the size asked for, orders that check clean."""

from collections import Counter

from engine.orders import Severity
from engine.rulesets.kok import RULESET
from engine.rulesets.kok.generate import generate_game


def test_small_generated_game():
    scen, orders = generate_game(40, 30, tribes=6, armies=600, seed=3)
    st = scen.initial
    assert len(st["tribes"]) == 6 and len(st["armies"]) == 600
    assert (scen.map.grid.width, scen.map.grid.height) == (40, 30)
    terrains = Counter(scen.map.terrain_names())
    assert terrains["sea"] > 0 and len(terrains) >= 12
    again = generate_game(40, 30, tribes=6, armies=600, seed=3)
    assert again[1] == orders and again[0].initial.to_json() == st.to_json()
    assert generate_game(40, 30, tribes=6, armies=600, seed=4)[1] != orders
    verbs = Counter()
    for f, text in orders.items():
        sheet = RULESET.parse_orders(text, f"SP{f}.R1")
        found = sheet.diagnostics + RULESET.check(sheet, st, f, scen)
        assert [d.format() for d in found if d.severity == Severity.ERROR] == []
        verbs.update(type(o).__name__ for o in sheet.orders)
    assert verbs["Place"] and verbs["LandMove"] and verbs["Defend"] and verbs["Ally"]


def test_benchmark_size():
    scen, orders = generate_game()
    st = scen.initial
    assert len(st["armies"]) == 5000 and len(st["tribes"]) == 20 and len(orders) == 20
    assert len(scen.map.grid) == 10_000
    # every tribe borders another, so every sheet has something to do
    assert all(text.count("\n") > 5 for text in orders.values())


def test_checker_agrees_with_the_adjudication_on_a_generated_turn():
    from test_kok_golden import _disagreements

    from engine.rulesets.kok.demo import play

    scen, orders = generate_game(40, 30, tribes=6, armies=600, seed=5)
    (turn,) = play(scen, {1: orders}, 1)
    assert turn.nmr == [] and _disagreements([turn]) == []
    assert "Battle of" in turn.reports["text"]
