"""The text scenario file: a human-writable TOML file holding a whole scenario.

    format = 1
    ruleset = "kok"
    name = "Twenty provinces"
    seed = 7
    [meta]                          # free game facts: game code, deadline, end turn...
    game = "KOK"
    [map]
    kind = "square"
    grid = { kind = "square", width = 4, height = 2, neighbours = 4, wrap_x = false }
    terrains = ["plains", "mountain"]       # palette order (optional)
    letters = { p = "plains", m = "mountain" }   # added to the ruleset's own letters
    terrain_rows = ["ppmp", "pppp"]          # one letter a cell, row by row
    # file = "big.rsmap"                     # ...or a native map file next to this one
    links = { road = [["0/0", "1/0"]] }      # cells as the map writes them (x/y, ccrr...)
    sites = [ { id = 1, cell = "2/0", kind = "city", name = "Ur" } ]
    areas = [ { name = "West", kind = "region", cells = ["0/0", "0/1"] } ]
    [options]
    loyalty = true
    [catalogs.troops]                        # a CSV block (or rows = [ {...}, ... ])
    csv = '''
    symbol,name,cost
    F,Footmen,1
    '''
    [[factions]]
    number = 1
    name = "Reds"
    email = "red@example.org"
    [state.armies]                           # initial state tables, optional (CSV or rows)
    csv = '''
    cell,tribe,troop,count
    0,1,F,3
    '''

Missing catalogs and options take the ruleset's defaults; without [state] the ruleset
builds the initial state from map and factions. Errors name the file and line.
docs/scenario-file.md is the full description.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from engine import registry
from engine.map import GameMap, Label, Site, link_key
from engine.ruleset import Ruleset
from engine.scenario import Faction, Scenario
from engine.state import CELL_FIELDS, State
from engine.tables import Catalog, TableError, TableSpec
from engine.topology import topology_from_dict

FORMAT = 1
INLINE_MAP_CELLS = 40_000  # larger maps go to a .rsmap file next to the scenario
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


class ScenarioFileError(ValueError):
    """`file:line: what is wrong`."""


# ---- reading ---------------------------------------------------------------------------

class _Where:
    """Line numbers for error messages (tomllib gives none for values)."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = path, text.splitlines()

    def line(self, pattern: str, after: int = 0) -> int:
        rx = re.compile(pattern)
        for i in range(after, len(self.lines)):
            if rx.search(self.lines[i]):
                return i + 1
        return after or 0

    def table(self, dotted: str) -> int:
        parts = [re.escape(p) for p in dotted.split(".")]
        return self.line(r"^\s*\[\[?\s*" + r"\s*\.\s*".join(f'"?{p}"?' for p in parts) + r"\s*\]")

    def error(self, line: int, msg: str) -> ScenarioFileError:
        return ScenarioFileError(f"{self.path}:{line}: {msg}" if line else f"{self.path}: {msg}")


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ScenarioFileError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScenarioFileError(f"{path}: not UTF-8 text (byte {e.start})") from None
    return parse_scenario(text, path)


TOP_KEYS = {"format", "ruleset", "name", "seed", "meta", "map", "options", "catalogs",
            "factions", "state"}
MAP_KEYS = {"kind", "name", "grid", "terrains", "letters", "terrain_rows", "file", "links",
            "sites", "areas", "labels", "cell_attrs", "adjacency_added", "adjacency_removed", "meta"}
TABLE_KEYS = {"meta", "map", "options", "catalogs", "state"}


def parse_scenario(text: str, path: str | Path = "<scenario>") -> Scenario:
    """A scenario from scenario-file text; ScenarioFileError `file:line: why` on any problem."""
    path = Path(path)
    try:
        return _parse(text, path)
    except ScenarioFileError:
        raise
    except Exception as e:  # a shape no check above foresaw: still a message, never a crash
        raise ScenarioFileError(f"{path}: cannot read the scenario ({type(e).__name__}: {e})") from None


