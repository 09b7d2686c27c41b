"""The outbox: one ready-to-send e-mail (.eml) per faction for a turn.

Each message has To = the faction's e-mail, From = the game's GM address, the subject
the ruleset gives (`Ruleset.report_subject`: a reply to it is matched as orders for the
next turn), the text report as the UTF-8 body, and the HTML report, the orders template
and the faction's report bundle (gzip-compressed, `.rsbundle.gz`, which the viewer opens
as it is) attached. The GM sends them with any mail program (most open .eml files as a
draft to send); Realmsmith never stores a mail account or its password. The GM address
is the scenario's meta "gm_email" (set once: `realmsmith outbox --from`, which keeps it);
without one the messages have no From line and a note says so.

    write_outbox(service, "out/outbox", bundles={2: Path("...rsbundle")})
"""

from __future__ import annotations

import gzip
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
    """The generic subject (Ruleset.report_subject's default, for callers without a
    ruleset at hand)."""
    return f"{game}: report of turn {step}, orders for turn {step + 1}"


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


def compressed(data: bytes) -> bytes:
    """gzip with a fixed time stamp: the same bundle gives the same attachment."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def build_message(game: str, step: int, faction_name: str, to: str, text: str,
                  html: str | None = None, bundle: Path | None = None,
                  sender: str = "", subject: str = "", template: str = "") -> EmailMessage:
    msg = EmailMessage()
    if sender and (frm := mail_address(sender)):
        msg["From"] = frm
    if to and (rcpt := mail_address(to)):
        msg["To"] = rcpt
    msg["Subject"] = header(subject or report_subject(game, step))
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = make_msgid(domain="realmsmith.local")
    msg["X-Realmsmith-Faction"] = header(faction_name)
    msg.set_content(clean(text), charset="utf-8")
    if html:
        msg.add_attachment(html.encode("utf-8"), maintype="text", subtype="html",
                           filename=f"report-t{step:03d}.html")
    if template:
        msg.add_attachment(template.encode("utf-8"), maintype="text", subtype="plain",
                           filename=f"orders-t{step + 1:03d}.txt")
    if bundle is not None:
        msg.add_attachment(compressed(Path(bundle).read_bytes()), maintype="application",
                           subtype="gzip", filename=Path(bundle).name + ".gz")
    return msg


def gm_address(service: Any, given: str = "") -> str:
    """The From address: the one given, else the game's (scenario meta "gm_email")."""
    return (given or str(service.scenario.meta.get("gm_email", "") or "")).strip()


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
    sender = gm_address(service, sender)
    formats = service.ruleset.formats(service.scenario)
    subject = service.ruleset.report_subject(scen, step)
    state = service.state(step)
    bundles = dict(bundles or {})
    out = []
    reported = set(service.reported_factions(step))  # a sequential step: whose turn it was
    for f in (f for f in scen.factions if f.number in reported):
        text = service.report(step, f.number, "text") if "text" in formats else ""
        html = service.report(step, f.number, "html") if "html" in formats else None
        try:
            template = service.ruleset.orders_template(state, f.number, scen)
        except Exception:  # a template is a convenience; the report goes out anyway
            template = ""
        b = bundles.get(f.number)
        if b is None:
            b = write_bundle(service, f.number, folder / bundle_name(game, step, f.number), step)
        msg = build_message(game, step, f.name, f.email, text, html, b, sender, subject, template)
        p = folder / f"{export_stem(game)}-t{step:03d}-f{f.number:02d}.eml"
        try:
            p.write_bytes(msg.as_bytes(policy=SMTP))
        except OSError as e:  # disk full, no permission: say which file, keep the rest
            raise GameDbError(f"{p}: cannot write ({e.strerror or e})") from None
        who = f"faction {f.number} ({header(f.name)})"
        notes = [] if mail_address(f.email) else [
            f"{who} has no e-mail address; add the recipient by hand" if not f.email.strip()
            else f"{who}: {f.email!r} is not one plain e-mail address; no To line written, "
                 "add the recipient by hand"]
        if not (sender and mail_address(sender)) and not out:
            notes.append("no GM address for From: give --from once (it is kept for the game)")
        out.append(OutboxEntry(f.number, p, "; ".join(notes)))
    return out


__all__ = ["OutboxEntry", "build_message", "compressed", "gm_address", "report_subject",
           "write_outbox"]
