"""Reading King of Kings orders (rule book section 5) leniently into order objects.

Everything between BEGIN and END is read line by line; each line is one order. Keywords
are case-insensitive, troop types may be cut to their first two letters (FO, BO, HO...),
an omitted amount after a type means 1, directions count by their first letter only and
AT means every troop but ships. A line that cannot be read becomes a diagnostic with its
line and column; the rest of the sheet is still read. Nothing here raises.

Co-ordinates become cells of the square grid. The parser does not know the map, so when
no `width` is given the cells are encoded with PROVISIONAL_WIDTH and `bind()` re-encodes
them once the map is known (the checker and the adjudicator call it; it is idempotent).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.orders import AMBIGUOUS, ILLEGAL, INVALID, Diagnostic, OrderSheet, Severity
from engine.orders.tokenizer import NUMBER, STRING, Token, Tokenizer, split_lines
from engine.rulesets.kok.orders_model import (
    Ally,
    Build,
    Cede,
    Defend,
    Donate,
    LandMove,
    Name,
    Place,
    SeaMove,
)

PROVISIONAL_WIDTH = 1 << 16
MAX_ITEMS = 24         # items read from one PLA/DEF line; the checker applies the game's limit
MAX_NAME = 40          # longer province names are cut (the text map has little room)

# (name, symbol) of the standard troop list (2.1); custom lists come from the catalog.
STANDARD_TROOPS: tuple[tuple[str, str], ...] = (
    ("Foot Soldiers", "F"), ("Bowmen", "B"), ("Horsemen", "H"),
    ("Castle", "C"), ("General", "G"), ("Ship", "S"),
)
TACTICS = {"F": "FRONTAL", "P": "PINCER", "T": "STANDARD", "U": "OUTFLANK", "C": "COUNTER"}
DIRECTIONS = {"N": "NORTH", "S": "SOUTH", "E": "EAST", "W": "WEST"}
VERBS = {
    "PLA": "PLA", "PLACE": "PLA", "SEA": "SEA", "LAND": "LAND", "DEF": "DEF", "DEFEND": "DEF",
    "ALL": "ALL", "ALLY": "ALL", "ALLIANCE": "ALL", "CEDE": "CEDE", "DON": "DON",
    "DONATE": "DON", "BUILD": "BUILD", "NAME": "NAME",
}
CANONICAL = ("PLA", "SEA", "LAND", "DEF", "ALL", "CEDE", "DON", "BUILD", "NAME")
_PAIR = re.compile(r"^\(?(\d+)\s*[/,.]\s*(\d+)\)?$")
_TOKENIZER = Tokenizer(underscore_space=False)


@dataclass(frozen=True)
class TroopWords:
    """How troop types may be written: full names, name words, two-letter abbreviations."""

    names: tuple[tuple[str, str], ...] = STANDARD_TROOPS

    def symbols(self) -> list[str]:
        return [s for _, s in self.names]

    def name_of(self, symbol: str) -> str:
        for n, s in self.names:
            if s == symbol:
                return n
        return symbol

    def abbreviation(self, symbol: str) -> str:
        return self.name_of(symbol).replace(" ", "")[:2].upper()

    def match(self, word: str) -> tuple[str | None, bool, list[str]]:
        """(symbol, sure, rest-of-name words) for a written word; symbol None if no troop.

        `sure` is False when only the first two letters matched and the rest differs
        (FOOL read as FOOT); the caller then warns that it guessed.
        """
        sym, sure, rest = _match(self.names, word.upper())
        return sym, sure, list(rest)


@lru_cache(maxsize=4096)
def _match(names: tuple[tuple[str, str], ...], w: str) -> tuple[str | None, bool, tuple[str, ...]]:
    """TroopWords.match, remembered: the same few words recur on every line."""
    if len(w) < 2 or not w[:2].isalpha():
        return None, False, ()
    hits = []
    for name, sym in names:
        parts = name.upper().split()
        joined = "".join(parts)
        if parts[0].startswith(w) or w.startswith(parts[0]) or joined.startswith(w) \
                or w.startswith(joined):
            hits.append((sym, True, tuple(parts[1:]) if not w.startswith(joined) else ()))
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        firsts = {sym: name.upper().split()[0] for name, sym in names}
        exact = [h for h in hits if firsts[h[0]] == w]
        return exact[0] if len(exact) == 1 else (None, False, ())
    by_two = [sym for name, sym in names if name.replace(" ", "")[:2].upper() == w[:2]]
    if len(by_two) == 1:
        return by_two[0], False, ()
    return None, False, ()


def troop_words(troops: Iterable[tuple[str, str]] | None) -> TroopWords:
    return TroopWords(tuple(troops)) if troops else TroopWords()


class _Line:
    """Cursor over one line's tokens that files diagnostics on the sheet."""

    def __init__(self, sheet: OrderSheet, tokens: list[Token], lineno: int, text: str):
        self.sheet, self.toks, self.lineno, self.text = sheet, tokens, lineno, text
        self.i = 1  # token 0 is the verb
        self.failed = False

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> Token | None:
        t = self.peek()
        if t is not None:
            self.i += 1
        return t

    @property
    def done(self) -> bool:
        return self.i >= len(self.toks)

    def col(self, tok: Token | None) -> int:
        if tok is not None:
            return tok.col
        return len(self.text.rstrip()) + 1

    def diag(self, kind: str, message: str, tok: Token | None = None,
             severity: Severity = Severity.ERROR) -> None:
        if severity == Severity.ERROR:
            self.failed = True
        self.sheet.add(Diagnostic(kind, _clip(message), self.lineno, self.col(tok),
                                  _clip(self.text.strip()), severity=severity))

    def warn(self, kind: str, message: str, tok: Token | None = None) -> None:
        self.diag(kind, message, tok, Severity.WARNING)

    def number(self, what: str, minimum: int = 0) -> int | None:
        t = self.peek()
        if t is None:
            self.diag(INVALID, f"{what} missing at the end of the line")
            return None
        if t.kind != NUMBER:
            self.diag(INVALID, f"expected {what} (a number), found {t.raw!r}", t)
            return None
        self.take()
        v = int(t.text)
        if v < minimum:
            self.diag(INVALID, f"{what} must be at least {minimum}, not {v}", t)
            return None
        return v

    def coords(self, width: int) -> int | None:
        """X-C Y-C (also written 7/18 or 7,18) as a cell; None after filing a diagnostic."""
        t = self.peek()
        if t is not None and t.kind != NUMBER:
            m = _PAIR.match(t.raw)
            if m:
                self.take()
                return _encode(int(m.group(1)), int(m.group(2)), width)
        x = self.number("the X co-ordinate")
        if x is None:
            return None
        y = self.number("the Y co-ordinate")
        if y is None:
            return None
        return _encode(x, y, width)

    def extra(self) -> None:
        if not self.done:
            rest = " ".join(t.raw for t in self.toks[self.i:])
            self.warn(INVALID, f"extra words at the end ignored: {rest}", self.peek())


