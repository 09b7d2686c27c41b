"""engine.intake.decode: encodings, line ends, refusals, and the 8-bit plausibility guess."""

from __future__ import annotations

import pytest

from engine.intake import DEFAULT_MAX_BYTES, decode, plausibility
from engine.intake.decode import binary_kind, guess_8bit
from engine.orders import Severity

GERMAN = "Grüße aus Köln\nLAND Düsseldorf Straße 3\nÄrger über Öl\n"


def messages(dec):
    return [(d.severity.value, d.kind, d.message) for d in dec.diagnostics]


def test_plain_utf8_has_no_diagnostics():
    dec = decode("PLA 1 2\nNAME 3 \"Neue Straße\"\n".encode(), "a.txt")
    assert (dec.text, dec.encoding, dec.diagnostics, dec.ok) == (
        'PLA 1 2\nNAME 3 "Neue Straße"\n', "utf-8", [], True)


def test_utf8_bom_and_crlf():
    dec = decode(b"\xef\xbb\xbfPLA 1\r\nSEA 2\r\n", "b.txt")
    assert (dec.text, dec.encoding, dec.diagnostics) == ("PLA 1\nSEA 2\n", "utf-8-sig", [])


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_32(codec):
    data = "PLA 1\r\nNAME 3 \"Åland\"".encode(codec)
    if codec == "utf-16-le":
        data = b"\xff\xfe" + data
    elif codec == "utf-16-be":
        data = b"\xfe\xff" + data
    dec = decode(data, "u.txt")
    assert dec.text == 'PLA 1\nNAME 3 "Åland"'
    assert dec.diagnostics == []


def test_utf16_without_bom_is_sniffed_and_said():
    dec = decode("PLA 1 2\nSEA 3 4\n".encode("utf-16-le"), "w.txt")
    assert dec.text == "PLA 1 2\nSEA 3 4\n"
    assert messages(dec) == [("info", "invalid", "w.txt read as UTF-16 LE (no byte-order mark)")]


def test_lone_cr_and_ctrl_z():
    assert decode(b"PLA 1\rSEA 2\r\x1a", "mac.txt").text == "PLA 1\nSEA 2\n"


def test_latin1():
    dec = decode(GERMAN.encode("latin-1"), "l.txt")
    assert (dec.text, dec.encoding) == (GERMAN, "latin-1")
    assert messages(dec) == [("info", "ambiguous",
                              "l.txt is not UTF-8; read as ISO-8859-1 (Latin-1) "
                              "(plausibility 24; Mac Roman -17)")]


def test_mac_roman():
    dec = decode(GERMAN.encode("mac-roman"), "m.txt")
    assert (dec.text, dec.encoding) == (GERMAN, "mac-roman")
    assert messages(dec) == [("info", "ambiguous",
                              "m.txt is not UTF-8; read as Mac Roman (plausibility 24; "
                              "Windows-1252 -2, ISO-8859-1 (Latin-1) -61)")]


def test_windows_1252_typographic_quotes():
    text = "NAME 4 “Königsberg” – don’t\nCOST 5 €\n"
    dec = decode(text.encode("cp1252"), "w.txt")
    assert (dec.text, dec.encoding) == (text, "cp1252")


def test_declared_charset_is_honoured_and_latin1_label_covers_cp1252():
    data = "“Köln”".encode("cp1252")
    dec = decode(data, "x", charset="iso-8859-1")
    assert (dec.text, dec.encoding, dec.diagnostics) == ("“Köln”", "cp1252", [])
    dec = decode("Köln".encode("latin-1"), "x", charset="ISO-8859-1")
    assert (dec.text, dec.encoding, dec.diagnostics) == ("Köln", "latin-1", [])
    dec = decode("Köln".encode("mac-roman"), "x", charset="macintosh")
    assert (dec.text, dec.encoding) == ("Köln", "mac-roman")


def test_wrong_or_unknown_declared_charset_falls_back_to_guessing():
    dec = decode("Köln".encode(), "x", charset="us-ascii")
    assert (dec.text, dec.encoding) == ("Köln", "utf-8")
    assert messages(dec) == [("warning", "invalid",
                              "x says its charset is us-ascii but is not; guessing instead")]
    dec = decode(b"PLA 1", "y", charset="x-klingon")
    assert dec.text == "PLA 1"
    assert messages(dec) == [("warning", "invalid",
                              "y has an unknown charset 'x-klingon'; guessing instead")]


def test_empty_and_blank_are_flagged_not_refused():
    assert messages(decode(b"", "e.txt")) == [
        ("warning", "invalid", "e.txt is empty; no orders in it")]
    dec = decode(b" \r\n\t", "b.txt")
    assert (dec.text, dec.refused) == ("", False)
    assert messages(dec) == [("warning", "invalid",
                              "b.txt is blank (only white space); no orders in it")]


