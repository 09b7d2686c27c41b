"""Where site names go so that they do not overlap (pure Python, no Qt: widths come in).

Names are placed in order of importance (a major city, then by population, then by the kind
of site), each at the first of four places around its marker -- below, above, right, left --
that touches neither a name placed before it nor any site's marker; a name with no free
place is left out at this zoom. The map canvas and the PNG export draw sites with the same
layer (app/canvas/overlays.SitesLayer), so both place names this way.
"""

from __future__ import annotations

from collections.abc import Sequence

# rank of a site kind when nothing else tells (lower first)
KIND_RANK = {"capital": 0, "city": 1, "port": 2, "castle": 3, "town": 4, "start": 5,
             "village": 6, "ruin": 7}
GRID_PX = 64.0  # the spatial hash's cell
PAD = 3.0  # pixels kept free left and right of a name, so two names never read as one


def importance(kind: str, attrs: dict) -> tuple:
    """Sort key, most important first: major cities, then population, then kind."""
    pop = attrs.get("population", 0)
    pop = pop if isinstance(pop, int | float) and not isinstance(pop, bool) else 0
    return (not attrs.get("major"), -pop, KIND_RANK.get(kind.casefold(), 9))


Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


class _Hash:
    """Boxes by the grid cells they cover, each with its site (a name may touch its own marker)."""

    def __init__(self):
        self.cells: dict[tuple[int, int], list[tuple[Box, int]]] = {}

    def _keys(self, b: Box):
        for gx in range(int(b[0] // GRID_PX), int(b[2] // GRID_PX) + 1):
            for gy in range(int(b[1] // GRID_PX), int(b[3] // GRID_PX) + 1):
                yield gx, gy

    def add(self, b: Box, owner: int) -> None:
        for k in self._keys(b):
            self.cells.setdefault(k, []).append((b, owner))

    def hits(self, b: Box, owner: int) -> bool:
        for k in self._keys(b):
            for o, who in self.cells.get(k, ()):
                if who != owner and b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    return True
        return False


def place_labels(points: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]],
                 order: Sequence[int], marker: float, gap: float = 7.0,
                 reach: float = float("inf"), bounds: Box | None = None,
                 obstacles: Sequence[Box] = ()) -> dict[int, tuple[float, float]]:
    """{site index: (dx, dy) of its name's centre from its point, in pixels} for the names that
    fit. points: each site in pixels; sizes: its name's (width, height), (0, 0) for none;
    order: site indices, most important first; marker: a marker's half-size in pixels; reach:
    how far from its point a name may end (the canvas draws a tile's sites from that far);
    bounds: the map's box (no name is cut by its edge); obstacles: other text (map labels)."""
    placed: dict[int, tuple[float, float]] = {}
    taken = _Hash()
    m = marker + 1.0
    for i, (x, y) in enumerate(points):
        taken.add((x - m, y - m, x + m, y + m), i)
    for b in obstacles:
        taken.add(b, -1)
    for i in order:
        w, h = sizes[i]
        if w <= 0:
            continue
        x, y = points[i]
        below = marker + gap
        side = marker + 3 + w / 2
        for dx, dy in ((0.0, below), (0.0, -below), (side, 0.0), (-side, 0.0)):
            if max(abs(dx) + w / 2, abs(dy) + h / 2) > reach:
                continue
            cx, cy = x + dx, y + dy
            b = (cx - w / 2 - PAD, cy - h / 2, cx + w / 2 + PAD, cy + h / 2)  # two names never touch
            if bounds is not None and (b[0] < bounds[0] or b[1] < bounds[1] or b[2] > bounds[2]
                                       or b[3] > bounds[3]):
                continue
            if not taken.hits(b, i):
                taken.add(b, i)
                placed[i] = (dx, dy)
                break
    return placed