def _clip(text: str, limit: int = 160) -> str:
    """Messages and quoted lines stay readable even when a 'line' is a megabyte long."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _encode(x: int, y: int, width: int) -> int:
    # x beyond the width cannot be told apart after encoding; keep it off the map instead
    if x >= width:
        return -1 - (y * PROVISIONAL_WIDTH + x)
    return y * width + x


def decode(cell: int, width: int) -> tuple[int, int]:
    """(x, y) of a cell encoded with `width`, including off-map markers from _encode."""
    if cell < 0:
        c = -1 - cell
        return c % PROVISIONAL_WIDTH, c // PROVISIONAL_WIDTH
    return cell % width, cell // width


def _suggest(word: str, choices: Iterable[str]) -> str:
    if len(word) > 20:
        return ""
    close = difflib.get_close_matches(word.upper(), list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _tactic(word: str) -> str | None:
    w = word.upper()
    if w in TACTICS:
        return w
    if len(w) >= 3:
        for letter, name in TACTICS.items():
            if name.startswith(w):
                return letter
    return None


def _direction(tok: Token) -> tuple[str | None, bool]:
    """(letter, sure). Only the first letter counts (5); other spellings are guesses."""
    w = tok.upper
    if not w or w[0] not in DIRECTIONS:
        return None, False
    return w[0], len(w) == 1 or DIRECTIONS[w[0]].startswith(w)


def parse_orders(text: str, source: str = "", *, width: int | None = None,
                 troops: Iterable[tuple[str, str]] | None = None) -> OrderSheet:
    """Read an orders text; never raises. `troops` is (name, symbol) of the game's list."""
    sheet = OrderSheet(source=source)
    sheet.header["width"] = width or PROVISIONAL_WIDTH
    words = troop_words(troops)
    text = text if isinstance(text, str) else str(text)
    # what the sheet was read with, so check() can re-read it for a custom troop list
    sheet.header["troops"] = words.names
    sheet.header["text"] = text
    try:
        _parse(sheet, text, width or PROVISIONAL_WIDTH, words)
    except Exception as e:  # a bug must not lose the whole sheet; report it instead
        sheet.add(Diagnostic(INVALID, f"internal error while reading the orders: {e!r}"))
    return sheet


