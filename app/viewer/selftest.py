"""`realmsmith-viewer --selftest [BUNDLE]`: open a bundle offscreen and check that the map,
the report and the orders checker work. Prints OK and returns 0, or the reason and 1."""

from __future__ import annotations

import sys
from pathlib import Path


def run_selftest(bundle: str | Path | None = None) -> int:
    try:
        msg = _selftest(bundle)
    except Exception as e:  # noqa: BLE001 (the reason is the whole point of a self-test)
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"OK {msg}")
    return 0


def _selftest(bundle: str | Path | None) -> str:
    from PySide6.QtWidgets import QApplication

    from app.viewer import sample_bundle
    from app.viewer.workspace import ViewerWorkspace

    path = Path(bundle) if bundle else sample_bundle()
    if not path.is_file():
        raise RuntimeError(f"{path}: no such file")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    ws = ViewerWorkspace(interactive=False)
    errors: list[str] = []
    ws.statusMessage.connect(errors.append)
    ws.resize(1200, 800)
    if not ws.open_paths([path]):
        raise RuntimeError(errors[-1] if errors else f"{path}: does not open")
    ws.show()
    app.processEvents()
    tv = ws.turn
    gmap = ws.gmap
    if gmap is None or len(gmap.grid) == 0:
        raise RuntimeError("no map")
    ws.canvas.fit()
    image = ws.canvas.render_view()
    if image.isNull() or image.width() < 10:
        raise RuntimeError("the map does not draw")
    if not tv.report_text.strip():
        raise RuntimeError(f"no text report for turn {tv.step}")
    if ws.regions.model.rowCount() == 0 and ws.units.model.rowCount() == 0:
        raise RuntimeError("no regions or units listed")
    clean = ws.orders.run_check()
    broken = [d for d in clean if "failed" in d.message]
    if broken:
        raise RuntimeError(f"the checker fails: {broken[0].message}")
    ws.orders.edit.setPlainText(ws.orders.text() + "\nXYZZY 1 2 3\n")
    found = ws.orders.run_check()
    if len(found) <= len(clean):
        raise RuntimeError("the checker did not flag an unreadable order")
    ws.close()
    return (f"{path.name}: {tv.scenario.name}, {tv.faction_name}, turn {tv.step}; "
            f"{len(gmap.grid)} cells, {ws.units.model.rowCount()} units, "
            f"{len(tv.report_text.splitlines())} report lines, checker ok")
