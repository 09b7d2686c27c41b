"""Bytes to orders text: byte-order marks, UTF-8, the old 8-bit code pages, line endings.

Players send orders from every kind of machine. UTF-8 (with or without BOM) and UTF-16
with a BOM are certain. Anything else is one of the 8-bit code pages a European player
is likely to use -- Windows-1252, ISO Latin-1 or Mac Roman -- and every byte string is
valid in Latin-1 and Mac Roman, so the choice is a guess: `plausibility` scores each
reading by how much it looks like European text (accented letters inside words are good;
control characters, box glyphs and maths symbols in the middle of words are bad).

Limits of the guess (see docs/intake.md): it needs a few non-ASCII letters to work with;
a text whose only non-ASCII byte is a lone symbol may be read either way; Greek, Cyrillic
or other code pages (cp437, cp850, KOI8) are not considered. The guess is always reported
as a diagnostic so the GM can see it.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass, field

from engine.orders import INVALID, Diagnostic, Severity

DEFAULT_MAX_BYTES = 1024 * 1024  # 1 MiB: far above any orders file, far below a mistake

# The 8-bit candidates, in order of preference when the scores tie.
CANDIDATES: tuple[str, ...] = ("cp1252", "latin-1", "mac-roman")
NAMES = {"cp1252": "Windows-1252", "latin-1": "ISO-8859-1 (Latin-1)",
         "mac-roman": "Mac Roman", "utf-8": "UTF-8", "utf-8-sig": "UTF-8 with BOM",
         "utf-16": "UTF-16", "utf-16-le": "UTF-16 LE", "utf-16-be": "UTF-16 BE",
         "utf-32": "UTF-32"}

# Signatures of files that are certainly not orders text, with a name a GM recognises.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an MS Office document (.doc/.xls)"),
    (b"PK\x03\x04", "a ZIP archive (or .docx/.odt)"),
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"{\\rtf", "an RTF document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
)

# Letters that are everyday in the languages these code pages serve. Others (š ž from
# Windows-1252, ı ﬁ from Mac Roman) still count as letters, but less: in these code
# pages they are mostly what the wrong reading of ö, ä or an apostrophe looks like.
_COMMON_LETTERS = frozenset(
    "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœ"
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝŒ")
# Typographic punctuation that word processors put into text.
_TYPOGRAPHIC = frozenset("‘’‚“”„–—…«»°€£§´·¡¿©®™•\u00a0")
_WORD_JOINERS = frozenset("’'")


@dataclass
class Decoded:
    """Text ready for a parser (LF line ends, no BOM), or None-like empty text if refused."""

    text: str
    encoding: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    refused: bool = False  # True: the bytes are not an orders text (binary, huge)

    @property
    def ok(self) -> bool:
        return not self.refused


def _diag(message: str, name: str, severity: Severity = Severity.ERROR,
          kind: str = INVALID) -> Diagnostic:
    return Diagnostic(kind, message, file=name, severity=severity)


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR to LF; a trailing DOS end-of-file mark (Ctrl-Z) dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.rstrip("\x1a")


def binary_kind(data: bytes) -> str | None:
    """Why these bytes are not text ('a PDF document', 'binary data'), or None if they may be."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    head = data[:8192]
    if not head:
        return None
    if b"\x00" in data:
        return "binary data (it contains NUL bytes)"
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 26, 27))
    if controls * 20 > len(head):  # over 5 % control bytes: not something a player typed
        return "binary data (it is full of control characters)"
    return None


