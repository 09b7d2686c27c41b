"""The maps as players think of them (issue 12): troops and owners on the console map,
region maps drawn as regions, the political map PNG, names given in play, badges that keep
off sites, the editor palette, coordinates, toolbar icons, the status bar and the window size."""

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from app.cli import main as cli
from engine.palette import LAND, terrain_colour
from engine.service import GameService


@pytest.fixture
def demos(played_demos):
    return played_demos


@pytest.fixture
def window(qtbot):
    from app.main_window import MainWindow

    win = MainWindow(interactive=False)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    return win


def settle():
    from PySide6.QtWidgets import QApplication

    from app.canvas.tiles import settle as build

    app = QApplication.instance()
    for _ in range(5):
        app.processEvents()
    build(app)


def show(win, db, workspace: str = "console"):
    """Open a game in the window, bring a workspace to the front, let its map settle."""
    win.open_path(db)
    win.set_workspace(workspace)
    settle()
    return win


def rgb(img: QImage, x: float, y: float) -> tuple[int, int, int]:
    c = img.pixelColor(int(x), int(y))
    return c.red(), c.green(), c.blue()


def near(a, b, tol=40) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b, strict=True))


def hexrgb(h: str) -> tuple[int, int, int]:
    c = QColor(h)
    return c.red(), c.green(), c.blue()


# ---- the GM console's map ------------------------------------------------------------------

@pytest.mark.parametrize("rs", ["kok", "artnes", "coi"])
def test_console_map_shows_troops_and_owners_like_the_viewer(window, demos, rs):
    win = show(window, demos[rs], "console")
    m = win.console.results.map
    pm = m.model
    assert pm is not None and pm.stacks and pm.owners
    # one badge group per place with troops, in the owners' colours, with counts
    groups = m.political.stacks.groups
    assert len(groups) == len(pm.stacks_by_cell())
    colours = {b.colour.name() for _x, _y, _l, bs in groups for b in bs}
    assert colours <= {s.colour.lower() for s in pm.sides}
    total = sum(b.count for _x, _y, _l, bs in groups for b in bs)
    assert total == sum(s.count for s in pm.stacks)
    # at every zoom something is drawn for each group: dots far out, counts, then kinds
    st = m.political.stacks
    from PySide6.QtGui import QTransform

    for ppu in (0.5, 3.0, 8.0, 30.0, 90.0):
        rects = st.layout(QTransform.fromScale(ppu, ppu), st.detail(ppu))
        assert len(rects) == sum(len(bs) for _x, _y, _l, bs in groups)
    far = st.layout(QTransform.fromScale(90, 90), st.detail(90.0))
    assert all(t for _r, _b, t in far) and any(any(ch.isalpha() for ch in t) for _r, _b, t in far)
    # the legend names every side with what it holds
    text = win.console.results.legend.text()
    assert all(s.name in text for s in pm.sides) and "changed this turn" in text


def test_ownership_reads_on_any_terrain_strong_tint_and_outline(window, demos):
    win = show(window, demos["kok"], "console")
    m = win.console.results.map
    cv = m.canvas
    cv.set_ppu(40.0)
    pm = m.model
    scene = cv.map_scene()
    from app.canvas import geometry as geo

    for cell, owner in list(pm.owners.items())[:12]:
        x, y = geo.centers(scene.gmap.grid, np.array([cell]))[0]
        cv.centre_on(float(x), float(y))
        settle()
        img = cv.render_view()
        p = cv.mapFromScene(float(x) + 0.35, float(y) + 0.35)  # off the badge, inside the cell
        got = rgb(img, p.x(), p.y())
        terrain = hexrgb(terrain_colour(scene.gmap.terrain_at(cell)))
        # tinted: moved well away from the bare terrain towards the owner's colour
        owner_c = hexrgb(pm.colour(owner))
        d_terrain = sum(abs(a - b) for a, b in zip(got, terrain, strict=True))
        d_owner = sum(abs(a - b) for a, b in zip(got, owner_c, strict=True))
        bare = sum(abs(a - b) for a, b in zip(terrain, owner_c, strict=True))
        assert d_owner < bare * 0.75 or d_terrain > 40, (cell, got, terrain, owner_c)


def test_changed_cells_stay_marked_when_stepping_through_history(window, demos):
    win = show(window, demos["kok"], "console")
    res = win.console.results
    assert res.map.changed and res.map.changed_layer.cells.size == len(res.map.changed)
    res.slider.setValue(res.slider.value() - 1)
    assert res.map.changed_layer.cells.size == len(res.map.changed) > 0
    assert res.map.political.stacks.groups  # troops of that turn


