"""Orders from e-mail: one .eml message or an mbox of them.

A message gives one submission per plain-text attachment (orders often travel as an
attached `SP3.R14`), or else one from its body. Bodies lose what a mail client adds around
the orders: quoted reply lines (`> ...` with the `... wrote:` line before them) and the
signature after a `-- ` line. HTML-only mail is turned into text. The charset the message
declares is honoured; when it is missing or wrong the intake decoder guesses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import parseaddr, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import PurePosixPath
from typing import BinaryIO

from engine.intake.decode import DEFAULT_MAX_BYTES, Decoded, binary_kind, decode
from engine.intake.plainmail import PlainMail, plain_headers
from engine.markup import whole
from engine.orders import INVALID, Diagnostic, Severity

_PARSER = BytesParser(policy=policy.default)
_HEADER_LINE = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*:[ \t]")
_KNOWN_HEADERS = (b"from", b"to", b"subject", b"date", b"received", b"message-id",
                  b"mime-version", b"return-path", b"content-type", b"reply-to", b"cc",
                  b"delivered-to", b"x-mailer", b"user-agent")
_ESCAPED_FROM = re.compile(rb"^>+From ")
_WROTE = re.compile(r"(wrote|schrieb|a écrit|escribió|scrisse|schreef)\s*:\s*$", re.I)
# File names of attachments that are text even when mailed as application/octet-stream.
_BINARY_SUFFIXES = frozenset({".doc", ".docx", ".odt", ".pdf", ".zip", ".png", ".jpg",
                              ".jpeg", ".gif", ".xls", ".xlsx", ".rtf", ".gz", ".7z", ".rar",
                              ".p7s", ".asc", ".sig", ".vcf", ".ics", ".html", ".htm"})


def looks_like_message(head: bytes) -> bool:
    """True when a file starts with RFC 5322 header lines (an .eml saved without suffix)."""
    lines = head.split(b"\n", 30)[:30]
    if not lines or not _HEADER_LINE.match(lines[0]):
        return False
    known = sum(1 for ln in lines if ln.split(b":", 1)[0].strip().lower() in _KNOWN_HEADERS)
    return known >= 2


def looks_like_mbox(head: bytes) -> bool:
    """mbox files start with a `From sender date` separator line followed by headers."""
    if not head.startswith(b"From "):
        return False
    rest = head.split(b"\n", 1)[1] if b"\n" in head else b""
    return bool(_HEADER_LINE.match(rest))


def iso_utc(dt: datetime) -> str:
    if dt.tzinfo is None:  # RFC 5322 "-0000": time zone unknown; take it as UTC
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_ADDRESS = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)*")


def sender_address(msg: Message) -> str:
    """The bare address of the From header; from a damaged header, the first thing that
    looks like an address."""
    raw = msg.get("From", "")
    addr = ""
    try:
        addrs: tuple[Address, ...] = raw.addresses  # type: ignore[union-attr]
        if addrs:
            addr = addrs[0].addr_spec.strip("<>")
    except (AttributeError, IndexError, TypeError):
        addr = parseaddr(str(raw))[1]
    if addr and _ADDRESS.fullmatch(addr):
        return addr
    found = _ADDRESS.search(str(raw))
    return found.group() if found else addr


def message_date(msg: Message) -> str:
    """The Date header as UTC ISO; "" when missing or unreadable -- also a year past 9999
    or numbers beyond any clock, which a hostile mail may carry (the mail is still read)."""
    try:
        raw = msg.get("Date")
        if raw is None:
            return ""
        dt = getattr(raw, "datetime", None)
        if dt is None:
            dt = parsedate_to_datetime(str(raw))
        return iso_utc(dt)
    except (TypeError, ValueError, IndexError, OverflowError):
        return ""


class _HtmlText(HTMLParser):
    """HTML to plain text: block elements and <br> start new lines; scripts are dropped."""

    BLOCK = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
                       "pre", "blockquote", "table", "ul", "ol", "hr"})
    SKIP = frozenset({"script", "style", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1  # quoted reply in HTML mail: dropped like `>` lines
        if tag in self.BLOCK:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self.BLOCK and tag != "br":
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip and not self.quote:
            self.out.append(data.replace("\u00a0", " "))


def html_to_text(html: str) -> str:
    p = _HtmlText()
    p.feed(html)
    p.close()
    lines = [" ".join(ln.split()) for ln in "".join(p.out).split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


_ORIGINAL = re.compile(r"^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|"
                       r"Message d'origine)\s*-{2,}\s*$", re.I)
_FORWARD = re.compile(r"^\s*(-{2,}\s*(Forwarded message|Weitergeleitete Nachricht|"
                      r"Message transféré)\s*-{2,}|Begin forwarded message:)\s*$", re.I)
_FWD_HEADER = re.compile(r"^\s*(From|To|Cc|Date|Sent|Subject|Reply-To|Von|An|Datum|Betreff|"
                         r"Gesendet|De|À|Objet|Envoyé)\s*:", re.I)


def strip_reply(text: str, name: str) -> tuple[str, list[Diagnostic]]:
    """Drop quoted reply lines, an Outlook-style quoted original, forwarded-message header
    blocks and the signature from a mail body, saying what went."""
    lines = text.split("\n")
    diags: list[Diagnostic] = []
    for i, ln in enumerate(lines):
        if _ORIGINAL.match(ln):
            dropped = sum(1 for x in lines[i:] if x.strip())
            lines = lines[:i]
            diags.append(Diagnostic(INVALID, f"quoted original message dropped ({dropped} "
                                    f"line{'s' * (dropped != 1)} from line {i + 1})",
                                    line=i + 1, file=name, severity=Severity.WARNING))
            break
    i = 0
    while i < len(lines):
        if _FORWARD.match(lines[i]):
            j = i + 1
            while j < len(lines) and (_FWD_HEADER.match(lines[j]) or
                                      (j == i + 1 and not lines[j].strip())):
                j += 1
            diags.append(Diagnostic(INVALID, f"forwarded-message header dropped (lines {i + 1}"
                                    f"-{j})", line=i + 1, file=name, severity=Severity.INFO))
            del lines[i:j]
            continue
        i += 1
    for i, ln in enumerate(lines):
        if ln in ("-- ", "--"):
            dropped = sum(1 for x in lines[i + 1:] if x.strip())
            lines = lines[:i]
            diags.append(Diagnostic(INVALID, f"signature after '-- ' dropped ({dropped} "
                                    f"line{'s' * (dropped != 1)})", line=i + 1, file=name,
                                    severity=Severity.INFO))
            break
    kept: list[str] = []
    quoted: list[int] = []
    intro = 0
    for i, ln in enumerate(lines):
        if ln.lstrip().startswith(">"):
            quoted.append(i + 1)
            # "On Monday, X wrote:" introduces the quote; it is not an order either.
            if kept and _WROTE.search(kept[-1]):
                kept.pop()
                intro += 1
            continue
        kept.append(ln)
    if quoted:
        diags.append(Diagnostic(
            INVALID, f"{len(quoted)} quoted reply line{'s' * (len(quoted) != 1)} "
            f"(starting with '>') dropped, from line {quoted[0]}"
            + (" with the '... wrote:' line before them" if intro else ""),
            line=quoted[0], file=name, severity=Severity.WARNING))
    out = "\n".join(kept).rstrip("\n ")
    return (out + "\n" if out else ""), diags


def _part_decoded(part: Message, label: str, max_bytes: int) -> Decoded:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = b""
    return decode(payload, label, max_bytes, charset=part.get_content_charset())


def _is_text_attachment(part: Message) -> bool:
    fn = part.get_filename() or ""
    suffix = PurePosixPath(fn).suffix.lower()
    if suffix in _BINARY_SUFFIXES:
        return False
    ctype = part.get_content_type()
    if ctype == "text/plain":
        return True
    # Orders files named SP3.R14 are often sent as octet-stream; sniff their bytes.
    if ctype in ("application/octet-stream", "application/x-unknown") and fn:
        data = part.get_payload(decode=True)
        return isinstance(data, bytes) and binary_kind(data) is None
    return False


@dataclass
class MailText:
    """One orders text found in a message: its body or one attachment."""

    text: str
    encoding: str
    part_name: str = ""  # attachment file name; "" for the body
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # A forwarded message inside the mail: its own sender, subject and date (None: the mail's).
    sender: str | None = None
    subject: str | None = None
    received_at: str | None = None


@dataclass
class MailMessage:
    sender: str = ""
    subject: str = ""
    received_at: str = ""
    message_id: str = ""
    texts: list[MailText] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # nothing usable, and why


def _problem(message: str, label: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(INVALID, message, file=label, severity=severity)


def parse_message(data: bytes, label: str, max_bytes: int = DEFAULT_MAX_BYTES) -> MailMessage:
    """Read one RFC 5322 message; never raises (problems are collected)."""
    out = MailMessage()
    if len(data) > max_bytes:
        out.problems.append(_problem(f"{label} is too large ({len(data):,} bytes; the limit "
                                     f"is {max_bytes:,}); not read", label))
        return out
    plain = plain_headers(data)
    if plain is not None and _plain_message(plain, label, max_bytes, out):
        _whole(out)
        return out
    out = MailMessage()
    try:
        msg = _PARSER.parsebytes(data)
        if not msg.keys():
            out.problems.append(_problem(f"{label} is not an e-mail message (no headers)",
                                         label))
            return out
        out.sender = sender_address(msg)
        out.subject = " ".join(str(msg.get("Subject", "")).split())
        out.received_at = message_date(msg)
        out.message_id = str(msg.get("Message-ID", "")).strip()
        _collect_texts(msg, label, out, max_bytes)
    except Exception as e:  # the email package can trip over hostile headers
        out.texts = []
        out.problems.append(_problem(f"{label} could not be read as an e-mail message "
                                     f"({type(e).__name__}: {e})", label))
    _whole(out)
    return out


def _plain_message(plain: PlainMail, label: str, max_bytes: int, out: MailMessage) -> bool:
    """A plain message (engine.intake.plainmail) read as parse_message reads any; False
    where its date is one for the email package to judge."""
    if plain.date is not None:
        try:
            out.received_at = iso_utc(plain.date)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
    out.sender, out.message_id = plain.sender, plain.message_id
    out.subject = " ".join(plain.subject.split())
    text, encoding, diags, dropped = _text_of_body(
        decode(plain.body, label, max_bytes, charset=plain.charset), "text/plain", label)
    _body_found(out, text, encoding, diags, dropped, label)
    return True


def _whole(out: MailMessage) -> None:
    """Header bytes the email package could not decode come back as lone surrogates,
    which no database or encoder takes: decode them as UTF-8 or replace them."""
    out.sender, out.subject, out.message_id = (whole(x) for x in (out.sender, out.subject,
                                                                  out.message_id))
    for t in out.texts:
        t.part_name = whole(t.part_name)
        t.sender = None if t.sender is None else whole(t.sender)
        t.subject = None if t.subject is None else whole(t.subject)


def _collect_texts(msg: Message, label: str, out: MailMessage, max_bytes: int) -> None:
    defects = sorted({type(d).__name__ for p in msg.walk() for d in p.defects})
    if defects:
        out.problems.append(_problem(f"{label} is damaged ({', '.join(defects)}); "
                                     "read what could be read", label, Severity.WARNING))
    body = msg.get_body(preferencelist=("plain", "html")) if isinstance(msg, EmailMessage) \
        else None
    attachments: list[MailText] = []
    ignored: list[Diagnostic] = []
    forwarded: list[Message] = []
    for part in _leaves(msg):
        if part is body:
            continue
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if isinstance(inner, Message):
                forwarded.append(inner)
            continue
        disposition = part.get_content_disposition()
        fn = part.get_filename()
        if disposition != "attachment" and not fn:
            continue
        where = f"{label}#{fn or '(unnamed attachment)'}"
        if not _is_text_attachment(part):
            if part.get_content_type() != "text/html":
                ignored.append(_problem(f"{where} ({part.get_content_type()}) ignored: "
                                        "not a plain-text attachment", where,
                                        Severity.WARNING))
            continue
        dec = _part_decoded(part, where, max_bytes)
        if dec.refused or not dec.text.strip():
            ignored.extend(dec.diagnostics)
            continue
        attachments.append(MailText(dec.text, dec.encoding, fn or "", dec.diagnostics))
    if not attachments and forwarded:
        attachments = _forwarded_texts(forwarded, label, max_bytes, ignored)
    if attachments:
        out.texts = attachments
        if body is not None:
            text, _, _, _ = _body_text(body, label, max_bytes)
            n = len([ln for ln in text.split("\n") if ln.strip()])
            if n:
                names = ", ".join(a.part_name for a in attachments)
                attachments[0].diagnostics.append(_problem(
                    f"{label}: orders taken from the attachment{'s' * (len(attachments) > 1)} "
                    f"{names}; the message body ({n} line{'s' * (n != 1)}) was not read",
                    label, Severity.INFO))
        out.problems.extend(ignored)
        return
    out.problems.extend(ignored)
    if body is None:
        out.problems.append(_problem(f"{label} has no text body and no text attachment",
                                     label))
        return
    _body_found(out, *_body_text(body, label, max_bytes), label)


def _body_found(out: MailMessage, text: str, encoding: str, diags: list[Diagnostic],
                dropped: list[Diagnostic], label: str) -> None:
    """The message body's orders text, or the problem that it has none."""
    if not text.strip():
        out.problems.extend(d for d in dropped if d.severity != Severity.INFO)
        why = "nothing is left but quotes and signature" if dropped else "the body is empty"
        out.problems.append(_problem(f"{label} has no orders text ({why})", label,
                                     Severity.WARNING))
        return
    out.texts.append(MailText(text, encoding, "", diags))


