"""Typed events. Adjudication emits them; tests assert on them; reports render them.

Each event class is a frozen dataclass with named fields and a unique `kind`. Events know
who may see them (`visible_to`; None means everyone), so a faction's report can be
built from the log without leaking what it cannot see.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        kind = cls.__dict__.get("kind")
        if kind is None:
            raise TypeError(f"event class {cls.__name__} needs a `kind`")
        if kind in EVENT_TYPES and EVENT_TYPES[kind].__qualname__ != cls.__qualname__:
            raise TypeError(f"event kind {kind!r} is declared twice")
        EVENT_TYPES[kind] = cls

    def visible_to(self) -> frozenset[int] | None:
        """Factions that may see this event; None = public. Override where secret."""
        return None

    def seen_by(self, faction: int) -> Event:
        """The event as `faction` may hold it in its bundle: fields naming what it may not
        see (another faction aboard, a gift's other side) blanked. Override where a
        visible event carries such fields; the report's sentences never use them."""
        return self

    def factions(self) -> frozenset[int]:
        """Factions the event concerns (for filtering in the GM console)."""
        out = set()
        for name in _faction_names(type(self)):
            v = getattr(self, name)
            if isinstance(v, int):
                out.add(v)
        return frozenset(out)

    def to_dict(self) -> dict[str, Any]:
        # as {"kind", **_plain(dataclasses.asdict(self))}, without asdict's deep copies
        return {"kind": self.kind, **{n: _plain(getattr(self, n)) for n in _names(type(self))}}

    def describe(self, label: Callable[[int], str] | None = None, width: int = 80) -> str:
        """`kind: field=value, ...` with cell fields in the map's notation (e.g. board.label)."""
        from engine.state import CELL_FIELDS

        parts = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if label is not None and f.name in CELL_FIELDS and isinstance(v, int) and v >= 0:
                text = label(v)
            elif isinstance(v, (list, tuple, dict, set, frozenset)):
                text = json.dumps(_plain(v), ensure_ascii=False, default=str)
            else:
                text = str(v)
            parts.append(f"{f.name}={text if len(text) <= width else text[:width - 1] + '…'}")
        return f"{self.kind}: {', '.join(parts)}"

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        d = dict(d)
        cls = EVENT_TYPES[d.pop("kind")]
        hints = {f.name: f for f in dataclasses.fields(cls)}
        return cls(**{k: _tuple(v) for k, v in d.items() if k in hints})


_FACTION_FIELDS = frozenset(("faction", "attacker", "defender", "owner", "player", "to", "frm"))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = (int, str, float, bool, type(None))


def _names(cls: type) -> tuple[str, ...]:
    """The dataclass fields' names of a class, looked up once (a turn writes thousands)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _faction_names(cls: type) -> tuple[str, ...]:
    """The fields of a class that name a faction (_FACTION_FIELDS), looked up once."""
    names = _FACTION_NAMES.get(cls)
    if names is None:
        names = _FACTION_NAMES[cls] = tuple(n for n in _names(cls) if n in _FACTION_FIELDS)
    return names


_FACTION_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(v: Any) -> Any:
    if type(v) in _SCALARS:
        return v
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {n: _plain(getattr(v, n)) for n in _names(type(v))}
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(_plain(x) for x in v)
    return v


def _tuple(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuple(x) for x in v)
    return v


@dataclass
class EventRecord:
    seq: int
    phase: str
    event: Event

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "phase": self.phase, **self.event.to_dict()}


@dataclass
class EventLog:
    records: list[EventRecord] = field(default_factory=list)
    phase: str = ""
    # who sees what, worked out once for all the factions' reports of a turn (for_faction)
    _seen: tuple[Any, list[int], dict[int, list[int]]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def emit(self, event: Event) -> Event:
        self.records.append(EventRecord(len(self.records) + 1, self.phase, event))
        return event

    def __iter__(self):
        return (r.event for r in self.records)

    def __len__(self) -> int:
        return len(self.records)

    def of(self, *types_: type[Event]) -> list[Event]:
        return [r.event for r in self.records if isinstance(r.event, types_)]

    def for_faction(self, faction: int | None) -> list[EventRecord]:
        """Records a faction may see (None = the GM, who sees all)."""
        if faction is None:
            return list(self.records)
        # Asking every event for every faction was a turn's biggest cost at 1,000 factions
        # (28 million questions): the answer is indexed once, while the log stays as it is.
        key = (id(self.records), len(self.records), self.records[-1] if self.records else None)
        if self._seen is None or self._seen[0] != key:
            public: list[int] = []
            own: dict[int, list[int]] = {}
            for i, r in enumerate(self.records):
                v = r.event.visible_to()
                if v is None:
                    public.append(i)
                else:
                    for f in v:
                        own.setdefault(f, []).append(i)
            self._seen = (key, public, own)
        _key, public, own = self._seen
        mine = own.get(faction, ())
        at = sorted(public + list(mine)) if public and mine else (mine or public)
        return [self.records[i] for i in at]

    def seen_by(self, faction: int) -> EventLog:
        """The log a faction's bundle holds: the records it may see (`for_faction`), each
        as that faction may hold it (`Event.seen_by`)."""
        return EventLog([EventRecord(r.seq, r.phase, r.event.seen_by(faction))
                         for r in self.for_faction(faction)])

    def to_list(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.records]

    @classmethod
    def from_list(cls, items: list[dict[str, Any]]) -> EventLog:
        log = cls()
        for d in items:
            d = dict(d)
            seq, phase = d.pop("seq"), d.pop("phase")
            log.records.append(EventRecord(seq, phase, Event.from_dict(d)))
        return log
