"""The map editor workspace: canvas, tools, panels and the undo stack of one map."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoStack
from PySide6.QtWidgets import QDockWidget, QInputDialog, QMainWindow, QToolBar, QUndoView, QWidget

from app.canvas import geometry as geo
from app.canvas.minimap import Minimap
from app.canvas.scene import MapScene
from app.canvas.view import MapCanvas
from app.editor import commands as cmd
from app.editor import tools as T
from app.editor.clipboard import CellClipboard
from app.editor.panels import AreaPanel, LayersPanel, SitePanel, TerrainPanel, ToolOptions
from app.icons import icon
from engine.map import GameMap, new_map


class MapEditor(QMainWindow):
    """Not a top-level window: a QMainWindow used as a widget so panels can dock."""

    statusMessage = Signal(str)  # noqa: N815
    mapReplaced = Signal()  # noqa: N815

    def __init__(self, parent: QWidget | None = None, gmap: GameMap | None = None):
        super().__init__(parent)
        self.setObjectName("mapEditor")
        self.gmap: GameMap = gmap or new_map("hex", 40, 30, "ocean")
        self.scene: MapScene | None = None
        self.stack = QUndoStack(self)
        self.canvas = MapCanvas(self)
        self.setCentralWidget(self.canvas)
        # editor state the tools read
        self.terrain = "plains"
        self.brush_size = 0
        self.fill_mode = "single"
        self.weights: dict[str, float] = {}
        self.seed = 0
        self.fill_counter = 0
        self.link_erase = False
        self.site_kind = "city"
        self.selected_site: int | None = None
        self.current_area: str | None = None
        self.selection = np.zeros(0, dtype=np.int64)
        self.clipboard = CellClipboard(False)
        self._neighbours: np.ndarray | None = None
        self.tools: dict[str, T.Tool] = {}
        for tool in (T.BrushTool(self), T.LineTool(self), T.FillTool(self), T.SelectTool(self),
                     T.WandTool(self), T.LinkTool(self, "river"), T.LinkTool(self, "road"),
                     T.SiteTool(self), T.AreaTool(self), T.LabelTool(self), T.PasteTool(self)):
            self.tools[tool.name] = tool
        self.tool: T.Tool | None = None
        self._build_panels()
        self._build_toolbar()
        self._panel_timer = QTimer(self)
        self._panel_timer.setSingleShot(True)
        self._panel_timer.setInterval(0)
        self._panel_timer.timeout.connect(self._refresh_panels)
        self._changed_layers: set[str] = set()  # map layers changed since the panels' refresh
        self.set_map(self.gmap)
        self.set_tool("brush")

    # ---- building -------------------------------------------------------------------

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _build_panels(self) -> None:
        from PySide6.QtCore import Qt

        right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
        self.minimap = Minimap(self.canvas)
        self.terrain_panel = TerrainPanel(self)
        self.options = ToolOptions(self)
        self.site_panel = SitePanel(self)
        self.area_panel = AreaPanel(self)
        self.layers_panel = LayersPanel(self)
        self.undo_view = QUndoView(self.stack)
        self.undo_view.setEmptyLabel("<opened map>")
        d_min = self._dock("Minimap", self.minimap, right, "dockMinimap")
        d_site = self._dock("Site", self.site_panel, right, "dockSite")
        d_area = self._dock("Areas", self.area_panel, right, "dockAreas")
        d_lay = self._dock("Layers", self.layers_panel, right, "dockLayers")
        d_undo = self._dock("History", self.undo_view, right, "dockHistory")
        d_ter = self._dock("Terrain", self.terrain_panel, left, "dockTerrain")
        d_opt = self._dock("Tool options", self.options, left, "dockOptions")
        for d in (d_area, d_lay, d_undo):
            self.tabifyDockWidget(d_site, d)
        d_site.raise_()
        self._sized = False
        self.docks = [d_min, d_ter, d_opt, d_site, d_area, d_lay, d_undo]

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if not self._sized:  # dock sizes only stick once the window has a size
            self._sized = True
            from PySide6.QtCore import Qt

            d_min, d_ter, d_opt, d_site = self.docks[:4]
            self.resizeDocks([d_min, d_site], [210, max(300, self.height() - 260)],
                             Qt.Orientation.Vertical)
            self.resizeDocks([d_ter, d_opt], [max(200, self.height() - 230), 200],
                             Qt.Orientation.Vertical)
            self.resizeDocks([d_ter, d_min], [230, 270], Qt.Orientation.Horizontal)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Tools", self)
        bar.setObjectName("toolsBar")
        self.addToolBar(bar)
        group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.tools.items():
            if name == "paste":
                continue
            a = QAction(icon(name), tool.label, self)
            a.setCheckable(True)
            tip = tool.tip + (f" ({tool.shortcut})" if tool.shortcut else "")
            a.setToolTip(tip)
            a.setStatusTip(tip)
            if tool.shortcut:
                a.setShortcut(QKeySequence(tool.shortcut))
            a.triggered.connect(lambda _=False, n=name: self.set_tool(n))
            group.addAction(a)
            bar.addAction(a)
            self.tool_actions[name] = a
        bar.addSeparator()
        self.layer_actions: dict[str, QAction] = {}
        for layer, label, tip in (("coords", "Coordinates", "Show each cell's coordinates (Ctrl+K)"),
                                  ("grid", "Grid", "Show the cell grid (Ctrl+Shift+G)")):
            a = QAction(icon(layer), label, self)
            a.setCheckable(True)
            a.setToolTip(tip)
            a.setStatusTip(tip)
            a.toggled.connect(lambda on, n=layer: self._show_layer(n, on))
            bar.addAction(a)
            self.layer_actions[layer] = a

    def _show_layer(self, name: str, on: bool) -> None:
        if self.scene is not None and self.scene.layer_visible(name) != on:
            self.scene.set_layer_visible(name, on)
            self.layers_panel.refresh()

    def sync_layer_actions(self) -> None:
        """The toolbar's layer toggles follow the layers (changed from the menu or panel)."""
        for name, a in getattr(self, "layer_actions", {}).items():
            a.blockSignals(True)
            a.setChecked(self.scene is not None and self.scene.layer_visible(name))
            a.blockSignals(False)

    # ---- the map ---------------------------------------------------------------------

    def set_map(self, gmap: GameMap) -> None:
        if self.scene is not None:
            self.scene.detach()
            self.scene.signals.changed.disconnect(self._map_changed)
        self.gmap = gmap
        self.stack.clear()
        self._neighbours = None
        self.selection = np.zeros(0, dtype=np.int64)
        self.selected_site = None
        self.current_area = None
        old = self.scene
        self.scene = MapScene(gmap, self)
        self.scene.signals.changed.connect(self._map_changed)
        self.canvas.set_map_scene(self.scene)
        if old is not None:
            old.deleteLater()
        self.minimap.attach()
        self.clipboard = CellClipboard.copy(gmap, [])
        if self.terrain not in gmap.terrains:
            self.terrain = gmap.terrains[min(1, len(gmap.terrains) - 1)] if len(gmap.terrains) > 1 \
                else "plains"
        self.options.refresh()
        self.terrain_panel.refresh()
        self.layers_panel.refresh()
        self.sync_layer_actions()
        self.site_panel.show_site(None)
        self.area_panel.refresh()
        self.mapReplaced.emit()

    def neighbours(self) -> np.ndarray:
        if self._neighbours is None:
            self._neighbours = geo.neighbour_table(self.gmap.grid)
        return self._neighbours

    def _map_changed(self, layer: str, cells) -> None:
        self._changed_layers.add(layer)
        self._panel_timer.start()

    def _refresh_panels(self) -> None:
        changed, self._changed_layers = self._changed_layers, set()
        self.terrain_panel.refresh()
        if changed & {"areas", "reset"}:  # rebuilding the area list costs ~9 ms at 175 areas
            self.area_panel.refresh()
        if self.site_panel.site_id is not None or self.selected_site is not None:
            self.site_panel.show_site(self.selected_site)
        self.scene.sites.selected = self.selected_site

    # ---- state the tools use ------------------------------------------------------------

    def push(self, command: cmd.MapCommand) -> None:
        self.stack.push(command)

    def status(self, text: str) -> None:
        self.statusMessage.emit(text)

    def set_tool(self, name: str) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = self.tools[name]
        self.canvas.tool = self.tool
        self.tool.activate()
        if name in self.tool_actions:
            self.tool_actions[name].setChecked(True)
        self.status(self.tool.tip)

    def set_terrain(self, name: str) -> None:
        self.terrain = name
        self.terrain_panel.show_current()
        self.status(f"Terrain: {name}")

    def fill_terrains(self, n: int) -> list[str]:
        """What a fill of n cells paints, by the fill mode (random modes are seeded)."""
        if self.fill_mode == "single":
            return [self.terrain] * n
        weights = {k: w for k, w in self.weights.items() if w > 0}
        if not weights:
            weights = {self.terrain: 1.0}
        if self.fill_mode == "random":
            weights = dict.fromkeys(weights, 1.0)
        self.fill_counter += 1
        return T.random_terrains(n, weights, self.seed, self.fill_counter)

    def select_site(self, site_id: int | None) -> None:
        self.selected_site = site_id
        self.scene.sites.selected = site_id
        self.scene.sites.update()
        self.site_panel.show_site(site_id)
        if site_id is not None:
            for d in self.docks:
                if d.widget() is self.site_panel:
                    d.raise_()

    def select_area(self, name: str | None) -> None:
        self.current_area = name
        self.scene.areas.selected = name
        self.scene.areas.update()
        self.area_panel.refresh()

    def set_layer_visible(self, name: str, on: bool) -> None:
        self.scene.set_layer_visible(name, on)
        self.sync_layer_actions()

    def ask_text(self, title: str, prompt: str, text: str = "") -> str:
        text, ok = QInputDialog.getText(self, title, prompt, text=text)
        return text.strip() if ok else ""

    # ---- selection and clipboard -----------------------------------------------------------

    def set_selection(self, cells) -> None:
        self.selection = geo.unique_cells(cells, len(self.gmap.grid))
        self.scene.selection.set_cells(self.selection)
        self.status(f"{len(self.selection)} cells selected")

    def combine_selection(self, cells, mods) -> None:
        from PySide6.QtCore import Qt

        if mods & Qt.KeyboardModifier.ShiftModifier:
            cells = np.concatenate([self.selection, np.asarray(cells, dtype=np.int64)])
        elif mods & Qt.KeyboardModifier.ControlModifier:
            keep = np.zeros(len(self.gmap.grid), dtype=bool)
            keep[self.selection] = True
            keep[np.asarray(cells, dtype=np.int64)] = False
            cells = np.flatnonzero(keep)
        self.set_selection(cells)

    def select_all(self) -> None:
        self.set_selection(np.arange(len(self.gmap.grid)))

    def select_none(self) -> None:
        self.set_selection([])

    def copy(self) -> bool:
        if not len(self.selection):
            self.status("Select cells first (Select or Magic wand tool)")
            return False
        self.clipboard = CellClipboard.copy(self.gmap, self.selection)
        self.status(f"Copied {len(self.clipboard.cells)} cells")
        return True

    def cut(self) -> None:
        """Copy, then paint the selection with the map's background terrain."""
        if self.copy():
            bg = self.gmap.terrains[0]
            changes = {int(c): bg for c in self.selection if self.gmap.terrain_at(int(c)) != bg}
            if changes:
                self.push(cmd.PaintTerrain(self.gmap, changes, "Cut"))

    def paste(self) -> None:
        if not self.clipboard:
            self.status("Nothing copied yet")
            return
        self.set_tool("paste")
        self.status("Click to paste; R rotates, F flips, Esc stops")

    def rotate_clipboard(self) -> None:
        self.clipboard.rotate(1)
        self.tool.hover(self.canvas._last_cell) if self.tool else None

    def flip_clipboard(self) -> None:
        self.clipboard.flip()
        self.tool.hover(self.canvas._last_cell) if self.tool else None

    def delete_selection(self) -> None:
        if len(self.selection):
            bg = self.gmap.terrains[0]
            changes = {int(c): bg for c in self.selection if self.gmap.terrain_at(int(c)) != bg}
            if changes:
                self.push(cmd.PaintTerrain(self.gmap, changes, "Clear selection"))
