"""A report as JSON text, exactly as `json.dumps(data, indent=1, sort_keys=True,
ensure_ascii=False)` writes it, but fast.

The standard library writes indented JSON in pure Python: at 1,000 factions that was 40%
of the reports' cost (the GM's report alone is 24 MB). orjson writes the same text with
two-space indents; halving each line's indent gives the standard library's text byte for
byte for what reports hold (dicts with string keys, lists, strings, integers, booleans,
None; tests/test_atlantis_report_json.py compares them). What orjson refuses (an integer
key, an integer beyond 64 bits, a lone surrogate) goes to the standard library. Floats,
which Atlantis reports do not hold, would differ only where Python writes an exponent
(1e-05 against 1e-5) or NaN (null).
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover (declared in pyproject; the slow way still works)
    orjson = None


def dumps(data: Any) -> str:
    """`json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)`."""
    if orjson is not None:
        try:
            raw = orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
        except TypeError:  # a key that is not a string, an integer beyond 64 bits...
            raw = None
        if raw is not None:
            return _halve_indents(raw)
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)


def _halve_indents(raw: bytes) -> str:
    """Two spaces a level to one, deepest level first (each a replace of the UTF-8 bytes
    in C, not a Python call per line); a re-indented line starts with NULs until the end,
    so no shallower level matches it again. orjson escapes NUL: the text has none."""
    k = 1
    while b"\n" + b"  " * k in raw:
        k += 1
    for level in range(k - 1, 0, -1):
        raw = raw.replace(b"\n" + b"  " * level, b"\n" + b"\0" * level)
    return raw.replace(b"\0", b" ").decode()
