"""The password that counts on the `#atlantis N "password"` line is the faction's current
one, as its PASSWORD orders left it (Ruleset.current_password), judged by the latest state;
a rollback brings the old one back and the waiting sets are matched again."""

from __future__ import annotations

import pytest

from engine import registry
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService

RS = registry.get("atlantis")


@pytest.fixture
def svc(tmp_path):
    # faction 2: no address, no password (open until it orders a PASSWORD)
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org" if n != 2 else "",
                        "secret" if n == 1 else "") for n in (1, 2, 3, 4)]
    scen = Scenario("atlantis", "Password test", conquest_map(4, seed=9), RS.default_catalogs(),
                    RS.default_options(), factions, 9)
    with GameService.create(tmp_path / "atl.db", scen) as s:
        yield s


def _set_password(svc, new: str) -> None:
    """Faction 1 orders PASSWORD `new` (with its scenario password "secret"); the turn runs."""
    r = svc.import_text(f'#atlantis 1 "secret"\nunit 1\nPASSWORD "{new}"\nWORK\n#end\n',
                        "email", "pw-order", sender="p1@example.org")
    assert r.submission.meta["match"] == "ok"
    svc.run()
    assert {f.number: f.password for f in svc.state()["factions"]}[1] == new


def _sent(svc, password: str, name: str, sender: str = "stranger@example.org"):
    return svc.import_text(f'#atlantis 1 "{password}"\nunit 1\nWORK\n#end\n', "email", name,
                           sender=sender).submission


def _by_name(svc, name: str):
    return next(s for s in svc.submissions() if s.submission.source_name == name)


def test_after_a_password_order_the_old_password_is_refused_and_the_new_one_counts(svc):
    _set_password(svc, "new")
    old = _sent(svc, "secret", "old-pw")
    assert old.meta["match"] == "bad_password"
    assert "wrong password for faction 1" in old.matched_by
    new = _sent(svc, "new", "new-pw")
    assert new.meta["match"] == "ok" and new.meta["verify"] == "verified"
    st = svc.status()
    assert [s.source_name for s in st.rejected] == ["old-pw"]
    f1 = next(f for f in st.factions if f.faction == 1)
    assert f1.submitted and f1.source == "new-pw"
    said = "\n".join(st.lines())
    assert [ln for ln in said.splitlines() if ln.strip().startswith("rejected:")] == [
        ln for ln in said.splitlines() if "old-pw" in ln and "wrong password for faction 1" in ln]


def test_a_faction_that_cleared_its_password_accepts_any_header(svc):
    _set_password(svc, "")
    sub = _sent(svc, "anything at all", "any-pw", sender="p1@example.org")
    assert sub.meta["match"] == "ok"
    assert not svc.status().rejected


def test_rollback_brings_the_old_password_back_and_rematches_the_waiting_sets(svc):
    _set_password(svc, "new")
    _sent(svc, "secret", "old-pw")
    _sent(svc, "new", "new-pw")
    assert _by_name(svc, "old-pw").submission.meta["match"] == "bad_password"
    svc.rollback(0)
    # the PASSWORD turn is gone: "secret" counts again, "new" is the wrong one
    assert _by_name(svc, "old-pw").submission.meta["match"] == "ok"
    assert _by_name(svc, "new-pw").submission.meta["match"] == "bad_password"
    assert [s.source_name for s in svc.status().rejected] == ["new-pw"]
    # and so for a set checked now (stored nothing: it would replace the PASSWORD order)
    checked, _ = svc.check_text('#atlantis 1 "secret"\nunit 1\nWORK\n#end\n', "checked.ord")
    assert checked.meta["match"] == "ok"
    # running the PASSWORD turn again makes "new" right once more, "secret" wrong
    svc.run()
    assert _by_name(svc, "new-pw").submission.meta["match"] == "ok"
    assert _by_name(svc, "old-pw").submission.meta["match"] == "bad_password"
    assert [(s.source_name, s.step) for s in svc.status().rejected] == [("old-pw", 2)]


def test_an_open_faction_that_sets_a_password_is_no_longer_open(svc):
    assert [f.faction for f in svc.status().factions if f.open] == [2]
    svc.import_text('#atlantis 2\nunit 2\nPASSWORD "mine"\nWORK\n#end\n', "email", "set",
                    sender="someone@example.org")
    svc.run()
    assert not [f.faction for f in svc.status().factions if f.open]
    guess = svc.import_text('#atlantis 2 "guess"\nunit 2\nWORK\n#end\n', "email", "g2").submission
    mine = svc.import_text('#atlantis 2 "mine"\nunit 2\nWORK\n#end\n', "email", "m2").submission
    assert (guess.meta["match"], mine.meta["match"], mine.meta["verify"]) == (
        "bad_password", "ok", "verified")
