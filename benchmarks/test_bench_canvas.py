"""Map canvas benchmarks on a 500x500 hex map and a 1000x1000 square map.

Run on their own (not part of the test suite, never timed asserts):
    QT_QPA_PLATFORM=offscreen python -m pytest benchmarks/test_bench_canvas.py -s
Each frame is the 1280x800 view rendered into a QImage offscreen, as the screen would be.
Peak memory (ru_maxrss) is printed per test; run one map size with -k hex / -k square
for its own peak.
"""

from __future__ import annotations

import os
import resource
import statistics
import time

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from engine.map import new_map  # noqa: E402

VIEW = (1280, 800)
FRAMES = 50
RESULTS: list[str] = []


def random_map(kind: str, w: int, h: int):
    m = new_map(kind, w, h, "ocean")
    names = ["ocean", "plains", "forest", "hills", "mountains", "desert", "swamp", "tundra"]
    for n in names:
        m.terrain_code(n)
    rng = np.random.default_rng(7)
    # blobs of terrain, like a real map, plus 10% noise
    coarse = rng.integers(0, len(names), size=(h // 8 + 1, w // 8 + 1))
    t = np.kron(coarse, np.ones((8, 8), dtype=np.int64))[:h, :w].ravel()
    noise = rng.random(t.size) < 0.1
    t[noise] = rng.integers(0, len(names), size=int(noise.sum()))
    m.terrain[:] = t.astype(np.uint16)
    return m


@pytest.fixture(scope="module")
def app():
    from app.render import ensure_app

    return ensure_app()


def canvas_for(gmap):
    from app.canvas.scene import MapScene
    from app.canvas.view import MapCanvas

    scene = MapScene(gmap)
    view = MapCanvas()
    view.resize(*VIEW)
    view.setHorizontalScrollBarPolicy(view.horizontalScrollBarPolicy().ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(view.verticalScrollBarPolicy().ScrollBarAlwaysOff)
    view.show()
    view.set_map_scene(scene)
    return scene, view


def frames(view, step, n=FRAMES):
    from PySide6.QtGui import QImage

    img = QImage(view.viewport().width(), view.viewport().height(),
                 QImage.Format.Format_ARGB32_Premultiplied)
    times = []
    for i in range(n):
        t = time.perf_counter()
        step(i)
        view.render_view(img)
        times.append((time.perf_counter() - t) * 1000)
    return times


def report(label: str, times: list[float]) -> None:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = (f"{label:<44} median {statistics.median(times):7.1f} ms  worst {max(times):7.1f} ms"
            f"  (n={len(times)}, peak RSS {rss:.0f} MB)")
    RESULTS.append(line)
    print("\n" + line)


MAPS = {"hex500": ("hex", 500, 500), "square1000": ("square", 1000, 1000)}


@pytest.fixture(scope="module", params=list(MAPS))
def big(request, app):
    kind, w, h = MAPS[request.param]
    t = time.perf_counter()
    m = random_map(kind, w, h)
    scene, view = canvas_for(m)
    print(f"\n{request.param}: map + scene in {(time.perf_counter() - t) * 1000:.0f} ms")
    yield request.param, m, scene, view
    scene.detach()
    view.close()


@pytest.mark.parametrize("px_per_cell", [2.0, 8.0, 24.0])
def test_pan_frames(big, px_per_cell):
    from app.canvas import geometry as geo

    name, m, scene, view = big
    view.set_ppu(px_per_cell / geo.cell_extent(m.grid))
    x, y, w, h = geo.map_bounds(m.grid)
    view.centre_on(w * 0.3, h * 0.3)
    view.render_view()  # first frame builds the visible chunks; pans then meet new chunks
    times = frames(view, lambda i: view.pan_by(40, 25))
    report(f"{name} pan at {px_per_cell:g} px/cell", times)


def test_zoom_frames(big):
    from app.canvas import geometry as geo

    name, m, scene, view = big
    ext = geo.cell_extent(m.grid)
    view.fit()
    lo, hi = view.ppu(), 40.0 / ext
    steps = np.geomspace(lo, hi, FRAMES // 2)
    seq = list(steps) + list(steps[::-1])
    x, y, w, h = geo.map_bounds(m.grid)
    view.centre_on(w / 2, h / 2)
    times = frames(view, lambda i: view.set_ppu(float(seq[i])), len(seq))
    report(f"{name} zoom fit <-> 40 px/cell", times)


def test_brush_stroke_50_cells(big, app):
    """One 50-cell stroke through the editor's brush tool (7-cell brush), with the repaint."""
    from app.canvas import geometry as geo
    from app.editor.workspace import MapEditor

    name, m, scene, view = big
    ed = MapEditor(gmap=m)
    ed.resize(*VIEW)
    ed.show()
    ed.canvas.set_ppu(16.0 / geo.cell_extent(m.grid))
    w = m.grid.width
    row = m.grid.height // 2
    start = row * w + w // 2 - 25
    ed.canvas.centre_on(*m.grid.center(start + 25))
    ed.set_terrain("lava")
    ed.brush_size = 1 if m.kind == "hex" else 3
    ed.canvas.render_view()
    tool = ed.tools["brush"]
    ed.set_tool("brush")
    for mode in ("partial", "full"):
        times = []
        for rep in range(5):
            cells = [start + i + (rep % 2) * w * 5 for i in range(50)]
            t = time.perf_counter()
            tool.press(cells[0], None)
            for c in cells[1:]:
                tool.move(c, None)
                if mode == "full":
                    ed.canvas.render_view()  # pessimistic: the whole view redrawn per step
                else:
                    app.processEvents()  # the view repaints only around changed cells
            tool.release(cells[-1], None)
            app.processEvents()
            times.append((time.perf_counter() - t) * 1000)
            ed.stack.undo()
            app.processEvents()
        assert ed.stack.count() == 1 and ed.stack.index() == 0  # a stroke is one step
        report(f"{name} 50-cell stroke, {mode} repaint per step", times)
    ed.scene.detach()
    ed.close()


def test_open_and_save(big, tmp_path):
    from engine.mapfile import load_map, save_map

    name, m, scene, view = big
    for suffix in (".rsmap", ".rsmap.gz"):
        p = tmp_path / f"big{suffix}"
        t = time.perf_counter()
        save_map(m, p)
        ts = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        m2 = load_map(p)
        tl = (time.perf_counter() - t) * 1000
        assert np.array_equal(m2.terrain, m.terrain)
        line = (f"{name} {suffix:<9} save {ts:7.0f} ms  open {tl:7.0f} ms  "
                f"({p.stat().st_size / 2**20:.1f} MB)")
        RESULTS.append(line)
        print("\n" + line)


def test_zz_summary():
    print("\n" + "\n".join(RESULTS))
