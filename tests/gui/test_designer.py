"""The scenario designer (issue 7), driven through its widgets: a King of Kings game made
with the New game dialog, catalog edits kept and refused, options, factions placed on the
map by a click, the problems view, undo/redo, and the text scenario file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialogButtonBox, QSpinBox

from engine.service import GameService
from engine.validation import starts_of


def make_game(qtbot, folder, source="demo", name="Spring campaign", seed=77, ruleset="kok"):
    """Fill in the New game dialog through its widgets and press Create game."""
    from app.designer.new_game import NewGameDialog

    dlg = NewGameDialog(folder=folder)
    qtbot.addWidget(dlg)
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData(ruleset))
    dlg.source.setCurrentIndex(dlg.source.findData(source))
    qtbot.keyClicks(dlg.name, name)
    dlg.seed.setValue(seed)
    db = folder / f"{name.replace(' ', '-').lower()}.rsgame"
    dlg.db.setText(str(db))
    dlg.db.setModified(True)
    ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    return dlg, db


@pytest.fixture()
def designer(qtbot, tmp_path):
    from app.designer.workspace import ScenarioDesigner

    dlg, db = make_game(qtbot, tmp_path)
    assert dlg.result() == dlg.DialogCode.Accepted, dlg.error.text()
    d = ScenarioDesigner()
    qtbot.addWidget(d)
    d.resize(1300, 850)
    d.show()
    qtbot.waitExposed(d)
    d.set_service(dlg.service)
    d.db = db
    yield d
    d.clear()


def reopened(db):
    with GameService.open(db) as svc:
        return svc.scenario, svc.state(0)


def col(model, name):
    return model.spec.names.index(name)


def test_new_game_dialog_creates_the_kok_game(designer):
    scen, state = reopened(designer.db)
    assert (scen.ruleset, scen.name, scen.seed) == ("kok", "Spring campaign", 77)
    assert [f.name for f in scen.factions] == ["Achaeans", "Persians", "Egyptians", "Scythians"]
    assert len(state.tables["provinces"]) == 24
    assert [designer.tabs.tabText(i) for i in range(designer.tabs.count())] == [
        "Game", "Factions", "Options", "Troop list", "Terrain table", "Tactics table", "Problems"]


def test_new_game_dialog_refuses_missing_name_and_existing_file(qtbot, tmp_path):
    from app.designer.new_game import NewGameDialog

    dlg, db = make_game(qtbot, tmp_path, source="blank", name="Blank")
    assert dlg.result() == dlg.DialogCode.Accepted
    dlg.service.close()
    with GameService.open(db) as svc:
        assert svc.scenario.map.kind == "square" and svc.scenario.factions == []
    again = NewGameDialog(folder=tmp_path)
    qtbot.addWidget(again)
    again.db.setText(str(db))
    again.accept()
    assert again.result() != again.DialogCode.Accepted and "name the game" in again.error.text()
    again.name.setText("Other")
    again.accept()
    assert "exists already" in again.error.text()


def test_troop_edits_saved_refused_with_reason(designer):
    page = designer.catalog_pages["troops"]
    m = page.model
    hit = m.index(0, col(m, "hit"))
    assert m.setData(hit, 55)
    assert reopened(designer.db)[0].catalogs["troops"].rows[0]["hit"] == 55

    assert not m.setData(hit, 120)
    assert "above the maximum 100" in page.reason.text()
    assert "above the maximum" in m.data(hit, Qt.ItemDataRole.ToolTipRole)
    assert m.catalog.rows[0]["hit"] == 55
    assert reopened(designer.db)[0].catalogs["troops"].rows[0]["hit"] == 55

    assert not m.setData(m.index(1, col(m, "gold")), -3)
    assert "below the minimum" in page.reason.text()
    assert not m.setData(m.index(1, col(m, "symbol")), "f")  # case-blind duplicate of F
    assert "used already" in page.reason.text()
    assert [r["symbol"] for r in reopened(designer.db)[0].catalogs["troops"].rows][:2] == ["F", "B"]

    # the editors honour the limits; line edits say why as you type
    editor = page.delegate.createEditor(page.view.viewport(), None, hit)
    assert isinstance(editor, QSpinBox) and (editor.minimum(), editor.maximum()) == (0, 100)
    line = page.delegate.createEditor(page.view.viewport(), None, m.index(1, col(m, "symbol")))
    line.textEdited.emit("F")
    assert "used already" in designer.status_line.text()

    # a flag column is a check box
    pincer = m.index(0, col(m, "pincer"))
    before = m.catalog.rows[0]["pincer"]
    assert m.setData(pincer, Qt.CheckState.Unchecked if before else Qt.CheckState.Checked,
                     Qt.ItemDataRole.CheckStateRole)
    assert reopened(designer.db)[0].catalogs["troops"].rows[0]["pincer"] is (not before)


def test_rows_added_duplicated_removed_and_undone(designer):
    page = designer.catalog_pages["troops"]
    n = page.model.rowCount()
    page.select_row(0)
    page.duplicate_row()
    rows = reopened(designer.db)[0].catalogs["troops"].rows
    assert len(rows) == n + 1 and rows[1]["symbol"] not in {"F", "f"}
    assert rows[1]["hit"] == rows[0]["hit"]
    page.add_row()
    assert page.model.rowCount() == n + 2
    page.select_row(0)
    page.remove_row()
    assert [r["symbol"] for r in reopened(designer.db)[0].catalogs["troops"].rows][0] != "F"
    for _ in range(3):
        designer.stack.undo()
    assert [r["symbol"] for r in reopened(designer.db)[0].catalogs["troops"].rows] == \
        ["F", "B", "H", "C", "G", "S"]
    designer.stack.redo()
    assert page.model.rowCount() == n + 1


def test_options_toggled_saved_and_undone(designer, qtbot):
    box = designer.options_panel.widgets["loyalty"]
    was = box.isChecked()
    assert was is designer.scen.options["loyalty"]
    designer.tabs.setCurrentWidget(designer.options_panel)
    box.click()
    assert reopened(designer.db)[0].options["loyalty"] is (not was)
    spin = designer.options_panel.widgets["loyalty_chance"]
    assert spin.maximum() == 100
    old = spin.value()
    spin.setValue(old + 7)
    assert reopened(designer.db)[0].options["loyalty_chance"] == old + 7
    assert box.toolTip()
    designer.stack.undo()
    designer.stack.undo()
    assert reopened(designer.db)[0].options["loyalty"] is was
    assert box.isChecked() is was and spin.value() == old
    designer.stack.redo()
    assert box.isChecked() is not was


def click_cell(qtbot, designer, cell):
    cv = designer.canvas
    x, y = designer.scen.map.grid.center(cell)
    cv.centerOn(QPointF(x, y))
    pos = cv.mapFromScene(QPointF(x, y))
    qtbot.mouseClick(cv.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_faction_added_start_placed_by_click_and_problems_view(designer, qtbot):
    f = designer.factions
    qtbot.mouseClick(f.add_button, Qt.MouseButton.LeftButton)
    new = designer.scen.factions[-1]
    assert new.number == 5 and f.current().number == 5
    designer.revalidate()
    msgs = [p for p in designer.problems if p.faction == 5 and "no start" in p.message]
    assert msgs and msgs[0].severity == "error"
    tree = designer.problems_view.tree
    hit = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
           if "no start" in tree.topLevelItem(i).text(2)]
    assert hit
    designer.problems_view._activated(hit[0])
    assert designer.tabs.currentWidget() is f and f.current().number == 5

    # set the e-mail through the table model, then place the start by a click on the map
    m = f.model
    assert m.setData(m.index(4, 2), "fifth@example.org")
    qtbot.mouseClick(f.start_button, Qt.MouseButton.LeftButton)
    assert designer.canvas.tool is not None
    cell = designer.scen.map.grid.parse("10/10")
    assert designer.scen.map.terrain_at(cell) != "sea"
    click_cell(qtbot, designer, cell)
    assert designer.scen.faction(5).attrs["provinces"] == ["10/10"]
    scen, state = reopened(designer.db)
    assert scen.faction(5).attrs["provinces"] == ["10/10"]
    assert scen.faction(5).email == "fifth@example.org"
    assert any(p.cell == cell and p.owner == 5 for p in state.tables["provinces"])
    assert not [p for p in designer.revalidate() if p.faction == 5 and p.severity == "error"]

    # starting units: click adds, right-click takes them off
    qtbot.mouseClick(f.units_button, Qt.MouseButton.LeftButton)
    f.unit_kind.setCurrentText("H")
    f.unit_count.setValue(2)
    click_cell(qtbot, designer, cell)
    assert designer.scen.faction(5).attrs["armies"] == [{"cell": "10/10", "troop": "H", "count": 2}]
    state = reopened(designer.db)[1]
    assert any(a.cell == cell and a.tribe == 5 and a.troop == "H" and a.count == 2
               for a in state.tables["armies"])

    # colour, undo and redo
    f.choose_colour(QColor("#123456"))
    assert reopened(designer.db)[0].faction(5).colour == "#123456"
    designer.stack.undo()   # colour
    designer.stack.undo()   # units
    designer.stack.undo()   # start
    assert not designer.scen.faction(5).attrs.get("provinces")
    assert not reopened(designer.db)[0].faction(5).attrs.get("provinces")
    assert any(p.faction == 5 and "no start" in p.message for p in designer.revalidate())
    designer.stack.redo()
    assert reopened(designer.db)[0].faction(5).attrs["provinces"] == ["10/10"]

    # a second faction on the same cell: overlapping starts are listed
    qtbot.mouseClick(f.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(f.start_button, Qt.MouseButton.LeftButton)
    click_cell(qtbot, designer, cell)
    assert any("both start" in p.message and p.cell == cell for p in designer.revalidate())
    # removing a faction is undoable too
    f.remove_faction()
    assert designer.scen.faction(6) is None and reopened(designer.db)[0].faction(6) is None
    designer.stack.undo()
    assert reopened(designer.db)[0].faction(6) is not None


def test_scenario_file_export_and_import(designer, tmp_path):
    m = designer.catalog_pages["troops"].model
    assert m.setData(m.index(0, col(m, "hit")), 61)
    designer.options_panel.widgets["capture"].setChecked(True)
    out = tmp_path / "export" / "spring.toml"
    assert not designer.export_scenario(out)  # no such folder: said, not raised
    assert "Cannot write" in designer.status_line.text()
    out.parent.mkdir()
    assert designer.export_scenario(out)
    text = out.read_text(encoding="utf-8")
    assert 'ruleset = "kok"' in text and "capture = true" in text
    db2 = tmp_path / "again.rsgame"
    assert designer.import_scenario(out, db2)
    assert designer.service.where.endswith("again.rsgame")
    a, b = reopened(designer.db)[0], reopened(db2)[0]
    assert a.catalogs["troops"].rows == b.catalogs["troops"].rows
    assert a.options.values == b.options.values
    assert [f.to_dict() for f in a.factions] == [f.to_dict() for f in b.factions]
    assert reopened(designer.db)[1].to_json() == reopened(db2)[1].to_json()
    assert not designer.import_scenario(out, db2)  # exists: refused with a reason
    assert "exists already" in designer.status_line.text()


def test_main_window_scenario_workspace_and_screenshot(qtbot, tmp_path):
    from app.cli.gui_cmd import main as gui_main
    from app.main_window import MainWindow

    dlg, db = make_game(qtbot, tmp_path, name="Shot")
    dlg.service.close()
    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    assert win.open_path(db)
    win.set_workspace("scenario")
    assert win.designer.scen is not None and win.designer.scen.name == "Shot"
    assert win.designer.scen.map is win.doc.gmap  # one map shared with the editor
    # a game made with New game opens in the main window and the designer follows it
    dlg2, db2 = make_game(qtbot, tmp_path, name="Second", ruleset="coi")
    win.designer.open_created(dlg2.service, db2)
    assert win.doc.path == db2 and win.designer.scen.name == "Second"
    assert win.tabs.currentWidget() is win.designer
    # opening a plain map leaves the designer with nothing to design
    win.set_workspace("editor")
    assert win.open_path(Path(__file__).resolve().parents[2] / "maps" / "kok-demo" / "map.rsmap")
    assert win.designer.scen is None
    win.close()
    png = tmp_path / "designer.png"
    assert gui_main([str(db), "--workspace", "scenario", "--screenshot", str(png)]) == 0
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize("ruleset", ["artnes", "coi"])
def test_other_rulesets_get_their_own_editors_and_start_form(qtbot, tmp_path, ruleset):
    from app.designer.workspace import ScenarioDesigner
    from engine import registry

    rs = registry.get(ruleset)
    dlg, db = make_game(qtbot, tmp_path, name=f"{ruleset} test", ruleset=ruleset)
    assert dlg.result() == dlg.DialogCode.Accepted, dlg.error.text()
    d = ScenarioDesigner()
    qtbot.addWidget(d)
    d.resize(1300, 850)
    d.show()
    qtbot.waitExposed(d)
    d.set_service(dlg.service)
    assert d.tabs.count() == 4 + len(rs.catalog_specs())
    before = reopened(db)[1].to_json()
    f = d.factions
    qtbot.mouseClick(f.add_button, Qt.MouseButton.LeftButton)
    n = d.scen.factions[-1].number
    qtbot.mouseClick(f.start_button, Qt.MouseButton.LeftButton)
    m = d.scen.map
    if ruleset == "artnes":  # a realm nobody holds: click any of its cells
        held = {r.casefold() for x in d.scen.factions for r in x.attrs.get("realms", [])}
        area = next(a for a in sorted(m.areas.values(), key=lambda a: a.name)
                    if a.kind == "realm" and a.name.casefold() not in held and a.cells)
        click_cell(qtbot, d, sorted(area.cells)[len(area.cells) // 2])
        assert reopened(db)[0].faction(n).attrs["realms"] == [area.name]
    else:  # one port hex, written "col,row"
        cell = next(c for c in range(len(m.grid)) if m.terrain_at(c) not in ("shallow", "deep")
                    and not any(c in s.cells for x in d.scen.factions
                                for s in starts_of(d.scen, rs, x)))
        click_cell(qtbot, d, cell)
        assert reopened(db)[0].faction(n).attrs["port"] == m.grid.label(cell, "col,row")
    assert not [p for p in d.revalidate() if p.faction == n and "no start" in p.message]
    assert reopened(db)[1].to_json() != before  # the start (turn 0) was rebuilt
    d.clear()


def test_other_faction_settings_edited_as_json_or_text(designer):
    f = designer.factions
    f.select_number(1)
    ex = f.extras
    keys = {ex.item(r, 0).text(): r for r in range(ex.rowCount())}
    assert set(keys) == {"gold", "wood"}  # provinces are placed on the map, not listed here
    ex.item(keys["gold"], 1).setText("45")
    scen, state = reopened(designer.db)
    assert scen.faction(1).attrs["gold"] == 45
    assert scen.faction(1).attrs["provinces"] == designer.scen.faction(1).attrs["provinces"]
    assert [t.gold for t in state.tables["tribes"] if t.number == 1] == [45]
    f.add_extra("motto", "Bronze and sea")
    assert reopened(designer.db)[0].faction(1).attrs["motto"] == "Bronze and sea"
    designer.stack.undo()
    designer.stack.undo()
    assert reopened(designer.db)[0].faction(1).attrs.get("gold") == 30
    assert "motto" not in reopened(designer.db)[0].faction(1).attrs


def test_game_facts_set_and_undone(designer):
    g = designer.game_panel
    assert "Spring campaign" in g.facts.text() and "seed 77" in g.facts.text()
    rows = {g.table.item(r, 0).text(): r for r in range(g.table.rowCount())}
    assert rows.keys() >= {"game", "end_turn"}
    g.table.item(rows["end_turn"], 1).setText("9")
    assert reopened(designer.db)[0].meta["end_turn"] == 9
    assert reopened(designer.db)[1].tables["world"][0].end_turn == 9  # the start follows
    g.add_fact("deadline", "2026-03-09T18:00Z")
    assert reopened(designer.db)[0].meta["deadline"] == "2026-03-09T18:00Z"
    designer.stack.undo()
    designer.stack.undo()
    meta = reopened(designer.db)[0].meta
    assert "deadline" not in meta and meta["end_turn"] == 6


def test_atlantis_units_column_lists_the_start_states_units(qtbot, tmp_path):
    """Atlantis places no start assets: a faction's units are rows of its start state, and
    the Units column lists those (name, men, region), not nothing."""
    from app.designer.factions import COLUMNS
    from app.designer.workspace import ScenarioDesigner

    dlg, db = make_game(qtbot, tmp_path, name="atlantis test", ruleset="atlantis")
    assert dlg.result() == dlg.DialogCode.Accepted, dlg.error.text()
    d = ScenarioDesigner()
    qtbot.addWidget(d)
    d.set_service(dlg.service)
    model = d.factions.model
    column = [k for k, _ in COLUMNS].index("units")
    state = dlg.service.state(0)
    for row, f in enumerate(d.scen.factions):
        text = model.data(model.index(row, column))
        mine = sorted((u for u in state["units"] if u.faction == f.number),
                      key=lambda u: (u.cell, u.seq, u.number))
        men = "1 man" if mine[0].men == 1 else f"{mine[0].men} men"
        assert mine and text.startswith(f"{mine[0].name or 'Unit'} ({mine[0].number}) "
                                        f"{men} at "), (f.number, text)
    d.clear()
