"""Ruleset-shaped tables: real typed SQL tables built from TableSpecs at run time.

- catalog rows: `cat_<ruleset>_<catalog>`, one row per catalog row, with `rs_row` order;
- state tables: `st_<ruleset>_<table>`, one row per record per step, so every step's
  state is kept and a GM can query owners, units and counts with plain SQL.

The bookkeeping columns are prefixed `rs_` so they never clash with a ruleset's field
names. Tables are shared by every game of the same ruleset in one database (`rs_game`).
A column a newer ruleset version adds is added to an existing table on open.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    Table,
    Text,
    inspect,
    text,
)
from sqlalchemy.engine import Connection

from engine.db.schema import GameRow
from engine.tables import Column as SpecColumn
from engine.tables import TableSpec

GAME_ID = GameRow.c.id
SQL_TYPES = {"int": Integer, "float": Float, "str": Text, "bool": Boolean}


def sql_name(*parts: str) -> str:
    return "_".join(re.sub(r"[^a-z0-9]+", "_", p.lower()).strip("_") for p in parts)


def _columns(spec: TableSpec) -> list[Column]:
    return [Column(c.name, SQL_TYPES[c.type](), nullable=True) for c in spec.columns]


def _cached(md: MetaData, name: str, spec: TableSpec) -> bool:
    """True if md holds the table with every column of spec (else drop the stale copy)."""
    t = md.tables.get(name)
    if t is None:
        return False
    if set(spec.names) <= set(t.c.keys()):
        return True
    md.remove(t)
    return False


def catalog_table(md: MetaData, ruleset: str, spec: TableSpec) -> Table:
    """Rows of catalogs: keyed by game, catalog name and row order."""
    return _table(md, sql_name("cat", ruleset, spec.name), spec, Column("rs_catalog", Text, primary_key=True))


def state_table(md: MetaData, ruleset: str, spec: TableSpec) -> Table:
    """Records of a state table: keyed by game, step and row order."""
    return _table(md, sql_name("st", ruleset, spec.name), spec, Column("rs_step", Integer, primary_key=True))


def _table(md: MetaData, name: str, spec: TableSpec, middle: Column) -> Table:
    if _cached(md, name, spec):
        return md.tables[name]
    return Table(name, md,
                 Column("rs_game", Integer, ForeignKey(GAME_ID), primary_key=True),
                 middle,
                 Column("rs_row", Integer, primary_key=True),
                 *_columns(spec))


def ensure(conn: Connection, tables: list[Table]) -> None:
    """Create missing tables and add columns a newer declaration has (never drops)."""
    insp = inspect(conn)
    for t in tables:
        if not insp.has_table(t.name):
            t.create(conn)
            continue
        have = {c["name"] for c in insp.get_columns(t.name)}
        for c in t.columns:
            if c.name not in have:
                ddl = c.type.compile(dialect=conn.dialect)
                conn.execute(text(f'ALTER TABLE "{t.name}" ADD COLUMN "{c.name}" {ddl}'))


def spec_to_dict(spec: TableSpec) -> dict[str, Any]:
    return {"name": spec.name, "title": spec.title, "help": spec.help, "key": list(spec.key),
            "columns": [{"name": c.name, "type": c.type, "default": c.default, "min": c.min,
                         "max": c.max, "choices": list(c.choices) if c.choices is not None else None,
                         "unique": c.unique, "required": c.required, "label": c.label,
                         "help": c.help} for c in spec.columns]}


def spec_from_dict(d: dict[str, Any]) -> TableSpec:
    cols = tuple(SpecColumn(c["name"], c.get("type", "str"), c.get("default"), c.get("min"),
                            c.get("max"), tuple(c["choices"]) if c.get("choices") is not None else None,
                            bool(c.get("unique")), bool(c.get("required")), c.get("label", ""),
                            c.get("help", "")) for c in d.get("columns", []))
    return TableSpec(d["name"], cols, tuple(d.get("key", ())), d.get("title", ""), d.get("help", ""))
