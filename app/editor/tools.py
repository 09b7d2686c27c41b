"""Editing tools. The canvas sends each a cell (or None off the map) on press, move and
release; tools push undo commands on the editor's stack and never touch the map directly."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from app.canvas import geometry as geo
from app.editor import commands as cmd
from app.editor.clipboard import CellClipboard
from engine.dice import Dice
from engine.topology import HexGrid

LEFT, RIGHT = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
HEX_BRUSH_CELLS = (1, 7, 19, 37)


def brush_cells(gmap, cell: int, size: int) -> list[int]:
    """Hex: radius `size` (1, 7, 19, 37 cells for 0..3). Square: a size x size block."""
    grid = gmap.grid
    if isinstance(grid, HexGrid):
        return grid.within(cell, max(0, min(size, 3)))
    side = max(1, min(size, 9))
    x, y = cell % grid.width, cell // grid.width
    lo = -(side // 2)
    out = []
    for dy in range(lo, lo + side):
        for dx in range(lo, lo + side):
            c = grid.cell(x + dx, y + dy)
            if c is not None:
                out.append(c)
    return out


def _button(event) -> Qt.MouseButton:
    return event.button() if event is not None else LEFT


class Tool:
    name = "tool"
    label = "Tool"
    shortcut = ""
    tip = ""

    def __init__(self, editor):
        self.editor = editor

    @property
    def gmap(self):
        return self.editor.gmap

    def activate(self) -> None:
        self.editor.scene.preview.set_cells([])

    def deactivate(self) -> None:
        self.editor.scene.preview.set_cells([])

    def press(self, cell: int | None, event) -> None: ...
    def move(self, cell: int | None, event) -> None:
        self.hover(cell)

    def release(self, cell: int | None, event) -> None: ...

    def hover(self, cell: int | None) -> None:
        self.editor.scene.preview.set_cells([] if cell is None else self.preview(cell))

    def preview(self, cell: int) -> list[int]:
        return [cell]

    def key(self, event) -> bool:
        return False


class BrushTool(Tool):
    """Paint terrain; a drag is one undo step; right click picks the terrain under the cursor."""

    name, label, shortcut = "brush", "Brush", "B"
    tip = "Paint terrain (right click: pick terrain)"

    def __init__(self, editor):
        super().__init__(editor)
        self.stroke: int | None = None
        self.last: int | None = None

    def preview(self, cell: int) -> list[int]:
        return brush_cells(self.gmap, cell, self.editor.brush_size)

    def press(self, cell, event) -> None:
        if cell is None:
            return
        if _button(event) == RIGHT:
            self.editor.set_terrain(self.gmap.terrain_at(cell))
            return
        self.stroke = cmd.new_stroke()
        self.last = cell
        self._paint([cell])

    def move(self, cell, event) -> None:
        self.hover(cell)
        if self.stroke is not None and cell is not None and cell != self.last:
            path = geo.line_cells(self.gmap.grid, self.last, cell) if self.last is not None else [cell]
            self.last = cell
            self._paint(path[1:] or [cell])

    def release(self, cell, event) -> None:
        self.stroke = None
        self.last = None

    def _paint(self, centres: list[int]) -> None:
        cells: dict[int, str] = {}
        for c in centres:
            for b in brush_cells(self.gmap, c, self.editor.brush_size):
                cells[b] = self.editor.terrain
        changes = {c: t for c, t in cells.items() if self.gmap.terrain_at(c) != t}
        if changes:
            self.editor.push(cmd.PaintTerrain(self.gmap, changes, "Brush stroke", self.stroke))


class LineTool(Tool):
    name, label, shortcut = "line", "Line", "L"
    tip = "Drag a straight line of terrain"

    def __init__(self, editor):
        super().__init__(editor)
        self.start: int | None = None

    def _cells(self, end: int) -> list[int]:
        out: dict[int, None] = {}
        for c in geo.line_cells(self.gmap.grid, self.start, end):
            out.update(dict.fromkeys(brush_cells(self.gmap, c, self.editor.brush_size)))
        return list(out)

    def press(self, cell, event) -> None:
        self.start = cell

    def move(self, cell, event) -> None:
        if self.start is not None and cell is not None:
            self.editor.scene.preview.set_cells(self._cells(cell))
        else:
            self.hover(cell)

    def release(self, cell, event) -> None:
        if self.start is not None and cell is not None:
            t = self.editor.terrain
            changes = {c: t for c in self._cells(cell) if self.gmap.terrain_at(c) != t}
            if changes:
                self.editor.push(cmd.PaintTerrain(self.gmap, changes, "Line"))
        self.start = None
        self.hover(cell)


class FillTool(Tool):
    """Flood fill (or fill the selection when clicking inside it) with one terrain, or at
    random from the palette: 'random' uses every ticked terrain equally, 'weighted' uses
    the palette weights. Random fills are seeded and repeatable."""

    name, label, shortcut = "fill", "Fill", "G"
    tip = "Fill connected cells of one terrain (or the selection)"

    def target(self, cell: int) -> np.ndarray:
        sel = self.editor.selection
        if len(sel) and cell in set(sel.tolist()):
            return sel
        t = self.gmap.terrain
        return geo.flood(self.editor.neighbours(), cell, t == t[cell])

    def press(self, cell, event) -> None:
        if cell is None:
            return
        cells = self.target(cell)
        names = self.editor.fill_terrains(len(cells))
        changes = {int(c): n for c, n in zip(cells, names, strict=True)
                   if self.gmap.terrain_at(int(c)) != n}
        if changes:
            self.editor.push(cmd.PaintTerrain(self.gmap, changes, f"{self.editor.fill_mode.title()} fill"))


def random_terrains(n: int, weights: dict[str, float], seed: int | str, counter: int) -> list[str]:
    """n terrain names drawn by weight through engine.dice (same seed, same cells)."""
    items = sorted((k, float(w)) for k, w in weights.items() if w > 0)
    if not items:
        return []
    scale = 1000
    cum = np.cumsum([max(1, round(w * scale)) for _, w in items])
    dice = Dice(seed, "map-editor-fill", counter)
    rolls = np.array([dice.d(int(cum[-1])) for _ in range(n)])
    idx = np.searchsorted(cum, rolls, side="left")
    return [items[i][0] for i in idx]


class SelectTool(Tool):
    """Rectangle selection; Shift adds, Ctrl removes."""

    name, label, shortcut = "select", "Select", "S"
    tip = "Select a rectangle of cells (Shift adds, Ctrl removes)"

    def __init__(self, editor):
        super().__init__(editor)
        self.origin = None
        self.mods = Qt.KeyboardModifier.NoModifier

    def press(self, cell, event) -> None:
        self.origin = self.editor.canvas.scene_pos(event) if event is not None else None
        self.mods = event.modifiers() if event is not None else Qt.KeyboardModifier.NoModifier

    def _rect_cells(self, event) -> np.ndarray:
        p = self.editor.canvas.scene_pos(event)
        pad = 0.3  # a thin drag still takes the cells it passes over
        x0, x1 = sorted((self.origin.x(), p.x()))
        y0, y1 = sorted((self.origin.y(), p.y()))
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        cells = geo.cells_in_rect(self.gmap.grid, x0, y0, x1, y1, centre_inside=True)
        if not len(cells):
            c = geo.cell_at(self.gmap.grid, p.x(), p.y())
            cells = np.array([] if c is None else [c], dtype=np.int64)
        return cells

    def move(self, cell, event) -> None:
        if self.origin is not None and event is not None:
            self.editor.scene.preview.set_cells(self._rect_cells(event))
        else:
            self.hover(cell)

    def release(self, cell, event) -> None:
        if self.origin is None or event is None:
            return
        self.editor.combine_selection(self._rect_cells(event), self.mods)
        self.origin = None
        self.editor.scene.preview.set_cells([])


class WandTool(Tool):
    """Magic wand: select the connected cells of the clicked cell's terrain."""

    name, label, shortcut = "wand", "Magic wand", "W"
    tip = "Select connected cells of one terrain (Shift adds, Ctrl removes)"

    def press(self, cell, event) -> None:
        if cell is None:
            return
        t = self.gmap.terrain
        cells = geo.flood(self.editor.neighbours(), cell, t == t[cell])
        mods = event.modifiers() if event is not None else Qt.KeyboardModifier.NoModifier
        self.editor.combine_selection(cells, mods)


