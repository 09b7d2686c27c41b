"""The escaping rules (see engine/markup/__init__.py for what each is for)."""

from __future__ import annotations

import html as _html
import re
from typing import Any

# Terminal escape sequences as a whole (CSI "ESC [ ... final", OSC "ESC ] ... BEL/ST",
# two-character escapes), so no "[31m" debris is left behind; then single characters:
# C0 controls but tab and newline, DEL, C1 controls, and the Unicode format characters
# that reorder or hide text (bidi embeddings, overrides and isolates, the marks, the
# Arabic letter mark), plus the line and paragraph separators, which some readers break on.
_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"            # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[@-Z\\-_]"                      # other two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"              # 8-bit CSI
)
_BAD = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufff9-\ufffb"
_CHARS = re.compile(f"[{_BAD}]")
_BREAKS = re.compile(r"[\r\n\t\v\f\u2028\u2029\x85]+")


_SURROGATE = re.compile("[\ud800-\udfff]")


def whole(s: Any) -> str:
    """Text that can be stored and encoded: lone surrogates (the mail parser's way of
    carrying undecodable header bytes) decoded as UTF-8 where they spell it, else U+FFFD."""
    s = "" if s is None else str(s)
    if _SURROGATE.search(s) is None:
        return s
    return s.encode("utf-8", "surrogateescape" if _escaped_only(s) else "surrogatepass") \
        .decode("utf-8", "replace")


def _escaped_only(s: str) -> bool:
    return all("\udc80" <= ch <= "\udcff" for ch in _SURROGATE.findall(s))


# The characters above that are ASCII: an ASCII text (most reports) is checked for them as
# bytes, deleting them with bytes.translate, several times faster than the search
_ASCII_BAD = bytes([*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f])


def is_clean(s: str) -> bool:
    """True if `clean` would leave the string as it is (the common case, checked fast)."""
    if s.isascii():
        b = s.encode("ascii")
        return len(b.translate(None, _ASCII_BAD)) == len(b)
    return _CHARS.search(s) is None


# JSON's escapes of the characters above (json.dumps writes C0 controls as \u00XX or \b \f
# \r; with ensure_ascii the rest too). A literal backslash before such text also matches:
# that only costs a needless clean, never a missed one.
_JSON_ESCAPES = re.compile(r"\\(?:u00[01][0-9a-fA-F]|u007[fF]|u00[89][0-9a-fA-F]|u061[cC]|"
                           r"u200[eEfF]|u202[89a-eA-E]|u206[6-9]|u[fF]{3}[9abAB]|[bfr])")


def json_is_clean(text: str) -> bool:
    """True if a JSON text carries none of what `clean` removes, escaped or not."""
    return is_clean(text) and _JSON_ESCAPES.search(text) is None


def clean(s: Any) -> str:
    """The text without control characters, escape sequences or bidi overrides.
    Newlines and tabs stay; CR (which lets text overwrite its own line) goes."""
    s = "" if s is None else str(s)
    if s.isprintable() or is_clean(s):  # (every character clean removes is unprintable)
        return s
    s = s.replace("\r\n", "\n")
    return _CHARS.sub("", _SEQUENCES.sub("", s))


def one_line(s: Any) -> str:
    """`clean`, on one line: line breaks and tabs become single spaces."""
    s = "" if s is None else str(s)
    if s.isprintable():  # the common case: no break, control or format character (all unprintable)
        return s
    return clean(_BREAKS.sub(" ", s))


def html(s: Any) -> str:
    """One player string as HTML text (quotes escaped too: safe in attributes)."""
    return _html.escape(clean(s), quote=True)


# Full-width brackets look like the ASCII ones but no BBCode parser reads them as a tag.
_BB = str.maketrans({"[": "\uff3b", "]": "\uff3d"})


def bbcode(s: Any) -> str:
    """One player string as BBCode text: one line, and no tag can open or close in it
    (`[url]`, `[img]`, `[/quote]`, `[table]`, `[*]` all stay words)."""
    return one_line(s).translate(_BB)


def header(s: Any) -> str:
    """A mail header value: one line without control characters (no header injection)."""
    return " ".join(one_line(s).split())


def clean_data(x: Any) -> Any:
    """`clean` on every string inside plain data (dicts, lists, tuples), keys too."""
    if isinstance(x, str):
        return x if _CHARS.search(x) is None else clean(x)
    if isinstance(x, dict):
        return {clean_data(k): clean_data(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clean_data(v) for v in x]
    if isinstance(x, tuple):
        return tuple(clean_data(v) for v in x)
    return x
