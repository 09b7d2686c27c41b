"""Copied cells as axial offsets from an anchor, so they rotate (60 degrees on hex grids,
90 on square grids) and flip before pasting anywhere on the map."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from app.canvas import geometry as geo
from engine.map import GameMap
from engine.topology import HexGrid


@dataclass
class CellClipboard:
    hex: bool
    pointy: bool = False
    cells: list[tuple[int, int, str]] = field(default_factory=list)  # (dq, dr, terrain)

    @classmethod
    def copy(cls, gmap: GameMap, cells) -> CellClipboard:
        cells = [int(c) for c in cells]
        grid = gmap.grid
        is_hex = isinstance(grid, HexGrid)
        clip = cls(is_hex, is_hex and grid.orientation == "pointy")
        if not cells:
            return clip
        # anchor on the selected cell nearest the selection's middle
        cen = geo.centers(grid, np.array(cells))
        mid = cen.mean(axis=0)
        anchor = cells[int(np.argmin(((cen - mid) ** 2).sum(axis=1)))]
        aq, ar = geo.to_axial(grid, anchor)
        for c in sorted(cells):
            q, r = geo.to_axial(grid, c)
            clip.cells.append((q - aq, r - ar, gmap.terrain_at(c)))
        return clip

    def __bool__(self) -> bool:
        return bool(self.cells)

    def rotate(self, steps: int = 1) -> None:
        """Clockwise on screen: 60 degrees a step on hex grids, 90 on square grids."""
        for _ in range(steps % (6 if self.hex else 4)):
            if self.hex:
                self.cells = [(-r, q + r, t) for q, r, t in self.cells]
            else:
                self.cells = [(-r, q, t) for q, r, t in self.cells]

    def flip(self) -> None:
        """Mirror left to right."""
        if not self.hex:
            self.cells = [(-q, r, t) for q, r, t in self.cells]
        elif self.pointy:
            self.cells = [(-q - r, r, t) for q, r, t in self.cells]
        else:
            self.cells = [(-q, r + q, t) for q, r, t in self.cells]

    def placed(self, gmap: GameMap, at: int) -> dict[int, str]:
        """Cells and terrain if pasted with the anchor on `at` (cells off the map dropped)."""
        aq, ar = geo.to_axial(gmap.grid, at)
        out: dict[int, str] = {}
        for dq, dr, t in self.cells:
            c = geo.from_axial(gmap.grid, aq + dq, ar + dr)
            if c is not None:
                out[c] = t
        return out
