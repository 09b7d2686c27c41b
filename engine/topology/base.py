"""The topology interface shared by hex grids, square grids and region graphs."""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # numpy is imported where it is used: `status` and `--help` need none
    import numpy as np

Point = tuple[float, float]
StepCost = Callable[[int, int], float | None]  # None = impassable


class Topology(ABC):
    """Cells numbered 0..len-1 with neighbours, directions, distance and geometry."""

    kind: ClassVar[str]
    directions: tuple[str, ...] = ()
    notations: tuple[str, ...] = ()

    @abstractmethod
    def __len__(self) -> int: ...

    def neighbours(self, cell: int) -> list[int]:
        """Cells adjacent to `cell`, in the order of `directions` (grids step each way).

        Remembered per cell: a turn asks for the neighbours of every province several
        times (isolation, supply, movement), and stepping each way is slow in Python.
        A grid is not resized in place (a new size is a new grid), so they stay right."""
        memo = self.__dict__.get("_neighbours")
        if memo is None:
            memo = self.__dict__["_neighbours"] = {}
        got = memo.get(cell)
        if got is None:
            out = []
            for d in self.directions:
                n = self.step(cell, d)
                if n is not None and n != cell:
                    out.append(n)
            got = memo[cell] = tuple(out)
        return list(got)

    def step(self, cell: int, direction: str) -> int | None:
        """The cell one step from `cell` towards `direction`, or None off the map."""
        return None

    def direction(self, a: int, b: int) -> str | None:
        """The direction from `a` to its neighbour `b` (None if not neighbours)."""
        for d in self.directions:
            if self.step(a, d) == b:
                return d
        return None

    def are_neighbours(self, a: int, b: int) -> bool:
        return b in self.neighbours(a)

    @abstractmethod
    def distance(self, a: int, b: int) -> int:
        """Steps between two cells ignoring terrain; a metric."""

    @abstractmethod
    def label(self, cell: int, notation: str | None = None) -> str:
        """The cell's name in a notation of `notations` (the first is the default)."""

    @abstractmethod
    def parse(self, text: str, notation: str | None = None) -> int | None:
        """The cell a label names, or None. Accepts every notation when none is given."""

    @abstractmethod
    def center(self, cell: int) -> Point:
        """Centre of the cell in map units (y grows downwards, like the screen)."""

    @abstractmethod
    def corners(self, cell: int) -> list[Point]:
        """Polygon outline of the cell, for drawing and for shapely."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    # ---- generic algorithms -------------------------------------------------

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, int) and 0 <= cell < len(self)

    def cells(self) -> range:
        return range(len(self))

    def centers_array(self, cells: np.ndarray | None = None) -> np.ndarray:
        """(n, 2) centres of the given cells (all when None); grids vectorise this."""
        import numpy as np

        which = self.cells() if cells is None else (int(c) for c in cells)
        return np.array([self.center(c) for c in which], dtype=float).reshape(-1, 2)

    def within(self, cell: int, radius: int) -> list[int]:
        """Cells at distance <= radius (breadth first, nearest first)."""
        seen = {cell}
        frontier = [cell]
        out = [cell]
        for _ in range(radius):
            nxt = []
            for c in frontier:
                for n in self.neighbours(c):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            out.extend(nxt)
            frontier = nxt
        return out

    def path(self, start: int, goal: int, cost: StepCost | None = None) -> list[int] | None:
        """Cheapest path from start to goal inclusive (Dijkstra; unit cost by default)."""
        if start == goal:
            return [start]
        best = {start: 0.0}
        came: dict[int, int] = {}
        heap: list[tuple[float, int]] = [(0.0, start)]
        while heap:
            d, c = heapq.heappop(heap)
            if c == goal:
                out = [goal]
                while out[-1] != start:
                    out.append(came[out[-1]])
                return out[::-1]
            if d > best.get(c, float("inf")):
                continue
            for n in self.neighbours(c):
                w = 1.0 if cost is None else cost(c, n)
                if w is None:
                    continue
                nd = d + w
                if nd < best.get(n, float("inf")):
                    best[n] = nd
                    came[n] = c
                    heapq.heappush(heap, (nd, n))
        return None

    def reachable(self, start: int, budget: float, cost: StepCost | None = None) -> dict[int, float]:
        """Cells reachable from start within a movement budget, with their cost."""
        best = {start: 0.0}
        heap: list[tuple[float, int]] = [(0.0, start)]
        while heap:
            d, c = heapq.heappop(heap)
            if d > best[c]:
                continue
            for n in self.neighbours(c):
                w = 1.0 if cost is None else cost(c, n)
                if w is None or d + w > budget:
                    continue
                if d + w < best.get(n, float("inf")):
                    best[n] = d + w
                    heapq.heappush(heap, (d + w, n))
        return best

    def walk(self, start: int, directions: Iterable[str]) -> list[int | None]:
        """Cells visited by following directions; None from the first step off the map."""
        out: list[int | None] = []
        c: int | None = start
        for d in directions:
            c = None if c is None else self.step(c, d)
            out.append(c)
        return out


MAX_CELLS = 16_000_000  # 4000 x 4000: far beyond any PBEM map, far below running out of memory


def check_size(width: Any, height: Any = 1) -> None:
    """ValueError before a grid of more than MAX_CELLS cells is built: a few bytes of a map
    file must not make the reader allocate gigabytes."""
    try:
        cells = int(width) * int(height)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"grid size {width!r} x {height!r} is not a whole number of cells") from None
    if cells > MAX_CELLS or int(width) < 0 or int(height) < 0:
        raise ValueError(f"a grid of {width} x {height} cells; the limit is {MAX_CELLS:,} cells")


def topology_from_dict(data: dict[str, Any]) -> Topology:
    from engine.topology.hex import HexGrid
    from engine.topology.regions import RegionGraph
    from engine.topology.square import SquareGrid

    kinds: dict[str, type[Topology]] = {"hex": HexGrid, "square": SquareGrid, "regions": RegionGraph}
    kind = data.get("kind")
    if kind not in kinds:
        raise ValueError(f"unknown topology kind {kind!r}; expected one of {sorted(kinds)}")
    if kind == "regions":
        names = data.get("names")
        check_size(len(names) if isinstance(names, list) else 0)
    else:
        check_size(data.get("width", 0), data.get("height", 0))
    return kinds[kind].from_dict(data)  # type: ignore[attr-defined]


def parse_pair(text: str) -> tuple[int, int] | None:
    """'7/18', '7,18', '(7,18)', '7 18' -> (7, 18)."""
    t = text.strip().strip("()[]")
    for sep in ("/", ",", " ", "-", "."):
        if sep in t:
            a, _, b = t.partition(sep)
            try:
                return int(a.strip()), int(b.strip())
            except ValueError:
                return None
    return None