def _parse(text: str, path: Path) -> Scenario:
    w = _Where(path, text)
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line.*\)", "", str(e))
        raise w.error(int(m.group(1)) if m else 0, f"not valid TOML: {msg}") from None
    for key in d:
        if key not in TOP_KEYS:
            raise w.error(w.line(rf"^\s*\[?\[?\s*\"?{re.escape(key)}\b"),
                          f"unknown section or key {key!r} (known: {', '.join(sorted(TOP_KEYS))})")
        if key in TABLE_KEYS and not isinstance(d[key], dict):
            raise w.error(w.line(rf"^\s*{re.escape(key)}\s*="), f"{key} must be a table ([{key}])")
    if isinstance(d.get("map"), dict):
        for key in d["map"]:
            if key not in MAP_KEYS:
                raise w.error(w.line(rf"^\s*\"?{re.escape(key)}\"?\s*=", w.table("map")),
                              f"unknown map key {key!r} (known: {', '.join(sorted(MAP_KEYS))})")
    fmt = d.get("format", FORMAT)
    if not isinstance(fmt, int) or fmt > FORMAT:
        raise w.error(w.line(r"^\s*format\s*="), f"scenario format {fmt} is newer than this "
                      f"Realmsmith reads ({FORMAT})")
    if "ruleset" not in d:
        raise w.error(0, "no `ruleset = \"...\"` line")
    try:
        rs = registry.get(str(d["ruleset"]))
    except Exception as e:
        raise w.error(w.line(r"^\s*ruleset\s*="), f"ruleset {d['ruleset']!r} does not load: {e}") from None
    try:
        m = _read_map(d.get("map"), rs, w)
    except ScenarioFileError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        what = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise w.error(w.table("map"), f"map: cannot read it ({type(e).__name__}: {what})") from None
    options = rs.default_options()
    for k, v in d.get("options", {}).items():
        try:
            options.set(k, v)
        except TableError as e:
            raise w.error(w.line(rf"^\s*\"?{re.escape(k)}\"?\s*=", w.table("options")), str(e)) from None
    catalogs = rs.default_catalogs()
    specs = rs.catalog_specs()
    for name, block in d.get("catalogs", {}).items():
        line = w.table(f"catalogs.{name}")
        if name not in specs:
            raise w.error(line, f"the {rs.name} ruleset has no catalog {name!r} "
                          f"(it has {', '.join(sorted(specs))})")
        rows = _rows(block, w, line, f"catalogs.{name}")
        cat = Catalog(specs[name])
        for ln, row in rows:
            try:
                cat.add(row)
            except TableError as e:
                raise w.error(ln, f"catalog {name}: {e}") from None
        catalogs[name] = cat
    factions = []
    seen: set[int] = set()
    for i, f in enumerate(d.get("factions", [])):
        line = _nth_line(w, r"^\s*\[\[\s*factions\s*\]\]", i)
        try:
            fac = Faction.from_dict(f)
            if not isinstance(fac.name, str) or not isinstance(fac.attrs, dict):
                raise TypeError("name must be text and attrs a table")
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise w.error(line, f"faction needs a number and a name ({type(e).__name__}: {e})") from None
        if fac.number in seen:
            raise w.error(line, f"faction number {fac.number} is used twice")
        from engine.validation import faction_text_problem

        if (why := faction_text_problem(fac)) is not None:
            raise w.error(line, why)
        seen.add(fac.number)
        factions.append(fac)
    if "seed" not in d:  # the usual case: each game made from the file gets its own secret dice
        from engine.dice import secret_seed

        seed = secret_seed()
    else:
        seed = d["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not -2**63 <= seed < 2**63:
        raise w.error(w.line(r"^\s*seed\s*="),
                      f"seed must be a whole number of at most 19 digits, not {seed!r}")
    meta = d.get("meta", {})
    if not isinstance(meta, dict):
        raise w.error(w.line(r"^\s*meta\s*="), "meta must be a table")
    scen = Scenario(rs.name, str(d.get("name", path.stem)), m, catalogs, options, factions,
                    seed, None, dict(meta))
    if "state" in d:
        scen.initial = _read_state(d["state"], rs, m, w)
    return scen


def _nth_line(w: _Where, pattern: str, n: int) -> int:
    line = 0
    for _ in range(n + 1):
        line = w.line(pattern, line)
    return line


def _rows(block: Any, w: _Where, line: int, what: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) pairs from `csv = '''...'''` or `rows = [ {...} ]`."""
    inline = isinstance(block, list)  # `table = [ {...}, ... ]` written directly
    if inline:
        block = {"rows": block}
    if not isinstance(block, dict):
        raise w.error(line, f"{what}: give `csv = '''...'''` or `rows = [ ... ]`")
    out = []
    if "csv" in block:
        start = w.line(r"^\s*csv\s*=", line - 1 if line else 0)
        reader = csv.DictReader(io.StringIO(str(block["csv"]).lstrip("\n")))
        for row in reader:
            clean = {k.strip(): (v.strip() if isinstance(v, str) else v)
                     for k, v in row.items() if k is not None and k.strip()}
            if None in row:
                raise w.error(start + reader.line_num, f"{what}: more values than columns")
            out.append((start + reader.line_num, clean))
    rows_line = line if inline else w.line(r"^\s*rows\s*=", line - 1 if line else 0)
    one_line = 0 < rows_line <= len(w.lines) and w.lines[rows_line - 1].rstrip().endswith("]")
    for i, row in enumerate(block.get("rows", [])):
        if not isinstance(row, dict):
            raise w.error(line, f"{what}: row {i + 1} is not a table")
        out.append((rows_line if one_line else rows_line + 1 + i, dict(row)))
    return out


def _read_map(spec: Any, rs: Ruleset, w: _Where) -> GameMap:
    line = w.table("map")
    if not isinstance(spec, dict):
        raise w.error(0, "no [map] section")
    if "file" in spec:
        from engine.mapfile import MapFileError, load_map

        try:
            return load_map(w.path.parent / spec["file"])
        except MapFileError as e:
            raise w.error(w.line(r"^\s*file\s*=", line), str(e)) from None
    try:
        grid = topology_from_dict({"kind": spec.get("kind", "square"), **spec.get("grid", {})})
    except (KeyError, TypeError, ValueError) as e:
        raise w.error(w.line(r"^\s*grid\s*=", line), f"bad grid ({type(e).__name__}: {e})") from None
    m = GameMap(grid, kind=spec.get("kind", grid.kind), name=str(spec.get("name", "")))
    letters = {**getattr(rs, "terrain_letters", lambda: {})(), **spec.get("letters", {})}
    if spec.get("terrains"):
        m.terrains = [str(t) for t in spec["terrains"]]
    rows = spec.get("terrain_rows")
    rows_line = w.line(r"^\s*terrain_rows\s*=", line)
    if rows is None:
        raise w.error(line, "the map needs terrain_rows (one letter a cell) or file = \"x.rsmap\"")
    written = [str(r) for r in rows]
    rows = [r.replace(" ", "") for r in written]
    if len(rows) != grid.height:
        raise w.error(rows_line, f"{len(rows)} terrain rows for a map {grid.height} rows high")
    codes = []
    for y, row in enumerate(rows):
        ln = w.line(re.escape(json.dumps(written[y], ensure_ascii=False)) + "|'" + re.escape(written[y]) + "'",
                    rows_line - 1) if row else rows_line
        if len(row) != grid.width:
            raise w.error(ln, f"terrain row {y + 1} has {len(row)} letters; the map is {grid.width} wide")
        for ch in row:
            if ch not in letters:
                raise w.error(ln, f"{ch!r} is not a terrain letter (letters: "
                              f"{', '.join(f'{k}={v}' for k, v in sorted(letters.items()))})")
            codes.append(m.terrain_code(letters[ch]))
    import numpy as np

    m.terrain = np.asarray(codes, dtype=np.uint16)

    def cell(label: Any, where: str) -> int:
        if isinstance(label, int) and 0 <= label < len(grid):
            return label
        c = grid.parse(str(label))
        if c is None:
            raise w.error(w.line(re.escape(str(label)), line), f"{where}: {label!r} is not a cell of the map")
        return c

    for kind, pairs in spec.get("links", {}).items():
        layer = m.links.setdefault(kind, set())
        for a, b in pairs:
            ca, cb = cell(a, kind), cell(b, kind)
            if not grid.are_neighbours(ca, cb):
                raise w.error(w.line(re.escape(str(a)), line), f"{kind}: {a} and {b} are not neighbours")
            layer.add(link_key(ca, cb))
    for i, s in enumerate(spec.get("sites", [])):
        sid = int(s.get("id", i + 1))
        m.sites[sid] = Site(sid, cell(s["cell"], "site"), s.get("kind", "city"), s.get("name", ""),
                            dict(s.get("attrs", {})))
    for a in spec.get("areas", []):
        if a["name"] in m.areas:
            raise w.error(w.line(re.escape(a["name"]), line), f"area {a['name']!r} twice")
        m.add_area(a["name"], a.get("kind", "region"), [cell(c, a["name"]) for c in a.get("cells", [])],
                   **a.get("attrs", {}))
    m.labels = [Label(lb["text"], float(lb["x"]), float(lb["y"]), float(lb.get("size", 1.0)))
                for lb in spec.get("labels", [])]
    m.cell_attrs = {cell(k, "cell_attrs"): dict(v) for k, v in spec.get("cell_attrs", {}).items()}
    m.adjacency_added = {tuple(p) for p in spec.get("adjacency_added", [])}
    m.adjacency_removed = {tuple(p) for p in spec.get("adjacency_removed", [])}
    m.meta = dict(spec.get("meta", {}))
    return m


def _read_state(spec: dict[str, Any], rs: Ruleset, m: GameMap, w: _Where) -> State:
    st = rs.new_state(0)
    specs = st.specs()
    board = m.board()
    for table, block in spec.items():
        line = w.table(f"state.{table}") or w.line(rf"^\s*{re.escape(table)}\s*=", w.table("state"))
        if table not in specs:
            raise w.error(line, f"the {rs.name} ruleset has no state table {table!r} "
                          f"(it has {', '.join(sorted(specs))})")
        dc, ts = rs.state_schema[table], specs[table]
        for ln, row in _rows(block, w, line, f"state.{table}"):
            try:
                row = _cell_labels(row, ts, board)
                st.tables[table].append(dc(**ts.coerce_row(row)))
            except (TableError, TypeError, ValueError) as e:
                raise w.error(ln, f"state.{table}: {e}") from None
    return st


def _cell_labels(row: dict[str, Any], spec: TableSpec, board: Any) -> dict[str, Any]:
    """Cell fields may be written as map labels ("3/4", "0304"); numbers stay numbers."""
    out = dict(row)
    for k, v in row.items():
        if k in CELL_FIELDS and isinstance(v, str) and not v.strip().lstrip("-").isdigit() and v.strip():
            c = board.parse(v)
            if c is None:
                raise TableError(f"{k}: {v!r} is not a cell of the map")
            out[k] = c
    return out


# ---- writing --------------------------------------------------------------------------

def dump_scenario(scen: Scenario, path: str | Path | None = None, *, map_file: bool | None = None,
                  with_seed: bool = False, public: bool = False) -> str:
    """The scenario as scenario-file text; big maps (or map_file=True) go to `<stem>.rsmap`.

    The dice seed (and a generated map's generator seed, which the GUI may have shared
    with it) is written only with with_seed=True (the GM's private copy): a game made from
    a file without one gets a fresh secret seed. public=True writes a file players may
    see: no seed, no e-mail addresses or passwords, only the public meta (the allow-list
    of report bundles) -- it still holds the state given, so export turn 0 for that.
    """
    rs = registry.get(scen.ruleset)
    scen = _without_secrets(scen, rs, with_seed and not public, public)
    out = ["# Realmsmith scenario file (docs/scenario-file.md)",
           f"format = {FORMAT}", f"ruleset = {_v(rs.name)}", f"name = {_v(scen.name)}"]
    out += [f"seed = {int(scen.seed)}", ""] if with_seed and not public else [""]
    if scen.meta:
        out += ["[meta]"] + [f"{_k(k)} = {_v(v)}" for k, v in sorted(scen.meta.items()) if v is not None] + [""]
    m = scen.map
    external = map_file if map_file is not None else len(m.grid) > INLINE_MAP_CELLS
    out.append("[map]")
    if external:
        if path is None:
            raise ValueError("a map file needs the scenario's path")
        from engine.mapfile import save_map

        p = Path(path)
        mp = p.with_name(p.stem + ".rsmap")
        save_map(m, mp)
        out.append(f"file = {_v(mp.name)}")
    else:
        out += _map_lines(m, rs)
    out.append("")
    out.append("[options]")
    out += [f"{_k(k)} = {_v(v)}" for k, v in scen.options.values.items() if v is not None]
    out.append("")
    for name, cat in scen.catalogs.items():
        out += [f"[catalogs.{_k(name)}]", f"csv = {_block(cat.to_csv())}", ""]
    for f in scen.factions:
        out += ["[[factions]]", f"number = {f.number}", f"name = {_v(f.name)}",
                f"email = {_v(f.email)}", f"password = {_v(f.password)}", f"colour = {_v(f.colour)}"]
        if f.attrs:
            out.append(f"attrs = {_v(f.attrs)}")
        out.append("")
    if scen.initial is not None:
        for name, spec in scen.initial.specs().items():
            rows = [{n: getattr(r, n) for n in spec.names} for r in scen.initial.tables[name]]
            buf = io.StringIO()
            wr = csv.DictWriter(buf, spec.names, lineterminator="\n")
            wr.writeheader()
            for r in rows:
                wr.writerow({k: ("yes" if v else "no") if isinstance(v, bool) else ("" if v is None else v)
                             for k, v in r.items()})
            out += [f"[state.{_k(name)}]", f"csv = {_block(buf.getvalue())}", ""]
    text = "\n".join(out).rstrip("\n") + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _without_secrets(scen: Scenario, rs: Any, with_seed: bool, public: bool) -> Scenario:
    import dataclasses

    from engine.bundle import PUBLIC_MAP_META, public_meta

    gen = scen.map.meta.get("generator")
    if with_seed and not public or not isinstance(gen, dict) and not public:
        return scen
    m = scen.map.copy()
    if public:
        m.meta = {k: v for k, v in m.meta.items() if k in PUBLIC_MAP_META}
    else:
        m.meta["generator"] = {k: v for k, v in gen.items() if k != "seed"}
    if not public:
        return dataclasses.replace(scen, map=m)
    factions = [dataclasses.replace(f, email="", password="") for f in scen.factions]
    return dataclasses.replace(scen, map=m, factions=factions,
                               meta=public_meta(scen.meta, frozenset(rs.public_meta)))


def _map_lines(m: GameMap, rs: Ruleset) -> list[str]:
    grid = m.grid
    ruleset_letters = getattr(rs, "terrain_letters", lambda: {})()
    by_terrain: dict[str, str] = {}
    for letter, t in ruleset_letters.items():
        by_terrain.setdefault(t, letter)
    free = iter(ch for ch in LETTERS if ch not in ruleset_letters)
    letters: dict[str, str] = {}
    for t in m.terrains:
        ch = by_terrain.get(t)
        if ch is None:
            ch = next(free, None)
            if ch is None:
                raise ValueError("more terrains than letters; write the map to a file")
            by_terrain[t] = ch
        letters[ch] = t
    names = [by_terrain[t] for t in m.terrains]
    codes = m.terrain.tolist()
    rows = ["".join(names[codes[y * grid.width + x]] for x in range(grid.width))
            for y in range(grid.height)]
    lab = grid.label
    out = [f"kind = {_v(m.kind)}", f"name = {_v(m.name)}", f"grid = {_v(grid.to_dict())}",
           f"terrains = {_v(list(m.terrains))}", f"letters = {_v(letters)}",
           "terrain_rows = ["] + [f"  {_v(r)}," for r in rows] + ["]"]
    links = {k: [[lab(a), lab(b)] for a, b in sorted(v)] for k, v in sorted(m.links.items()) if v}
    if links:
        out.append(f"links = {_v(links)}")
    if m.sites:
        out.append("sites = [")
        out += [f"  {_v(_no_empty({'id': s.id, 'cell': lab(s.cell), 'kind': s.kind, 'name': s.name, 'attrs': s.attrs}))},"
                for s in sorted(m.sites.values(), key=lambda s: s.id)]
        out.append("]")
    if m.areas:
        out.append("areas = [")
        out += [f"  {_v(_no_empty({'name': a.name, 'kind': a.kind, 'cells': [lab(c) for c in sorted(a.cells)], 'attrs': a.attrs}))},"
                for a in sorted(m.areas.values(), key=lambda a: a.name)]
        out.append("]")
    if m.labels:
        out.append(f"labels = {_v([{'text': x.text, 'x': x.x, 'y': x.y, 'size': x.size} for x in m.labels])}")
    if m.cell_attrs:
        out.append(f"cell_attrs = {_v({lab(c): a for c, a in sorted(m.cell_attrs.items())})}")
    if m.adjacency_added:
        out.append(f"adjacency_added = {_v(sorted(list(p) for p in m.adjacency_added))}")
    if m.adjacency_removed:
        out.append(f"adjacency_removed = {_v(sorted(list(p) for p in m.adjacency_removed))}")
    if m.meta:
        out.append(f"meta = {_v(m.meta)}")
    return out


def _no_empty(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if not (k == "attrs" and not v)}


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _k(key: Any) -> str:
    key = str(key)
    return key if _BARE.match(key) else _v(key)


def _v(v: Any) -> str:
    """A TOML value (None inside tables is left out: TOML has no null)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v) if isinstance(v, (set, frozenset)) else v
        return "[" + ", ".join(_v(x) for x in items) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_k(k)} = {_v(x)}" for k, x in v.items() if x is not None) + " }" \
            if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} into a scenario file")


def _block(text: str) -> str:
    """A multi-line string: literal if possible, so CSV stays readable."""
    if "'''" not in text and "\r" not in text:
        return "'''\n" + text + "'''"
    esc = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').replace("\r", "\\r")
    return '"""\n' + esc + '"""'


__all__ = ["FORMAT", "ScenarioFileError", "dump_scenario", "load_scenario", "parse_scenario"]
