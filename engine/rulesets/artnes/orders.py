"""Reading ARTNES orders: free-form forum messages written close to the rule book.

    Nation: France                      (or  #artnes France)
    Gold 12, PP 14, left 3              the book's opening line, checked against the state
    Buy knight in Paris
    Buy 2 spearmen in Navarre
    Move knight Paris - Champagne - Lorraine
    Move 2 spearmen from Navarre to Gascony
    Convoy spearman Brittany to Cornwall via Channel
    Declare war on England
    Make peace with France

One order a line; words are case-insensitive; `#` or `//` starts a comment. Realm names
are resolved later against the map (checker), so the parser never needs the scenario.
Nothing here raises: an unreadable line becomes an `invalid` diagnostic with its number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.orders import INVALID, Diagnostic, Order, OrderSheet, Severity, unhide_spaces
from engine.orders.tokenizer import split_lines

UNIT_WORDS = {
    "knight": "knight", "knights": "knight", "kn": "knight", "k": "knight",
    "spearman": "spearman", "spearmen": "spearman", "spearmans": "spearman", "spear": "spearman",
    "spears": "spearman", "sp": "spearman", "s": "spearman",
    "galley": "galley", "galleys": "galley", "galleies": "galley", "gal": "galley", "g": "galley",
    "castle": "castle", "castles": "castle", "c": "castle",
}
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
MAX_COUNT = 999
MAX_LINE = 500


@dataclass
class Opening(Order):
    gold: int | None = None
    pp: int | None = None
    left: int | None = None


@dataclass
class Buy(Order):
    count: int = 1
    unit: str = ""
    realm: str = ""


@dataclass
class Move(Order):
    count: int | None = 1          # None = all
    unit: str = ""
    route: list[str] = field(default_factory=list)


@dataclass
class Convoy(Order):
    count: int | None = 1
    unit: str = ""
    src: str = ""
    dest: str = ""
    sea: str = ""                  # '' = the only sea the two realms share


@dataclass
class War(Order):
    nation: str = ""


@dataclass
class Peace(Order):
    nation: str = ""


_HEADER = re.compile(r"^\s*(?:#\s*artnes\b\s*:?|nation\s*:|kingdom\s*:|player\s*:)\s*(?P<name>.+?)\s*$", re.I)
_YEAR = re.compile(r"^\s*(?:year\s*:?\s*(?P<year>\d{3,4})(?:\s*ad)?|turn\s*:?\s*(?P<turn>\d+))\s*$", re.I)
_OPEN_WORD = re.compile(r"\b(gold|treasury|pps?|population(?:\s+points)?|left(?:\s+over)?|free)\b", re.I)
_COUNT = r"(?P<count>\d+|all|" + "|".join(NUMBER_WORDS) + r")"
_UNIT = r"(?P<unit>[a-z]+)"
_BUY = re.compile(rf"^buy\s+(?:{_COUNT}\s+)?{_UNIT}\s+(?:(?:in|at|into)\s+)?(?P<realm>.+)$", re.I)
_MOVE = re.compile(rf"^move\s+(?:{_COUNT}\s+)?{_UNIT}\s+(?:from\s+)?(?P<route>.+)$", re.I)
_CONVOY = re.compile(rf"^convoy\s+(?:{_COUNT}\s+)?{_UNIT}\s+(?:from\s+)?(?P<src>.+?)\s+to\s+"
                     rf"(?P<dest>.+?)(?:\s+(?:via|through|across|by)\s+(?P<sea>.+))?$", re.I)
_WAR = re.compile(r"^(?:declare\s+war\s+(?:on|against|with)|war\s+(?:on|with|against))\s+(?P<n>.+)$", re.I)
_PEACE = re.compile(r"^(?:make\s+peace\s+with|peace\s+with|make\s+peace\s+to|peace)\s+(?P<n>.+)$", re.I)
_STAY = re.compile(r"^(?:stay|hold|no\s+moves?|pass|none|end)\b", re.I)
_ROUTE_SPLIT = re.compile(r"\s*(?:->|=>|→|–|—|-|,|>|\bto\b|\bthen\b)\s*", re.I)


def _count(text: str | None) -> int | None:
    if text is None:
        return 1
    t = text.lower()
    if t == "all":
        return None
    return NUMBER_WORDS.get(t) if t in NUMBER_WORDS else int(t)


def _strip_comment(line: str) -> str:
    if _HEADER.match(line):
        return line
    for mark in ("//", "#"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip().rstrip(".;")


def _opening(line: str, n: int) -> Opening | None:
    """`Gold 12, PP 14, left 3` in any order, numbers before or after their words."""
    words = list(_OPEN_WORD.finditer(line))
    if not words or not re.search(r"\d", line):
        return None
    rest = _OPEN_WORD.sub(" ", re.sub(r"[\d,:;=()\s]+", " ", line)).strip()
    if rest:
        return None
    o = Opening(n, line.strip())
    tokens = re.findall(r"\d+|[a-z]+(?:\s+(?:points|over))?", line, re.I)
    pending: int | None = None
    key: str | None = None
    for t in tokens:
        if t.isdigit():
            if key is not None:
                _set_opening(o, key, int(t))
                key = None
            else:
                pending = int(t)
        else:
            k = t.lower()
            k = "gold" if k in ("gold", "treasury") else "left" if k.startswith(("left", "free")) else "pp"
            if pending is not None:
                _set_opening(o, k, pending)
                pending = None
            else:
                key = k
    return o


def _set_opening(o: Opening, key: str, value: int) -> None:
    setattr(o, key, value)


def parse(text: str, source: str = "") -> OrderSheet:
    sheet = OrderSheet(source=source)
    if not isinstance(text, str):
        sheet.add(Diagnostic(INVALID, "orders are not text"))
        return sheet
    text = unhide_spaces(text)
    text, quoted = _forum_markup(text)
    for first, last in quoted:
        sheet.add(Diagnostic(INVALID, f"quoted text (lines {first}-{last}) ignored: orders are "
                             "only read outside [quote]", first, 0, "", severity=Severity.WARNING))
    for n, raw in split_lines(text):
        try:
            _line(sheet, n, raw)
        except (ValueError, IndexError, OverflowError) as e:  # never let one line stop the sheet
            sheet.add(Diagnostic(INVALID, f"cannot read this line ({e})", n, 0, raw[:MAX_LINE]))
    return sheet


# Formatting a forum adds or a player types; [quote] blocks are somebody else's words.
_TAG = re.compile(r"\[/?(?:b|i|u|s|color|colour|size|font|center|left|right|highlight|"
                  r"list|\*|url|code|spoiler)(?:=[^\]\n]*)?\]", re.I)
_QUOTE = re.compile(r"\[quote(?:=[^\]\n]*)?\].*?(?:\[/quote\]|\Z)", re.I | re.S)


def _forum_markup(text: str) -> tuple[str, list[tuple[int, int]]]:
    """BBCode tags removed and [quote] blocks blanked, line numbers kept; the quotes' lines."""
    quoted: list[tuple[int, int]] = []

    def blank(m: re.Match[str]) -> str:
        first = text.count("\n", 0, m.start()) + 1
        quoted.append((first, first + m.group().count("\n")))
        return "\n" * m.group().count("\n")

    return _TAG.sub("", _QUOTE.sub(blank, text)), quoted


