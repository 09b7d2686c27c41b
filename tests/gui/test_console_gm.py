"""The GM console's intervention dialog and history tab over GameService.intervene."""

from __future__ import annotations

import pytest

from engine import registry
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService

RS = registry.get("atlantis")


@pytest.fixture
def game(tmp_path):
    factions = [Faction(n, f"Faction {n}", "", "") for n in (1, 2)]
    scen = Scenario("atlantis", "Console GM", conquest_map(3, seed=2), RS.default_catalogs(),
                    RS.default_options(), factions, 2)
    GameService.create(tmp_path / "g.db", scen).close()
    return tmp_path / "g.db"


def _home(svc, faction):
    u = next(u for u in svc.state()["units"] if u.faction == faction)
    x, y = svc.scenario.map.grid.atlantis(u.cell)
    return f"({x},{y})"


def test_the_dialog_adds_a_unit_and_the_history_tab_lists_it(qtbot, console, game):
    from app.console.gm import InterventionDialog

    w = console
    assert w.set_game(game) and w.gm_button.isEnabled()
    dlg = InterventionDialog(w._factions(), parent=w)
    qtbot.addWidget(dlg)
    dlg.set_kind("unit")
    dlg.faction.setCurrentIndex(dlg.faction.findData(2))
    f = dlg.fields["unit"]
    f["region"].setText(_home(w.service, 2))
    f["men"].setValue(4)
    f["name"].setText("Scouts")
    f["items"].setText("horses=4, silver=50")
    f["skills"].setText("RIDI=1, obse=60d")
    f["avoid"].setChecked(True)
    dlg.note.setText("compensation")
    rec = w.intervene(dlg.intervention())
    assert rec is not None and rec.status == "applied", w.last_error
    st = w.service.state()
    u = next(u for u in st["units"] if u.name == "Scouts")
    assert (u.faction, u.men, u.avoid) == (2, 4, True)
    assert {(r.item, r.count) for r in st["unit_items"] if r.unit == u.number} == {
        ("horse", 4), ("silver", 50)}
    assert {(r.skill, r.days) for r in st["unit_skills"] if r.unit == u.number} == {
        ("riding", 120), ("observation", 60)}
    lines = w.results.interventions.lines()
    assert len(lines) == 1 and "Scouts" in lines[0] and "compensation" in lines[0]
    assert lines[0].startswith("▶ turn 0")


def test_a_field_it_cannot_read_is_said_in_the_dialog(qtbot, console, game):
    from app.console.gm import InterventionDialog

    console.set_game(game)
    dlg = InterventionDialog(console._factions(), parent=console)
    qtbot.addWidget(dlg)
    dlg.set_kind("unit")
    dlg.fields["unit"]["items"].setText("swords five")
    dlg._accept()
    assert "write NAME=NUMBER" in dlg.problem.text() and dlg.result() == 0


def test_a_refused_intervention_changes_nothing_and_says_why(qtbot, console, game):
    from engine.interventions import Intervention

    w = console
    w.set_game(game)
    before = w.service.state_json()
    assert w.intervene(Intervention("give", 1, {"count": -999_999})) is None
    assert "Refused: faction 1 has only $5000 unclaimed" in w.last_error
    assert w.service.state_json() == before
    assert w.results.interventions.lines() == ["No GM interventions in this game."]


def test_a_new_player_joins_from_the_console_and_has_a_report(qtbot, console, game):
    from app.console.gm import InterventionDialog

    w = console
    w.set_game(game)
    dlg = InterventionDialog(w._factions(), parent=w)
    qtbot.addWidget(dlg)
    dlg.set_kind("join")
    assert not dlg.faction.isEnabled()
    for key, value in (("name", "Sea Folk"), ("email", "sea@example.org"), ("password", "kelp")):
        dlg.fields["join"][key].setText(value)
    rec = w.intervene(dlg.intervention())
    assert rec is not None and "faction 3 (Sea Folk) joins" in rec.summary
    assert [w.results.report_who.itemData(i) for i in range(w.results.report_who.count())] == [
        None, 1, 2, 3]
    assert "Sea Folk (3)" in w.service.report(0, 3)
