"""The sequential turn model's schedule: which waiting turns a run makes, in what order.

Each faction has its own turns (1, 2, ...), counted in the steps table (rs_step.faction
and info["turn"]); a game turn (cycle) ends when every faction has had that many turns,
and the ruleset's cycle phases run then (info["cycle_end"]). A waiting submission is for
the turn its sheet names (Ruleset.orders_turn) or else for the faction's next turns in
arrival order. Runnable turns go by (faction's turn, Ruleset.sequence_key, arrival); a
turn sooner than Ruleset.turn_interval_days after the faction's previous one waits (the
GM may run it early), and so does one whose earlier turn is missing. A faction the game
turn does not wait for (Ruleset.cycle_factions: CC's dropped positions) takes no turns: its
sheets wait, and status says why.

A game turn may also have a due date (Ruleset.cycle_days: CC's option close_game_turn =
due): `cycle_days` after it began, the next run ends it without the factions that have not
had their turn (the runner's close step, info["due"]); they catch up later, or the ruleset's
drop rule drops them. A game turn begins when the one before it ended: at its due date when
it ended there, else at the step that ended it; the first at the first faction's turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.db.intake_bridge import to_json
from engine.db.journal import StoredSubmission
from engine.orders import OrderSheet
from engine.ruleset import Ruleset, Submission
from engine.scenario import Scenario
from engine.state import State


@dataclass
class Waiting:
    """A waiting submission the run leaves for later, and why."""

    submission: StoredSubmission
    turn: int
    reason: str
    ready_at: str | None = None  # when it may run (the interval rule), ISO time


@dataclass
class History:
    """What the steps table says: each faction's turns so far and completed game turns."""

    turns: dict[int, int]          # faction -> turns taken
    last_at: dict[int, str]        # faction -> when its last turn ran
    cycles: int                    # game turns completed
    cycle_from: str | None = None  # when the game turn under way began (None: no turn yet)

    @classmethod
    def of(cls, steps: list[Any]) -> History:
        turns: dict[int, int] = {}
        last: dict[int, str] = {}
        cycles = 0
        began = first = None
        for r in steps:
            info = json.loads(r.info or "{}")
            if int(info.get("cycle_end", 0)) > cycles:
                cycles = int(info["cycle_end"])
                began = info.get("due") or r.processed_at
            if r.faction is not None:
                turns[r.faction] = int(info.get("turn", turns.get(r.faction, 0) + 1))
                last[r.faction] = r.processed_at
                first = first or r.processed_at
        return cls(turns, last, cycles, began or first)

    def cycle_done(self, factions: list[int]) -> bool:
        """Every faction has had its turn of the game turn under way."""
        return bool(factions) and min(self.turns.get(f, 0) for f in factions) > self.cycles

    def due(self, days: float) -> str | None:
        """When the game turn under way is due to end (`days` after it began); None when
        game turns have no due date or none has begun."""
        if not days or not self.cycle_from:
            return None
        try:
            return _iso(_time(self.cycle_from) + timedelta(days=days))
        except ValueError:
            return None

    def overdue(self, days: float, now: str, turn: int | None = None, arrived: str = "") -> str | None:
        """The due date of the game turn under way if it has passed by `now` and the game
        turn should end before a turn (the faction's `turn`, which `arrived` then) runs: one
        that came after the due date or belongs to a later game turn waits for the end.
        None otherwise."""
        due = self.due(days)
        if due is None or _time(now) < _time(due):
            return None
        if turn is not None and turn <= self.cycles + 1 and arrived and _time(arrived) <= _time(due):
            return None  # sent in time: it runs in the game turn it was due in
        return due


def _time(iso: str) -> datetime:
    t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def arrival(s: StoredSubmission) -> tuple[str, int]:
    return (s.submission.received_at or s.imported_at or "", s.seq)