def _leaves(msg: Message) -> Iterator[Message]:
    """Leaf parts; an attached message (message/rfc822) is a leaf, not searched inside."""
    payload = msg.get_payload()
    if msg.is_multipart() and isinstance(payload, list):
        for p in payload:
            if p.get_content_type() == "message/rfc822":
                yield p
            else:
                yield from _leaves(p)
    elif msg.get_content_type() != "message/rfc822":
        yield msg


def _forwarded_texts(inners: list[Message], label: str, max_bytes: int,
                     ignored: list[Diagnostic]) -> list[MailText]:
    """Orders from messages forwarded as attachments, each with its original sender."""
    out: list[MailText] = []
    for k, inner in enumerate(inners, start=1):
        where = f"{label}#forwarded-{k}"
        sub = MailMessage()
        sub.sender = sender_address(inner)
        sub.subject = " ".join(str(inner.get("Subject", "")).split())
        sub.received_at = message_date(inner)
        _collect_texts(inner, where, sub, max_bytes)
        ignored.extend(sub.problems)
        for t in sub.texts:
            t.part_name = t.part_name or f"forwarded-{k}"
            t.sender = t.sender if t.sender is not None else sub.sender
            t.subject = t.subject if t.subject is not None else sub.subject
            t.received_at = t.received_at if t.received_at is not None else sub.received_at
            t.diagnostics.append(_problem(
                f"{where}: a forwarded message; its own sender {t.sender or '(none)'}, subject "
                "and date are used", where, Severity.INFO))
            out.append(t)
    return out


