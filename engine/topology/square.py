"""Square grids: cell = y * width + x, N is y-1 (screen-like), 4 or 8 neighbours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.topology.base import Point, Topology, parse_pair

if TYPE_CHECKING:  # numpy is imported where it is used: `status` and `--help` need none
    import numpy as np

_STEPS = {
    "N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
    "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1),
}


class SquareGrid(Topology):
    kind = "square"
    notations = ("x/y", "x,y")

    def __init__(self, width: int, height: int, neighbours: int = 4, wrap_x: bool = False):
        if width < 1 or height < 1:
            raise ValueError("a square grid needs width and height of at least 1")
        if neighbours not in (4, 8):
            raise ValueError("a square grid has 4 or 8 neighbours")
        self.width, self.height, self.n_neighbours, self.wrap_x = width, height, neighbours, wrap_x
        self.directions = ("N", "E", "S", "W") if neighbours == 4 else (
            "N", "NE", "E", "SE", "S", "SW", "W", "NW")

    def __len__(self) -> int:
        return self.width * self.height

    def __repr__(self) -> str:
        return f"SquareGrid({self.width}x{self.height}, {self.n_neighbours})"

    def cell(self, x: int, y: int) -> int | None:
        if self.wrap_x:
            x %= self.width
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return None

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def step(self, cell: int, direction: str) -> int | None:
        d = _STEPS.get(direction.upper())
        if d is None or direction.upper() not in self.directions:
            return None
        x, y = self.xy(cell)
        return self.cell(x + d[0], y + d[1])

    def distance(self, a: int, b: int) -> int:
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        dx = abs(ax - bx)
        if self.wrap_x:
            dx = min(dx, self.width - dx)
        dy = abs(ay - by)
        return dx + dy if self.n_neighbours == 4 else max(dx, dy)

    def label(self, cell: int, notation: str | None = None) -> str:
        x, y = self.xy(cell)
        return f"{x},{y}" if notation == "x,y" else f"{x}/{y}"

    def parse(self, text: str, notation: str | None = None) -> int | None:
        p = parse_pair(text)
        return None if p is None else self.cell(*p) if not self.wrap_x or 0 <= p[0] < self.width else None

    def center(self, cell: int) -> Point:
        x, y = self.xy(cell)
        return x + 0.5, y + 0.5

    def corners(self, cell: int) -> list[Point]:
        x, y = self.xy(cell)
        return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]

    def centers_array(self, cells: np.ndarray | None = None) -> np.ndarray:
        import numpy as np

        idx = np.arange(len(self)) if cells is None else np.asarray(cells, dtype=np.int64)
        return np.stack([idx % self.width + 0.5, idx // self.width + 0.5], axis=1).astype(float)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "width": self.width, "height": self.height,
                "neighbours": self.n_neighbours, "wrap_x": self.wrap_x}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SquareGrid:
        return cls(int(d["width"]), int(d["height"]), int(d.get("neighbours", 4)),
                   bool(d.get("wrap_x", False)))