def plan(rs: Ruleset, state: State, scen: Scenario, pending: list[StoredSubmission],
         hist: History, now: str, early: bool = False
         ) -> tuple[list[tuple[StoredSubmission, int]], list[Waiting]]:
    """(submission, faction's turn) to run in order, and the submissions left waiting."""
    days = float(rs.turn_interval_days(scen) or 0)
    by_faction: dict[int, list[tuple[int | None, StoredSubmission]]] = {}
    for s in sorted(pending, key=arrival):
        declared = s.submission.meta.get("turn")
        by_faction.setdefault(s.faction, []).append((int(declared) if declared is not None else None, s))
    runs: list[tuple[StoredSubmission, int]] = []
    waiting: list[Waiting] = []
    playing = set(rs.cycle_factions(state, scen))
    for f, subs in by_faction.items():
        if f not in playing:  # a dropped position takes no more turns (CC: J6)
            waiting += [Waiting(s, int(t) if t is not None else hist.turns.get(f, 0) + 1,
                                f"faction {f} is out of the game (dropped); its orders are not run")
                        for t, s in subs]
            continue
        taken = hist.turns.get(f, 0)
        nxt, undeclared = taken + 1, taken + 1
        numbered: list[tuple[int, StoredSubmission]] = []
        for t, s in subs:  # undeclared sheets take the next turns no sheet names
            if t is None:
                named = {x for x, _ in subs if x is not None}
                while undeclared in named:
                    undeclared += 1
                t, undeclared = undeclared, undeclared + 1
            numbered.append((t, s))
        prev = _time(hist.last_at[f]) if f in hist.last_at else None
        blocked = False
        for t, s in sorted(numbered, key=lambda x: (x[0], arrival(x[1]))):
            if t < nxt:
                waiting.append(Waiting(s, t, f"faction {f} has had its turn {t} already"))
                continue
            if t > nxt:
                waiting.append(Waiting(s, t, f"waits for faction {f}'s turn {nxt}, which has no orders"))
                continue
            nxt += 1
            if blocked:
                waiting.append(Waiting(s, t, f"waits for faction {f}'s turn {t - 1}"))
                continue
            # a second turn in this run counts from now: it comes the interval later
            ready = prev + timedelta(days=days) if prev is not None and days and not early else None
            if ready is not None and _time(now) < ready:
                waiting.append(Waiting(s, t, f"less than {days:g} days after faction {f}'s previous "
                                 f"turn; may run from {_iso(ready)} (or early: realmsmith run "
                                 "--early)", _iso(ready)))
                blocked = True
                continue
            runs.append((s, t))
            prev = _time(now)

    def order(r: tuple[StoredSubmission, int]) -> tuple[Any, ...]:
        key = rs.sequence_key(state, r[0].faction, scen)
        return (r[1], key is None, key if key is not None else 0, arrival(r[0]))

    return sorted(runs, key=order), waiting


def now_utc() -> str:
    return _iso(datetime.now(UTC))


def carry_forward(store: Any, c: Any, waiting: list[Waiting], cur: int) -> None:
    """Waiting turns wait for the step after `cur`; each keeps the turn it was counted as, so
    two waiting turns of one faction never replace each other."""
    for h in waiting:
        pin_turn(store, c, h.submission, h.turn, max(cur + 1, h.submission.step or 0))


def pin_turn(store: Any, c: Any, s: StoredSubmission, turn: int, step: int | None = None) -> None:
    """Keep the faction's turn a submission counts as in its meta (and move its step)."""
    meta = {k: v for k, v in s.submission.meta.items() if k != "submission_id"}
    meta.setdefault("turn", turn)
    s.submission.meta["turn"] = meta["turn"]
    store.set_submission(c, s.id, meta=to_json(meta), **({"step": step} if step is not None else {}))


def declare_turn(rs: Ruleset, sub: Submission, parse: Callable[[Submission], OrderSheet]) -> None:
    """The faction's turn the sheet names (Ruleset.orders_turn) into meta "turn"."""
    if type(rs).orders_turn is Ruleset.orders_turn:
        return
    try:
        turn = rs.orders_turn(parse(sub))
    except Exception:  # the reader's findings say what is wrong with the sheet
        turn = None
    if turn is not None:
        sub.meta["turn"] = int(turn)


def describe(status: Any, steps: list[Any], playing: set[int], days: float,
             cycle_days: float = 0.0) -> None:
    """Fill a sequential game's Status: each faction's turns taken, when its next turn may
    run (the interval after its last one), whether it is dropped (not among the factions a
    game turn waits for); the game turns completed, the due date of the one under way and
    the GM's own steps (gm_steps.py)."""
    hist = History.of(steps)
    status.game_turns = hist.cycles
    status.game_turn_due = hist.due(cycle_days) or ""
    for f in status.factions:
        f.turns = hist.turns.get(f.faction, 0)
        f.dropped = f.faction not in playing
        last = hist.last_at.get(f.faction)
        if last and days:
            try:
                f.due = _iso(_time(last) + timedelta(days=days))
            except ValueError:
                f.due = ""
    for r in steps:
        info = json.loads(r.info or "{}")
        if info.get("gm"):
            status.gm_steps.append((r.number, r.processed_at, str(info["gm"])))