def _parse(sheet: OrderSheet, text: str, width: int, words: TroopWords) -> None:
    lines = split_lines(text.replace("\x00", ""))
    tokenized = [(n, line, _TOKENIZER.tokenize(line, n)) for n, line in lines]
    begin = next((n for n, _, t in tokenized if t and t[0].upper == "BEGIN"), None)
    if begin is None:
        if any(t for _, _, t in tokenized):
            sheet.add(Diagnostic(INVALID, "no BEGIN line: the whole text was read as orders",
                                 severity=Severity.WARNING))
        else:
            sheet.add(Diagnostic(INVALID, "no orders in this text", severity=Severity.WARNING))
    else:
        before = [n for n, _, t in tokenized if n < begin and t]
        if before:
            sheet.add(Diagnostic(INVALID, f"text before BEGIN ignored ({_span(before)})",
                                 before[0], severity=Severity.WARNING))
    inside = begin is None
    ended = False
    ignored_after: list[int] = []
    for n, line, toks in tokenized:
        if not toks:
            continue
        head = toks[0].upper
        if ended:
            ignored_after.append(n)
            continue
        if not inside:
            if n == begin:
                inside = True
                if len(toks) > 1:
                    sheet.add(Diagnostic(INVALID, "words after BEGIN ignored", n, toks[1].col,
                                         line.strip(), severity=Severity.WARNING))
            continue
        if head == "BEGIN":
            sheet.add(Diagnostic(INVALID, "a second BEGIN ignored", n, 1, line.strip(),
                                 severity=Severity.WARNING))
            continue
        if head == "END":
            ended = True
            if len(toks) > 1:
                sheet.add(Diagnostic(INVALID, "words after END ignored", n, toks[1].col,
                                     line.strip(), severity=Severity.WARNING))
            continue
        _order(sheet, toks, n, line, width, words)
    if ignored_after:
        sheet.add(Diagnostic(INVALID, f"text after END ignored ({_span(ignored_after)})",
                             ignored_after[0], severity=Severity.WARNING))
    if begin is not None and not ended:
        sheet.add(Diagnostic(INVALID, "no END line: read to the end of the text",
                             lines[-1][0] if lines else 0, severity=Severity.WARNING))


def _span(ns: list[int]) -> str:
    return f"line {ns[0]}" if len(ns) == 1 else f"lines {ns[0]}-{ns[-1]}"


