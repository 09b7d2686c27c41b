"""A turn's events told the way the text report tells them, for lists on screen.

A ruleset's `chronicle(events, state, scenario)` (engine.ruleset.Ruleset) returns a
`Chronicle`: every event record as the sentence its report prints ("Achaeans places 1
Horseman at Argos (3 2)"), with the factions and board cells it concerns, and the
battles as the report's narratives (sides, rounds, losses, outcome). The GM console and
the player viewer show these and filter them by faction, kind and place; a click goes to
the first place. Rulesets build the sentences with their report code, so a list and the
report never tell a turn two ways. `generic()` is the fallback for a ruleset without its
own: `Event.describe` with cells in the map's notation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.events import EventLog, EventRecord
from engine.state import CELL_FIELDS


@dataclass(frozen=True)
class Told:
    """One event record as the report tells it."""

    seq: int
    phase: str
    kind: str
    text: str
    factions: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()      # board cells it names; the first is where to look
    place: str = ""                  # the first place as the report writes it
    battle: int | None = None        # index into Chronicle.battles when part of a battle
    detail: bool = False             # a step the report leaves out (lists hide it by default)


@dataclass
class BattleStory:
    """A battle as the report narrates it."""

    title: str
    lines: list[str] = field(default_factory=list)
    cell: int | None = None
    place: str = ""
    sides: tuple[int, ...] = ()      # attacker first, then defender(s)
    winner: int = 0
    kind: str = "battle"             # "land", "sea"...

    @property
    def text(self) -> str:
        return "\n".join([self.title, *self.lines])


@dataclass
class Chronicle:
    told: list[Told] = field(default_factory=list)
    battles: list[BattleStory] = field(default_factory=list)

    def kinds(self) -> list[str]:
        return sorted({t.kind for t in self.told})

    def factions(self) -> list[int]:
        return sorted({f for t in self.told for f in t.factions})

    def places(self) -> list[str]:
        return sorted({t.place for t in self.told if t.place}, key=str.casefold)

    def filter(self, faction: int | None = None, kind: str | None = None,
               place: str | None = None, text: str | None = None,
               details: bool = True) -> list[Told]:
        """Lines concerning `faction`, of a kind containing `kind`, naming a place
        containing `place`, with `text` anywhere (all case-insensitive); without
        `details`, only what the report tells."""
        kind = (kind or "").casefold()
        place = (place or "").casefold()
        text = (text or "").casefold()
        out = []
        for t in self.told:
            if t.detail and not details:
                continue
            if faction is not None and faction not in t.factions:
                continue
            if kind and kind not in t.kind.casefold():
                continue
            if place and place not in t.place.casefold() and place not in t.text.casefold():
                continue
            if text and text not in t.text.casefold():
                continue
            out.append(t)
        return out

    def battles_of(self, faction: int | None = None, place: str | None = None) -> list[BattleStory]:
        place = (place or "").casefold()
        return [b for b in self.battles
                if (faction is None or faction in b.sides)
                and (not place or place in b.place.casefold() or place in b.title.casefold())]


def cells_of(event: object) -> tuple[int, ...]:
    """The board cells an event names in its cell fields (cell, frm, to...), in field order."""
    out: list[int] = []
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        v = getattr(event, f.name)
        if f.name in CELL_FIELDS and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            if v not in out:
                out.append(v)
    return tuple(out)


def generic(log: EventLog, label: Callable[[int], str] | None = None) -> Chronicle:
    """Every record told by `Event.describe`, cells written by `label`."""
    out = Chronicle()
    for r in log.records:
        cells = cells_of(r.event)
        out.told.append(Told(r.seq, r.phase, r.event.kind, r.event.describe(label),
                             tuple(sorted(r.event.factions())), cells,
                             label(cells[0]) if cells and label else ""))
    return out


def chronicle_of(ruleset: Any, events: EventLog, state: Any, scenario: Any) -> Chronicle:
    """The ruleset's chronicle of a step; if its hook fails, the generic one (a broken
    sentence must not leave the GM without the events)."""
    try:
        out = ruleset.chronicle(events, state, scenario)
        if isinstance(out, Chronicle):
            return out
    except Exception:  # noqa: BLE001
        pass
    try:
        label = scenario.map.board().label
    except Exception:  # noqa: BLE001
        label = None
    return generic(events, label)


def told(r: EventRecord, text: str, factions: Iterable[int] = (), cells: Iterable[int] = (),
         place: str = "", battle: int | None = None, detail: bool = False) -> Told:
    """A Told for record `r`; factions default to those the event names."""
    fs = tuple(sorted(set(factions) or r.event.factions()))
    return Told(r.seq, r.phase, r.event.kind, text, fs, tuple(cells), place, battle, detail)


__all__ = ["BattleStory", "Chronicle", "Told", "cells_of", "chronicle_of", "generic", "told"]
