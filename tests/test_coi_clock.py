"""The forum clock of Conquest of Island: the forum_timezone option."""

import pytest

from engine.rulesets.coi import RULESET
from engine.rulesets.coi.clock import hours_between, zone_of
from engine.threads import load_thread


def test_zones_read_and_refused():
    assert hours_between("2026-11-20T10:10:00Z", "2026-11-20T10:40:00Z", zone_of("+05:30")) == 1
    assert hours_between("2026-11-20T10:10:00Z", "2026-11-20T10:40:00Z", zone_of("UTC")) == 0
    assert hours_between("2026-11-20T10:10:00Z", "2026-11-20T10:40:00Z", zone_of("UTC-3:30")) == 1
    # whole-hour zones, daylight saving included, count the same hours as UTC
    berlin = zone_of("Europe/Berlin")
    assert hours_between("2026-10-25T00:30:00Z", "2026-10-25T02:30:00Z", berlin) == 2
    with pytest.raises(ValueError, match="is not a time zone"):
        zone_of("Middle/Earth")
    with pytest.raises(ValueError, match="not a UTC offset"):
        zone_of("+15:00")


def test_scenario_validation_names_a_bad_zone():
    scen, _ = RULESET.demo()
    assert RULESET.validate(scen) == []
    scen.options.set("forum_timezone", "Middle/Earth")
    (p,) = RULESET.validate(scen)
    assert p.severity == "error" and p.option == "forum_timezone" and "Middle/Earth" in p.message


def test_thread_times_without_a_zone_are_on_the_forum_clock(tmp_path):
    f = tmp_path / "thread.csv"
    f.write_text("id,author,time,text\n7,Ann,2026-11-20 16:10,Harvest\n", encoding="utf-8")
    (post,), _ = load_thread(f, zone=zone_of("+05:30"))
    assert post.received_at == "2026-11-20T10:40:00Z"
    (post,), _ = load_thread(f)
    assert post.received_at == "2026-11-20T16:10:00Z"
