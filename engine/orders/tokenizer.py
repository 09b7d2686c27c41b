"""The shared order tokenizer.

Words, numbers, "quoted strings" (with \" inside), `_` standing for a space inside a word
(Atlantis style, optional), comments to end of line, case-insensitive keywords with
abbreviations. It never raises: an unterminated quote ends at the end of the line and is
flagged on the token so the ruleset can report it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

K = TypeVar("K")

WORD, NUMBER, STRING, PUNCT = "word", "number", "string", "punct"
# Invisible characters web mail and forums slip into pasted text; they separate like spaces.
# (A soft hyphen, U+00AD, sits inside a word instead: it is dropped from the word's text.)
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff")
SOFT_HYPHEN = "\u00ad"


def _blank(ch: str) -> bool:
    return ch.isspace() or ch in INVISIBLE


_UNHIDE = {ord(c): " " for c in INVISIBLE} | {0xA0: " ", 0x202F: " ", 0xAD: None}


def unhide_spaces(text: str) -> str:
    """Invisible and no-break spaces from web mail as plain spaces, soft hyphens removed
    (same lines), for rulesets that read lines with patterns rather than the tokenizer."""
    return text.translate(_UNHIDE)
_NUMBER = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Token:
    text: str        # as written (quotes removed, `_` turned into spaces when enabled)
    kind: str        # word | number | string | punct
    line: int
    col: int         # 1-based column of the first character
    raw: str = ""    # exactly as in the source
    unterminated: bool = False

    @property
    def upper(self) -> str:
        return self.text.upper()

    @property
    def value(self) -> int | None:
        return int(self.text) if self.kind == NUMBER else None


@dataclass(frozen=True)
class Tokenizer:
    comment_chars: str = "#;"
    underscore_space: bool = True
    punct: str = ""  # characters that are tokens of their own, e.g. "(),"

    def tokenize(self, line: str, lineno: int = 1) -> list[Token]:
        out: list[Token] = []
        underscore = self.underscore_space
        # one regular expression finds each token (a loop over characters in Python cost
        # most of the time of checking 1,000 orders files; docs/performance.md)
        for m in _scanner(self.comment_chars, self.punct).finditer(line):
            kind = m.lastgroup
            if kind == "word":  # the common case, written out: no function calls
                raw = m.group()
                text = raw.replace(SOFT_HYPHEN, "") if SOFT_HYPHEN in raw else raw
                kind = NUMBER if _NUMBER.match(text) else WORD
                if underscore:
                    text = text.replace("_", " ")
                t = _new(Token)
                t.__dict__.update(text=text, kind=kind, line=lineno, col=m.start() + 1, raw=raw,
                                  unterminated=False)
                out.append(t)
            elif kind == "string":
                raw = m.group()
                closed = m.group("close") is not None
                body = raw[1:-1] if closed else raw[1:]
                out.append(_token(body.replace('\\"', '"'), STRING, lineno, m.start() + 1, raw,
                                  not closed))
            elif kind == "punct":
                ch = m.group()
                out.append(_token(ch, PUNCT, lineno, m.start() + 1, ch, False))
            else:  # a comment: the rest of the line is not read
                break
        return out


def _token(text: str, kind: str, line: int, col: int, raw: str, unterminated: bool) -> Token:
    """Token(...) without the frozen dataclass's __init__, which sets each field through
    object.__setattr__ and took half the tokenizer's time; the same object otherwise."""
    t = _new(Token)
    t.__dict__.update(text=text, kind=kind, line=line, col=col, raw=raw,
                      unterminated=unterminated)
    return t


_new = object.__new__


@lru_cache(maxsize=64)
def _scanner(comment_chars: str, punct: str) -> re.Pattern[str]:
    """The token pattern of a tokenizer: white space (skipped by finditer), then, as the
    first character decides, a comment mark, a character of its own, a quoted string
    (\\" inside; to the end of the line if unclosed) or a word (up to any of those)."""
    blank = r"\s" + "".join(INVISIBLE)
    parts = []
    if comment_chars:
        parts.append(f"(?P<comment>[{re.escape(comment_chars)}])")
    if punct:
        parts.append(f"(?P<punct>[{re.escape(punct)}])")
    parts.append(r'(?P<string>"(?:\\"|[^"])*(?P<close>")?)')
    stop = re.escape(comment_chars + punct)
    parts.append(f'(?P<word>[^{blank}{stop}"]+)')
    return re.compile("|".join(parts))


DEFAULT = Tokenizer()


def tokenize(line: str, lineno: int = 1) -> list[Token]:
    return DEFAULT.tokenize(line, lineno)


def split_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) for CRLF, CR or LF text, with a leading BOM dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return list(enumerate(text.split("\n"), start=1))


def keyword(word: str, keywords: Mapping[str, K] | Iterable[str],
            min_len: int = 1) -> tuple[K | str | None, list[str]]:
    """Match a word to a keyword, case-insensitively, by exact name or unique abbreviation.

    Returns (value, candidates): value is None when nothing or several match; candidates
    lists the keywords an ambiguous abbreviation could mean.
    """
    table = keywords if isinstance(keywords, Mapping) else {k: k for k in keywords}
    w = word.upper()
    upper = {k.upper(): v for k, v in table.items()}
    if w in upper:
        return upper[w], [w]
    if len(w) < min_len:
        return None, []
    hits = [k for k in upper if k.startswith(w)]
    values: list = []  # distinct meanings: aliases of one value are not ambiguous
    for k in hits:
        v = upper[k]
        if not any(v is u or (type(v) is type(u) and v == u) for u in values):
            values.append(v)
    if len(values) == 1:
        return upper[hits[0]], hits
    return None, sorted(hits)
