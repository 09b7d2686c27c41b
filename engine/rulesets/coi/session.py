"""Run one import of posts outside the game service: tests, the demo check, scripts."""

from __future__ import annotations

from engine.dice import Dice
from engine.events import EventLog
from engine.orders import Diagnostic
from engine.ruleset import Ruleset, Submission, TurnContext
from engine.scenario import Scenario
from engine.state import State


def import_posts(ruleset: Ruleset, scenario: Scenario, state: State,
                 posts: list[Submission]) -> tuple[State, EventLog, list[Diagnostic]]:
    """State after applying `posts` as one step; the given state is left unchanged."""
    new = state.copy()
    new.step = state.step + 1
    ctx = TurnContext(ruleset, scenario, new, state, {}, Dice(scenario.seed, "step", new.step),
                      submissions=list(posts))
    ctx.scratch["diagnostics"] = []
    ruleset.run_step(ctx)
    return new, ctx.events, ctx.scratch["diagnostics"]
