"""The game's journal: submissions, their diagnostics, the events and reports of each step."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.engine import Connection

from engine.db import bulk
from engine.db.results import REJECTED
from engine.db.schema import GM, TEMPLATE, DiagnosticRow, EventRow, ReportRow, SubmissionRow
from engine.events import Event, EventLog, EventRecord
from engine.intake import verify
from engine.orders import Diagnostic, Severity
from engine.ruleset import Submission

SUB = SubmissionRow
DIAG = DiagnosticRow
EVT = EventRow
REP = ReportRow


# what json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
# makes for each call, made once (a turn writes some 30,000 events)
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def _dumps(v: Any) -> str:
    return _ENCODER.encode(v)


@dataclass
class StoredSubmission:
    """A submission as the database holds it, with its bookkeeping."""

    id: int
    seq: int
    submission: Submission
    imported_at: str = ""
    superseded: bool = False
    applied_step: int | None = None
    post_id: str | None = None
    edited: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def faction(self) -> int | None:
        return self.submission.faction

    @property
    def step(self) -> int | None:
        return self.submission.step

    @property
    def rejected(self) -> bool:
        """Matched but unusable: another game, a wrong password, a faction not in the game."""
        return self.submission.meta.get("match", "ok") in REJECTED

    @property
    def dismissed(self) -> bool:
        """Set aside by the GM (`realmsmith dismiss`): kept in the history, never used."""
        return bool(self.submission.meta.get("dismissed"))

    @property
    def held(self) -> bool:
        """Waiting for the GM (sender not verified), or refused by the GM (`reject`)."""
        return not verify.usable(self.submission.meta)

    def state_words(self, pending: int, factions: set[int], realtime: bool = False) -> str:
        """What will happen to it, in a few words for the GM (console, `submissions`)."""
        m = self.submission.meta.get("match", "ok")
        if self.applied_step is not None:
            return f"used in turn {self.applied_step}"
        if self.dismissed:
            return "dismissed"
        if self.edited:
            return "edited after use"
        if self.faction is None and self.submission.meta.get("role"):  # e.g. a "GM post"
            return "waiting for the run" if realtime else str(self.submission.meta["role"])
        if self.faction is None or m == "unmatched":
            return "UNMATCHED"
        if m in REJECTED or self.faction not in factions:
            return f"rejected ({m.replace('_', ' ')})"
        v = verify.state_of(self.submission.meta)
        if v == verify.HELD:
            return "HELD: sender not verified"
        if v == verify.REJECTED:
            return "rejected by the GM"
        if self.superseded:
            return "replaced by a later one"
        if realtime:
            return "waiting for the run"
        if self.step is not None and self.step < pending:
            return f"LATE (turn {self.step} is run)"
        if self.step is not None and self.step > pending:
            return f"early (for turn {self.step})"
        return "waiting for the run"

    @property
    def active(self) -> bool:
        """Will be used by the next run of its step."""
        return not (self.superseded or self.edited or self.rejected or self.dismissed
                    or self.held) \
            and self.applied_step is None


@dataclass(frozen=True)
class UnknownEvent(Event):
    """A stored event whose kind the installed ruleset no longer declares; kept as JSON."""

    kind = "rs_unknown_event"
    original_kind: str = ""
    data: str = "{}"


def _faction_set(fs: frozenset[int] | set[int] | None) -> str | None:
    if fs is None:
        return None
    return "," + ",".join(str(x) for x in sorted(fs)) + "," if fs else ","


DISMISSED_STEP = -1  # the step of intake problems the GM dismissed (kept for de-duplication)


def _out_of_play(meta: dict[str, Any]) -> bool:
    """Rejected (another game, wrong password, unknown faction), dismissed by the GM, or
    held (sender not verified, engine.intake.verify) or rejected by the GM."""
    return meta.get("match", "ok") in REJECTED or bool(meta.get("dismissed")) \
        or not verify.usable(meta)


_DIAG_COLUMNS = ("game_id", "submission_id", "step", "faction", "file", "line", "col", "kind",
                 "severity", "message", "text")


class JournalMixin:
    game_id: int

    # ---- submissions ---------------------------------------------------------------

    def add_submission(self, c: Connection, sub: Submission, imported_at: str,
                       post_id: str | None = None, edited: bool = False,
                       superseded: bool = False) -> int:
        seq = int(c.execute(select(func.max(SUB.c.seq)).where(SUB.c.game_id == self.game_id))
                  .scalar() or 0) + 1
        res = c.execute(SUB.insert().values(
            game_id=self.game_id, seq=seq, text=sub.text, source_kind=sub.source_kind,
            source_name=sub.source_name, sender=sub.sender, subject=sub.subject,
            received_at=sub.received_at, imported_at=imported_at, encoding=sub.encoding,
            faction=sub.faction, step=sub.step, matched_by=sub.matched_by, superseded=superseded,
            applied_step=None, post_id=post_id, edited=edited, meta=_dumps(sub.meta)))
        return int(res.inserted_primary_key[0])

    def add_submission_rows(self, c: Connection, rows: list[dict[str, Any]]) -> list[int]:
        """Insert many submissions (dicts of SubmissionRow columns, seq included) in one
        statement; their ids in the same order."""
        if not rows:
            return []
        # one executemany, then the ids by seq (unique within a game): RETURNING with
        # parameter order falls back to a statement per row on SQLite
        c.execute(SUB.insert(), [{"game_id": self.game_id, **r} for r in rows])
        seqs = [r["seq"] for r in rows]
        got = dict(c.execute(select(SUB.c.seq, SUB.c.id).where(
            SUB.c.game_id == self.game_id, SUB.c.seq >= min(seqs), SUB.c.seq <= max(seqs))).all())
        return [int(got[q]) for q in seqs]

    def add_diagnostics_rows(self, c: Connection,
                             items: list[tuple[int | None, int | None, list[Diagnostic]]]) -> None:
        """(submission id, step, diagnostics) for many submissions in one insert (the
        driver's executemany: an import of 1,000 mails stores some 3,000)."""
        bulk.insert_rows(c, DIAG, _DIAG_COLUMNS,
                         [(self.game_id, sid, step, d.faction, d.file, d.line, d.col, d.kind,
                           d.severity.value, d.message, d.text)
                          for sid, step, diags in items for d in diags])

    def delete_diagnostics(self, c: Connection, sub_ids: list[int]) -> None:
        """The stored findings of many submissions, in chunks (a 100,000-post thread)."""
        for i in range(0, len(sub_ids), 500):
            c.execute(delete(DIAG).where(DIAG.c.game_id == self.game_id,
                                         DIAG.c.submission_id.in_(sub_ids[i:i + 500])))

    def set_superseded(self, c: Connection, ids: list[int], value: bool) -> None:
        for i in range(0, len(ids), 500):
            c.execute(update(SUB).where(SUB.c.game_id == self.game_id, SUB.c.id.in_(ids[i:i + 500]))
                      .values(superseded=value))

    def superseded_flags(self, c: Connection, faction: int, step: int) -> dict[int, bool]:
        """id -> superseded of the unapplied submissions of one faction and step."""
        return {int(r.id): bool(r.superseded) for r in c.execute(
            select(SUB.c.id, SUB.c.superseded).where(
                SUB.c.game_id == self.game_id, SUB.c.faction == faction, SUB.c.step == step,
                SUB.c.applied_step.is_(None)))}

    def submissions(self, c: Connection, *, step: int | None = None, ids: list[int] | None = None,
                    with_diagnostics: bool = True) -> list[StoredSubmission]:
        q = select(SUB).where(SUB.c.game_id == self.game_id)
        if step is not None:
            q = q.where(SUB.c.step == step)
        if ids is not None:
            q = q.where(SUB.c.id.in_(ids))
        rows = c.execute(q.order_by(SUB.c.seq)).all()
        out = []
        for r in rows:
            sub = Submission(r.text, r.source_kind, r.source_name, r.sender, r.subject,
                             r.received_at, r.encoding, r.faction, r.step, r.matched_by,
                             json.loads(r.meta or "{}"))
            sub.meta["submission_id"] = r.id
            out.append(StoredSubmission(r.id, r.seq, sub, r.imported_at, bool(r.superseded),
                                        r.applied_step, r.post_id, bool(r.edited)))
        if with_diagnostics and out:
            diags = self.diagnostics(c, [s.id for s in out])
            for s in out:
                s.diagnostics = diags.get(s.id, [])
        return out

    def set_submission(self, c: Connection, sub_id: int, **values: Any) -> None:
        c.execute(update(SUB).where(SUB.c.game_id == self.game_id, SUB.c.id == sub_id).values(**values))

    def set_submissions(self, c: Connection, sub_ids: list[int], **values: Any) -> None:
        """set_submission of many in one statement (a run marks a thousand applied)."""
        for at in range(0, len(sub_ids), 500):  # within any driver's limit of parameters
            c.execute(update(SUB).where(SUB.c.game_id == self.game_id,
                                        SUB.c.id.in_(sub_ids[at:at + 500])).values(**values))

    def resolve_supersession(self, c: Connection, faction: int, step: int) -> None:
        """Of the unapplied submissions of one faction for one step, only the latest counts.

        Latest = latest received_at (a pasted text without one counts from its import
        time), then latest imported; the earlier ones stay in history, flagged superseded.
        Rejected submissions (another game, wrong password, unknown faction) and held
        ones (sender not verified, engine.intake.verify) take no part: they never replace
        accepted orders, and nothing replaces them.
        """
        self.resolve_supersessions(c, [(faction, step)])

    def resolve_supersessions(self, c: Connection, keys: Iterable[tuple[int, int]]
                              ) -> dict[tuple[int, int], tuple[dict[int, bool], dict[int, bool]]]:
        """resolve_supersession for many (faction, step) pairs: one read, and updates of
        only the flags that change (an import of 1,000 factions' orders made 4,000
        statements of it). Returns each pair's superseded_flags before and after."""
        keys = set(keys)
        if not keys:
            return {}
        q = select(SUB.c.id, SUB.c.faction, SUB.c.step, SUB.c.superseded, SUB.c.edited,
                   SUB.c.received_at, SUB.c.imported_at, SUB.c.seq, SUB.c.meta).where(
            SUB.c.game_id == self.game_id, SUB.c.applied_step.is_(None),
            SUB.c.step.in_(sorted({s for _f, s in keys})))
        if len(keys) == 1:
            q = q.where(SUB.c.faction == next(iter(keys))[0])
        rows: dict[tuple[int, int], list[Any]] = {k: [] for k in keys}
        for r in c.execute(q):
            if (r.faction, r.step) in rows:
                rows[(r.faction, r.step)].append(r)
        out: dict[tuple[int, int], tuple[dict[int, bool], dict[int, bool]]] = {}
        change: dict[bool, list[int]] = {True: [], False: []}
        for key, got in rows.items():
            before = {int(r.id): bool(r.superseded) for r in got}
            after = dict(before)
            # edited posts keep their flag; rejected and held ones are never superseded
            live = [r for r in got if r.edited is False]
            groups: dict[Any, list[Any]] = {}
            for r in live:
                meta = json.loads(r.meta or "{}")
                after[int(r.id)] = False
                if not _out_of_play(meta):
                    # sheets naming different turns of the faction (meta "turn", a
                    # sequential game's catch-up turns) are each the latest of their own turn
                    groups.setdefault(meta.get("turn"), []).append(r)
            for group in groups.values():
                # a text without a date (pasted) counts from when it was imported
                latest = max(group, key=lambda r: (r.received_at or r.imported_at or "", r.seq))
                for r in group:
                    if r.id != latest.id:
                        after[int(r.id)] = True
            for i, flag in after.items():
                if flag != before[i]:
                    change[flag].append(i)
            out[key] = (before, after)
        for flag, ids in change.items():
            self.set_superseded(c, sorted(ids), flag)
        return out

    def find_post(self, c: Connection, post_id: str) -> list[Any]:
        return c.execute(select(SUB.c.id, SUB.c.text, SUB.c.applied_step, SUB.c.edited).where(
            SUB.c.game_id == self.game_id, SUB.c.post_id == post_id).order_by(SUB.c.seq)).all()

    def unapply_after(self, c: Connection, step: int) -> None:
        c.execute(update(SUB).where(SUB.c.game_id == self.game_id, SUB.c.applied_step > step)
                  .values(applied_step=None))

    # ---- diagnostics --------------------------------------------------------------

    def replace_diagnostics(self, c: Connection, sub_id: int | None, diags: list[Diagnostic],
                            step: int | None = None) -> None:
        if sub_id is not None:
            c.execute(delete(DIAG).where(DIAG.c.game_id == self.game_id, DIAG.c.submission_id == sub_id))
        rows = [{"game_id": self.game_id, "submission_id": sub_id, "step": step, "faction": d.faction,
                 "file": d.file, "line": d.line, "col": d.col, "kind": d.kind,
                 "severity": d.severity.value, "message": d.message, "text": d.text} for d in diags]
        if rows:
            c.execute(DIAG.insert(), rows)

    def replace_many_diagnostics(self, c: Connection, by_sub: list[tuple[int, list[Diagnostic]]],
                                 step: int | None = None) -> None:
        """replace_diagnostics of many submissions: their old rows gone in one statement,
        the new ones written in one (in the order given), as a run does for every set."""
        ids = [sid for sid, _d in by_sub]
        for at in range(0, len(ids), 500):
            c.execute(delete(DIAG).where(DIAG.c.game_id == self.game_id,
                                         DIAG.c.submission_id.in_(ids[at:at + 500])))
        bulk.insert_rows(c, DIAG, ("game_id", "submission_id", "step", "faction", "file", "line",
                                   "col", "kind", "severity", "message", "text"),
                         [(self.game_id, sid, step, d.faction, d.file, d.line, d.col, d.kind,
                           d.severity.value, d.message, d.text) for sid, diags in by_sub for d in diags])

    def add_problems(self, c: Connection, diags: list[Diagnostic], step: int | None) -> list[Diagnostic]:
        """Intake problems not tied to a submission; one already stored (same file, place,
        message), in any turn or dismissed, is not stored again, so re-importing a source
        repeats nothing. Returns the new ones."""
        have = {(r.file, r.line, r.col, r.kind, r.severity, r.message, r.text, r.faction)
                for r in c.execute(select(DIAG).where(
                    DIAG.c.game_id == self.game_id, DIAG.c.submission_id.is_(None)))}
        new: list[Diagnostic] = []
        for d in diags:
            key = (d.file, d.line, d.col, d.kind, d.severity.value, d.message, d.text, d.faction)
            if key not in have:
                have.add(key)
                new.append(d)
        self.replace_diagnostics(c, None, new, step)
        return new

    def dismiss_problems(self, c: Connection, step: int | None = None) -> int:
        """Set the stored intake problems (of the turn `step`, or all) aside: status no
        longer lists them, and importing their files again stays quiet."""
        q = update(DIAG).where(DIAG.c.game_id == self.game_id, DIAG.c.submission_id.is_(None),
                               DIAG.c.step != DISMISSED_STEP)
        if step is not None:
            q = q.where(DIAG.c.step == step)
        return int(c.execute(q.values(step=DISMISSED_STEP)).rowcount or 0)

    def diagnostics(self, c: Connection, sub_ids: list[int]) -> dict[int, list[Diagnostic]]:
        out: dict[int, list[Diagnostic]] = {}
        for r in c.execute(select(DIAG).where(DIAG.c.game_id == self.game_id,
                                              DIAG.c.submission_id.in_(sub_ids)).order_by(DIAG.c.id)):
            out.setdefault(r.submission_id, []).append(
                Diagnostic(r.kind, r.message, r.line, r.col, r.text, r.file, Severity(r.severity),
                           r.faction))
        return out

    def problems(self, c: Connection, step: int | None = None) -> list[Diagnostic]:
        """Diagnostics not tied to a submission (intake problems: unreadable files...),
        all of them or those recorded while collecting `step`."""
        q = select(DIAG).where(DIAG.c.game_id == self.game_id, DIAG.c.submission_id.is_(None))
        if step is not None:
            q = q.where(DIAG.c.step == step)
        return [Diagnostic(r.kind, r.message, r.line, r.col, r.text, r.file, Severity(r.severity),
                           r.faction) for r in c.execute(q.order_by(DIAG.c.id))]

    # ---- events -------------------------------------------------------------------

    def save_events(self, c: Connection, step: int, log: EventLog) -> None:
        rows = []
        for r in log.records:
            d = r.event.to_dict()
            d.pop("kind", None)
            rows.append((self.game_id, step, r.seq, r.phase, r.event.kind, _dumps(d),
                         _faction_set(r.event.factions()), _faction_set(r.event.visible_to())))
        bulk.insert_rows(c, EVT, ("game_id", "step", "seq", "phase", "kind", "data", "factions",
                                  "visible"), rows)

    def load_events(self, c: Connection, step: int, faction: int | None = None,
                    kind: str | None = None) -> EventLog:
        q = select(EVT.c.seq, EVT.c.phase, EVT.c.kind, EVT.c.data).where(
            EVT.c.game_id == self.game_id, EVT.c.step == step)
        if faction is not None:
            q = q.where(EVT.c.factions.like(f"%,{int(faction)},%"))
        if kind is not None:  # 'battle' finds kok.battle, kok.battle_round, kok.sea_battle...
            q = q.where(EVT.c.kind.contains(kind, autoescape=True))
        log = EventLog()
        for seq, phase, k, data in c.execute(q.order_by(EVT.c.seq)):
            fields = json.loads(data)
            try:
                ev = Event.from_dict({"kind": k, **fields})
            except (KeyError, TypeError, ValueError):  # a kind this ruleset version lacks
                ev = UnknownEvent(k, data)
            log.records.append(EventRecord(seq, phase, ev))
        return log

    # ---- reports ------------------------------------------------------------------

    def save_report(self, c: Connection, step: int, faction: int | None, fmt: str, content: str) -> None:
        c.execute(REP.insert().values(game_id=self.game_id, step=step,
                                      faction=GM if faction is None else faction, format=fmt,
                                      content=content))

    def save_reports(self, c: Connection, step: int, rows: list[tuple[int | None, str, str]]) -> None:
        """(faction, format, content) rows in one insert; faction None = the GM."""
        bulk.insert_rows(c, REP, ("game_id", "step", "faction", "format", "content"),
                         [(self.game_id, step, GM if f is None else f, fmt, text)
                          for f, fmt, text in rows])

    def load_report(self, c: Connection, step: int, faction: int | None, fmt: str) -> str | None:
        return c.execute(select(REP.c.content).where(
            REP.c.game_id == self.game_id, REP.c.step == step,
            REP.c.faction == (GM if faction is None else faction), REP.c.format == fmt)).scalar()

    def stream_reports(self, c: Connection, step: int) -> Iterator[tuple[int, str, str | bytes]]:
        """(faction, format, content) of every report of a step in report_keys' order, one
        row at a time (an export of 1,000 factions asked for 3,003 reports one by one). On
        SQLite (stored as UTF-8) the content comes as its UTF-8 bytes, to be written as they
        are instead of decoded and encoded again (99 MB at 1,000 factions)."""
        if c.dialect.name == "sqlite" and \
                c.exec_driver_sql("PRAGMA encoding").scalar() == "UTF-8":
            rows: Any = c.exec_driver_sql(
                f"SELECT faction, format, CAST(content AS BLOB) FROM {REP.name} "
                "WHERE game_id = ? AND step = ? AND format != ? ORDER BY faction, format",
                (self.game_id, step, TEMPLATE))
        else:
            rows = c.execute(select(REP.c.faction, REP.c.format, REP.c.content).where(
                REP.c.game_id == self.game_id, REP.c.step == step, REP.c.format != TEMPLATE)
                .order_by(REP.c.faction, REP.c.format))
        for faction, fmt, content in rows:
            yield int(faction), fmt, content

    def report_keys(self, c: Connection, step: int) -> list[tuple[int, str]]:
        return [(r.faction, r.format) for r in c.execute(
            select(REP.c.faction, REP.c.format).where(REP.c.game_id == self.game_id, REP.c.step == step,
                                                      REP.c.format != TEMPLATE)
            .order_by(REP.c.faction, REP.c.format))]

    # ---- orders templates stored with the reports (Ruleset.templates_with_reports) -----

    def save_templates(self, c: Connection, step: int, rows: list[tuple[int, str]]) -> None:
        """(faction, template) rows; an empty template: the ruleset writes none for it."""
        bulk.insert_rows(c, REP, ("game_id", "step", "faction", "format", "content"),
                         [(self.game_id, step, f, TEMPLATE, text) for f, text in rows])

    def load_templates(self, c: Connection, step: int) -> dict[int, str | bytes]:
        """{faction: template} stored for a step; on SQLite as the UTF-8 bytes it holds
        (see stream_reports)."""
        if c.dialect.name == "sqlite" and \
                c.exec_driver_sql("PRAGMA encoding").scalar() == "UTF-8":
            rows: Any = c.exec_driver_sql(
                f"SELECT faction, CAST(content AS BLOB) FROM {REP.name} "
                "WHERE game_id = ? AND step = ? AND format = ?", (self.game_id, step, TEMPLATE))
        else:
            rows = c.execute(select(REP.c.faction, REP.c.content).where(
                REP.c.game_id == self.game_id, REP.c.step == step, REP.c.format == TEMPLATE))
        return {int(f): text for f, text in rows}

    def drop_templates(self, c: Connection, step: int | None = None) -> None:
        """Forget a step's stored templates (None: every step's): what they were made from
        changed after the run made them (the state: an intervention; the map, a catalog,
        an option, a faction record: the designer); export makes them again."""
        where = [REP.c.game_id == self.game_id, REP.c.format == TEMPLATE]
        c.execute(delete(REP).where(*where, *([REP.c.step == step] if step is not None else [])))

    # ---- rollback ---------------------------------------------------------------------

    def delete_journal_after(self, c: Connection, step: int) -> None:
        from engine.db.schema import StepRow

        g = self.game_id
        for t in (EVT, REP):
            c.execute(delete(t).where(and_(t.c.game_id == g, t.c.step > step)))
        st = StepRow
        c.execute(delete(st).where(st.c.game_id == g, st.c.number > step))
