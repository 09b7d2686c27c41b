"""Continental Conquest rule cases (tests/cases/cc/*.toml): the clan's player turn, section by
section of the book, run through engine.casefile like every ruleset's cases."""

import pytest

from engine.casefile import case_files, load_case
from tests.rule_cases import assert_case_passes

CASES = case_files("cc")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path):
    assert_case_passes(path)


def test_every_section_of_the_player_turn_has_a_case():
    sections = " | ".join(load_case(p).data.get("section", "") for p in CASES)
    for s in ("INCOME PHASE", "PRE-TURN CLAN ORDERS", "PRE-TURN PICKUP/HEALING", "CONVOY ORDERS PHASE",
              "MOVEMENT ORDERS", "MOVING ON A ROAD", "MOVING ON A RIVER", "USING COASTS",
              "MOVEMENT LIMITATIONS", "ATTACKING A HEX", "MOVEMENT MODES", "POST-TURN CLAN ORDERS",
              "POST-TURN MAINTENANCE", "FISH", "CELEBRATE", "PRACTICE", "PICKUP", "DROPOFF",
              "HIRE", "GUARD", "PAVE", "ABSORB", "SPLIT", "CREATE", "BUY", "ENLIST", "ASSIGN",
              "FORTIFY", "ERECT", "DEFEND", "GARRISON", "SELL", "GIVE", "BUILD", "TRAIN"):
        assert s in sections, f"no case for {s}"