@pytest.mark.parametrize("data, what", [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "an MS Office document (.doc/.xls)"),
    (b"PK\x03\x04rest", "a ZIP archive (or .docx/.odt)"),
    (b"%PDF-1.4", "a PDF document"),
    (b"\x89PNG\r\n", "a PNG image"),
    (b"\xff\xd8\xff\xe0", "a JPEG image"),
    (b"PLA 1\x00SEA", "binary data (it contains NUL bytes)"),
    (bytes(range(1, 32)) * 4, "binary data (it is full of control characters)"),
])
def test_binary_is_refused_naming_the_file(data, what):
    dec = decode(data, "orders.bin")
    assert dec.refused and dec.text == ""
    assert messages(dec) == [("error", "invalid", f"orders.bin is {what}, not an orders text; "
                              "please send orders as plain text")]


def test_escape_sequences_and_form_feeds_are_text():
    assert binary_kind(b"PLA 1\x0c\nSEA 2\x1b[0m\n") is None


def test_huge_input_is_refused_with_the_limit():
    dec = decode(b"x" * (DEFAULT_MAX_BYTES + 1), "big.txt")
    assert dec.refused
    assert messages(dec) == [("error", "invalid",
                              "big.txt is too large to be an orders file (1,048,577 bytes; "
                              "the limit is 1,048,576); not read")]
    assert decode(b"x" * 11, "s", max_bytes=10).refused
    assert not decode(b"x" * 10, "s", max_bytes=10).refused


def test_invalid_utf8_after_bom_is_replaced_and_warned():
    dec = decode(b"\xef\xbb\xbfK\xf6ln", "k.txt")
    assert dec.text == "K\ufffdln"
    assert dec.diagnostics[0].severity == Severity.WARNING
    assert "byte-order mark but byte" in dec.diagnostics[0].message


def test_unnamed_input_is_called_input():
    assert decode(b"", "").diagnostics[0].message == "<input> is empty; no orders in it"


# ---- the plausibility scorer over a word list -------------------------------------------

WORDS = [
    "Grüße", "Köln", "Düsseldorf", "Straße", "Ärger", "Öl", "Übermut", "Zürich", "Müller",
    "café", "naïve", "façade", "Besançon", "très", "Noël", "L’armée", "à bientôt",
    "Señor", "España", "año", "mañana", "Åland", "Øresund", "København", "smørrebrød",
    "Malmö", "Göteborg", "Tromsø", "Ærø", "“Königsberg”", "don’t", "über", "Schloß",
    "Mönchengladbach", "Göttingen", "Würzburg", "Bär", "Hütte", "Jäger", "Äpfel",
]


def accuracy(codec: str) -> float:
    right = total = 0
    for w in WORDS:
        try:
            data = f"NAME 3 {w}\n".encode(codec)
        except UnicodeEncodeError:
            continue
        total += 1
        right += guess_8bit(data)[1] == f"NAME 3 {w}\n"
    return right / total


@pytest.mark.parametrize("codec", ["latin-1", "cp1252", "mac-roman"])
def test_single_words_are_read_right(codec):
    # One accented word per line is the hardest case; every word of the list must pass.
    assert accuracy(codec) == 1.0


def test_plausibility_prefers_letters_to_controls_and_symbols():
    assert plausibility("Köln") > plausibility("K\x94ln")
    assert plausibility("Köln") > plausibility("K÷ln")
    assert plausibility("plain ascii") == 0


def test_mixed_utf8_and_latin1_lines():
    data = ("PLA 1\r\nNAME 3 Köln\r\n".encode() + "NAME 4 Düsseldorf\r\n".encode("latin-1")
            + "NAME 5 Zürich\r\n".encode("latin-1") + b"SEA 5\r\n")
    dec = decode(data, "m.txt")
    assert (dec.text, dec.encoding) == (
        "PLA 1\nNAME 3 Köln\nNAME 4 Düsseldorf\nNAME 5 Zürich\nSEA 5\n", "utf-8")
    assert messages(dec) == [("warning", "ambiguous",
                              "m.txt mixes encodings: lines 3, 4 are not UTF-8 and were read "
                              "as ISO-8859-1 (Latin-1); the rest is UTF-8")]


def test_many_mixed_lines_are_listed_briefly():
    data = "Köln\n".encode() + "Köln\n".encode("cp1252") * 7
    assert "lines 2, 3, 4, 5, 6, ... are not UTF-8" in decode(data, "x").diagnostics[0].message
