"""Reading and writing one game in a game database: Core inserts and selects, batched.

`GameStore` methods take an open SQLAlchemy Connection so the caller decides the
transaction: the game service runs a whole turn inside one `store.transaction()`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import operator
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    MetaData,
    Table,
    create_engine,
    delete,
    event,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Connection

from engine.db import bulk, dynamic
from engine.db.errors import GameExists, GameNotFound, NewerFormat, NotAGame, UnknownGame, guarded
from engine.db.journal import JournalMixin
from engine.db.schema import (
    APPLICATION,
    FORMAT,
    STATIC_TABLES,
    DbInfo,
    MapArea,
    MapAreaCell,
    MapCell,
    MapLabel,
    MapLink,
    MapRow,
    MapSite,
    MapTerrain,
    StepRow,
)
from engine.map import Area, GameMap, Label, Site, link_key
from engine.parallel import NeedsParent, in_copy
from engine.scenario import Faction
from engine.state import State
from engine.tables import Catalog, Options, TableSpec
from engine.topology import topology_from_dict

T = {t.name: t for t in STATIC_TABLES}


def dumps(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def to_url(target: str | Path) -> tuple[str, Path | None]:
    """A database URL and, for SQLite files, the file's path."""
    s = str(target)
    if "://" in s:
        if s.startswith("sqlite:///") and not s.startswith("sqlite:///:memory:"):
            return s, Path(s[len("sqlite:///"):])
        return s, None
    p = Path(s).expanduser().resolve()
    return f"sqlite:///{p}", p


def _plain_rows(c: Connection, q: Any) -> list[tuple]:
    """All rows of a select of integer and text columns (which no result type changes),
    as tuples: on SQLite from the driver's cursor, without a Row object for each of the
    75,000 cells of a 1,000-faction map."""
    if c.dialect.name != "sqlite":
        return [tuple(r) for r in c.execute(q)]
    compiled = q.compile(dialect=c.dialect)
    params = compiled.construct_params()
    cur = c.connection.cursor()
    try:
        cur.execute(str(compiled), [params[k] for k in compiled.positiontup or ()])
        return cur.fetchall()
    finally:
        cur.close()


def _typed_rows(c: Connection, q: Any) -> Any:
    """The rows of a select of columns, as SQLAlchemy's result types make the values (a
    bool from SQLite's 0 and 1): on SQLite from the driver's cursor, converting only the
    columns whose type converts (a turn's state is 100,000 records at 1,000 factions)."""
    if c.dialect.name != "sqlite":
        return c.execute(q)
    convert = [(i, p) for i, col in enumerate(q.selected_columns)
               if (p := col.type.dialect_impl(c.dialect).result_processor(c.dialect, None))]
    rows = _plain_rows(c, q)
    if not convert:
        return rows
    out = []
    for r in rows:
        r = list(r)
        for i, p in convert:
            r[i] = p(r[i])
        out.append(r)
    return out


def make_engine(url: str, busy_timeout: float = 5.0) -> Engine:
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"timeout": busy_timeout})

        @event.listens_for(eng, "connect")
        def _on_connect(dbapi_conn, _rec):  # noqa: ANN001 - driver objects
            dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (below)
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            try:
                cur.execute("PRAGMA journal_mode=WAL")
            except Exception:  # locked or read-only: keep the current journal mode
                pass
            cur.close()

        @event.listens_for(eng, "begin")
        def _on_begin(conn):  # noqa: ANN001
            # IMMEDIATE takes the write lock up front, so a second writer fails at once
            # with "locked" instead of half way through a turn.
            mode = "IMMEDIATE" if conn.get_execution_options().get("rs_write") else "DEFERRED"
            conn.exec_driver_sql(f"BEGIN {mode}")

        return eng
    return create_engine(url, pool_pre_ping=True)


