"""Property tests of intake: no bytes, text or message makes it raise."""

from __future__ import annotations

import io

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.intake import decode, read_path, read_text
from engine.intake.mail import iter_mbox, parse_message, strip_reply

FAST = settings(max_examples=150, deadline=None)

# Bytes that hit the interesting paths: BOMs, NULs, 8-bit letters, CR/LF, header-ish lines.
pieces = st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00", b"\r\n", b"\r",
                          b"\n", b"PLA 1 2", b"\xe4\xf6\xfc", b"\x8a\x9a", b"From: a@b\n",
                          b"From x\n", b"Content-Type: text/plain; charset=klingon\n",
                          b"> quoted\n", b"-- \n", b"PK\x03\x04", b"\x1a"])
blobs = st.lists(pieces | st.binary(max_size=8), max_size=30).map(b"".join)


@FAST
@given(blobs)
def test_decode_never_raises_and_gives_clean_text(data):
    dec = decode(data, "f.txt", max_bytes=200)
    assert "\r" not in dec.text and not dec.text.startswith("\ufeff")
    if dec.refused:
        assert dec.text == "" and dec.diagnostics
        assert all("f.txt" in d.message for d in dec.diagnostics)
    assert all(d.file == "f.txt" for d in dec.diagnostics)


@FAST
@given(st.text(max_size=200))
@example("\ufeff")
@example("\ufeffOrders\r\n")
def test_utf8_text_comes_back_unchanged_but_for_line_ends(text):
    if "\x00" in text or not text.strip():
        return
    dec = decode(text.encode(), "t")
    if dec.refused:  # a text full of control characters is refused as binary
        return
    expected = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").rstrip("\x1a")
    # a text that starts with U+FEFF is, once encoded, UTF-8 with a byte-order mark
    assert dec.text == expected
    assert dec.encoding == ("utf-8-sig" if text.startswith("\ufeff") else "utf-8")


@FAST
@given(st.text(max_size=200))
def test_read_text_never_raises(text):
    sub = read_text(text, sender=text[:10], subject=text[:20])
    assert "\r" not in sub.text


@FAST
@given(blobs)
def test_parse_message_never_raises(data):
    msg = parse_message(data, "m.eml", max_bytes=300)
    for part in msg.texts:
        assert part.text.strip()
    assert msg.texts or msg.problems


@FAST
@given(blobs)
def test_iter_mbox_never_raises_and_keeps_order(data):
    out = list(iter_mbox(io.BytesIO(data), "box", max_bytes=100))
    assert [i for i, _ in out] == list(range(1, len(out) + 1))


@FAST
@given(st.text(max_size=200))
def test_strip_reply_keeps_unquoted_lines(text):
    text = text.replace("\r", "")
    out, _ = strip_reply(text, "x")
    kept = out.split("\n")
    assert not any(ln.lstrip().startswith(">") for ln in kept)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["a.txt", "b.eml", "c.mbox", "SP1.R2", "d/e.txt",
                                        "d/.h", "f"]), blobs, max_size=5))
def test_read_path_never_raises_and_accounts_for_files(tmp_path_factory, files):
    root = tmp_path_factory.mktemp("drop")
    for name, data in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    batch = read_path(root, max_bytes=400)
    named = {s.source_name.split("#")[0] for s in batch.submissions}
    named |= {d.file.split("#")[0].split(" message ")[0] for d in batch.problems}
    visible = {str(root / n) for n in files if "/." not in "/" + n}
    assert named == visible  # every visible file gave a submission or a problem
