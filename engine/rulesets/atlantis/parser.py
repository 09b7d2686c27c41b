"""Reading Atlantis orders files: `#atlantis N "password"` ... `#end` sets, as players write them.

Lenient and total: any text gives an OrderSheet of typed orders plus diagnostics with
line numbers; nothing raises. What the book asks of a file (section Orders):

- only lines inside a set are orders; mail bodies, signatures, pasted reports before
  `#atlantis` or after `#end` are never read (several sets may share one mail);
- `UNIT n` starts a unit's orders; `FORM alias` ... `END` holds a new unit's orders;
- one order a line, keyword first, any case; `;` starts a comment when it starts a word;
  names with spaces in double quotes or with `_` for each space; `@` before an order
  repeats it in next month's template;
- units as `17`, `NEW 2` or `FACTION 15 NEW 2`; items and skills by singular, plural or
  four-letter code.

Syntax checks made here (the rest needs the game state: checker.py): unknown orders
(those of later servers named as such), unknown skills, items and objects, bad
directions, a second month-long order (it replaces the first, as on the server), FORM
without END and END without FORM, invalid unit numbers, orders before any UNIT line, BUY
and CLAIM without a number, flags other than 0/1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.orders import AMBIGUOUS, ILLEGAL, INVALID, OrderSheet, Severity, Token, Tokenizer
from engine.orders.diagnostics import Diagnostic
from engine.orders.tokenizer import NUMBER, STRING, WORD, split_lines
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis.catalog import Names, default_names
from engine.rulesets.atlantis.state import ATTITUDES

TOKENS = Tokenizer(comment_chars="", underscore_space=True)
_WORD = re.compile(r"\S+")
_NUM = re.compile(r"[+-]?\d+")


def tokens(body: str, n: int) -> list[Token]:
    """The shared tokenizer's tokens; plain ASCII lines without quotes (nearly all of a
    file) are split by one regular expression to the same result, twice as fast, and the
    tokens made without the frozen dataclass's __init__ (as the tokenizer makes them)."""
    if '"' in body or not body.isascii():
        return TOKENS.tokenize(body, n)
    out = []
    for m in _WORD.finditer(body):
        w = m.group()
        t = _new(Token)
        # ASCII: isdigit() is [0-9], so this is _NUM.fullmatch(w)
        number = w.isdigit() or (w[0] in "+-" and w[1:].isdigit())
        t.__dict__.update(text=w.replace("_", " ") if "_" in w else w,
                          kind=NUMBER if number else WORD, line=n, col=m.start() + 1, raw=w,
                          unterminated=False)
        out.append(t)
    return out


_new = object.__new__
_COMMENT = re.compile(r"(?<!\S);")  # a `;` at the start or after white space


def _unquoted(text: str) -> str:
    """The text without its double-quoted parts."""
    return "".join(text.split('"')[::2])


def strip_comment(line: str) -> str:
    """The line without its comment: a `;` outside quotes that starts a word (L453)."""
    if ";" not in line:
        return line
    if '"' not in line:  # no quotes: the first `;` that starts a word
        m = _COMMENT.search(line)
        return line if m is None else line[:m.start()]
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


class Cursor:
    """The tokens of one order after its keyword, read left to right."""

    def __init__(self, tokens: list[Token]):
        self.tokens, self.i = tokens, 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def next(self) -> Token | None:
        t = self.peek()
        if t is not None:
            self.i += 1
        return t

    def rest(self) -> list[Token]:
        out, self.i = self.tokens[self.i:], len(self.tokens)
        return out

    @property
    def done(self) -> bool:
        return self.i >= len(self.tokens)


class Problem(Exception):
    """An order that cannot be read; the message is for the player."""

    def __init__(self, message: str, kind: str = INVALID, severity: Severity = Severity.ERROR):
        super().__init__(message)
        self.kind, self.severity = kind, severity


@dataclass
class _Set:
    faction: int
    password: str
    line: int
    end: int = 0
    aliases: dict[int, int] = field(default_factory=dict)  # alias -> line of its FORM
    units: dict[int, int] = field(default_factory=dict)    # unit -> line of its UNIT