def connect(target: str | Path, *, create: bool = False, busy_timeout: float = 5.0) -> tuple[Engine, str]:
    """An engine for the database; refuses a missing file (open) or an existing one (create)."""
    url, path = to_url(target)
    where = str(path) if path else url
    if path is not None:
        if create and path.exists() and path.stat().st_size > 0:
            raise GameExists(f"{path}: exists already; choose another name or delete it first")
        if not create:
            if not path.exists():
                raise GameNotFound(f"{path}: no such file")
            if path.is_dir():
                raise NotAGame(f"{path}: is a folder, not a game database")
            if path.stat().st_size == 0:
                raise NotAGame(f"{path}: empty file, not a Realmsmith game database")
        elif not path.parent.exists():
            raise GameNotFound(f"{path.parent}: no such folder")
    return make_engine(url, busy_timeout), where


class GameStore(JournalMixin):
    """One game (by id) in one database."""

    def __init__(self, engine: Engine, where: str, game_id: int, ruleset: str):
        self.engine = engine
        self.where = where
        self.game_id = game_id
        self.ruleset = ruleset
        self.md = MetaData()

    # ---- opening ------------------------------------------------------------------

    @staticmethod
    def init_schema(engine: Engine, where: str) -> None:
        with guarded(where), engine.connect().execution_options(rs_write=True) as c, c.begin():
            insp = inspect(c)
            names = insp.get_table_names()
            if names and DbInfo.name not in names:
                raise NotAGame(f"{where}: holds other tables; not a Realmsmith game database")
            if DbInfo.name in names:
                fmt = c.execute(select(T["rs_info"].c.value).where(T["rs_info"].c.key == "format")).scalar()
                if int(fmt or 0) > FORMAT:
                    raise NewerFormat(f"{where}: made by a newer Realmsmith (database format {fmt})")
            for t in STATIC_TABLES:
                t.create(c, checkfirst=True)
            have = {r.key for r in c.execute(select(T["rs_info"].c.key))}
            rows = [{"key": k, "value": v} for k, v in
                    (("application", APPLICATION), ("format", str(FORMAT)), ("created", now_iso()))
                    if k not in have]
            if rows:
                c.execute(T["rs_info"].insert(), rows)

    @staticmethod
    def find_game(engine: Engine, where: str, game: str | int | None = None) -> tuple[int, str]:
        """(game id, ruleset) after checking this is a Realmsmith database we can read."""
        with guarded(where), engine.connect() as c:
            insp = inspect(c)
            if not insp.has_table(DbInfo.name):
                names = insp.get_table_names()
                what = "an empty database" if not names else f"tables {', '.join(sorted(names)[:5])}"
                raise NotAGame(f"{where}: not a Realmsmith game database ({what})")
            info = dict(c.execute(select(T["rs_info"].c.key, T["rs_info"].c.value)).all())
            if info.get("application") != APPLICATION:
                raise NotAGame(f"{where}: not a Realmsmith game database")
            fmt = int(info.get("format", "0") or 0)
            if fmt > FORMAT:
                raise NewerFormat(f"{where}: made by a newer Realmsmith (database format {fmt}; "
                                  f"this version reads up to {FORMAT}); update Realmsmith")
            g = T["rs_game"]
            games = c.execute(select(g.c.id, g.c.name, g.c.ruleset, g.c.format).order_by(g.c.id)).all()
        if not games:
            raise NotAGame(f"{where}: the database holds no game")
        if game is None:
            row = games[0]
        else:
            row = next((r for r in games if str(game) in (r.name, str(r.id))), None)
            if row is None:
                raise UnknownGame(f"{where}: no game {game!r}; it holds "
                                  f"{', '.join(r.name for r in games)}")
        if row.format > FORMAT:
            raise NewerFormat(f"{where}: game {row.name!r} has format {row.format}, newer than "
                              f"this Realmsmith reads ({FORMAT}); update Realmsmith")
        return row.id, row.ruleset

    writes = 0  # this store's write transactions ended, committed or not (version)

    def version(self, c: Connection) -> tuple[int, int, int] | None:
        """What stays the same while nothing is written to the game file: on SQLite, this
        connection, its data_version (which every commit of any other connection changes)
        and the number of this store's own write transactions ended; None elsewhere."""
        if c.dialect.name != "sqlite":
            return None
        raw = c.connection.dbapi_connection
        return (id(raw), int(c.exec_driver_sql("PRAGMA data_version").scalar() or 0), self.writes)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction: everything inside commits together or not at all."""
        try:
            with self._transaction() as c:
                yield c
        finally:
            self.writes += 1

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with guarded(self.where), self.engine.connect().execution_options(rs_write=True) as c:
            with c.begin():
                if c.dialect.name != "sqlite" and self.game_id:
                    # a server database: one writer per game at a time, the second one
                    # fails at once (NOWAIT) instead of interleaving with the first
                    g = T["rs_game"]
                    c.execute(select(g.c.id).where(g.c.id == self.game_id).with_for_update(nowait=True))
                elif c.dialect.name == "sqlite" and self.game_id:
                    # a no-op write now: a read-only file or folder is refused before the
                    # turn is computed, not when its results are saved
                    c.exec_driver_sql("UPDATE rs_info SET value = value WHERE key = 'format'")
                yield c

    @contextlib.contextmanager
    def reading(self) -> Iterator[Connection]:
        with guarded(self.where), self.engine.connect() as c, c.begin():
            yield c

    def ensure_tables(self, c: Connection, state_specs: dict[str, TableSpec],
                      catalog_specs: dict[str, TableSpec]) -> None:
        tables = [dynamic.state_table(self.md, self.ruleset, s) for s in state_specs.values()]
        tables += [dynamic.catalog_table(self.md, self.ruleset, s) for s in catalog_specs.values()]
        dynamic.ensure(c, tables)

    # ---- game row ------------------------------------------------------------------

    @staticmethod
    def game_names(c: Connection) -> list[str]:
        g = T["rs_game"]
        return [r.name for r in c.execute(select(g.c.name).order_by(g.c.id))]

    @staticmethod
    def insert_game(c: Connection, name: str, ruleset: str, seed: int, meta: dict[str, Any]) -> int:
        res = c.execute(T["rs_game"].insert().values(
            name=name, ruleset=ruleset, seed=int(seed), format=FORMAT, current_step=0,
            created=now_iso(), meta=dumps(meta)))
        return int(res.inserted_primary_key[0])

    def game(self, c: Connection) -> Any:
        g = T["rs_game"]
        return c.execute(select(g).where(g.c.id == self.game_id)).one()

    def set_game(self, c: Connection, **values: Any) -> None:
        if "meta" in values:
            values["meta"] = dumps(values["meta"])
        g = T["rs_game"]
        c.execute(update(g).where(g.c.id == self.game_id).values(**values))

    # ---- map -----------------------------------------------------------------------

    def _clear(self, c: Connection, *models: Any) -> None:
        for m in models:
            t = m
            c.execute(delete(t).where(t.c.game_id == self.game_id))

    def save_map(self, c: Connection, m: GameMap) -> None:
        g = self.game_id
        self._clear(c, MapRow, MapTerrain, MapCell, MapLink, MapSite, MapArea, MapAreaCell, MapLabel)
        c.execute(T["rs_map"].insert().values(
            game_id=g, kind=m.kind, name=m.name, grid=dumps(m.grid.to_dict()), meta=dumps(m.meta),
            adjacency_added=dumps(sorted(list(p) for p in m.adjacency_added)),
            adjacency_removed=dumps(sorted(list(p) for p in m.adjacency_removed))))
        c.execute(T["rs_map_terrain"].insert(),
                  [{"game_id": g, "code": i, "name": n} for i, n in enumerate(m.terrains)])
        codes = m.terrain.tolist()
        attrs = m.cell_attrs
        c.execute(T["rs_map_cell"].insert(),
                  [{"game_id": g, "cell": i, "terrain": t,
                    "attrs": dumps(attrs[i]) if i in attrs else None} for i, t in enumerate(codes)])
        links = [{"game_id": g, "kind": k, "a": a, "b": b}
                 for k, pairs in sorted(m.links.items()) for a, b in sorted(pairs)]
        if links:
            c.execute(T["rs_map_link"].insert(), links)
        if m.sites:
            c.execute(T["rs_map_site"].insert(),
                      [{"game_id": g, "site_id": s.id, "cell": s.cell, "kind": s.kind,
                        "name": s.name, "attrs": dumps(s.attrs)} for s in m.sites.values()])
        if m.areas:
            c.execute(T["rs_map_area"].insert(),
                      [{"game_id": g, "name": a.name, "kind": a.kind, "attrs": dumps(a.attrs)}
                       for a in m.areas.values()])
            cells = [{"game_id": g, "area": a.name, "cell": x}
                     for a in m.areas.values() for x in sorted(a.cells)]
            if cells:
                c.execute(T["rs_map_area_cell"].insert(), cells)
        if m.labels:
            c.execute(T["rs_map_label"].insert(),
                      [{"game_id": g, "seq": i, "text": lb.text, "x": lb.x, "y": lb.y, "size": lb.size}
                       for i, lb in enumerate(m.labels)])

    def load_map(self, c: Connection) -> GameMap:
        g = self.game_id
        t = T["rs_map"]
        row = c.execute(select(t).where(t.c.game_id == g)).one_or_none()
        if row is None:
            raise NotAGame(f"{self.where}: the game has no map")
        grid = topology_from_dict(json.loads(row.grid))
        m = GameMap(grid, kind=row.kind, name=row.name)
        t = T["rs_map_terrain"]
        m.terrains = [r.name for r in c.execute(
            select(t.c.name).where(t.c.game_id == g).order_by(t.c.code))] or ["plains"]
        t = T["rs_map_cell"]
        q = select(t.c.cell, t.c.terrain, t.c.attrs).where(t.c.game_id == g).order_by(t.c.cell)
        cells = _plain_rows(c, q)
        if cells:
            import numpy as np

            arr = np.zeros(len(grid), dtype=np.uint16)
            idx = np.fromiter((r[0] for r in cells), dtype=np.int64, count=len(cells))
            arr[idx] = np.fromiter((r[1] for r in cells), dtype=np.uint16, count=len(cells))
            m.terrain = arr
            m.cell_attrs = {r[0]: json.loads(r[2]) for r in cells if r[2] is not None}
        t = T["rs_map_link"]
        m.links = {"river": set(), "road": set()}
        for k, a, b in c.execute(select(t.c.kind, t.c.a, t.c.b).where(t.c.game_id == g)):
            m.links.setdefault(k, set()).add(link_key(a, b))
        t = T["rs_map_site"]
        for r in c.execute(select(t).where(t.c.game_id == g).order_by(t.c.site_id)):
            m.sites[r.site_id] = Site(r.site_id, r.cell, r.kind, r.name, json.loads(r.attrs))
        t = T["rs_map_area"]
        for r in c.execute(select(t).where(t.c.game_id == g).order_by(t.c.name)):
            m.areas[r.name] = Area(r.name, r.kind, set(), json.loads(r.attrs))
        t = T["rs_map_area_cell"]
        add = {name: area.cells.add for name, area in m.areas.items()}
        for a, x in _plain_rows(c, select(t.c.area, t.c.cell).where(t.c.game_id == g)):
            add[a](x)
        t = T["rs_map_label"]
        m.labels = [Label(r.text, r.x, r.y, r.size) for r in
                    c.execute(select(t).where(t.c.game_id == g).order_by(t.c.seq))]
        m.adjacency_added = {tuple(p) for p in json.loads(row.adjacency_added)}
        m.adjacency_removed = {tuple(p) for p in json.loads(row.adjacency_removed)}
        m.meta = json.loads(row.meta)
        return m

    # ---- catalogs and options -------------------------------------------------------

    def save_catalog(self, c: Connection, name: str, cat: Catalog, position: int | None = None) -> None:
        g = self.game_id
        t = T["rs_catalog"]
        old = c.execute(select(t.c.position).where(t.c.game_id == g, t.c.name == name)).scalar()
        if position is None:
            position = old if old is not None else int(c.execute(
                select(t.c.position).where(t.c.game_id == g).order_by(t.c.position.desc())
            ).scalar() or 0) + 1
        c.execute(delete(t).where(t.c.game_id == g, t.c.name == name))
        c.execute(t.insert().values(game_id=g, name=name, position=position,
                                    spec=dumps(dynamic.spec_to_dict(cat.spec))))
        rows_t = dynamic.catalog_table(self.md, self.ruleset, cat.spec)
        dynamic.ensure(c, [rows_t])
        c.execute(delete(rows_t).where(rows_t.c.rs_game == g, rows_t.c.rs_catalog == name))
        if cat.rows:
            c.execute(rows_t.insert(), [{"rs_game": g, "rs_catalog": name, "rs_row": i, **r}
                                        for i, r in enumerate(cat.rows)])

    def load_catalogs(self, c: Connection) -> dict[str, Catalog]:
        g = self.game_id
        t = T["rs_catalog"]
        out: dict[str, Catalog] = {}
        for r in c.execute(select(t).where(t.c.game_id == g).order_by(t.c.position, t.c.name)):
            spec = dynamic.spec_from_dict(json.loads(r.spec))
            rows_t = dynamic.catalog_table(self.md, self.ruleset, spec)
            cols = [rows_t.c[n] for n in spec.names]
            cat = Catalog(spec)
            # rows were validated when saved; re-validating would refuse a game whose
            # ruleset tightened a limit since, so take them as stored
            cat.rows = [dict(zip(spec.names, row, strict=True)) for row in c.execute(
                select(*cols).where(rows_t.c.rs_game == g, rows_t.c.rs_catalog == r.name)
                .order_by(rows_t.c.rs_row))]
            out[r.name] = cat
        return out

    def save_options(self, c: Connection, options: Options) -> None:
        t = T["rs_option"]
        c.execute(delete(t).where(t.c.game_id == self.game_id))
        rows = [{"game_id": self.game_id, "name": k, "value": dumps(v)}
                for k, v in sorted(options.values.items())]
        if rows:
            c.execute(t.insert(), rows)

    def load_option_values(self, c: Connection) -> dict[str, Any]:
        t = T["rs_option"]
        return {r.name: json.loads(r.value)
                for r in c.execute(select(t.c.name, t.c.value).where(t.c.game_id == self.game_id))}

    # ---- factions -------------------------------------------------------------------

    def save_faction(self, c: Connection, f: Faction) -> None:
        self.save_factions(c, [f])

    def save_factions(self, c: Connection, factions: Iterable[Faction]) -> None:
        """Each faction's record, replacing one of the same number; in two statements (a
        new game, and every bundle of an export, writes 1,000 of them)."""
        t = T["rs_faction"]
        last = {f.number: f for f in factions}  # one number twice: the later one, as before
        numbers = list(last)
        for i in range(0, len(numbers), 500):
            c.execute(delete(t).where(t.c.game_id == self.game_id, t.c.number.in_(numbers[i:i + 500])))
        if last:
            c.execute(t.insert(), [dict(game_id=self.game_id, number=f.number, name=f.name,
                                        email=f.email, password=f.password, colour=f.colour,
                                        attrs=dumps(f.attrs)) for f in last.values()])

    def delete_faction(self, c: Connection, number: int) -> None:
        t = T["rs_faction"]
        c.execute(delete(t).where(t.c.game_id == self.game_id, t.c.number == number))

    def load_factions(self, c: Connection) -> list[Faction]:
        t = T["rs_faction"]
        return [Faction(r.number, r.name, r.email, r.password, r.colour, json.loads(r.attrs))
                for r in c.execute(select(t).where(t.c.game_id == self.game_id).order_by(t.c.number))]

    # ---- state of every step --------------------------------------------------------

    def save_state(self, c: Connection, state: State, only: Iterable[str] | None = None) -> None:
        """Write the state's tables for its step (replacing them); `only`: just these."""
        g, s = self.game_id, state.step
        keep = set(only) if only is not None else None
        self.drop_templates(c, s)  # made from the state this replaces
        for name, spec in state.specs().items():
            if keep is not None and name not in keep:
                continue
            t = dynamic.state_table(self.md, self.ruleset, spec)
            c.execute(delete(t).where(t.c.rs_game == g, t.c.rs_step == s))
            get = operator.attrgetter(*spec.names) if spec.names else (lambda r: ())
            one = len(spec.names) == 1
            rows = [(g, s, i, *((get(r),) if one else get(r)))
                    for i, r in enumerate(state.tables[name])]
            bulk.insert_rows(c, t, ["rs_game", "rs_step", "rs_row", *spec.names], rows)

    def load_state(self, c: Connection, schema: dict[str, type], step: int, *,
                   lazy: bool = False) -> State:
        """The state of a step. lazy=True reads each table when it is first asked for,
        while `c` is open: for a question about one table (is the game over?) on a big
        state (`status` must not read 13,000 records for it)."""
        st = State(schema, step)
        specs = st.specs()
        if lazy:
            st.tables = _TablesOnDemand(lambda name: self._load_table(c, schema, specs[name], step),
                                        list(specs))  # type: ignore[assignment]
            return st
        for name, spec in specs.items():
            st.tables[name] = self._load_table(c, schema, spec, step)
        return st

    def _load_table(self, c: Connection, schema: dict[str, type], spec: TableSpec,
                    step: int) -> list[Any]:
        g = self.game_id
        t = dynamic.state_table(self.md, self.ruleset, spec)
        dc = schema[spec.name]
        cols = [t.c[n] for n in spec.names]
        rows = _typed_rows(c, select(*cols).where(t.c.rs_game == g, t.c.rs_step == step)
                           .order_by(t.c.rs_row))
        init_names = [f.name for f in dataclasses.fields(dc) if f.init]
        if init_names == spec.names:
            return [dc(*row) for row in rows]
        return [_build(dc, dict(zip(spec.names, row, strict=True))) for row in rows]

    def delete_states_after(self, c: Connection, schema: dict[str, type], step: int) -> None:
        for spec in State(schema).specs().values():
            t = dynamic.state_table(self.md, self.ruleset, spec)
            c.execute(delete(t).where(t.c.rs_game == self.game_id, t.c.rs_step > step))

    # ---- steps ------------------------------------------------------------------------

    def add_step(self, c: Connection, number: int, status: str = "done", seed: str = "",
                 faction: int | None = None, info: dict[str, Any] | None = None,
                 processed_at: str | None = None) -> None:
        t = StepRow
        c.execute(t.insert().values(game_id=self.game_id, number=number, status=status,
                                    processed_at=processed_at or now_iso(), seed=seed, faction=faction,
                                    info=dumps(info or {})))

    def steps(self, c: Connection) -> list[Any]:
        t = StepRow
        return c.execute(select(t).where(t.c.game_id == self.game_id).order_by(t.c.number)).all()


