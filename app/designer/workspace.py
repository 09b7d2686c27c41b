"""ScenarioDesigner: the scenario workspace. Factions, options and one editor per catalog on
the left, the shared map canvas with the starts on the right, the problems list, the text
scenario file. Every edit is an undoable command saved to the game at once; while no turn
has been run, the game's start (state 0) is rebuilt from the edited scenario."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.canvas import geometry as geo
from app.canvas.scene import MapScene
from app.canvas.view import MapCanvas
from app.designer import commands as cmd
from app.designer.catalogs import CatalogPage
from app.designer.factions import FactionsPanel
from app.designer.game_panel import GamePanel
from app.designer.options import OptionsPanel
from app.designer.problems import ProblemsView
from app.designer.startmap import PlaceTool, StartsLayer
from app.icons import icon
from engine.map import Site
from engine.scenario import Faction
from engine.tables import TableError
from engine.validation import (
    ERROR,
    Problem,
    add_asset,
    asset_field,
    assets_of,
    position_field,
    remove_assets_at,
    starts_of,
    toggle_start,
    validate_scenario,
)

SCENARIO_FILTER = "Scenario files (*.toml);;All files (*)"


class ScenarioDesigner(QWidget):
    statusMessage = Signal(str)  # noqa: N815 (Qt naming)

    def __init__(self, window: Any = None, parent=None):
        super().__init__(parent)
        self.setObjectName("scenarioDesigner")
        self.window_ = window
        self.service: Any = None
        self.owned = False
        self.scen: Any = None
        self.rs: Any = None
        self.derived_start = False
        self._given_start = None
        self._start_units: dict[int, list[str]] | None = None  # units_text's, per edit
        self.scene: MapScene | None = None
        self.starts: StartsLayer | None = None
        self.catalog_pages: dict[str, CatalogPage] = {}
        self.options_panel: OptionsPanel | None = None
        self.problems: list[Problem] = []
        self.stack = QUndoStack(self)
        self._revalidate_timer = QTimer(self)
        self._revalidate_timer.setSingleShot(True)
        self._revalidate_timer.setInterval(150)
        self._revalidate_timer.timeout.connect(self.revalidate)
        self._build()

    # ---- building ----------------------------------------------------------------------

    def _build(self) -> None:
        bar = QToolBar()
        bar.setObjectName("designerToolbar")
        self.toolbar = bar
        def act(name: str, text: str, fn, tip: str):
            a = bar.addAction(icon(name), text, fn)
            a.setToolTip(tip)
            a.setStatusTip(tip)
            return a

        act("new", "New game…", self.new_game_dialog, "Create a game from a ruleset and a map")
        act("open", "Open game…", self.open_game_dialog, "Open a game database")
        bar.addSeparator()
        act("import", "Import scenario…", self.import_dialog, "Read a scenario file into a new game")
        self.export_action = act("export", "Export scenario…", self.export_dialog,
                                 "Write this game's scenario as a text file")
        bar.addSeparator()
        self.undo_action = act("undo", "Undo", self.stack.undo, "Undo")
        self.redo_action = act("redo", "Redo", self.stack.redo, "Redo")
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.stack.canUndoChanged.connect(self.undo_action.setEnabled)
        self.stack.canRedoChanged.connect(self.redo_action.setEnabled)
        self.stack.undoTextChanged.connect(lambda t: _tip(self.undo_action, f"Undo {t}"))
        self.stack.redoTextChanged.connect(lambda t: _tip(self.redo_action, f"Redo {t}"))
        bar.addSeparator()
        act("check", "Check", self.revalidate, "Check the scenario for problems again")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for a in (self.undo_action, self.redo_action):  # icons alone: the bar fits 1280 pixels
            bar.widgetForAction(a).setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.game_label = QLabel("")
        self.game_label.setObjectName("designerGame")
        self.game_label.setContentsMargins(12, 0, 0, 0)
        bar.addWidget(self.game_label)

        self.pages = QStackedWidget()
        empty = QWidget()
        el = QVBoxLayout(empty)
        el.addStretch(1)
        msg = QLabel("<h2>Scenario designer</h2><p>Create a new game or open a game database to "
                     "design its factions, starts, catalogs and options.</p>")
        msg.setWordWrap(True)
        el.addWidget(msg)
        for text, fn in (("New game…", self.new_game_dialog), ("Open game…", self.open_game_dialog),
                         ("Import scenario file…", self.import_dialog)):
            b = QPushButton(text)
            b.clicked.connect(lambda _=False, fn=fn: fn())
            el.addWidget(b)
        el.addStretch(2)
        self.empty_page = empty
        self.pages.addWidget(empty)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("designerTabs")
        self.factions = FactionsPanel(self)
        self.game_panel = GamePanel(self)
        self.problems_view = ProblemsView(self)
        self.canvas = MapCanvas()
        self.canvas.setObjectName("designerCanvas")
        self.canvas.cellHovered.connect(self._hovered)
        self.map_hint = QLabel("")
        self.map_hint.setObjectName("mapHint")
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.canvas, 1)
        rl.addWidget(self.map_hint)
        split = QSplitter()
        split.addWidget(self.tabs)
        split.addWidget(right)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 4)
        split.setSizes([760, 600])
        self.splitter = split
        self.pages.addWidget(split)

        self.status_line = QLabel("")
        self.status_line.setObjectName("designerStatus")
        self.status_line.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(bar)
        lay.addWidget(self.pages, 1)
        lay.addWidget(self.status_line)
        self._enable(False)

    def _enable(self, on: bool) -> None:
        self.pages.setCurrentIndex(1 if on else 0)
        self.export_action.setEnabled(on)

    # ---- the main window -------------------------------------------------------------------

    def attach(self, window: Any) -> None:
        """Follow the main window's open document whenever this workspace is shown."""
        self.window_ = window
        window.tabs.currentChanged.connect(lambda _i: self.sync() if window.tabs.currentWidget() is self else None)
        self.statusMessage.connect(lambda t: window.statusBar().showMessage(t, 6000))
        window.editor.mapReplaced.connect(self.sync)  # another game or map was opened

    def sync(self) -> None:
        w = self.window_
        if w is None:
            return
        doc = getattr(w, "doc", None)
        svc = getattr(doc, "service", None) if doc is not None and doc.kind == "game" else None
        if svc is None:
            if self.service is not None and not self.owned:
                self.clear()
            return
        if svc is not self.service:
            self.set_service(svc, doc.gmap, owned=False)

    def clear(self) -> None:
        if self.owned and self.service is not None:
            self.service.close()
        self.service = self.scen = self.rs = None
        self.stack.clear()
        self.canvas.tool = None
        self._enable(False)
        self.game_label.setText("")

    # ---- loading a game ------------------------------------------------------------------

    def set_service(self, service: Any, gmap: Any = None, owned: bool = True) -> None:
        if self.owned and self.service is not None and self.service is not service:
            self.service.close()
        self.service, self.owned = service, owned
        self.rs = service.ruleset
        self.scen = service.scenario
        if gmap is not None:
            self.scen.map = gmap  # the map the editor shows: one map, not two copies
        self.derived_start = self._start_is_derived()
        self._given_start = None
        self._start_units = None
        self.stack.clear()
        self._build_tabs()
        self._build_map()
        turn = service.current_step
        note = ""
        if turn > 0:
            note = " — <i>turns have been run: edits to starts no longer change the game</i>"
        elif not self.derived_start:
            note = " — <i>the start comes from a scenario file's [state]; starts edited here are not applied to it</i>"
        self.game_label.setText(f"<b>{self.scen.name}</b> — {self.rs.title or self.rs.name}, "
                                f"seed {self.scen.seed}, turn {turn}{note}")
        self._enable(True)
        self.refresh_starts()
        self.revalidate()
        QTimer.singleShot(0, self.canvas.fit)

    def _start_is_derived(self) -> bool:
        """True when state 0 is what the ruleset builds from the scenario (then designer edits
        rebuild it); False after turns were run or when it came from a scenario file's [state]."""
        try:
            if self.service.current_step != 0:
                return False
            return self.rs.initial_state(self.scen).to_json() == self.service.state(0).to_json()
        except Exception:  # noqa: BLE001 (a start the ruleset cannot build: rebuild after fixes)
            return True

    def _build_tabs(self) -> None:
        while self.tabs.count():
            w = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if w not in (self.factions, self.problems_view, self.game_panel):
                w.deleteLater()
        self.tabs.addTab(self.game_panel, "Game")
        self.tabs.addTab(self.factions, "Factions")
        self.options_panel = OptionsPanel(self, self.scen.options)
        self.tabs.addTab(self.options_panel, "Options")
        self.catalog_pages = {}
        specs = self.rs.catalog_specs()
        for name, cat in self.scen.catalogs.items():
            page = CatalogPage(self, name, cat)
            self.catalog_pages[name] = page
            self.tabs.addTab(page, specs.get(name, cat.spec).title or name)
        self.tabs.addTab(self.problems_view, "Problems")
        self.factions.model.reset()
        self.game_panel.refresh()
        self.tabs.setCurrentWidget(self.factions)
        pf, af = position_field(self.rs), asset_field(self.rs)
        kinds = None
        if af is not None:
            cat = self.scen.catalogs.get(af.catalog)
            kinds = [str(r[af.catalog_key]) for r in cat.rows] if cat is not None else []
        where = {"cells": "click cells to add or take off", "cell": "click the cell",
                 "areas": "click inside an area to add or take it off",
                 "sites": "click cells to put or take off start sites"}[pf.form]
        hint = f"{pf.label}: select a faction, press Place, {where}."
        if af is not None:
            hint += f" {af.label}: Place units, click to add; right-click takes the faction's units off."
        self.factions.configure(pf.label, kinds, hint)
        if self.scen.factions:
            self.factions.select_number(self.scen.factions[0].number)

    def _build_map(self) -> None:
        if self.scene is not None:
            self.scene.detach()
        self.scene = MapScene(self.scen.map, self)
        self.starts = StartsLayer(self.scen.map)
        self.scene.addItem(self.starts)
        self.canvas.tool = None
        self.factions.uncheck()
        self.canvas.set_map_scene(self.scene)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.scene is not None:
            QTimer.singleShot(0, self.canvas.fit)

    # ---- messages ----------------------------------------------------------------------------

    def status(self, text: str, bad: bool = False) -> None:
        self.status_line.setText(text)
        self.status_line.setStyleSheet("color: #a4231a;" if bad else "")
        if text:
            self.statusMessage.emit(text)

    def _hovered(self, cell: int | None) -> None:
        if cell is None or self.scen is None:
            self.map_hint.setText("")
            return
        m = self.scen.map
        text = f"{m.grid.label(cell)}  {m.terrain_at(cell)}"
        area = m.area_of(cell)
        if area is not None:
            text += f"  [{area.name}]"
        owners = [f"{f.number} {f.name}" for f in self.scen.factions
                  if any(cell in s.cells for s in starts_of(self.scen, self.rs, f))]
        if owners:
            text += "  start of " + ", ".join(owners)
        self.map_hint.setText(text)

    # ---- edits: make a command (the refusals happen before) -------------------------------------

    def edit_row(self, name: str, index: int, old: dict, new: dict, text: str) -> None:
        self.stack.push(cmd.CatalogEdit(self, name, index, dict(old), dict(new), text))

    def insert_row(self, name: str, index: int, row: dict, text: str) -> None:
        self.stack.push(cmd.CatalogInsert(self, name, index, dict(row), text))

    def remove_row(self, name: str, index: int, text: str) -> None:
        row = self.scen.catalogs[name].rows[index]
        self.stack.push(cmd.CatalogRemove(self, name, index, dict(row), text))

    def edit_option(self, name: str, old: Any, new: Any, text: str) -> bool:
        try:
            new = self.scen.options.spec(name).column().coerce(new)
        except TableError as e:
            self.status(f"Option refused: {e}", True)
            self.options_panel.refresh(name)
            return False
        self.stack.push(cmd.OptionEdit(self, name, old, new, text))
        return True

    def edit_faction(self, old: Faction | None, new: Faction | None, text: str,
                     sites: tuple[list[Site], list[Site]] | None = None) -> None:
        self.stack.push(cmd.FactionEdit(self, old, new, text, sites))

    def edit_meta(self, key: str, old: Any, new: Any) -> None:
        self.stack.push(cmd.MetaEdit(self, key, old, new, f"game fact {key} = {new!r}"))

    # ---- applying (from commands: do, undo, redo) -------------------------------------------

    def apply_meta(self, key: str, value: Any) -> None:
        if value is None:
            self.scen.meta.pop(key, None)
        else:
            self.scen.meta[key] = value
        # set_meta merges; write the whole dict so an undone new fact really goes
        with self.service.store.transaction() as c:
            self.service.store.set_game(c, meta=dict(self.scen.meta))
        self.service._scenario = None
        self.game_panel.refresh()
        self._after_edit()

    def apply_row(self, name: str, index: int, row: dict) -> None:
        cat = self.scen.catalogs[name]
        cat.rows[index] = dict(row)
        self._save_catalog(name)
        page = self.catalog_pages.get(name)
        if page is not None:
            page.model.row_changed(index)
        self._after_edit()

    def apply_insert(self, name: str, index: int, row: dict) -> None:
        cat = self.scen.catalogs[name]
        page = self.catalog_pages.get(name)
        if page is not None:
            page.model.beginInsertRows(page.model.index(0, 0).parent(), index, index)
        cat.rows.insert(index, dict(row))
        if page is not None:
            page.model.endInsertRows()
            page.model.problems.clear()
            page.select_row(index)
        self._save_catalog(name)
        self._after_edit()

    def apply_remove(self, name: str, index: int) -> None:
        cat = self.scen.catalogs[name]
        page = self.catalog_pages.get(name)
        if page is not None:
            page.model.beginRemoveRows(page.model.index(0, 0).parent(), index, index)
        cat.rows.pop(index)
        if page is not None:
            page.model.endRemoveRows()
            page.model.problems.clear()
        self._save_catalog(name)
        self._after_edit()

    def _save_catalog(self, name: str) -> None:
        self.service.save_catalog(name, self.scen.catalogs[name])

    def apply_option(self, name: str, value: Any) -> None:
        self.scen.options.set(name, value)
        self.service.set_option(name, value)
        if self.options_panel is not None:
            self.options_panel.refresh(name)
        self._after_edit()

    def apply_faction(self, old: Faction | None, new: Faction | None,
                      sites: list[Site] | None = None) -> None:
        fs = self.scen.factions
        if old is not None:
            fs[:] = [f for f in fs if f.number != old.number]
            if new is None or new.number != old.number:
                self.service.remove_faction(old.number)
        if new is not None:
            fs.append(dataclasses.replace(new, attrs=_copy(new.attrs)))
            fs.sort(key=lambda f: f.number)
            self.service.upsert_faction(new)
        if sites is not None:
            self._set_start_sites(sites)
            self.service.save_map(self.scen.map)
        self.factions.model.reset()
        if new is not None:
            self.factions.select_number(new.number)
        self._after_edit()

    def _set_start_sites(self, sites: list[Site]) -> None:
        m = self.scen.map
        for s in [s for s in m.sites.values() if s.kind == "start"]:
            m.remove_site(s.id)
        for s in sites:
            site = m.add_site(s.cell, s.kind, s.name, site_id=s.id)
            site.attrs.update(s.attrs)

    def _after_edit(self) -> None:
        if self.derived_start:
            self._rebuild_start()
        self._start_units = None
        self.refresh_starts()
        self._revalidate_timer.start()

    def _rebuild_start(self) -> None:
        """State 0 again from the scenario (only before turn 1; see _start_is_derived)."""
        svc = self.service
        try:
            state = self.rs.initial_state(svc.scenario)
            state.step = 0
            with svc.store.transaction() as c:
                if int(svc.store.game(c).current_step) != 0:
                    self.derived_start = False
                    return
                svc.store.save_state(c, state)
        except Exception as e:  # noqa: BLE001 (an unfinished scenario: say so, keep editing)
            self.status(f"The start (turn 0) is not rebuilt yet: {type(e).__name__}: {e}", True)

    # ---- starts on the map -------------------------------------------------------------------------

    def set_place_mode(self, mode: str | None) -> None:
        self.canvas.tool = PlaceTool(self, mode) if mode else None
        if mode:
            f = self.factions.current()
            who = f"{f.number} {f.name}" if f else "(select a faction)"
            self.status(f"Placing {'starts' if mode == 'start' else 'units'} for faction {who}; "
                        "Esc stops")
        else:
            self.status("")

    def stop_placing(self) -> None:
        self.canvas.tool = None
        self.factions.uncheck()
        self.status("")

    def place_at(self, cell: int, mode: str, remove: bool = False) -> None:
        f = self.factions.current()
        if f is None:
            self.status("Select a faction in the list first", True)
            return
        label = self.scen.map.grid.label(cell)
        if mode == "start":
            if position_field(self.rs).form == "sites":
                before = [_site_copy(s) for s in self.scen.map.sites.values() if s.kind == "start"]
                toggle_start(self.scen, self.rs, f, cell)
                after = [_site_copy(s) for s in self.scen.map.sites.values() if s.kind == "start"]
                self._set_start_sites(before)  # the command applies it (and undoes it)
                self.edit_faction(f, f, f"faction {f.number}: start {label}", (before, after))
            else:
                new = toggle_start(self.scen, self.rs, f, cell)
                if new.attrs != f.attrs:
                    self.edit_faction(f, new, f"faction {f.number}: start {label}")
            return
        if remove:
            new = remove_assets_at(self.scen, self.rs, f, cell)
            text = f"faction {f.number}: units off {label}"
        else:
            kind = self.factions.unit_kind.currentText()
            if not kind:
                self.status("Choose the kind of unit to place", True)
                return
            new = add_asset(self.scen, self.rs, f, cell, kind, self.factions.unit_count.value())
            text = f"faction {f.number}: {self.factions.unit_count.value()} {kind} at {label}"
        if new.attrs != f.attrs:
            self.edit_faction(f, new, text)

    def placed_keys(self) -> set[str]:
        """Faction.attrs keys the map placing writes (not shown as other settings)."""
        from engine.validation import start_fields

        return {f.key for f in start_fields(self.rs) if f.form != "sites"} if self.rs else set()

    def starts_text(self, f: Faction, most: int = 8) -> str:
        out: list[str] = []
        for s in starts_of(self.scen, self.rs, f):
            if s.area:
                out.append(s.area)
            elif s.field.form == "sites" and s.cells:
                out.append(self.scen.map.grid.label(s.cells[0]))
            else:
                out.append(str(s.raw))
        if len(out) > most:
            return ", ".join(out[:most]) + f", … ({len(out)} in all)"
        return ", ".join(out)

    def units_text(self, f: Faction, most: int = 4) -> str:
        """The faction's placed start assets; for a ruleset whose start is a state of units
        (Atlantis: `unit_rows`), the units the start state gives it."""
        placed = ", ".join(f"{a.count} {a.kind} {a.where}" for a in assets_of(self.scen, self.rs, f))
        if placed or getattr(self.rs, "unit_rows", None) is None:
            return placed
        if self._start_units is None:
            self._start_units = self._units_of_start()
        rows = self._start_units.get(f.number, [])
        if len(rows) > most:
            return ", ".join(rows[:most]) + f", … ({len(rows)} units)"
        return ", ".join(rows)

    def _units_of_start(self) -> dict[int, list[str]]:
        """{faction: ["Name (n) 3 men at 0302", ...]} of the turn-0 state (read once per edit:
        the table asks for every row it paints)."""
        out: dict[int, list[str]] = {}
        try:
            state = self.service.state(0)
            rows = self.rs.unit_rows(state, self.scen)
        except Exception:  # noqa: BLE001 (an unfinished start: no units to show yet)
            return out
        label = self.scen.map.grid.label
        for cell, faction, kind, count, _number, name in rows:
            kind = "man" if count == 1 and kind == "men" else kind
            out.setdefault(faction, []).append(f"{name} {count} {kind} at {label(cell)}")
        return out

    def refresh_starts(self) -> None:
        if self.starts is None or self.scen is None:
            return
        items = []
        for f in self.scen.factions:
            cells = [c for s in starts_of(self.scen, self.rs, f) for c in s.cells]
            units = []
            for a in assets_of(self.scen, self.rs, f):
                if len(a.cells) == 1:
                    units.append((a.cells[0], f"{a.count}{a.kind}"))
                elif a.cells:  # a whole area: tag its middle cell
                    units.append((sorted(a.cells)[len(a.cells) // 2], f"{a.count}{a.kind}"))
            items.append((f.colour, cells, units, str(f.number)))
        self.starts.set_starts(items)

    # ---- validation --------------------------------------------------------------------------

    def revalidate(self) -> list[Problem]:
        if self.scen is None:
            return []
        scen = self.scen
        if not self.derived_start:
            if self._given_start is None:
                self._given_start = self.service.state(0)
            scen = dataclasses.replace(scen, initial=self._given_start)
        self.problems = validate_scenario(scen, self.rs)
        self.problems_view.set_problems(self.problems)
        n_err = sum(1 for p in self.problems if p.severity == ERROR)
        i = self.tabs.indexOf(self.problems_view)
        if i >= 0:
            self.tabs.setTabText(i, f"Problems ({n_err})" if n_err else
                                 (f"Problems ({len(self.problems)})" if self.problems else "Problems"))
        return self.problems

    def go_to(self, p: Problem) -> None:
        """Show the thing a problem is about: its faction, cell or area, row or option."""
        cells: list[int] = []
        if p.faction is not None:
            self.tabs.setCurrentWidget(self.factions)
            self.factions.select_number(p.faction)
            f = self.scen.faction(p.faction)
            if f is not None and p.cell is None and p.area is None:
                cells = [c for s in starts_of(self.scen, self.rs, f) for c in s.cells]
        if p.cell is not None:
            cells = [p.cell]
        if p.area is not None and p.area in self.scen.map.areas:
            cells = sorted(self.scen.map.areas[p.area].cells)
        if p.catalog is not None and p.catalog in self.catalog_pages:
            page = self.catalog_pages[p.catalog]
            self.tabs.setCurrentWidget(page)
            if p.row is not None:
                page.select_row(p.row)
        if p.option is not None and self.options_panel is not None:
            self.tabs.setCurrentWidget(self.options_panel)
            w = self.options_panel.widgets.get(p.option)
            if w is not None:
                w.setFocus()
        if self.starts is not None:
            self.starts.set_mark(cells)
        if cells:
            import numpy as np

            x, y = geo.centers(self.scen.map.grid, np.asarray(cells[:1]))[0]
            self.canvas.centerOn(QPointF(float(x), float(y)))
        self.status(p.message, p.severity == ERROR)

    # ---- games and scenario files -------------------------------------------------------------

    def _folder(self) -> str:
        where = getattr(self.service, "where", "") if self.service is not None else ""
        return str(Path(where).parent) if where and "://" not in where else str(Path.cwd())

    def new_game_dialog(self) -> None:
        from app.designer.new_game import NewGameDialog

        dlg = NewGameDialog(self, self._folder())
        if dlg.exec():
            self.open_created(dlg.service, dlg.path)

    def open_created(self, service: Any, path: Path) -> None:
        """Show a game just created: through the main window if there is one."""
        if self.window_ is not None and hasattr(self.window_, "open_path"):
            service.close()
            if self.window_.open_path(path):
                self.window_.set_workspace("scenario")
                self.sync()
            return
        self.set_service(service, owned=True)
        self.status(f"Created {path}")

    def open_game_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open game", self._folder(),
                                              "Game databases (*.rsgame *.db *.sqlite);;All files (*)")
        if path:
            self.open_game(path)

    def open_game(self, path: str | Path) -> bool:
        if self.window_ is not None and hasattr(self.window_, "open_path"):
            ok = self.window_.open_path(path)
            self.sync()
            return ok
        from engine.service import GameService

        try:
            svc = GameService.open(path)
        except Exception as e:  # noqa: BLE001 (the service says what is wrong)
            self.status(f"Cannot open {path}: {e}", True)
            return False
        self.set_service(svc, owned=True)
        return True

    def import_dialog(self) -> None:
        src, _ = QFileDialog.getOpenFileName(self, "Import scenario file", self._folder(), SCENARIO_FILTER)
        if not src:
            return
        db, _ = QFileDialog.getSaveFileName(self, "New game database for the scenario",
                                            str(Path(src).with_suffix(".rsgame")),
                                            "Game databases (*.rsgame *.db)")
        if db:
            self.import_scenario(src, db)

    def import_scenario(self, src: str | Path, db: str | Path) -> bool:
        """A new game from a text scenario file, opened in the designer."""
        from engine.scenario_file import ScenarioFileError, load_scenario
        from engine.service import GameService

        try:
            scen = load_scenario(src)
        except (ScenarioFileError, OSError) as e:
            self.status(str(e), True)
            return False
        if Path(db).exists():
            self.status(f"{db} exists already; choose another file for the game", True)
            return False
        try:
            svc = GameService.create(db, scen)
        except Exception as e:  # noqa: BLE001
            self.status(f"{src}: cannot build the game ({type(e).__name__}: {e})", True)
            return False
        self.open_created(svc, Path(db))
        self.status(f"Imported {src} into {db}")
        return True

    def export_dialog(self) -> None:
        if self.scen is None:
            return
        from engine.service import export_stem

        path, _ = QFileDialog.getSaveFileName(self, "Export scenario file",
                                              str(Path(self._folder()) / f"{export_stem(self.scen.name)}.toml"),
                                              SCENARIO_FILTER)
        if path:
            self.export_scenario(path if path.endswith(".toml") else path + ".toml")

    def export_scenario(self, path: str | Path) -> bool:
        """The scenario as a text file; a start that came from a file travels as its [state]."""
        from engine.scenario_file import dump_scenario

        initial = None if self.derived_start else self.service.state(0)
        try:
            dump_scenario(dataclasses.replace(self.scen, initial=initial), path)
        except Exception as e:  # noqa: BLE001 (disk full, no such folder...)
            self.status(f"Cannot write {path}: {type(e).__name__}: {e}", True)
            return False
        self.status(f"Wrote {path}")
        return True


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def _site_copy(s: Site) -> Site:
    return Site(s.id, s.cell, s.kind, s.name, dict(s.attrs))


def _tip(action, text: str) -> None:
    # The stack clears itself (emitting) in its destructor, after the toolbar's actions died.
    if shiboken6.isValid(action):
        action.setToolTip(text)