class Parser:
    def __init__(self, text: str, source: str = "", names: Names | None = None):
        self.text, self.names = text, names or default_names()
        self.sheet = OrderSheet(source=source)
        self.sets: list[_Set] = []
        self.current: _Set | None = None
        self.unit: o.UnitRef | None = None   # whose orders the lines are
        self.bad_unit = 0                    # the line of an invalid UNIT line now in force
        self.form: tuple[o.UnitRef, int] | None = None  # (the forming unit, FORM line)
        # per (set, unit): the month-long order, and CAST / STEAL-ASSASSINATE / TAX-PILLAGE
        self.long: dict[tuple[int, o.UnitRef], o.AtlantisOrder] = {}
        self.once: dict[tuple[int, o.UnitRef, str], o.AtlantisOrder] = {}
        self.notes: list[Problem] = []  # warnings of the order being read

    # ---- diagnostics --------------------------------------------------------------

    def say(self, kind: str, message: str, line: int, text: str = "", col: int = 0,
            severity: Severity = Severity.ERROR) -> None:
        self.sheet.add(Diagnostic(kind, message, line, col, text.strip(), severity=severity))

    # ---- the file -----------------------------------------------------------------

    def parse(self) -> OrderSheet:
        lines = split_lines(self.text)
        for n, raw in lines:
            try:
                self.line(n, raw)
            except Exception as e:  # never raise on input; say where it happened
                self.say(INVALID, f"this line could not be read ({type(e).__name__})", n, raw)
        if self.current is not None:
            self.close_set(len(lines), "", ended=False)
        if not self.sets:
            self.say(INVALID, "no #atlantis line: nothing in this text is read as orders "
                     "(start the orders with #atlantis <faction> \"<password>\")", 0)
        first = self.sets[0] if self.sets else None
        self.sheet.header = {
            "faction": first.faction if first and first.faction else None,
            "password": first.password if first else None,
            "sets": [{"faction": s.faction, "password": s.password, "line": s.line,
                      "end": s.end} for s in self.sets],
        }
        return self.sheet

    def line(self, n: int, raw: str) -> None:
        stripped = raw.strip()
        if stripped[:1] == "#":  # no other first letter casefolds to `#`
            word = stripped.split(None, 1)[0].casefold()
            if word.startswith("#atlantis"):
                self.open_set(n, raw)
                return
            if self.current is None:
                return
            if word == "#end":
                self.close_set(n, raw, ended=True)
                return
        if self.current is None or not stripped:
            return  # outside a set: mail text, signatures, a report pasted back
        body = strip_comment(raw)
        toks = tokens(body, n)
        if not toks:
            return
        repeat = False
        if toks[0].text.startswith("@"):
            repeat = True
            first = toks[0].text[1:]
            if first:
                toks[0] = Token(first, NUMBER if first.isdigit() else toks[0].kind, n,
                                toks[0].col + 1, toks[0].raw[1:])
            else:
                toks = toks[1:]
            if not toks:
                self.say(INVALID, "@ with no order after it", n, raw)
                return
        for t in toks:
            if t.unterminated:
                self.say(INVALID, "a double quote is not closed; the name runs to the end of "
                         "the line", n, raw, t.col, Severity.WARNING)
        said = len(self.sheet.diagnostics)
        self.statement(n, raw, toks, repeat)
        if ";" in body and len(self.sheet.diagnostics) > said and ";" in _unquoted(body) \
                and any(d.severity is Severity.ERROR for d in self.sheet.diagnostics[said:]):
            # later servers end a word at any `;`; the book does not (reading 103)
            self.say(INVALID, "a ; inside a word does not start a comment: put a space "
                     "before it if the rest of the line is a comment", n, raw,
                     severity=Severity.WARNING)

    def open_set(self, n: int, raw: str) -> None:
        if self.current is not None:  # the open set ends on the line before
            self.close_set(n - 1, raw, ended=False)
        toks = TOKENS.tokenize(raw.strip()[len("#atlantis"):], n)
        faction, password = 0, ""
        if not toks or toks[0].kind != NUMBER or (toks[0].value or 0) <= 0:
            self.say(INVALID, "#atlantis needs your faction number: #atlantis <faction> "
                     "\"<password>\"", n, raw)
            rest = toks[1:] if toks and toks[0].kind == NUMBER else toks
        else:
            faction, rest = int(toks[0].value or 0), toks[1:]
        if rest:
            password = rest[0].text if rest[0].kind == STRING else rest[0].raw
            if len(rest) > 1:
                self.say(INVALID, "words after the password on the #atlantis line are ignored "
                         "(a password with spaces goes in double quotes)", n, raw,
                         severity=Severity.WARNING)
        self.current = _Set(faction, password, n)
        self.sets.append(self.current)
        self.unit, self.form, self.bad_unit = None, None, 0

    def close_set(self, n: int, raw: str, ended: bool) -> None:
        assert self.current is not None
        if self.form is not None:
            self.say(INVALID, f"FORM of line {self.form[1]} has no END", self.form[1])
            self.form = None
        if not ended:
            self.say(INVALID, f"the set of line {self.current.line} has no #end; its orders "
                     f"run to line {n}", self.current.line, severity=Severity.WARNING)
        self.current.end = n
        self.current, self.unit = None, None

    # ---- one statement ----------------------------------------------------------------

    def statement(self, n: int, raw: str, toks: list[Token], repeat: bool) -> None:
        key = toks[0].text.upper()
        cur = Cursor(toks[1:])
        if key == "UNIT":
            self.unit_line(n, raw, cur)
            return
        if key == "END":
            if self.form is None:
                self.say(INVALID, "END without FORM", n, raw)
            else:
                self.unit, self.form = self.form[0], None
            return
        if key not in o.BOOK_ORDERS:
            if key in o.LATER_ORDERS:
                self.say(INVALID, f"{key} is an order of later Atlantis servers, not of "
                         "Atlantis Conquest 1.0; it is ignored", n, raw)
            else:
                self.say(INVALID, f"unknown order {toks[0].text!r}", n, raw)
            return
        if self.unit is None:
            self.say(INVALID, f"{key} follows the invalid UNIT line {self.bad_unit}: it belongs "
                     "to no unit and is ignored" if self.bad_unit else f"{key} comes before any "
                     "UNIT line: it belongs to no unit and is ignored", n, raw)
            return
        cls = o.BOOK_ORDERS[key]
        self.notes: list[Problem] = []
        try:
            fields = READERS[key](self, cur)
        except Problem as p:
            self.say(p.kind, f"{key}: {p}", n, raw, severity=p.severity)
            return
        for p in self.notes:
            self.say(p.kind, f"{key}: {p}", n, raw, severity=p.severity)
        if not cur.done:
            extra = " ".join(t.raw or t.text for t in cur.rest())
            self.say(INVALID, f"{key}: extra words ignored: {extra}", n, raw,
                     severity=Severity.WARNING)
        order = cls(line=n, text=raw.strip(), unit=self.unit, faction=self.current.faction,
                    repeat=repeat, **fields)
        if key == "FORM":
            self.start_form(order, n, raw)
            return
        self.add(order, key, n, raw)

    def unit_line(self, n: int, raw: str, cur: Cursor) -> None:
        if self.form is not None:
            self.say(INVALID, f"FORM of line {self.form[1]} has no END before this UNIT line",
                     self.form[1])
            self.form = None
        t = cur.next()
        if t is None or t.kind != NUMBER or (t.value or 0) <= 0:
            self.say(INVALID, "invalid unit number: UNIT needs the unit's number "
                     f"({t.text if t else 'nothing'} given); its orders are ignored", n, raw)
            self.unit, self.bad_unit = None, n
            return
        if not cur.done:
            self.say(INVALID, "UNIT: extra words ignored", n, raw, severity=Severity.WARNING)
        number = int(t.value or 0)
        self.bad_unit = 0
        seen = self.current.units.setdefault(number, n)
        if seen != n:
            self.say(AMBIGUOUS, f"unit {number} has orders from line {seen} already; the orders "
                     "of both blocks count", n, raw, severity=Severity.WARNING)
        self.unit = o.UnitRef(number)

    def start_form(self, order: o.Form, n: int, raw: str) -> None:
        if self.form is not None:
            self.say(INVALID, f"FORM inside FORM (line {self.form[1]}): close the first with "
                     "END; this FORM is ignored", n, raw)
            return
        seen = self.current.aliases.get(order.alias)
        if seen:
            self.say(AMBIGUOUS, f"FORM: alias {order.alias} is already used on line {seen}; "
                     f"in one region NEW {order.alias} names only one of them (new units of "
                     "one region need different aliases)", n, raw,
                     severity=Severity.WARNING)
        else:
            self.current.aliases[order.alias] = n
        self.sheet.orders.append(order)
        self.form = (self.unit, n)
        self.unit = o.UnitRef(alias=order.alias)

    def add(self, order: o.AtlantisOrder, key: str, n: int, raw: str) -> None:
        unit = (len(self.sets), order.unit)
        if order.month_long:
            prev = self.long.get(unit)
            if prev is not None and type(prev) is type(order) and key in o.CHAINING:
                _chain(prev, order)
                return
            if prev is not None:
                self.say(AMBIGUOUS, f"{key} replaces the month-long order {o.verb(prev)} of "
                         f"line {prev.line} (a unit does one month-long order a month)",
                         n, raw, severity=Severity.WARNING)
                _drop(self.sheet.orders, prev)
            self.long[unit] = order
        group = ONCE.get(key)
        if group:
            prev = self.once.get((*unit, group))
            if prev is not None:
                self.say(AMBIGUOUS, f"{key} replaces {o.verb(prev)} of line {prev.line} "
                         f"({ONCE_WHY[group]})", n, raw, severity=Severity.WARNING)
                _drop(self.sheet.orders, prev)
            self.once[(*unit, group)] = order
        self.sheet.orders.append(order)


