"""The GM's own steps in a sequential game: closing a game turn, dropping a faction, and
giving a dropped position to a standby player. Each is a step of the game's history of its
own (rs_step.faction is NULL, info["gm"] says what it was), made in one transaction like a
run, so a rollback undoes it and `status`/the console's history show it.

Ruleset hooks: `gm_closes_cycle(scenario)` (the GM, not the last faction's turn, ends a
game turn), `drop_faction(ctx, faction, reason)` and `standby(ctx, faction, name)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.db import sequence
from engine.db.errors import GameDbError
from engine.db.results import RunResult
from engine.dice import Dice
from engine.ruleset import Ruleset, TurnContext, TurnModel
from engine.scenario import Faction
from engine.validation import faction_text_problem


class GmStepRefused(GameDbError):
    """A GM step the game or its ruleset does not allow now; nothing was changed."""


class GmSteps:
    """close_game_turn(), drop_faction(), standby() for GameService (uses StepRunner's
    _run_phases, _write_reports, _over and InterventionDesk's _scenario_now)."""

    def close_game_turn(self, now: str | None = None) -> RunResult:
        """Run the end of the game turn under way now, whoever has not had a turn yet (they
        fall behind, and the book's drop rule sees them). Only where the ruleset leaves the
        end of a game turn to the GM (CC: option close_game_turn = gm)."""
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]

        def check(scen: Any, _state: Any) -> None:
            if rs.turn_model != TurnModel.SEQUENTIAL or not rs.gm_closes_cycle(scen):
                raise GmStepRefused(
                    f"{self.store.where}: this game's turns end by themselves when every faction "  # type: ignore[attr-defined]
                    "has had its turn; the GM closes a game turn only where the rules say so "
                    "(Continental Conquest: option close_game_turn = gm)")

        def act(ctx: TurnContext, hist: sequence.History) -> dict[str, Any]:
            return self._end_game_turn(ctx, hist) | {"gm": "closed the game turn"}

        return self._gm_step(check, act, now, everyone=True)

    def _end_game_turn(self, ctx: TurnContext, hist: sequence.History) -> dict[str, Any]:
        """The ruleset's end of a game turn in ctx, whoever has not had a turn yet; what the
        step records: the game turn ended and who was behind."""
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]
        self._run_phases(ctx, ctx.state.step, rs.cycle_phases(), "end of game turn: ")  # type: ignore[attr-defined]
        behind = sorted(f for f in rs.cycle_factions(ctx.previous, ctx.scenario)
                        if hist.turns.get(f, 0) <= hist.cycles)
        return {"cycle_end": hist.cycles + 1, "behind": behind}

    def _close_when_due(self, c: Any, scen: Any, prev: Any, step: int, hist: sequence.History,
                        now: str, due: str, result: RunResult) -> Any:
        """In a run (its transaction `c`): the game turn under way ends at its due date, as a
        step of its own (like the GM's close); `hist` counts it. The new state."""
        def act(ctx: TurnContext, h: sequence.History) -> dict[str, Any]:
            return self._end_game_turn(ctx, h) | {"due": due, "gm": f"game turn {h.cycles + 1} "
                                                  f"ended at its due date ({due})"}

        new, info = self._gm_step_in(c, scen, prev, step, act, now, hist, True, result)
        hist.cycles, hist.cycle_from = info["cycle_end"], due
        return new

    def drop_faction(self, faction: int, reason: str = "", now: str | None = None) -> RunResult:
        """Drop a faction's position: it takes no more turns; its units stay and defend."""
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]

        def check(scen: Any, _state: Any) -> None:
            if scen.faction(faction) is None:
                raise GmStepRefused(f"{self.store.where}: there is no faction {faction}")  # type: ignore[attr-defined]

        def act(ctx: TurnContext, _hist: sequence.History) -> dict[str, Any]:
            rs.drop_faction(ctx, faction, reason)
            return {"gm": f"dropped faction {faction}" + (f": {reason}" if reason else ""),
                    "dropped": faction}

        return self._gm_step(check, act, now)

    def standby(self, faction: int, name: str, email: str, password: str,
                now: str | None = None) -> RunResult:
        """A standby player takes over a faction's position (dropped or not): the position
        plays on under the new player's name, address and password."""
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]
        old: dict[str, Faction] = {}

        def check(scen: Any, _state: Any) -> None:
            f = scen.faction(faction)
            if f is None:
                raise GmStepRefused(f"{self.store.where}: there is no faction {faction}")  # type: ignore[attr-defined]
            if not password.strip():
                raise GmStepRefused("the standby player needs a password (the account number)")
            old["f"] = f

        def act(ctx: TurnContext, _hist: sequence.History) -> dict[str, Any]:
            rs.standby(ctx, faction, name, password)
            return {"gm": f"faction {faction} taken over by a standby player ({name})",
                    "standby": faction}

        def save(c: Any) -> None:  # in the step's transaction: the new password with the step
            f = old["f"]
            attrs = {**f.attrs, **({"player": name} if name else {})}
            new = Faction(f.number, f.name, email or f.email, password=password, colour=f.colour, attrs=attrs)
            if (why := faction_text_problem(new)) is not None:
                raise GmStepRefused(why)
            self.store.save_faction(c, new)  # type: ignore[attr-defined]
            self._scenario = None

        return self._gm_step(check, act, now, after=save)

    # ---- one GM step ------------------------------------------------------------------

    def _gm_step(self, check: Callable[[Any, Any], None],
                 act: Callable[[TurnContext, sequence.History], dict[str, Any]],
                 now: str | None, everyone: bool = False,
                 after: Callable[[Any], None] | None = None) -> RunResult:
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]
        st = self.store  # type: ignore[attr-defined]
        result = RunResult()
        now = now or sequence.now_utc()
        with st.transaction() as c:
            cur = int(st.game(c).current_step)
            # the stored factions with the map already read, as an intervention (a GM step
            # changes no map, and this service may have read it already)
            scen = self._scenario = self._scenario_now(c)  # type: ignore[attr-defined]
            prev = st.load_state(c, rs.state_schema, cur)
            if self._over(prev, scen):  # type: ignore[attr-defined]
                raise GmStepRefused(f"{st.where}: the game ended at turn {cur}; nothing was done")
            check(scen, prev)
            step = cur + 1
            new, info = self._gm_step_in(c, scen, prev, step, act, now, sequence.History.of(st.steps(c)),
                                         everyone, result)
            st.set_game(c, current_step=step)
            if after is not None:
                after(c)
            for s in st.submissions(c, with_diagnostics=False):  # waiting turns wait on
                if s.step == step and s.applied_step is None:
                    st.set_submission(c, s.id, step=step + 1)
            result.note = info["gm"]
        return result

    def _gm_step_in(self, c: Any, scen: Any, prev: Any, step: int,
                    act: Callable[[TurnContext, sequence.History], dict[str, Any]], now: str,
                    hist: sequence.History, everyone: bool = False,
                    result: RunResult | None = None) -> tuple[Any, dict[str, Any]]:
        """A step without a faction in the transaction `c`: `act` on a copy of `prev`, saved
        with its events and reports (everyone's, or only the GM's). (new state, info)."""
        rs: Ruleset = self.ruleset  # type: ignore[attr-defined]
        st = self.store  # type: ignore[attr-defined]
        new = prev.copy()
        new.step = step
        ctx = TurnContext(rs, scen, new, prev, {}, Dice(int(st.game(c).seed), step))
        ctx.scratch["now"] = now
        info = act(ctx, hist)
        st.save_state(c, new)
        st.save_events(c, step, ctx.events)
        st.add_step(c, step, "done", seed=f"{st.game(c).seed}/{step}", faction=None, info=info,
                    processed_at=now)
        # the end of a game turn tells every clan (Top Clans, the game's end); the others
        # only the GM
        only = None if everyone else set()
        reports = self._write_reports(c, new, ctx.events, scen, [], step,  # type: ignore[attr-defined]
                                      lambda _f, _m: None, only)
        if result is not None:
            result.reports += reports
            result.steps.append(step)
            result.events += len(ctx.events)
        return new, info
