"""Running steps: one transaction per run, the ruleset's phases, state, events, reports.

A mixin of GameService (engine/service.py), kept apart because it is the one place that
writes a whole step. Turn models: simultaneous (one step, NMR orders for the silent),
sequential (one step per waiting faction turn, ordered by engine/db/sequence.py; the end
of a game turn's cycle phases in the step that completes it), realtime (one step with
every new post in time order: ctx.submissions, their sheets in ctx.scratch["sheets"];
after a rollback, one step per removed step with the posts it applied before).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import threading
from collections.abc import Callable, Iterator
from typing import Any

from engine import markup
from engine.db import sequence
from engine.db.errors import RunCancelled, RunFailed, TurnMoved
from engine.db.intake_bridge import own as _own
from engine.db.journal import StoredSubmission
from engine.db.results import RunResult
from engine.dice import Dice
from engine.events import EventLog
from engine.orders import Diagnostic, OrderSheet
from engine.orders.screen import screen_for, screens_orders
from engine.parallel import Shared, in_copy
from engine.ruleset import Ruleset, TurnContext, TurnModel
from engine.scenario import Scenario
from engine.state import State

Progress = Callable[[float, str], None]


def _rendered(rs: Ruleset, data: dict[str, Any],
              formats: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """Every format of one report (`formats`: the game's, Ruleset.formats), with no
    control or bidi character from player text (engine/markup). The JSON rendering holds
    every string of the data, so when it is clean the data is, and the walk of a big
    report's data (50 ms on a 100x100 map) is saved; otherwise the data is cleaned and
    rendered again. Without JSON, the renderings themselves are looked at."""
    formats = rs.report_formats if formats is None else formats
    out = rs.render_all(data, formats)
    js = next((text for fmt, text in out if fmt == "json"), None)
    if js is None:
        cleaned = [(fmt, markup.clean(text)) for fmt, text in out]
        if all(a == b for (_f, a), (_g, b) in zip(out, cleaned, strict=True)):
            return cleaned
        return [(fmt, markup.clean(text)) for fmt, text in rs.render_all(markup.clean_data(data), formats)]
    clean_js = markup.json_is_clean(js)
    if not clean_js:
        data = markup.clean_data(data)
        out = rs.render_all(data, formats)
    # a JSON text found clean is (json_is_clean looks for all that clean removes)
    return [(fmt, text if fmt == "json" and clean_js else markup.clean(text)) for fmt, text in out]


def _replay_step(s: StoredSubmission) -> int | None:
    r = s.submission.meta.get("replay_step")
    return int(r) if r is not None else None


def _next_batch(posts: list[StoredSubmission], cur: int) -> list[StoredSubmission]:
    """Real time: the posts of the next step. After a rollback the removed steps are made
    again one per run with the posts each applied before (their "replay_step"), so the
    re-run is the same game; posts new since then wait for a step after those."""
    replays = sorted({r for s in posts if (r := _replay_step(s)) is not None and r > cur})
    if not replays:
        return posts
    return [s for s in posts if _replay_step(s) == replays[0]]


_GC_LOCK = threading.Lock()
_RUNS = 0                      # runs under way (threads)
_SAVED = gc.get_threshold()    # the collector's thresholds before the first of them


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Python's cyclic garbage collector, left as it is, walked the big game state again
    and again during a turn (a fifth of a 100x100 turn). While a run lasts, what exists
    already is set aside (gc.freeze; the run freezes the state it reads too), collections
    start after 200,000 new objects instead of 700 and the older generations are walked
    five times less often (a 1,000-faction turn's reports are millions of objects);
    afterwards everything is as before, and collectable again."""
    global _RUNS, _SAVED
    with _GC_LOCK:  # runs in several threads: the first one in sets, the last one out restores
        _RUNS += 1
        if _RUNS == 1:
            _SAVED = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(max(_SAVED[0], 200_000), max(_SAVED[1], 50), max(_SAVED[2], 50))
    try:
        yield
    finally:
        with _GC_LOCK:
            _RUNS -= 1
            if _RUNS == 0:
                gc.set_threshold(*_SAVED)
                gc.unfreeze()



def _refused_sets(subs: list[StoredSubmission], step: int) -> list[Diagnostic]:
    """A notice for each set of orders for `step` refused for a wrong password, for the
    faction it claimed: its report says so (no sender, no text: only that it came)."""
    out = []
    for s in subs:
        meta = s.submission.meta
        if s.step != step or meta.get("match") != "bad_password" or meta.get("dismissed") \
                or s.submission.faction is None:
            continue
        when = (s.submission.received_at or s.imported_at or "")[:16].replace("T", " ")
        out.append(Diagnostic(
            "illegal", f"A set of orders for your faction{' received ' + when if when else ''} "
            "was refused: its password is not your faction's; none of it was carried out",
            0, file="", faction=s.submission.faction))
    return out


class StepRunner:
    """run() for GameService; expects store, ruleset, _parse, _check_findings, _checked
    (engine/db/checked.py), _active, _scenario_now (InterventionDesk), _recheck from it."""

    def run(self, progress: Progress | None = None, cancel: threading.Event | None = None,
            for_step: int | None = None, now: str | None = None, early: bool = False) -> RunResult:
        """Run what is due, in ONE transaction: on any failure the game stays as it was.

        for_step: the turn the caller decided to run (after looking at status, say). If
        another run made that turn while this one waited for the game's lock, TurnMoved
        is raised and nothing is done: two runs started together make one turn, not two.
        now, early (sequential): the time the turns run at (default: the clock), and
        whether to run turns the ruleset's interval between a faction's turns holds back.
        """
        progress = progress or (lambda _f, _m: None)
        result = RunResult()
        self._refused_sets: list[Diagnostic] = []
        with _fewer_collections(), self.store.transaction() as c:
            cur = int(self.store.game(c).current_step)
            if for_step is not None and for_step != cur + 1:
                raise TurnMoved(f"{self.store.where}: this run was for turn {for_step}, but the "
                                f"game is at turn {cur} now (another run made it meanwhile); "
                                "nothing was done")
            # read once, also for _recheck; the map this service read already is kept (a map
            # does not change in play: a 1,000-faction world's is a tenth of the run)
            # or the state and scenario an import in this process read, if nothing was
            # written to the game since (engine/db/checked.py)
            ahead = self._checked.ahead(cur, self.store.version(c))
            scen = self._scenario = ahead[1] if ahead is not None else self._scenario_now(c)
            model = self.ruleset.turn_model
            everything = self.store.submissions(c, with_diagnostics=False)
            pending = self._active(everything, scen)
            state = ahead[0] if ahead is not None else \
                self.store.load_state(c, self.ruleset.state_schema, cur)
            gc.freeze()  # the state and scenario just read, set aside too (_fewer_collections)
            turns: list[int] = []
            hist = waiting = None
            if model == TurnModel.SEQUENTIAL:
                now = now or sequence.now_utc()
                hist = sequence.History.of(self.store.steps(c))
                runs, waiting = sequence.plan(self.ruleset, state, scen,
                                              [s for s in pending if s.step is None or s.step > cur],
                                              hist, now, early)
                batches, turns = [[s] for s, _t in runs], [t for _s, t in runs]
                result.waiting = [(h.submission.id, h.submission.faction, h.turn, h.reason,
                                   h.ready_at) for h in waiting]
                if not batches:
                    result.note = "no orders waiting; nothing to run" if not waiting else \
                        f"{len(waiting)} turn(s) waiting, none may run yet; see status"
            elif model == TurnModel.REALTIME:
                # every new post goes to the ruleset, matched or not: forum games have
                # GM posts and players who joined by splitting off (the ruleset decides)
                posts = sorted((s for s in everything if s.active),
                               key=lambda s: (s.submission.received_at or s.imported_at, s.seq))
                batches = [_next_batch(posts, cur)] if posts else []
                if not batches:
                    result.note = "no new posts; nothing to run"
            else:
                batches = [[s for s in pending if s.step == cur + 1]]
                self._refused_sets = _refused_sets(everything, cur + 1)
            over = self._over(state, scen)
            if over:
                batches, result.note = [], f"the game ended at turn {cur}; nothing to run"
            # sequential: a game turn past its due date ends before the turns sent after it
            days = self._cycle_days(scen) if hist is not None and not over else 0.0
            step = cur
            for i, batch in enumerate(batches):
                if days:
                    state, step = self._close_overdue(c, scen, state, step, hist, now, days,
                                                      turns[i], sequence.arrival(batch[0])[0], result)
                    if self._over(state, scen):
                        result.note = f"the game ended at turn {step}; the turns after it were not run"
                        break
                step += 1
                share = (i / len(batches), (i + 1) / len(batches))
                seq = (hist, turns[i], now) if hist is not None else None
                state = self._run_step(c, scen, state, step, batch, model, result, progress,
                                       cancel, share, seq)
                if seq is not None and i + 1 < len(batches) and self._over(state, scen):
                    result.note = f"the game ended at turn {step}; the turns after it were not run"
                    break
            else:
                if days:  # nothing (more) to run: a game turn past its due date ends now
                    closed = len(result.steps)
                    state, step = self._close_overdue(c, scen, state, step, hist, now, days,
                                                      None, "", result)
                    if len(result.steps) > closed and not batches:
                        result.note = (f"game turn {hist.cycles} ended at its due date; "
                                       "no orders waiting")
            if result.steps:
                self.store.set_game(c, current_step=result.steps[-1])
                if waiting:  # they wait for the next step now
                    sequence.carry_forward(self.store, c, waiting, result.steps[-1])
                # orders sent ahead were checked against an older state; check them again
                self._recheck(c, result.steps[-1])
                progress(1.0, f"saved turn {result.steps[-1]}")
        self._last_checker = None  # holds the state before the run; let it go
        self._checked.forget()  # checked against the state before the run
        return result

    # at most this many game turns end at their due dates in one run (a game left alone for
    # months does not run years of empty game turns in one go)
    MOST_DUE_CLOSES = 4

    def _cycle_days(self, scen: Scenario) -> float:
        try:
            return 0.0 if self.ruleset.gm_closes_cycle(scen) else float(self.ruleset.cycle_days(scen) or 0)
        except Exception as e:
            raise RunFailed(f"the game turn's length failed ({type(e).__name__}: {e}); "
                            "the game is unchanged") from e

    def _close_overdue(self, c: Any, scen: Scenario, state: State, step: int,
                       hist: sequence.History, now: str, days: float, turn: int | None,
                       arrived: str, result: RunResult) -> tuple[State, int]:
        """End the game turns past their due dates before a turn (`turn`, arrived at
        `arrived`; None: the run's end) that should run after them (sequence.History.overdue);
        each is a step of its own (gm_steps._close_when_due). (state, last step)."""
        for _ in range(self.MOST_DUE_CLOSES):
            due = hist.overdue(days, now, turn, arrived)
            if due is None or self._over(state, scen):
                break
            step += 1
            state = self._close_when_due(c, scen, state, step, hist, now, due, result)  # type: ignore[attr-defined]
        return state, step

    def _over(self, state: State, scen: Scenario) -> bool:
        try:
            return bool(self.ruleset.is_finished(state, scen))
        except Exception:
            return False

    def _run_step(self, c: Any, scen: Scenario, prev: State, step: int, batch: list[StoredSubmission],
                  model: TurnModel, result: RunResult, progress: Progress,
                  cancel: threading.Event | None, share: tuple[float, float],
                  seq: tuple[sequence.History, int, str] | None = None) -> State:
        rs, st = self.ruleset, self.store
        lo, hi = share

        def tell(frac: float, msg: str) -> None:
            if cancel is not None and cancel.is_set():
                raise RunCancelled("run cancelled; the game is as it was")
            progress(lo + (hi - lo) * frac, msg)

        tell(0.0, f"turn {step}: checking orders")
        game_seed = int(st.game(c).seed)
        dice = Dice(game_seed, step)
        sheets: dict[int, OrderSheet] = {}
        ordered: list[OrderSheet] = []
        diags_by_sub: dict[int, list[Diagnostic]] = {}
        all_diags: list[Diagnostic] = []
        screened = screens_orders(rs)
        # real time: each post's findings as the batch applies, in order (kept on the post)
        posts = self._post_findings(batch, scen, prev) if model == TurnModel.REALTIME else None
        for s in batch:
            sub = s.submission
            # read and checked by an import in this process against this same state?
            done = self._checked.take(sub.source_name or sub.source_kind, sub.text, s.faction,
                                      prev, scen) if screened and s.faction is not None else None
            sheet = done[0] if done is not None else self._parse(sub)
            intake = [_own(Diagnostic.from_dict(x), sub.source_name, s.faction)
                      for x in sub.meta.get("diagnostics", [])]
            read: list[Diagnostic] = []
            if s.faction is not None:
                read = [_own(x, sheet.source, s.faction) for x in sheet.diagnostics]
                if screened:
                    # the checker's findings are part of the turn (engine/orders/screen.py):
                    # what it refuses is not carried out, and the reports say so
                    found = done[1] if done is not None else \
                        self._check_findings(sheet, prev, s.faction, scen)
                    read += found
                    sheet = screen_for(rs, sheet, found)
            diags_by_sub[s.id] = posts[s.id] if posts is not None else intake + read
            # real time: the turn reads and checks each post again at its own moment and adds
            # those findings itself; a check against the state before the batch would be stale
            all_diags += intake + read if screened else intake
            ordered.append(sheet)
            sheet.header.setdefault("faction", s.faction)
            if model != TurnModel.REALTIME:
                sheets[s.faction] = sheet
        nmr: list[int] = []
        if model == TurnModel.SIMULTANEOUS:
            playing = set(self._playing(prev, scen, step))
            for f in scen.factions:
                if f.number not in sheets and f.number in playing:
                    try:
                        sheets[f.number] = rs.auto_orders(prev, f.number, scen, dice.sub("nmr", f.number))
                    except Exception as e:
                        raise RunFailed(f"turn {step}: NMR orders for faction {f.number} failed "
                                        f"({type(e).__name__}: {e}); the game is unchanged") from e
                    nmr.append(f.number)
                    # orders written for a silent faction are checked like anyone's (2.9:
                    # they appear in the report), and what the checker refuses is left out
                    found = self._check_findings(sheets[f.number], prev, f.number, scen)
                    all_diags += found
                    sheets[f.number] = screen_for(rs, sheets[f.number], found)
        new = prev.copy()
        new.step = step
        ctx = TurnContext(rs, scen, new, prev, sheets, dice,
                          submissions=[s.submission for s in batch] if model == TurnModel.REALTIME else [])
        ctx.scratch["diagnostics"] = all_diags
        if seq is not None:  # sequential: the time the turn runs at (a due date for reports)
            ctx.scratch["now"] = seq[2]
        ctx.scratch["nmr"] = nmr
        if model == TurnModel.REALTIME:
            ctx.scratch["sheets"] = ordered
        all_diags += getattr(self, "_refused_sets", [])  # told in the factions' reports
        self._refused_sets = []
        self._adjudicate(ctx, step, tell)
        self._add_new_factions(c, scen, new, step)
        info: dict[str, Any] = {"nmr": nmr, "submissions": [s.id for s in batch]}
        whose = batch[0].faction if model == TurnModel.SEQUENTIAL and batch else None
        if seq is not None and whose is not None:
            info.update(self._turn_taken(ctx, step, whose, seq, scen, tell))
        if rs.gm_report_on_demand and all_diags:  # what the GM's report, made when asked, lists
            info["gm_diagnostics"] = [d.to_dict() for d in all_diags]
        only = self._report_factions(new, scen, step) if model == TurnModel.SIMULTANEOUS else None
        if whose is not None:
            try:
                only = set(rs.step_report_factions(new, ctx.events, whose, scen)) | {whose}
            except Exception as e:
                raise RunFailed(f"turn {step}: who gets reports failed ({type(e).__name__}: {e}); "
                                "the game is unchanged") from e
        templates: list[tuple[int, str]] | None = [] if rs.templates_with_reports else None
        # the reports read the new state alone: forked copies of this process make them
        # while this one saves the state (engine/parallel; here, all of it, where not)
        with self._begin_reports(new, ctx.events, scen, all_diags, step, tell, only,
                                 gm=not rs.gm_report_on_demand, templates=templates,
                                 here=False) as reports:
            tell(0.5, f"turn {step}: saving the new state")
            st.save_state(c, new)
            st.save_events(c, step, ctx.events)
            st.add_step(c, step, "done", seed=f"{game_seed}/{step}", faction=whose, info=info,
                        processed_at=seq[2] if seq is not None else None)
            st.set_submissions(c, [s.id for s in batch], applied_step=step)
            for s in batch:
                if "turn" in info:  # the turn it was, kept for a re-run after a rollback
                    sequence.pin_turn(st, c, s, info["turn"])
            st.replace_many_diagnostics(c, [(s.id, diags_by_sub[s.id]) for s in batch], step)
            if reports.copies:
                tell(0.55, f"turn {step}: reports, made by {reports.copies} processes")
            rows = reports.rows()
        tell(0.95, f"turn {step}: saving reports")
        st.save_reports(c, step, rows)
        result.reports += len(rows)
        if self._reapply(c, scen, new, step):  # type: ignore[attr-defined]  # a re-made turn
            st.save_state(c, new)  # no templates stored: export makes them from this state
        elif templates is not None:
            st.save_templates(c, step, templates)
        result.steps.append(step)
        result.nmr[step] = nmr
        result.events += len(ctx.events)
        return new

    def _add_new_factions(self, c: Any, scen: Scenario, state: State, step: int) -> None:
        """Factions the step created (Atlantis RESTART) join the scenario: they are matched,
        verified and reported like any; a rollback past `step` removes them again."""
        try:
            new = self.ruleset.new_factions(state, scen)
        except Exception as e:
            raise RunFailed(f"turn {step}: new factions failed ({type(e).__name__}: {e}); "
                            "the game is unchanged") from e
        for f in new:
            f = dataclasses.replace(f, attrs={**f.attrs, "joined_step": step})
            self.store.save_faction(c, f)
            scen.factions = sorted([g for g in scen.factions if g.number != f.number] + [f],
                                   key=lambda g: g.number)
        if new:
            self._scenario = None

    def _playing(self, state: State, scen: Scenario, step: int) -> list[int]:
        try:
            return self.ruleset.cycle_factions(state, scen)
        except Exception as e:
            raise RunFailed(f"turn {step}: the factions in play failed ({type(e).__name__}: "
                            f"{e}); the game is unchanged") from e

    def _report_factions(self, state: State, scen: Scenario, step: int) -> set[int] | None:
        try:
            return self.ruleset.report_factions(state, scen)
        except Exception as e:
            raise RunFailed(f"turn {step}: who gets reports failed ({type(e).__name__}: {e}); "
                            "the game is unchanged") from e

    def _turn_taken(self, ctx: TurnContext, step: int, faction: int,
                    seq: tuple[sequence.History, int, str], scen: Scenario,
                    tell: Callable[[float, str], None]) -> dict[str, Any]:
        """Sequential: count the faction's turn; when it completes the game turn, run the
        ruleset's cycle phases in this step. What the step records about it."""
        hist, turn, _now = seq
        hist.turns[faction] = turn
        out: dict[str, Any] = {"turn": turn}
        try:
            waits_for = self.ruleset.cycle_factions(ctx.state, scen)
        except Exception as e:
            raise RunFailed(f"turn {step}: the factions of the game turn failed "
                            f"({type(e).__name__}: {e}); the game is unchanged") from e
        if hist.cycle_done(waits_for) and not self.ruleset.gm_closes_cycle(scen):
            hist.cycles += 1
            hist.cycle_from = _now  # the next game turn begins now (History.of reads it so)
            out["cycle_end"] = hist.cycles
            tell(0.45, f"turn {step}: end of game turn {hist.cycles}")
            self._run_phases(ctx, step, self.ruleset.cycle_phases(), "end of game turn: ")
        return out

    def _run_phases(self, ctx: TurnContext, step: int, phases: list[Any], prefix: str = "") -> None:
        try:
            for phase in phases:
                ctx.events.phase = prefix + phase.name
                phase.run(ctx)
            ctx.events.phase = ""
        except RunCancelled:
            raise
        except Exception as e:
            raise RunFailed(f"turn {step} failed in phase {ctx.events.phase}: "
                            f"{type(e).__name__}: {e}; the game is unchanged") from e

    def _adjudicate(self, ctx: TurnContext, step: int, tell: Callable[[float, str], None]) -> None:
        rs = self.ruleset
        try:
            if type(rs).run_step is Ruleset.run_step:  # walk the phases ourselves for progress
                phases = rs.phases()
                for i, phase in enumerate(phases):
                    tell(0.05 + 0.4 * i / max(1, len(phases)), f"turn {step}: {phase.name}")
                    ctx.events.phase = phase.name
                    phase.run(ctx)
                ctx.events.phase = ""
            else:
                tell(0.1, f"turn {step}: adjudicating")
                rs.run_step(ctx)
        except RunCancelled:
            raise
        except Exception as e:
            where = f" in phase {ctx.events.phase}" if ctx.events.phase else ""
            raise RunFailed(f"turn {step} failed{where}: {type(e).__name__}: {e}; "
                            "the game is unchanged") from e

    def _write_reports(self, c: Any, state: State, events: EventLog, scen: Scenario,
                       diags: list[Diagnostic], step: int, tell: Callable[[float, str], None],
                       only: set[int] | None = None,
                       templates: list[tuple[int, str]] | None = None) -> int:
        rows = self._build_reports(state, events, scen, diags, step, tell, only,
                                   gm=not self.ruleset.gm_report_on_demand, templates=templates)
        tell(0.95, f"turn {step}: saving reports")
        self.store.save_reports(c, step, rows)
        return len(rows)

    def _build_reports(self, state: State, events: EventLog, scen: Scenario,
                       diags: list[Diagnostic], step: int,
                       tell: Callable[[float, str], None],
                       only: set[int] | None = None, gm: bool = True,
                       templates: list[tuple[int, str]] | None = None
                       ) -> list[tuple[int | None, str, str]]:
        """(faction or None for the GM, format, text) of every report of a step; `only`:
        the factions that get one (a sequential step); the GM's unless `gm` is False (a
        ruleset whose GM report is made when asked: GameService.report). `templates`: gets
        (faction, orders template) of each faction reported (Ruleset.report_template), for
        `export`; one that fails is left out (export tries it again from the state and
        leaves it out, as it always has: a template is a convenience)."""
        with self._begin_reports(state, events, scen, diags, step, tell, only, gm,
                                 templates) as reports:
            return reports.rows()

    def _begin_reports(self, state: State, events: EventLog, scen: Scenario,
                       diags: list[Diagnostic], step: int, tell: Callable[[float, str], None],
                       only: set[int] | None = None, gm: bool = True,
                       templates: list[tuple[int, str]] | None = None,
                       here: bool = True) -> _Reports:
        """_build_reports begun: in forked copies of this process where that is safe
        (engine/parallel; `here`: this process takes a share too), else all of it in
        rows(). Nothing may change the state, events or scenario until rows()."""
        rs = self.ruleset
        # Public games: only the GM's report is built; the service hands it to every faction.
        who_all = [None] if rs.public_reports else [
            f.number for f in scen.factions if only is None or f.number in only] + ([None] if gm else [])
        by_faction: dict[int | None, list[Diagnostic]] = {}  # once, not once a faction
        for d in diags:
            by_faction.setdefault(d.faction, []).append(d)
        place = {f: i for i, f in enumerate(who_all)}
        formats = rs.formats(scen)

        def one(faction: int | None) -> tuple[list[tuple[int | None, str, str]], str | None]:
            """A faction's reports and orders template (None: none made)."""
            who = "the GM" if faction is None else f"faction {faction}"
            if not in_copy():  # a copy of this process has no one to tell
                tell(0.55 + 0.4 * place[faction] / max(1, len(who_all)), f"turn {step}: report for {who}")
            mine = diags if faction is None else by_faction.get(faction, [])
            try:
                data = rs.report(state, events, faction, scen, mine)
                made = [(faction, fmt, text) for fmt, text in _rendered(rs, data, formats)]
            except Exception as e:
                raise RunFailed(f"turn {step}: the report for {who} failed "
                                f"({type(e).__name__}: {e}); the game is unchanged") from e
            template = None
            if templates is not None and faction is not None:
                try:
                    template = rs.report_template(state, faction, scen, data) or ""
                except Exception:
                    pass
            return made, template

        # each faction's reports read the state alone: the same rows in the same order
        # however many processes share them
        return _Reports(Shared(one, who_all, here=here), who_all, templates)


class _Reports:
    """A step's reports being made (StepRunner._begin_reports); rows() waits for them."""

    def __init__(self, job: Shared, who: list[int | None],
                 templates: list[tuple[int, str]] | None) -> None:
        self._job, self._who, self._templates = job, who, templates

    @property
    def copies(self) -> int:
        return self._job.copies

    def rows(self) -> list[tuple[int | None, str, str]]:
        rows: list[tuple[int | None, str, str]] = []
        for faction, (made, template) in zip(self._who, self._job.results(), strict=True):
            rows += made
            if template is not None and self._templates is not None and faction is not None:
                self._templates.append((faction, template))
        return rows

    def __enter__(self) -> _Reports:
        return self

    def __exit__(self, *exc: object) -> None:
        self._job.abandon()