def _order(sheet: OrderSheet, toks: list[Token], n: int, line: str, width: int,
           words: TroopWords) -> None:
    cur = _Line(sheet, toks, n, line)
    verb_tok = toks[0]
    verb = VERBS.get(verb_tok.upper)
    if verb is None and verb_tok.kind != NUMBER and len(verb_tok.text) >= 2:
        hits = sorted({v for k, v in VERBS.items() if k.startswith(verb_tok.upper)})
        if len(hits) == 1:
            verb = hits[0]
        elif len(hits) > 1:
            cur.diag(AMBIGUOUS, f"{verb_tok.raw!r} could be {' or '.join(hits)}; "
                                "write the order word in full", verb_tok)
            return
    if verb is None:
        cur.diag(INVALID, f"unknown order {verb_tok.raw!r}{_suggest(verb_tok.text, CANONICAL)}",
                 verb_tok)
        return
    order = _READERS[verb](cur, width, words)
    if order is None:
        return
    order.line, order.text = n, _clip(line.strip(), 1000)
    indent = len(line) - len(line.lstrip())
    if indent:  # the checker's columns count from the line as written
        sheet.header.setdefault("indent", {})[n] = indent
    sheet.orders.append(order)


def _read_place(cur: _Line, width: int, words: TroopWords) -> Place | None:
    items: list[tuple[int, str]] = []
    while not cur.done:
        cell = cur.coords(width)
        if cell is None:
            break
        t = cur.peek()
        if t is None:
            cur.diag(INVALID, "troop type missing after the co-ordinates")
            break
        sym, sure, rest = words.match(t.text) if t.kind != NUMBER else (None, False, [])
        if sym is None:
            cur.diag(INVALID, f"expected a troop type, found {t.raw!r}"
                     f"{_suggest(t.text, _troop_choices(words))}", t)
            break
        cur.take()
        _rest_of_name(cur, rest)
        if not sure:
            cur.warn(AMBIGUOUS, f"{t.raw!r} read as {words.name_of(sym)}", t)
        count = 1
        # "PLA 7 18 FO 2 ..." - an amount, when what follows is not the next co-ordinates
        nxt = cur.peek()
        if nxt is not None and nxt.kind == NUMBER and not _starts_item(cur, 0):
            cur.take()
            count = int(nxt.text)
            if count < 1:
                cur.diag(INVALID, f"amount {count} places nothing", nxt)
                continue
            if count != 1:
                cur.warn(AMBIGUOUS, f"PLA places one unit a province; {count} read as "
                         f"{count} placements", nxt)
        items += [(cell, sym)] * min(count, MAX_ITEMS + 1)
    if len(items) > MAX_ITEMS:
        cur.diag(ILLEGAL, f"more than {MAX_ITEMS} placements on one line; the rest ignored")
        items = items[:MAX_ITEMS]
    if not items:
        if not cur.failed:
            cur.diag(INVALID, "PLA needs co-ordinates and a troop type, e.g. PLA 7 18 FOOT")
        return None
    return Place(items=items)


def _starts_item(cur: _Line, k: int) -> bool:
    """Do tokens from offset k read as `X Y Type` (the next PLA item)?"""
    a, b, c = cur.peek(k), cur.peek(k + 1), cur.peek(k + 2)
    if a is not None and a.kind != NUMBER and _PAIR.match(a.raw):
        return True
    return a is not None and b is not None and a.kind == NUMBER and b.kind == NUMBER \
        and (c is None or c.kind != NUMBER)


def _troop_choices(words: TroopWords) -> list[str]:
    out = []
    for name, _ in words.names:
        out += [name.upper().split()[0], name.replace(" ", "")[:2].upper()]
    return out


def _rest_of_name(cur: _Line, rest: list[str]) -> None:
    """Swallow the further words of a multi-word troop name (Foot Soldiers)."""
    for part in rest:
        t = cur.peek()
        if t is None or t.kind == NUMBER:
            return
        w = t.upper
        if len(w) >= 3 and (part.startswith(w) or w.startswith(part)):
            cur.take()
        else:
            return


