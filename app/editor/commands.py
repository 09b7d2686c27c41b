"""Undo commands: one class per kind of edit; strokes merge so a drag is one undo step.

Commands change the GameMap only through its own methods, so the canvas (subscribed to
the map) repaints exactly the cells they touched.
"""

from __future__ import annotations

import itertools
from typing import Any

from PySide6.QtGui import QUndoCommand

from engine.map import Area, GameMap, Label, Site

_ids = itertools.count(1000)
_strokes = itertools.count(1)


def new_stroke() -> int:
    """A fresh stroke id: commands of one drag share it and merge."""
    return next(_strokes)


def notify(gmap: GameMap, layer: str, cells) -> None:
    # GameMap has no public "touched" call for edits made on its objects (site fields,
    # labels); its own notifier keeps every view in step.
    gmap._changed(layer, list(cells))


class MapCommand(QUndoCommand):
    ID: int = -1

    def __init__(self, gmap: GameMap, text: str, stroke: int | None = None):
        super().__init__(text)
        self.gmap = gmap
        self.stroke = stroke

    def id(self) -> int:
        return self.ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        if type(other) is not type(self) or other.stroke != self.stroke or self.stroke is None:
            return False
        return self.merge(other)

    def merge(self, other: MapCommand) -> bool:
        return False


class PaintTerrain(MapCommand):
    """Set terrain on cells (brush stroke, line, fill, random fill, paste, cut)."""

    ID = next(_ids)

    def __init__(self, gmap: GameMap, changes: dict[int, str], text: str = "Paint terrain",
                 stroke: int | None = None):
        super().__init__(gmap, text, stroke)
        self.new: dict[int, str] = dict(changes)
        self.old: dict[int, str] = {}

    def redo(self) -> None:
        cells = list(self.new)
        old = self.gmap.set_terrain(cells, [self.new[c] for c in cells])
        for c, t in old.items():
            self.old.setdefault(c, t)

    def undo(self) -> None:
        cells = list(self.old)
        self.gmap.set_terrain(cells, [self.old[c] for c in cells])

    def merge(self, other: PaintTerrain) -> bool:
        self.new.update(other.new)
        for c, t in other.old.items():
            self.old.setdefault(c, t)
        return True


class PaintArea(MapCommand):
    """Assign cells to a named area, or (name None) take them out of any area."""

    ID = next(_ids)

    def __init__(self, gmap: GameMap, name: str | None, cells, stroke: int | None = None):
        super().__init__(gmap, f"Paint area {name}" if name else "Erase area", stroke)
        self.name = name
        self.cells = list(dict.fromkeys(int(c) for c in cells))
        self.old: dict[int, str | None] = {}

    def redo(self) -> None:
        if self.name is None:
            old = self.gmap.unpaint_area(self.cells)
        else:
            old = self.gmap.paint_area(self.name, self.cells)
        for c, prev in old.items():
            self.old.setdefault(c, prev)

    def undo(self) -> None:
        by_owner: dict[str | None, list[int]] = {}
        for c, prev in self.old.items():
            by_owner.setdefault(prev, []).append(c)
        if None in by_owner:
            self.gmap.unpaint_area(by_owner.pop(None))
        for owner, cells in sorted(by_owner.items()):
            self.gmap.paint_area(owner, cells)

    def merge(self, other: PaintArea) -> bool:
        if other.name != self.name:
            return False
        self.cells.extend(c for c in other.cells if c not in self.old)
        for c, prev in other.old.items():
            self.old.setdefault(c, prev)
        return True


class AddArea(MapCommand):
    def __init__(self, gmap: GameMap, name: str, kind: str = "region"):
        super().__init__(gmap, f"Add area {name}")
        self.name, self.kind = name, kind

    def redo(self) -> None:
        self.gmap.add_area(self.name, self.kind)

    def undo(self) -> None:
        self.gmap.remove_area(self.name)


class RemoveArea(MapCommand):
    def __init__(self, gmap: GameMap, name: str):
        super().__init__(gmap, f"Delete area {name}")
        self.name = name
        self.area: Area | None = None

    def redo(self) -> None:
        self.area = self.gmap.remove_area(self.name)

    def undo(self) -> None:
        a = self.area
        self.gmap.add_area(a.name, a.kind, a.cells, **a.attrs)


class RenameArea(MapCommand):
    """Rename an area (and its explicit adjacency edits), or change its kind."""

    def __init__(self, gmap: GameMap, old: str, new: str, kind: str | None = None):
        super().__init__(gmap, f"Rename area {old} to {new}")
        self.names = (old, new)
        self.kinds = (gmap.areas[old].kind, kind or gmap.areas[old].kind)

    def _apply(self, a: str, b: str, kind: str) -> None:
        area = self.gmap.remove_area(a)
        self.gmap.add_area(b, kind, area.cells, **area.attrs)
        for attr in ("adjacency_added", "adjacency_removed"):
            pairs = getattr(self.gmap, attr)
            setattr(self.gmap, attr, {tuple(sorted(b if n == a else n for n in p)) for p in pairs})
        notify(self.gmap, "areas", area.cells)

    def redo(self) -> None:
        self._apply(self.names[0], self.names[1], self.kinds[1])

    def undo(self) -> None:
        self._apply(self.names[1], self.names[0], self.kinds[0])


