"""A player's report bundle (.rsbundle): one faction's view of one turn, in one file.

The file is a small game database of the usual schema (engine.db), made with
GameService.create on a pruned scenario and then filled with the turn's state, the
faction's visible events and its reports in every format. The game row's meta holds a
"bundle" entry (faction, step, the turn the orders are for, the orders template), which
is what tells a bundle from a GM's game database.

    write_bundle(service, faction=2, path="t003-f02.rsbundle")    # the GM side
    b = open_bundle("t003-f02.rsbundle")                          # the viewer side
    b.map, b.state, b.reports["text"], b.template, b.scenario     # checker needs scenario

Hidden information: the ruleset's `visible_cells` and `visible_state` hooks decide what
goes in. Hidden cells are absent from the file (no cell rows, sites, links, area
membership or labels for them; the file is vacuumed so deleted pages hold nothing), and
come back from open_bundle as terrain "unknown". Other factions' e-mail addresses and
passwords are never written; the faction's own password is, for the orders header. The
ruleset's `visible_factions` says which other factions are listed at all.

Fairness (docs/security.md): a bundle holds only what the player may see, by allow-list.
The dice seed is never written (the bundle's game has seed 0: a player who replays a
battle in the viewer gets other dice than the GM's); of the scenario's meta only the keys
in PUBLIC_META and the ruleset's own `public_meta` are copied (GM notes stay home), and of
the map's meta only PUBLIC_MAP_META (a generated map's generator record, seed included,
stays home).

Merging several turns is the viewer's job: each Bundle carries its `step`, and
`visible_cells` (None = the whole map was visible) says which cells that turn saw.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.events import EventLog
from engine.map import GameMap
from engine.scenario import Faction, Scenario
from engine.state import State
from engine.tables import Catalog, Options

# Scenario meta a player may see: the game's code and dates for the orders header and the
# report, the GM's public address for sending orders. Anything else stays with the GM.
PUBLIC_META = frozenset({
    "game", "game_code", "code", "title", "gm", "gm_email", "gm_address", "gm_mail", "email",
    "orders_to", "deadline", "date", "start_date", "days_per_turn", "end_turn", "started_at",
    "start_year", "thread_format", "forum", "website"})
PUBLIC_MAP_META = frozenset({"notation", "source", "ruleset"})
SUFFIX = ".rsbundle"
FORMAT = 1
UNKNOWN = "unknown"  # terrain given to cells the faction cannot see


class BundleError(Exception):
    """A bundle could not be written or read; the message names the file."""


@dataclass
class Bundle:
    path: Path
    ruleset: str
    game: str
    step: int                       # the turn this report is of
    orders_step: int                # the turn the faction's next orders are for
    faction: Faction                # number, name, e-mail and password for the header
    factions: list[Faction]         # those it knows (others without e-mail and password)
    map: GameMap
    catalogs: dict[str, Catalog]
    options: Options
    state: State
    events: EventLog
    reports: dict[str, str]         # format -> text ('text', 'html', 'json', ...)
    template: str = ""              # orders template for orders_step ('' if none)
    visible_cells: set[int] | None = None   # None: the whole map
    seed: int = 0                   # always 0: the game's dice seed never leaves the GM
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def scenario(self) -> Scenario:
        """A scenario for the ruleset's checker (parse_orders, check) in the viewer."""
        return Scenario(self.ruleset, self.game, self.map, self.catalogs, self.options,
                        self.factions, self.seed, None, dict(self.meta))


def bundle_name(game: str, step: int, faction: int) -> str:
    from engine.service import export_stem

    return f"{export_stem(game)}-t{step:03d}-f{faction:02d}{SUFFIX}"


# ---- writing ------------------------------------------------------------------------------

