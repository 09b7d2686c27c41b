"""The words of Continental Conquest orders, and the cursor that reads an order's arguments.

Shared by the sheet reader (orders_sheet.py) and the clan orders' argument readers
(clan_order_args.py). The reader knows the book's words from the default catalogs (vehicle,
expert, building, structure and espionage names); the checker judges them against the game's.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from engine.orders import AMBIGUOUS, INVALID, Severity
from engine.orders.tokenizer import NUMBER, STRING, Token
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import default_catalogs

HEX = re.compile(r"^\d{4}$")
EXTRA = "ignored the extra words"  # Args.rest's warning: the sheet reader looks for it
PATTERN = re.compile(r"^[\d*]{4}$")


class ReaderLike(Protocol):
    """What an argument cursor needs from the sheet reader."""

    words: dict[str, dict[str, str]]

    def say(self, kind: str, message: str, line: int, text: str = "",
            severity: Severity = Severity.ERROR) -> None: ...

    def see_below(self, line: int, text: str) -> str: ...


@lru_cache(maxsize=1)
def book_words() -> dict[str, dict[str, str]]:
    """The words the reader knows from the book's catalogs (the checker uses the game's)."""
    cats = default_catalogs()
    vehicles: dict[str, str] = {}
    for v in cats["vehicles"]:
        for name in (v["id"], v["name"], v["plural"]):
            if name:
                vehicles[name.upper().replace("_", " ")] = v["id"]
    experts = {}
    for e in cats["experts"]:
        experts[e["code"].upper()] = e["code"]
        experts[e["name"].upper()] = e["code"]
    return {
        "convoy": {r["keyword"]: r["keyword"] for r in cats["convoy_orders"]},
        "convoy_codes": {r["code"]: r["keyword"] for r in cats["convoy_orders"] if r["code"]},
        "clan": {r["keyword"]: r["keyword"] for r in cats["clan_orders"]},
        "clan_codes": {r["code"]: r["keyword"] for r in cats["clan_orders"]},
        "vehicles": vehicles, "experts": experts,
        "buildings": {b["code"].upper(): b["code"] for b in cats["buildings"]},
        "custom": {**{c["id"].upper(): c["id"] for c in cats["custom_structures"]},
                   **{c["name"].upper(): c["id"] for c in cats["custom_structures"]}},
        "espionage": {e["keyword"].upper(): e["keyword"] for e in cats["espionage"]},
        "goods": {g["id"].upper(): g["id"] for g in cats["goods"]},
    }


def lookup(word: str, names: dict[str, str], codes: dict[str, str]) -> tuple[str | None, list[str]]:
    """Keyword by its name, its two-letter code, or a unique abbreviation of 3+ letters."""
    w = word.upper().rstrip(".,:")
    if w in names:
        return names[w], [w]
    if w in codes:
        return codes[w], [w]
    if len(w) < 3:
        return None, []
    hits = sorted({v for k, v in names.items() if k.replace(" ", "").startswith(w)})
    return (hits[0], hits) if len(hits) == 1 else (None, hits)


def item_of(word: str) -> str | None:
    w = word.upper().rstrip(".,")
    for item in o.SUPPLY_ITEMS:
        if w in (item.upper(), item.upper().rstrip("S")):
            return item
    return None


class Args:
    """The words after an order's keyword, taken one by one with readable complaints."""

    def __init__(self, toks: list[Token], reader: ReaderLike, lineno: int, text: str):
        self.toks, self.i, self.r, self.line, self.text = toks, 0, reader, lineno, text

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.more() else None

    def take(self) -> Token | None:
        t = self.peek()
        self.i += self.more()
        return t

    def bad(self, message: str, kind: str = INVALID, severity: Severity = Severity.ERROR) -> None:
        self.r.say(kind, message, self.line, self.text, severity)

    def number(self, what: str, required: bool = True, signed: bool = False) -> int | None:
        t = self.peek()
        if t is None or t.kind != NUMBER:
            if required:
                self.bad(f"{what} missing: a number" if t is None else f"{what}: {t.text!r} is not a number")
            return None
        self.i += 1
        v = int(t.text)
        if v < 0 and not signed:
            self.bad(f"{what} cannot be negative ({v})")
            return None
        return v

    def hex(self, what: str = "hex", required: bool = True, pattern: bool = False) -> str | None:
        t = self.peek()
        ok = PATTERN if pattern else HEX
        if t is None or not ok.match(t.raw):
            if required:
                self.bad(f"{what} missing" if t is None else
                         f"{what}: {t.raw!r} is not a hex (four digits, CCRR, e.g. 0825"
                         + (", * for any digit)" if pattern else ")"))
            return None
        self.i += 1
        return t.raw

    def convoy(self, what: str = "convoy number", required: bool = True) -> int | None:
        t = self.peek()
        if t is not None and t.raw == "#" and self.i + 1 < len(self.toks):
            self.i += 1
            t = self.peek()
        raw = (t.raw.lstrip("#") if t is not None else "")
        if not raw.isdigit() or len(raw) > 2:
            if required:
                self.bad(f"{what} missing (write #1, #2...)" if t is None else
                         f"{what}: {t.raw!r} is not a convoy number (write #1, #2...)")
            return None
        self.i += 1
        return int(raw)

    def text_arg(self, what: str, required: bool = True) -> str | None:
        """A quoted text, SEE BELOW (filled from the BELOW block), or unquoted words (warned)."""
        if not self.more():
            if required:
                self.bad(f"{what} missing: write it in quotes")
            return None
        t = self.toks[self.i]
        if t.kind == STRING:
            self.i += 1
            if t.unterminated:
                self.bad(f"{what}: the closing quote is missing; read to the end of the line",
                         AMBIGUOUS, Severity.WARNING)
            return t.text
        words = [x.text for x in self.toks[self.i:]]
        self.i = len(self.toks)
        if [w.upper() for w in words] == ["SEE", "BELOW"]:
            return self.r.see_below(self.line, self.text)
        self.bad(f"{what} not in quotes; read as {' '.join(words)!r}", AMBIGUOUS, Severity.WARNING)
        return " ".join(words)

    def rest(self) -> None:
        if self.more():
            extra = " ".join(t.raw for t in self.toks[self.i:])
            self.bad(f"{EXTRA} {extra!r}", INVALID, Severity.WARNING)
            self.i = len(self.toks)
