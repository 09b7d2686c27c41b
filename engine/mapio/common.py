"""Helpers shared by the map file formats: errors, cell lists, link chains, property values."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.map import GameMap
from engine.mapfile import MapFileError


class FormatError(Exception):
    """Raised inside a reader; the dispatcher turns it into MapFileError naming the file."""


def bad(msg: str) -> FormatError:
    return FormatError(msg)


def to_file_error(path: Any, e: BaseException) -> MapFileError:
    if isinstance(e, FormatError):
        return MapFileError(f"{path}: {e}")
    return MapFileError(f"{path}: damaged or foreign map file ({type(e).__name__}: {e})")


def cells_to_text(cells: Iterable[int]) -> str:
    """Sorted cell ids as compact ranges: [1,2,3,7] -> '1-3,7'."""
    out: list[str] = []
    run: list[int] = []
    for c in sorted(set(cells)):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [c]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def text_to_cells(text: str, n: int) -> list[int]:
    """Inverse of cells_to_text; every id must be a cell of a grid of n cells."""
    out: list[int] = []
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        a, dash, b = part.partition("-")
        try:
            lo, hi = int(a), int(b) if dash else int(a)
        except ValueError:
            raise bad(f"cell list {text[:40]!r}: {part!r} is not a cell number or range") from None
        if not (0 <= lo <= hi < n):
            raise bad(f"cell list names cells {part} outside the map's {n} cells")
        out.extend(range(lo, hi + 1))
    return out


def link_chains(links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Split a set of links into few paths of cells (deterministic: smallest ids first)."""
    adj: dict[int, list[int]] = {}
    for a, b in sorted(links):
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj.values():
        v.sort()
    used: set[tuple[int, int]] = set()

    def free(c: int) -> list[int]:
        return [n for n in adj[c] if (min(c, n), max(c, n)) not in used]

    chains: list[list[int]] = []
    # start at path ends (odd degree) first, so simple rivers come out as one chain
    starts = [c for c in sorted(adj) if len(adj[c]) % 2] + sorted(adj)
    for s in starts:
        while free(s):
            chain = [s]
            c = s
            while True:
                nxt = free(c)
                if not nxt:
                    break
                n = nxt[0]
                used.add((min(c, n), max(c, n)))
                chain.append(n)
                c = n
            chains.append(chain)
    return chains


def check_cell(m: GameMap, c: Any, what: str) -> int:
    try:
        c = int(c)
    except (TypeError, ValueError):
        raise bad(f"{what}: cell {c!r} is not a number") from None
    if not 0 <= c < len(m.grid):
        raise bad(f"{what}: cell {c} is outside the map ({len(m.grid)} cells)")
    return c


def add_chain(m: GameMap, kind: str, cells: list[int], what: str) -> None:
    for a, b in zip(cells, cells[1:], strict=False):
        if a == b:
            continue
        if not m.grid.are_neighbours(a, b):
            raise bad(f"{what}: {kind} joins cells {a} and {b}, which are not neighbours")
        m.links.setdefault(kind, set()).add((a, b) if a < b else (b, a))


def json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=False)


def parse_json_prop(name: str, text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise bad(f"property {name!r} is not valid JSON ({e.msg})") from None


def validate(m: GameMap) -> GameMap:
    """A final consistency check, so a reader never hands out a half-valid map."""
    n = len(m.grid)
    if m.terrain.shape != (n,):
        raise bad(f"terrain has {m.terrain.size} values for {n} cells")
    if n and int(m.terrain.max()) >= len(m.terrains):
        raise bad("terrain refers to a code missing from the terrain list")
    for s in m.sites.values():
        check_cell(m, s.cell, f"site {s.name or s.id}")
    for a in m.areas.values():
        for c in a.cells:
            check_cell(m, c, f"area {a.name}")
    for kind, layer in m.links.items():
        for a, b in layer:
            check_cell(m, a, kind)
            check_cell(m, b, kind)
    for k in ("river", "road"):
        m.links.setdefault(k, set())
    return m


def cell_rings(grid: Any, cells: Any = None) -> Any:
    """(n, k, 2) corner array of the given cells (all by default), vectorised."""
    import numpy as np

    centres = grid.centers_array()
    if cells is not None:
        centres = centres[np.asarray(cells, dtype=np.int64)]
    if hasattr(grid, "corner_offsets"):
        offsets = grid.corner_offsets()
    else:
        offsets = np.array(grid.corners(0), dtype=float) - np.array(grid.center(0), dtype=float)
    return centres[:, None, :] + offsets[None, :, :]