def write_bundle(service: Any, faction: int, path: str | Path, step: int | None = None,
                 turns: dict[int, tuple[Any, Any]] | None = None) -> Path:
    """Write faction's bundle of `step` (default: the last turn run); replaces `path`.
    `turns`: step -> (state, event log) as read for earlier bundles of the same export, filled
    here; every faction's bundle reads the same GM state and log (0.3 s and 0.5 s each at
    1,000 Atlantis factions), which are only read, never changed."""
    from engine.db.errors import GameDbError
    from engine.service import GameService

    path = Path(path)
    rs = service.ruleset
    scen = service.scenario
    me = scen.faction(faction)
    if me is None:
        raise BundleError(f"{path}: the game has no faction {faction}")
    step = service.current_step if step is None else step
    try:
        if turns is None:
            state, events = service.state(step), service.events(step)
        elif (got := turns.get(step)) is not None:
            state, events = got
        else:
            state, events = turns[step] = service.state(step), service.events(step)
        visible = rs.visible_cells(state, faction, scen)
        seen = rs.visible_state(state, faction, scen, events)
        known = rs.visible_factions(state, faction, scen, events)
        if turns is not None and seen is state:
            seen = state.copy()  # its step is set and it is saved below; the shared one stays
        reports = {}
        for fmt in rs.report_formats:
            try:
                reports[fmt] = service.report(step, faction, fmt)
            except GameDbError:
                pass  # turn 0 has no reports; a bundle of the start still has map and state
        try:
            template = rs.orders_template(state, faction, scen) or ""
        except Exception:  # a template is a convenience; never fail the bundle for it
            template = ""
    except GameDbError as e:
        raise BundleError(f"{path}: {e}") from None
    mine = events.seen_by(faction)  # its records, blanked of what it may not see
    if visible is not None:
        visible = {int(c) for c in visible}
    pruned = _pruned_scenario(scen, faction, visible, seen, step, template,
                              frozenset(getattr(rs, "public_meta", ())), known)
    tmp = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BundleError(f"{path}: cannot make the folder ({e.strerror or e})") from None
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    try:
        try:
            # start from an empty state: the turn's own state is written once, below
            svc = GameService.create(tmp, dataclasses.replace(pruned, initial=rs.new_state()))
        except Exception:  # noqa: BLE001 (a ruleset that cannot start from nothing)
            for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                p.unlink(missing_ok=True)
            svc = GameService.create(tmp, pruned)
        try:
            st = svc.store
            with st.transaction() as c:
                st.delete_states_after(c, rs.state_schema, -1)  # only the turn's own state
                seen.step = step  # `seen` is this call's own copy (service.state loads anew)
                st.save_state(c, seen)
                if step != 0:
                    st.add_step(c, step, "done")
                st.save_events(c, step, mine)
                # A public ruleset's service reads everyone's report from the GM's slot.
                owner = None if rs.public_reports else faction
                for fmt, text in reports.items():
                    st.save_report(c, step, owner, fmt, text)
                st.set_game(c, current_step=step)
                if visible is not None:
                    from engine.db.schema import MapCell

                    t = MapCell
                    hidden = [int(x) for x in np.setdiff1d(np.arange(len(scen.map.grid)),
                                                           np.fromiter(visible, dtype=np.int64))]
                    for i in range(0, len(hidden), 500):
                        c.execute(t.delete().where(t.c.game_id == st.game_id,
                                                   t.c.cell.in_(hidden[i:i + 500])))
        finally:
            svc.close()
        _vacuum(tmp)
        tmp.replace(path)
    except BundleError:
        raise
    except Exception as e:
        raise BundleError(f"{path}: cannot write the bundle ({type(e).__name__}: {e})") from e
    finally:
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            p.unlink(missing_ok=True)
    return path


def public_meta(meta: dict[str, Any], extra: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The part of a scenario's meta a player may see (PUBLIC_META plus the ruleset's)."""
    return {k: v for k, v in meta.items() if k in PUBLIC_META or k in extra}


def _pruned_scenario(scen: Scenario, faction: int, visible: set[int] | None, seen: State,
                     step: int, template: str, extra_meta: frozenset[str] = frozenset(),
                     known: set[int] | None = None) -> Scenario:
    gmap = scen.map.copy()
    gmap.meta = {k: v for k, v in gmap.meta.items() if k in PUBLIC_MAP_META}
    if visible is not None:
        _prune_map(gmap, visible)
    # others by number, name and colour only, and only those the faction knows (its report
    # names them): a bundle listing everyone would tell every player who joined the game
    factions = [f if f.number == faction else
                Faction(f.number, f.name, "", "", f.colour, {}) for f in scen.factions
                if known is None or f.number in known or f.number == faction]
    me = scen.faction(faction)
    meta = public_meta(scen.meta, extra_meta)
    meta["bundle"] = {"format": FORMAT, "faction": faction, "step": step,
                      "orders_step": step + 1, "template": template,
                      "partial_map": visible is not None,
                      "faction_name": me.name if me else ""}
    return Scenario(scen.ruleset, scen.name, gmap, {k: v for k, v in scen.catalogs.items()},
                    scen.options, factions, 0, seen, meta)  # seed 0: the dice stay secret


def _prune_map(gmap: GameMap, visible: set[int]) -> None:
    """Drop everything the faction may not see (the cell rows go in write_bundle)."""
    gmap.cell_attrs = {c: a for c, a in gmap.cell_attrs.items() if c in visible}
    gmap.links = {k: {p for p in pairs if p[0] in visible and p[1] in visible}
                  for k, pairs in gmap.links.items()}
    gmap.sites = {i: s for i, s in gmap.sites.items() if s.cell in visible}
    for a in gmap.areas.values():
        a.cells = {c for c in a.cells if c in visible}
    gmap.areas = {n: a for n, a in gmap.areas.items() if a.cells}
    if gmap.labels:
        centres = np.asarray(gmap.grid.centers_array(), dtype=float)
        keep = []
        for lb in gmap.labels:
            near = int(np.argmin(((centres - (lb.x, lb.y)) ** 2).sum(axis=1)))
            if near in visible:
                keep.append(lb)
        gmap.labels = keep
    gmap.adjacency_added = {p for p in gmap.adjacency_added if p[0] in visible and p[1] in visible}
    gmap.adjacency_removed = {p for p in gmap.adjacency_removed
                              if p[0] in visible and p[1] in visible}


def _vacuum(path: Path) -> None:
    """Compact the file: freed pages could still hold what was deleted."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("VACUUM")
    finally:
        con.close()


