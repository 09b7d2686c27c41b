"""The map editor driven through simulated mouse and key events, asserting on the GameMap."""

import numpy as np
import pytest
from PySide6.QtCore import Qt

from engine.map import new_map
from tests.gui.conftest import click, drag, make_editor

pytestmark = pytest.mark.gui


@pytest.fixture
def hexed(qtbot):
    return make_editor(qtbot, new_map("hex", 20, 14, "plains"))


@pytest.fixture
def squared(qtbot):
    return make_editor(qtbot, new_map("square", 20, 14, "plains"))


def terrains(gmap, cells):
    return [gmap.terrain_at(c) for c in cells]


def test_brush_stroke_is_one_undo_step(hexed):
    ed, g = hexed, hexed.gmap.grid
    ed.set_tool("brush")
    ed.set_terrain("forest")
    ed.brush_size = 1  # 7 cells
    a, b, c = g.cell(5, 5), g.cell(6, 5), g.cell(7, 5)
    drag(ed, [a, b, c])
    painted = set(g.within(a, 1)) | set(g.within(b, 1)) | set(g.within(c, 1))
    assert set(ed.gmap.cells_with("forest").tolist()) == painted
    assert ed.stack.count() == 1
    ed.stack.undo()
    assert len(ed.gmap.cells_with("forest")) == 0
    ed.stack.redo()
    assert set(ed.gmap.cells_with("forest").tolist()) == painted


def test_hex_brush_sizes(hexed):
    ed, g = hexed, hexed.gmap.grid
    ed.set_tool("brush")
    ed.set_terrain("hills")
    for size, n, col in ((0, 1, 3), (1, 7, 8), (2, 19, 14)):
        ed.brush_size = size
        click(ed, g.cell(col, 7))
        assert len(g.within(g.cell(col, 7), size)) == n
    assert len(ed.gmap.cells_with("hills")) == 1 + 7 + 19


def test_square_brush_and_right_click_picks_terrain(squared):
    ed, g = squared, squared.gmap.grid
    ed.set_tool("brush")
    ed.set_terrain("desert")
    ed.brush_size = 3
    click(ed, g.cell(10, 7))
    cells = ed.gmap.cells_with("desert").tolist()
    assert sorted(cells) == sorted(g.cell(x, y) for x in (9, 10, 11) for y in (6, 7, 8))
    ed.set_terrain("sea")
    click(ed, g.cell(10, 7), Qt.MouseButton.RightButton)
    assert ed.terrain == "desert"


def test_line_tool(squared):
    ed, g = squared, squared.gmap.grid
    ed.set_tool("line")
    ed.set_terrain("road")
    ed.brush_size = 1
    drag(ed, [g.cell(2, 3), g.cell(5, 3), g.cell(9, 3)])
    assert sorted(ed.gmap.cells_with("road").tolist()) == [g.cell(x, 3) for x in range(2, 10)]
    assert ed.stack.count() == 1


def test_flood_fill_stays_inside_its_terrain(hexed):
    ed, g = hexed, hexed.gmap.grid
    m = ed.gmap
    ring = [c for c in g.within(g.cell(10, 7), 3) if g.distance(c, g.cell(10, 7)) == 3]
    m.set_terrain(ring, "mountains")
    ed.stack.clear()
    ed.set_tool("fill")
    ed.set_terrain("lake")
    click(ed, g.cell(10, 7))
    inside = [c for c in g.within(g.cell(10, 7), 2)]
    assert sorted(m.cells_with("lake").tolist()) == sorted(inside)
    assert terrains(m, ring) == ["mountains"] * len(ring)
    ed.stack.undo()
    assert len(m.cells_with("lake")) == 0


def test_weighted_random_fill_is_seeded(squared):
    ed, g = squared, squared.gmap.grid
    ed.set_tool("fill")
    ed.fill_mode = "weighted"
    ed.weights = {"forest": 3, "hills": 1, "swamp": 0}
    ed.seed = 42
    click(ed, g.cell(0, 0))
    first = ed.gmap.terrain_names()
    assert set(first) == {"forest", "hills"}
    assert first.count("forest") > first.count("hills")
    ed.stack.undo()
    assert set(ed.gmap.terrain_names()) == {"plains"}
    ed.fill_counter = 0
    click(ed, g.cell(0, 0))
    assert ed.gmap.terrain_names() == first