class SetAdjacency(MapCommand):
    """Make two regions neighbours (or not) whatever their painted borders say."""

    def __init__(self, gmap: GameMap, a: str, b: str, adjacent: bool):
        super().__init__(gmap, f"{'Connect' if adjacent else 'Disconnect'} {a} and {b}")
        self.a, self.b, self.adjacent = a, b, adjacent
        regions = gmap.regions()
        self.before = regions.are_neighbours(regions.parse(a), regions.parse(b))

    def redo(self) -> None:
        self.gmap.set_adjacent(self.a, self.b, self.adjacent)

    def undo(self) -> None:
        self.gmap.set_adjacent(self.a, self.b, self.before)


class SetLinks(MapCommand):
    """Add or remove links of one kind (river, road) between neighbouring cells."""

    ID = next(_ids)

    def __init__(self, gmap: GameMap, kind: str, pairs, remove: bool = False,
                 stroke: int | None = None):
        super().__init__(gmap, f"{'Erase' if remove else 'Draw'} {kind}", stroke)
        self.kind, self.remove = kind, remove
        self.pairs = [(int(a), int(b)) for a, b in pairs]
        self.done: list[tuple[int, int]] = []

    def redo(self) -> None:
        op = self.gmap.remove_link if self.remove else self.gmap.add_link
        done = [p for p in self.pairs if op(self.kind, *p)]
        self.done = list(dict.fromkeys(self.done + done))

    def undo(self) -> None:
        op = self.gmap.add_link if self.remove else self.gmap.remove_link
        for p in reversed(self.done):
            op(self.kind, *p)

    def merge(self, other: SetLinks) -> bool:
        if other.kind != self.kind or other.remove != self.remove:
            return False
        self.pairs.extend(other.pairs)
        self.done = list(dict.fromkeys(self.done + other.done))
        return True


class AddSite(MapCommand):
    def __init__(self, gmap: GameMap, cell: int, kind: str = "city", name: str = "",
                 attrs: dict[str, Any] | None = None):
        super().__init__(gmap, f"Place {kind} {name}".strip())
        self.cell, self.kind, self.name, self.attrs = cell, kind, name, dict(attrs or {})
        self.site_id = max(gmap.sites, default=0) + 1

    def redo(self) -> None:
        self.gmap.add_site(self.cell, self.kind, self.name, site_id=self.site_id, **self.attrs)

    def undo(self) -> None:
        self.gmap.remove_site(self.site_id)


class RemoveSite(MapCommand):
    def __init__(self, gmap: GameMap, site_id: int):
        site = gmap.sites[site_id]
        super().__init__(gmap, f"Delete {site.kind} {site.name}".strip())
        self.site_id = site_id
        self.site: Site | None = None

    def redo(self) -> None:
        self.site = self.gmap.remove_site(self.site_id)

    def undo(self) -> None:
        s = self.site
        self.gmap.add_site(s.cell, s.kind, s.name, site_id=s.id, **s.attrs)


class MoveSite(MapCommand):
    def __init__(self, gmap: GameMap, site_id: int, cell: int):
        site = gmap.sites[site_id]
        super().__init__(gmap, f"Move {site.kind} {site.name}".strip())
        self.site_id, self.to, self.came_from = site_id, cell, site.cell

    def redo(self) -> None:
        self.gmap.move_site(self.site_id, self.to)

    def undo(self) -> None:
        self.gmap.move_site(self.site_id, self.came_from)


class EditSite(MapCommand):
    """Change a site's name, kind and attributes (size, population, free keys)."""

    def __init__(self, gmap: GameMap, site_id: int, name: str, kind: str, attrs: dict[str, Any]):
        site = gmap.sites[site_id]
        super().__init__(gmap, f"Edit {site.kind} {name}".strip())
        self.site_id = site_id
        self.new = (name, kind, dict(attrs))
        self.old = (site.name, site.kind, dict(site.attrs))

    def _apply(self, values: tuple[str, str, dict[str, Any]]) -> None:
        site = self.gmap.sites[self.site_id]
        site.name, site.kind, site.attrs = values[0], values[1], dict(values[2])
        notify(self.gmap, "sites", [site.cell])

    def redo(self) -> None:
        self._apply(self.new)

    def undo(self) -> None:
        self._apply(self.old)


class AddLabel(MapCommand):
    def __init__(self, gmap: GameMap, text: str, x: float, y: float, size: float = 1.0):
        super().__init__(gmap, f"Add label {text}")
        self.label = Label(text, x, y, size)

    def redo(self) -> None:
        self.gmap.labels.append(self.label)
        notify(self.gmap, "labels", [])

    def undo(self) -> None:
        self.gmap.labels.remove(self.label)
        notify(self.gmap, "labels", [])


class RemoveLabel(MapCommand):
    def __init__(self, gmap: GameMap, label: Label):
        super().__init__(gmap, f"Delete label {label.text}")
        self.label = label
        self.index = gmap.labels.index(label)

    def redo(self) -> None:
        self.gmap.labels.remove(self.label)
        notify(self.gmap, "labels", [])

    def undo(self) -> None:
        self.gmap.labels.insert(self.index, self.label)
        notify(self.gmap, "labels", [])


class EditLabel(MapCommand):
    """Change a label's text or move it."""

    def __init__(self, gmap: GameMap, label: Label, text: str, x: float, y: float):
        super().__init__(gmap, f"Edit label {text}")
        self.label = label
        self.new = (text, x, y)
        self.old = (label.text, label.x, label.y)

    def _apply(self, v: tuple[str, float, float]) -> None:
        self.label.text, self.label.x, self.label.y = v
        notify(self.gmap, "labels", [])

    def redo(self) -> None:
        self._apply(self.new)

    def undo(self) -> None:
        self._apply(self.old)