def _drop(orders: list, order: o.AtlantisOrder) -> None:
    """Remove this very order (orders compare equal by value)."""
    for i, x in enumerate(orders):
        if x is order:
            del orders[i]
            return


ONCE = {"CAST": "cast", "STEAL": "theft", "ASSASSINATE": "theft", "TAX": "tax", "PILLAGE": "tax"}
ONCE_WHY = {"cast": "a mage casts one spell a month",
            "theft": "a unit may STEAL or ASSASSINATE once a month",
            "tax": "TAX and PILLAGE exclude each other"}


def _chain(prev: o.AtlantisOrder, more: o.AtlantisOrder) -> None:
    """MOVE N + MOVE NE = MOVE N NE; TEACH 1 + TEACH 2 = TEACH 1 2 (the book)."""
    if isinstance(prev, (o.Move, o.Sail)):
        prev.steps = prev.steps + more.steps  # type: ignore[attr-defined]
    elif isinstance(prev, o.Teach):
        prev.targets = prev.targets + more.targets  # type: ignore[attr-defined]
    prev.repeat = prev.repeat or more.repeat


# ---- argument readers: one per order, each returns the order's fields ----------------------

def _number(cur: Cursor, what: str, minimum: int = 0) -> int:
    t = cur.next()
    if t is None:
        raise Problem(f"needs {what}")
    if t.kind != NUMBER:
        if t.upper == "ALL":
            raise Problem(f"ALL is from later Atlantis servers; give {what}")
        raise Problem(f"{t.text!r} is not a number; needs {what}")
    if int(t.text) < minimum:
        raise Problem(f"{what} must be at least {minimum}, not {t.text}")
    return int(t.text)


