"""Stealth and Observation on the report: a faction's report (text, HTML, JSON) holds
nothing its units could not see - no hidden unit, no region without its units, no small
items or skills of others."""

from __future__ import annotations

import json

import pytest
from atlantis_report_world import scenario

from engine import registry
from engine.events import EventLog
from engine.rulesets.atlantis import sight
from engine.rulesets.atlantis import state as st

RS = registry.get("atlantis")


# ---- the rule itself (Stealth and Observation) ------------------------------------------

@pytest.mark.parametrize("obs, stealth, seen, named", [
    (0, 0, True, False),     # equal: seen, faction not named
    (2, 1, True, True),      # higher: seen and named
    (1, 2, False, False),    # lower: not seen
    (None, 0, False, False),  # no unit of the faction in the region
])
def test_observation_against_stealth(obs, stealth, seen, named):
    assert sight.sighting(obs, stealth) == sight.Sighting(seen, named)


@pytest.mark.parametrize("why", ["guarding", "inside", "in_battle"])
def test_always_visible_but_faction_still_needs_higher_observation(why):
    assert sight.sighting(1, 3, **{why: True}) == sight.Sighting(True, False)
    assert sight.sighting(4, 3, **{why: True}) == sight.Sighting(True, True)
    assert sight.sighting(None, 0, **{why: True}) == sight.NOT_SEEN


def test_reveal_unit_and_reveal_faction():
    assert sight.sighting(0, 5, reveal="unit") == sight.Sighting(True, False)
    assert sight.sighting(0, 5, reveal="faction") == sight.Sighting(True, True)


def test_effective_levels_with_spells_and_amulets():
    """Invisibility and True Seeing add their level; an Amulet of Invisibility gives +3
    Stealth to a one-man unit only, an Amulet of True Seeing +3 Observation."""
    amulet = {"amulet of invisibility": 1}
    assert sight.stealth({"stealth": 2, "invisibility": 3}, {}, 1) == 5
    assert sight.stealth({"stealth": 2}, amulet, 1) == 5
    assert sight.stealth({"stealth": 2}, amulet, 2) == 2
    assert sight.observation({"observation": 1, "true seeing": 2},
                             {"amulet of true seeing": 1}) == 6


# ---- the report -------------------------------------------------------------------------

def crowded(scen):
    """Faction 14's Hans (Observation 2) shares plain (11,15) with units of other factions:
    a scout with Stealth 3 (hidden), one with Stealth 2 (seen, not named), one with Stealth
    1 (seen and named), a Stealth 4 guard (seen, not named), a Stealth 5 unit in the tower
    (seen, not named) and a Stealth 4 unit revealing itself."""
    s = RS.initial_state(scen)
    cell = next(u.cell for u in s["units"] if u.number == 15)
    s["unit_skills"].append(st.UnitSkill(15, "observation", 90))  # 3 months: level 2
    s["structures"].append(st.Structure(3, "tower", cell, "Temple of Agrik", work=10))
    for number, name, stealth_days, extra in [
            (50, "Hidden Scout", 180, {}), (51, "Equal Scout", 90, {}),
            (52, "Clumsy Scout", 30, {}), (53, "Watchman", 300, {"guard": True}),
            (54, "Tower Dweller", 450, {"structure": 3}), (55, "Herald", 300, {"reveal": "unit"})]:
        s["units"].append(st.Unit(number, 7, cell, name, men=1, seq=number, **extra))
        s["unit_skills"].append(st.UnitSkill(number, "stealth", stealth_days))
        s["unit_items"].extend([st.UnitItem(number, "silver", 777),
                                st.UnitItem(number, "amulet of true seeing", 1),
                                st.UnitItem(number, "longbow", 2)])
    s["unit_skills"].append(st.UnitSkill(40, "combat", 30))  # faction 3, another island
    return s


def all_formats(scen, state, faction):
    r = RS.report(state, EventLog(), faction, scen)
    return {fmt: RS.render(r, fmt) for fmt in ("text", "html", "json")}, r


def test_a_faction_sees_only_what_its_units_see(tmp_path):
    scen = scenario(tmp_path)
    s = crowded(scen)
    out, r = all_formats(scen, s, 14)
    region = r["regions"][0]
    seen = {u["number"]: u["faction"] for u in region["units"]}
    seen.update({u["number"]: u["faction"] for x in region["structures"] for u in x["units"]})
    assert seen == {15: 14, 13: 3, 51: None, 52: 7, 53: None, 54: None, 55: None}
    assert [x["title"] if "title" in x else (x["x"], x["y"]) for x in r["regions"]] == [(11, 15)]
    for fmt, text in out.items():
        assert "Hidden Scout" not in text and "(50)" not in text, fmt
        assert "Far Away Scouts" not in text and "(3,5)" not in text, fmt   # no unit of 14 there
        assert "777" not in text and "AMTS" not in text, fmt   # small items of others
        assert "stealth" not in text.lower(), fmt                # others' skills
    flat = " ".join(out["text"].split())
    assert "- Clumsy Scout (52), Red Dragon Clan (7), man [MAN], 2 longbows [LBOW]." in flat
    assert "- Watchman (53), on guard, man [MAN], 2 longbows [LBOW]." in flat
    assert "+ Temple of Agrik [3] : tower.\n  - Tower Dweller (54), man [MAN]" in out["text"]
    assert "Red Dragon Clan" not in json.dumps([u for u in region["units"] if u["number"] != 52])


def test_the_other_faction_sees_hans_by_its_own_observation(tmp_path):
    """Faction 7's units have no Observation skill but an Amulet of True Seeing (+3):
    Hans (Stealth 0) is seen and named; his silver and skills are not shown to them."""
    scen = scenario(tmp_path)
    s = crowded(scen)
    out, r = all_formats(scen, s, 7)
    hans = next(u for u in r["regions"][0]["units"] if u["number"] == 15)
    assert hans["faction"] == 14 and "skills" not in hans
    assert "- Hans Shadowspawn (15), Hans and his Merry Pranksters (14), man [MAN]." in " ".join(
        out["text"].split())
    assert "500 silver" not in out["text"] and "observation" not in out["text"]
    assert "xyzzy" not in out["text"] and "xyzzy" not in out["json"]  # others' password


def test_a_faction_without_units_sees_no_region(tmp_path):
    scen = scenario(tmp_path)
    s = crowded(scen)
    s["units"][:] = [u for u in s["units"] if u.faction != 14]
    out, r = all_formats(scen, s, 14)
    assert r["regions"] == [] and "Turia" not in out["text"]


def test_the_gm_sees_everything(tmp_path):
    scen = scenario(tmp_path)
    s = crowded(scen)
    r = RS.report(s, EventLog(), None, scen)
    numbers = {u["number"] for reg in r["regions"] for u in reg["units"]}
    numbers |= {u["number"] for reg in r["regions"] for x in reg["structures"] for u in x["units"]}
    assert numbers == {u.number for u in s["units"]}
