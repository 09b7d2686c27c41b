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
from email.utils import formataddr, formatdate, getaddresses, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from engine.markup import clean, header


@dataclass
class OutboxEntry:
    faction: int
    path: Path | None           # the .eml written; None when skipped
    note: str = ""              # why skipped, or a warning (no e-mail address...)


def report_subject(game: str, step: int) -> str:
    return header(f"{game} turn {step} report")


def mail_address(value: str) -> str | None:
    """The address as a safe To/From value, or None if it is not one plain address
    (CR/LF, several addresses, no @): such a value is never put into a header."""
    raw = str(value or "")
    if not raw.strip() or header(raw) != raw.strip():
        return None
    name, addr = parseaddr(raw)
    if "@" not in addr or len(getaddresses([raw])) != 1 or any(c in addr for c in " ,;<>\"\\"):
        return None
    return formataddr((header(name), addr)) if name else addr


def build_message(game: str, step: int, faction_name: str, to: str, text: str,
                  html: str | None = None, bundle: Path | None = None,
                  sender: str = "") -> EmailMessage:
    msg = EmailMessage()
    if sender and (frm := mail_address(sender)):
        msg["From"] = frm
    if to and (rcpt := mail_address(to)):
        msg["To"] = rcpt
    msg["Subject"] = report_subject(game, step)
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = make_msgid(domain="realmsmith.local")
    msg["X-Realmsmith-Faction"] = header(faction_name)
    msg.set_content(clean(text), charset="utf-8")
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
    from engine.db.errors import GameDbError
    from engine.service import export_stem

    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise GameDbError(f"{folder}: cannot make the folder ({e.strerror or e})") from None
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
        try:
            p.write_bytes(msg.as_bytes(policy=SMTP))
        except OSError as e:  # disk full, no permission: say which file, keep the rest
            raise GameDbError(f"{p}: cannot write ({e.strerror or e})") from None
        who = f"faction {f.number} ({header(f.name)})"
        note = "" if mail_address(f.email) else (
            f"{who} has no e-mail address; add the recipient by hand" if not f.email.strip()
            else f"{who}: {f.email!r} is not one plain e-mail address; no To line written, "
                 "add the recipient by hand")
        out.append(OutboxEntry(f.number, p, note))
    return out


__all__ = ["OutboxEntry", "build_message", "report_subject", "write_outbox"]
