"""The player viewer on a Continental Conquest bundle (the demo's): the clan's convoys as
units, its report, and the orders sheet checked as it is typed (the cc reader and checker),
with completion of the book's order words."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.cli import EXIT_OK, main
from tests.gui.conftest import open_viewer

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    from engine.bundle import write_bundles
    from engine.service import GameService

    d = tmp_path_factory.mktemp("ccview")
    assert main(["demo", "--ruleset", "cc", "--dir", str(d)]) == EXIT_OK
    with GameService.open(d / "cc-demo.db") as svc:
        paths = write_bundles(svc, d / "b")
    return next(p for p in paths if "-f100" in p.name)


@pytest.fixture
def viewer(qtbot, bundle):
    return open_viewer(qtbot, bundle)


def test_the_clan_sees_its_convoys_report_and_sheet(viewer):
    ws = viewer
    tv = ws.turn
    assert tv.faction == 100 and "CLAN 100 Robin's Hood" in tv.report_text
    kinds = {ws.units.model.index(r, 0).data() for r in range(ws.units.model.rowCount())}
    assert ws.units.model.rowCount() >= 2, kinds
    assert ws.orders.text().startswith("CONTINENTAL CONQUEST") and "ACCOUNT 48213" in ws.orders.text()
    assert not ws.orders.errors()
    # coordinates start off on a map of thousands of hexes (a click shows them)
    assert len(ws.gmap.grid) > 2500 and not ws.coords_action.isChecked()


def test_a_bad_order_is_flagged_with_its_line_then_fixed(viewer, qtbot):
    ws = viewer
    text = ws.orders.text().replace(" 1:\n", " 1: BUY 5 SPACESHIPS #1\n", 1)
    ws.orders.edit.setPlainText(text)
    qtbot.waitUntil(lambda: bool(ws.orders.errors()), timeout=3000)
    err = ws.orders.errors()[0]
    assert err.line == text.split("\n").index(" 1: BUY 5 SPACESHIPS #1") + 1
    assert "SPACESHIPS" in err.message
    ws.orders.edit.setPlainText(text.replace("BUY 5 SPACESHIPS #1", "BUY 5 FUEL"))
    qtbot.waitUntil(lambda: not ws.orders.errors(), timeout=3000)


def test_completion_knows_the_books_orders(viewer, qtbot):
    ed = viewer.orders.edit
    ed.moveCursor(ed.textCursor().MoveOperation.End)
    qtbot.keyClicks(ed, "CELEB")
    assert ed.completer.popup().isVisible()
    assert ed.completer.currentCompletion() == "CELEBRATE"
    qtbot.keyClick(ed.completer.popup(), Qt.Key.Key_Return)
    assert ed.toPlainText().endswith("CELEBRATE")
