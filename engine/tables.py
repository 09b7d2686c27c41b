"""Typed tables: ruleset catalogs (troop lists, terrain tables), options, and state tables.

A ruleset declares columns with types, defaults and limits; a game keeps its own edited
copy of each catalog. The scenario designer edits them generically from the declaration,
and the database stores state tables as real typed SQL tables built from the same specs.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}
_TRUE = {"1", "true", "yes", "y", "on", "x"}
_FALSE = {"0", "false", "no", "n", "off", ""}


class TableError(ValueError):
    """A value or row a table spec refuses; the message says why."""


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "str"  # int | float | str | bool
    default: Any = None
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] | None = None
    unique: bool = False
    required: bool = False
    label: str = ""
    help: str = ""

    def coerce(self, value: Any) -> Any:
        """The value as this column's type, or TableError with a reason."""
        if value is None or (isinstance(value, str) and value.strip() == "" and self.type != "str"):
            if self.required:
                raise TableError(f"{self.name} is required")
            return self.default
        try:
            if self.type == "bool":
                if isinstance(value, bool):
                    v: Any = value
                elif str(value).strip().lower() in _TRUE:
                    v = True
                elif str(value).strip().lower() in _FALSE:
                    v = False
                else:
                    raise ValueError
            elif self.type == "int":
                if isinstance(value, float) and not value.is_integer():
                    raise ValueError
                v = int(str(value).strip()) if isinstance(value, str) else int(value)
            elif self.type == "float":
                v = float(value)
                if v != v or v in (float("inf"), float("-inf")):
                    raise ValueError  # nan/inf would slip past min and max
            else:
                v = str(value)
        except (TypeError, ValueError):
            raise TableError(f"{self.name}: {value!r} is not a{'n' if self.type == 'int' else ''} "
                             f"{self.type}") from None
        if self.type == "str" and self.required and not v.strip():
            raise TableError(f"{self.name} is required")
        if self.min is not None and v < self.min:
            raise TableError(f"{self.name}: {v} is below the minimum {self.min:g}")
        if self.max is not None and v > self.max:
            raise TableError(f"{self.name}: {v} is above the maximum {self.max:g}")
        if self.choices is not None and v not in self.choices:
            raise TableError(f"{self.name}: {v!r} is not one of {', '.join(self.choices)}")
        return v


@dataclass(frozen=True)
class TableSpec:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    title: str = ""
    help: str = ""

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def coerce_row(self, row: dict[str, Any]) -> dict[str, Any]:
        unknown = set(row) - set(self.names)
        if unknown:
            raise TableError(f"{self.name}: unknown column(s) {', '.join(sorted(unknown))}")
        return {c.name: c.coerce(row.get(c.name, c.default)) for c in self.columns}

    @classmethod
    def from_dataclass(cls, dc: type, name: str | None = None, key: Iterable[str] = (),
                       **column_opts: dict[str, Any]) -> TableSpec:
        """A spec whose columns are the dataclass fields (int/float/str/bool only)."""
        hints = typing.get_type_hints(dc)
        cols = []
        for f in dataclasses.fields(dc):
            t = _type_name(hints[f.name])
            default = f.default if f.default is not dataclasses.MISSING else None
            cols.append(Column(f.name, t, default, **column_opts.get(f.name, {})))
        return cls(name or dc.__name__.lower(), tuple(cols), tuple(key))


def _type_name(t: Any) -> str:
    if isinstance(t, types.UnionType) or typing.get_origin(t) is typing.Union:
        args = [a for a in typing.get_args(t) if a is not type(None)]
        t = args[0]
    for n, py in _TYPES.items():
        if t is py:
            return n
    raise TypeError(f"state and catalog columns are int, float, str or bool, not {t!r}")


class Catalog:
    """A game's editable copy of one catalog: rows checked against the spec on every edit."""

    def __init__(self, spec: TableSpec, rows: Iterable[dict[str, Any]] = ()):
        self.spec = spec
        self.rows: list[dict[str, Any]] = []
        for r in rows:
            self.add(r)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __repr__(self) -> str:
        return f"Catalog({self.spec.name}, {len(self.rows)} rows)"

    def check(self, row: dict[str, Any], index: int | None = None) -> dict[str, Any]:
        """Coerce and validate a row as it would stand at `index` (None = a new row)."""
        r = self.spec.coerce_row(row)
        for c in self.spec.columns:
            if c.unique:
                for i, other in enumerate(self.rows):
                    if i != index and _same(other[c.name], r[c.name]):
                        raise TableError(f"{c.name}: {r[c.name]!r} is used already")
        return r

    def add(self, row: dict[str, Any]) -> dict[str, Any]:
        r = self.check(row)
        self.rows.append(r)
        return r

    def update(self, index: int, changes: dict[str, Any]) -> dict[str, Any]:
        old = self.rows[index]
        self.rows[index] = self.check({**old, **changes}, index)
        return old

    def remove(self, index: int) -> dict[str, Any]:
        return self.rows.pop(index)

    def by(self, column: str) -> dict[Any, dict[str, Any]]:
        return {r[column]: r for r in self.rows}

    def copy(self) -> Catalog:
        c = Catalog(self.spec)
        c.rows = [dict(r) for r in self.rows]
        return c

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.DictWriter(out, self.spec.names, lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: _csv_value(v) for k, v in r.items()})
        return out.getvalue()

    @classmethod
    def from_csv(cls, spec: TableSpec, text: str, source: str = "") -> Catalog:
        cat = cls(spec)
        reader = csv.DictReader(io.StringIO(text))
        for n, row in enumerate(reader, start=2):
            row = {k.strip(): v for k, v in row.items() if k is not None and k.strip()}
            try:
                cat.add(row)
            except TableError as e:
                raise TableError(f"{source or spec.name}:{n}: {e}") from None
        return cat

    @classmethod
    def load(cls, spec: TableSpec, path: str | Path) -> Catalog:
        return cls.from_csv(spec, Path(path).read_text(encoding="utf-8"), str(path))


def _same(a: Any, b: Any) -> bool:
    return a.casefold() == b.casefold() if isinstance(a, str) and isinstance(b, str) else a == b


def _csv_value(v: Any) -> Any:
    return ("yes" if v else "no") if isinstance(v, bool) else ("" if v is None else v)


@dataclass(frozen=True)
class OptionSpec:
    """A game option: a typed switch or number the GM sets in the scenario."""

    name: str
    type: str = "bool"
    default: Any = False
    label: str = ""
    help: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] | None = None

    def column(self) -> Column:
        return Column(self.name, self.type, self.default, self.min, self.max, self.choices,
                      label=self.label, help=self.help)


@dataclass
class Options:
    specs: tuple[OptionSpec, ...]
    values: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        given, self.values = self.values, {s.name: s.default for s in self.specs}
        for k, v in given.items():
            self.set(k, v)

    def spec(self, name: str) -> OptionSpec:
        for s in self.specs:
            if s.name == name:
                return s
        raise TableError(f"unknown option {name!r}; known: {', '.join(s.name for s in self.specs)}")

    def set(self, name: str, value: Any) -> Any:
        old = self.values.get(name)
        self.values[name] = self.spec(name).column().coerce(value)
        return old

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        raise AttributeError(name)

    def copy(self) -> Options:
        return Options(self.specs, dict(self.values))
