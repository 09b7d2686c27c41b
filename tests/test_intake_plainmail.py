"""Plain mail read without the email package (engine.intake.plainmail) gives exactly what
the email package's reading gives; whatever is not plain goes the email package's way."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.intake import mail
from engine.intake.plainmail import bare_address, plain_headers

BODY = ("Here are my orders.\n\n#atlantis 1 \"pw1\"\nunit 1\n; leader\nTAX\n#end\n"
        "-- \nsent from my phone\n")
FROMS = ["player1@example.org", "Player One <player1@example.org>", "Ann <ann.b+x@mail-1.example.org>  ",
         '"Quoted Name" <q@example.org>', "=?utf-8?b?SsO8cmdlbg==?= <j@example.org>",
         "broken <not an address>", "a@b, c@d", "", "<bare@example.org>", "Ann  Two <a2@example.org>",
         "x..y@example.org", "UPPER@EXAMPLE.ORG"]
SUBJECTS = ["orders", "  Re: orders   for turn 3 ", "=?utf-8?q?Befehle_f=C3=BCr?=", "", "a\tb", None]
DATES = ["Mon, 2 Nov 2026 10:00:00 +0000", "2 Nov 2026 10:00 -0500", "someday", "",
         "Mon, 31 Feb 2026 10:00:00 +0000", "Tue, 1 Jan 10000 00:00:00 +0000",
         "Mon, 2 Nov 26 10:00:00 GMT", "Mon, 2 Nov 2026 10:00:00 -0000", None]
IDS = ["<abc.1@example.org>", "<abc@example.org>  ", "no brackets", "<a b@c>", None]
TYPES = [None, "text/plain", 'text/plain; charset="iso-8859-1"', "TEXT/PLAIN; charset=UTF-8",
         "text/plain; charset=utf-8; format=flowed", "text/html; charset=utf-8",
         "text/plain; charset=bogus-charset"]
CTES = [None, "7bit", "8BIT", "quoted-printable", "base64"]


def message(frm: str | None, subject: str | None, date: str | None, mid: str | None,
            ctype: str | None, cte: str | None, body: str = BODY, newline: str = "\n",
            extra: str = "") -> bytes:
    lines = [f"{k}: {v}" for k, v in (("From", frm), ("Subject", subject), ("Date", date),
                                      ("Message-ID", mid), ("Content-Type", ctype),
                                      ("Content-Transfer-Encoding", cte)) if v is not None]
    head = newline.join(lines + ([extra] if extra else []))
    return (head + newline + newline + body.replace("\n", newline)).encode("latin-1")


def slow(data: bytes, monkeypatch: pytest.MonkeyPatch) -> mail.MailMessage:
    with monkeypatch.context() as m:
        m.setattr(mail, "plain_headers", lambda _data: None)
        return mail.parse_message(data, "f.txt")


def same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both readings agree; True when the plain reading was taken."""
    assert mail.parse_message(data, "f.txt") == slow(data, monkeypatch)
    return plain_headers(data) is not None


def test_the_generated_games_mail_is_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    data = message("player1@example.org", "orders", DATES[0], None, None, None)
    assert same(data, monkeypatch)
    got = mail.parse_message(data, "f.txt")
    assert got.sender == "player1@example.org" and got.received_at == "2026-11-02T10:00:00Z"
    assert [d.message for d in got.texts[0].diagnostics] == ["signature after '-- ' dropped (1 line)"]


