"""An Atlantis game through the game service: created from a Conquest world, orders
imported, matched by their #atlantis line and checked against the state; running a turn
fails with a clear message and leaves the game as it was (the turn is not built yet)."""

from __future__ import annotations

import pytest

from engine import registry
from engine.orders import Severity
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService, RunFailed

RS = registry.get("atlantis")


@pytest.fixture
def svc(tmp_path):
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org", "secret" if n == 1 else "")
                for n in (1, 2, 3, 4)]
    scen = Scenario("atlantis", "Conquest test", conquest_map(4, seed=9), RS.default_catalogs(),
                    RS.default_options(), factions, 9)
    with GameService.create(tmp_path / "atl.db", scen) as s:
        yield s


def test_orders_are_matched_and_checked_against_the_game(svc):
    svc.import_text('Hello GM\n#atlantis 1 "secret"\nunit 1\nCLAIM 100\nTAX\nGIVE 7 5 silver\n'
                    'unit 2\nWORK\n#end\n-- my signature\n', "email", "mail-1")
    svc.import_text("#atlantis 1 wrong\nunit 1\nWORK\n#end\n", "email", "mail-2")
    svc.import_text("#atlantis 3\nunit 3\nMOVE E\n#end\n", "email", "mail-3")
    st = svc.status()
    assert [s.source_name for s in st.rejected] == ["mail-2"]  # the wrong password
    found = svc.check()
    f1 = {(d.line, d.severity): d.message for d in found[1]}
    assert "only combat-ready units" in f1[(5, Severity.ERROR)]
    assert "there is no unit 7" in f1[(6, Severity.ERROR)]
    assert "unit 2 is not a unit of faction 1" in f1[(8, Severity.ERROR)]
    assert (4, Severity.WARNING) not in f1  # 100 of 5,000 unclaimed silver is fine
    assert ["bad direction 'E'" in d.message for d in found[3]] == [True]


def test_running_a_turn_says_it_is_not_built(svc):
    with pytest.raises(RunFailed, match="Atlantis adjudication is not built yet"):
        svc.run()
    assert svc.current_step == 0
    state = svc.state()
    assert len(state["units"]) == 4 and state.one("world").next_unit == 5
