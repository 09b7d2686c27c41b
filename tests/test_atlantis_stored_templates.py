"""The Atlantis run stores each faction's orders template with its reports
(Ruleset.templates_with_reports) and `export` writes the stored ones: the same files as
templates made from the turn's saved state. A game run before templates were stored, or
a turn whose state or scenario changed after the run, gets them made from the state."""

from __future__ import annotations

from engine import registry
from engine.interventions import Intervention
from engine.service import GameService
from tests.atlantis_generated import run_generated

RS = registry.get("atlantis")


def _run_game(tmp_path, name: str) -> GameService:
    return run_generated(tmp_path, name, 11)


def _templates(folder) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*-orders.txt"))}


def _made_from_state(svc: GameService, step: int) -> dict[int, str]:
    state = svc.state(step)
    return {f.number: RS.orders_template(state, f.number, svc.scenario) for f in svc.scenario.factions}


def test_the_run_stores_the_templates_export_would_make_from_the_state(tmp_path):
    svc = _run_game(tmp_path, "g")
    with svc.store.reading() as c:
        stored = svc.store.load_templates(c, 1)
        keys = svc.store.report_keys(c, 1)
    made = _made_from_state(svc, 1)
    assert sorted(stored) == [1, 2, 3, 4]
    assert {f: bytes(t).decode() if isinstance(t, bytes) else t for f, t in stored.items()} == made
    assert all(fmt in RS.report_formats for _who, fmt in keys)  # a template is not a report
    written = svc.export(tmp_path / "out")
    assert len(written) == 4 * 3 + 4
    files = _templates(tmp_path / "out")
    assert list(files.values()) == [made[f] for f in sorted(made, key=lambda n: f"f{n:02d}")]
    svc.close()


def test_a_game_without_stored_templates_exports_the_same_files(tmp_path):
    svc = _run_game(tmp_path, "g")
    svc.export(tmp_path / "stored")
    with svc.store.transaction() as c:
        svc.store.drop_templates(c)  # as a game run before the run stored them
    with svc.store.reading() as c:
        assert svc.store.load_templates(c, 1) == {}
    svc.export(tmp_path / "made")
    for name in ("stored", "made"):
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == \
            sorted(p.name for p in (tmp_path / "stored").iterdir())
    assert _templates(tmp_path / "made") == _templates(tmp_path / "stored")
    svc.close()


def test_an_intervention_after_the_run_shows_in_the_exported_template(tmp_path):
    svc = _run_game(tmp_path, "g")
    svc.intervene(Intervention("password", 2, {"password": "n3w"}))
    with svc.store.reading() as c:
        assert svc.store.load_templates(c, 1) == {}  # made from the state it replaced
    svc.export(tmp_path / "out")
    text = (tmp_path / "out" / next(p.name for p in (tmp_path / "out").glob("*-f02-orders.txt"))).read_text()
    assert '#atlantis 2 "n3w"' in text
    assert _templates(tmp_path / "out") == {
        p: t for p, t in zip(sorted(_templates(tmp_path / "out")),
                             [_made_from_state(svc, 1)[f] for f in (1, 2, 3, 4)], strict=True)}
    svc.close()


def test_a_scenario_edit_and_a_rollback_forget_the_stored_templates(tmp_path):
    svc = _run_game(tmp_path, "g")
    svc.set_option("ocean_name", "Grey Sea")
    with svc.store.reading() as c:
        assert svc.store.load_templates(c, 1) == {}
    svc.rollback(0)
    svc.run()
    with svc.store.reading() as c:
        assert sorted(svc.store.load_templates(c, 1)) == [1, 2, 3, 4]  # the re-run stored them
    svc.close()


def test_the_template_from_the_report_is_the_template_from_the_state_or_made_again(tmp_path):
    from engine.events import EventLog
    from engine.rulesets.atlantis import report

    svc = _run_game(tmp_path, "g")
    state, scen = svc.state(1), svc.scenario
    for f in (1, 2, 3, 4):
        data = RS.report(state, EventLog(), f, scen, [])
        assert RS.report_template(state, f, scen, data) == RS.orders_template(state, f, scen)
        RS.render_all(data, RS.report_formats)  # as the run does: the template section kept
        assert RS._laid_out is not None and RS._laid_out[0] is data
        assert RS.report_template(state, f, scen, data) == RS.orders_template(state, f, scen)
        assert RS._laid_out is None  # used once, not held
    # a unit in a structure its region lacks: the report leaves it out, the template does
    # not, so the template is made from the state again
    state = svc.state(1)  # a state of its own: the index of the one above is kept
    unit = next(u for u in state["units"] if u.faction == 2)
    unit.structure = 999
    data = RS.report(state, EventLog(), 2, scen, [])
    assert not report._cached_index(state, scen).units_as_template()
    made = RS.report_template(state, 2, scen, data)
    assert made == RS.orders_template(state, 2, scen) and f"unit {unit.number}" in made
    svc.close()
