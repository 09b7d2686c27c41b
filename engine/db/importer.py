"""Storing submissions (a mixin of GameService): each judged on its own, written in one go.

Importing has two halves. Judging -- recognising what was imported before, matching,
verifying the sender (engine.intake.verify), parsing and checking -- needs no write lock
and runs against what was read at the start. Writing is one short transaction of bulk
inserts, so an hourly cron import does not block the GM's console for longer than the
writing takes, and the cost grows linearly with the mailbox (one read of the stored
submissions, one insert, one supersession pass per faction and turn touched).

Nothing one hostile submission holds can lose the others: a submission that cannot be
judged or stored becomes a problem naming its source, and the rest are imported. If a
turn ran or another import stored something between the reading and the writing, the
judging is done again inside the write transaction (rare; correct either way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.db import sequence
from engine.db.intake_bridge import factions_index
from engine.db.intake_bridge import match as _match
from engine.db.intake_bridge import source_identity as _identity
from engine.db.intake_bridge import to_json as _json
from engine.db.results import DUPLICATE, EDITED, ImportReport, ImportResult
from engine.db.store import now_iso
from engine.intake import verify
from engine.orders import Diagnostic, Severity
from engine.parallel import fork_map
from engine.ruleset import Ruleset, Submission, TurnModel


@dataclass
class _Stored:
    """What is known of a stored (or being stored) submission, for recognising repeats."""

    faction: int | None
    step: int | None
    live: bool                     # not superseded, rejected, held or applied
    id: int | None = None          # None until written
    text: str = ""
    applied: bool = False
    edited: bool = False


@dataclass
class _Judged:
    sub: Submission
    me: _Stored
    post_id: str | None = None
    edited: bool = False
    replaces: list[_Stored] = field(default_factory=list)   # realtime: earlier post texts
    status: str = "stored"
    note: str = ""
    diags: list[Diagnostic] = field(default_factory=list)
    check: bool = True  # parse and check it (not a post a ruleset checks as a batch)


class _Index:
    """Everything stored, by source identity + text and by post id (one read)."""

    def __init__(self, rows: list[Any]):
        self.seen: dict[tuple[str, str], list[_Stored]] = {}
        self.posts: dict[str, list[_Stored]] = {}
        self.top = 0
        self.rows = rows
        for s in rows:
            meta = s.submission.meta
            rec = _Stored(s.faction, s.step, s.active and verify.usable(meta), s.id,
                          s.submission.text, s.applied_step is not None, s.edited)
            key = meta.get("source_id") or _identity(s.submission, s.post_id)
            if key:
                self.seen.setdefault((key, s.submission.text), []).append(rec)
            if s.post_id is not None:
                self.posts.setdefault(s.post_id, []).append(rec)
            self.top = max(self.top, s.seq)

    def forget(self, me: _Stored, post_id: str | None) -> None:
        """Take back a new submission judged after all unfit to be stored."""
        for recs in [*self.seen.values(), self.posts.get(post_id or "", [])]:
            if any(r is me for r in recs):
                recs[:] = [r for r in recs if r is not me]


class Importer:
    """import_submissions, held/accept/reject; uses GameService's store, ruleset,
    scenario, _state and _diagnose."""

    store: Any
    ruleset: Any

    def import_submissions(self, subs: list[Submission],
                           problems: Iterable[Diagnostic] = ()) -> ImportReport:
        """Store, match, verify and check submissions; nothing is dropped, and one bad
        submission costs only itself (it becomes a problem naming its source)."""
        given = list(problems)
        report = ImportReport(problems=list(given))
        subs = self._split_sets(subs)
        before = [(s.faction, s.step, s.matched_by, dict(s.meta)) for s in subs]
        with self.store.reading() as c:
            cur, index = self._intake_snapshot(c)
            state = self._state(c, cur)
            seen = self.store.version(c)  # nothing written since: a run may take this state
        judged = self._judge_all(subs, cur, state, index, report)
        early = self._batch_findings(index, judged, state)
        with self.store.transaction() as c:
            now_cur = int(self.store.game(c).current_step)
            if now_cur != cur or self._top_seq(c) != index.top:  # someone wrote meanwhile
                for s, (f, step, why, meta) in zip(subs, before, strict=True):
                    s.faction, s.step, s.matched_by, s.meta = f, step, why, meta
                report = ImportReport(problems=list(given))
                cur, index = self._intake_snapshot(c)
                state = self._state(c, cur)
                seen = self.store.version(c)
                judged = self._judge_all(subs, cur, state, index, report)
                early = None
            self._write(c, judged, index.top, report, cur, state)
            if early is not None:  # checked before the lock; only stored here
                found = self._store_findings(c, early, judged)
            else:
                found = self._recheck_posts(c, self.scenario, state)  # type: ignore[attr-defined]
            for r in report.results if found else ():  # real time: posts judged as one batch
                if r.submission_id in found and r.status != DUPLICATE:
                    r.diagnostics = found[r.submission_id]
            # a problem reported by an earlier import (the same file again) is not news
            report.problems = self.store.add_problems(c, report.problems, cur + 1)
        if seen is not None and self.store.writes == seen[2] + 1:  # its own writing alone since
            self._checked.read_ahead(cur, state, self.scenario, (*seen[:2], self.store.writes))  # type: ignore[attr-defined]
        place = {id(s): i for i, s in enumerate(subs)}  # results in the order given
        report.results.sort(key=lambda r: place.get(id(r.submission), len(place)))
        return report

    def _split_sets(self, subs: list[Submission]) -> list[Submission]:
        """Texts holding several factions' sets, one submission per set (Ruleset.split_sets);
        a text the GM gave a faction stays whole."""
        if type(self.ruleset).split_sets is Ruleset.split_sets:
            return subs
        out: list[Submission] = []
        for s in subs:
            try:
                out += [s] if s.faction is not None else self.ruleset.split_sets(s)
            except Exception:  # noqa: BLE001 - a ruleset bug must not lose orders: keep it whole
                out.append(s)
        return out

    # ---- judging (no write lock) ----------------------------------------------------------

    def _intake_snapshot(self, c: Any) -> tuple[int, _Index]:
        cur = int(self.store.game(c).current_step)
        return cur, _Index(self.store.submissions(c, with_diagnostics=False))

    def _top_seq(self, c: Any) -> int:
        from sqlalchemy import func, select

        from engine.db.journal import SUB

        return int(c.execute(select(func.max(SUB.c.seq)).where(
            SUB.c.game_id == self.store.game_id)).scalar() or 0)

    def _judge_all(self, subs: list[Submission], cur: int, state: Any, index: _Index,
                   report: ImportReport) -> list[_Judged]:
        out: list[_Judged] = []
        scen = self.scenario  # type: ignore[attr-defined]
        # a real-time ruleset that checks posts as a batch does so after the writing
        # (_recheck_posts); checking each post alone here as well would be wasted
        batch = self.ruleset.turn_model == TurnModel.REALTIME and \
            type(self.ruleset).check_posts is not Ruleset.check_posts
        factions = factions_index(scen)
        for sub in subs:
            try:
                j = self._judge(sub, scen, state, cur, index, not batch, factions)
            except Exception as e:  # noqa: BLE001 - one hostile submission, not the mailbox
                report.problems.append(_unstorable(sub, "could not be judged", e))
                continue
            if isinstance(j, ImportResult):
                report.results.append(j)
            else:
                out.append(j)

        def one(j: _Judged) -> tuple[list[Diagnostic], list[tuple[Any, ...]]] | str:
            """The set's findings, and what the run after it may take (CheckedSets)."""
            kept: list[tuple[Any, ...]] = []
            try:
                return self._findings(j, scen, state, cur, j.check, kept.append), kept
            except Exception as e:  # noqa: BLE001 - one hostile submission, not the mailbox
                return f"{type(e).__name__}: {e}"

        # each set read and checked alone against one state: shared with forked copies
        # (engine/parallel); the same findings in the same order either way
        judged = []
        for j, got in zip(out, fork_map(one, out), strict=True):
            if isinstance(got, str):
                report.problems.append(_unstorable(j.sub, "could not be judged", RuntimeError(got)))
                index.forget(j.me, j.post_id)
                continue
            j.diags, kept = got
            for source, text, faction, sheet, found in kept:
                self._checked.keep(source, text, faction, sheet, found, state, scen)  # type: ignore[attr-defined]
            judged.append(j)
        return judged

    def _judge(self, sub: Submission, scen: Any, state: Any, cur: int,
               index: _Index, check: bool = True, factions: Any = None) -> _Judged | ImportResult:
        realtime = self.ruleset.turn_model == TurnModel.REALTIME
        post_id = sub.meta.get("post_id")
        post_id = None if post_id in (None, "") else str(post_id)
        given = sub.meta.get(verify.KEY) == verify.GM and sub.matched_by == "given by the GM"
        # The same source with the same text was stored before: nothing new. A faction
        # given by the GM is a decision of its own: it applies unless the same orders are
        # already the live ones of that faction and turn.
        key = _identity(sub, post_id)
        if key is not None:
            sub.meta["source_id"] = key
            same = index.seen.get((key, sub.text), [])
            if given:
                same = [s for s in same if s.live and (s.faction, s.step) == (sub.faction, sub.step)]
            if same:
                what = f"post {post_id}" if post_id is not None else "this source"
                sid = same[0].id
                return ImportResult(sub, sid, DUPLICATE, note=f"{what} already imported"
                                    + (f" (submission {sid})" if sid is not None else "") + "; skipped")
        if sub.faction is None or sub.step is None:
            _match(sub, self.ruleset, scen, cur + 1, state, factions)
        if realtime:
            sub.step = None  # posts are applied by time, not by turn number
        elif self.ruleset.turn_model == TurnModel.SEQUENTIAL and sub.faction is not None:
            sequence.declare_turn(self.ruleset, sub, self._parse)  # catch-up turns: meta "turn"
        j = _Judged(sub, _Stored(sub.faction, sub.step, False), post_id)
        if post_id is not None:
            earlier = index.posts.get(post_id, [])
            if any(r.applied for r in earlier):
                j.status, j.edited = EDITED, True
                j.note = f"post {post_id} was edited after it was applied; the edit is not applied"
            elif earlier:
                j.replaces = list(earlier)
                j.note = f"post {post_id} was edited before it was applied; the new text counts"
        j.check = check  # the findings: _judge_all, for every set at once
        j.me.edited = j.edited
        j.me.live = not j.edited and verify.usable(sub.meta)
        j.me.text = sub.text
        if key is not None:
            index.seen.setdefault((key, sub.text), []).append(j.me)
        if post_id is not None:
            index.posts.setdefault(post_id, []).append(j.me)
        return j

    def _findings(self, j: _Judged, scen: Any, state: Any, cur: int,
                  check: bool = True, keep: Callable[[tuple[Any, ...]], None] | None = None
                  ) -> list[Diagnostic]:
        """Intake notes, parse and check findings, and the notes on edits and held orders
        (`keep`: gets what the run may take, see GameService._diagnose)."""
        sub = j.sub
        out = self._diagnose(sub, scen, state, cur, check, keep)  # type: ignore[attr-defined]
        if j.edited:
            out.append(Diagnostic("intake", j.note, file=sub.source_name,
                                  severity=Severity.WARNING, faction=sub.faction))
        if sub.faction is not None and verify.state_of(sub.meta) == verify.HELD:
            out.append(Diagnostic(
                "intake", f"held for the GM: {sub.meta.get(verify.NOTE)}; these orders count "
                "only once the GM accepts them", file=sub.source_name or sub.source_kind,
                severity=Severity.WARNING, faction=sub.faction))
        return out

    def _batch_findings(self, index: _Index, judged: list[_Judged],
                        state: Any) -> dict[int, list[Diagnostic]] | None:
        """Real time, a ruleset that checks posts as a batch: the findings of every post the
        next run would apply -- those stored and these new ones -- worked out before the
        write lock (GameService._recheck_posts does the same inside it). New posts are keyed
        -1, -2, ... by their place in `judged`. None if not such a game."""
        if not (self.ruleset.turn_model == TurnModel.REALTIME
                and type(self.ruleset).check_posts is not Ruleset.check_posts):
            return None
        from engine.db.journal import StoredSubmission

        # posts edited before they were applied: the new text replaces the old
        gone = {r.id for j in judged for r in j.replaces if r.id is not None}
        gone_new = {id(r) for j in judged for r in j.replaces if r.id is None}
        posts = [s for s in index.rows if s.active and s.id not in gone]
        for k, j in enumerate(judged):
            if not j.edited and verify.usable(j.sub.meta) and id(j.me) not in gone_new:
                posts.append(StoredSubmission(-(k + 1), index.top + k + 1, j.sub, "", False, None,
                                              j.post_id, False))
        posts.sort(key=lambda s: (s.submission.received_at or s.imported_at or "9999", s.seq))
        return self._post_findings(posts, self.scenario, state)  # type: ignore[attr-defined]

    def _store_findings(self, c: Any, early: dict[int, list[Diagnostic]],
                        judged: list[_Judged]) -> dict[int, list[Diagnostic]]:
        """The batch findings under the real ids, stored in bulk in place of the old ones."""
        found: dict[int, list[Diagnostic]] = {}
        for key, diags in early.items():
            sid = key if key > 0 else judged[-key - 1].me.id
            if sid is not None:  # a new post that could not be stored has no findings to keep
                found[sid] = diags
        self.store.delete_diagnostics(c, list(found))
        self.store.add_diagnostics_rows(c, [(sid, None, d) for sid, d in found.items()])
        return found

    # ---- writing (one short transaction) ---------------------------------------------------

    def _write(self, c: Any, judged: list[_Judged], top: int, report: ImportReport,
               cur: int, state: Any) -> None:
        st = self.store
        now = now_iso()
        rows = [_row(j, top + k + 1, now) for k, j in enumerate(judged)]
        try:
            with c.begin_nested():
                ids = st.add_submission_rows(c, rows)
        except Exception:  # noqa: BLE001 - find the one that cannot be stored, keep the rest
            ids = []
            for j, r in zip(judged, rows, strict=True):
                try:
                    with c.begin_nested():
                        ids.append(st.add_submission_rows(c, [r])[0])
                except Exception as e:  # noqa: BLE001
                    ids.append(None)
                    report.problems.append(_unstorable(j.sub, "could not be stored", e))
        kept = []
        for j, sid in zip(judged, ids, strict=True):
            if sid is None:
                continue
            j.me.id = sid
            j.sub.meta["submission_id"] = sid
            kept.append(j)
            if j.sub.faction is not None and j.sub.step is not None and j.sub.step <= cur:
                # orders for a turn run already: the finding names the submission's id (the
                # GM's `reassign`/`dismiss`), known only now; rare, so judged again here
                j.diags = self._findings(j, self.scenario, state, cur)  # type: ignore[attr-defined]
        st.add_diagnostics_rows(c, [(j.me.id, j.sub.step, j.diags) for j in kept])
        old = {r.id for j in kept for r in j.replaces if r.id is not None}
        if old:
            st.set_superseded(c, sorted(old), True)
        results = {id(j): ImportResult(j.sub, j.me.id, j.status, j.diags, [], j.note) for j in kept}
        if self.ruleset.turn_model != TurnModel.REALTIME:
            self._supersede(c, kept, results)
        report.results.extend(results[id(j)] for j in kept)

    def _supersede(self, c: Any, kept: list[_Judged], results: dict[int, ImportResult]) -> None:
        """Supersession of every (faction, turn) touched, in one pass; notes say what replaced what."""
        st = self.store
        groups: dict[tuple[int, int], list[_Judged]] = {}
        for j in kept:
            if j.sub.faction is not None and j.sub.step is not None:
                groups.setdefault((j.sub.faction, j.sub.step), []).append(j)
        flags = st.resolve_supersessions(c, groups)
        for key, js in groups.items():
            before, after = flags[key]
            mine = {j.me.id for j in js}
            newly = [i for i, s in after.items() if s and not before.get(i, False) and i not in mine]
            newly += [j.me.id for j in js if after.get(j.me.id)]
            for j in js:
                r = results[id(j)]
                if after.get(j.me.id):
                    r.note = r.note or "an orders set received later for the same faction " \
                                       "and turn counts instead"
                elif j.me.id in after:
                    gone = sorted(i for i in newly if i != j.me.id)
                    if gone:
                        r.superseded = gone
                        r.note = r.note or f"replaces earlier submission(s) {', '.join(map(str, gone))}"

    # ---- held submissions: the GM decides ------------------------------------------------------

    def held(self) -> list[Any]:
        """Submissions waiting for the GM to accept or reject them (oldest first)."""
        with self.store.reading() as c:
            return [s for s in self.store.submissions(c)
                    if verify.state_of(s.submission.meta) == verify.HELD]

    def accept(self, submission_id: int) -> ImportResult:
        """The GM vouches for a held submission: it takes part as if verified."""
        return self._decide(submission_id, verify.ACCEPTED, "accepted by the GM")

    def reject(self, submission_id: int) -> ImportResult:
        """The GM refuses a held submission: kept in the history, never used."""
        return self._decide(submission_id, verify.REJECTED, "rejected by the GM")

    def _decide(self, submission_id: int, state: str, note: str) -> ImportResult:
        from engine.db.errors import GameDbError

        with self.store.transaction() as c:
            got = self.store.submissions(c, ids=[submission_id])
            if not got:
                raise GameDbError(f"{self.store.where}: no submission {submission_id}")
            s = got[0]
            was = verify.state_of(s.submission.meta)
            if was not in (verify.HELD, verify.ACCEPTED, verify.REJECTED):
                raise GameDbError(f"submission {submission_id} is not held (it is {was}); "
                                  "only held submissions are accepted or rejected")
            meta = {k: v for k, v in s.submission.meta.items() if k != "submission_id"}
            meta[verify.KEY] = state
            meta[verify.NOTE] = f"{note} (was: {s.submission.meta.get(verify.NOTE, '')})"
            self.store.set_submission(c, submission_id, meta=_json(meta))
            diags = [d for d in s.diagnostics if not d.message.startswith("held for the GM")]
            self.store.replace_diagnostics(c, submission_id, diags, s.step)
            if s.faction is not None and s.step is not None:
                self.store.resolve_supersession(c, s.faction, s.step)
            s.submission.meta.update(meta)
        return ImportResult(s.submission, submission_id, "stored", diags, [], note)


def _row(j: _Judged, seq: int, now: str) -> dict[str, Any]:
    sub = j.sub
    return {"seq": seq, "text": sub.text, "source_kind": sub.source_kind,
            "source_name": sub.source_name, "sender": sub.sender, "subject": sub.subject,
            "received_at": sub.received_at, "imported_at": now, "encoding": sub.encoding,
            "faction": sub.faction, "step": sub.step, "matched_by": sub.matched_by,
            "superseded": False, "applied_step": None, "post_id": j.post_id,
            "edited": j.edited, "meta": _json(sub.meta)}


def _unstorable(sub: Submission, what: str, e: BaseException) -> Diagnostic:
    return Diagnostic("intake", f"{sub.source_name or sub.source_kind}: {what} "
                      f"({type(e).__name__}: {str(e)[:200]}); the other submissions are imported",
                      file=sub.source_name or sub.source_kind)
