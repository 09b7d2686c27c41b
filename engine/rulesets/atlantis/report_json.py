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
            # Where no string holds two spaces running (the written text without indents
            # shows), the only double spaces are the indents, each an even run: halving
            # them all is one replace, a sixth of the numpy way
            if b"  " not in orjson.dumps(data):
                return raw.replace(b"  ", b" ").decode()
            return _halve_indents(raw)
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)


CHUNK = 1 << 20  # bytes re-indented at a time: numpy's work arrays stay small


def _halve_indents(raw: bytes) -> str:
    """Two spaces a level to one: the first half of each line's leading spaces is cut out
    with numpy (a Python step per line, or a replace per level, cost more than orjson's
    whole writing of a big report), a megabyte at a time. Only real line breaks count:
    orjson escapes the ones inside strings."""
    if len(raw) <= CHUNK:
        return _halve(raw).decode()
    parts, at = [], 0
    while at < len(raw):
        end = raw.find(b"\n", at + CHUNK)  # each piece starts at a line break (or the start)
        end = len(raw) if end < 0 else end
        parts.append(_halve(raw[at:end]))
        at = end
    return b"".join(parts).decode()


def _halve(raw: bytes) -> bytes:
    import numpy as np

    a = np.frombuffer(raw, dtype=np.uint8)
    starts = np.flatnonzero(a == 10) + 1
    if not len(starts):
        return raw
    spaces = np.zeros(len(starts), dtype=np.int64)
    inside = np.ones(len(starts), dtype=bool)  # still counting this line's leading spaces
    k = 0
    while inside.any():
        at = starts + k
        ok = at < len(a)
        inside &= ok
        inside[ok] &= a[at[ok]] == 32
        spaces += inside
        k += 1
    cut = np.zeros(len(a) + 1, dtype=np.int8)  # +1 where a cut begins, -1 where it ends
    cut[starts] += 1
    cut[starts + spaces // 2] -= 1
    keep = np.cumsum(cut[:-1], dtype=np.int8) == 0
    return a[keep].tobytes()
