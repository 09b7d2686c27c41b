"""GM interventions in the game database: made at a turn boundary, kept through rollbacks,
applied again when their turn is made again (engine/interventions explains the rules).

`GameService.intervene(iv)` is one transaction: the ruleset changes the current turn's
state in place, the scenario's faction records follow (a new player, an address), a
faction that joined gets its report of this turn, the history gets a row, and the waiting
orders are matched and checked again (a password may have changed).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import inspect, select

from engine.db.schema import InterventionRow as IV
from engine.db.store import loaded_tables, now_iso
from engine.events import EventLog
from engine.interventions import Applied, Intervention, InterventionRefused
from engine.scenario import Scenario
from engine.state import State

APPLIED, REFUSED = "applied", "refused"


@dataclass
class InterventionRecord:
    """One row of the history: where it was made, what, and what came of it. `waiting`:
    its turn was rolled back and has not been made again yet."""

    id: int
    step: int
    intervention: Intervention
    summary: str
    status: str
    made_at: str
    waiting: bool = False

    def line(self) -> str:
        iv = self.intervention
        what = f"{iv.kind}" + (f" faction {iv.faction}" if iv.faction is not None else "")
        state = f"waits for turn {self.step} to be made again" if self.waiting \
            else self.status
        note = f" -- {iv.note}" if iv.note else ""
        return f"turn {self.step}  #{self.id}  {what}: {self.summary} [{state}]{note}"


def _has_table(c: Any) -> bool:
    return inspect(c).has_table(IV.name)


def _row(r: Any, cur: int) -> InterventionRecord:
    iv = Intervention(r.kind, r.faction, json.loads(r.params or "{}"), r.note)
    return InterventionRecord(r.id, r.step, iv, r.summary, r.status, r.made_at, r.step > cur)


class InterventionDesk:
    """intervene() and interventions() for GameService; uses its store, ruleset,
    _load_scenario, _build_reports and _recheck."""

    store: Any
    ruleset: Any

    def intervene(self, iv: Intervention) -> InterventionRecord:
        """Make an intervention at the current turn boundary; InterventionRefused (nothing
        changed) when the ruleset refuses it."""
        try:
            return self._intervene(iv)
        except BaseException:
            self._scenario = None  # it may hold factions of an intervention not written
            raise

    def _intervene(self, iv: Intervention) -> InterventionRecord:
        with self.store.transaction() as c:
            IV.create(c, checkfirst=True)
            cur = int(self.store.game(c).current_step)
            scen = self._scenario_now(c)
            # each table read when the ruleset asks for it, and only those written back: a
            # 1,000-faction world's 60,000 regions are neither read nor rewritten for a GIVE
            state = self.store.load_state(c, self.ruleset.state_schema, cur, lazy=True)
            applied = self._apply(c, scen, state, cur, iv)
            self.store.save_state(c, state, only=loaded_tables(state))
            self._joined_report(c, scen, state, cur, applied)
            made = now_iso()
            rid = c.execute(IV.insert().values(
                game_id=self.store.game_id, step=cur, kind=iv.kind, faction=iv.faction,
                params=json.dumps(iv.params, sort_keys=True, ensure_ascii=False), note=iv.note,
                summary=applied.summary, status=APPLIED, made_at=made)).inserted_primary_key[0]
            self._scenario = scen  # its factions as now written, the map kept
            self._recheck(c, cur)  # type: ignore[attr-defined]
        return InterventionRecord(int(rid), cur, iv, applied.summary, APPLIED, made)

    def _scenario_now(self, c: Any) -> Scenario:
        """The scenario as stored, with the map this service has loaded already if any (a
        map does not change in play; reading a 1,000-faction world's 3.5 million cells
        again would be most of the work)."""
        cached = getattr(self, "_scenario", None)
        if cached is None or cached.map is None:
            return self._load_scenario(c)  # type: ignore[attr-defined]
        scen = self._load_scenario(c, with_map=False)  # type: ignore[attr-defined]
        scen.map = cached.map
        return scen

    def interventions(self, step: int | None = None) -> list[InterventionRecord]:
        """The history of interventions (of one turn boundary), oldest first."""
        with self.store.reading() as c:
            if not _has_table(c):
                return []
            cur = int(self.store.game(c).current_step)
            q = select(IV).where(IV.c.game_id == self.store.game_id)
            if step is not None:
                q = q.where(IV.c.step == step)
            return [_row(r, cur) for r in c.execute(q.order_by(IV.c.step, IV.c.id))]

    # ---- shared with the runner --------------------------------------------------------------

    def _apply(self, c: Any, scen: Scenario, state: State, step: int,
               iv: Intervention) -> Applied:
        """The ruleset's change to `state`, the scenario's factions saved (also into `scen`),
        a joined faction's report of this turn written."""
        try:
            applied = self.ruleset.intervene(state, scen, iv)
        except InterventionRefused:
            raise
        except (ValueError, KeyError, TypeError) as e:
            raise InterventionRefused(str(e) or type(e).__name__) from None
        for f in applied.factions:
            if applied.joined == f.number:
                f = dataclasses.replace(f, attrs={**f.attrs, "joined_step": step})
            self.store.save_faction(c, f)
            scen.factions = [g for g in scen.factions if g.number != f.number] + [f]
            scen.factions.sort(key=lambda g: g.number)
        return applied

    def _joined_report(self, c: Any, scen: Scenario, state: State, step: int,
                       applied: Applied) -> None:
        """A faction that joined gets its report of this turn (turn 0's are made when asked)."""
        if applied.joined is not None and step > 0:
            rows = self._build_reports(state, EventLog(), scen, [], step,  # type: ignore[attr-defined]
                                       lambda _f, _m: None, {applied.joined})
            self.store.save_reports(c, step, [r for r in rows if r[0] == applied.joined])

    def _reapply(self, c: Any, scen: Scenario, state: State, step: int) -> bool:
        """A turn made again after a rollback: its interventions applied again, in the
        order they were made; one that no longer fits is marked refused. True if any."""
        if not _has_table(c):
            return False
        rows = c.execute(select(IV).where(IV.c.game_id == self.store.game_id, IV.c.step == step)
                         .order_by(IV.c.id)).all()
        for r in rows:
            iv = _row(r, step).intervention
            try:
                applied = self._apply(c, scen, state, step, iv)
                self._joined_report(c, scen, state, step, applied)
                summary, status = applied.summary, APPLIED
            except InterventionRefused as e:
                summary, status = f"refused when turn {step} was made again: {e}", REFUSED
            c.execute(IV.update().where(IV.c.id == r.id).values(summary=summary, status=status))
        return bool(rows)
