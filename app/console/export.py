"""Export a turn: every faction's reports, their bundles, a PNG of the map and the outbox.

    folder/
      <game>-t003-f01.txt/.html/.json, ...-gm.*, ...-f01-orders.txt   (service.export)
      bundles/<game>-t003-f01.rsbundle                                 (engine.bundle)
      <game>-t003-map.png     the turn's political map                 (app.render)
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


def export_files(service: Any, folder: str | Path, step: int | None = None, sender: str = "",
                 progress: Any = None, cancel: Any = None) -> ExportResult:
    """Reports, bundles and the outbox (no Qt: may run in a worker thread)."""
    from engine.bundle import bundle_name, write_bundle
    from engine.outbox import write_outbox
    from engine.service import RunCancelled

    tell = progress or (lambda _f, _m: None)
    folder = Path(folder)
    step = service.current_step if step is None else step
    out = ExportResult(folder)
    tell(0.0, "writing reports")
    out.reports = service.export(folder, step)
    factions = service.scenario.factions
    by_faction = {}
    last = service.last_report_steps(step)
    turns: dict = {}  # each step's state and events, read once for every bundle
    for i, f in enumerate(factions):
        if cancel is not None and cancel.is_set():
            raise RunCancelled("export cancelled; the files written so far stay")
        tell(0.05 + 0.85 * i / max(1, len(factions)), f"bundle of {f.name}")
        own = last[f.number]  # sequential: the clan's own last turn
        p = folder / "bundles" / bundle_name(service.name, own, f.number)
        bundle = write_bundle(service, f.number, p, own, turns)
        if own == step:  # the outbox mails only this step's reports, with these bundles
            by_faction[f.number] = bundle
        out.bundles.append(bundle)
    tell(0.9, "writing the outbox")
    entries = write_outbox(service, folder / "outbox", step, bundles=by_faction, sender=sender)
    out.outbox = [e.path for e in entries if e.path is not None]
    out.notes += [e.note for e in entries if e.note]
    return out


def export_images(service: Any, out: ExportResult, step: int | None = None,
                  png_scale: float = 8.0) -> ExportResult:
    """The turn's political map PNG: owners, troops, names, legend and turn, ready for a
    forum post or a mail (Qt rendering: on the GUI thread)."""
    from app.render import export_political_png
    from engine.service import export_stem

    step = service.current_step if step is None else step
    png = out.folder / f"{export_stem(service.name)}-t{step:03d}-map.png"
    try:
        export_political_png(service, png, step)
        out.png = png
    except Exception as e:  # noqa: BLE001 (the reports are written; say what failed)
        out.notes.append(f"{png}: map image not written ({type(e).__name__}: {e})")
    return out


def export_turn(service: Any, folder: str | Path, step: int | None = None,
                png_scale: float = 8.0, sender: str = "") -> ExportResult:
    return export_images(service, export_files(service, folder, step, sender), step, png_scale)
