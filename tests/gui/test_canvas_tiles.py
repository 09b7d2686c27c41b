"""The canvas's screen tiles (app/canvas/tiles.py): they draw what a one-pass render draws,
follow edits, stay within their memory bound, and a frame short of time finishes later."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from engine.map import Label, new_map


def layered_map():
    """A hex map with every layer: terrain, rivers, roads, sites, areas, labels."""
    m = new_map("hex", 60, 40, "plains")
    for t in ("forest", "hills", "ocean"):
        m.terrain_code(t)
    m.terrain[:] = np.random.default_rng(3).integers(0, 4, len(m.grid)).astype(np.uint16)
    g = m.grid
    for col in range(5, 40):
        m.add_link("river", g.cell(col, 10), g.cell(col + 1, 10))
        m.add_link("road", g.cell(col, 20), g.cell(col + 1, 20))
    for i, col in enumerate(range(6, 50, 7)):
        m.add_site(g.cell(col, 15), "city" if i % 2 else "town", f"Town {i}")
    m.add_area("North", cells=[g.cell(c, r) for c in range(0, 30) for r in range(0, 12)])
    m.add_area("South", cells=[g.cell(c, r) for c in range(20, 60) for r in range(25, 40)])
    m.labels.append(Label("Middle Sea", *g.center(g.cell(30, 30))))
    return m


@pytest.fixture
def view(qtbot):
    from app.canvas.scene import MapScene
    from app.canvas.view import MapCanvas

    m = layered_map()
    scene = MapScene(m)
    v = MapCanvas()
    qtbot.addWidget(v)
    v.resize(640, 480)
    v.show()
    v.set_map_scene(scene)
    v.set_ppu(14.0)
    v.centre_on(40, 40)
    yield v
    scene.detach()


def one_pass(v):
    """The same view drawn with tiles off (every layer straight onto the image)."""
    s = v.map_scene()
    s.set_tiles_enabled(False)
    try:
        return v.render_view()
    finally:
        s.set_tiles_enabled(True)


def differing(a, b, step: int = 2, box=None) -> float:
    """Share of sampled pixels that differ between two images of one size (in box: (x, y,
    w, h) pixels, default everywhere)."""
    x0, y0, w, h = box or (0, 0, a.width(), a.height())
    n = bad = 0
    for y in range(max(y0, 0), min(y0 + h, a.height()), step):
        for x in range(max(x0, 0), min(x0 + w, a.width()), step):
            n += 1
            bad += a.pixel(x, y) != b.pixel(x, y)
    return bad / max(n, 1)


def around(v, cell, r: int = 20):
    """A box of pixels around a cell's centre in the view."""
    from PySide6.QtCore import QPointF

    p = v.mapFromScene(QPointF(*v.map_scene().gmap.grid.center(cell)))
    return (p.x() - r, p.y() - r, 2 * r, 2 * r)


def test_paths_from_numpy_match_qt_built_paths():
    from PySide6.QtGui import QPainterPath

    from app.canvas.paths import polygons_path, segments_path

    polys = np.array([[[0, 0], [2, 0], [1, 1.5]], [[5, 5], [6, 5], [6, 6]]], dtype=float)
    want = QPainterPath()
    for poly in polys:
        want.moveTo(*poly[0])
        for p in poly[1:]:
            want.lineTo(*p)
        want.lineTo(*poly[0])
    got = polygons_path(polys)
    assert got.elementCount() == want.elementCount() == 8
    for i in range(8):
        a, b = got.elementAt(i), want.elementAt(i)
        assert (a.type, a.x, a.y) == (b.type, b.x, b.y)
    seg = segments_path(np.array([[[0, 0], [1, 1]], [[3, 3], [4, 2]]], dtype=float))
    assert [seg.elementAt(i).type.value for i in range(4)] == [0, 1, 0, 1]  # move, line, move, line
    assert polygons_path(np.zeros((0, 6, 2))).isEmpty()