# ---- region maps ---------------------------------------------------------------------------

def test_region_map_is_drawn_as_regions(window, demos):
    win = show(window, demos["artnes"], "console")
    m = win.console.results.map
    scene = m.canvas.map_scene()
    pm = m.model
    # no cell grid at any zoom (the layer stays off), coordinates off on a region map
    assert not scene.layer_visible("grid") and not scene.layer_visible("coords")
    assert not m.coords_action.isEnabled()
    areas = scene.areas
    board = scene.gmap.regions()
    owned = {board.label(c): pm.colour(o) for c, o in pm.owners.items()}
    assert areas.fills == owned
    # the picture: owned realms in their owner's colour, neutral land, seas in sea blue
    img = m.canvas.render_view()
    checked = {"owned": 0, "land": 0, "sea": 0}
    for name, area in sorted(scene.gmap.areas.items()):
        x, y = areas.entry(name)[2]
        p = m.canvas.mapFromScene(x, y - 0.6)  # above the name and below-name badges
        if not m.canvas.viewport().rect().contains(p):
            continue
        got = rgb(img, p.x(), p.y())
        if name in owned:
            want, key = hexrgb(owned[name]), "owned"
        elif area.kind == "sea":
            want, key = hexrgb(terrain_colour("sea")), "sea"
        else:
            want, key = hexrgb(LAND), "land"
        if near(got, want, 70):
            checked[key] += 1
    assert min(checked.values()) >= 3, checked
    # area borders come from the outlines: the areas layer draws them, on region maps too
    assert areas.regions_mode and len(areas._drawn()) == len(scene.gmap.areas)
    # names sit above troops and sites
    assert scene.area_names.zValue() > m.political.stacks.zValue()


def test_region_names_are_never_clipped_at_the_map_edge(qtbot, demos):
    from app.canvas.scene import MapScene

    svc = GameService.open(demos["artnes"])
    try:
        scene = MapScene(svc.scenario.map)
        from app.canvas import geometry as geo

        bx, by, bw, bh = geo.map_bounds(scene.gmap.grid)
        areas = scene.areas
        for name in scene.gmap.areas:
            areas.entry(name)
        for ppu in (2.0, 5.0, 12.0, 40.0):
            placed = areas.placed_labels(ppu)
            assert placed
            for name, (x, y) in placed:
                w = areas._widths[name] / ppu
                assert bx - 1e-6 <= x - w / 2 and x + w / 2 <= bx + bw + 1e-6, (name, ppu)
                assert by - 1e-6 <= y and y <= by + bh + 1e-6
        scene.detach()
    finally:
        svc.close()


# ---- the political map PNG -----------------------------------------------------------------

@pytest.mark.parametrize("rs", ["kok", "artnes", "coi"])
def test_map_export_png_of_a_game_is_the_turns_political_map(demos, tmp_path, rs):
    out = tmp_path / f"{rs}.png"
    assert cli(["map", "export", str(demos[rs]), "--png", str(out), "--width", "900"]) == 0
    img = QImage(str(out)).convertToFormat(QImage.Format.Format_RGB32)  # stored as 8-bit palette
    assert 400 < img.width() <= 900 + 24 and img.height() > 400  # fits the width asked for
    svc = GameService.open(demos[rs])
    try:
        from engine.political import political_map

        pm = political_map(svc.ruleset, svc.scenario, svc.state(svc.current_step))
    finally:
        svc.close()
    # the legend below the map has each side's swatch
    arr = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine())
    px = arr[:, : img.width() * 4].reshape(img.height(), img.width(), 4)
    bottom = px[-80:]
    for side in pm.sides:
        r, g, b = hexrgb(side.colour)
        hit = (bottom[..., 2] == r) & (bottom[..., 1] == g) & (bottom[..., 0] == b)
        assert hit.sum() > 20, side
    # a turn out of range is a clear error; the bare map is still there when asked for
    assert cli(["map", "export", str(demos[rs]), "--png", str(out), "--turn", "99"]) == 2
    bare = tmp_path / "bare.png"
    assert cli(["map", "export", str(demos[rs]), "--png", str(bare), "--terrain-only"]) == 0
    assert QImage(str(bare)).height() != img.height()