def _read_move(cur: _Line, width: int, words: TroopWords, land: bool) -> SeaMove | LandMove | None:
    verb = "LAND" if land else "SEA"
    cell = cur.coords(width)
    if cell is None:
        return None
    tactic: str | None = None
    at = False
    units: dict[str, int] = {}
    route: list[str] = []
    while not cur.done:
        t = cur.take()
        assert t is not None
        if route:
            if t.kind == NUMBER:
                cur.diag(INVALID, f"number {t.raw} inside the route; directions only", t)
                return None
            d, sure = _direction(t)
            if d is None:
                sym = words.match(t.text)[0]
                what = (f"troop type {words.name_of(sym)} after the route; list troops before "
                        "the directions") if sym else f"{t.raw!r} is not a direction (N, S, E, W)"
                cur.diag(INVALID, what, t)
                return None
            if not sure:
                cur.warn(AMBIGUOUS, f"{t.raw!r} read as one step {d} (only the first letter "
                         "counts; separate steps with spaces)", t)
            route.append(d)
            continue
        w = t.upper
        if t.kind == NUMBER:
            nxt = cur.peek()
            sym = words.match(nxt.text)[0] if nxt is not None and nxt.kind != NUMBER else None
            if sym is None:
                cur.diag(INVALID, f"number {t.raw} must follow a troop type", t)
                return None
            cur.take()
            amount = int(t.text)
            cur.warn(AMBIGUOUS, f"amount before the type: read as {words.abbreviation(sym)} "
                     f"{amount} (write the type first)", t)
            if not _add_units(cur, units, sym, amount, t, words):
                return None
            continue
        if w == "AT":
            if at:
                cur.warn(INVALID, "AT given twice", t)
            at = True
            continue
        if land and ((len(w) == 1 and w in TACTICS)
                     or (len(w) >= 3 and _tactic(w) and words.match(w)[0] is None)):
            letter = _tactic(w)
            if tactic is not None:
                cur.diag(INVALID, f"a second tactic {t.raw!r}; one tactic a move", t)
                return None
            if units or at:
                cur.warn(INVALID, "the tactic belongs right after the co-ordinates; read anyway", t)
            tactic = letter
            continue
        if not land and len(w) == 1 and w in TACTICS:
            cur.diag(INVALID, f"SEA moves take no tactic ({t.raw!r}); use LAND for a tactic", t)
            return None
        sym, sure, rest = words.match(t.text)
        if sym is not None:
            _rest_of_name(cur, rest)
            if not sure:
                cur.warn(AMBIGUOUS, f"{t.raw!r} read as {words.name_of(sym)}", t)
            amount = 1
            nxt = cur.peek()
            if nxt is not None and nxt.kind == NUMBER:
                cur.take()
                amount = int(nxt.text)
                if amount < 0:
                    cur.diag(INVALID, f"amount {amount} is negative", nxt)
                    return None
            if not _add_units(cur, units, sym, amount, t, words):
                return None
            continue
        d, sure = _direction(t)
        if d is not None:
            if not sure:
                cur.warn(AMBIGUOUS, f"{t.raw!r} read as one step {d} (only the first letter "
                         "counts; separate steps with spaces)", t)
            route.append(d)
            continue
        hint = ""
        if len(w) == 1 and w in words.symbols():
            hint = f"; for {words.name_of(w)} write {words.abbreviation(w)}"
        else:
            hint = _suggest(t.text, _troop_choices(words) + ["AT"])
        cur.diag(INVALID, f"{t.raw!r} is no troop type, tactic or direction{hint}", t)
        return None
    if not units and not at:
        cur.diag(INVALID, f"{verb} names no troops: give types and amounts or AT")
        return None
    if not route:
        cur.diag(INVALID, f"{verb} has no route: give directions N, S, E or W")
        return None
    if land:
        return LandMove(cell=cell, tactic=tactic, at=at, units=units, route=route)
    return SeaMove(cell=cell, at=at, units=units, route=route)


def _add_units(cur: _Line, units: dict[str, int], sym: str, amount: int, tok: Token,
               words: TroopWords) -> bool:
    if amount == 0:
        cur.warn(INVALID, f"{words.name_of(sym)} 0 moves nothing", tok)
    if sym in units:
        cur.warn(AMBIGUOUS, f"{words.name_of(sym)} listed twice; the amounts are added", tok)
    units[sym] = units.get(sym, 0) + amount
    return True