# ---- reading ------------------------------------------------------------------------------

def open_bundle(path: str | Path) -> Bundle:
    """Read a bundle; BundleError naming the file if it is missing, damaged or foreign."""
    from engine.service import GameService

    path = Path(path)
    if not path.is_file():
        raise BundleError(f"{path}: no such file")
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as e:
        raise BundleError(f"{path}: cannot read ({e.strerror or e})") from None
    if head[:2] == GZIP_MAGIC:  # the outbox attaches bundles gzip-compressed
        with _unzipped(path) as plain:
            b = open_bundle(plain)
        b.path = path
        return b
    if head != b"SQLite format 3\x00":
        raise BundleError(f"{path}: not a Realmsmith report bundle (not a database file)")
    try:
        svc = GameService.open(path)
    except Exception as e:
        raise BundleError(_named(path, f"not a readable report bundle ({e})")) from None
    try:
        try:
            scen = svc.scenario
            info = scen.meta.get("bundle")
            if not isinstance(info, dict):
                raise BundleError(f"{path}: a game database, not a player's report bundle "
                                  "(open it in the GM console instead)")
            if int(info.get("format", 0)) > FORMAT:
                raise BundleError(f"{path}: made by a newer Realmsmith (bundle format "
                                  f"{info.get('format')}); update the viewer")
            step = int(info["step"])
            number = int(info["faction"])
            me = scen.faction(number)
            if me is None:
                raise BundleError(f"{path}: damaged bundle (its faction {number} is missing)")
            state = svc.state(step)
            events = svc.events(step)
            reports = {}
            for fmt in svc.ruleset.report_formats:
                try:
                    reports[fmt] = svc.report(step, number, fmt)
                except Exception:
                    pass
            visible = _present_cells(svc) if info.get("partial_map") else None
        except BundleError:
            raise
        except Exception as e:
            raise BundleError(_named(path, f"damaged report bundle ({type(e).__name__}: {e})")) from None
        gmap = scen.map
        if visible is not None:
            hidden = np.setdiff1d(np.arange(len(gmap.grid)), np.fromiter(visible, dtype=np.int64))
            if len(hidden):
                gmap.set_terrain([int(c) for c in hidden], UNKNOWN)
        meta = {k: v for k, v in scen.meta.items() if k != "bundle"}
        return Bundle(path, svc.ruleset.name, scen.name, step, int(info.get("orders_step", step + 1)),
                      me, scen.factions, gmap, scen.catalogs, scen.options, state, events,
                      reports, str(info.get("template", "")), visible, 0, meta)
    finally:
        svc.close()


GZIP_MAGIC = b"\x1f\x8b"
MAX_UNZIPPED = 512 * 1024 * 1024  # a bundle is a few MB; more is not a bundle


@contextmanager
def _unzipped(path: Path) -> Iterator[Path]:
    """A gzip-compressed bundle unpacked into a temporary file (removed afterwards)."""
    import gzip
    import tempfile

    fd, tmp = tempfile.mkstemp(suffix=SUFFIX)
    try:
        with os.fdopen(fd, "wb") as out, gzip.open(path, "rb") as src:
            copied = 0
            while chunk := src.read(1 << 20):
                copied += len(chunk)
                if copied > MAX_UNZIPPED:
                    raise BundleError(f"{path}: unpacks to more than {MAX_UNZIPPED >> 20} MB; "
                                      "not a report bundle")
                out.write(chunk)
        yield Path(tmp)
    except (OSError, EOFError) as e:
        raise BundleError(f"{path}: damaged compressed bundle ({e})") from None
    finally:
        for p in (tmp, f"{tmp}-wal", f"{tmp}-shm", f"{tmp}-journal"):
            Path(p).unlink(missing_ok=True)


def _present_cells(svc: Any) -> set[int]:
    from sqlalchemy import select

    from engine.db.schema import MapCell

    t = MapCell
    with svc.store.reading() as c:
        return {int(r[0]) for r in c.execute(select(t.c.cell).where(t.c.game_id == svc.store.game_id))}


def _named(path: Path, text: str) -> str:
    return text if text.startswith(str(path)) else f"{path}: {text}"


def write_bundles(service: Any, folder: str | Path, step: int | None = None) -> list[Path]:
    """Every faction's bundle of `step` into folder, named by bundle_name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    step = service.current_step if step is None else step
    name = service.name
    out = []
    last = service.last_report_steps(step)
    turns: dict[int, tuple[Any, Any]] = {}
    for f in service.scenario.factions:
        # sequential (CC): a clan's bundle is of its own last turn up to `step`
        own = last[f.number]
        out.append(write_bundle(service, f.number, folder / bundle_name(name, own, f.number), own,
                                turns))
    return out


__all__ = ["Bundle", "BundleError", "open_bundle", "write_bundle", "write_bundles",
           "bundle_name", "public_meta", "PUBLIC_META", "SUFFIX"]