def test_river_across_three_cells(hexed):
    ed, g = hexed, hexed.gmap.grid
    a = g.cell(4, 4)
    b = g.step(a, "SE")
    c = g.step(b, "SE")
    ed.set_tool("river")
    drag(ed, [a, b, c])
    m = ed.gmap
    assert m.links["river"] == {tuple(sorted((a, b))), tuple(sorted((b, c)))}
    assert m.links["road"] == set()
    assert ed.stack.count() == 1
    ed.stack.undo()
    assert m.links["river"] == set()
    ed.stack.redo()
    assert m.has_link("river", a, b) and m.has_link("river", b, c)
    drag(ed, [a, b], Qt.MouseButton.RightButton)  # right drag erases
    assert m.links["river"] == {tuple(sorted((b, c)))}


def test_road_fills_in_cells_skipped_by_a_fast_drag(squared):
    ed, g = squared, squared.gmap.grid
    ed.set_tool("road")
    drag(ed, [g.cell(2, 2), g.cell(6, 2)])
    assert len(ed.gmap.links["road"]) == 4
    assert all(g.are_neighbours(a, b) for a, b in ed.gmap.links["road"])


def test_place_city_edit_name_move_delete(hexed, qtbot):
    ed, g = hexed, hexed.gmap.grid
    m = ed.gmap
    ed.set_tool("site")
    cell = g.cell(8, 6)
    click(ed, cell)
    assert [s.cell for s in m.sites.values()] == [cell]
    site = next(iter(m.sites.values()))
    assert site.kind == "city" and ed.site_panel.site_id == site.id
    name = ed.site_panel.name
    name.selectAll()
    qtbot.keyClicks(name, "Nineveh")
    qtbot.keyClick(name, Qt.Key.Key_Return)
    assert m.sites[site.id].name == "Nineveh"
    ed.site_panel.population.setValue(25000)
    ed.site_panel.apply()
    assert m.sites[site.id].attrs["population"] == 25000
    ed.stack.undo()
    assert "population" not in m.sites[site.id].attrs
    ed.stack.undo()
    assert m.sites[site.id].name == "City 1"
    ed.stack.redo()
    assert m.sites[site.id].name == "Nineveh"
    drag(ed, [cell, g.cell(9, 6), g.cell(10, 6)])  # drag the site two cells east
    assert m.sites[site.id].cell == g.cell(10, 6)
    click(ed, g.cell(10, 6), Qt.MouseButton.RightButton)
    assert m.sites == {}
    ed.stack.undo()
    assert m.sites[site.id].name == "Nineveh" and m.sites[site.id].cell == g.cell(10, 6)


def test_copy_paste_rotated_60_degrees(hexed, qtbot):
    ed, g = hexed, hexed.gmap.grid
    m = ed.gmap
    a = g.cell(6, 6)
    n = g.step(a, "N")
    m.set_terrain([a], "city")
    m.set_terrain([n], "forest")
    ed.stack.clear()
    ed.set_tool("select")
    drag(ed, [n, a])
    assert sorted(ed.selection.tolist()) == sorted([a, n])
    ed.copy()
    ed.paste()
    assert ed.tool.name == "paste"
    qtbot.keyClick(ed.canvas, Qt.Key.Key_R)  # rotate 60 degrees clockwise
    # the anchor is the selected cell nearest the middle: one of a, n; find where each lands
    target = g.cell(14, 8)
    click(ed, target)
    changed = {c: m.terrain_at(c) for c in range(len(g)) if m.terrain_at(c) != "plains"}
    pasted = {c: t for c, t in changed.items() if c not in (a, n)}
    assert sorted(pasted.values()) == ["city", "forest"]
    city = next(c for c, t in pasted.items() if t == "city")
    forest = next(c for c, t in pasted.items() if t == "forest")
    assert g.step(city, "NE") == forest  # N rotated 60 degrees clockwise is NE
    ed.stack.undo()
    assert {c for c in range(len(g)) if m.terrain_at(c) != "plains"} == {a, n}
    ed.stack.redo()
    assert m.terrain_at(city) == "city" and m.terrain_at(forest) == "forest"


def test_rotate_six_times_and_flip_twice_is_identity():
    from app.editor.clipboard import CellClipboard

    for orientation in ("flat", "pointy"):
        m = new_map("hex", 12, 12, "plains", orientation=orientation)
        cells = m.grid.within(m.grid.cell(5, 5), 1)[:4]
        m.set_terrain(cells, ["a", "b", "c", "d"])
        clip = CellClipboard.copy(m, cells)
        before = sorted(clip.cells)
        clip.rotate(6)
        assert sorted(clip.cells) == before
        clip.flip()
        clip.flip()
        assert sorted(clip.cells) == before
        clip.flip()  # a flip keeps neighbours neighbours
        placed = clip.placed(m, m.grid.cell(6, 6))
        assert len(placed) == 4
        assert all(any(m.grid.are_neighbours(x, y) for y in placed if y != x) for x in placed)