def test_console_map_png_button_writes_the_political_map(window, demos, tmp_path):
    win = show(window, demos["coi"], "console")
    out = tmp_path / "turn.png"
    assert win.console.map_button.isEnabled()
    assert win.console.export_map_dialog(str(out))
    assert QImage(str(out)).width() > 1000


def test_names_given_in_play_appear_on_the_map(window, demos):
    win = show(window, demos["kok"], "console")
    m = win.console.results.map
    assert "Korinthos" in m.model.names.values()
    # a province named in play that has no site of that name gets a label of its own
    svc = win.console.service
    st = svc.state(svc.current_step)
    prov = next(p for p in st.tables["provinces"] if p.owner and not p.name)
    import dataclasses

    st.tables["provinces"][st.tables["provinces"].index(prov)] = dataclasses.replace(prov, name="Nova")
    from engine.political import political_map

    m.show_state(political_map(svc.ruleset, svc.scenario, st), set())
    assert "Nova" in [n for _x, _y, n in m.political.names.names]


# ---- badges never hide sites --------------------------------------------------------------

@pytest.mark.parametrize("rs", ["kok", "coi"])
def test_troop_badges_keep_off_site_symbols_and_names(window, demos, rs):
    from PySide6.QtGui import QTransform

    win = show(window, demos[rs], "console")
    st = win.console.results.map.political.stacks
    site_cells = {s.cell for s in st.gmap.sites.values()}
    assert site_cells & {c for c in win.console.results.map.model.stacks_by_cell()}
    for ppu in (25.0, 40.0, 70.0):
        t = QTransform.fromScale(ppu, ppu)
        clear = st.site_rects(t, ppu)
        rects = st.layout(t, st.detail(ppu), None, clear)
        symbols = clear  # symbols and names
        hits = [(r, s) for r, _b, _t in rects for s in symbols if r.intersects(s)]
        assert len(hits) <= len(rects) // 10, (ppu, hits[:3])  # crowded corners may stay
        # a badge on a site's own cell is never on its symbol
        ext = st.gmap.grid
        from app.canvas import geometry as geo

        for cell in site_cells:
            x, y = geo.centers(ext, np.array([cell]))[0]
            at = t.map(float(x), float(y))
            sym = QRectF(at[0] - 8, at[1] - 8, 16, 16)
            assert not any(r.intersects(sym) for r, _b, _t in rects)
    scene = st.scene()
    assert scene.sites.zValue() > st.zValue() and scene.labels.zValue() > st.zValue()


# ---- the editor ------------------------------------------------------------------------------

@pytest.mark.parametrize("rs", ["kok", "artnes", "coi"])
def test_editor_palette_lists_the_rulesets_terrains_first_and_alone(window, demos, rs):
    from engine import registry

    win = window
    win.open_path(demos[rs])
    panel = win.editor.terrain_panel
    own = registry.get(rs).map_terrains()
    names = panel._names
    assert names[: len(own)] == own
    extra = names[len(own):]  # only terrains the map paints that the ruleset does not know
    gm = win.editor.gmap
    assert all(t in gm.terrains and t not in own for t in extra)
    assert "jungle" not in names
    panel.others.setChecked(True)
    assert panel._names[: len(own)] == own and "jungle" in panel._names


def test_a_plain_map_file_keeps_the_common_palette(window, tmp_path):
    from engine.map import new_map
    from engine.mapio import export_map

    p = tmp_path / "m.rsmap"
    export_map(new_map("hex", 6, 5, "plains"), p)
    window.open_path(p)
    assert "jungle" in window.editor.terrain_panel._names
    assert not window.editor.terrain_panel.others.isVisibleTo(window.editor.terrain_panel)


# ---- coordinates -----------------------------------------------------------------------------

@pytest.mark.parametrize("rs,on", [("kok", True), ("coi", True), ("artnes", False)])
def test_coordinates_are_on_where_orders_name_cells_and_one_click_away(window, demos, rs, on):
    win = show(window, demos[rs], "viewer")
    vw = win.viewer
    scene = vw.canvas.map_scene()
    assert scene.layer_visible("coords") == on and vw.coords_action.isChecked() == on
    if rs == "coi":
        assert scene.coords.notation == "col,row"
    if on:
        vw.coords_action.trigger()
        assert not scene.layer_visible("coords")
        vw.coords_action.trigger()
        assert scene.layer_visible("coords")
    win.set_workspace("console")
    settle()
    cm = win.console.results.map
    assert cm.canvas.map_scene().layer_visible("coords") == on
    # the editor: one click on its tool bar
    win.set_workspace("editor")
    a = win.editor.layer_actions["coords"]
    before = win.editor.scene.layer_visible("coords")
    a.trigger()
    assert win.editor.scene.layer_visible("coords") != before