def _bad(sheet: OrderSheet, n: int, raw: str, msg: str, sev: Severity = Severity.ERROR) -> None:
    sheet.add(Diagnostic(INVALID, msg, n, 0, raw.strip()[:MAX_LINE], severity=sev))


def _line(sheet: OrderSheet, n: int, raw: str) -> None:
    if len(raw) > MAX_LINE:
        _bad(sheet, n, raw, f"line longer than {MAX_LINE} characters; skipped")
        return
    line = _strip_comment(raw.replace("\t", " ").replace("\x00", ""))
    if not line:
        return
    if m := _HEADER.match(line):
        sheet.header["nation"] = m["name"].strip()
        sheet.header["nation_line"] = n
        return
    if m := _YEAR.match(line):
        if m["year"]:
            sheet.header["year"] = int(m["year"])
        else:
            sheet.header["turn"] = int(m["turn"])
        return
    if (o := _opening(line, n)) is not None:
        if any(isinstance(x, Opening) for x in sheet.orders):
            _bad(sheet, n, raw, "a second opening line; the first one counts", Severity.WARNING)
        else:
            sheet.orders.append(o)
        return
    if _STAY.match(line):
        return
    low = line.lower()
    verb = low.split()[0]
    if m := _WAR.match(line):
        sheet.orders.append(War(n, raw.strip(), nation=m["n"].strip()))
    elif m := _PEACE.match(line):
        sheet.orders.append(Peace(n, raw.strip(), nation=m["n"].strip()))
    elif verb in ("buy", "build", "recruit", "purchase"):
        m = _BUY.match("buy" + line[len(verb):])
        if m is None:
            _bad(sheet, n, raw, "write a purchase as `Buy [number] <unit> in <realm>`")
            return
        unit = _unit(sheet, n, raw, m["unit"])
        count = _count(m["count"])
        if unit is None:
            return
        if count is None or count < 1 or count > MAX_COUNT:
            _bad(sheet, n, raw, "buy a number of units from 1 to 999")
            return
        sheet.orders.append(Buy(n, raw.strip(), count=count, unit=unit, realm=m["realm"].strip()))
    elif verb == "move":
        m = _MOVE.match(line)
        if m is None:
            _bad(sheet, n, raw, "write a move as `Move [number] <unit> <realm> - <realm> [- <realm>]`")
            return
        unit = _unit(sheet, n, raw, m["unit"])
        if unit is None:
            return
        count = _count(m["count"])
        if count is not None and not 1 <= count <= MAX_COUNT:
            _bad(sheet, n, raw, "move a number of units from 1 to 999, or all")
            return
        route = [p.strip() for p in _ROUTE_SPLIT.split(m["route"]) if p.strip()]
        if len(route) < 2:
            _bad(sheet, n, raw, "a move needs where the units are and where they go, "
                 "e.g. `Move knight Paris - Champagne`")
            return
        sheet.orders.append(Move(n, raw.strip(), count=count, unit=unit, route=route))
    elif verb == "convoy":
        m = _CONVOY.match(line)
        if m is None:
            _bad(sheet, n, raw, "write a convoy as `Convoy [number] <unit> <realm> to <realm> via <sea>`")
            return
        unit = _unit(sheet, n, raw, m["unit"])
        if unit is None:
            return
        count = _count(m["count"])
        if count is not None and not 1 <= count <= MAX_COUNT:
            _bad(sheet, n, raw, "convoy a number of units from 1 to 999, or all")
            return
        sheet.orders.append(Convoy(n, raw.strip(), count=count, unit=unit, src=m["src"].strip(),
                                   dest=m["dest"].strip(), sea=(m["sea"] or "").strip()))
    else:
        _bad(sheet, n, raw, f"unknown order {line.split()[0]!r}; orders are Buy, Move, Convoy, "
             "Declare war on, Make peace with")


def _unit(sheet: OrderSheet, n: int, raw: str, word: str) -> str | None:
    unit = UNIT_WORDS.get(word.lower())
    if unit is None:
        _bad(sheet, n, raw, f"{word!r} is not a unit (knight, spearman, galley, castle)")
    return unit
