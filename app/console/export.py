"""Export a turn: every faction's reports, their bundles, a PNG of the map and the outbox.

    folder/
      <game>-t003-f01.txt/.html/.json, ...-gm.*, ...-f01-orders.txt   (service.export)
      bundles/<game>-t003-f01.rsbundle                                 (engine.bundle)
      <game>-t003-map.png                                              (app.render)
      outbox/<game>-t003-f01.eml                                       (engine.outbox)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ExportResult:
    folder: Path
    reports: list[Path] = field(default_factory=list)
    bundles: list[Path] = field(default_factory=list)
    png: Path | None = None
    outbox: list[Path] = field(default_factory=list)
    charts: Path | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[Path]:
        return self.reports + self.bundles + ([self.png] if self.png else []) + self.outbox

    def summary(self) -> str:
        parts = [f"{len(self.reports)} report files", f"{len(self.bundles)} bundles",
                 "a map PNG" if self.png else "no map PNG", f"{len(self.outbox)} e-mails"]
        return f"Exported {', '.join(parts)} to {self.folder}" + \
            ("" if not self.notes else "\n" + "\n".join(self.notes))


def export_turn(service: Any, folder: str | Path, step: int | None = None,
                png_scale: float = 8.0, sender: str = "") -> ExportResult:
    from app.render import export_png
    from engine.bundle import write_bundles
    from engine.outbox import write_outbox
    from engine.service import export_stem

    folder = Path(folder)
    step = service.current_step if step is None else step
    out = ExportResult(folder)
    out.reports = service.export(folder, step)
    out.bundles = write_bundles(service, folder / "bundles", step)
    png = folder / f"{export_stem(service.name)}-t{step:03d}-map.png"
    try:
        export_png(service.scenario.map, png, scale=png_scale)
        out.png = png
    except Exception as e:  # noqa: BLE001 (the reports are written; say what failed)
        out.notes.append(f"{png}: map image not written ({type(e).__name__}: {e})")
    by_faction = {int(p.name.rsplit("-f", 1)[1].split(".")[0]): p for p in out.bundles}
    entries = write_outbox(service, folder / "outbox", step, bundles=by_faction, sender=sender)
    out.outbox = [e.path for e in entries if e.path is not None]
    out.notes += [e.note for e in entries if e.note]
    return out