def test_square_rotate_90(squared):
    ed, g = squared, squared.gmap.grid
    m = ed.gmap
    m.set_terrain([g.cell(3, 3), g.cell(4, 3), g.cell(5, 3)], ["a", "b", "c"])
    ed.set_selection([g.cell(3, 3), g.cell(4, 3), g.cell(5, 3)])
    ed.copy()
    ed.rotate_clipboard()
    ed.paste()
    click(ed, g.cell(10, 7))
    assert terrains(m, [g.cell(10, 6), g.cell(10, 7), g.cell(10, 8)]) == ["a", "b", "c"]


def test_magic_wand_cut(hexed):
    ed, g = hexed, hexed.gmap.grid
    m = ed.gmap
    blob = g.within(g.cell(5, 5), 1)
    m.set_terrain(blob, "swamp")
    ed.set_tool("wand")
    click(ed, g.cell(5, 5))
    assert sorted(ed.selection.tolist()) == sorted(blob)
    ed.cut()
    assert len(m.cells_with("swamp")) == 0
    ed.stack.undo()
    assert sorted(m.cells_with("swamp").tolist()) == sorted(blob)


def test_areas_paint_rename_and_adjacency(squared):
    from app.editor import commands as cmd

    ed, g = squared, squared.gmap.grid
    m = ed.gmap
    ed.area_panel.new_name.setText("Gaul")
    ed.area_panel._add()
    ed.set_tool("area")
    ed.brush_size = 1
    drag(ed, [g.cell(2, 2), g.cell(3, 2)])
    assert m.areas["Gaul"].cells == {g.cell(2, 2), g.cell(3, 2)}
    ed.area_panel.new_name.setText("Iberia")
    ed.area_panel._add()
    drag(ed, [g.cell(8, 8), g.cell(9, 8)])
    r = m.regions()
    assert not r.are_neighbours(r.parse("Gaul"), r.parse("Iberia"))
    ed.push(cmd.SetAdjacency(m, "Iberia", "Gaul", True))
    r = m.regions()
    assert r.are_neighbours(r.parse("Gaul"), r.parse("Iberia"))
    ed.push(cmd.RenameArea(m, "Gaul", "Gallia"))
    r = m.regions()
    assert r.are_neighbours(r.parse("Gallia"), r.parse("Iberia"))
    for _ in range(2):
        ed.stack.undo()
    assert "Gaul" in m.areas
    r = m.regions()
    assert not r.are_neighbours(r.parse("Gaul"), r.parse("Iberia"))
    drag(ed, [g.cell(2, 2)], Qt.MouseButton.RightButton)  # erase from areas
    assert m.areas["Gaul"].cells == {g.cell(3, 2)}


def test_labels_add_move_edit_delete(squared, monkeypatch):
    ed, g = squared, squared.gmap.grid
    answers = iter(["Mare Nostrum", "Mare Internum"])
    monkeypatch.setattr(ed, "ask_text", lambda *a: next(answers))
    ed.set_tool("label")
    click(ed, g.cell(5, 5))
    assert [lb.text for lb in ed.gmap.labels] == ["Mare Nostrum"]
    lb = ed.gmap.labels[0]
    x0, y0 = lb.x, lb.y
    drag(ed, [g.cell(5, 5), g.cell(7, 5), g.cell(9, 5)])  # move it four cells east
    assert (lb.x - x0, lb.y - y0) == pytest.approx((4.0, 0.0), abs=0.1)
    click(ed, g.cell(9, 5))  # click on it: edit the text
    assert lb.text == "Mare Internum"
    ed.stack.undo()
    assert lb.text == "Mare Nostrum"
    ed.stack.undo()
    assert lb.x == pytest.approx(x0)
    click(ed, g.cell(5, 5), Qt.MouseButton.RightButton)
    assert ed.gmap.labels == []
    ed.stack.undo()
    assert len(ed.gmap.labels) == 1


