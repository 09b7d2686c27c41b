"""GM console: intake through the console, background runs, rollback and re-run, export."""

import email
from email import policy
from pathlib import Path

import pytest

from engine import registry
from engine.bundle import open_bundle
from engine.service import GameService


@pytest.fixture
def demo_game(tmp_path):
    scen, script = registry.get("kok").demo()
    db = tmp_path / "demo.db"
    GameService.create(db, scen).close()
    return db, script


def run_and_wait(qtbot, w, outcome="done"):
    got = []
    w.runFinished.connect(got.append)
    assert w.run_turn()
    assert not w.run_button.isEnabled() and w.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: bool(got), timeout=120_000)
    assert got == [outcome], w.last_error
    return w.last_run


def test_intake_dashboard_run_rollback_export(qtbot, console, demo_game, tmp_path):
    db, script = demo_game
    w = console
    assert w.set_game(db)
    assert "The Four Kingdoms" in w.title.text() and "turn <b>1</b>" in w.title.text()
    assert "deadline <b>2026-03-09</b>" in w.title.text()  # start date + 7 days per turn
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    good = script[1][1]
    end = good.rindex("\nEND")
    bad_line = good[:end].count("\n") + 2
    (inbox / "SP1.R1").write_text(good[:end] + "\nMARCH 3 2 ZZ" + good[end:], encoding="utf-8")
    (inbox / "SP2.R5").write_text(script[1][2], encoding="utf-8")        # the wrong turn
    (inbox / "notes.txt").write_text("PLA 3 2 HO\nLAND 4 2 HO 1 S\n", encoding="utf-8")
    rep = w.import_paths([inbox])
    assert len(rep.results) == 3

    d = w.dashboard
    rows = {int(d.item(r, 0).text()): d.row_values(r) for r in range(d.rowCount())}
    assert rows[1][2] == "yes" and int(rows[1][5]) >= 1 and "SP1.R1" in rows[1][4]
    assert rows[2][2] == "NO ORDERS"  # its orders are for turn 5
    assert rows[3][2] == rows[4][2] == "NO ORDERS"

    t = w.intake
    by_name = {t.values(r)["Source"]: t.values(r) for r in range(t.rowCount())}
    assert by_name["SP1.R1"]["Faction"] == "1" and by_name["SP1.R1"]["Turn"] == "1"
    assert int(by_name["SP1.R1"]["Errors"]) >= 1
    assert by_name["SP1.R1"]["Status"] == "waiting for the run"
    assert by_name["SP2.R5"]["Faction"] == "2" and by_name["SP2.R5"]["Status"] == "early (for turn 5)"
    assert "SP2.R5" in by_name["SP2.R5"]["Matched by"] or by_name["SP2.R5"]["Matched by"]
    assert by_name["notes.txt"]["Status"] == "UNMATCHED" and by_name["notes.txt"]["Faction"] == ""

    # the text with its diagnostics inline: the bad line highlighted, the message listed
    t.selectRow(t.row_of("SP1.R1"))
    assert bad_line in w.view.highlighted_lines()
    msgs = [w.view.problems.item(i).text() for i in range(w.view.problems.count())]
    assert any(m.startswith(f"line {bad_line} ") for m in msgs)
    w.view.problems.setCurrentRow([i for i, m in enumerate(msgs) if m.startswith(f"line {bad_line} ")][0])
    assert w.view.text.textCursor().blockNumber() + 1 == bad_line

    # reassign the wrong-turn file to turn 1: faction 2 now has orders
    sid = t.subs[t.row_of("SP2.R5")].id
    w.reassign(sid, 2, 1)
    rows = {int(d.item(r, 0).text()): d.row_values(r) for r in range(d.rowCount())}
    assert rows[2][2] == "yes"

    timing = run_and_wait(qtbot, w)
    assert w.service.current_step == 1 and timing.ticks > 0
    assert w.results.slider.maximum() == 1 and w.results.visible_events()
    assert w.results.map.changed  # moves and placements changed cells
    w.tabs.setCurrentWidget(w.charts)  # charts are drawn when shown
    assert w.charts.plots  # the ruleset's measures, one plot each
    for f, text in sorted(script[2].items()):
        w.paste_text(text, faction=f)
    run_and_wait(qtbot, w)
    assert w.service.current_step == 2
    svc = w.service
    fmts = svc.ruleset.report_formats
    before = svc.state_json(2)
    reports = {(f.number, fmt): svc.report(2, f.number, fmt).encode()
               for f in svc.scenario.factions for fmt in fmts}

    # the history slider shows the start of the game
    w.results.slider.setValue(0)
    assert "Turn 0 (the start) of 2" in w.results.step_label.text()
    assert w.results.rollback_button.isEnabled()

    assert w.rollback(1, confirm=False)
    assert w.service.current_step == 1
    run_and_wait(qtbot, w)
    assert w.service.current_step == 2
    assert svc.state_json(2) == before
    assert {(f.number, fmt): svc.report(2, f.number, fmt).encode()
            for f in svc.scenario.factions for fmt in fmts} == reports

    # event filter
    # events read as the report's sentences, filtered by kind, faction and place
    ev = w.results.events
    ev.kind.setCurrentText("kok.moved")
    moved = w.results.visible_events()
    assert moved and all(" moves " in x for x in moved)
    ev.faction.setCurrentIndex(ev.faction.findData(2))
    assert w.results.visible_events() and all(x.startswith("Persians moves")
                                              for x in w.results.visible_events())
    ev.kind.setCurrentIndex(0)
    ev.faction.setCurrentIndex(0)
    report = svc.report(2, None, "text")
    placed = [x for x in w.results.visible_events() if " places " in x]
    assert placed and all(x in report for x in placed)   # the report's own sentences
    ev.place.setText(placed[0].rsplit(" at ", 1)[1])
    shown = w.results.visible_events()
    assert placed[0] in shown and len(shown) < len(w.results.chronicle.told)
    # a click goes to the place on the map
    picked = []
    ev.placePicked.connect(picked.append)
    item = ev.list.item(shown.index(placed[0]))
    ev.list.itemClicked.emit(item)
    assert picked and picked[-1] == w.results.chronicle.filter(text=placed[0])[0].cells[0]
    assert w.results.map.scene.selection.cells.size == 1
    ev.place.clear()
    # battles: the report's narrative (sides, rounds, losses, outcome), not the fields
    told = w.results.battles.visible_text().splitlines()
    assert ("Battle of" in told[0]) == ("\nBATTLES\n" in report)
    assert all(x.strip() in report for x in told if x.startswith("  "))

    out = tmp_path / "export"
    done = []
    w.exportFinished.connect(done.append)
    assert w.export_in_background(out)  # bundles of a big game take a while: off the GUI thread
    assert not w.export_button.isEnabled()
    qtbot.waitUntil(lambda: bool(done), timeout=120_000)
    res = done[0]
    assert res is not None, w.last_error
    names = {p.name for p in res.reports}
    for f in svc.scenario.factions:
        for ext in ("txt", "html", "json"):
            assert f"the-four-kingdoms-demo-t002-f{f.number:02d}.{ext}" in names
    assert len(res.bundles) == 4 and all(p.suffix == ".rsbundle" for p in res.bundles)
    assert open_bundle(res.bundles[0]).step == 2
    assert res.png is not None and res.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.charts is not None and res.charts.stat().st_size > 1000
    assert sorted(p.name for p in res.outbox) == [
        f"the-four-kingdoms-demo-t002-f{n:02d}.eml" for n in (1, 2, 3, 4)]
    msg = email.message_from_bytes(res.outbox[0].read_bytes(), policy=policy.default)
    assert msg["To"] == "achaeans@example.org"
    assert msg["Subject"] == "DEMO 3 (report of turn 2; reply with your orders)"
    assert any(a.get_filename().endswith(".rsbundle.gz") for a in msg.iter_attachments())


