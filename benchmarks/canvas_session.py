"""A pan-and-zoom session in the map editor, in a process of its own, for memory figures.

    QT_QPA_PLATFORM=offscreen python benchmarks/canvas_session.py MAP.rsmap [SESSIONS]

Opens MAP in the editor (1280x800), then per session: zooms from fit to 40 px/cell and
back, and pans 40 frames at each of 2, 8, 16, 24 and 40 px/cell over different parts of
the map, letting the event loop run as a user's would. Prints resident memory (VmRSS) after
opening, after the first session and after the last, and the peak (VmHWM).
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def rss_mb(field: str = "VmRSS") -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def session(app, canvas, gmap, k: int) -> None:
    import numpy as np

    from app.canvas import geometry as geo

    ext = geo.cell_extent(gmap.grid)
    x, y, w, h = geo.map_bounds(gmap.grid)
    canvas.fit()
    for ppu in list(np.geomspace(canvas.ppu(), 40 / ext, 20)) + list(np.geomspace(40 / ext, canvas.ppu(), 20)):
        canvas.set_ppu(float(ppu))
        canvas.repaint()
        app.processEvents()
    for j, px in enumerate((2, 8, 16, 24, 40)):
        canvas.set_ppu(px / ext)
        canvas.centre_on(w * (0.15 + 0.17 * ((j + k) % 5)), h * (0.2 + 0.15 * ((j + 2 * k) % 5)))
        for i in range(40):
            canvas.pan_by(60 if (i // 10) % 2 == 0 else -20, 35)
            canvas.repaint()
            app.processEvents()


def main(argv: list[str]) -> int:
    from app.editor.workspace import MapEditor
    from app.render import ensure_app
    from engine.mapfile import load_map

    app = ensure_app()
    gmap = load_map(argv[0])
    sessions = int(argv[1]) if len(argv) > 1 else 3
    ed = MapEditor(gmap=gmap)
    ed.resize(1280, 800)
    ed.show()
    app.processEvents()
    opened = rss_mb()
    after = []
    for k in range(sessions):
        session(app, ed.canvas, gmap, k)
        after.append(rss_mb())
    print(f"RSS opened {opened:.0f} MB, after 1 session {after[0]:.0f} MB, after {sessions} "
          f"{after[-1]:.0f} MB, peak {rss_mb('VmHWM'):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