def _unit(cur: Cursor, what: str = "a unit", zero_ok: bool = False) -> o.UnitRef:
    t = cur.next()
    if t is None:
        raise Problem(f"needs {what}")
    if t.upper == "NEW":
        return o.UnitRef(alias=_number(cur, "the alias after NEW", 1))
    if t.upper == "FACTION":
        f = _number(cur, "a faction number after FACTION", 1)
        nt = cur.next()
        if nt is None or nt.upper != "NEW":
            raise Problem("FACTION f must be followed by NEW alias (FACTION 15 NEW 2)")
        return o.UnitRef(alias=_number(cur, "the alias after NEW", 1), faction=f)
    if t.kind != NUMBER or int(t.text) < (0 if zero_ok else 1):
        raise Problem(f"invalid unit number {t.text!r}")
    return o.UnitRef(int(t.text))


def _units(cur: Cursor, what: str) -> tuple[o.UnitRef, ...]:
    out = []
    while not cur.done:
        out.append(_unit(cur))
    if not out:
        raise Problem(f"needs {what}")
    return tuple(out)


_LATER_FLAGS = {"true": True, "t": True, "on": True, "false": False, "f": False, "off": False}


def _flag(p: Parser, cur: Cursor) -> dict:
    t = cur.next()
    if t is not None and t.text.casefold() in _LATER_FLAGS:
        # later servers also take true/false, on/off, t/f; understood, with a note
        value = _LATER_FLAGS[t.text.casefold()]
        p.notes.append(Problem(f"the book's flags are 1 and 0; {t.text!r} read as {int(value)}",
                               AMBIGUOUS, Severity.WARNING))
        return {"value": value}
    if t is None or t.text not in ("0", "1"):
        raise Problem(f"the flag must be 1 (set) or 0 (clear), not {t.text if t else 'nothing'}")
    return {"value": t.text == "1"}