def test_failed_run_leaves_game_and_says_why(qtbot, console, tmp_path):
    import tinyrules

    scen = tinyrules.tiny_scenario()
    scen.options.set("explode_at", 1)
    db = tmp_path / "tiny.db"
    GameService.create(db, scen).close()
    w = console
    assert w.set_game(db)
    before = w.service.state_json()
    run_and_wait(qtbot, w, "failed")
    assert "exploded on purpose" in w.last_error
    assert w.service.current_step == 0 and w.service.state_json() == before
    assert w.run_button.isEnabled()


def test_cancel_leaves_game(qtbot, console, tmp_path):
    import threading

    import tinyrules

    db = tmp_path / "tiny.db"
    GameService.create(db, tinyrules.tiny_scenario()).close()
    w = console
    assert w.set_game(db)
    got = []
    w.runFinished.connect(got.append)
    # cancel before the worker reaches its first progress point: the run must stop there
    w.runner.start = _start_cancelled(w.runner.start, w.runner, threading)
    w.run_turn()
    qtbot.waitUntil(lambda: bool(got), timeout=60_000)
    assert got == ["cancelled"]
    assert w.service.current_step == 0


def _start_cancelled(start, runner, threading):
    def go(*a, **k):
        start(*a, **k)
        runner.worker.cancel_event.set()
    return go