def _body_text(body: Message, label: str,
               max_bytes: int) -> tuple[str, str, list[Diagnostic], list[Diagnostic]]:
    """(orders text, encoding, all diagnostics, those about dropped quotes/signature)."""
    return _text_of_body(_part_decoded(body, label, max_bytes), body.get_content_type(), label)


def _text_of_body(dec: Decoded, content_type: str,
                  label: str) -> tuple[str, str, list[Diagnostic], list[Diagnostic]]:
    diags = list(dec.diagnostics)
    text = dec.text
    if content_type == "text/html":
        text = html_to_text(text)
        diags.append(_problem(f"{label} has only an HTML body; converted to plain text",
                              label, Severity.WARNING))
    text, more = strip_reply(text, label)
    return text, dec.encoding, diags + more, more


_CHUNK = 64 * 1024


def _lines(stream: BinaryIO) -> Iterator[tuple[bool, bytes]]:
    """(starts a line, piece) in pieces of at most 64 KiB, so one endless line cannot
    fill the memory."""
    start = True
    while True:
        piece = stream.readline(_CHUNK)
        if not piece:
            return
        yield start, piece
        start = piece.endswith(b"\n")


def iter_mbox(stream: BinaryIO, label: str,
              max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[tuple[int, bytes | None]]:
    """(1-based index, message bytes) for each message in file order, read line by line.
    A message over `max_bytes` yields None instead of its bytes (and is not kept)."""
    index = 0
    buf: list[bytes] | None = None
    size = 0
    too_big = False
    for at_start, line in _lines(stream):
        if at_start and line.startswith(b"From "):
            if buf is not None or too_big:
                yield index, None if too_big else b"".join(buf or [])
            index += 1
            buf, size, too_big = [], 0, False
            continue
        if buf is None and not too_big:
            if not line.strip():
                continue
            index += 1  # text before any separator: treat as a message of its own
            buf, size = [], 0
        if too_big:
            continue
        if at_start and _ESCAPED_FROM.match(line):
            line = line[1:]  # mboxrd escaping
        size += len(line)
        if size > max_bytes:
            too_big, buf = True, None
            continue
        assert buf is not None
        buf.append(line)
    if buf is not None or too_big:
        yield index, None if too_big else b"".join(buf or [])