class PasteTool(Tool):
    """Stamp the clipboard; R rotates (60 degrees on hex, 90 on square), F flips, Esc ends."""

    name, label, shortcut = "paste", "Paste", ""
    tip = "Click to paste; R rotate, F flip, Esc to stop"

    def preview(self, cell: int) -> list[int]:
        clip: CellClipboard = self.editor.clipboard
        return list(clip.placed(self.gmap, cell)) if clip else [cell]

    def press(self, cell, event) -> None:
        if cell is None or not self.editor.clipboard:
            return
        if _button(event) == RIGHT:
            self.editor.set_tool("select")
            return
        placed = self.editor.clipboard.placed(self.gmap, cell)
        changes = {c: t for c, t in placed.items() if self.gmap.terrain_at(c) != t}
        if changes:
            self.editor.push(cmd.PaintTerrain(self.gmap, changes, "Paste"))

    def key(self, event) -> bool:
        k = event.key()
        if k == Qt.Key.Key_R:
            self.editor.rotate_clipboard()
        elif k == Qt.Key.Key_F:
            self.editor.flip_clipboard()
        elif k == Qt.Key.Key_Escape:
            self.editor.set_tool("select")
        else:
            return False
        return True


class LinkTool(Tool):
    """Drag across neighbouring cells to lay a river or road; right drag (or erase mode) removes."""

    label, shortcut = "Link", ""

    def __init__(self, editor, kind: str):
        super().__init__(editor)
        self.kind = kind
        self.name = kind
        self.label = kind.title()
        self.shortcut = {"river": "V", "road": "D"}.get(kind, "")
        self.tip = f"Drag across cells to draw a {kind} (right drag erases)"
        self.stroke: int | None = None
        self.last: int | None = None
        self.erase = False

    def press(self, cell, event) -> None:
        if cell is None:
            return
        self.erase = _button(event) == RIGHT or self.editor.link_erase
        self.stroke = cmd.new_stroke()
        self.last = cell

    def move(self, cell, event) -> None:
        self.hover(cell)
        if self.stroke is None or cell is None or cell == self.last:
            return
        path = geo.line_cells(self.gmap.grid, self.last, cell)
        pairs = [(a, b) for a, b in zip(path, path[1:], strict=False)
                 if self.gmap.grid.are_neighbours(a, b)]
        self.last = cell
        if self.erase:
            pairs = [p for p in pairs if self.gmap.has_link(self.kind, *p)]
        else:
            pairs = [p for p in pairs if not self.gmap.has_link(self.kind, *p)]
        if pairs:
            self.editor.push(cmd.SetLinks(self.gmap, self.kind, pairs, self.erase, self.stroke))

    def release(self, cell, event) -> None:
        self.stroke = None
        self.last = None