def test_drop_and_paste_dialog_paths(qtbot, console, demo_game, tmp_path):
    db, script = demo_game
    w = console
    w.drop_paths([Path(db)])  # a game database dropped: opens it
    assert w.service is not None and w.service.current_step == 0
    f = tmp_path / "SP3.R1"
    f.write_text(script[1][3], encoding="utf-8")
    from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    ev = QDropEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    w.dropEvent(ev)  # anything else is imported
    d = w.dashboard
    rows = {int(d.item(r, 0).text()): d.row_values(r) for r in range(d.rowCount())}
    assert rows[3][2] == "yes"


def test_export_to_synchronous(qtbot, console, demo_game, tmp_path):
    db, script = demo_game
    w = console
    assert w.set_game(db)
    for f, text in script[1].items():
        w.paste_text(text, faction=f)
    run_and_wait(qtbot, w)
    res = w.export_to(tmp_path / "x")
    assert res is not None and len(res.outbox) == 4 and res.png is not None
    assert "4 bundles" in res.summary()


@pytest.mark.parametrize("name", ["artnes", "coi"])
def test_other_rulesets(qtbot, console, tmp_path, name):
    """The console knows no ruleset: ARTNES (regions) and Conquest of Island (real time)."""
    scen, script = registry.get(name).demo()
    db = tmp_path / f"{name}.db"
    with GameService.create(db, scen) as svc:
        for f, text in (script.get(1) or {}).items():
            svc.import_text(text, faction=f)
    w = console
    assert w.set_game(db)
    assert w.dashboard.rowCount() == len(scen.factions)
    run_and_wait(qtbot, w)
    w.tabs.setCurrentWidget(w.charts)
    assert w.charts.plots
    if name == "artnes":
        assert w.service.current_step == 1 and w.results.visible_events()
        assert w.results.map.owned  # realms named by area colour their cells
        assert w.results.map.changed
    else:  # a forum game with no posts yet: nothing to run, said plainly
        assert w.service.current_step == 0 and "nothing to run" in w.run_label.text()
        assert w.results.map.owned


def test_held_orders_are_accepted_or_rejected_in_the_console(qtbot, console, demo_game, tmp_path):
    """A mail from a stranger claiming faction 3 is held; the GM accepts or rejects it."""
    from email.message import EmailMessage

    db, script = demo_game
    w = console
    assert w.set_game(db)
    paths = []
    for i, frm in enumerate(("mallory@evil.example", "eve@evil.example")):
        m = EmailMessage()
        m["From"], m["Subject"], m["Message-ID"] = frm, "orders", f"<h{i}@x>"
        m.set_content("see attached")
        m.add_attachment(script[1][3].encode(), maintype="text", subtype="plain", filename="SP3.R1")
        paths.append(tmp_path / f"m{i}.eml")
        paths[-1].write_bytes(bytes(m))
    rep = w.import_paths(paths)
    first, second = (r.submission_id for r in rep.results)
    assert w.intake.select_id(first)
    assert w.intake.values(w.intake.currentRow())["Status"] == "HELD: sender not verified"
    assert "held for you" in w.view.header.text()
    assert w.accept_button.isEnabled() and w.reject_button.isEnabled()
    w.accept_button.click()
    assert w.intake.values(w.intake.currentRow())["Status"] == "waiting for the run"
    assert not w.accept_button.isEnabled()
    assert w.service.status().factions[2].submitted
    w.decide_held("reject", second)
    assert w.intake.values(w.intake.currentRow())["Status"] == "rejected by the GM"
    assert w.service.status().factions[2].submission_id == first
