"""Reading a Continental Conquest orders sheet, leniently, into typed orders (orders.py).

The text form of the book's sheet (docs/continental.md, "The orders sheet"):

    CLAN 122  ACCOUNT 48213  TURN 3            header: clan, account number (password), turn
    PRE-TURN CLAN ORDERS                       block of clan orders before the convoys move
     1: BUY 500 FUEL
    ORDERS FOR LAND CONVOY #1 ... IN HEX 1525  a block per convoy; statistics lines ignored
     1: NW                                     pulse lines, 10 (12: sea convoy with Engineer)
     2:                                        blank: the convoy waits that pulse
    POST-TURN CLAN ORDERS                      clan orders after the convoys
    AGENTS                                     one line per agent: the hex it visits
     1: 0825
    BELOW                                      long texts for orders that say SEE BELOW

Numbers before a line (`3:`, `3.`, `3)`) are the slot; unnumbered lines take the next one.
An order's further words may stand on the lines below it, as the book's sheet lays them out
(`[CONVOY ORDERS]`: a parameter in the space below the order line; `[CLAN ORDERS]`: one word
a box, the name on the long line, the words that do not fit on it): a line that is no order
of its own but completes the order above is read as part of it (X220, X221).
Comments start with `;` (never `#`: `#3` is a convoy). Orders may be written in full, as the
book's two-letter code, or as an unambiguous abbreviation of three letters or more. The reader
never raises: whatever it cannot read becomes a diagnostic naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.orders import (
    AMBIGUOUS,
    INVALID,
    Diagnostic,
    OrderSheet,
    Severity,
    Tokenizer,
    unhide_spaces,
)
from engine.orders.tokenizer import NUMBER, Token, split_lines
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.clan_order_args import CLAN_ORDERS
from engine.rulesets.cc.order_words import EXTRA, HEX, Args, book_words, lookup

TOKENS = Tokenizer(comment_chars=";", underscore_space=True)
HEADER_WORDS = {"CLAN": "clan", "ACCOUNT": "account", "ACCT": "account", "ACCOUNT#": "account",
                "TURN": "turn", "GAME": "game"}
STAT_WORDS = {"VEHICLES", "TROOPS", "RIFLES", "GRENADES", "ROCKETS", "COMBAT", "STRENGTH", "MORALE",
              "TRAINING", "HEALTH", "FUEL", "KILL", "CARGO", "EXPERTS", "MONEY", "FOOD", "PARTS",
              "VACCINE", "CLAYMORES", "BOMBS", "ORDERS", "CONVOY", "CLAN", "PULSES", "LINES", "MODE",
              "SIZE", "HIDDEN", "AID", "TYPE", "HEX", "AGENTS", "NAME", "STATUS"}
_SLOT = re.compile(r"^\s*(\d{1,2})\s*[:.)]\s?(.*)$")
_CONVOY_HEAD = re.compile(r"^\W*(?:ORDERS\s+FOR\s+(?:[A-Z]+\s+)?)?CONVOY\s*#?\s*(\d+)\b(.*)$", re.I)
_PRE_HEAD = re.compile(r"^\W*PRE[\s-]*TURN\b", re.I)
_POST_HEAD = re.compile(r"^\W*POST[\s-]*TURN\b", re.I)
_AGENTS_HEAD = re.compile(r"^\W*AGENTS?\b(?!\s*#?\s*\d)", re.I)
_BELOW_HEAD = re.compile(r"^\W*(SEE\s+BELOW|BELOW|LONG\s+TEXTS?)\W*$", re.I)
_SEE_BELOW = re.compile(r"^\W*SEE\s+BELOW\W*$", re.I)
_STAT = re.compile(r"^\W*([A-Za-z]+)[A-Za-z ]{0,30}:(?!\S)")
_RULE = re.compile(r"^[\s_\-=*.]*$")
BELOW = "below"


@dataclass
class Reading:
    """An order read from some lines, with what reading it said, kept until it is known whether
    the lines below belong to it."""

    order: o.CcOrder | None
    diagnostics: list[Diagnostic]
    waiting: list
    text: str

    @property
    def clean(self) -> bool:
        """Read with no error and every word used (EXTRA: words left over)."""
        return self.order is not None and not any(
            d.severity == Severity.ERROR or d.message.startswith(EXTRA) for d in self.diagnostics)


@dataclass
class Pending:
    """The order being read: its first line and the lines below it taken so far."""

    lineno: int
    slot: int
    parts: list[tuple[int, str, list[Token]]]   # (line, text, tokens) of each line
    best: Reading                               # the reading of parts[:max(ok, 1)]
    ok: int                                     # lines whose joined reading is clean (0: none)
    numbered: list[tuple[int, int]] = field(default_factory=list)  # (line, slot) taken as words


class Reader:
    def __init__(self, sheet: OrderSheet):
        self.sheet = sheet
        self.section = ""
        self.convoy = 0
        self.slot = 0
        self.used: dict[tuple[str, int], set[int]] = {}
        self.below: list[str] = []
        self.below_lines: list[int] = []
        self.waiting: list[tuple[o.CcOrder | None, int, str, str]] = []  # SEE BELOW texts
        self.words = book_words()
        self.pending: Pending | None = None
        self._alone: Reading | None = None
        self._alone_line = 0

    # ---- diagnostics ------------------------------------------------------------------------

    def say(self, kind: str, message: str, line: int, text: str = "",
            severity: Severity = Severity.ERROR) -> None:
        self.sheet.add(Diagnostic(kind, message, line, 0, text.strip(), severity=severity))

    def see_below(self, line: int, text: str) -> str:
        self.waiting.append((None, line, text, ""))
        return ""  # filled in by finish()

    # ---- lines ----------------------------------------------------------------------------------

    def line(self, lineno: int, raw: str) -> None:
        text = unhide_spaces(raw).rstrip()
        if _RULE.match(text):
            self.flush()  # a blank line ends the order above
            return
        if self.section == BELOW and not (_PRE_HEAD.match(text) or _POST_HEAD.match(text)
                                          or _CONVOY_HEAD.match(text) or _AGENTS_HEAD.match(text)):
            m = _SLOT.match(text)
            self.below.append((m.group(2) if m else text).strip())
            self.below_lines.append(lineno)
            return
        if self._heading(lineno, text.split(";")[0]):
            return
        toks = TOKENS.tokenize(text, lineno)
        if not toks:
            return  # a comment line: the order above may go on below it
        first = toks[0].raw.upper().rstrip(":")
        if first in HEADER_WORDS or first in ("CC", "CONTINENTAL"):
            self.flush()
            self._header(lineno, toks)
            return
        stat = _STAT.match(text)
        if stat and stat.group(1).upper() in STAT_WORDS:
            self.flush()
            return  # a statistics line of the sheet (Vehicles:, Money:...)
        m = _SLOT.match(text)
        body = m.group(2) if m else text
        if not self.section:
            self.section = o.PRE
            self.say(AMBIGUOUS, "no block heading before this line: read as a pre-turn clan order",
                     lineno, text, Severity.WARNING)
        btoks = TOKENS.tokenize(body, lineno)
        if not btoks or _RULE.match(body):
            self.flush()
            if m:
                self._take_slot(int(m.group(1)), lineno, text)  # a blank line of the sheet
            return
        if self.section == o.AGENTS:  # one hex a line: nothing goes on below
            self.flush()
            slot = self._take_slot(int(m.group(1)) if m else self.slot + 1, lineno, text)
            if slot is not None:
                self._commit(self._read(lineno, text, btoks), slot, lineno)
            return
        if self.pending is not None and self._goes_on(lineno, text, body, btoks, m is not None):
            return
        self.flush()
        slot = self._take_slot(int(m.group(1)) if m else self.slot + 1, lineno, text)
        if slot is None:
            return
        alone = self._alone if self._alone is not None and self._alone_line == lineno else \
            self._read(lineno, text, btoks)
        self.pending = Pending(lineno, slot, [(lineno, text, btoks)], alone, 1 if alone.clean else 0)

    def _incomplete(self) -> bool:
        p = self.pending
        return p is not None and p.ok < len(p.parts)

    def _take_slot(self, slot: int, lineno: int, text: str) -> int | None:
        """The slot a line fills, or None (and a diagnostic) if it was filled already."""
        self.slot = slot
        key = (self.section, self.convoy)
        if slot in self.used.setdefault(key, set()):
            self.say(INVALID, f"line {slot} of {self._where()} is written twice; this one is ignored",
                     lineno, text)
            return None
        self.used[key].add(slot)
        return slot

    def _read(self, lineno: int, text: str, toks: list[Token]) -> Reading:
        """One reading of an order, its diagnostics and SEE BELOW texts kept aside."""
        sheet, waiting = self.sheet, self.waiting
        self.sheet, self.waiting = OrderSheet(source=sheet.source), []
        try:
            order = self._order(lineno, text, toks)
            return Reading(order, self.sheet.diagnostics, self.waiting, text)
        finally:
            self.sheet, self.waiting = sheet, waiting

    def _joined(self, parts: list[tuple[int, str, list[Token]]]) -> Reading:
        lineno, first, _ = parts[0]
        text = " ".join([first.strip(), *(t.strip() for _n, t, _k in parts[1:])])
        return self._read(lineno, text, [t for _n, _t, toks in parts for t in toks])

    def _goes_on(self, lineno: int, text: str, body: str, toks: list[Token], numbered: bool) -> bool:
        """Whether a line holds more words of the pending order (X220, X221): it is no order of
        its own and completes the one above (a numbered line only so: the book's space below an
        order line), or the order above is not complete yet and an unnumbered line goes on."""
        p = self.pending
        part = (lineno, body, toks)
        joined = self._joined([*p.parts, part])
        alone = self._read(lineno, text, toks)
        self._alone, self._alone_line = alone, lineno  # kept for the line's own order, if it is one
        if p.ok == len(p.parts):  # complete so far: only a line that is no order goes on
            if not joined.clean:
                return False
            if alone.clean:
                self.say(AMBIGUOUS, f"{body.strip()!r} could be more words of the order on line "
                                    f"{p.lineno}; read as an order of its own", lineno, text,
                         Severity.WARNING)
                return False
        elif not joined.clean and (numbered or alone.clean):
            return False
        if numbered:
            slot = int(_SLOT.match(text).group(1))
            if self._take_slot(slot, lineno, text) is None:
                return True
            p.numbered.append((lineno, slot))
        p.parts.append(part)
        if joined.clean:
            p.best, p.ok = joined, len(p.parts)
        return True

    def flush(self) -> None:
        """The pending order into the sheet: read with the lines below it if they complete it,
        else each line on its own (the unnumbered ones taking the next slots)."""
        p, self.pending = self.pending, None
        if p is None:
            return
        self._commit(p.best, p.slot, p.lineno)  # the first line alone, when nothing completed it
        if p.ok:
            for n, slot in p.numbered:
                self.say(AMBIGUOUS, f"read as more words of the order on line {p.lineno} (written "
                                    f"below it); line {slot} of {self._where()} stays empty", n,
                         next(t for k, t, _ in p.parts if k == n), Severity.WARNING)
        self.slot = max([p.slot, *(slot for _n, slot in p.numbered)])
        for lineno, text, toks in p.parts[max(p.ok, 1):]:
            slot = self._take_slot(self.slot + 1, lineno, text)
            if slot is not None:
                self._commit(self._read(lineno, text, toks), slot, lineno)

    def _commit(self, r: Reading, slot: int, lineno: int) -> None:
        for d in r.diagnostics:
            self.sheet.add(d)
        self.waiting += r.waiting
        order = r.order
        if order is None:
            return
        order.section, order.slot, order.line, order.text = self.section, slot, lineno, r.text.strip()
        if isinstance(order, o.ConvoyOrder):
            order.convoy = self.convoy
        self.sheet.orders.append(order)

    def _where(self) -> str:
        return {o.PRE: "the pre-turn block", o.POST: "the post-turn block",
                o.AGENTS: "the agents block"}.get(self.section, f"convoy #{self.convoy}")

    def _heading(self, lineno: int, text: str) -> bool:
        m = _CONVOY_HEAD.match(text)
        if m and not _SLOT.match(text):
            self.flush()
            self.section, self.convoy, self.slot = o.CONVOY, int(m.group(1)), 0
            if (self.section, self.convoy) in self.used:
                self.say(AMBIGUOUS, f"a second block for convoy #{self.convoy}: its lines continue "
                                    "the first one's", lineno, text, Severity.WARNING)
                self.slot = max(self.used[(self.section, self.convoy)], default=0)
            return True
        for pattern, section in ((_PRE_HEAD, o.PRE), (_POST_HEAD, o.POST), (_AGENTS_HEAD, o.AGENTS),
                                 (_BELOW_HEAD, BELOW)):
            if pattern.match(text):
                if section == BELOW and _SEE_BELOW.match(text) and self._incomplete():
                    return False  # the pending order's text goes under BELOW (its word below it)
                self.flush()
                self.section, self.convoy, self.slot = section, 0, 0
                return True
        return False

    def _header(self, lineno: int, toks: list[Token]) -> None:
        h = self.sheet.header
        i = 0
        while i < len(toks):
            w = toks[i].raw.upper().rstrip(":")
            key = HEADER_WORDS.get(w)
            if key and i + 1 < len(toks):
                val = toks[i + 1].raw.lstrip("#")
                if key in ("clan", "turn"):
                    if val.isdigit():
                        h[key] = int(val)
                        h[f"{key}_line"] = lineno
                    else:
                        self.say(INVALID, f"{w.lower()} {val!r} is not a number", lineno, toks[0].raw)
                else:  # GAME My_Game: `_` stands for a space, as the template writes it
                    h[key] = toks[i + 1].text if key == "game" else val
                    h[f"{key}_line"] = lineno
                i += 2
                continue
            i += 1

    # ---- orders -------------------------------------------------------------------------------

    def _order(self, lineno: int, text: str, toks: list[Token]) -> o.CcOrder | None:
        if self.section == o.AGENTS:
            return self._agent(lineno, text, toks)
        if self.section == o.CONVOY:
            return self._convoy_order(lineno, text, toks)
        return self._clan_order(lineno, text, toks)

    def _agent(self, lineno: int, text: str, toks: list[Token]) -> o.CcOrder | None:
        args = Args(toks, self, lineno, text)
        if toks[0].raw.upper() == "AGENT":
            args.take()
            n = args.number("agent number")
            if n is None:
                return None
            self.slot = n
        h = args.hex("the agent's hex")
        if h is None:
            return None
        args.rest()
        return o.AgentOrder(keyword="AGENT", agent=self.slot, hex=h)

    def _convoy_order(self, lineno: int, text: str, toks: list[Token]) -> o.CcOrder | None:
        w = toks[0].raw.upper().rstrip(".,")
        args = Args(toks[1:], self, lineno, text)
        if w in o.DIRECTIONS:
            args.rest()
            return o.Move(keyword="MOVE", direction=o.DIRECTIONS[w])
        if toks[0].kind == NUMBER:
            if not HEX.match(toks[0].raw):
                self.say(INVALID, f"{toks[0].raw!r} is not a hex to move to (four digits, e.g. 0825)",
                         lineno, text)
                return None
            args.rest()
            return o.Move(keyword="MOVE", hex=toks[0].raw)
        if w in ("KILL", "KILLMODE"):
            if w == "KILL" and args.peek() is not None and args.peek().raw.upper() == "MODE":
                args.take()
            keyword, hits = "KILL MODE", ["KILL MODE"]
        elif w == "SPY":
            keyword, hits = "PLANT", ["PLANT"]  # the book prints PLANT's format as SPY (X73)
        else:
            keyword, hits = lookup(w, self.words["convoy"], self.words["convoy_codes"])
        if keyword == "MOVE":
            self.say(INVALID, "to move, write a direction (N NE SE S SW NW) or the hex number",
                     lineno, text)
            return None
        if keyword is None:
            self._unknown(lineno, text, w, hits, "convoy")
            return None
        order = o.ConvoyOrder(keyword=keyword)
        if keyword == "ATTACK":
            order.amount = args.number("troops to attack with", required=False)
        elif keyword == "ABSORB":
            order.amount = args.convoy("the convoy to absorb")
            if order.amount is None:
                return None
        elif keyword == "BOMB":
            t = args.peek()
            if t is not None:
                target = o.BOMB_TARGETS.get(t.raw.upper())
                if target is None:
                    args.bad(f"bomb target {t.raw!r} is none of B, P, T, S (BUILDINGS, POPULATION, "
                             "TROOPS, SCOURGE)")
                    return None
                args.take()
                order.word = target
        elif keyword == "HIRE":
            t = args.peek()
            if t is not None:
                code, hits = lookup(t.raw, self.words["experts"], {})
                if code is None:
                    args.bad(f"expert {t.raw!r} is " + (f"ambiguous ({', '.join(hits)})" if hits
                                                        else "no expert of the book"))
                    return None
                args.take()
                order.word = code
        elif keyword == "AID":
            t = args.take()
            if t is None or t.raw.upper() not in ("ON", "OFF"):
                args.bad("AID needs ON or OFF")
                return None
            order.word = t.raw.upper()
        elif keyword == "KILL MODE":
            t = args.take()
            if t is None or t.raw.upper()[:1] not in ("N", "V", "T"):
                args.bad("KILL MODE needs N (normal), V (vehicles) or T (troops)")
                return None
            order.word = t.raw.upper()[:1]
        elif keyword == "PAVE":
            t = args.take()
            d = o.DIRECTIONS.get(t.raw.upper()) if t is not None else None
            if d is None:
                args.bad("PAVE needs a direction: N, NE, SE, S, SW or NW")
                return None
            order.word = d
        args.rest()
        return order

    def _unknown(self, lineno: int, text: str, word: str, hits: list[str], block: str) -> None:
        if hits:
            self.say(AMBIGUOUS, f"{word!r} could be {', '.join(hits)}: write more letters",
                     lineno, text)
            return
        other = "clan" if block == "convoy" else "convoy"
        names = self.words[other]
        codes = self.words[f"{other}_codes"]
        if word in names or word in codes or word in o.DIRECTIONS:
            where = ("a pre- or post-turn clan block" if other == "clan" else "a convoy's pulse line")
            self.say(INVALID, f"{word} is a {other} order: write it in {where}", lineno, text)
            return
        self.say(INVALID, f"unknown {block} order {word!r}", lineno, text)

    def _clan_order(self, lineno: int, text: str, toks: list[Token]) -> o.CcOrder | None:
        w = toks[0].raw.upper().rstrip(".,")
        keyword, hits = lookup(w, self.words["clan"], self.words["clan_codes"])
        if keyword is None:
            self._unknown(lineno, text, w, hits, "clan")
            return None
        args = Args(toks[1:], self, lineno, text)
        order = CLAN_ORDERS[keyword](self, args)
        if order is None:
            return None
        order.keyword = keyword
        args.rest()
        for k, (pending, line, t, _) in enumerate(self.waiting):
            if pending is None and line == lineno:
                self.waiting[k] = (order, line, t, "")
        return order

    def finish(self) -> None:
        """Give each order that said SEE BELOW the next text of the BELOW block."""
        self.flush()
        given = [(t, n) for t, n in zip(self.below, self.below_lines, strict=True) if t]
        texts = iter(t for t, _n in given)
        asked = sum(1 for order, *_ in self.waiting if order is not None)
        for t, n in given[asked:]:  # an order written under BELOW is a text nobody asked for
            self.say(INVALID, "text under BELOW that no order asks for (write SEE BELOW in the "
                              "order it belongs to; orders go above BELOW)", n, t, Severity.WARNING)
        for order, line, text, _ in self.waiting:
            if order is None:
                continue
            value = next(texts, None)
            if value is None:
                self.say(INVALID, "SEE BELOW, but the BELOW block has no text left for this order",
                         line, text)
                self.sheet.orders.remove(order)
                continue
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            if isinstance(order, o.Message) and ">" in value:
                self.say(INVALID, "a message may not contain '>' (it marks signed and public "
                                  "messages)", line, text)
                self.sheet.orders.remove(order)
                continue
            for attr in ("message", "slogan", "name"):
                if hasattr(order, attr):
                    setattr(order, attr, value)
                    break


def parse(text: str, source: str = "") -> OrderSheet:
    """The orders of one sheet, with a diagnostic for every line it could not read."""
    sheet = OrderSheet(source=source)
    reader = Reader(sheet)
    try:
        for lineno, line in split_lines(text or ""):
            try:
                reader.line(lineno, line)
            except Exception as e:  # a reader bug must not lose the rest of the sheet
                reader.say(INVALID, f"could not read this line ({type(e).__name__}); please report it",
                           lineno, line)
        reader.finish()
    except Exception as e:
        reader.say(INVALID, f"could not finish reading the sheet ({type(e).__name__}); please report it", 0)
    return sheet