def _text(cur: Cursor, raw: bool = False) -> str:
    """The rest as one name: quoted, or words joined by spaces (`_` read as space unless
    raw, for addresses and passwords where an underscore is a real character)."""
    toks = cur.rest()
    return " ".join((t.raw if raw and t.kind != STRING else t.text) for t in toks)


def _named(cur: Cursor, lookup, what: str) -> str:
    """The rest of the line as a catalog name (item, skill), or the player's mistake."""
    toks = cur.rest()
    if not toks:
        raise Problem(f"needs {what}")
    text = " ".join(t.text for t in toks)
    name = lookup(text)
    if name is None:
        raise Problem(f"unknown {what.split()[-1]} {text!r}")
    return name


def _item(p: Parser, cur: Cursor) -> str:
    return _named(cur, p.names.item, "an item")


def _skill(p: Parser, cur: Cursor) -> str:
    return _named(cur, p.names.skill, "a skill")


def _steps(cur: Cursor, ship: bool) -> tuple[str, ...]:
    out = []
    for t in cur.rest():
        d = o.DIRECTIONS.get(t.upper)
        if d is not None:
            out.append(d)
        elif not ship and t.upper in ("IN", "OUT"):
            out.append(t.upper)
        elif not ship and t.kind == NUMBER and int(t.text) > 0:
            out.append(str(int(t.text)))
        else:
            allowed = "N NE SE S SW NW" if ship else "N NE SE S SW NW, IN, OUT or an object number"
            raise Problem(f"bad direction {t.text!r}: use {allowed}")
    return tuple(out)


def r_move(p: Parser, cur: Cursor) -> dict:
    steps = _steps(cur, ship=False)
    if not steps:
        raise Problem("needs at least one direction (N NE SE S SW NW, IN, OUT or an object)")
    return {"steps": steps}


def r_sail(p: Parser, cur: Cursor) -> dict:
    return {"steps": _steps(cur, ship=True)}


def r_none(p: Parser, cur: Cursor) -> dict:
    return {}


def r_address(p: Parser, cur: Cursor) -> dict:
    a = _text(cur, raw=True)
    if not a:
        raise Problem("needs the new e-mail address")
    return {"address": a}


def r_target(p: Parser, cur: Cursor) -> dict:
    return {"target": _unit(cur)}


def r_attack(p: Parser, cur: Cursor) -> dict:
    return {"targets": _units(cur, "at least one unit to attack")}


def r_teach(p: Parser, cur: Cursor) -> dict:
    return {"targets": _units(cur, "at least one unit to teach")}


def r_build(p: Parser, cur: Cursor) -> dict:
    if cur.done:
        return {"object_type": ""}
    toks = cur.rest()
    text = " ".join(t.text for t in toks)
    name = p.names.object(text)
    if name is None:
        if toks[0].upper == "HELP":
            raise Problem("BUILD HELP is from later Atlantis servers; to help, ENTER the "
                          "object and BUILD")
        raise Problem(f"unknown object type {text!r}")
    return {"object_type": name}


def r_buy(p: Parser, cur: Cursor) -> dict:
    qty = _number(cur, "a number (BUY 5 men)")
    return {"quantity": qty, "item": _item(p, cur)}


def r_claim(p: Parser, cur: Cursor) -> dict:
    return {"amount": _number(cur, "an amount of silver (CLAIM 100)")}


