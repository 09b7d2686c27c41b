"""Vectorised grid geometry for drawing: cell polygons, visible cell ranges, point -> cell.

The topology classes answer one cell at a time; the canvas needs whole chunks at once,
so these helpers compute the same centres and corners with numpy.
"""

from __future__ import annotations

import math

import numpy as np

from engine.topology import HexGrid, SquareGrid, Topology

SQRT3 = math.sqrt(3.0)


def grid_size(grid: Topology) -> tuple[int, int]:
    return grid.width, grid.height  # type: ignore[attr-defined]


def corner_offsets(grid: Topology) -> np.ndarray:
    """(k, 2) corner offsets from the cell centre, in drawing order."""
    if isinstance(grid, HexGrid):
        return grid.corner_offsets()
    return np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def cell_extent(grid: Topology) -> float:
    """Distance between neighbouring cell centres (for level-of-detail decisions)."""
    return SQRT3 if isinstance(grid, HexGrid) else 1.0


def map_bounds(grid: Topology) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the whole map in map units."""
    w, h = grid_size(grid)
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            return 0.0, 0.0, 1.5 * w + 0.5, SQRT3 * (h + (0.5 if w > 1 else 0.0))
        return 0.0, 0.0, SQRT3 * (w + (0.5 if h > 1 else 0.0)), 1.5 * h + 0.5
    return 0.0, 0.0, float(w), float(h)


def pixel_shape(grid: Topology) -> tuple[int, int]:
    """(rows, cols) of the one-pixel-per-cell image; hex cells own two pixels (doubled rows
    on flat-topped grids, doubled columns on pointy ones) so odd lines sit half a cell over."""
    w, h = grid_size(grid)
    if isinstance(grid, HexGrid):
        return (2 * h + 1, w) if grid.orientation == "flat" else (h, 2 * w + 1)
    return h, w


def pixel_rect(grid: Topology) -> tuple[float, float, float, float]:
    """(x, y, w, h) in map units where that image is drawn."""
    w, h = grid_size(grid)
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            return 0.25, 0.0, 1.5 * w, SQRT3 / 2 * (2 * h + 1)
        return 0.0, 0.25, SQRT3 / 2 * (2 * w + 1), 1.5 * h
    return 0.0, 0.0, float(w), float(h)


def pixel_index(grid: Topology, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of every pixel of the given cells in that image."""
    w = grid_size(grid)[0]
    col, row = cells % w, cells // w
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            r = 2 * row + (col & 1)
            return np.concatenate([r, r + 1]), np.concatenate([col, col])
        c = 2 * col + (row & 1)
        return np.concatenate([row, row]), np.concatenate([c, c + 1])
    return row, col


def centers(grid: Topology, cells: np.ndarray) -> np.ndarray:
    """(n, 2) centres of the given cells (the topology's own vectorised formula)."""
    return grid.centers_array(np.asarray(cells, dtype=np.int64))


def polygons(grid: Topology, cells: np.ndarray) -> np.ndarray:
    """(n, k, 2) corner coordinates of the given cells."""
    return centers(grid, cells)[:, None, :] + corner_offsets(grid)[None, :, :]


def col_row_range(grid: Topology, x0: float, y0: float, x1: float, y1: float
                  ) -> tuple[int, int, int, int]:
    """Inclusive-exclusive (c0, c1, r0, r1) of columns and rows that touch a map rectangle."""
    w, h = grid_size(grid)
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            c0, c1 = math.floor((x0 - 2.0) / 1.5), math.ceil(x1 / 1.5) + 1
            r0, r1 = math.floor(y0 / SQRT3) - 1, math.ceil(y1 / SQRT3) + 1
        else:
            c0, c1 = math.floor(x0 / SQRT3) - 1, math.ceil(x1 / SQRT3) + 1
            r0, r1 = math.floor((y0 - 2.0) / 1.5), math.ceil(y1 / 1.5) + 1
    else:
        c0, c1 = math.floor(x0), math.ceil(x1)
        r0, r1 = math.floor(y0), math.ceil(y1)
    return max(c0, 0), min(c1, w), max(r0, 0), min(r1, h)


def cells_in_rect(grid: Topology, x0: float, y0: float, x1: float, y1: float,
                  centre_inside: bool = False) -> np.ndarray:
    """Cells touching (or, with centre_inside, centred in) a map rectangle, row-major."""
    w = grid_size(grid)[0]
    c0, c1, r0, r1 = col_row_range(grid, x0, y0, x1, y1)
    if c0 >= c1 or r0 >= r1:
        return np.zeros(0, dtype=np.int64)
    cols, rows = np.meshgrid(np.arange(c0, c1), np.arange(r0, r1))
    cells = (rows * w + cols).ravel()
    if centre_inside:
        c = centers(grid, cells)
        keep = (c[:, 0] >= x0) & (c[:, 0] <= x1) & (c[:, 1] >= y0) & (c[:, 1] <= y1)
        cells = cells[keep]
    return cells


