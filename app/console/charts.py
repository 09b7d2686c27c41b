"""Charts: each faction's measures over the steps (service.summary()), one plot a measure.

The measures are whatever the ruleset's `summary` hook returns (provinces, troops, gold,
fame...), so the charts work for any ruleset. Export writes the whole grid as one PNG.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

COLUMNS = 3


def measures(summary: dict[int, dict[int, dict[str, float]]]) -> list[str]:
    """Measure names in the order the ruleset first gives them."""
    out: list[str] = []
    for step in sorted(summary):
        for f in sorted(summary[step]):
            for m in summary[step][f]:
                if m not in out:
                    out.append(m)
    return out


def series(summary: dict[int, dict[int, dict[str, float]]], measure: str) -> dict[int, tuple[list[int], list[float]]]:
    out: dict[int, tuple[list[int], list[float]]] = {}
    for step in sorted(summary):
        for f, vals in sorted(summary[step].items()):
            if measure in vals:
                xs, ys = out.setdefault(int(f), ([], []))
                xs.append(step)
                ys.append(float(vals[measure]))
    return out


class Charts(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        pg.setConfigOptions(antialias=True, background="w", foreground="#333")
        self.note = QLabel("Run a turn to see the factions' measures over the turns.")
        self.view = pg.GraphicsLayoutWidget()
        self.view.setObjectName("consoleCharts")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.note)
        lay.addWidget(self.view, 1)
        self.plots: dict[str, pg.PlotItem] = {}

    def show_summary(self, summary: dict[int, dict[int, dict[str, float]]],
                     names: dict[int, str], colours: dict[int, str]) -> None:
        self.view.clear()
        self.plots = {}
        names_list = measures(summary)
        self.note.setText(f"{len(names_list)} measures over turns 0 to {max(summary, default=0)}"
                          if names_list else "The ruleset reports no measures for charts.")
        for i, m in enumerate(names_list):
            if i and i % COLUMNS == 0:
                self.view.nextRow()
            p = self.view.addPlot(title=m)
            p.showGrid(x=True, y=True, alpha=0.25)
            p.setLabel("bottom", "turn")
            if max(summary, default=0) <= 25:  # whole turns only, no 0.5 ticks
                p.getAxis("bottom").setTickSpacing(5, 1)
            if i == 0:
                p.addLegend(offset=(5, 5), labelTextSize="8pt")
            lines = series(summary, m)
            dots = len(lines) <= 8 and max(summary, default=0) <= 40  # dots only where readable
            for f, (xs, ys) in lines.items():
                colour = colours.get(f, "#888888")
                p.plot(xs, ys, pen=pg.mkPen(colour, width=2), symbol="o" if dots else None,
                       symbolSize=5, symbolBrush=colour, name=names.get(f, str(f)))
            self.plots[m] = p

    def export_png(self, path: str | Path, width: int = 1600) -> Path:
        from pyqtgraph.exporters import ImageExporter

        exp = ImageExporter(self.view.ci)
        exp.parameters()["width"] = width
        exp.export(str(path))
        return Path(path)
