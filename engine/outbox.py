"""The outbox: one ready-to-send e-mail (.eml) per faction for a turn.

Each message has To = the faction's e-mail, Subject = "<game> turn <N> report", the text
report as the UTF-8 body, and the HTML report and the faction's report bundle attached.
The GM sends them with any mail program (most open .eml files as a draft to send);
Realmsmith never stores a mail account or its password. From is the GM address given
(or the scenario's meta "gm_email"), left out if there is none.

    write_outbox(service, "out/outbox", bundles={2: Path("...rsbundle")})
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any


@dataclass
class OutboxEntry:
    faction: int
    path: Path | None           # the .eml written; None when skipped
    note: str = ""              # why skipped, or a warning (no e-mail address...)


def report_subject(game: str, step: int) -> str:
    return f"{game} turn {step} report"


def build_message(game: str, step: int, faction_name: str, to: str, text: str,
                  html: str | None = None, bundle: Path | None = None,
                  sender: str = "") -> EmailMessage:
    msg = EmailMessage()
    if sender:
        msg["From"] = sender
    if to:
        msg["To"] = to
    msg["Subject"] = report_subject(game, step)
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = make_msgid(domain="realmsmith.local")
    msg["X-Realmsmith-Faction"] = faction_name
    msg.set_content(text, charset="utf-8")
    if html:
        msg.add_attachment(html.encode("utf-8"), maintype="text", subtype="html",
                           filename=f"report-t{step:03d}.html")
    if bundle is not None:
        msg.add_attachment(Path(bundle).read_bytes(), maintype="application",
                           subtype="x-realmsmith-bundle", filename=Path(bundle).name)
    return msg


def write_outbox(service: Any, folder: str | Path, step: int | None = None,
                 bundles: dict[int, Path] | None = None, sender: str = "") -> list[OutboxEntry]:
    """One .eml per faction into folder (`<game>-t<NNN>-f<FF>.eml`); bundles written
    alongside when not given. A faction without an e-mail address still gets its file
    (no To line) and a note saying so."""
    from engine.bundle import bundle_name, write_bundle
    from engine.service import export_stem

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    step = service.current_step if step is None else step
    scen = service.scenario
    game = service.name
    sender = sender or str(scen.meta.get("gm_email", "") or "")
    formats = service.ruleset.report_formats
    bundles = dict(bundles or {})
    out = []
    for f in scen.factions:
        text = service.report(step, f.number, "text") if "text" in formats else ""
        html = service.report(step, f.number, "html") if "html" in formats else None
        b = bundles.get(f.number)
        if b is None:
            b = write_bundle(service, f.number, folder / bundle_name(game, step, f.number), step)
        msg = build_message(game, step, f.name, f.email, text, html, b, sender)
        p = folder / f"{export_stem(game)}-t{step:03d}-f{f.number:02d}.eml"
        p.write_bytes(msg.as_bytes(policy=SMTP))
        out.append(OutboxEntry(f.number, p, "" if f.email else
                               f"faction {f.number} ({f.name}) has no e-mail address; add the "
                               "recipient by hand"))
    return out


__all__ = ["OutboxEntry", "build_message", "report_subject", "write_outbox"]