def test_tiles_draw_what_a_one_pass_render_draws(view):
    tiled = view.render_view()
    s = view.map_scene()
    assert s.terrain.tile_count() and s.grid.tile_count() and s.links["river"].tile_count()
    assert s.areas.tile_count() and s.sites.tile_count()
    # same pixels but for antialiased edges where tile and direct rounding differ
    assert differing(tiled, one_pass(view)) < 0.02


def test_a_frame_out_of_time_draws_stand_ins_then_idle_time_finishes_it(view, qtbot):
    import shiboken6
    from PySide6.QtWidgets import QApplication

    from app.canvas.tiles import CACHE, settle

    s = view.map_scene()
    view.set_ppu(11.0)  # a zoom no tile exists for
    s.budget.ms = 0.0  # no time at all: nothing may be built in this frame
    try:
        first = view.render_view(complete=False)
    finally:
        s.budget.ms = 5.0
    assert s.terrain.ref in CACHE.pending  # it asked for an idle repaint
    complete = one_pass(view)
    assert differing(first, complete) > 0.02  # stand-ins, not the real picture
    settle(QApplication.instance())
    # this map's layers only: views left open by earlier tests may still be waiting, and the
    # layers of views they closed stay in the cache's pending set (their C++ items deleted)
    # until the garbage collector frees the Python side's reference cycles
    assert not [r for r in CACHE.pending
                if (layer := r()) is not None and shiboken6.isValid(layer) and layer.scene() is s]
    assert differing(view.render_view(complete=False), complete) < 0.02


def test_layers_without_tiles_do_not_spend_the_frames_building_time(view):
    """The viewer's and console's political layers (ownership, coordinates, troop badges)
    have no tiles and sit below the sites: however long they paint, the sites above them
    still get the frame's building time (they used to get none, on every frame)."""
    import time

    from app.canvas.overlays import MapLayer

    class Slow(MapLayer):
        def paint(self, painter, option, widget=None):
            time.sleep(2 * s.budget.ms / 1000)  # longer than the whole building budget

    s = view.map_scene()
    view.set_ppu(11.0)  # a zoom no tile exists for
    s.set_layer_visible("sites", False)
    view.render_view()  # every other layer's tiles built: they spend nothing below
    s.set_layer_visible("sites", True)
    slow = Slow(s.gmap, s.sites.zValue() - 0.1)
    s.addItem(slow)
    try:
        assert s.sites.tile_count() == 0
        view.render_view(complete=False)  # a frame as the screen draws it
        assert s.sites.tile_count() > 0
    finally:
        s.removeItem(slow)


def test_a_layer_that_never_gets_time_in_a_frame_is_still_finished(view):
    """Items drawn below a layer may spend every frame's budget (the console's political
    tint did): the layer then builds a tile each other paint anyway, rather than asking
    for repaints forever with nothing but stand-ins on screen."""
    from PySide6.QtWidgets import QApplication

    from app.canvas.tiles import settle

    s = view.map_scene()
    view.set_ppu(11.0)  # a zoom no tile exists for
    s.budget.ms = 0.0  # every frame: no time left for building tiles
    try:
        first = view.render_view(complete=False)
        complete = one_pass(view)
        assert differing(first, complete) > 0.02  # that frame built nothing
        settle(QApplication.instance(), timeout_s=30.0)
        assert all(layer.tile_count() for layer in (s.terrain, s.grid, s.sites, s.areas))
        assert not any(layer.starved for layer in s.tiled_layers())
        assert differing(view.render_view(complete=False), complete) < 0.02
    finally:
        s.budget.ms = 5.0


def test_map_images_draw_every_area_at_once():
    """PNG export renders in one pass (tiles off): area outlines are not spread over frames."""
    from app.render import render_map_image

    m = layered_map()
    with_areas = render_map_image(m, 6.0, {"terrain", "areas"})
    without = render_map_image(m, 6.0, {"terrain"})
    x, y = m.grid.center(m.grid.cell(45, 33))  # inside "South", away from its outline
    assert with_areas.pixel(round(x * 6), round(y * 6)) != without.pixel(round(x * 6), round(y * 6))


