"""The game service: the one API the CLI and the app use to run a game.

    svc = GameService.create("game.db", scenario)     # or GameService.open("game.db")
    svc.import_paths(["orders/"])                     # files, folders, .eml, mbox
    svc.status(); svc.check()
    svc.run()                                         # one transaction
    svc.rollback(to_step=1); svc.export("out/")

Steps: state 0 is the scenario's start. Running step N reads state N-1 and the
submissions for step N (the orders "for turn N") and writes state N, its events and
reports. `current_step` is the last step run; `pending_step` is the one being collected.

Turn models (Ruleset.turn_model):
- simultaneous: one step per run; factions without orders get ruleset.auto_orders (NMR);
- sequential: each waiting faction turn is its own step, in the ruleset's order, held
  back while too soon after that faction's previous turn (engine/db/sequence.py);
- realtime: one step applying every new post in time order (ctx.submissions, with the
  parsed sheet of each in ctx.scratch["sheets"]); re-imported posts (same post id and
  text) are skipped, edited posts are flagged and never re-applied.

Running steps lives in engine/db/runner.py (StepRunner, a mixin of GameService); storing
submissions, and the GM's accept/reject of held ones, in engine/db/importer.py (Importer);
reading sources and matching them in engine/db/intake_bridge.py; tables in engine/db/store.py.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import registry
from engine.db import GameStore, connect, newfile, sequence
from engine.db.checked import CheckedSets
from engine.db.errors import GameDbError, GameExists, GameNotFound
from engine.db.gm_steps import GmStepRefused, GmSteps
from engine.db.importer import Importer
from engine.db.intake_bridge import factions_index
from engine.db.intake_bridge import intake_path as _intake_path
from engine.db.intake_bridge import intake_text as _intake_text
from engine.db.intake_bridge import match as _match
from engine.db.intake_bridge import own as _own
from engine.db.intake_bridge import thread_path as _thread_path
from engine.db.intake_bridge import to_json as _json
from engine.db.interventions import InterventionDesk
from engine.db.journal import StoredSubmission
from engine.db.results import (
    REJECTED,
    FactionStatus,
    ImportReport,
    ImportResult,
    Status,
)
from engine.db.runner import RunCancelled, RunFailed, StepRunner, TurnMoved
from engine.events import EventLog
from engine.intake import verify
from engine.intake.match import current_password
from engine.map import GameMap
from engine.orders import Diagnostic, OrderSheet, Severity
from engine.parallel import fork_map
from engine.ruleset import Ruleset, Submission, TurnModel
from engine.scenario import Faction, Scenario
from engine.state import State
from engine.tables import Catalog, TableError
from engine.validation import Problem, ScenarioInvalid, check_integrity, faction_text_problem

FORMAT_SUFFIX = {"text": "txt", "html": "html", "json": "json"}


class GameService(Importer, StepRunner, GmSteps, InterventionDesk):
    def __init__(self, store: GameStore, ruleset: Ruleset):
        self.store = store
        self.ruleset = ruleset
        self._scenario: Scenario | None = None
        self._last_checker: tuple[State, Scenario, Any] | None = None  # see _checker
        self._gm_kept: tuple[tuple, dict[str, str]] | None = None  # see _gm_reports
        self._start_kept: tuple[Any, dict[tuple[int | None, str], str], Any] | None = None
        self._checked = CheckedSets()  # what imports read and checked, for the run after them

    # ---- opening ------------------------------------------------------------------

    @classmethod
    def create(cls, target: str | Path, scenario: Scenario, *, add: bool = False,
               busy_timeout: float = 5.0) -> GameService:
        """A new game database from a scenario; refuses to overwrite an existing file.

        add=True puts the game into an existing database (a server holding many games);
        game names are unique within a database.
        """
        rs = registry.get(scenario.ruleset)
        try:
            state = rs.initial_state(scenario)
        except Exception as e:  # the ruleset cannot build the start: the scenario's fault
            raise ScenarioInvalid([Problem("error", f"the {rs.name} ruleset cannot build the "
                                           f"start ({type(e).__name__}: {e})")]) from e
        check_integrity(scenario, rs, state)  # ScenarioInvalid before any file is made
        engine, where = connect(target, create=not add, busy_timeout=busy_timeout)
        path = Path(where) if "://" not in where and not add else None
        part = None
        if path is not None:  # built beside, named when whole (engine/db/newfile.py)
            engine.dispose()
            part = newfile.part_file(path)
            newfile.discard(part)
            engine, _ = connect(part, create=True, busy_timeout=busy_timeout)
        try:
            GameStore.init_schema(engine, where)
            with GameStore(engine, where, 0, rs.name).transaction() as c:
                if scenario.name in GameStore.game_names(c):
                    raise GameExists(f"{where}: holds a game named {scenario.name!r} already")
                gid = GameStore.insert_game(c, scenario.name, rs.name, scenario.seed, scenario.meta)
                store = GameStore(engine, where, gid, rs.name)
                specs = {**rs.catalog_specs(), **{n: cat.spec for n, cat in scenario.catalogs.items()}}
                store.ensure_tables(c, rs.new_state().specs(), specs)
                store.save_map(c, scenario.map)
                for i, (name, cat) in enumerate(scenario.catalogs.items()):
                    store.save_catalog(c, name, cat, i)
                store.save_options(c, scenario.options)
                store.save_factions(c, scenario.factions)
                state.step = 0
                store.save_state(c, state)
                store.add_step(c, 0, "initial", seed=str(scenario.seed))
            if path is not None and part is not None:
                newfile.seal(engine)
                newfile.publish(part, path)
                engine, _ = connect(path, create=False, busy_timeout=busy_timeout)
                store = GameStore(engine, where, gid, rs.name)
        except BaseException:
            engine.dispose()
            if part is not None:  # the name asked for was never touched
                newfile.discard(part)
            raise
        return cls(store, rs)

    @classmethod
    def open(cls, target: str | Path, game: str | int | None = None, *,
             busy_timeout: float = 5.0) -> GameService:
        """Open an existing game; GameDbError subclasses say what is wrong in plain words."""
        engine, where = connect(target, create=False, busy_timeout=busy_timeout)
        try:
            gid, rs_name = GameStore.find_game(engine, where, game)
            try:
                rs = registry.get(rs_name)
            except Exception as e:
                raise GameDbError(f"{where}: the game uses ruleset {rs_name!r}, which does not "
                                  f"load here ({type(e).__name__}: {e})") from None
            store = GameStore(engine, where, gid, rs.name)
            with store.reading() as c:
                store.ensure_tables(c, rs.new_state().specs(), {})
        except BaseException:
            engine.dispose()
            raise
        return cls(store, rs)

    def close(self) -> None:
        self.store.engine.dispose()

    def __enter__(self) -> GameService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what the game is -----------------------------------------------------------

    @property
    def where(self) -> str:
        return self.store.where

    @property
    def name(self) -> str:
        with self.store.reading() as c:
            return self.store.game(c).name

    @property
    def current_step(self) -> int:
        with self.store.reading() as c:
            return int(self.store.game(c).current_step)

    @property
    def pending_step(self) -> int:
        return self.current_step + 1

    @property
    def seed(self) -> int:
        with self.store.reading() as c:
            return int(self.store.game(c).seed)

    @property
    def scenario(self) -> Scenario:
        if self._scenario is None:
            with self.store.reading() as c:
                self._scenario = self._load_scenario(c)
        return self._scenario

    def _load_scenario(self, c: Any, with_map: bool = True) -> Scenario:
        """The game's scenario; with_map=False leaves its map out (None) for questions
        about factions and options (`status`: a 200x200 map is 40,000 rows)."""
        import json

        st, rs = self.store, self.ruleset
        g = st.game(c)
        options = rs.default_options()
        for k, v in st.load_option_values(c).items():
            try:
                options.set(k, v)
            except TableError:
                pass  # an option this ruleset version no longer has
        return Scenario(rs.name, g.name, st.load_map(c) if with_map else None,  # type: ignore[arg-type]
                        st.load_catalogs(c), options,
                        st.load_factions(c), int(g.seed), None, json.loads(g.meta or "{}"))

    def state(self, step: int | None = None) -> State:
        with self.store.reading() as c:
            return self._state(c, step)

    def _state(self, c: Any, step: int | None = None, lazy: bool = False) -> State:
        """The state of a step; lazy: each table read when first asked for, while `c` is
        open (GameStore.load_state)."""
        cur = int(self.store.game(c).current_step)
        step = cur if step is None else step
        if not 0 <= step <= cur:
            raise GameDbError(f"{self.where}: no turn {step}; the game has turns 0 to {cur}")
        return self.store.load_state(c, self.ruleset.state_schema, step, lazy=lazy)

    def state_json(self, step: int | None = None) -> str:
        return self.state(step).to_json()

    def steps(self) -> list[Any]:
        with self.store.reading() as c:
            return self.store.steps(c)

    # ---- scenario edits (designer) ------------------------------------------------------

    def save_map(self, m: GameMap) -> None:
        with self.store.transaction() as c:
            self.store.save_map(c, m)
            self.store.drop_templates(c)  # made with what changed
        self._scenario = None

    def save_catalog(self, name: str, catalog: Catalog) -> None:
        with self.store.transaction() as c:
            self.store.save_catalog(c, name, catalog)
            self.store.drop_templates(c)  # made with what changed
        self._scenario = None

    def set_option(self, name: str, value: Any) -> None:
        opts = self.scenario.options.copy()
        opts.set(name, value)  # TableError with the reason if refused
        with self.store.transaction() as c:
            self.store.save_options(c, opts)
            self.store.drop_templates(c)  # made with what changed
        self._scenario = None

    def upsert_faction(self, faction: Faction) -> None:
        if (why := faction_text_problem(faction)) is not None:
            raise ValueError(why)
        with self.store.transaction() as c:
            self.store.save_faction(c, faction)
            self.store.drop_templates(c)  # made with what changed
        self._scenario = None

    def remove_faction(self, number: int) -> None:
        with self.store.transaction() as c:
            self.store.delete_faction(c, number)
            self.store.drop_templates(c)  # made with what changed
        self._scenario = None

    def set_meta(self, **values: Any) -> None:
        meta = {**self.scenario.meta, **values}
        with self.store.transaction() as c:
            self.store.set_game(c, meta=meta)
        self._scenario = None

    # ---- intake -----------------------------------------------------------------------

    def import_text(self, text: str, source_kind: str = "paste", source_name: str = "pasted",
                    sender: str = "", subject: str = "", received_at: str = "",
                    faction: int | None = None, step: int | None = None,
                    meta: dict[str, Any] | None = None, encoding: str = "") -> ImportResult:
        sub = _intake_text(text, source_kind, source_name, sender, subject, received_at)
        sub.meta.update(meta or {})
        if encoding:  # the text was decoded from bytes in this encoding (stdin, a paste)
            sub.encoding = encoding
        if faction is not None:
            self._given(sub, faction, step)
        return self.import_submissions([sub]).results[0]

    def _given(self, sub: Submission, faction: int, step: int | None) -> None:
        """The GM says whose orders these are (and for which turn): no matching."""
        sub.faction = faction
        sub.step = self.pending_step if step is None else step
        sub.matched_by = "given by the GM"
        sub.meta["match"] = "ok" if self.scenario.faction(faction) is not None else "unknown_faction"
        verify.set_by_gm(sub, note="faction given by the GM")

    def import_paths(self, paths: Iterable[str | Path], faction: int | None = None,
                     step: int | None = None) -> ImportReport:
        """Orders files, folders, .eml, mbox; for a real-time ruleset, forum thread exports.
        With `faction` (and `step`), the GM says whose orders they all are: no matching."""
        subs: list[Submission] = []
        problems: list[Diagnostic] = []
        realtime = self.ruleset.turn_model == TurnModel.REALTIME
        zone = self._forum_zone() if realtime else None
        for p in paths:
            mail = realtime and _is_mail(p)  # a player's mail to a forum game is a post too
            got, probs = _thread_path(p, zone) if realtime and not mail else _intake_path(p)
            subs += [_as_post(x) for x in got] if mail else got
            problems += probs
        if faction is not None:
            for sub in subs:
                self._given(sub, faction, step)
        return self.import_submissions(subs, problems)

    def _forum_zone(self) -> Any:
        """The forum's clock of a real-time game (its ruleset's `forum_zone`), or None."""
        hook = getattr(self.ruleset, "forum_zone", None)
        return hook(self.scenario) if callable(hook) else None

    def import_mail_bytes(self, data: bytes, name: str = "<stdin>", faction: int | None = None,
                          step: int | None = None) -> ImportReport | None:
        """A complete mail (or mbox) in memory, piped on stdin by a mail delivery tool, read
        exactly as the same file given by path. None if the bytes are not mail."""
        from engine.intake.read import read_mail_bytes

        batch = read_mail_bytes(data, name)
        if batch is None:
            return None
        subs = batch.submissions
        if self.ruleset.turn_model == TurnModel.REALTIME:
            subs = [_as_post(x) for x in subs]
        if faction is not None:
            for sub in subs:
                self._given(sub, faction, step)
        return self.import_submissions(subs, batch.problems)

    def _diagnose(self, sub: Submission, scen: Scenario, state: State, cur: int,
                  check: bool = True, keep: Callable[[tuple[Any, ...]], None] | None = None
                  ) -> list[Diagnostic]:
        """Intake notes, parse and check findings, each with file name and faction.
        check=False leaves out parsing and checking (posts a ruleset checks as a batch).
        The sheet and the checker's findings are kept for a run in this process
        (engine/db/checked.py); `keep` gets them instead, as (source, text, faction, sheet,
        findings) (a forked copy hands them to its parent)."""
        src = sub.source_name or sub.source_kind
        out = [Diagnostic.from_dict(d) for d in sub.meta.get("diagnostics", [])]
        status = sub.meta.get("match", "ok" if sub.faction is not None else "unmatched")
        role = sub.meta.get("role") if sub.faction is None else None
        if role:  # known to the ruleset, no faction's (a forum GM's post): no intake error
            if self.ruleset.turn_model != TurnModel.REALTIME:
                out.append(Diagnostic("intake", f"{role}: no faction's orders; kept, not used",
                                      file=src, severity=Severity.WARNING))
        elif sub.faction is None or status in REJECTED or status == "unmatched":
            if self.ruleset.turn_model == TurnModel.REALTIME:
                out.append(Diagnostic("intake", "author is not a player of this game; the post "
                                      "goes to the ruleset in time order", file=src,
                                      severity=Severity.WARNING))
            elif status == "bad_password":  # the whole set is refused; the faction is told
                out.append(Diagnostic("intake", "refused, none of it is used: "
                                      + (sub.matched_by or "wrong password"), file=src))
            else:
                out.append(Diagnostic("intake", "not matched to a faction of this game: "
                                      + (sub.matched_by or "no clue found"), file=src))
        else:
            step = sub.step
            if step is not None and step <= cur:
                out.append(late_orders(step, cur, sub.meta.get("submission_id"), src))
            elif step is not None and step > cur + 1:
                out.append(Diagnostic("intake", f"orders for turn {step}; the game is collecting "
                                      f"turn {cur + 1}; kept for later", file=src,
                                      severity=Severity.WARNING))
            if check:
                sheet = self._parse(sub)
                found = self._check_findings(sheet, state, sub.faction, scen)
                if keep is not None:
                    keep((src, sub.text, sub.faction, sheet, found))
                else:
                    self._checked.keep(src, sub.text, sub.faction, sheet, found, state, scen)
                out += [_own(d, sheet.source, sub.faction) for d in sheet.diagnostics] + found
        return [_own(d, src, sub.faction) for d in out]

    def _parse(self, sub: Submission) -> OrderSheet:
        try:
            return self.ruleset.parse_orders(sub.text, source=sub.source_name or sub.source_kind)
        except Exception as e:  # a parser must never raise; if it does, say so and go on
            sheet = OrderSheet(source=sub.source_name)
            sheet.add(Diagnostic("invalid", f"the orders reader failed ({type(e).__name__}: {e})"))
            return sheet

    def _check_sheet(self, sheet: OrderSheet, state: State, faction: int, scen: Scenario) -> list[Diagnostic]:
        """The reader's diagnostics and the checker's findings, each owned by the faction."""
        return ([_own(d, sheet.source, faction) for d in sheet.diagnostics]
                + self._check_findings(sheet, state, faction, scen))

    def _check_findings(self, sheet: OrderSheet, state: State, faction: int,
                        scen: Scenario) -> list[Diagnostic]:
        """The checker's findings alone: what the turn runner screens the sheet with."""
        try:
            # the checker must not change the state (Ruleset.check's contract); no defensive
            # copy: it costs more than the check itself on a 5,000-army game
            out = self._checker(state, scen)(sheet, faction)
        except Exception as e:
            # a checker that fails refuses nothing (warning): the turn still decides
            out = [Diagnostic("illegal", f"the orders checker failed ({type(e).__name__}: {e})",
                              severity=Severity.WARNING)]
        return [_own(d, sheet.source, faction) for d in out]

    def _checker(self, state: State, scen: Scenario) -> Any:
        """The ruleset's checker for this state object, made once for every sheet checked
        against it (its index of a big state costs more than a sheet's check). The states
        checked here are loaded by the service and never changed afterwards."""
        last = self._last_checker
        if last is None or last[0] is not state or last[1] is not scen:
            last = self._last_checker = (state, scen, self.ruleset.checker(state, scen))
        return last[2]

    def reassign(self, submission_id: int, faction: int | None, step: int | None = None) -> ImportResult:
        """The GM's own match for a submission; rechecked and supersession redone."""
        with self.store.transaction() as c:
            old = self.store.submissions(c, ids=[submission_id], with_diagnostics=False)
            if not old:
                raise GameDbError(f"no submission {submission_id}")
            s = old[0]
            cur = int(self.store.game(c).current_step)
            sub = s.submission
            prev = (sub.faction, sub.step)
            sub.faction = faction
            sub.step = (cur + 1 if step is None else step) if faction is not None else None
            sub.matched_by = "assigned by the GM"
            sub.meta["match"] = "ok" if faction is not None else "unmatched"
            sub.meta.pop("dismissed", None)
            verify.set_by_gm(sub, note="assigned by the GM")
            meta = {k: v for k, v in sub.meta.items() if k != "submission_id"}
            self.store.set_submission(c, submission_id, faction=sub.faction, step=sub.step,
                                      matched_by=sub.matched_by, superseded=False,
                                      meta=_json(meta))
            diags = self._diagnose(sub, self.scenario, self._state(c, cur), cur)
            self.store.replace_diagnostics(c, submission_id, diags, sub.step)
            for f, stp in {prev, (sub.faction, sub.step)}:
                if f is not None and stp is not None:
                    self.store.resolve_supersession(c, f, stp)
        return ImportResult(sub, submission_id, "stored", diags)

    def dismiss(self, submission_id: int, reason: str = "") -> StoredSubmission:
        """Set a submission aside (unmatched mail, a note, orders nobody wants): kept in the
        history, never used, no longer listed by status or check. `reassign` brings it back."""
        with self.store.transaction() as c:
            old = self.store.submissions(c, ids=[submission_id], with_diagnostics=False)
            if not old:
                raise GameDbError(f"no submission {submission_id}")
            s = old[0]
            if s.applied_step is not None:
                raise GameDbError(f"submission {submission_id} was used in turn {s.applied_step}; "
                                  "roll back first to take it out")
            meta = {k: v for k, v in s.submission.meta.items() if k != "submission_id"}
            meta["dismissed"] = reason or "dismissed by the GM"
            self.store.set_submission(c, submission_id, meta=_json(meta))
            if s.faction is not None and s.step is not None:
                self.store.resolve_supersession(c, s.faction, s.step)
            s.submission.meta["dismissed"] = meta["dismissed"]
            return s

    def dismiss_problems(self) -> int:
        """Set the listed intake problems (unreadable files...) aside; they stay known, so
        importing the same files again does not report them again."""
        with self.store.transaction() as c:
            return self.store.dismiss_problems(c)

    def submissions(self, step: int | None = None) -> list[StoredSubmission]:
        with self.store.reading() as c:
            return self.store.submissions(c, step=step)

    def problems(self) -> list[Diagnostic]:
        with self.store.reading() as c:
            return self.store.problems(c)

    # ---- check and status -----------------------------------------------------------------

    def _active(self, subs: list[StoredSubmission], scen: Scenario) -> list[StoredSubmission]:
        numbers = {f.number for f in scen.factions}
        return [s for s in subs if s.active and s.faction in numbers
                and s.submission.meta.get("match", "ok") not in REJECTED]

    def check(self, step: int | None = None,
              unmatched: list[Submission] | None = None) -> dict[int, list[Diagnostic]]:
        """Per faction: the findings on the orders that the next run would use.
        `unmatched`: a list to fill with what unmatched() gives, from the same reading."""
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step)
            step = cur + 1 if step is None else step
            # the tables the checks read, when first read (not, say, every region's products)
            state = self._state(c, min(step - 1, cur), lazy=True)
            scen = self.scenario
            out: dict[int, list[Diagnostic]] = {f.number: [] for f in scen.factions}
            q = None if self.ruleset.turn_model == TurnModel.REALTIME else step
            late_too = q is not None and step == cur + 1
            # with the late orders below: every submission read once, not twice
            every = self.store.submissions(c, with_diagnostics=False) if late_too else None
            stored = [s for s in every if s.step == q] if every is not None else \
                self.store.submissions(c, step=q, with_diagnostics=False)
            # real time: every new post goes to the ruleset (the GM's, split players'), and
            # each is judged by the state the earlier ones leave; findings on posts by
            # non-players are listed under 0
            posts = [s for s in stored if s.active] if q is None else []
            found = self._post_findings(posts, scen, state) if posts else None
            for s in posts if found is not None else ():
                out.setdefault(s.faction or 0, []).extend(found[s.id])
            waiting = self._active(stored, scen) if found is None else []

            def one(s: StoredSubmission) -> list[Diagnostic]:
                intake = [_own(Diagnostic.from_dict(d), s.submission.source_name, s.faction)
                          for d in s.submission.meta.get("diagnostics", [])]
                return intake + self._check_sheet(self._parse(s.submission), state, s.faction, scen)

            # each set alone against one state: shared with forked copies (engine/parallel;
            # a copy that needs a table not read yet leaves its share to this process)
            for s, diags in zip(waiting, fork_map(one, waiting), strict=True):
                out.setdefault(s.faction, []).extend(diags)
            if every is not None:  # orders that missed their turn: the GM decides
                for s in self._late_in(every, scen, cur):
                    out.setdefault(s.faction, []).append(
                        late_orders(s.step, cur, s.id, s.submission.source_name))
        if unmatched is not None:
            unmatched += self.unmatched() if every is None else _set_aside(
                every, False, {f.number for f in scen.factions}, cur)["unmatched"]
        return out

    def _late(self, c: Any, cur: int, scen: Scenario) -> list[StoredSubmission]:
        """Accepted orders naming a turn already run and never used: a player who answered
        an old report, or a typo in the turn. Never a silent NMR: check and status say so."""
        return self._late_in(self.store.submissions(c, with_diagnostics=False), scen, cur)

    def _late_in(self, subs: list[StoredSubmission], scen: Scenario, cur: int) -> list[StoredSubmission]:
        if self.ruleset.turn_model != TurnModel.SIMULTANEOUS:
            return []
        return [s for s in self._active(subs, scen) if s.step is not None and s.step <= cur]

    def late_submissions(self) -> list[StoredSubmission]:
        with self.store.reading() as c:  # the factions are all it needs: not the map
            scen = self._scenario or self._load_scenario(c, with_map=False)
            return self._late(c, int(self.store.game(c).current_step), scen)

    def check_text(self, text: str, source_name: str = "", faction: int | None = None,
                   sender: str = "", subject: str = "") -> tuple[Submission, list[Diagnostic]]:
        """Check an orders text against the current state without storing anything (a text
        of several factions' sets: the first; check_submissions gives each)."""
        sub = _intake_text(text, "file" if source_name else "paste", source_name or "pasted",
                           sender, subject, "")
        return self.check_submissions([sub], faction)[0]

    def check_submissions(self, subs: list[Submission], faction: int | None = None
                          ) -> list[tuple[Submission, list[Diagnostic]]]:
        """Match and check submissions against the current state (loaded once); stores nothing."""
        out = []
        if faction is None:  # several factions' sets in one text: each checked as its own
            subs = self._split_sets(subs)
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step)
            state, scen = self._state(c, cur), self.scenario
            factions = factions_index(scen)

            def one(sub: Submission) -> tuple[Submission, list[Diagnostic]]:
                if faction is not None:
                    sub.faction, sub.step, sub.meta["match"] = faction, cur + 1, "ok"
                elif sub.faction is None:
                    _match(sub, self.ruleset, scen, cur + 1, state, factions)
                return sub, self._diagnose(sub, scen, state, cur, keep=lambda _x: None)

            # each text alone against one state: shared with forked copies (engine/parallel),
            # which hand back the submissions as matched
            out = fork_map(one, subs)
        return out

    def status(self, now: str | None = None) -> Status:
        """Who sent orders, what is wrong; `now` (sequential): the time to judge waiting
        turns by (default: the clock)."""
        with self.store.reading() as c:
            g = self.store.game(c)
            cur = int(g.current_step)
            # factions and options are all status needs: no map (and so no numpy) unless
            # the ruleset's is_finished turns out to look at it
            scen = self._scenario or self._load_scenario(c, with_map=False)
            realtime = self.ruleset.turn_model == TurnModel.REALTIME
            all_subs = self.store.submissions(c)
            problems = self.store.problems(c, step=cur + 1)
            steps = self.store.steps(c) if self.ruleset.turn_model == TurnModel.SEQUENTIAL else None
            # the tables is_finished asks for, not the whole state
            state = self.store.load_state(c, self.ruleset.state_schema, cur, lazy=True)
            # open or not by the current passwords (Atlantis: PASSWORD orders), read here
            # while the lazy state can still read its tables
            passwords = {f.number: current_password(self.ruleset, state, f, scen)
                         for f in scen.factions}
            playing = set(self._status_factions(state, scen))
            try:
                finished = bool(self.ruleset.is_finished(state, scen))
            except Exception:
                try:
                    finished = bool(self.ruleset.is_finished(state, self.scenario))
                except Exception:
                    finished = False
            held = None
            if steps is not None:  # sequential: planned here, as sequence_key may read the state
                _runs, held = sequence.plan(self.ruleset, state, scen,
                                            [s for s in self._active(all_subs, scen)
                                             if s.step is None or s.step > cur],
                                            sequence.History.of(steps), now or sequence.now_utc())
                playing = set(self.ruleset.cycle_factions(state, scen))
        st = Status(g.name, self.ruleset.name, str(self.ruleset.turn_model), cur, cur + 1,
                    problems=problems, finished=finished)
        numbers = {f.number for f in scen.factions}
        active = self._active(all_subs, scen)
        # grouped by faction once: a scan of every submission for every faction was
        # quadratic (3 million steps for 1,000 factions' orders)
        by_faction: dict[int | None, list[StoredSubmission]] = {}
        for s in active:
            by_faction.setdefault(s.faction, []).append(s)
        held_by: dict[int | None, int] = {}
        replaced: dict[tuple[int | None, int | None], int] = {}
        for x in all_subs:
            if x.applied_step is None and not x.dismissed and \
                    verify.state_of(x.submission.meta) == verify.HELD:
                held_by[x.faction] = held_by.get(x.faction, 0) + 1
            if x.superseded and x.applied_step is None:
                replaced[x.faction, x.step] = replaced.get((x.faction, x.step), 0) + 1
        # a simultaneous game lists the factions still in it; a sequential one every clan,
        # the dropped marked so (sequence.describe), since the GM may give them to a standby
        listed = playing if steps is None else numbers
        for f in (f for f in scen.factions if f.number in listed):
            mine = [s for s in by_faction.get(f.number, ()) if realtime or s.step == cur + 1]
            fs = FactionStatus(f.number, f.name, open=verify.is_open(
                dataclasses.replace(f, password=passwords[f.number])))
            fs.held = held_by.get(f.number, 0)
            if mine:
                s = mine[-1]
                fs.submitted, fs.submission_id = True, s.id
                fs.received_at = s.submission.received_at or s.imported_at
                fs.source, fs.source_kind = s.submission.source_name, s.submission.source_kind
                diags = [d for x in mine for d in x.diagnostics]
                fs.errors = sum(d.severity == Severity.ERROR for d in diags)
                fs.warnings = sum(d.severity == Severity.WARNING for d in diags)
                fs.replaced = replaced.get((f.number, s.step), 0)
            st.factions.append(fs)
        if steps is not None:  # sequential: each faction's turns, next due, dropped; GM steps
            sequence.describe(st, steps, playing, float(self.ruleset.turn_interval_days(scen) or 0),
                              0.0 if self.ruleset.gm_closes_cycle(scen) else float(self.ruleset.cycle_days(scen) or 0))
        if held is not None:  # sequential: the turns a run now would leave waiting, and why
            st.waiting = [(h.submission.id, h.submission.faction, h.turn, h.reason, h.ready_at)
                       for h in held]
        late = self._late_in(all_subs, scen, cur)
        st.late = [(s.id, s.submission) for s in late]
        for what, subs in _set_aside(all_subs, realtime, numbers, cur).items():
            getattr(st, what).extend(subs)
        st.pending_posts = len([s for s in all_subs if realtime and s.active])
        st.interventions = [r.line() for r in self.interventions(cur)]  # made since turn cur
        return st

    def unmatched(self) -> list[Submission]:
        """status().unmatched alone (`check` lists them): the stored submissions matched to
        no faction, without the rest of what status reads."""
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step)
            scen = self._scenario or self._load_scenario(c, with_map=False)
            subs = self.store.submissions(c, with_diagnostics=False)
        return _set_aside(subs, self.ruleset.turn_model == TurnModel.REALTIME,
                          {f.number for f in scen.factions}, cur)["unmatched"]

    def _status_factions(self, state: State, scen: Scenario) -> list[int]:
        """The factions the next turn waits for (a simultaneous game: not those out of
        it, Ruleset.cycle_factions); every faction otherwise."""
        numbers = [f.number for f in scen.factions]
        if self.ruleset.turn_model != TurnModel.SIMULTANEOUS:
            return numbers
        try:
            return self.ruleset.cycle_factions(state, scen)
        except Exception:  # noqa: BLE001 - status must answer; the run says what is wrong
            return numbers

    # ---- running --------------------------------------------------------------------------

    def rollback(self, to_step: int) -> None:
        """Forget the steps after `to_step`; their submissions wait to be run again."""
        with self.store.transaction() as c:
            cur = int(self.store.game(c).current_step)
            if not 0 <= to_step <= cur:
                raise GameDbError(f"cannot roll back to turn {to_step}; the game has turns 0 to {cur}")
            st = self.store
            if self.ruleset.turn_model == TurnModel.REALTIME:
                self._keep_step_boundaries(c, to_step)
            st.delete_states_after(c, self.ruleset.state_schema, to_step)
            for f in self._load_scenario(c, with_map=False).factions:
                if int(f.attrs.get("joined_step", 0) or 0) > to_step:  # joined later: gone
                    st.delete_faction(c, f.number)  # (comes back when its turn is re-made)
            self._scenario = None
            st.delete_journal_after(c, to_step)
            st.unapply_after(c, to_step)
            st.set_game(c, current_step=to_step)
            for s in st.submissions(c, with_diagnostics=False):
                if self.ruleset.turn_model == TurnModel.SEQUENTIAL and s.active \
                        and s.step is not None and s.step <= to_step:
                    st.set_submission(c, s.id, step=to_step + 1)  # its turn runs again
                    s.step = to_step + 1
                if s.faction is not None and s.step is not None and s.step > to_step:
                    st.resolve_supersession(c, s.faction, s.step)
            self._recheck(c, to_step)

    def _keep_step_boundaries(self, c: Any, to_step: int) -> None:
        """Real time: which posts each removed step applied, kept on the posts
        (meta "replay_step"), so that `run` makes the same steps again one by one."""
        for s in self.store.submissions(c, with_diagnostics=False):
            if s.applied_step is not None and s.applied_step > to_step:
                meta = {k: v for k, v in s.submission.meta.items() if k != "submission_id"}
                meta["replay_step"] = int(s.applied_step)
                self.store.set_submission(c, s.id, meta=_json(meta))

    def _recheck(self, c: Any, cur: int) -> None:
        """Diagnose again every waiting submission against the state of turn `cur`.

        Findings are stored at import against the state of that moment; after a rollback
        or a run the state they were checked against is gone, and `status` must say what
        `check` says (late orders, once "for a turn run already", are now the ones due).
        """
        waiting = [s for s in self.store.submissions(c, with_diagnostics=False)
                   if not (s.applied_step is not None or s.edited
                           or (s.step is not None and s.step <= cur))]
        if not waiting:  # the usual case after a run: loading the state would be wasted
            return
        scen, state = self.scenario, self._state(c, cur)
        self._rematch_passwords(c, waiting, scen, state, cur)
        if self._recheck_posts(c, scen, state):
            return
        for s in waiting:
            sub = s.submission
            sub.meta.pop("submission_id", None)
            self.store.replace_diagnostics(c, s.id, self._diagnose(sub, scen, state, cur), sub.step)

    def _rematch_passwords(self, c: Any, waiting: list[StoredSubmission], scen: Scenario,
                           state: State, cur: int) -> None:
        """Match the waiting submissions again where the ruleset's passwords change with the
        state (Ruleset.current_password): after a rollback or a run the password that counts
        may be another, so a set refused for a wrong password may now be right, or the
        reverse. The GM's own decisions (given, assigned, accepted, rejected) stay."""
        if type(self.ruleset).current_password is Ruleset.current_password:
            return
        for s in waiting:
            sub = s.submission
            if sub.meta.get("dismissed") or sub.meta.get("match") not in ("ok", "bad_password") \
                    or sub.matched_by in ("given by the GM", "assigned by the GM") \
                    or verify.state_of(sub.meta) in (verify.ACCEPTED, verify.REJECTED):
                continue
            before = (sub.faction, sub.step, sub.meta.get("match"), sub.meta.get(verify.KEY))
            sub.faction = sub.step = None  # the turn it was stored for stays its turn
            _match(sub, self.ruleset, scen, before[1] if before[1] is not None else cur + 1, state)
            if (sub.faction, sub.step, sub.meta.get("match"), sub.meta.get(verify.KEY)) == before:
                continue
            meta = {k: v for k, v in sub.meta.items() if k != "submission_id"}
            self.store.set_submission(c, s.id, faction=sub.faction, step=sub.step,
                                      matched_by=sub.matched_by, superseded=False, meta=_json(meta))
            for f, stp in {before[:2], (sub.faction, sub.step)}:
                if f is not None and stp is not None:
                    self.store.resolve_supersession(c, f, stp)

    def _recheck_posts(self, c: Any, scen: Scenario, state: State) -> dict[int, list[Diagnostic]] | None:
        """Real time: the waiting posts checked as one batch, as the next run applies them,
        and their stored findings replaced. None if the ruleset checks posts one by one."""
        if self.ruleset.turn_model != TurnModel.REALTIME:
            return None
        posts = sorted((s for s in self.store.submissions(c, with_diagnostics=False) if s.active),
                       key=lambda s: (s.submission.received_at or s.imported_at, s.seq))
        found = self._post_findings(posts, scen, state)
        if found is not None:  # in bulk: this runs inside the import's write transaction
            self.store.delete_diagnostics(c, [s.id for s in posts])
            self.store.add_diagnostics_rows(c, [(s.id, None, found[s.id]) for s in posts])
        return found

    def _post_findings(self, posts: list[StoredSubmission], scen: Scenario,
                       state: State) -> dict[int, list[Diagnostic]] | None:
        """{submission id: intake notes + the ruleset's findings} for a batch of posts
        (Ruleset.check_posts), or None if the ruleset has no batch check."""
        subs = [p.submission for p in posts]
        try:
            found = self.ruleset.check_posts(subs, state, scen)
        except Exception as e:  # a checker bug must not stop the import; say so on each post
            found = [[Diagnostic("illegal", f"the posts checker failed ({type(e).__name__}: {e})")]
                     for _ in subs]
        if found is None:
            return None
        out: dict[int, list[Diagnostic]] = {}
        for p, diags in zip(posts, found, strict=True):
            src = p.submission.source_name or p.submission.source_kind
            out[p.id] = [_own(Diagnostic.from_dict(d), src, p.faction)
                         for d in p.submission.meta.get("diagnostics", [])] + [
                dataclasses.replace(d, file=src, faction=p.faction if d.faction is None else d.faction)
                for d in diags]
        return out

    # ---- results ---------------------------------------------------------------------------

    def events(self, step: int | None = None, faction: int | None = None,
               kind: str | None = None) -> EventLog:
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step)
            step = cur if step is None else step
            if not 0 <= step <= cur:
                raise GameDbError(f"{self.where}: no turn {step}; the game has turns 0 to {cur}")
            return self.store.load_events(c, step, faction, kind)

    def report(self, step: int | None, faction: int | None, fmt: str = "text") -> str:
        public = faction is not None and self.ruleset.public_reports
        if public and self.scenario.faction(faction) is None:
            raise GameDbError(f"no faction {faction} in this game")
        with self.store.reading() as c:
            step = int(self.store.game(c).current_step) if step is None else step
            # A public game's report is the same for everyone and stored once, as the GM's;
            # a faction's own copy (older bundles) is the fallback.
            out = self.store.load_report(c, step, None, fmt) if public else None
            if out is None:
                out = self.store.load_report(c, step, faction, fmt)
            if out is None and step == 0:
                out = self._start_reports(c).get((None if public else faction, fmt))
            elif out is None and faction is None and self.ruleset.gm_report_on_demand:
                out = self._gm_reports(c, step).get(fmt)
        if out is None:
            who = "the GM" if faction is None else f"faction {faction}"
            raise GameDbError(f"no {fmt} report for {who} at turn {step}")
        return out

    def reported_factions(self, step: int | None = None) -> list[int]:
        """The factions that get a report of this step: all, but in a sequential game only
        the one whose turn it was (and whom the ruleset adds); others keep their last."""
        with self.store.reading() as c:
            return self._reported(c, int(self.store.game(c).current_step) if step is None else step)

    def last_report_step(self, faction: int, upto: int | None = None) -> int:
        """The last step up to `upto` (default: the last run) that gave the faction a report:
        `upto` itself but in a sequential game, where a clan's last report is of its own
        last turn (0: the start)."""
        return self.last_report_steps(upto, [faction]).get(faction, 0)

    def last_report_steps(self, upto: int | None = None,
                          factions: Iterable[int] | None = None) -> dict[int, int]:
        """last_report_step of every faction (or of `factions`) in one walk back through
        the steps: an export of 1,000 factions' bundles asked one faction at a time read
        the step's report keys once per faction."""
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step) if upto is None else upto
            left = {f.number for f in self.scenario.factions} if factions is None else set(factions)
            out = dict.fromkeys(left, 0)
            for step in range(cur, 0, -1):
                if not left:
                    break
                found = left.intersection(self._reported(c, step))
                out.update(dict.fromkeys(found, step))
                left -= found
        return out

    def _factions(self, c: Any) -> list[Faction]:
        """The scenario's factions, without reading the map when the scenario is not loaded
        yet (`export` of stored reports and templates needs no more: 75,000 map cells at
        1,000 Atlantis factions)."""
        return self._scenario.factions if self._scenario is not None else self.store.load_factions(c)

    def _reported(self, c: Any, step: int) -> list[int]:
        numbers = sorted(f.number for f in self._factions(c))
        if step == 0 or self.ruleset.public_reports:
            return numbers
        # who has a report of this step: a sequential step's faction, not a faction out
        # of the game before it (Ruleset.report_factions), a faction that joined at it
        have = {who for who, _fmt in self.store.report_keys(c, step)}
        return [n for n in numbers if n in have]

    def _start_reports(self, c: Any) -> dict[tuple[int | None, str], str]:
        """The reports of turn 0, the starting position: made when asked (before the first
        turn the GM sends them with the orders templates), never stored. The last ones made
        are kept while nothing was written to the game (GameStore.version) and the scenario
        is the same object: an outbox or export asks for every faction's, one by one."""
        version = self.store.version(c)
        key = (version, id(self.scenario)) if version is not None else None
        kept = self._start_kept
        if key is not None and kept is not None and kept[0] == key and kept[2] is self.scenario:
            return kept[1]
        state = self._state(c, 0)
        try:
            rows = self._build_reports(state, EventLog(), self.scenario, [], 0, lambda _f, _m: None)
        except RunFailed as e:
            raise GameDbError(f"{self.where}: the starting reports cannot be made: {e}") from None
        out = {(faction, fmt): text for faction, fmt, text in rows}
        self._start_kept = (key, out, self.scenario) if key is not None else None
        return out

    def _gm_reports(self, c: Any, step: int) -> dict[str, str]:
        """The GM's report of a run step in every format, where the ruleset makes it when
        asked (Ruleset.gm_report_on_demand): from the step's stored state and events and
        the findings the run kept for it, as the run would have made it. The last one made
        is kept while the step is the same (same time run, same number of events)."""
        import json

        row = next((r for r in self.store.steps(c) if int(r.number) == step), None)
        if row is None or step <= 0:
            return {}
        events = self.store.load_events(c, step)
        key = (self.store.game_id, step, row.processed_at, row.seed, len(events.records))
        kept = self._gm_kept
        if kept is not None and kept[0] == key:
            return kept[1]
        info = json.loads(row.info or "{}")
        diags = [Diagnostic.from_dict(d) for d in info.get("gm_diagnostics", [])]
        try:
            rows = self._build_reports(self._state(c, step), events, self.scenario, diags, step,
                                       lambda _f, _m: None, only=set())
        except RunFailed as e:
            raise GameDbError(f"{self.where}: the GM's report of turn {step} cannot be made: {e}") from None
        out = {fmt: text for who, fmt, text in rows if who is None}
        self._gm_kept = (key, out)
        return out

    def export(self, folder: str | Path, step: int | None = None, gm: bool = False) -> list[Path]:
        """Every faction's report in every format plus the GM's, named
        `<game>-t<NNN>-f<FF>.<ext>` and `<game>-t<NNN>-gm.<ext>`, and each faction's
        orders template `<game>-t<NNN>-f<FF>-orders.txt` if the ruleset writes one. A GM
        report made when asked (Ruleset.gm_report_on_demand) is written only with `gm`."""
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise GameDbError(f"{folder}: is a file, not a folder; give a folder to write into")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise GameDbError(f"{folder}: cannot make the folder ({_why(e)})") from None
        written = []
        with self.store.reading() as c:
            step = int(self.store.game(c).current_step) if step is None else step
            base = export_stem(self.store.game(c).name)
            keys = self.store.report_keys(c, step)
            start = self._start_reports(c) if step == 0 and not keys else {}
            if start:
                keys = [(faction or 0, fmt) for faction, fmt in start]
            if self.ruleset.public_reports:
                fmts = [fmt for who, fmt in keys if who == 0]
                keys = [(0, fmt) for fmt in fmts] + [
                    (f.number, fmt) for f in sorted(self._factions(c), key=lambda f: f.number)
                    for fmt in fmts]
            made: dict[str, str] = {}  # the GM's, made now
            if step > 0 and self.ruleset.gm_report_on_demand and not any(w == 0 for w, _f in keys):
                made = self._gm_reports(c, step) if gm else {}
                keys = sorted([*keys, *((0, fmt) for fmt in made)])
            if not keys:
                raise GameDbError(f"no reports for turn {step}")

            def path(faction: int, fmt: str) -> Path:
                who = "gm" if faction == 0 else f"f{faction:02d}"
                return folder / f"{base}-t{step:03d}-{who}.{FORMAT_SUFFIX.get(fmt, fmt)}"

            if start or self.ruleset.public_reports:
                for faction, fmt in keys:
                    p = path(faction, fmt)
                    src = None if self.ruleset.public_reports else (faction or None)
                    _write(p, start[(src, fmt)] if start else self.store.load_report(c, step, src, fmt))
                    written.append(p)
            else:  # each stored report as it is read: the same files in the same order
                for fmt in sorted(made):  # the GM's made now come first, as their keys sort
                    p = path(0, fmt)
                    _write(p, made[fmt])
                    written.append(p)
                for faction, fmt, content in self.store.stream_reports(c, step):
                    p = path(faction, fmt)
                    _write(p, content)
                    written.append(p)
            written += self._write_templates(c, folder, base, step, set(self._reported(c, step)))
        return written

    def _write_templates(self, c: Any, folder: Path, base: str, step: int,
                         who: set[int]) -> list[Path]:
        """The orders template of each faction in `who` for its next turn, where the
        ruleset has one."""
        out: list[Path] = []
        # the ones the run stored (Ruleset.templates_with_reports), the others made from
        # the step's state (a game run before templates were stored, a changed state)
        stored = self.store.load_templates(c, step) if self.ruleset.templates_with_reports else {}
        state = None if who <= stored.keys() else self._state(c, step)
        for f in (f for f in self._factions(c) if f.number in who):
            text: str | bytes | None = stored.get(f.number)
            if text is None:
                assert state is not None  # loaded: not every template is stored
                try:
                    text = self.ruleset.orders_template(state, f.number, self.scenario)
                except Exception:  # a template is a convenience; the reports are written already
                    continue
            if text:
                p = folder / f"{base}-t{step:03d}-f{f.number:02d}-orders.txt"
                _write(p, text)
                out.append(p)
        return out

    def summary(self) -> dict[int, dict[int, dict[str, float]]]:
        """{step: {faction: {measure: value}}} for every step, for charts."""
        out = {}
        with self.store.reading() as c:
            cur = int(self.store.game(c).current_step)
            scen = self.scenario
            for step in range(cur + 1):
                out[step] = self.ruleset.summary(self.store.load_state(c, self.ruleset.state_schema, step), scen)
        return out


