"""Many rows at once: the DB-API's own executemany with tuples, inside SQLAlchemy's
transaction.

A turn writes every state record (a 100x100 King of Kings game: ~13,000 rows), every
event and every report. SQLAlchemy Core inserting a list of dicts compiles and processes
each row's parameters in Python; the driver's executemany of plain tuples does the same
work in C, about three times faster (docs/performance.md). Values must be what the driver
takes as they are: int, float, str, bool, None.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Connection


def _placeholders(c: Connection, n: int) -> str:
    style = c.dialect.paramstyle
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s", "numeric": None}.get(style)
    if mark is None:  # numeric (:1, :2 ...) or named: give each value its own name
        return ", ".join(f":{i + 1}" if style == "numeric" else f":p{i}" for i in range(n))
    return ", ".join([mark] * n)


def insert_rows(c: Connection, table: Table, columns: Sequence[str],
                rows: Iterable[Sequence[Any]]) -> int:
    """INSERT the rows (tuples in the order of `columns`) with one executemany; returns
    how many. Columns left out get no Python-side default: give every NOT NULL column."""
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return 0
    prep = c.dialect.identifier_preparer
    cols = ", ".join(prep.quote(n) for n in columns)
    sql = f"INSERT INTO {prep.format_table(table)} ({cols}) VALUES " \
          f"({_placeholders(c, len(columns))})"
    if c.dialect.paramstyle == "named":
        rows = [{f"p{i}": v for i, v in enumerate(r)} for r in rows]
    c.exec_driver_sql(sql, rows)
    return len(rows)