def test_edits_reach_cached_tiles(view):
    s = view.map_scene()
    m = s.gmap
    g = m.grid
    view.set_ppu(30.0)
    view.centre_on(*g.center(g.cell(42, 31)))
    before = view.render_view()
    edits = [g.cell(40, 30), g.cell(44, 30), g.cell(42, 32)]
    m.set_terrain([edits[0]], "ocean")
    m.add_link("river", edits[1], g.cell(45, 30))
    m.add_site(edits[2], "castle", "Keep")
    after, want = view.render_view(), one_pass(view)
    for cell in edits:  # each edit shows, and as the one-pass render draws it
        assert differing(before, after, 1, around(view, cell)) > 0.05
        assert differing(after, want, 1, around(view, cell)) < 0.05


def test_a_removed_site_leaves_no_trace_of_its_name(view):
    """Names reach tens of pixels past their cell: an edit redraws that far at any zoom."""
    s = view.map_scene()
    m = s.gmap
    site = next(iter(m.sites.values()))
    view.set_ppu(10.0)
    view.centre_on(*m.grid.center(site.cell))
    with_site = view.render_view()
    m.remove_site(site.id)
    after = view.render_view()
    box = around(view, site.cell, 60)
    assert differing(with_site, after, 1, box) > 0.01
    assert differing(after, one_pass(view), 1, box) < 0.015  # antialiased edges aside


def test_tiles_and_chunk_paths_stay_within_their_bounds(view):
    from app.canvas.tiles import CACHE

    s = view.map_scene()
    old = CACHE.max_bytes
    CACHE.max_bytes = 6 * 2**20
    try:
        for ppu in (6.0, 9.0, 14.0, 20.0):
            view.set_ppu(ppu)
            for _ in range(6):
                view.pan_by(150, 90)
                view.render_view()
        frame = 6 * 2**20  # one 640x480 frame of six layers may exceed a tiny budget
        assert CACHE.bytes <= CACHE.max_bytes + frame
        held = sum(img.sizeInBytes() for layer in s.tiled_layers()
                   for tiles in layer._tiles.values() for img in tiles.values() if img is not None)
        assert held <= CACHE.bytes  # every tile a layer holds is counted
    finally:
        CACHE.max_bytes = old
    assert len(s.terrain.chunks) <= s.terrain.chunks.keep
    assert len(s.grid.chunks) <= s.grid.chunks.keep


def test_selecting_a_site_or_area_redraws_its_tiles(view):
    s = view.map_scene()
    view.set_ppu(20.0)
    site = next(iter(s.gmap.sites.values()))
    view.centre_on(*s.gmap.grid.center(site.cell))
    before = view.render_view()
    s.sites.selected = site.id
    s.areas.selected = "South"
    after = view.render_view()
    assert differing(before, after, 1) > 0
    assert differing(after, one_pass(view)) < 0.02


def test_the_viewer_and_the_editor_never_import_pyqtgraph():
    code = ("import sys; import app.viewer.window, app.editor.workspace, app.canvas.scene; "
            "sys.exit('pyqtgraph' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_minimap_patches_its_small_image_as_a_full_redraw_would(qtbot):
    from app.canvas.minimap import Minimap
    from app.canvas.scene import MapScene
    from app.canvas.view import MapCanvas

    m = new_map("hex", 300, 200, "plains")
    scene = MapScene(m)
    canvas = MapCanvas()
    mini = Minimap(canvas)
    for w in (canvas, mini):
        qtbot.addWidget(w)
    mini.resize(220, 160)
    canvas.set_map_scene(scene)
    mini.attach()
    mini.grab()  # shrinks the map once
    g = m.grid
    m.set_terrain([g.cell(c, r) for c in range(100, 160) for r in range(60, 120)], "ocean")
    patched = mini.grab().toImage()
    mini._small = None  # shrink the whole map again
    fresh = mini.grab().toImage()
    assert differing(patched, fresh, 1) < 0.01
    scene.detach()
