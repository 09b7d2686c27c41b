"""Orders sets read and checked once in a process, for the turn run after it in that process.

An import reads and checks every set against the state of the turn it is for; a run of
that turn reads and checks each again, because the checker's findings decide what the turn
refuses (engine/orders/screen.py). `realmsmith run --orders` imports and runs in one process:
there the run takes each set's sheet and findings from the import instead of making them
again (half a second of a 1,000-faction turn), but only when the state and the scenario the
run checks against are equal to those the import checked against. Anything that changed in
between (an intervention, another process's edit) makes the run read and check as always.
Each kept set is taken once and the run forgets the rest: the turn may change a sheet.
The run also takes the import's state and scenario themselves instead of reading them
again when nothing at all was written to the game file since (GameStore.version).
"""

from __future__ import annotations

from typing import Any

from engine.orders import Diagnostic, OrderSheet
from engine.scenario import Scenario
from engine.state import State

Key = tuple[str, str, int]


def _catalog_rows(scen: Scenario) -> dict[str, Any]:
    return {name: cat.rows for name, cat in scen.catalogs.items()}


def same_scenario(a: Scenario, b: Scenario) -> bool:
    """Equal for the checker: everything but the map must be equal and the map the same
    object (a service keeps the map it read once; a map does not change in play)."""
    return a is b or (a.map is b.map and a.ruleset == b.ruleset and a.factions == b.factions
                      and a.options == b.options and a.meta == b.meta and a.seed == b.seed
                      and a.initial == b.initial and _catalog_rows(a) == _catalog_rows(b))


def same_state(a: State, b: State) -> bool:
    """Equal records in every table (25 ms for a 1,000-faction world's 80,000 records)."""
    return a is b or (a.step == b.step and a.tables.keys() == b.tables.keys()
                      and all(a.tables[n] == b.tables[n] for n in a.tables))


class CheckedSets:
    """(source, text, faction) -> the sheet read from it and the checker's findings, with
    the state and scenario they were checked against. A verdict on two states is kept
    until forget(): the states compared are ones read and never changed (the run's state
    before the turn; the turn works on a copy)."""

    def __init__(self) -> None:
        self._kept: dict[Key, tuple[OrderSheet, list[Diagnostic], State, Scenario]] = {}
        # (ids of the states and scenarios compared) -> (equal?, the four objects: kept
        # alive so that no id is reused while the verdict stands)
        self._verdicts: dict[tuple[int, int, int, int], tuple[bool, tuple[Any, ...]]] = {}
        self._ahead: tuple[int, State, Scenario, tuple[int, int, int]] | None = None

    def __len__(self) -> int:
        return len(self._kept)

    def keep(self, source: str, text: str, faction: int, sheet: OrderSheet,
             findings: list[Diagnostic], state: State, scen: Scenario) -> None:
        # a state read table by table on demand cannot be compared once its reading ended
        if type(state.tables) is dict:
            self._kept[(source, text, faction)] = (sheet, findings, state, scen)

    def take(self, source: str, text: str, faction: int, state: State,
             scen: Scenario) -> tuple[OrderSheet, list[Diagnostic]] | None:
        """The kept sheet and findings, if checked against an equal state and scenario."""
        got = self._kept.pop((source, text, faction), None)
        if got is None:
            return None
        sheet, findings, was, scen_was = got
        key = (id(was), id(scen_was), id(state), id(scen))
        verdict = self._verdicts.get(key)
        if verdict is None:  # once for every pair: most sets were checked against one state
            verdict = self._verdicts[key] = (
                same_state(was, state) and same_scenario(scen_was, scen), (was, scen_was, state, scen))
        same = verdict[0]
        return (sheet, findings) if same else None

    def read_ahead(self, step: int, state: State, scen: Scenario,
                   version: tuple[int, int, int] | None) -> None:
        """The state of `step` and the scenario an import read and checked against, with
        the store's version (GameStore.version) after the import's writing."""
        self._ahead = (step, state, scen, version) if version is not None else None

    def ahead(self, step: int, version: tuple[int, int, int] | None) -> tuple[State, Scenario] | None:
        """The import's state and scenario for a run of the turn after `step`, if nothing was
        written to the game since (same connection, same data_version, no write of ours):
        the run need not read them again (a tenth of a second each at 1,000 factions)."""
        got = self._ahead
        if got is None or version is None or got[0] != step or got[3] != version:
            return None
        return got[1], got[2]

    def forget(self) -> None:
        self._kept.clear()
        self._verdicts.clear()
        self._ahead = None