def _read_land(cur: _Line, width: int, words: TroopWords) -> LandMove | None:
    return _read_move(cur, width, words, True)  # type: ignore[return-value]


def _read_sea(cur: _Line, width: int, words: TroopWords) -> SeaMove | None:
    return _read_move(cur, width, words, False)  # type: ignore[return-value]


def _read_def(cur: _Line, width: int, words: TroopWords) -> Defend | None:
    items: list[tuple[int, str]] = []
    while not cur.done:
        cell = cur.coords(width)
        if cell is None:
            break
        t = cur.peek()
        if t is None:
            cur.diag(INVALID, "tactic missing after the co-ordinates (F, P, T, U or C)")
            break
        letter = _tactic(t.text) if t.kind != NUMBER else None
        if letter is None:
            cur.diag(INVALID, f"{t.raw!r} is not a tactic (F, P, T, U or C)", t)
            break
        cur.take()
        items.append((cell, letter))
    if len(items) > MAX_ITEMS:
        cur.diag(ILLEGAL, f"more than {MAX_ITEMS} provinces on one DEF line; the rest ignored")
        items = items[:MAX_ITEMS]
    if not items:
        if not cur.failed:
            cur.diag(INVALID, "DEF needs co-ordinates and a tactic, e.g. DEF 10 18 C")
        return None
    return Defend(items=items)


def _read_all(cur: _Line, width: int, words: TroopWords) -> Ally | None:
    other = cur.number("the player number", 1)
    if other is None:
        return None
    t = cur.peek()
    status = cur.number("the alliance status")
    if status is None:
        return None
    if status > 5:
        cur.diag(INVALID, f"alliance status runs from 0 to 5, not {status}", t)
        return None
    cur.extra()
    return Ally(other=other, status=status)


def _read_cede(cur: _Line, width: int, words: TroopWords) -> Cede | None:
    cell = cur.coords(width)
    if cell is None:
        return None
    other = cur.number("the player number", 1)
    if other is None:
        return None
    cur.extra()
    return Cede(cell=cell, other=other)


def _read_don(cur: _Line, width: int, words: TroopWords) -> Donate | None:
    other = cur.number("the player number", 1)
    if other is None:
        return None
    gold = cur.number("the amount of gold", 1)
    if gold is None:
        return None
    cur.extra()
    return Donate(other=other, gold=gold)


def _read_build(cur: _Line, width: int, words: TroopWords) -> Build | None:
    cell = cur.coords(width)
    if cell is None:
        return None
    cur.extra()
    return Build(cell=cell)


def _read_name(cur: _Line, width: int, words: TroopWords) -> Name | None:
    cell = cur.coords(width)
    if cell is None:
        return None
    first = cur.peek()
    if first is None:
        cur.diag(INVALID, "NAME needs a name after the co-ordinates")
        return None
    if first.kind == STRING and cur.peek(1) is None:
        name = first.text
        if first.unterminated:
            cur.warn(INVALID, "the quoted name has no closing quote", first)
    else:
        last = cur.toks[-1]
        name = cur.text[first.col - 1:last.col - 1 + len(last.raw)].strip().strip('"')
    cur.i = len(cur.toks)
    name = " ".join(name.split())
    if not name:
        cur.diag(INVALID, "NAME needs a name after the co-ordinates", first)
        return None
    if len(name) > MAX_NAME:
        cur.warn(INVALID, f"name cut to {MAX_NAME} characters", first)
        name = name[:MAX_NAME].rstrip()
    return Name(cell=cell, name=name)


_READERS = {
    "PLA": _read_place, "SEA": _read_sea, "LAND": _read_land, "DEF": _read_def,
    "ALL": _read_all, "CEDE": _read_cede, "DON": _read_don, "BUILD": _read_build,
    "NAME": _read_name,
}


# ---- columns, for findings about one part of an order -----------------------------------

def item_columns(text: str) -> list[int]:
    """1-based columns (in `text`) where each PLA/DEF item's co-ordinates start."""
    return list(_item_columns(text))


