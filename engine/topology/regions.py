"""Region graphs: named regions (realms, seas) with explicit adjacency.

Geometry is optional: a point per region for labels and, when the regions were painted
on a fine grid (see engine.map.Area), their outlines come from the map, not from here.
"""

from __future__ import annotations

from typing import Any

from engine.topology.base import Point, Topology


def name_key(name: str) -> str:
    """How orders name a region: case-folded, `_` as space, runs of space as one."""
    return " ".join(name.replace("_", " ").split()).casefold()


_key = name_key


class RegionGraph(Topology):
    kind = "regions"
    notations = ("name",)

    def __init__(self, names: list[str], adjacency: list[tuple[str, str]] | None = None,
                 positions: dict[str, Point] | None = None):
        self.names: list[str] = []
        self._index: dict[str, int] = {}
        self._adj: list[set[int]] = []
        self.positions: dict[int, Point] = {}
        for n in names:
            self.add_region(n)
        for a, b in adjacency or []:
            self.connect(self._index[_key(a)], self._index[_key(b)])
        for n, p in (positions or {}).items():
            self.positions[self._index[_key(n)]] = (float(p[0]), float(p[1]))

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"RegionGraph({len(self)} regions)"

    def add_region(self, name: str) -> int:
        key = _key(name)
        if not key:
            raise ValueError("a region needs a name")
        if key in self._index:
            raise ValueError(f"duplicate region name {name!r}")
        self._index[key] = len(self.names)
        self.names.append(name.strip())
        self._adj.append(set())
        return len(self.names) - 1

    def rename(self, cell: int, name: str) -> None:
        key = _key(name)
        if not key:
            raise ValueError("a region needs a name")
        if key in self._index and self._index[key] != cell:
            raise ValueError(f"duplicate region name {name!r}")
        del self._index[_key(self.names[cell])]
        self.names[cell] = name.strip()
        self._index[key] = cell

    def connect(self, a: int, b: int) -> None:
        if a != b:
            self._adj[a].add(b)
            self._adj[b].add(a)

    def disconnect(self, a: int, b: int) -> None:
        self._adj[a].discard(b)
        self._adj[b].discard(a)

    def neighbours(self, cell: int) -> list[int]:
        return sorted(self._adj[cell])

    def are_neighbours(self, a: int, b: int) -> bool:
        return b in self._adj[a]

    def edges(self) -> list[tuple[int, int]]:
        return [(a, b) for a in range(len(self)) for b in sorted(self._adj[a]) if a < b]

    def direction(self, a: int, b: int) -> str | None:
        return self.names[b] if b in self._adj[a] else None

    def step(self, cell: int, direction: str) -> int | None:
        n = self.parse(direction)
        return n if n is not None and n in self._adj[cell] else None

    def distance(self, a: int, b: int) -> int:
        p = self.path(a, b)
        return len(p) - 1 if p is not None else 10**9

    def label(self, cell: int, notation: str | None = None) -> str:
        return self.names[cell]

    def match(self, text: str) -> list[int]:
        """Regions a name or unique prefix may mean (case-insensitive); exact wins."""
        key = _key(text)
        if key in self._index:
            return [self._index[key]]
        return [i for i, n in enumerate(self.names) if _key(n).startswith(key)] if key else []

    def parse(self, text: str, notation: str | None = None) -> int | None:
        m = self.match(text)
        return m[0] if len(m) == 1 else None

    def center(self, cell: int) -> Point:
        return self.positions.get(cell, (float(cell % 16) * 4 + 2, float(cell // 16) * 4 + 2))

    def corners(self, cell: int) -> list[Point]:
        x, y = self.center(cell)
        return [(x - 1, y - 1), (x + 1, y - 1), (x + 1, y + 1), (x - 1, y + 1)]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "names": list(self.names),
                "adjacency": [[self.names[a], self.names[b]] for a, b in self.edges()],
                "positions": {self.names[c]: list(p) for c, p in self.positions.items()}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RegionGraph:
        return cls(list(d["names"]), [tuple(e) for e in d.get("adjacency", [])],
                   {k: tuple(v) for k, v in d.get("positions", {}).items()})
