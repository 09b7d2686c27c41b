"""Land combat over many seeds: each die face comes up as often as a fair d6 should, and the
results follow the d6 table for the column fought on. A fixed list of seeds makes the test
deterministic; the chi-square bounds are far above what a fair die gives (no flakes)."""

from collections import Counter
from pathlib import Path

from engine.casefile import build_scenario, load_case
from engine.dice import Dice
from engine.ruleset import TurnContext
from engine.rulesets.artnes.combat import ladder
from engine.rulesets.artnes.events import Battle

CASES_DIR = Path(__file__).resolve().parent / "cases" / "artnes"

SEEDS = range(1, 601)


def chi_square(observed: Counter, expected: dict) -> float:
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items() if e > 0)


def _battles(case_name: str) -> tuple[list[Battle], object]:
    rs, scen = build_scenario(load_case(CASES_DIR / case_name))
    state = rs.initial_state(scen)
    text = "Move 2 knights Burgundy - Flanders\nMove spearman Burgundy - Flanders"
    out = []
    for seed in SEEDS:
        sheet = rs.parse_orders(text)
        new = state.copy()
        new.step = 1
        ctx = TurnContext(rs, scen, new, state, {1: sheet}, Dice(seed, 1))
        rs.run_step(ctx)
        out += ctx.events.of(Battle)
    return out, scen


def test_results_follow_the_d6_table_for_column_and_shift():
    # the worked example: 9:4 -> 2:1, the castle shifts one column to 3:2
    battles, scen = _battles("land_combat_worked_example.toml")
    assert len(battles) == len(SEEDS)
    cols = {c.label: c for c in ladder(scen.catalogs["crt"], "book")}
    column = cols["3:2"].results
    assert {(b.base_column, b.shift, b.column) for b in battles} == {("2:1", 1, "3:2")}
    for b in battles:
        assert b.result == column[b.die - 1]
    n = len(battles)
    faces = Counter(b.die for b in battles)
    assert chi_square(faces, {f: n / 6 for f in range(1, 7)}) < 25  # df 5; p < 0.0002
    results = Counter(b.result for b in battles)
    expected = {r: n * column.count(r) / 6 for r in "ABCDE"}
    assert expected == {"A": 0, "B": n / 3, "C": n / 3, "D": n / 3, "E": 0}
    assert set(results) == {"B", "C", "D"}
    assert chi_square(results, expected) < 20  # df 2


def test_expected_counts_per_face_are_exact_for_every_column():
    from engine.rulesets.artnes.rules import default_catalogs

    cols = ladder(default_catalogs()["crt"], "book")
    assert [c.label for c in cols] == ["1:2", "2:3", "1:1", "3:2", "2:1", "5:2", "3:1"]
    # the table never gets worse for the attacker to the right or with a higher roll
    order = "ABCDE"
    for c in cols:
        assert list(c.results) == sorted(c.results, key=order.index)
    for a, b in zip(cols, cols[1:], strict=False):
        assert all(order.index(x) <= order.index(y) for x, y in zip(a.results, b.results, strict=True))


def test_column_readings():
    from engine.rulesets.artnes.rules import default_catalogs

    crt = default_catalogs()["crt"]
    numeric = ladder(crt, "numeric")
    assert [c.label for c in numeric] == ["1:2", "2:3", "1:1", "3:2", "5:3", "2:1", "3:1"]
    assert numeric[5].results == "CCDDEE"      # the printed sixth column, now headed 2:1
    swapped = ladder(crt, "swapped")
    assert [c.label for c in swapped][4:6] == ["5:3", "2:1"]
    assert swapped[4].results == "CCDDEE" and swapped[5].results == "BCCDDE"


def test_sea_battle_with_three_nations_spares_the_neutral_one():
    from engine.rulesets.artnes.combat import sea_battle

    at_war = {(1, 2)}
    for seed in range(1, 40):
        lost = sea_battle({1: 2, 2: 3, 3: 4}, lambda a, b: (min(a, b), max(a, b)) in at_war,
                          "galley", Dice(seed, "sea"), "test")
        assert lost[3] == 0
        assert (lost[1] == 2) != (lost[2] == 3)   # exactly one side is wiped out
    from engine.dice import ScriptedDice

    # side removal: each draw picks a side (1 or 2) with equal chances
    lost = sea_battle({1: 1, 2: 3}, lambda a, b: True, "side", ScriptedDice([2, 2, 1]), "test")
    assert lost == {1: 1, 2: 2}