# ---- toolbars, status bar, window size ------------------------------------------------------

def test_every_icon_renders_and_toolbars_have_icons_with_tooltips(window, demos):
    from app.icons import icon, names

    assert len(names()) >= 25
    for n in names():
        img = icon(n).pixmap(24, 24).toImage()
        assert not img.isNull()
        arr = [img.pixelColor(x, y).alpha() for x in range(24) for y in range(24)]
        assert sum(1 for a in arr if a > 0) > 15, n
    win = window
    win.open_path(demos["kok"])
    for a in win.editor.tool_actions.values():
        assert not a.icon().isNull() and a.toolTip()
    for a in win.editor.layer_actions.values():
        assert not a.icon().isNull() and a.toolTip()
    from PySide6.QtWidgets import QToolBar, QToolButton

    bar = win.viewer.findChild(QToolBar, "viewerBar")
    acts = [a for a in bar.actions() if isinstance(bar.widgetForAction(a), QToolButton)]
    assert acts and all(not a.icon().isNull() and a.toolTip() for a in acts)
    dbar = win.designer.toolbar
    dacts = [a for a in dbar.actions() if isinstance(dbar.widgetForAction(a), QToolButton)]
    assert len(dacts) >= 7 and all(not a.icon().isNull() and a.toolTip() for a in dacts)
    c = win.console
    for b in (c.open_button, c.import_button, c.folder_button, c.paste_button, c.reassign_button,
              c.run_button, c.cancel_button, c.export_button, c.map_button, c.chart_button):
        assert not b.icon().isNull() and b.toolTip(), b.objectName()


@pytest.mark.parametrize("rs", ["kok", "artnes", "coi"])
def test_the_window_fits_a_1280x720_screen_in_every_workspace(window, demos, rs):
    win = window
    win.open_path(demos[rs])
    for ws in ("editor", "scenario", "console", "viewer"):
        win.set_workspace(ws)
        settle()
        hint = win.minimumSizeHint()
        assert hint.width() <= 1280 and hint.height() <= 720, (ws, hint)
        assert win.width() <= 1280 and win.height() <= 720


def test_status_bar_zoom_and_hover_belong_to_the_workspace_in_front(window, demos):
    win = show(window, demos["kok"], "editor")
    win.editor.canvas.set_ppu(10.0)
    assert win.zoom_label.text() == "10.0 px/cell"
    win.set_workspace("console")
    settle()
    cv = win.console.results.map.canvas
    assert win.zoom_label.text() == f"{cv.ppu():.1f} px/cell" != "10.0 px/cell"
    win.editor.canvas.set_ppu(12.0)  # the editor behind does not speak
    assert win.zoom_label.text() == f"{cv.ppu():.1f} px/cell"
    win.editor.canvas.cellHovered.emit(5)
    assert win.cell_label.text() == ""
    cv.cellHovered.emit(5)
    assert win.cell_label.text().startswith(win.console.service.scenario.map.grid.label(5))
    cv.set_ppu(20.0)
    assert win.zoom_label.text() == "20.0 px/cell"
    win.set_workspace("editor")
    assert win.zoom_label.text() == "12.0 px/cell"


