"""The one check of a rule case file (tests/cases/<ruleset>/*.toml) that every ruleset's
case test makes: run through engine.casefile, every expectation met. Each ruleset's test
module parametrizes over `case_files(ruleset)` and calls `assert_case_passes`."""

from __future__ import annotations

from pathlib import Path

from engine.casefile import load_case, run_case


def assert_case_passes(path: Path) -> None:
    case = load_case(path)
    result = run_case(case)
    assert not result.failures, f"{path.name}: {case.title}\n" + "\n".join(result.failures)