def _letter(ch: str) -> bool:
    # Modifier letters (ˆ ˜ from Mac Roman) count as letters to str.isalpha, not to a reader.
    return unicodedata.category(ch) in ("Lu", "Ll", "Lt")


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def plausibility(text: str, sample: int = 4000) -> float:
    """How much `text` looks like European prose/orders; higher is better.

    Only the non-ASCII characters are scored (the first `sample` of them, which is plenty
    and keeps a 1 MB file fast), each in the context of its neighbours: accented letters
    joined to other letters score, in the right case pattern; C1 control characters,
    symbols inside words and lone accented letters cost.
    """
    score = 0.0
    n = len(text)
    for k, hit in enumerate(_NON_ASCII.finditer(text)):
        if k >= sample:
            break
        i, ch = hit.start(), hit.group()
        prev = text[i - 1] if i else " "
        nxt = text[i + 1] if i + 1 < n else " "
        p_letter, n_letter = _letter(prev), _letter(nxt)
        in_word = p_letter and n_letter
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cn", "Co", "Cf"):
            score -= 10  # C1 controls: the Latin-1 reading of Windows or Mac bytes
        elif _letter(ch):
            if not (p_letter or n_letter):
                score += 0 if ch in "àÀ" else -1  # "à" stands alone in French; few others do
            else:
                score += 3 if ch in _COMMON_LETTERS else 1
                # Case inside a word: "Köln", "ÖL", not "ìKnig" or "gÄrten".
                if ch.islower() and nxt.isupper() or ch.isupper() and prev.islower():
                    score -= 4
        elif ch in _WORD_JOINERS and in_word:
            score += 3  # don’t, l’armée
        elif ch in "“‘„‚«" and n_letter and not p_letter:
            score += 2  # opening quote before a word
        elif ch in "”’»" and p_letter and not n_letter:
            score += 2  # closing quote after a word
        elif ch in _TYPOGRAPHIC:
            score += -2 if in_word else 1
        else:  # maths, box-drawing, dingbats, modifier accents
            score -= 4 if (p_letter or n_letter) else 2
    return score


def guess_8bit(data: bytes) -> tuple[str, str, dict[str, float]]:
    """(codec, text, scores) for the most plausible 8-bit reading of non-UTF-8 bytes."""
    scores: dict[str, float] = {}
    texts: dict[str, str] = {}
    for codec in CANDIDATES:
        try:
            texts[codec] = data.decode(codec)
        except UnicodeDecodeError:
            continue  # cp1252 leaves five bytes undefined
        scores[codec] = plausibility(texts[codec])
    if "cp1252" in texts and not any(0x80 <= b <= 0x9F for b in data):
        # Without bytes 0x80-0x9F Windows-1252 and Latin-1 read the same: call it Latin-1.
        scores.pop("cp1252")
    best = max(scores, key=lambda c: (scores[c], -CANDIDATES.index(c)))
    return best, texts[best], scores


def _mixed_utf8(data: bytes) -> tuple[str, str, list[int], str] | None:
    """Text pasted together from several sources: some lines UTF-8 with accents, others in
    an 8-bit code page. Returns (text, 'utf-8', the 8-bit line numbers, their codec), or
    None when no line is non-ASCII UTF-8 (then the whole file is 8-bit)."""
    lines = data.split(b"\n")
    utf8 = 0
    decoded: list[str | None] = []
    bad_lines: list[int] = []
    for i, ln in enumerate(lines, start=1):
        try:
            decoded.append(ln.decode("utf-8"))
            utf8 += not ln.isascii()
        except UnicodeDecodeError:
            decoded.append(None)
            bad_lines.append(i)
    if not utf8:
        return None
    codec, _, _ = guess_8bit(b"\n".join(lines[i - 1] for i in bad_lines))
    text = "\n".join(t if t is not None else lines[i].decode(codec)
                     for i, t in enumerate(decoded))
    return text, "utf-8", bad_lines, codec