def test_screenshot_script_names_every_workspace_and_ruleset():
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "make_screenshots.py"
    spec = importlib.util.spec_from_file_location("make_screenshots", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert set(mod.WORKSPACES) == {"editor", "scenario", "console", "viewer"}
    assert set(mod.RULESETS) == {"kok", "artnes", "coi", "atlantis", "cc"}
    for rs in mod.RULESETS:
        for ws in mod.WORKSPACES:
            png = path.parent / f"{rs}-{ws}.png"
            assert png.exists() and png.stat().st_size < 400_000, png
            img = QImage(str(png))
            assert (img.width(), img.height()) == mod.SIZE


def test_a_region_renamed_in_play_shows_its_new_name(qtbot, demos):
    from app.canvas.political import PoliticalView
    from app.canvas.scene import MapScene
    from engine.political import political_map

    svc = GameService.open(demos["artnes"])
    try:
        scene = MapScene(svc.scenario.map)
        view = PoliticalView(scene)
        pm = political_map(svc.ruleset, svc.scenario, svc.state(svc.current_step))
        board = scene.gmap.regions()
        paris = board.parse("Paris")
        pm.names[paris] = "Lutetia"
        view.show(pm)
        assert scene.areas.shown_name("Paris") == "Lutetia"
        for name in scene.gmap.areas:
            scene.areas.entry(name)
        placed = dict(scene.areas.placed_labels(12.0))
        assert "Paris" in placed  # placed under its area, drawn with the new name
        scene.detach()
    finally:
        svc.close()


def test_turns_are_named_as_players_count_them(window, demos):
    """ARTNES players count years: the console's history, header and the viewer's turn box
    say '1302 AD' where King of Kings says 'Turn 2'."""
    from engine.ruleset import step_title

    win = show(window, demos["artnes"], "console")
    svc = win.console.service
    cur = svc.current_step
    year = step_title(svc.ruleset, cur, svc.scenario)
    assert year == f"{1300 + cur} AD"
    assert win.console.results.step_label.text().startswith(f"{year} (turn {cur}) of {cur}")
    assert f"({year})" in win.console.title.text()
    win.console.results.slider.setValue(0)
    assert win.console.results.step_label.text().startswith("1300 AD (the start)")
    win.set_workspace("viewer")
    settle()
    box = win.viewer.turn_box
    assert box.itemText(box.count() - 1) == year
    win = show(window, demos["kok"], "console")
    assert win.console.results.step_label.text().startswith("Turn ")
    assert "AD" not in win.console.title.text()


def test_region_maps_show_zoom_as_a_share_of_the_fitted_map(window, demos):
    """'px/cell' means nothing on a region map: the status bar says how far it is zoomed
    from the fitted map instead."""
    win = show(window, demos["artnes"], "console")
    cv = win.console.results.map.canvas
    cv.fit()
    assert win.zoom_label.text() == "100% of fit"
    cv.set_ppu(cv.ppu() * 2)
    assert win.zoom_label.text() == "200% of fit"
    assert "px/cell" not in win.zoom_label.text()
    # (grid maps keep pixels a cell: test_status_bar_zoom_and_hover_belong_to_the_workspace...)



@pytest.mark.parametrize("rs", ["kok", "coi"])
def test_coordinates_are_legible_on_the_fitted_demo_maps(window, demos, rs):
    """On by default, and drawn at the fitted zoom of the small demo maps (the viewer fits
    the 24x16 King of Kings board at under 28 px a cell), with fewer labels on small cells."""
    from app.canvas import geometry as geo

    win = show(window, demos[rs], "viewer")
    cv = win.viewer.canvas
    scene = cv.map_scene()
    grid = scene.gmap.grid
    ppc = cv.ppu() * geo.cell_extent(grid)
    assert scene.layer_visible("coords") and ppc >= scene.coords.MIN_PX, ppc
    r = cv.visible_rect()
    shown = scene.coords.cells_to_label(ppc, r.left(), r.top(), r.right(), r.bottom())
    assert len(shown) >= len(grid) // 4, (ppc, len(shown))
    # the labels are really painted: the view differs with the layer on and off
    on = cv.render_view()
    scene.set_layer_visible("coords", False)
    off = cv.render_view()
    scene.set_layer_visible("coords", True)
    a, b = (np.frombuffer(i.constBits(), dtype=np.uint8) for i in (on, off))
    assert (a != b).sum() > 20 * len(shown)
    # small cells: every other row and column only; tiny ones: none
    x, y, w, h = geo.map_bounds(grid)
    some = scene.coords.cells_to_label(12.0, x, y, x + w, y + h)
    assert 0 < len(some) <= (len(grid) + 3) // 4 + geo.grid_size(grid)[0]
    assert len(scene.coords.cells_to_label(5.0, r.left(), r.top(), r.right(), r.bottom())) == 0


def test_coordinates_keep_a_big_map_view_to_a_bounded_number_of_labels():
    from app.canvas import geometry as geo
    from app.canvas.overlays import CoordsLayer
    from engine.map import new_map

    gmap = new_map("square", 1000, 1000, "plains")
    layer = CoordsLayer(gmap, 1.0)
    ext = geo.cell_extent(gmap.grid)
    for ppc in (10.0, 14.0, 20.0, 40.0):
        view = (1280 / ppc * ext, 800 / ppc * ext)  # map units a 1280x800 view shows
        cells = layer.cells_to_label(ppc, 0, 0, *view)
        assert 0 < len(cells) <= CoordsLayer.MAX_LABELS, ppc