@pytest.mark.parametrize("frm,subject", list(itertools.product(FROMS, SUBJECTS)))
def test_senders_and_subjects(frm: str, subject: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    same(message(frm, subject, DATES[0], IDS[0], None, None), monkeypatch)


@pytest.mark.parametrize("date,mid", list(itertools.product(DATES, IDS)))
def test_dates_and_message_ids(date: str | None, mid: str | None,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    same(message(FROMS[1], "orders", date, mid, None, None), monkeypatch)


@pytest.mark.parametrize("ctype,cte", list(itertools.product(TYPES, CTES)))
def test_content_types_and_encodings(ctype: str | None, cte: str | None,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for body in (BODY, BODY.replace("leader", "F\xfchrer"), "=E9t=E9\n" + BODY, "> quoted\n",
                 "<p>#atlantis 1</p>\n", ""):
        same(message(FROMS[0], "orders", DATES[0], None, ctype, cte, body), monkeypatch)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\r\r\n"])
@pytest.mark.parametrize("extra", ["", "X-Mailer: Thing 1.0", " folded continuation",
                                   "no colon here", ":empty name", "From x@y", "Subject: twice",
                                   "Content-Disposition: inline", "X-8bit: caf\xe9", "X-Empty:"])
def test_header_lines(newline: str, extra: str, monkeypatch: pytest.MonkeyPatch) -> None:
    same(message(FROMS[1], "orders", DATES[0], IDS[0], None, None, newline=newline,
                 extra=extra), monkeypatch)


@pytest.mark.parametrize("data", [b"", b"From: a@b.c\n", b"From: a@b.c", b"\n\nbody",
                                  b"From a@b Mon Nov  2 10:00:00 2026\nFrom: a@b.c\n\nx\n",
                                  b"Subject: x\n\n", b"Subject: x\n\n\x00\x01binary",
                                  b"Subject: x\n\n\xff\xfe#\x00a\x00"])
def test_odd_messages(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    same(data, monkeypatch)


def test_what_is_not_plain_is_refused() -> None:
    assert plain_headers(message(FROMS[4], "orders", DATES[0], None, None, None)) is None
    assert plain_headers(message(FROMS[0], SUBJECTS[2], DATES[0], None, None, None)) is None
    assert plain_headers(message(FROMS[0], "orders", "someday", None, None, None)) is None
    assert plain_headers(message(FROMS[0], "orders", DATES[0], None, TYPES[5], None)) is None
    assert plain_headers(message(FROMS[0], "orders", DATES[0], None, None, CTES[3])) is None
    assert plain_headers(message(FROMS[0], "orders", DATES[0], None, None, None,
                                 extra=" folded")) is None
    assert plain_headers(message(FROMS[0], "orders", DATES[0], None, TYPES[2], CTES[2])) is not None


_printable = st.text(st.characters(min_codepoint=9, max_codepoint=127), max_size=40)


@settings(max_examples=300, deadline=None)
@given(frm=st.one_of(st.sampled_from(FROMS), _printable), subject=_printable,
       date=st.one_of(st.sampled_from(DATES), _printable), body=st.text(max_size=200),
       newline=st.sampled_from(["\n", "\r\n"]))
def test_any_header_values(frm: str, subject: str, date: str, body: str, newline: str) -> None:
    data = (f"From: {frm}{newline}Subject: {subject}{newline}Date: {date}{newline}{newline}"
            ).encode("latin-1", "replace") + body.encode("utf-8", "surrogatepass")
    fast = mail.parse_message(data, "f.txt")
    real = mail.plain_headers
    try:
        mail.plain_headers = lambda _data: None  # type: ignore[assignment]
        assert fast == mail.parse_message(data, "f.txt")
    finally:
        mail.plain_headers = real  # type: ignore[assignment]


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from("aZ09._+-@<> \t\"(),:;\x1c\xe9"), max_size=25))
def test_a_bare_address_is_what_parseaddr_gives(s: str) -> None:
    from email.utils import parseaddr

    if bare_address(s) is not None:
        assert parseaddr(s)[1] == s


def test_bare_addresses() -> None:
    assert bare_address("Player1@Example.org") == "Player1@Example.org"
    assert bare_address("a.b-c+d_e@x-y.example") is not None
    for s in ("", " a@b.c", "a@b.c ", "Ann <a@b.c>", "a..b@c.d", ".a@b.c", "a@b..c", "a@b", "@b.c"):
        assert bare_address(s) is None or s == "a@b"