class SiteTool(Tool):
    """Click an empty cell to place a site, click a site to edit it, drag it to move it;
    right click or Delete removes it."""

    name, label, shortcut = "site", "Sites", "C"
    tip = "Place, select, move (drag) and delete (right click, Del) sites"

    def __init__(self, editor):
        super().__init__(editor)
        self.dragging: int | None = None
        self.start: int | None = None

    def press(self, cell, event) -> None:
        if cell is None:
            return
        here = self.gmap.sites_at(cell)
        if _button(event) == RIGHT:
            if here:
                self.editor.push(cmd.RemoveSite(self.gmap, here[-1].id))
                self.editor.select_site(None)
            return
        if here:
            self.dragging, self.start = here[-1].id, cell
            self.editor.select_site(here[-1].id)
            return
        kind = self.editor.site_kind
        n = sum(1 for s in self.gmap.sites.values() if s.kind == kind) + 1
        c = cmd.AddSite(self.gmap, cell, kind, f"{kind.title()} {n}")
        self.editor.push(c)
        self.editor.select_site(c.site_id)

    def release(self, cell, event) -> None:
        if self.dragging is not None and cell is not None and cell != self.start \
                and self.dragging in self.gmap.sites:
            self.editor.push(cmd.MoveSite(self.gmap, self.dragging, cell))
        self.dragging = None

    def key(self, event) -> bool:
        sid = self.editor.selected_site
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and sid in self.gmap.sites:
            self.editor.push(cmd.RemoveSite(self.gmap, sid))
            self.editor.select_site(None)
            return True
        return False