def test_only_changed_chunks_rebuild():
    from app.canvas.scene import MapScene
    from app.render import ensure_app

    ensure_app()
    m = new_map("hex", 200, 200, "plains")
    scene = MapScene(m)
    t = scene.terrain
    for ch in range(t.chunks.nx * t.chunks.ny):
        t.chunk_paths(ch)
    before = {k: id(v) for k, v in t.chunks._built.items()}
    cell = m.grid.cell(70, 5)
    (changed,) = t.chunks.of_cells(np.array([cell])).tolist()
    m.set_terrain([cell], "forest")
    assert changed not in t.chunks._built
    assert all(id(t.chunks._built[k]) == v for k, v in before.items() if k != changed)
    codes = [code for code, _ in t.chunk_paths(changed)]
    assert codes == [0, 1]
    img = t.pixel_image()  # flat hex: cell (col, row) owns pixels (col, 2*row + col%2 ...)
    assert img.pixel(70, 10) != img.pixel(71, 11)
    assert img.pixel(70, 10) == img.pixel(70, 11)
    scene.detach()


def test_view_keys_zoom_and_pan(hexed, qtbot):
    ed = hexed
    cv = ed.canvas
    before = cv.ppu()
    cv.zoom_in()
    assert cv.ppu() == pytest.approx(before * 1.25)
    cv.fit()
    w, h = ed.scene.terrain.image_rect().getRect()[2:]
    vis = cv.visible_rect()
    assert vis.width() >= w * 0.99 or vis.height() >= h * 0.99
    cv.zoom_reset()
    h0 = cv.horizontalScrollBar().value()
    qtbot.keyClick(cv, Qt.Key.Key_Right)
    assert cv.horizontalScrollBar().value() > h0


def test_tooltip_text_names_everything(hexed):
    ed, g = hexed, hexed.gmap.grid
    m = ed.gmap
    c = g.cell(3, 3)
    m.set_terrain([c], "forest")
    m.add_site(c, "city", "Ur", population=9)
    m.add_area("Sumer", cells=[c])
    m.add_link("road", c, g.neighbours(c)[0])
    text = ed.canvas.cell_description(c)
    for part in ("forest", "Ur", "population=9", "Sumer", "road"):
        assert part in text
    assert g.label(c) in text


def test_brush_cells_sizes():
    from app.editor.tools import brush_cells

    h = new_map("hex", 30, 30)
    assert [len(brush_cells(h, h.grid.cell(15, 15), s)) for s in range(4)] == [1, 7, 19, 37]
    s = new_map("square", 30, 30)
    assert [len(brush_cells(s, s.grid.cell(15, 15), n)) for n in range(1, 10)] == [
        n * n for n in range(1, 10)]
    assert len(brush_cells(s, 0, 9)) == 25  # clipped at the corner


def test_geometry_cell_at_matches_topology():
    from app.canvas import geometry as geo

    for m in (new_map("hex", 9, 7), new_map("hex", 9, 7, orientation="pointy"),
              new_map("square", 9, 7)):
        g = m.grid
        assert np.allclose(geo.centers(g, np.arange(len(g))), g.centers_array())
        for c in range(len(g)):
            x, y = g.center(c)
            assert geo.cell_at(g, x + 0.2, y - 0.2) == c
            assert geo.from_axial(g, *geo.to_axial(g, c)) == c
        table = geo.neighbour_table(g)
        for c in range(len(g)):
            assert sorted(n for n in table[c] if n >= 0) == sorted(g.neighbours(c))


def test_layer_toggles_and_minimap_click(hexed, qtbot):
    from PySide6.QtCore import QPointF

    ed = hexed
    box = ed.layers_panel.boxes["grid"]
    assert box.isChecked() and ed.scene.grid.isVisible()
    box.setChecked(False)
    assert not ed.scene.grid.isVisible()
    assert not ed.scene.coords.isVisible()  # coordinates start hidden
    ed.layers_panel.boxes["coords"].setChecked(True)
    assert ed.scene.coords.isVisible()
    ed.canvas.set_ppu(60)
    mm = ed.minimap
    mm.resize(200, 150)
    src, dst = mm._target()
    qtbot.mouseClick(mm, Qt.MouseButton.LeftButton, pos=dst.topLeft().toPoint() + QPointF(3, 3).toPoint())
    before = ed.canvas.visible_rect().center()
    qtbot.mouseClick(mm, Qt.MouseButton.LeftButton, pos=dst.bottomRight().toPoint() - QPointF(3, 3).toPoint())
    after = ed.canvas.visible_rect().center()
    assert after.x() > before.x() + 5 and after.y() > before.y() + 5
