"""Checker findings are part of the turn (engine/orders/screen.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import tinyrules

from engine import registry
from engine.orders import Diagnostic, Order, OrderSheet, Severity
from engine.orders.screen import screen
from engine.service import GameService


@dataclass
class Triple(Order):
    items: list[str] = field(default_factory=list)


def _err(line: int, part: int = 0) -> Diagnostic:
    return Diagnostic("illegal", "no", line, part=part)


def _without(order, parts):
    items = [x for k, x in enumerate(order.items, start=1) if k not in parts]
    return replace(order, items=items) if items else None


def test_errors_refuse_orders_or_parts_and_warnings_nothing():
    sheet = OrderSheet([Triple(1, "A", ["a", "b", "c"]), Triple(2, "B", ["d"]),
                        Triple(3, "C", ["e", "f"]), Triple(4, "D", ["g"])], source="s")
    found = [_err(1, 2), _err(2), _err(3, 1), _err(3, 2),
             Diagnostic("illegal", "hm", 4, severity=Severity.WARNING)]
    out = screen(sheet, found, _without)
    assert [(o.line, o.items) for o in out.sheet.orders] == [(1, ["a", "c"]), (4, ["g"])]
    assert out.refused_lines == {2, 3}
    assert [(o.line, p) for o, p in out.trimmed] == [(1, frozenset({2}))]
    assert [o.line for o in sheet.orders] == [1, 2, 3, 4]  # the sheet itself is kept
    # without the hook a refused part refuses the whole order
    assert [o.line for o in screen(sheet, [_err(1, 2)]).sheet.orders] == [2, 3, 4]
    # an error on line 0 is about the sheet as a whole
    assert screen(sheet, [_err(0)]).sheet.orders == []
    assert screen(sheet, []).sheet is sheet
    # what the reader could not read never reached the order: nothing to refuse
    assert len(screen(sheet, [Diagnostic("invalid", "?", 1)]).sheet.orders) == 4


class NoGrowing(tinyrules.Tiny):
    """Tiny, but its checker refuses every GROW (which the tiny turn would carry out)."""

    name = "tiny-nogrow"

    def check(self, sheet, state, faction, scenario):
        return [Diagnostic("illegal", "no growing this season", o.line, 0, o.text)
                for o in sheet.orders if isinstance(o, tinyrules.Grow)]


registry.register(NoGrowing())


def test_the_turn_leaves_out_what_the_checker_refuses_and_reports_it(tmp_path):
    svc = GameService.create(tmp_path / "g.db", tinyrules.tiny_scenario("tiny-nogrow"),
                             busy_timeout=0.2)
    try:
        svc.import_text("#tiny 1 1\nGROW 1\nMOVE 0/0 S\n", source_name="reds.txt")
        svc.run()  # faction 2 is silent: its NMR order (GROW 1) is checked too
        assert [e for e in svc.events(1) if e.kind == "tiny_grew"] == []
        assert any(e.kind == "tiny_moved" for e in svc.events(1))
        reds = svc.report(1, 1)
        assert "reds.txt:2: error (illegal): no growing this season" in reds
        assert "no growing this season" in svc.report(1, 2)   # the NMR order, refused
        gold = {p.faction: p.gold for p in svc.state(1)["purses"]}
        assert gold[1] == 3 + 1 and gold[2] == 4 + 1           # nothing spent, income paid
    finally:
        svc.close()
