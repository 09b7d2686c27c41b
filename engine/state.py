"""Game state: the ruleset's typed tables for one turn (or step) of one game.

A ruleset declares each table as a dataclass (int/float/str/bool fields); the state
holds lists of those records. The database stores every table as a real SQL table with
one row per record and turn, so a GM can query owners, units and counts directly.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

from engine.tables import TableSpec

# Record and event fields that hold a cell number, by convention across rulesets: case and
# scenario files accept map labels there, and displays show them in the map's notation.
CELL_FIELDS = frozenset({"cell", "frm", "to", "origin", "target", "destination", "at"})


def _copy(record: Any) -> Any:
    """copy.copy of a plain record, five times faster: a new instance with the same
    __dict__ (13,000 records a turn on a 100x100 map). Records with slots or their own
    copy or pickle methods go through copy.copy."""
    cls = type(record)
    if cls in _PLAIN:
        new = object.__new__(cls)
        new.__dict__.update(record.__dict__)
        return new
    if cls not in _SPECIAL:
        if (hasattr(record, "__dict__") and not hasattr(cls, "__slots__")
                and not hasattr(cls, "__copy__") and cls.__reduce_ex__ is object.__reduce_ex__
                and cls.__reduce__ is object.__reduce__ and cls.__new__ is object.__new__
                and getattr(cls, "__getstate__", None) is getattr(object, "__getstate__", None)
                and not hasattr(cls, "__setstate__")):
            _PLAIN.add(cls)
            return _copy(record)
        _SPECIAL.add(cls)
    return copy.copy(record)


_PLAIN: set[type] = set()
_SPECIAL: set[type] = set()


class State:
    """Tables of records for one step. `step` is the turn number (or import batch)."""

    def __init__(self, schema: dict[str, type], step: int = 0,
                 tables: dict[str, list[Any]] | None = None):
        self.schema = schema
        self.step = step
        self.tables: dict[str, list[Any]] = {name: [] for name in schema}
        for name, rows in (tables or {}).items():
            if name not in schema:
                raise KeyError(f"state has no table {name!r}")
            self.tables[name] = list(rows)

    def __getitem__(self, name: str) -> list[Any]:
        return self.tables[name]

    def __repr__(self) -> str:
        sizes = ", ".join(f"{k}={len(v)}" for k, v in self.tables.items())
        return f"State(step={self.step}, {sizes})"

    def one(self, name: str) -> Any:
        """The single record of a one-row table (world clock, game-wide counters)."""
        rows = self.tables[name]
        if len(rows) != 1:
            raise ValueError(f"table {name!r} has {len(rows)} rows, expected one")
        return rows[0]

    def copy(self) -> State:
        """Shallow copies of the records (a turn changes them in place, never their lists'
        contents' contents)."""
        return State(self.schema, self.step,
                     {k: [_copy(r) for r in v] for k, v in self.tables.items()})

    def specs(self) -> dict[str, TableSpec]:
        return {name: TableSpec.from_dataclass(dc, name) for name, dc in self.schema.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step,
                "tables": {k: [dataclasses.asdict(r) for r in v] for k, v in self.tables.items()}}

    def to_json(self) -> str:
        """Canonical JSON: the byte-for-byte comparison used by determinism tests."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, schema: dict[str, type], d: dict[str, Any]) -> State:
        tables = {}
        for name, rows in d.get("tables", {}).items():
            dc = schema[name]
            names = {f.name for f in dataclasses.fields(dc)}
            tables[name] = [dc(**{k: v for k, v in r.items() if k in names}) for r in rows]
        return cls(schema, int(d.get("step", 0)), tables)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()
