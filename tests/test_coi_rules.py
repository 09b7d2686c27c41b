"""Conquest of Island rule cases (tests/cases/coi/*.toml), run through engine.casefile."""

import pytest

from engine.casefile import case_files, load_case, run_case

CASES = case_files("coi")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path):
    result = run_case(load_case(path))
    assert not result.failures, "\n".join(result.failures)


def test_cases_cover_the_book():
    sections = {load_case(p).data.get("section", "") for p in CASES}
    for s in ("ap", "harvest", "build", "recruit", "move", "attack", "alliance", "trade", "split",
              "expedition", "terrain", "buildings", "units", "battle", "sea", "end", "posts"):
        assert any(x.startswith(s) for x in sections), f"no case for section {s}"