def cell_at(grid: Topology, x: float, y: float) -> int | None:
    """The cell under a map point, or None outside the map."""
    w, h = grid_size(grid)
    if isinstance(grid, SquareGrid) or not isinstance(grid, HexGrid):
        col, row = math.floor(x), math.floor(y)
    elif grid.orientation == "flat":
        px, py = x - 1.0, y - SQRT3 / 2
        q, r = _cube_round(2.0 / 3.0 * px, -px / 3.0 + SQRT3 / 3.0 * py)
        col, row = q, r + (q - (q & 1)) // 2
    else:
        px, py = x - SQRT3 / 2, y - 1.0
        q, r = _cube_round(SQRT3 / 3.0 * px - py / 3.0, 2.0 / 3.0 * py)
        col, row = q + (r - (r & 1)) // 2, r
    if 0 <= col < w and 0 <= row < h:
        return row * w + col
    return None


def _cube_round(q: float, r: float) -> tuple[int, int]:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


# ---- cube coordinates for rotate / flip on hex grids ---------------------------------

def to_axial(grid: Topology, cell: int) -> tuple[int, int]:
    """Axial (q, r) on hex grids, (x, y) on square grids."""
    w = grid_size(grid)[0]
    col, row = cell % w, cell // w
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            return col, row - (col - (col & 1)) // 2
        return col - (row - (row & 1)) // 2, row
    return col, row


def from_axial(grid: Topology, q: int, r: int) -> int | None:
    w, h = grid_size(grid)
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            col, row = q, r + (q - (q & 1)) // 2
        else:
            col, row = q + (r - (r & 1)) // 2, r
        if grid.wrap_x:
            col %= w
    else:
        col, row = q, r
    if 0 <= col < w and 0 <= row < h:
        return row * w + col
    return None


def neighbour_table(grid: Topology) -> np.ndarray:
    """(n, k) neighbour cells, -1 where off the map; built with numpy for flood fills."""
    w, h = grid_size(grid)
    idx = np.arange(w * h)
    col, row = idx % w, idx // w
    out = []
    if isinstance(grid, HexGrid):
        steps = grid._steps  # (even, odd) steps per direction
        parity = (col if grid.orientation == "flat" else row) & 1
        for d in grid.directions:
            (dce, dre), (dco, dro) = steps[d]
            dc = np.where(parity == 1, dco, dce)
            dr = np.where(parity == 1, dro, dre)
            out.append(_offset(col + dc, row + dr, w, h, grid.wrap_x))
    else:
        from engine.topology.square import _STEPS
        for d in grid.directions:
            dc, dr = _STEPS[d]
            out.append(_offset(col + dc, row + dr, w, h, getattr(grid, "wrap_x", False)))
    return np.stack(out, axis=1)


def _offset(col: np.ndarray, row: np.ndarray, w: int, h: int, wrap: bool) -> np.ndarray:
    if wrap:
        col = col % w
    ok = (col >= 0) & (col < w) & (row >= 0) & (row < h)
    return np.where(ok, row * w + col, -1)


def unique_cells(cells, n: int) -> np.ndarray:
    """Sorted distinct cells via a mask: O(n), unlike np.unique's hashing on big arrays."""
    mask = np.zeros(n, dtype=bool)
    mask[np.asarray(cells, dtype=np.int64)] = True
    return np.flatnonzero(mask)


def flood(table: np.ndarray, start: int, mask: np.ndarray) -> np.ndarray:
    """Cells connected to start through cells where mask is True (frontier BFS in numpy)."""
    seen = np.zeros(len(mask), dtype=bool)
    if not mask[start]:
        return np.zeros(0, dtype=np.int64)
    seen[start] = True
    frontier = np.array([start])
    while frontier.size:
        nb = table[frontier].ravel()
        nb = nb[nb >= 0]
        nb = nb[mask[nb] & ~seen[nb]]
        nb.sort()  # distinct cells (repeats would compound from one ring to the next)
        nb = nb[np.concatenate(([True], nb[1:] != nb[:-1]))] if len(nb) else nb
        seen[nb] = True
        frontier = nb
    return np.flatnonzero(seen)


def line_cells(grid: Topology, a: int, b: int) -> list[int]:
    """Cells on a straight line from a to b, each a neighbour of the one before."""
    if a == b:
        return [a]
    ca, cb = centers(grid, np.array([a, b]))
    n = max(1, grid.distance(a, b)) * 2
    out = [a]
    for t in np.linspace(0.0, 1.0, n + 1)[1:]:
        # nudge off exact corners so ties resolve the same way each time
        p = ca + (cb - ca) * t + 1e-6
        c = cell_at(grid, float(p[0]), float(p[1]))
        if c is not None and c != out[-1]:
            if not grid.are_neighbours(out[-1], c):
                step = grid.path(out[-1], c)
                out.extend(step[1:-1] if step else [])
            out.append(c)
    if out[-1] != b:
        out.append(b)
    return out
