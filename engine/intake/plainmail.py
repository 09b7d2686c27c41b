"""The plain mail most players send, read without the email package.

A message of ASCII header lines, without MIME parts, encodings or folded headers, and
with a plain From address, has one reading only; the email package's header classes cost
a fifth of importing 1,000 such mails. `plain_headers` reads those messages and refuses
(None) everything else, which then goes the email package's way (engine.intake.mail).
Both ways give the same MailMessage: tests/test_intake_plainmail.py compares them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime

# a header line as the email package's feed parser reads it: a name of printable ASCII
# without ':', the colon, a value of printable ASCII and tabs (no continuation lines)
_LINE = re.compile(rb"([!-9;-~]+):([ -~\t]*)")
_ATOM = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*"
_ADDR = _ATOM + r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
# `a@b.c`, or `Some Name <a@b.c>` with a name of letters and digits
_FROM = re.compile(rf"(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)* ?<(?P<a>{_ADDR})>|(?P<b>{_ADDR}))[ \t]*")
_BARE = re.compile(_ADDR)
_MESSAGE_ID = re.compile(rf"<{_ATOM}@{_ATOM}>")
_CONTENT_TYPE = re.compile(r'text/plain(?:[ \t]*;[ \t]*charset=(?P<q>"?)(?P<c>[A-Za-z0-9_.:-]+)'
                           r'(?P=q))?[ \t]*', re.I)
_PLAIN_CTE = frozenset({"7bit", "8bit"})
# headers read from a message: each must be plain here (or absent)
_READ = frozenset({"from", "subject", "date", "message-id", "content-type",
                   "content-transfer-encoding", "content-disposition"})


@dataclass
class PlainMail:
    sender: str
    subject: str
    date: datetime | None     # None: no Date header
    message_id: str
    charset: str | None       # as Message.get_content_charset() gives it
    body: bytes


def plain_headers(data: bytes) -> PlainMail | None:
    """The message read as the email package (policy.default) would read it, or None when
    the message is not of the plain kind this reads (and the email package must)."""
    if data.startswith(b"From "):  # an mbox separator: the email package's business
        return None
    seen: dict[str, str] = {}
    pos = 0
    while True:
        end = data.find(b"\n", pos)
        if end < 0:
            return None  # no blank line after the headers
        line = data[pos:end]
        if line.endswith(b"\r"):
            line = line[:-1]
        pos = end + 1
        if not line:
            break
        m = _LINE.fullmatch(line)
        if m is None:
            return None  # a continuation line, a damaged line, 8-bit bytes
        name = m.group(1).decode("ascii").lower()
        if name in _READ:
            if name in seen:
                return None  # the same header twice
            seen[name] = m.group(2).lstrip(b" \t").decode("ascii")
    if not seen:
        return None
    if "content-disposition" in seen or any("=?" in v for v in seen.values()):
        return None  # an attachment, or encoded words (RFC 2047)
    sender = ""
    if "from" in seen:
        m = _FROM.fullmatch(seen["from"])
        if m is None:
            return None
        sender = m.group("a") or m.group("b")
    message_id = seen.get("message-id", "")
    if message_id and not _MESSAGE_ID.fullmatch(message_id):
        return None
    charset = None
    if "content-type" in seen:
        m = _CONTENT_TYPE.fullmatch(seen["content-type"])
        if m is None:
            return None
        charset = m.group("c").lower() if m.group("c") else None
    if seen.get("content-transfer-encoding", "7bit").lower() not in _PLAIN_CTE:
        return None
    date = None
    if "date" in seen:
        try:
            date = parsedate_to_datetime(seen["date"])
        except Exception:  # noqa: BLE001 - unreadable: the email package says how
            return None
    return PlainMail(sender, seen.get("subject", ""), date, message_id, charset, data[pos:])


def bare_address(s: str) -> str | None:
    """`s` if it is a plain address alone (`a.b@c.d`), which email.utils.parseaddr (slow:
    2,000 calls matching 1,000 mails) would give back unchanged; else None."""
    return s if _BARE.fullmatch(s) else None
