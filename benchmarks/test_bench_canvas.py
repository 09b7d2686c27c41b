"""Map canvas benchmarks: the rows of docs/performance.md "Map canvas and viewer bundle".

    QT_QPA_PLATFORM=offscreen python -m pytest benchmarks/test_bench_canvas.py --benchmark-only -s

The maps carry every layer (terrain, rivers, roads, sites, named areas, labels; see
benchmarks/bigmaps.py). A frame is the whole 1280x800 view rendered into a QImage
offscreen, as the screen would be (pessimistic: the real viewport only repaints the strip
a pan uncovers). Frames are timed one round each by pytest-benchmark (min, median and max
are the figures); no events are processed between frames, so no idle time helps. Memory is
measured in a separate editor process (benchmarks/canvas_session.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bigmaps import describe, full_map  # noqa: E402

VIEW = (1280, 800)
MAPS = {"hex500": ("hex", 500, 500), "square1000": ("square", 1000, 1000)}


@pytest.fixture(scope="module")
def app():
    from app.render import ensure_app

    return ensure_app()


@pytest.fixture(scope="module", params=list(MAPS))
def big(request, app, record):
    kind, w, h = MAPS[request.param]
    m = full_map(kind, w, h)
    record(f"{request.param}: {describe(m)}")
    yield request.param, m


def canvas_for(gmap):
    from PySide6.QtCore import Qt

    from app.canvas.scene import MapScene
    from app.canvas.view import MapCanvas

    scene = MapScene(gmap)
    view = MapCanvas()
    view.resize(*VIEW)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.show()
    view.set_map_scene(scene)
    return scene, view


@pytest.fixture
def canvas(big, record):
    """The map open in a canvas, its first complete frame drawn (area outlines computed)."""
    import time

    name, m = big
    t = time.perf_counter()
    scene, view = canvas_for(m)
    view.render_view()
    record(f"{name}: scene and first complete frame in {(time.perf_counter() - t) * 1000:.0f} ms")
    yield name, m, scene, view
    scene.detach()
    view.close()


def frame_figures(benchmark, record, label: str) -> None:
    s = benchmark.stats.stats
    record(f"{label:<46} median {s.median * 1000:6.1f} ms  worst {s.max * 1000:6.1f} ms  "
           f"(min {s.min * 1000:.1f}, n={s.rounds})")


def run_frames(benchmark, view, step, rounds: int) -> None:
    from PySide6.QtGui import QImage

    img = QImage(view.viewport().width(), view.viewport().height(),
                 QImage.Format.Format_ARGB32_Premultiplied)
    i = iter(range(10**9))

    def frame():
        step(next(i))
        view.render_view(img, complete=False)

    benchmark.pedantic(frame, rounds=rounds, iterations=1, warmup_rounds=0)


def test_bench_pan_frames(canvas, benchmark, record):
    """Pans of 40x25 px at 2, 8, 24 and 40 px/cell; each zoom change is followed by 24 pan
    frames, and the first frame after the zoom (which meets no cached tile) is counted."""
    from app.canvas import geometry as geo

    name, m, scene, view = canvas
    ext = geo.cell_extent(m.grid)
    x, y, w, h = geo.map_bounds(m.grid)
    levels = [2.0, 8.0, 24.0, 40.0]
    per = 25

    def step(i: int) -> None:
        if i % per == 0:
            view.set_ppu(levels[i // per % len(levels)] / ext)
            view.centre_on(w * 0.3, h * 0.3)
        else:
            view.pan_by(40, 25)

    run_frames(benchmark, view, step, per * len(levels))
    frame_figures(benchmark, record, f"{name} pan, 2-40 px/cell, incl. after zoom")


def test_bench_zoom_frames(canvas, benchmark, record):
    """Zoom from fit to 40 px/cell and back in 24 geometric steps each way."""
    from app.canvas import geometry as geo

    name, m, scene, view = canvas
    view.fit()
    steps = np.geomspace(view.ppu(), 40.0 / geo.cell_extent(m.grid), 25)
    seq = list(steps[1:]) + list(steps[::-1][1:])
    x, y, w, h = geo.map_bounds(m.grid)
    view.centre_on(w / 2, h / 2)
    run_frames(benchmark, view, lambda i: view.set_ppu(float(seq[i])), len(seq))
    frame_figures(benchmark, record, f"{name} zoom fit <-> 40 px/cell")


@pytest.mark.parametrize("repaint", ["viewport", "whole view"])
def test_bench_brush_step(big, app, benchmark, record, repaint):
    """One brush step (the next cell of a drag, brush of 7 hexes / 3x3 squares) through
    the editor's tool, with the repaint: the viewport's own (only around the changed
    cells) or, pessimistically, the whole view rendered."""
    from app.canvas import geometry as geo
    from app.editor.workspace import MapEditor

    name, m = big
    ed = MapEditor(gmap=m.copy())
    ed.resize(*VIEW)
    ed.show()
    ed.canvas.set_ppu(16.0 / geo.cell_extent(m.grid))
    g = ed.gmap.grid
    row = g.height // 2
    start = row * g.width + g.width // 2 - 40
    ed.canvas.centre_on(*g.center(start + 40))
    ed.set_terrain("lava")
    ed.brush_size = 1 if m.kind == "hex" else 3
    app.processEvents()
    ed.canvas.render_view()
    tool = ed.tools["brush"]
    ed.set_tool("brush")
    tool.press(start, None)
    cells = iter(range(start + 1, start + 10**6))

    def brush_step():
        tool.move(next(cells), None)
        if repaint == "viewport":
            app.processEvents()
        else:
            ed.canvas.render_view(complete=False)

    benchmark.pedantic(brush_step, rounds=60, iterations=1)
    tool.release(None, None)
    assert ed.stack.count() == 1  # the drag is one undo step
    frame_figures(benchmark, record, f"{name} brush step + {repaint} repaint")
    ed.scene.detach()
    ed.close()


def test_bench_memory_after_session(big, benchmark, record, tmp_path):
    """The editor in its own process: open the map, pan and zoom (benchmarks/canvas_session.py);
    resident memory after one session and after three (bounded caches stop the growth)."""
    from engine.mapfile import save_map

    name, m = big
    path = tmp_path / f"{name}.rsmap"
    save_map(m, path)
    script = Path(__file__).resolve().parent / "canvas_session.py"
    out: dict[str, str] = {}

    def session():
        proc = subprocess.run([sys.executable, str(script), str(path), "3"], capture_output=True,
                              text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
                              timeout=600)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out["text"] = proc.stdout.strip()

    benchmark.pedantic(session, rounds=1, iterations=1)
    record(f"{name} editor memory: {out['text']}")


def test_bench_viewer_bundle_size(benchmark, record, tmp_path):
    """Build the player viewer with installer/build.py and weigh dist/ (bytes of files)."""
    pytest.importorskip("PyInstaller")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "installer_build", Path(__file__).resolve().parents[1] / "installer" / "build.py")
    build = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = build
    spec.loader.exec_module(build)
    got = {}

    def run():
        got["built"] = build.build("viewer", tmp_path / "dist", tmp_path / "work", quiet=True)

    benchmark.pedantic(run, rounds=1, iterations=1)
    built = got["built"]
    code, out, startup_s = build.selftest(built)
    assert code == 0, out
    record(f"viewer bundle: {built.size_bytes() / 1e6:.0f} MB in dist/, "
           f"frozen --selftest {startup_s:.2f} s")
    for line in build.weigh(built.folder)[:12]:
        record(f"  {line}")
