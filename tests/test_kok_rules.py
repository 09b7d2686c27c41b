"""Every King of Kings rule case (tests/cases/kok/*.toml) through the shared case runner."""

from __future__ import annotations

import pytest

from engine.casefile import case_files, load_case, run_case
from tests.rule_cases import assert_case_passes

CASES = case_files("kok")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    assert_case_passes(path)


def test_every_section_has_a_case():
    sections = {load_case(p).data.get("section") for p in CASES}
    wanted = ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "3.1", "3.1.1",
              "3.1.2", "3.1.3", "3.2", "3.2.1", "3.2.2", "3.3", "3.4", "3.5", "3.5.1", "3.6",
              "4.1", "4.2", "4.3", "4.4", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7",
              "5.8", "5.9", "6.2", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7"]
    missing = [s for s in wanted if s not in sections]
    assert not missing, f"sections without a rule case: {missing}"


def test_every_event_kind_is_exercised_and_round_trips():
    from engine.events import Event
    from engine.rulesets.kok import events as ev

    kinds = {c.kind for c in vars(ev).values()
             if isinstance(c, type) and issubclass(c, ev.KokEvent) and c is not ev.KokEvent}
    seen = set()
    for p in CASES:
        for e in run_case(load_case(p)).events:
            seen.add(e.kind)
            assert Event.from_dict(e.to_dict()) == e
    assert sorted(kinds - seen) == []