def _sniff_utf16(data: bytes) -> str | None:
    """UTF-16 without BOM: ASCII text with every other byte NUL."""
    head = data[:4096]
    if len(head) < 4 or len(head) % 2:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def decode(data: bytes, name: str = "", max_bytes: int = DEFAULT_MAX_BYTES,
           charset: str | None = None) -> Decoded:
    """Decode an orders file's bytes; never raises. `charset` is a declared encoding
    (e-mail header) tried first. Refused input has `refused=True` and an error diagnostic."""
    label = name or "<input>"
    if len(data) > max_bytes:
        return Decoded("", "", [_diag(
            f"{label} is too large to be an orders file ({len(data):,} bytes; the limit is "
            f"{max_bytes:,}); not read", name)], refused=True)
    if not data.strip():
        what = "empty" if not data else "blank (only white space)"
        return Decoded("", "utf-8", [_diag(f"{label} is {what}; no orders in it", name,
                                           Severity.WARNING)])
    diags: list[Diagnostic] = []
    text: str | None = None
    encoding = ""
    padded = _trailing_nuls(data)
    if padded:  # some editors and mail tools pad a text with NULs; the text itself is fine
        data = data[:len(data) - padded]
        diags.append(_diag(f"{label} ends in {padded} NUL byte{'s' * (padded > 1)}; dropped",
                           name, Severity.INFO))
    # Byte-order marks are certain; UTF-32 before UTF-16 because FF FE starts both.
    for bom, codec in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"),
                       (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
                       (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                text, encoding = data.decode(codec), codec
            except UnicodeDecodeError as e:
                text = data.decode(codec, errors="replace")
                encoding = codec
                diags.append(_diag(f"{label} starts with a {NAMES[codec]} byte-order mark "
                                   f"but byte {e.start} is not valid {NAMES[codec]}; "
                                   f"bad characters replaced by \ufffd", name, Severity.WARNING))
            break
    if text is None:
        utf16 = _sniff_utf16(data)
        if utf16:
            text, encoding = data.decode(utf16, errors="replace"), utf16
            diags.append(_diag(f"{label} read as {NAMES[utf16]} (no byte-order mark)", name,
                               Severity.INFO))
    if text is None:
        what = binary_kind(data)
        if what:
            return Decoded("", "", [_diag(f"{label} is {what}, not an orders text; "
                                          "please send orders as plain text", name)],
                           refused=True)
    if text is None and charset:
        codec = _codec(charset)
        if codec:
            # Mail clients label Windows-1252 text as ISO-8859-1 all the time; bytes
            # 0x80-0x9F tell (they are control characters in Latin-1).
            c1 = codec == "latin-1" and any(0x80 <= b <= 0x9F for b in data)
            for c in (("cp1252", "latin-1") if c1 else (codec,)):
                try:
                    text, encoding = data.decode(c), c
                    break
                except UnicodeDecodeError:
                    continue
            if text is None:
                diags.append(_diag(f"{label} says its charset is {charset} but is not; "
                                   "guessing instead", name, Severity.WARNING))
        else:
            diags.append(_diag(f"{label} has an unknown charset {charset!r}; guessing instead",
                               name, Severity.WARNING))
    if text is None:
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            mixed = _mixed_utf8(data)
            if mixed is not None:
                text, encoding, bad, codec = mixed
                shown = ", ".join(str(n) for n in bad[:5]) + (", ..." if len(bad) > 5 else "")
                diags.append(_diag(
                    f"{label} mixes encodings: line{'s' * (len(bad) > 1)} {shown} "
                    f"{'are' if len(bad) > 1 else 'is'} not UTF-8 and "
                    f"{'were' if len(bad) > 1 else 'was'} read as {NAMES[codec]}; the rest "
                    "is UTF-8", name, Severity.WARNING, kind="ambiguous"))
            else:
                encoding, text, scores = guess_8bit(data)
                others = ", ".join(f"{NAMES[c]} {s:g}" for c, s in scores.items()
                                   if c != encoding)
                diags.append(_diag(
                    f"{label} is not UTF-8; read as {NAMES[encoding]} "
                    f"(plausibility {scores[encoding]:g}; {others or 'no other reading'})",
                    name, Severity.INFO, kind="ambiguous"))
    text = normalise_newlines(text.lstrip("\ufeff"))
    if not text.strip():  # e.g. nothing but a byte-order mark, or UTF-16 spaces
        diags.append(_diag(f"{label} is blank (only white space); no orders in it", name,
                           Severity.WARNING))
    return Decoded(text, encoding, diags)


def _trailing_nuls(data: bytes) -> int:
    """How many NUL bytes pad the end of an otherwise NUL-free 8-bit or UTF-8 text."""
    body = data.rstrip(b"\x00")
    if len(body) == len(data) or not body.strip() or b"\x00" in body:
        return 0
    n = len(data) - len(body)
    # UTF-16/32 text ends in NULs of its own (the high byte of the last character)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _sniff_utf16(data):
        return 0
    return n


def _codec(charset: str) -> str | None:
    try:
        name = codecs.lookup(charset.strip().strip('"')).name
    except LookupError:
        return None
    return {"iso8859-1": "latin-1", "mac-roman": "mac-roman"}.get(name, name)
