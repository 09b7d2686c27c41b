"""Hex grids on one internal offset coordinate (col, row), cell = row * width + col.

Flat-topped grids use odd-q offsets (odd columns sit half a hex lower). That makes the
Atlantis "doubled" coordinate (x, y) = (col, 2*row + col % 2), where x + y is even, and
the classic wargame label CCRR (1-based, zero-padded) two views of the same cell.
Pointy-topped grids use odd-r offsets (odd rows sit half a hex to the right).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from engine.topology.base import Point, Topology, parse_pair

if TYPE_CHECKING:  # numpy is imported where it is used: `status` and `--help` need none
    import numpy as np

SQRT3 = math.sqrt(3.0)

_FLAT = {  # (even column step, odd column step)
    "N": ((0, -1), (0, -1)), "NE": ((1, -1), (1, 0)), "SE": ((1, 0), (1, 1)),
    "S": ((0, 1), (0, 1)), "SW": ((-1, 0), (-1, 1)), "NW": ((-1, -1), (-1, 0)),
}
_POINTY = {  # (even row step, odd row step)
    "E": ((1, 0), (1, 0)), "NE": ((0, -1), (1, -1)), "NW": ((-1, -1), (0, -1)),
    "W": ((-1, 0), (-1, 0)), "SW": ((-1, 1), (0, 1)), "SE": ((0, 1), (1, 1)),
}
_DIGITS = re.compile(r"^\d{4}$|^\d{6}$|^\d{8}$")


class HexGrid(Topology):
    kind = "hex"

    def __init__(self, width: int, height: int, orientation: str = "flat", wrap_x: bool = False):
        if width < 1 or height < 1:
            raise ValueError("a hex grid needs width and height of at least 1")
        if orientation not in ("flat", "pointy"):
            raise ValueError("hex orientation is 'flat' or 'pointy'")
        if wrap_x and (orientation != "flat" or width % 2):
            raise ValueError("an east-west wrapping hex grid must be flat-topped with even width")
        self.width, self.height, self.orientation, self.wrap_x = width, height, orientation, wrap_x
        self._steps = _FLAT if orientation == "flat" else _POINTY
        self.directions = tuple(self._steps)
        self.notations = ("atlantis", "ccrr", "col,row") if orientation == "flat" else (
            "ccrr", "col,row")
        self._digits = max(2, len(str(max(width, height))))  # 0101, 001001, 00010001

    def __len__(self) -> int:
        return self.width * self.height

    def __repr__(self) -> str:
        return f"HexGrid({self.width}x{self.height}, {self.orientation})"

    # ---- coordinates ---------------------------------------------------------

    def cell(self, col: int, row: int) -> int | None:
        if self.wrap_x:
            col %= self.width
        if 0 <= col < self.width and 0 <= row < self.height:
            return row * self.width + col
        return None

    def colrow(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def atlantis(self, cell: int) -> tuple[int, int]:
        col, row = self.colrow(cell)
        return col, 2 * row + (col & 1)

    def from_atlantis(self, x: int, y: int) -> int | None:
        if (x + y) % 2:
            return None
        return self.cell(x, (y - (x & 1)) // 2)

    def cube(self, cell: int) -> tuple[int, int]:
        """Axial (q, r) of the cell."""
        col, row = self.colrow(cell)
        if self.orientation == "flat":
            return col, row - (col - (col & 1)) // 2
        return col - (row - (row & 1)) // 2, row

    # ---- adjacency -------------------------------------------------------------

    def step(self, cell: int, direction: str) -> int | None:
        s = self._steps.get(direction.upper())
        if s is None:
            return None
        col, row = self.colrow(cell)
        parity = (col if self.orientation == "flat" else row) & 1
        dc, dr = s[parity]
        return self.cell(col + dc, row + dr)

    def distance(self, a: int, b: int) -> int:
        if not self.wrap_x:
            return _axial_distance(self.cube(a), self.cube(b))
        ca, (bc, br) = self.cube(a), self.colrow(b)
        best = None
        for shift in (-self.width, 0, self.width):
            col = bc + shift
            q, r = col, br - (col - (col & 1)) // 2
            d = _axial_distance(ca, (q, r))
            best = d if best is None else min(best, d)
        return int(best)

    # ---- labels ------------------------------------------------------------------

    def label(self, cell: int, notation: str | None = None) -> str:
        notation = notation or self.notations[0]
        col, row = self.colrow(cell)
        if notation == "atlantis" and self.orientation == "flat":
            x, y = self.atlantis(cell)
            return f"({x},{y})"
        if notation == "ccrr":
            return f"{col + 1:0{self._digits}d}{row + 1:0{self._digits}d}"
        return f"{col},{row}"

    def parse(self, text: str, notation: str | None = None) -> int | None:
        t = text.strip()
        if notation is None:
            if _DIGITS.match(t):
                notation = "ccrr"
            elif t.startswith("(") and self.orientation == "flat":
                notation = "atlantis"
            else:
                notation = "col,row"
        if notation == "ccrr":
            if not _DIGITS.match(t):
                return None
            half = len(t) // 2
            return self.cell(int(t[:half]) - 1, int(t[half:]) - 1) if not self.wrap_x else (
                self.cell(int(t[:half]) - 1, int(t[half:]) - 1)
                if 0 < int(t[:half]) <= self.width else None)
        p = parse_pair(t)
        if p is None:
            return None
        if self.wrap_x and not 0 <= p[0] < self.width:
            return None
        if notation == "atlantis":
            return self.from_atlantis(*p)
        return self.cell(*p)

    # ---- geometry (circumradius 1) -------------------------------------------------

    def center(self, cell: int) -> Point:
        col, row = self.colrow(cell)
        if self.orientation == "flat":
            return 1.5 * col + 1.0, SQRT3 * (row + 0.5 * (col & 1)) + SQRT3 / 2
        return SQRT3 * (col + 0.5 * (row & 1)) + SQRT3 / 2, 1.5 * row + 1.0

    def corners(self, cell: int) -> list[Point]:
        cx, cy = self.center(cell)
        start = 0 if self.orientation == "flat" else 30
        return [(cx + math.cos(math.radians(start + 60 * k)),
                 cy + math.sin(math.radians(start + 60 * k))) for k in range(6)]

    def corner_offsets(self) -> np.ndarray:
        import numpy as np

        start = 0 if self.orientation == "flat" else 30
        a = np.radians(start + 60 * np.arange(6))
        return np.stack([np.cos(a), np.sin(a)], axis=1)

    def centers_array(self, cells: np.ndarray | None = None) -> np.ndarray:
        import numpy as np

        idx = np.arange(len(self)) if cells is None else np.asarray(cells, dtype=np.int64)
        col, row = idx % self.width, idx // self.width
        if self.orientation == "flat":
            x = 1.5 * col + 1.0
            y = SQRT3 * (row + 0.5 * (col & 1)) + SQRT3 / 2
        else:
            x = SQRT3 * (col + 0.5 * (row & 1)) + SQRT3 / 2
            y = 1.5 * row + 1.0
        return np.stack([x, y], axis=1).astype(float)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "width": self.width, "height": self.height,
                "orientation": self.orientation, "wrap_x": self.wrap_x}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HexGrid:
        return cls(int(d["width"]), int(d["height"]), d.get("orientation", "flat"),
                   bool(d.get("wrap_x", False)))


def _axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
