"""ARTNES rule cases (tests/cases/artnes/*.toml) run through the shared case runner."""

import pytest

from engine.casefile import case_files, load_case, run_case

CASES = case_files("artnes")


def test_there_are_cases_for_every_section():
    sections = {load_case(p).data.get("section", "") for p in CASES}
    for s in ("map", "armies", "population", "orders", "moves", "convoy", "claiming",
              "land combat", "sea combat", "war", "income"):
        assert s in sections, f"no ARTNES case for section {s!r}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    result = run_case(load_case(path))
    assert not result.failures, "\n".join(result.failures)
