"""The fast paths of docs/performance.md give the same results as the plain ones they
replaced: a board handed from phase to phase, one checker for many sheets, state tables
read on demand, events to dicts, record copies, raw bulk inserts, the collector's
settings around a run."""

from __future__ import annotations

import dataclasses
import gc
import json

import pytest

from engine.dice import Dice
from engine.events import EventLog, _plain
from engine.registry import get
from engine.ruleset import TurnContext
from engine.rulesets.kok.generate import generate_game
from engine.service import GameService


@pytest.fixture(scope="module")
def game():
    return generate_game(40, 30, tribes=6, armies=600, seed=5)


def _turn_context(game) -> tuple:
    """(ruleset, context) of turn 1 of a generated game, every tribe's orders read."""
    scen, orders = game
    rs = get("kok")
    state = rs.initial_state(scen)
    new = state.copy()
    new.step = 1
    sheets = {f: rs.parse_orders(t, f"SP{f}.R1") for f, t in orders.items()}
    return rs, TurnContext(rs, scen, new, state, sheets, Dice(scen.seed, 1), EventLog())


def _turn(game, fresh_boards: bool, monkeypatch):
    from engine.rulesets.kok import board as board_mod

    if fresh_boards:  # the old way: every phase reads a new board from the state
        monkeypatch.setattr(board_mod.Board, "load",
                            classmethod(lambda cls, ctx: cls(ctx.state, ctx.scenario)))
    rs, ctx = _turn_context(game)
    rs.run_step(ctx)
    monkeypatch.undo()
    return ctx.state.to_json(), [json.dumps(r.event.to_dict(), sort_keys=True)
                                 for r in ctx.events.records]


def test_board_handed_between_phases_gives_the_same_turn(game, monkeypatch):
    handed = _turn(game, False, monkeypatch)
    fresh = _turn(game, True, monkeypatch)
    assert len(handed[1]) > 100
    assert handed == fresh


def test_the_handed_board_is_the_board_a_fresh_load_gives(game):
    """After every phase, the board kept for the next one has the contents and the order
    (what the phases iterate, and so roll dice in) of one read afresh from the state."""
    from engine.rulesets.kok.board import _KEY, Board

    def shape(b: Board):
        return ([(c, [(t, list(u.items())) for t, u in by.items()]) for c, by in b.units.items()],
                list(b.provinces), list(b.tribes), list(b.alliances), list(b.troops))

    scen, _ = game
    rs, ctx = _turn_context(game)
    handed = 0
    for phase in rs.phases():
        kept = ctx.scratch.get(_KEY)
        phase.run(ctx)
        b = ctx.scratch[_KEY]
        handed += b is kept
        assert b._current(ctx.state)
        assert shape(b) == shape(Board(ctx.state, scen)), phase.name
    assert handed >= 5  # most phases got the board of the one before


def test_one_checker_for_many_sheets_finds_what_check_finds(game):
    scen, orders = game
    rs = get("kok")
    state = rs.initial_state(scen)
    checker = rs.checker(state, scen)
    found = 0
    for faction in sorted(orders):
        for other, text in sorted(orders.items()):  # everyone's orders, as this faction's
            a = checker(rs.parse_orders(text, f"SP{other}"), faction)
            b = rs.check(rs.parse_orders(text, f"SP{other}"), state, faction, scen)
            assert [d.format() for d in a] == [d.format() for d in b]
            found += len(a)
    assert found > 50  # other tribes' orders are full of findings
    assert state.to_json() == rs.initial_state(scen).to_json()  # the state is untouched


def test_state_tables_on_demand(tmp_path, game, monkeypatch):
    scen, _ = game
    from engine.db.store import GameStore

    with GameService.create(tmp_path / "g.db", scen) as svc:
        schema = svc.ruleset.state_schema
        read: list[str] = []
        real = GameStore._load_table

        def counting(self, c, schema_, spec, step):
            read.append(spec.name)
            return real(self, c, schema_, spec, step)

        with svc.store.reading() as c:
            whole = svc.store.load_state(c, schema, 0)
            monkeypatch.setattr(GameStore, "_load_table", counting)
            lazy = svc.store.load_state(c, schema, 0, lazy=True)
            assert svc.ruleset.is_finished(lazy, scen) is False
            assert read == ["world"]
            assert lazy.to_json() == whole.to_json()
        assert sorted(read) == sorted(schema)


def test_event_dicts_as_asdict_made_them(game):
    rs, ctx = _turn_context(game)
    rs.run_step(ctx)
    for r in ctx.events.records:
        ev = r.event
        assert ev.to_dict() == {"kind": ev.kind, **_plain(dataclasses.asdict(ev))}


def test_state_copy_gives_independent_records(game):
    scen, _ = game
    state = get("kok").initial_state(scen)
    twin = state.copy()
    assert twin.to_json() == state.to_json()
    twin.tables["armies"][0].count += 7
    assert twin.to_json() != state.to_json()

    @dataclasses.dataclass(slots=True)
    class Slotted:
        a: int

    from engine.state import State

    s = State({"t": Slotted}, 0, {"t": [Slotted(1)]})
    c = s.copy()
    c.tables["t"][0].a = 2
    assert s.tables["t"][0].a == 1


def test_bulk_insert_rows(tmp_path):
    from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, select

    from engine.db import bulk
    from engine.db.store import make_engine

    eng = make_engine(f"sqlite:///{tmp_path / 'b.db'}")
    t = Table("t", MetaData(), Column("a", Integer), Column("b", String), Column("c", Boolean))
    with eng.connect() as c, c.begin():
        t.create(c)
        assert bulk.insert_rows(c, t, ["a", "b", "c"], [(1, "x", True), (2, None, False)]) == 2
        assert bulk.insert_rows(c, t, ["a", "b", "c"], []) == 0
        assert c.execute(select(t).order_by(t.c.a)).all() == [(1, "x", True), (2, None, False)]
    eng.dispose()


def test_a_run_leaves_the_collector_as_it_was(tmp_path, game):
    scen, orders = game
    before = gc.get_threshold()
    with GameService.create(tmp_path / "g.db", scen) as svc:
        for f, text in orders.items():
            svc.import_text(text, faction=f)
        assert svc.run().steps == [1]
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_overlapping_runs_restore_the_collector_once_both_are_done():
    from engine.db.runner import _fewer_collections

    before = gc.get_threshold()
    a, b = _fewer_collections(), _fewer_collections()
    a.__enter__()
    b.__enter__()  # a second run (another thread) while the first goes on
    a.__exit__(None, None, None)
    assert gc.get_threshold()[0] >= 50_000  # b still runs
    b.__exit__(None, None, None)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