def r_cast(p: Parser, cur: Cursor) -> dict:
    t = cur.next()
    if t is None:
        raise Problem("needs a spell")
    words = [t]
    # spell names have up to five words; take the longest that names a spell
    rest = cur.tokens[cur.i:]
    best, used = p.names.spell(t.text), 0
    for k in range(1, min(5, len(rest)) + 1):
        name = p.names.spell(" ".join(x.text for x in [t, *rest[:k]]))
        if name:
            best, used = name, k
    cur.i += used
    words += rest[:used]
    if best is None:
        skill = p.names.skill(" ".join(x.text for x in words))
        if skill:
            raise Problem(f"{skill} is not a spell")
        raise Problem(f"unknown spell {t.text!r}")
    use = _spell_use(p, best)
    if use != "cast":
        how = "is used automatically" if use == "automatic" else "is cast in battle: set it with COMBAT"
        raise Problem(f"{best} {how}", ILLEGAL)
    out: dict = {"spell": best}
    if best == "teleport":
        out["target"] = _unit(cur, "the target unit (CAST TELEPORT target UNITS unit ...)")
        u = cur.next()
        if u is None or u.upper != "UNITS":
            raise Problem("TELEPORT needs UNITS and the units to send "
                          "(CAST TELEPORT target UNITS unit ...)")
        out["units"] = _units(cur, "the units to teleport after UNITS")
    else:
        out["args"] = tuple(x.text for x in cur.rest())
    return out


def _spell_use(p: Parser, spell: str) -> str:
    return p.names.spell_use.get(spell, "")


def r_combat(p: Parser, cur: Cursor) -> dict:
    text = _text(cur)
    if not text:
        raise Problem("needs a combat spell")
    spell = p.names.spell(text)
    if spell is None:
        raise Problem(f"unknown spell {text!r}")
    if _spell_use(p, spell) != "combat":
        raise Problem(f"{spell} is not a combat spell", ILLEGAL)
    return {"spell": spell}


def _choice(cur: Cursor, choices: tuple[str, ...], what: str, empty_ok: bool = True) -> str:
    t = cur.next()
    if t is None:
        if empty_ok:
            return ""
        raise Problem(f"needs {what}: {' or '.join(c.upper() for c in choices)}")
    if t.text.casefold() not in choices:
        raise Problem(f"{t.text!r} is not {what}: {' or '.join(c.upper() for c in choices)}")
    return t.text.casefold()


def r_consume(p: Parser, cur: Cursor) -> dict:
    return {"mode": _choice(cur, ("unit", "faction"), "UNIT or FACTION")}


def r_reveal(p: Parser, cur: Cursor) -> dict:
    return {"mode": _choice(cur, ("unit", "faction"), "UNIT or FACTION")}


def r_declare(p: Parser, cur: Cursor) -> dict:
    t = cur.next()
    if t is None:
        raise Problem("needs a faction number or DEFAULT")
    if t.upper == "DEFAULT":
        att = _choice(cur, ATTITUDES, "an attitude", empty_ok=False)
        return {"default": True, "attitude": att}
    if t.kind != NUMBER or int(t.text) <= 0:
        raise Problem(f"{t.text!r} is not a faction number")
    return {"other": int(t.text), "attitude": _choice(cur, ATTITUDES, "an attitude")}


def r_describe(p: Parser, cur: Cursor) -> dict:
    what = _choice(cur, ("unit", "ship", "building"), "UNIT, SHIP or BUILDING", empty_ok=False)
    return {"target": what, "description": _text(cur)}


def r_enter(p: Parser, cur: Cursor) -> dict:
    return {"object": _number(cur, "an object number", 1)}


def r_find(p: Parser, cur: Cursor) -> dict:
    t = cur.peek()
    if t is not None and t.upper == "ALL":
        raise Problem("FIND ALL is from later Atlantis servers; give a faction number")
    return {"other": _number(cur, "a faction number", 1)}


def r_forget(p: Parser, cur: Cursor) -> dict:
    return {"skill": _skill(p, cur)}


def r_study(p: Parser, cur: Cursor) -> dict:
    return {"skill": _skill(p, cur)}


def r_form(p: Parser, cur: Cursor) -> dict:
    return {"alias": _number(cur, "an alias number (FORM 1)", 1)}


def r_give(p: Parser, cur: Cursor) -> dict:
    target = _unit(cur, "a unit (0 to discard)", zero_ok=True)
    t = cur.peek()
    if t is not None and t.upper == "UNIT":
        cur.next()
        if target.number == 0 and not target.alias:
            raise Problem("a unit cannot be given to unit 0")
        return {"target": target, "whole_unit": True}
    qty = _number(cur, "a number and an item (GIVE 4573 10 swords), or UNIT")
    return {"target": target, "quantity": qty, "item": _item(p, cur)}