# ---- helpers ---------------------------------------------------------------------------

def _is_mail(path: str | Path) -> bool:
    """A saved mail or mailbox (not a forum thread export), judged by its first bytes."""
    from engine.intake.mail import looks_like_mbox, looks_like_message

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return looks_like_message(head) or looks_like_mbox(head)


def _as_post(sub: Submission) -> Submission:
    """A mail to a real-time game is a post at the mail's date, known by its Message-ID."""
    mid = str(sub.meta.get("message_id") or "").strip("<> ")
    part = sub.meta.get("file_name") or ""
    sub.meta.setdefault("post_id", f"mail:{mid}{'#' + part if part else ''}" if mid
                        else f"mail:{sub.source_name}")
    return sub


def _set_aside(subs: list[StoredSubmission], realtime: bool, numbers: set[int],
               cur: int) -> dict[str, list[Submission]]:
    """The submissions status lists apart, by Status field: edited, held, unmatched,
    rejected, and those for another turn than the next."""
    out: dict[str, list[Submission]] = {
        "edited": [], "held": [], "unmatched": [], "rejected": [], "other_steps": []}
    for s in subs:
        m = s.submission.meta.get("match", "ok")
        if s.dismissed:
            continue
        if s.edited:
            out["edited"].append(s.submission)
        elif verify.state_of(s.submission.meta) == verify.HELD and s.applied_step is None:
            out["held"].append(s.submission)
        elif s.faction is None or m == "unmatched":
            # applied posts are history; a known non-faction's post (the GM's) waits for the run
            if not (realtime and (s.applied_step is not None or s.submission.meta.get("role"))):
                out["unmatched"].append(s.submission)
        elif m in REJECTED or s.faction not in numbers:
            out["rejected"].append(s.submission)
        elif not realtime and s.step != cur + 1 and s.applied_step is None and not s.superseded:
            out["other_steps"].append(s.submission)
    return out


