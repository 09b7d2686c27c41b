"""Atlantis reports through the game service: the turn-0 reports and templates before the
first orders, and a faction's report bundle holding only what the faction may see."""

from __future__ import annotations

import json

from engine import registry
from engine.bundle import open_bundle, write_bundle
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService

RS = registry.get("atlantis")


def test_turn_zero_reports_and_a_pruned_bundle(tmp_path):
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org", f"secret{n}") for n in (1, 2, 3)]
    scen = Scenario("atlantis", "Conquest", conquest_map(3, seed=5), RS.default_catalogs(),
                    RS.default_options(), factions, 5)
    with GameService.create(tmp_path / "atl.db", scen) as svc:
        text = svc.report(0, 2, "text")
        assert text.startswith("Atlantis Report For:\nFaction 2 (2)\nJanuary, Year 1\n")
        assert '#atlantis 2 "secret2"' in text and "\nunit 2\n" in text
        assert json.loads(svc.report(0, 2, "json"))["regions"][0]["units"][0]["number"] == 2
        files = svc.export(tmp_path / "out", 0)
        assert any(p.name.endswith("-f02-orders.txt") for p in files)
        # a hidden scout of faction 3 beside faction 2's unit, and faction 1's far away
        state = svc.state(0)
        cell2 = next(u.cell for u in state["units"] if u.faction == 2)
        visible = RS.visible_state(state, 2, scen)
        assert {u.number for u in visible["units"]} == {2}
        state["units"].append(st.Unit(90, 3, cell2, "Hidden", men=1, seq=90))
        state["unit_skills"].append(st.UnitSkill(90, "stealth", 30))
        state["units"].append(st.Unit(91, 3, cell2, "Plain Sight", men=1, seq=91))
        state["unit_items"].extend([st.UnitItem(91, "silver", 50), st.UnitItem(91, "sword", 1)])
        state["unit_skills"].append(st.UnitSkill(91, "combat", 30))
        visible = RS.visible_state(state, 2, scen)
        units = {u.number: u for u in visible["units"]}
        assert set(units) == {2, 91} and units[91].faction == 0  # seen, not named
        assert [(r.unit, r.item) for r in visible["unit_items"]] == [(91, "sword")]
        assert visible["unit_skills"] == []
        others = [f for f in visible["factions"] if f.number != 2]
        assert all(f.password == "" and f.email == "" and f.unclaimed == 0 for f in others)
        assert {r.cell for r in visible["regions"]} == {cell2}
        assert cell2 in RS.visible_cells(state, 2, scen)
        path = write_bundle(svc, 2, tmp_path / "f2.rsbundle", step=0)
    b = open_bundle(path)
    blob = path.read_bytes()
    assert b"secret1" not in blob and b"secret3" not in blob and b"p1@example.org" not in blob
    assert {u.faction for u in b.state["units"]} == {2}
    # the only faction it knows is its own: unit 91's is not named (docs/atlantis.md, 95)
    assert [(f.number, f.password) for f in b.state["factions"]] == [(2, "secret2")]
    assert [f.number for f in b.factions] == [2]