def r_name(p: Parser, cur: Cursor) -> dict:
    t = cur.next()
    what = t.text.casefold() if t else ""
    if what in ("ship", "building"):
        p.notes.append(Problem(f"NAME {what.upper()} is from later servers; read as NAME "
                               "OBJECT", AMBIGUOUS, Severity.WARNING))
        what = "object"
    if what not in ("unit", "faction", "object"):
        raise Problem("needs UNIT, FACTION or OBJECT and the new name")
    name = _text(cur)
    if not name:
        raise Problem("needs the new name")
    if any(c in name for c in "()"):
        raise Problem("names may not contain parentheses (use square brackets)")
    if any(ord(c) < 32 for c in name):
        raise Problem("names may not contain control characters")
    return {"target": what, "name": name}


def r_option(p: Parser, cur: Cursor) -> dict:
    s = _choice(cur, ("times", "notimes", "template"), "TIMES, NOTIMES or TEMPLATE", empty_ok=False)
    if s != "template":
        return {"setting": s}
    v = cur.peek()
    if v is not None and v.upper == "MAP":
        raise Problem("OPTION TEMPLATE MAP is from later Atlantis servers")
    return {"setting": s, "value": _choice(cur, ("off", "short", "long"), "OFF, SHORT or LONG",
                                            empty_ok=False)}


def r_password(p: Parser, cur: Cursor) -> dict:
    return {"password": _text(cur, raw=True)}


def r_produce(p: Parser, cur: Cursor) -> dict:
    item = _item(p, cur)
    if item in ("silver", "man"):
        raise Problem(f"{item} cannot be produced", ILLEGAL)
    return {"item": item}


def r_show(p: Parser, cur: Cursor) -> dict:
    what = _choice(cur, ("skill", "item"), "SKILL or ITEM", empty_ok=False)
    if what == "item":
        return {"what": "item", "name": _item(p, cur)}
    toks = cur.rest()
    if len(toks) < 2 or toks[-1].kind != NUMBER:
        raise Problem("SHOW SKILL needs a skill and a level (SHOW SKILL Mining 3)")
    name = p.names.skill(" ".join(t.text for t in toks[:-1]))
    if name is None:
        raise Problem(f"unknown skill {' '.join(t.text for t in toks[:-1])!r}")
    level = int(toks[-1].text)
    if not 1 <= level <= 5:
        raise Problem(f"skill levels are 1 to 5, not {level}")
    return {"what": "skill", "name": name, "level": level}


def r_steal(p: Parser, cur: Cursor) -> dict:
    target = _unit(cur)
    return {"target": target, "item": _item(p, cur)}


def r_quit(p: Parser, cur: Cursor) -> dict:
    return {"password": _text(cur, raw=True)}


READERS = {
    "ADDRESS": r_address, "ADVANCE": r_move, "ASSASSINATE": r_target, "ATTACK": r_attack,
    "AUTOTAX": _flag, "AVOID": _flag, "BEHIND": _flag, "BUILD": r_build, "BUY": r_buy,
    "CAST": r_cast, "CLAIM": r_claim, "COMBAT": r_combat, "CONSUME": r_consume,
    "DECLARE": r_declare, "DESCRIBE": r_describe, "DESTROY": r_none, "ENTER": r_enter,
    "ENTERTAIN": r_none, "FIND": r_find, "FORGET": r_forget, "FORM": r_form, "GIVE": r_give,
    "GUARD": _flag, "HOLD": _flag, "LEAVE": r_none, "MOVE": r_move, "NAME": r_name,
    "NOAID": _flag, "OPTION": r_option, "PASSWORD": r_password, "PILLAGE": r_none,
    "PRODUCE": r_produce, "PROMOTE": r_target, "QUIT": r_quit, "RESTART": r_quit,
    "REVEAL": r_reveal, "SAIL": r_sail, "SHOW": r_show, "STEAL": r_steal, "STUDY": r_study,
    "TAX": r_none, "TEACH": r_teach, "WORK": r_none,
}
assert set(READERS) == set(o.BOOK_ORDERS)


def parse_orders(text: str, source: str = "", names: Names | None = None) -> OrderSheet:
    """Read an Atlantis orders text leniently; never raises."""
    return Parser(text, source, names).parse()