def late_orders(step: int, cur: int, submission_id: int | None, file: str) -> Diagnostic:
    """The error on orders naming a turn already run, with what the GM can do about it."""
    sid = str(submission_id) if submission_id is not None else "ID"
    return Diagnostic(
        "intake", f"orders for turn {step}, which has been run already (the game is collecting "
        f"turn {cur + 1}); not used. If they are meant for turn {cur + 1}: realmsmith reassign "
        f"GAME {sid} --turn {cur + 1}; to set them aside: realmsmith dismiss GAME {sid}",
        file=file, severity=Severity.ERROR)


def _why(e: OSError) -> str:
    return "permission denied" if isinstance(e, PermissionError) else (e.strerror or str(e))


def _write(p: Path, text: str | bytes) -> None:
    """Write one exported file; a disk or permission problem is a GameDbError naming it.
    Bytes are UTF-8 text already, written with the newlines write_text would write."""
    try:
        if isinstance(text, bytes):
            p.write_bytes(text if os.linesep == "\n" else text.replace(b"\n", os.linesep.encode()))
        else:
            p.write_text(text, encoding="utf-8")
    except OSError as e:
        raise GameDbError(f"{p}: cannot write ({_why(e)})") from None

def export_stem(name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "game"

__all__ = ["GameService", "GmStepRefused", "RunFailed", "RunCancelled", "TurnMoved", "GameNotFound", "export_stem"]