class _TablesOnDemand(MutableMapping):
    """State.tables that reads each table on first use (GameStore.load_state, lazy)."""

    def __init__(self, load: Callable[[str], list[Any]], names: list[str]):
        self._load, self._names, self._got = load, list(names), {}

    def __getitem__(self, name: str) -> list[Any]:
        if name not in self._got:
            if name not in self._names:
                raise KeyError(name)
            if in_copy():  # the database connection is the parent's alone
                raise NeedsParent(f"state table {name}")
            self._got[name] = self._load(name)
        return self._got[name]

    def __setitem__(self, name: str, rows: list[Any]) -> None:
        if name not in self._names:
            self._names.append(name)
        self._got[name] = rows

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._got.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def loaded(self) -> list[str]:
        """The tables read (or set) so far: the only ones a change can have touched."""
        return list(self._got)


def loaded_tables(state: State) -> list[str] | None:
    """The tables of a lazily loaded state that were read; None for a whole state."""
    return state.tables.loaded() if isinstance(state.tables, _TablesOnDemand) else None


def _build(dc: type, values: dict[str, Any]) -> Any:
    init = {f.name for f in dataclasses.fields(dc) if f.init}
    obj = dc(**{k: v for k, v in values.items() if k in init})
    for k, v in values.items():
        if k not in init:
            setattr(obj, k, v)
    return obj


def table(name: str) -> Table:
    return T[name]


__all__ = ["GameStore", "connect", "dumps", "now_iso", "table", "to_url", "make_engine"]
