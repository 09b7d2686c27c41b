"""GM interventions in the core (engine/interventions, engine/db/interventions.py): the
generic kinds every ruleset takes, a refused kind, and the history, on King of Kings."""

from __future__ import annotations

import pytest

from engine import registry
from engine.interventions import Intervention, InterventionRefused, pairs
from engine.service import GameService


@pytest.fixture
def svc(tmp_path):
    scen, _script = registry.get("kok").demo()
    with GameService.create(tmp_path / "k.db", scen) as s:
        yield s


def test_password_and_address_change_the_faction_record_the_intake_checks(svc):
    rec = svc.intervene(Intervention("password", 2, {"password": "n3w"}, "lost it"))
    assert rec.summary == "faction 2's password changed" and rec.step == 0
    svc.intervene(Intervention("address", 2, {"email": "two@example.org"}))
    f = svc.scenario.faction(2)
    assert (f.password, f.email) == ("n3w", "two@example.org")
    assert [r.intervention.kind for r in svc.interventions()] == ["password", "address"]
    assert svc.interventions(1) == []


def test_a_kind_the_ruleset_lacks_and_bad_values_are_refused_and_change_nothing(svc):
    before = svc.state_json()
    with pytest.raises(InterventionRefused, match="no GM intervention 'unit'"):
        svc.intervene(Intervention("unit", 1, {}))
    with pytest.raises(InterventionRefused, match="no faction 99"):
        svc.intervene(Intervention("password", 99, {"password": "x"}))
    with pytest.raises(InterventionRefused, match="one line"):
        svc.intervene(Intervention("address", 1, {"email": "a@b\nBcc: c@d"}))
    assert svc.state_json() == before and svc.interventions() == []


def test_pairs_reads_the_dialogs_and_the_command_lines_lists():
    assert pairs("swords=5, silver = 200,") == {"swords": "5", "silver": "200"}
    assert pairs(["combat=2", "obse=45d"]) == {"combat": "2", "obse": "45d"}
    with pytest.raises(InterventionRefused, match="'swords five': write NAME=NUMBER"):
        pairs("swords five")