class AreaTool(Tool):
    """Paint the current area over cells with the brush; right drag takes cells out of areas."""

    name, label, shortcut = "area", "Areas", "A"
    tip = "Paint the chosen area (right drag erases); pick or add areas in the Areas panel"

    def __init__(self, editor):
        super().__init__(editor)
        self.stroke: int | None = None
        self.erase = False
        self.last: int | None = None

    def preview(self, cell: int) -> list[int]:
        return brush_cells(self.gmap, cell, self.editor.brush_size)

    def press(self, cell, event) -> None:
        if cell is None:
            return
        self.erase = _button(event) == RIGHT
        if not self.erase and self.editor.current_area not in self.gmap.areas:
            owner = self.gmap.area_of(cell)
            if owner is not None:
                self.editor.select_area(owner.name)
            else:
                self.editor.status("Add or pick an area in the Areas panel first")
            return
        self.stroke = cmd.new_stroke()
        self.last = cell
        self._paint([cell])

    def move(self, cell, event) -> None:
        self.hover(cell)
        if self.stroke is not None and cell is not None and cell != self.last:
            path = geo.line_cells(self.gmap.grid, self.last, cell)
            self.last = cell
            self._paint(path[1:])

    def release(self, cell, event) -> None:
        self.stroke = None

    def _paint(self, centres: list[int]) -> None:
        cells: dict[int, None] = {}
        for c in centres:
            cells.update(dict.fromkeys(brush_cells(self.gmap, c, self.editor.brush_size)))
        owner = self.gmap.area_index()
        name = None if self.erase else self.editor.current_area
        todo = [c for c in cells if owner.get(c) != name]
        if todo:
            self.editor.push(cmd.PaintArea(self.gmap, name, todo, self.stroke))


class LabelTool(Tool):
    """Click to add a text label; click a label to edit its text, drag it to move it;
    right click near a label deletes it."""

    name, label, shortcut = "label", "Labels", "T"
    tip = "Click: add a label or edit one; drag a label to move it; right click deletes"

    def __init__(self, editor):
        super().__init__(editor)
        self.grabbed = None
        self.origin = None

    def nearest(self, x: float, y: float):
        best = min(self.gmap.labels, default=None,
                   key=lambda lb: (lb.x - x) ** 2 + (lb.y - y) ** 2)
        reach = 1.5 * geo.cell_extent(self.gmap.grid)
        if best is not None and (best.x - x) ** 2 + (best.y - y) ** 2 < reach ** 2:
            return best
        return None

    def press(self, cell, event) -> None:
        p = self.editor.canvas.scene_pos(event)
        near = self.nearest(p.x(), p.y())
        if _button(event) == RIGHT:
            if near is not None:
                self.editor.push(cmd.RemoveLabel(self.gmap, near))
            return
        self.grabbed, self.origin = near, p

    def release(self, cell, event) -> None:
        p = self.editor.canvas.scene_pos(event)
        lb, self.grabbed = self.grabbed, None
        if self.origin is None or _button(event) == RIGHT:
            return
        moved = (p.x() - self.origin.x()) ** 2 + (p.y() - self.origin.y()) ** 2 > 0.04
        if lb is not None and moved:
            self.editor.push(cmd.EditLabel(self.gmap, lb, lb.text, lb.x + p.x() - self.origin.x(),
                                           lb.y + p.y() - self.origin.y()))
        elif lb is not None:
            text = self.editor.ask_text("Edit label", "Text:", lb.text)
            if text and text != lb.text:
                self.editor.push(cmd.EditLabel(self.gmap, lb, text, lb.x, lb.y))
        else:
            text = self.editor.ask_text("New label", "Text:")
            if text:
                self.editor.push(cmd.AddLabel(self.gmap, text, p.x(), p.y(), 1.5))
        self.origin = None
