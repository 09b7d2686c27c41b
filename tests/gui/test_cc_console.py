"""The GM console on a Continental Conquest game: the dashboard's clan turns (turns taken,
next turn from, waiting), Run early, Close game turn and Drop clan (engine/db/gm_steps.py)."""

from pathlib import Path

import pytest

from engine.scenario_file import load_scenario
from engine.service import GameService

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "maps" / "cc" / "north-america-8.toml"


@pytest.fixture
def cc_game(tmp_path):
    scen = load_scenario(SCENARIO)
    scen.options.set("close_game_turn", "gm")
    db = tmp_path / "cc.db"
    with GameService.create(db, scen) as svc:
        sheets = {f.number: svc.ruleset.orders_template(svc.state(0), f.number, svc.scenario)
                  for f in scen.factions}
    return db, sheets


def _wait(qtbot, w, start):
    got = []
    w.runFinished.connect(got.append)
    assert start()
    qtbot.waitUntil(lambda: bool(got), timeout=120_000)
    assert got == ["done"], w.last_error


def test_clan_turns_run_early_close_and_drop(qtbot, console, cc_game):
    db, sheets = cc_game
    w = console
    assert w.set_game(db)
    seq = w.sequence
    assert seq.shown() and seq.close_button.isVisibleTo(seq)
    heads = [w.dashboard.horizontalHeaderItem(c).text() for c in range(w.dashboard.columnCount())]
    assert heads[-3:] == ["Turns", "Next turn from", "Waiting"]
    for f, text in sheets.items():
        w.paste_text(text, f)
    # a clan's second sheet this week waits for the week to pass (the book's minimum)
    w.paste_text(sheets[100].replace("TURN 1", "TURN 2"), 100)
    _wait(qtbot, w, w.run_turn)
    assert w.service.current_step == 8
    row = next(r for r in range(w.dashboard.rowCount()) if w.dashboard.item(r, 0).text() == "100")
    values = w.dashboard.row_values(row)
    assert values[7] == "1" and values[8] != "any time" and "turn 2" in values[9]
    # Run early runs it now
    seq.early.setChecked(True)
    _wait(qtbot, w, w.run_turn)
    assert w.service.current_step == 9
    # the game turn waits for the GM (option close_game_turn = gm)
    assert w.service.status().game_turns == 0
    _wait(qtbot, w, seq.close_game_turn)
    st = w.service.status()
    assert st.game_turns == 1 and st.gm_steps[-1][2] == "closed the game turn"
    assert "closed the game turn" in w.run_label.text()
    assert "game turns ended: <b>1</b>" in w.title.text()
    _wait(qtbot, w, lambda: seq.drop(166, "left the game"))
    row = next(r for r in range(w.dashboard.rowCount()) if w.dashboard.item(r, 0).text() == "166")
    assert w.dashboard.row_values(row)[2] == "DROPPED"
    assert "The GM dropped clan 166: left the game" in w.service.report(w.service.current_step, None)


def test_due_dates_read_as_the_reports_give_them(qtbot, console, cc_game):
    """The game turn's due date (title) and each clan's next turn (dashboard) are shown as
    'YYYY-MM-DD HH:MM UTC', the words of the clan's report, not as stored ISO text."""
    from app.console.dashboard import when

    db, sheets = cc_game
    with GameService.open(db) as svc:
        svc.set_option("close_game_turn", "due")
        svc.set_option("days_per_turn", 14)
        svc.import_text(sheets[100], "file", "c100.txt", received_at="2026-03-02T10:00:00Z", faction=100)
        assert svc.run(now="2026-03-02T12:34:56Z").steps == [1]
        status = svc.status()
    assert status.game_turn_due == "2026-03-16T12:34:56Z"
    assert console.set_game(db)
    assert "the next ends by <b>2026-03-16 12:34 UTC</b>" in console.title.text()
    dash = console.dashboard
    row = next(r for r in range(dash.rowCount()) if dash.item(r, 0).text() == "100")
    assert dash.row_values(row)[8] == "2026-03-09 12:34 UTC"   # a week after its turn ran
    other = next(r for r in range(dash.rowCount()) if dash.item(r, 0).text() == "111")
    assert dash.row_values(other)[8] == "any time"
    assert when("2026-03-16T14:34:56+02:00") == "2026-03-16 12:34 UTC"
    assert when("next week") == "next week"   # no time: shown as it is


def test_the_standby_dialog_masks_the_new_password_until_shown(qtbot):
    from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

    from app.console.sequence_bar import StandbyDialog

    dlg = StandbyDialog([(100, "Robin's Hood"), (137, "Wolves")])
    qtbot.addWidget(dlg)
    ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dlg.password.echoMode() == QLineEdit.EchoMode.Password and not ok.isEnabled()
    dlg.clan.setCurrentIndex(1)
    qtbot.keyClicks(dlg.name, "Ann")
    qtbot.keyClicks(dlg.email, "ann@example.org")
    qtbot.keyClicks(dlg.password, "55123 ")
    assert ok.isEnabled() and dlg.password.displayText() != "55123 "  # masked as typed
    dlg.show_password.setChecked(True)
    assert dlg.password.echoMode() == QLineEdit.EchoMode.Normal and dlg.password.displayText() == "55123 "
    dlg.show_password.setChecked(False)
    assert dlg.password.echoMode() == QLineEdit.EchoMode.Password
    assert dlg.values() == (137, "55123", "Ann", "ann@example.org")


def test_the_designer_shows_every_cc_catalog_and_option(qtbot, cc_game):
    from app.designer.workspace import ScenarioDesigner

    db, _sheets = cc_game
    svc = GameService.open(db)
    d = ScenarioDesigner()
    qtbot.addWidget(d)
    d.resize(1300, 850)
    d.show()
    d.set_service(svc)
    specs = svc.ruleset.catalog_specs()
    titles = [d.tabs.tabText(i) for i in range(d.tabs.count())]
    assert d.tabs.count() == 4 + len(specs)
    assert {"Factions", "Options", "Game"} <= set(titles)
    assert set(d.catalog_pages) == set(svc.scenario.catalogs) >= {"vehicles", "terrain", "buildings",
                                                                 "random_events", "loot"}  # cc-house
    names = {spec.name for spec in svc.ruleset.option_specs()}
    assert {"close_game_turn", "turn_order", "min_days_between_turns", "morale_decay", "spy_wrong_pct"} <= names
    assert d.scen.options["close_game_turn"] == "gm"
    d.clear()
    svc.close()
