"""Random sequences of import, run and rollback keep the game's bookkeeping consistent, and
a step run twice from the same orders gives the same state (hypothesis state machine)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import tinyrules
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from engine.service import GameService

TEXTS = ["GROW 1\n", "GROW 2\n", "MOVE 0/0 E\n", "MOVE 2/0 S\nGROW 1\n", "JUNK\n", ""]


class GameMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="rs-stateful-"))
        self.svc = GameService.create(self.dir / "g.db", tinyrules.tiny_scenario())
        self.seen: dict[tuple[int, tuple[int, ...]], str] = {}  # (step, orders used) -> state

    def teardown(self):
        self.svc.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @rule(faction=st.sampled_from([1, 2, 3]), ahead=st.integers(-1, 1), text=st.sampled_from(TEXTS))
    def import_orders(self, faction, ahead, text):
        step = max(1, self.svc.pending_step + ahead)
        r = self.svc.import_text(f"#tiny {faction} {step}\n{text}", source_name=f"f{faction}.txt")
        assert r.submission_id is not None  # stored, matched or not (faction 3 does not exist)

    @rule()
    def run(self):
        before = self.svc.current_step
        res = self.svc.run()
        if res.steps:
            assert res.steps == [before + 1]
            step = res.steps[0]
            used = tuple(sorted(s.id for s in self.svc.submissions() if s.applied_step == step))
            key = (step, used, self.svc.state_json(step - 1))
            state = self.svc.state_json(step)
            assert self.seen.setdefault(key, state) == state  # same inputs, same state

    @rule(back=st.integers(0, 3))
    def rollback(self, back):
        to = max(0, self.svc.current_step - back)
        self.svc.rollback(to)
        assert self.svc.current_step == to

    @invariant()
    def bookkeeping(self):
        cur = self.svc.current_step
        assert [s.number for s in self.svc.steps()] == list(range(cur + 1))
        subs = self.svc.submissions()
        active = {}
        for s in subs:
            assert s.applied_step is None or s.applied_step <= cur
            if s.active and s.faction is not None:
                key = (s.faction, s.step)
                assert key not in active, f"two active submissions for {key}"
                active[key] = s.id
        st_ = self.svc.status()
        assert len(st_.factions) == 2
        for f in st_.factions:
            assert f.submitted == ((f.faction, cur + 1) in active)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(max_examples=20, stateful_step_count=12, deadline=None,
                                    suppress_health_check=[HealthCheck.too_slow])
