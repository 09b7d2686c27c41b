"""engine.intake.read: files, folders, .eml and mbox into Submissions; problems, never raises."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from engine.intake import read_path, read_text, submission_diagnostics
from engine.intake.mail import html_to_text, iter_mbox, strip_reply

DATA = Path(__file__).parent / "data" / "intake"
sys.path.insert(0, str(DATA))
import make_samples  # noqa: E402

FIXED = 1_763_300_000  # 2025-11-16T13:33:20Z, for file times


@pytest.fixture
def data(tmp_path, monkeypatch):
    """The sample files, written fresh with a known mtime; cwd is their folder."""
    for p in make_samples.write(tmp_path):
        os.utime(p, (FIXED, FIXED))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def diags(sub):
    return [d.format() for d in submission_diagnostics(sub)]


def problems(batch):
    return [d.format() for d in batch.problems]


def test_committed_samples_match_the_generator(tmp_path):
    for rel, content in make_samples.SAMPLES.items():
        assert (DATA / rel).read_bytes() == content, f"{rel}: run make_samples.py"


def test_read_text_normalises():
    sub = read_text("\ufeffPLA 1\r\nSEA 2\r", sender=" a@b.c ", subject="KOK\n 14")
    assert (sub.text, sub.source_kind, sub.source_name, sub.sender, sub.subject) == (
        "PLA 1\nSEA 2\n", "paste", "pasted", "a@b.c", "KOK 14")
    assert sub.faction is None and sub.step is None


def test_plain_file(data):
    batch = read_path("latin1.txt")
    assert problems(batch) == []
    [sub] = batch.submissions
    assert (sub.text, sub.source_kind, sub.source_name, sub.encoding, sub.received_at) == (
        make_samples.GERMAN, "file", "latin1.txt", "latin-1", "2025-11-16T13:33:20Z")
    assert sub.meta["file_name"] == "latin1.txt"
    assert diags(sub) == ["latin1.txt: info (ambiguous): latin1.txt is not UTF-8; read as "
                          "ISO-8859-1 (Latin-1) (plausibility 24; Mac Roman -17)"]


@pytest.mark.parametrize("name, text, encoding", [
    ("utf8.txt", 'PLA 1 2\nNAME 3 "Neue Straße"\n', "utf-8"),
    ("utf8_bom.txt", 'PLA 1 2\nNAME 3 "Øresund"\n', "utf-8-sig"),
    ("utf16_bom.txt", 'PLA 1 2\nNAME 3 "Åland"\n', "utf-16"),
    ("macroman.txt", make_samples.GERMAN, "mac-roman"),
    ("cp1252.txt", "NAME 4 “Königsberg” – don’t\nCOST 5 €\n", "cp1252"),
    ("crlf.txt", "PLA 1 2\nSEA 3 4\n", "utf-8"),
    ("cr.txt", "PLA 1 2\nSEA 3 4\n", "utf-8"),
])
def test_encodings_and_line_ends(data, name, text, encoding):
    [sub] = read_path(name).submissions
    assert (sub.text, sub.encoding) == (text, encoding)


@pytest.mark.parametrize("name, message", [
    ("empty.txt", "empty.txt: warning (invalid): empty.txt is empty; no orders in it"),
    ("blank.txt", "blank.txt: warning (invalid): blank.txt is blank (only white space); "
                  "no orders in it"),
    ("nul.txt", "nul.txt: error (invalid): nul.txt is binary data (it contains NUL bytes), "
                "not an orders text; please send orders as plain text"),
    ("orders.doc", "orders.doc: error (invalid): orders.doc is an MS Office document "
                   "(.doc/.xls), not an orders text; please send orders as plain text"),
    ("orders.zip", "orders.zip: error (invalid): orders.zip is a ZIP archive (or .docx/.odt), "
                   "not an orders text; please send orders as plain text"),
    ("map.png", "map.png: error (invalid): map.png is a PNG image, not an orders text; "
                "please send orders as plain text"),
    ("nowhere.txt", "nowhere.txt: error (invalid): nowhere.txt: no such file or folder"),
])
def test_files_without_orders_are_problems(data, name, message):
    batch = read_path(name)
    assert batch.submissions == []
    assert problems(batch) == [message]


def test_huge_file_is_refused_without_reading_it_whole(data, monkeypatch):
    big = data / "big.txt"
    with big.open("wb") as f:
        for _ in range(3 * 1024):
            f.write(b"PLA 1 2 " * 128)  # 3 MiB
    reads: list[int] = []
    real_open = Path.open

    def spy_open(self, mode="r", *a, **kw):
        f = real_open(self, mode, *a, **kw)
        real_read = f.read

        def read(n=-1):
            reads.append(n)
            return real_read(n)
        f.read = read
        return f
    monkeypatch.setattr(Path, "open", spy_open)
    batch = read_path("big.txt")
    assert batch.submissions == []
    assert problems(batch) == [
        "big.txt: error (invalid): big.txt is too large to be an orders file (3,145,728 bytes; "
        "the limit is 1,048,576); not read"]
    assert reads and all(0 < n <= 4096 for n in reads)  # only the sniffing head
    assert len(read_path("big.txt", max_bytes=4 * 1024 * 1024).submissions) == 1


def test_permission_denied_is_a_problem(data, monkeypatch):
    real_open = Path.open

    def deny(self, *a, **kw):
        if self.name == "utf8.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **kw)
    monkeypatch.setattr(Path, "open", deny)
    batch = read_path(".")
    assert "utf8.txt: error (invalid): utf8.txt: permission denied" in problems(batch)
    assert len(batch.submissions) > 5  # the rest was still read


def test_folder_sorted_recursive_hidden_skipped(data):
    batch = read_path("folder")
    assert [s.source_name for s in batch.submissions] == [
        "folder/SP1.R14", "folder/sub/SP2.R14.txt"]
    assert [s.text for s in batch.submissions] == ["PLA 1 2\n", "PLA 2 3\n"]
    assert problems(batch) == [
        "folder/a-empty.txt: warning (invalid): folder/a-empty.txt is empty; no orders in it"]


def test_whole_sample_folder_never_raises_and_accounts_for_every_file(data):
    batch = read_path(".")
    names = {s.source_name.split("#")[0] for s in batch.submissions}
    names |= {p.file.split("#")[0].split(" message ")[0] for p in batch.problems}
    visible = {str(p.relative_to(data)) for p in data.rglob("*") if p.is_file()
               and not any(part.startswith(".") for part in p.relative_to(data).parts)}
    assert names == visible


def test_eml_with_attachment(data):
    batch = read_path("attachment.eml")
    [sub] = batch.submissions
    assert (sub.text, sub.source_kind, sub.source_name, sub.sender, sub.subject,
            sub.received_at, sub.encoding) == (
        "PLA 3 4\nLAND Müllheim 2\n", "email", "attachment.eml#SP3.R14", "anna@example.org",
        "KOK 14", "2026-11-16T09:15:00Z", "latin-1")
    assert sub.meta["file_name"] == "SP3.R14"
    assert sub.meta["message_id"] == "<a1@example.org>"
    assert diags(sub) == [
        "attachment.eml#SP3.R14: info (ambiguous): attachment.eml#SP3.R14 is not UTF-8; read "
        "as ISO-8859-1 (Latin-1) (plausibility 3; Mac Roman -4)",
        "attachment.eml: info (invalid): attachment.eml: orders taken from the attachment "
        "SP3.R14; the message body (1 line) was not read"]
    assert problems(batch) == [
        "attachment.eml#orders.doc: warning (invalid): attachment.eml#orders.doc "
        "(application/msword) ignored: not a plain-text attachment"]


def test_eml_quoted_printable_latin1_reply_and_signature(data):
    [sub] = read_path("qp_latin1.eml").submissions
    assert (sub.text, sub.sender, sub.subject, sub.received_at, sub.encoding) == (
        "PLA 1 2\nLAND München 3\n", "J.Maier@Example.COM", "KOK 14 Züge",
        "2026-11-18T04:30:00Z", "latin-1")
    assert diags(sub) == [
        "qp_latin1.eml:7: info (invalid): signature after '-- ' dropped (1 line)",
        "qp_latin1.eml:5: warning (invalid): 2 quoted reply lines (starting with '>') dropped, "
        "from line 5 with the '... wrote:' line before them"]


def test_html_only_mail(data):
    [sub] = read_path("html_only.eml").submissions
    assert sub.text == "PLA 1 2\n\nSEA 3 4\nDEF 5\n"
    assert diags(sub) == ["html_only.eml: warning (invalid): html_only.eml has only an HTML "
                          "body; converted to plain text"]


def test_mbox_in_file_order_with_a_malformed_message(data):
    batch = read_path("three.mbox")
    assert [(s.source_kind, s.source_name, s.sender, s.text, s.meta["mbox_index"])
            for s in batch.submissions] == [
        ("mbox", "three.mbox#1", "anna@example.org", "PLA 1 2\nFrom the north we come\n", 1),
        ("mbox", "three.mbox#3", "bob@example.org", "SEA 3 4\n", 3)]
    assert problems(batch) == [
        "three.mbox message 2: error (invalid): three.mbox message 2 is not an e-mail message "
        "(no headers)"]


def test_message_files_are_sniffed_without_suffix(data):
    (data / "SP4.R2").write_bytes((data / "qp_latin1.eml").read_bytes())
    (data / "inbox").write_bytes((data / "three.mbox").read_bytes())
    [sub] = read_path("SP4.R2").submissions
    assert sub.source_kind == "email" and sub.text == "PLA 1 2\nLAND München 3\n"
    assert len(read_path("inbox").submissions) == 2


def test_mail_without_date_uses_file_time_and_says_so(data):
    (data / "nodate.eml").write_bytes(b"From: x@y.z\nSubject: KOK 3\n\nPLA 1\n")
    os.utime(data / "nodate.eml", (FIXED, FIXED))
    [sub] = read_path("nodate.eml").submissions
    assert sub.received_at == "2025-11-16T13:33:20Z"
    assert diags(sub) == ["nodate.eml: warning (invalid): nodate.eml has no valid Date header; "
                          "the file time is used"]


def test_mail_without_text(data):
    (data / "empty.eml").write_bytes(b"From: x@y.z\nSubject: KOK 3\nDate: Mon, 16 Nov 2026 "
                                     b"10:00:00 +0000\n\n> only a quote\n")
    batch = read_path("empty.eml")
    assert batch.submissions == []
    assert problems(batch) == [
        "empty.eml:1: warning (invalid): 1 quoted reply line (starting with '>') dropped, "
        "from line 1",
        "empty.eml: warning (invalid): empty.eml has no orders text (nothing is left but "
        "quotes and signature)"]
    (data / "empty.eml").write_bytes(b"From: x@y.z\nSubject: KOK 3\n\n\n")
    assert problems(read_path("empty.eml")) == [
        "empty.eml: warning (invalid): empty.eml has no orders text (the body is empty)"]


def test_header_charset_wrong_is_guessed(data):
    (data / "w.eml").write_bytes(b"From: x@y.z\nDate: Mon, 16 Nov 2026 10:00:00 +0000\n"
                                 b"Content-Type: text/plain; charset=utf-8\n\nK\xf6ln\n")
    [sub] = read_path("w.eml").submissions
    assert (sub.text, sub.encoding) == ("Köln\n", "latin-1")


def test_mbox_message_over_limit(tmp_path):
    box = tmp_path / "big.mbox"
    box.write_bytes(b"From a Mon\nFrom: a@b.c\n\n" + b"PLA 1\n" * 100 +
                    b"From b Mon\nFrom: b@b.c\nDate: Mon, 16 Nov 2026 10:00:00 +0000\n\nSEA 2\n")
    batch = read_path(box, max_bytes=200)
    assert [s.text for s in batch.submissions] == ["SEA 2\n"]
    assert problems(batch) == [f"{box} message 1: error (invalid): {box} message 1 is too large "
                               "(over 200 bytes); not read"]


def test_iter_mbox_unescapes_and_counts():
    import io
    box = io.BytesIO(b"stray text\n\nFrom a\nX: 1\n\n>From here\n>>From there\nFrom b\nY: 2\n")
    assert list(iter_mbox(box, "m")) == [
        (1, b"stray text\n\n"), (2, b"X: 1\n\nFrom here\n>From there\n"), (3, b"Y: 2\n")]


def test_strip_reply_keeps_orders():
    text, d = strip_reply("PLA 1\n>> old\nSEA 2\n--\nme\nmore\n", "f")
    assert text == "PLA 1\nSEA 2\n"
    assert [x.message for x in d] == ["signature after '-- ' dropped (2 lines)",
                                      "1 quoted reply line (starting with '>') dropped, "
                                      "from line 2"]


def test_html_to_text():
    assert html_to_text("<p>A&amp;B</p><script>x()</script><p>C&nbsp;D<br/>E</p>") == \
        "A&B\n\nC D\nE\n"


def test_forwarded_message_keeps_the_original_sender(data):
    batch = read_path("forwarded.eml")
    [sub] = batch.submissions
    assert (sub.text, sub.source_name, sub.sender, sub.subject, sub.received_at) == (
        "SEA 3 4\nDEF 5\n", "forwarded.eml#forwarded-1", "bob@example.org", "KOK 14",
        "2026-11-18T20:00:00Z")
    assert diags(sub) == [
        "forwarded.eml#forwarded-1: info (invalid): forwarded.eml#forwarded-1: a forwarded "
        "message; its own sender bob@example.org, subject and date are used",
        "forwarded.eml: info (invalid): forwarded.eml: orders taken from the attachment "
        "forwarded-1; the message body (1 line) was not read"]
    assert problems(batch) == []


def test_each_text_attachment_is_a_submission(data):
    batch = read_path("two_attachments.eml")
    assert [(s.source_name, s.text, s.meta["file_name"]) for s in batch.submissions] == [
        ("two_attachments.eml#SP4.R14", "PLA 7 8\n", "SP4.R14"),
        ("two_attachments.eml#SP5.R14", "PLA 9 10\n", "SP5.R14")]


def test_outlook_original_and_inline_forward_headers():
    text, d = strip_reply("PLA 1\n\n-----Original Message-----\nFrom: GM\nSent: x\n\nold\n", "o")
    assert text == "PLA 1\n"
    assert [(x.line, x.message) for x in d] == [
        (3, "quoted original message dropped (4 lines from line 3)")]
    text, d = strip_reply("---------- Forwarded message ---------\nFrom: Bob <b@x>\n"
                          "Date: Mon\nSubject: KOK 3\nTo: gm\n\nPLA 1\n", "f")
    assert text == "\nPLA 1\n"
    assert [(x.line, x.message) for x in d] == [(1, "forwarded-message header dropped "
                                                    "(lines 1-5)")]


def test_outlook_msg_gets_a_helpful_message(data):
    (data / "orders.msg").write_bytes((data / "orders.doc").read_bytes())
    assert problems(read_path("orders.msg")) == [
        "orders.msg: error (invalid): orders.msg is an Outlook .msg file, not an orders text; "
        "save the mail as .eml or the orders as a .txt file"]


def test_fifo_and_broken_link_are_skipped_with_a_warning(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "ok.txt").write_bytes(b"PLA 1\n")
    batch = read_path(tmp_path)
    assert [s.text for s in batch.submissions] == ["PLA 1\n"]
    assert problems(batch) == [
        f"{tmp_path}/dangling: warning (invalid): {tmp_path}/dangling: not a regular file; "
        "skipped",
        f"{tmp_path}/pipe: warning (invalid): {tmp_path}/pipe: not a regular file; skipped"]


def test_unreadable_subfolder_is_a_problem(tmp_path, monkeypatch):
    import engine.intake.read as read_mod

    (tmp_path / "ok.txt").write_bytes(b"PLA 1\n")
    real_walk = os.walk

    def walk(top, onerror=None, **kw):
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "locked")))
        yield from real_walk(top, onerror=onerror, **kw)
    monkeypatch.setattr(read_mod.os, "walk", walk)
    batch = read_path(tmp_path)
    assert len(batch.submissions) == 1
    assert problems(batch) == [f"{tmp_path}/locked: error (invalid): {tmp_path}/locked: folder "
                               "cannot be read (permission denied)"]


def test_mbox_with_an_endless_line_is_streamed(tmp_path):
    box = tmp_path / "long.mbox"
    with box.open("wb") as f:
        f.write(b"From a Mon\nFrom: a@b.c\n\n")
        for _ in range(40):
            f.write(b"x" * 65536)  # 2.5 MiB without a line break
        f.write(b"\nFrom b Mon\nFrom: b@b.c\n\nSEA 2\n")
    import tracemalloc
    tracemalloc.start()
    batch = read_path(box)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [s.text for s in batch.submissions] == ["SEA 2\n"]
    assert problems(batch)[0].endswith("is too large (over 1,048,576 bytes); not read")
    assert peak < 2 * 1024 * 1024  # never held the long message


@pytest.mark.parametrize("header, sender", [
    (b"Anna <anna@example.org>", "anna@example.org"),
    (b"anna@example.org (Anna)", "anna@example.org"),
    (b'"Last, First" <lf@x.org>, other@y.org', "lf@x.org"),
    (b'"broken <a@b', "a@b"),
    (b"undisclosed-recipients:;", ""),
])
def test_sender_addresses(header, sender):
    from engine.intake.mail import parse_message
    assert parse_message(b"From: " + header + b"\n\nPLA 1\n", "x").sender == sender


@pytest.mark.parametrize("date, iso", [
    (b"16 Nov 2026 10:00 +0530", "2026-11-16T04:30:00Z"),
    (b"Mon, 16 Nov 2026 10:00:00", "2026-11-16T10:00:00Z"),   # no zone: taken as UTC
    (b"Mon, 16 Nov 2026 10:00:00 -0000", "2026-11-16T10:00:00Z"),
    (b"yesterday", ""),
    (b"Mon, 32 Nov 2026 10:00:00 +0000", ""),
])
def test_mail_dates(date, iso):
    from engine.intake.mail import parse_message
    assert parse_message(b"From: a@b.c\nDate: " + date + b"\n\nPLA 1\n", "x").received_at == iso


def test_content_decides_not_the_suffix(data):
    (data / "orders.eml").write_bytes(b"PLA 1 2\n")
    (data / "empty.mbox").write_bytes(b"")
    (data / "one.mbox").write_bytes((data / "html_only.eml").read_bytes())
    [sub] = read_path("orders.eml").submissions
    assert (sub.source_kind, sub.text) == ("file", "PLA 1 2\n")
    assert diags(sub) == ["orders.eml: warning (invalid): orders.eml is named .eml but holds "
                          "no mail headers; read as plain text"]
    assert problems(read_path("empty.mbox")) == [
        "empty.mbox: warning (invalid): empty.mbox is empty; no orders in it"]
    [sub] = read_path("one.mbox").submissions
    assert (sub.source_kind, sub.sender) == ("email", "carl@example.org")