@lru_cache(maxsize=4096)  # the checker asks for every item of a line: tokenize it once
def _item_columns(text: str) -> tuple[int, ...]:
    toks = _tokens(text)
    cols: list[int] = []
    i = 1
    while i < len(toks):
        t = toks[i]
        if t.kind != NUMBER and _PAIR.match(t.raw):
            start, i = t.col, i + 1
        elif t.kind == NUMBER and i + 1 < len(toks) and toks[i + 1].kind == NUMBER:
            start, i = t.col, i + 2
        else:
            break
        i += 1  # the troop type or tactic
        n = 1
        if i < len(toks) and toks[i].kind == NUMBER and not (
                i + 2 < len(toks) and toks[i + 1].kind == NUMBER and toks[i + 2].kind != NUMBER):
            n = max(1, min(int(toks[i].text), MAX_ITEMS + 1))  # "SH 2": two items, one place
            i += 1
        cols += [start] * n
    return tuple(cols)


def step_columns(text: str, steps: int) -> list[int]:
    """1-based columns of the last `steps` words of `text`: a move's route."""
    toks = _tokens(text)
    return [t.col for t in toks[-steps:]] if steps and len(toks) >= steps else []


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[Token, ...]:
    """An order line's tokens, for the columns of its parts (the parser read the line
    already; findings point into it step by step, item by item)."""
    return tuple(_TOKENIZER.tokenize(text))


# ---- co-ordinates once the map is known ------------------------------------------------

def cells_of(order) -> list[int]:
    """Every cell an order names (for checks and re-encoding)."""
    if isinstance(order, (Place, Defend)):
        return [c for c, _ in order.items]
    c = getattr(order, "cell", None)
    return [] if c is None else [c]


def bind(sheet: OrderSheet, width: int) -> OrderSheet:
    """Re-encode the sheet's cells for a map `width` wide (in place; idempotent).

    Co-ordinates beyond the map stay as negative markers that `on_map` rejects, so the
    checker can name them; `xy()` turns any cell back into the co-ordinates written.
    """
    old = int(sheet.header.get("width") or PROVISIONAL_WIDTH)
    if old == width:
        return sheet

    def re(c: int) -> int:
        x, y = decode(c, old)
        return _encode(x, y, width)

    for o in sheet.orders:
        if isinstance(o, (Place, Defend)):
            o.items = [(re(c), v) for c, v in o.items]
        elif hasattr(o, "cell"):
            o.cell = re(o.cell)
    sheet.header["width"] = width
    return sheet


def xy(cell: int, width: int) -> tuple[int, int]:
    return decode(cell, width)


def unparse(order, width: int, words: TroopWords | None = None) -> str:
    """The order written back in the book's syntax (for NMR sheets and templates)."""
    words = words or TroopWords()

    def c(cell: int) -> str:
        x, y = decode(cell, width)
        return f"{x} {y}"

    def units(o) -> str:
        parts = (["AT"] if o.at else []) + [f"{words.abbreviation(s)} {n}" for s, n in o.units.items()]
        return " ".join(parts)

    if isinstance(order, Place):
        return "PLA " + " ".join(f"{c(cell)} {words.abbreviation(s)}" for cell, s in order.items)
    if isinstance(order, Defend):
        return "DEF " + " ".join(f"{c(cell)} {t}" for cell, t in order.items)
    if isinstance(order, LandMove):
        tac = f" {order.tactic}" if order.tactic else ""
        return f"LAND {c(order.cell)}{tac} {units(order)} {' '.join(order.route)}"
    if isinstance(order, SeaMove):
        return f"SEA {c(order.cell)} {units(order)} {' '.join(order.route)}"
    if isinstance(order, Ally):
        return f"ALL {order.other} {order.status}"
    if isinstance(order, Cede):
        return f"CEDE {c(order.cell)} {order.other}"
    if isinstance(order, Donate):
        return f"DON {order.other} {order.gold}"
    if isinstance(order, Build):
        return f"BUILD {c(order.cell)}"
    if isinstance(order, Name):
        return f'NAME {c(order.cell)} "{order.name}"'
    return order.text
