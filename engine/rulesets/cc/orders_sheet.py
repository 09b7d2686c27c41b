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
Comments start with `;` (never `#`: `#3` is a convoy). Orders may be written in full, as the
book's two-letter code, or as an unambiguous abbreviation of three letters or more. The reader
never raises: whatever it cannot read becomes a diagnostic naming the line.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.orders import (
    AMBIGUOUS,
    INVALID,
    Diagnostic,
    OrderSheet,
    Severity,
    Tokenizer,
    unhide_spaces,
)
from engine.orders.tokenizer import NUMBER, STRING, Token, split_lines
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import default_catalogs

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
_STAT = re.compile(r"^\W*([A-Za-z]+)[A-Za-z ]{0,30}:(?!\S)")
_RULE = re.compile(r"^[\s_\-=*.]*$")
_HEX = re.compile(r"^\d{4}$")
_PATTERN = re.compile(r"^[\d*]{4}$")
BELOW = "below"


@lru_cache(maxsize=1)
def _book_words() -> dict[str, dict[str, str]]:
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


def _lookup(word: str, names: dict[str, str], codes: dict[str, str]) -> tuple[str | None, list[str]]:
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


def _item(word: str) -> str | None:
    w = word.upper().rstrip(".,")
    for item in o.SUPPLY_ITEMS:
        if w in (item.upper(), item.upper().rstrip("S")):
            return item
    return None


class _Args:
    """The words after an order's keyword, taken one by one with readable complaints."""

    def __init__(self, toks: list[Token], reader: Reader, lineno: int, text: str):
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
        ok = _PATTERN if pattern else _HEX
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
            self.bad(f"ignored the extra words {extra!r}", INVALID, Severity.WARNING)
            self.i = len(self.toks)


class Reader:
    def __init__(self, sheet: OrderSheet):
        self.sheet = sheet
        self.section = ""
        self.convoy = 0
        self.slot = 0
        self.used: dict[tuple[str, int], set[int]] = {}
        self.below: list[str] = []
        self.waiting: list[tuple[o.CcOrder | None, int, str, str]] = []  # SEE BELOW texts
        self.words = _book_words()

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
            return
        if self.section == BELOW and not (_PRE_HEAD.match(text) or _POST_HEAD.match(text)
                                          or _CONVOY_HEAD.match(text) or _AGENTS_HEAD.match(text)):
            m = _SLOT.match(text)
            self.below.append((m.group(2) if m else text).strip())
            return
        if self._heading(lineno, text.split(";")[0]):
            return
        toks = TOKENS.tokenize(text, lineno)
        if not toks:
            return
        first = toks[0].raw.upper().rstrip(":")
        if first in HEADER_WORDS or first in ("CC", "CONTINENTAL"):
            self._header(lineno, toks)
            return
        stat = _STAT.match(text)
        if stat and stat.group(1).upper() in STAT_WORDS:
            return  # a statistics line of the sheet (Vehicles:, Money:...)
        m = _SLOT.match(text)
        slot = int(m.group(1)) if m else self.slot + 1
        body = m.group(2) if m else text
        if not self.section:
            self.section = o.PRE
            self.say(AMBIGUOUS, "no block heading before this line: read as a pre-turn clan order",
                     lineno, text, Severity.WARNING)
        self.slot = slot
        key = (self.section, self.convoy)
        if slot in self.used.setdefault(key, set()):
            self.say(INVALID, f"line {slot} of {self._where()} is written twice; this one is ignored",
                     lineno, text)
            return
        self.used[key].add(slot)
        toks = TOKENS.tokenize(body, lineno)
        if not toks or _RULE.match(body):
            return  # a blank line of the sheet: nothing this pulse
        order = self._order(lineno, text, toks)
        if order is not None:
            order.section, order.slot, order.line, order.text = self.section, slot, lineno, text.strip()
            if isinstance(order, o.ConvoyOrder):
                order.convoy = self.convoy
            self.sheet.orders.append(order)

    def _where(self) -> str:
        return {o.PRE: "the pre-turn block", o.POST: "the post-turn block",
                o.AGENTS: "the agents block"}.get(self.section, f"convoy #{self.convoy}")

    def _heading(self, lineno: int, text: str) -> bool:
        m = _CONVOY_HEAD.match(text)
        if m and not _SLOT.match(text):
            self.section, self.convoy, self.slot = o.CONVOY, int(m.group(1)), 0
            if (self.section, self.convoy) in self.used:
                self.say(AMBIGUOUS, f"a second block for convoy #{self.convoy}: its lines continue "
                                    "the first one's", lineno, text, Severity.WARNING)
                self.slot = max(self.used[(self.section, self.convoy)], default=0)
            return True
        for pattern, section in ((_PRE_HEAD, o.PRE), (_POST_HEAD, o.POST), (_AGENTS_HEAD, o.AGENTS),
                                 (_BELOW_HEAD, BELOW)):
            if pattern.match(text):
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
        args = _Args(toks, self, lineno, text)
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
        args = _Args(toks[1:], self, lineno, text)
        if w in o.DIRECTIONS:
            args.rest()
            return o.Move(keyword="MOVE", direction=o.DIRECTIONS[w])
        if toks[0].kind == NUMBER:
            if not _HEX.match(toks[0].raw):
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
            keyword, hits = _lookup(w, self.words["convoy"], self.words["convoy_codes"])
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
                code, hits = _lookup(t.raw, self.words["experts"], {})
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
        keyword, hits = _lookup(w, self.words["clan"], self.words["clan_codes"])
        if keyword is None:
            self._unknown(lineno, text, w, hits, "clan")
            return None
        args = _Args(toks[1:], self, lineno, text)
        order = _CLAN[keyword](self, args)
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
        texts = iter([t for t in self.below if t])
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


# ---- clan order arguments ----------------------------------------------------------------------

def _vehicle(r: Reader, args: _Args) -> str | None:
    """A vehicle by id, name or plural; two words for Piper Cub."""
    t = args.peek()
    if t is None:
        return None
    nxt = args.toks[args.i + 1].raw if args.i + 1 < len(args.toks) else ""
    for words, n in (((t.text + " " + nxt).upper(), 2), (t.text.upper(), 1)):
        if words in r.words["vehicles"]:
            args.i += n
            return r.words["vehicles"][words]
    return None


def _create(r: Reader, a: _Args) -> o.CcOrder | None:
    h = a.hex("CREATE: the city's hex")
    if h is None:
        return None
    t = a.take()
    kind = o.CONVOY_TYPES.get(t.raw.upper()) if t is not None else None
    if kind is None:
        a.bad("CREATE needs a convoy type: LAND, SEA, AMPHIB, MILITARY or AIR")
        return None
    name = a.text_arg("the convoy's name", required=False) or ""
    return o.Create(hex=h, type=kind, name=name)


def _buy_sell(r: Reader, a: _Args, sell: bool) -> o.CcOrder | None:
    verb = "SELL" if sell else "BUY"
    t = a.peek()
    if sell and t is not None and t.raw.upper() == "CONVOY":
        a.take()
        n = a.convoy()
        return None if n is None else o.Sell(whole_convoy=True, convoy=n)
    q = a.number(f"{verb}: quantity")
    if q is None:
        return None
    t = a.peek()
    if t is None:
        a.bad(f"{verb} {q} what? Name a vehicle or a supply (FOOD, FUEL, PARTS, VACCINE, RIFLES...)")
        return None
    if t.raw.upper() in ("TROOP", "TROOPS"):
        a.bad("troops are enlisted (ENLIST), never bought or sold")
        return None
    item = _item(t.raw)
    if item is not None:
        a.take()
        if a.more() and a.peek().raw.startswith("#"):
            a.bad(f"{verb} of supplies takes no convoy number (they go to the stockpile)",
                  severity=Severity.WARNING)
            a.take()
        cls = o.Sell if sell else o.Buy
        return cls(quantity=q, item=item)
    vehicle = _vehicle(r, a)
    if vehicle is None:
        a.bad(f"{verb}: {t.raw!r} is neither a vehicle nor a supply of the book")
        return None
    n = a.convoy(f"{verb} {q} {vehicle}: the convoy")
    if n is None:
        return None
    cls = o.Sell if sell else o.Buy
    return cls(quantity=q, vehicle=vehicle, convoy=n)


def _assign(r: Reader, a: _Args, fortify: bool) -> o.CcOrder | None:
    h = a.hex("the city's hex")
    if h is None:
        return None
    troops = a.number("troops", required=not fortify, signed=True)
    if troops is None and not fortify:
        return None
    claymores = a.number("claymores", required=False, signed=True)
    return o.Assign(hex=h, troops=troops or 0, claymores=claymores or 0, fortify=fortify)


def _erect(r: Reader, a: _Args) -> o.CcOrder | None:
    h = a.hex("ERECT: the city's hex")
    if h is None:
        return None
    out: list[str] = []
    while a.more():
        t = a.take()
        code = r.words["buildings"].get(t.raw.upper()[:3])
        if code is None:
            a.bad(f"{t.raw!r} is no building (three letters: AIR ARM BAR BAT CHU HEL HOS IND JUN "
                  "MAR RAD REC SHE SPO STO)")
            continue
        if len(out) == 6:
            a.bad(f"at most 6 buildings an ERECT order; {t.raw} and after are ignored")
            a.i = len(a.toks)
            break
        out.append(code)
    if not out:
        a.bad("ERECT names no building")
        return None
    return o.Erect(hex=h, buildings=out)


def _defend(r: Reader, a: _Args, raise_level: bool) -> o.CcOrder | None:
    troops = None
    t = a.peek()
    # a 1-2 digit number first is troops; hexes are four digits (reading X81)
    if t is not None and t.kind == NUMBER and len(t.raw.lstrip("+-")) <= 2:
        troops = a.number("troops", signed=True)
    elif not raise_level:
        a.bad("GARRISON needs the troops first (1-2 digits; negative withdraws), then hexes")
        return None
    hexes: list[str] = []
    while a.more():
        h = a.hex("hex", pattern=True)
        if h is None:
            a.take()
            continue
        hexes.append(h)
    if not hexes:
        a.bad("no hex given (CCRR, * for any digit)")
        return None
    if len(hexes) > 6:
        a.bad(f"at most six hexes an order; {', '.join(hexes[6:])} ignored")
        hexes = hexes[:6]
    return o.Defend(troops=troops, hexes=hexes, raise_level=raise_level)


def _give(r: Reader, a: _Args) -> o.CcOrder | None:
    t = a.peek()
    if t is not None and t.raw.upper() == "ALL":
        a.take()
        e = a.take()
        if e is None or e.raw.upper() not in ("EXPERTS", "EXPERT"):
            a.bad("GIVE ALL works only as GIVE ALL EXPERTS from# to#")
            return None
        order = o.Give(all_experts=True)
    else:
        q = a.number("GIVE: quantity", required=False)
        t = a.peek()
        if t is None:
            a.bad("GIVE what? A quantity and an item, vehicle or expert, then two convoy numbers")
            return None
        order = o.Give(quantity=1 if q is None else q)
        up = t.raw.upper().rstrip(".,")
        expert = r.words["experts"].get(up)
        if up in ("TROOP", "TROOPS", "CARGO"):
            a.take()
            order.item = "troops" if up.startswith("TROOP") else "cargo"
        elif (item := _item(up)) is not None and item in ("rifles", "grenades", "rockets", "bombs"):
            a.take()
            order.item = item
        elif expert is not None:
            a.take()
            order.expert = expert
        elif up in r.words["goods"]:
            a.take()
            order.item = "cargo"
        else:
            v = _vehicle(r, a)
            if v is None:
                a.bad(f"GIVE: {t.raw!r} is no vehicle, expert, weapon, TROOPS or CARGO a convoy carries")
                return None
            order.vehicle = v
        if q is None and not order.expert:
            a.bad("GIVE needs a quantity")
            return None
    giver = a.convoy("the giving convoy")
    receiver = a.convoy("the receiving convoy") if giver is not None else None
    if giver is None or receiver is None:
        return None
    order.giver, order.receiver = giver, receiver
    return order


def _build(r: Reader, a: _Args) -> o.CcOrder | None:
    h = a.hex("BUILD: the hex")
    if h is None:
        return None
    t = a.take()
    s = r.words["custom"].get(t.raw.upper()) if t is not None else None
    if s is None:
        a.bad("BUILD needs a structure: DERRICK, FARM, SHOP, LAB, CAMP, GARRISON or REFUGE")
        return None
    return o.Build(hex=h, structure=s)


def _quantity(cls: type, what: str):
    def read(r: Reader, a: _Args) -> o.CcOrder | None:
        q = a.number(what)
        return None if q is None else cls(quantity=q)
    return read


def _vigilance(r: Reader, a: _Args) -> o.CcOrder | None:
    p = a.number("VIGILANCE: percentage (0-50)")
    if p is not None and p > 100:
        a.bad(f"VIGILANCE {p}% is more than all of a city")
        return None
    return None if p is None else o.Vigilance(percent=p)


def _clan_number(a: _Args, what: str) -> int | None:
    t = a.peek()
    raw = t.raw.lstrip("#") if t is not None else ""
    if not raw.isdigit() or len(raw) > 3:
        a.bad(f"{what}: " + ("missing" if t is None else f"{t.raw!r} is not a clan number"))
        return None
    a.take()
    return int(raw)


def _espionage(r: Reader, a: _Args) -> o.CcOrder | None:
    clan = _clan_number(a, "ESPIONAGE: the clan to spy on")
    if clan is None:
        return None
    words: list[str] = []
    while a.more():
        t = a.take()
        k = r.words["espionage"].get(t.raw.upper())
        if k is None:
            a.bad(f"{t.raw!r} is no espionage keyword (OWNER ALLIES ENEMIES INCOME HEXES CITIES CONVOYS)")
        elif k not in words:
            words.append(k)
    if not words:
        a.bad("ESPIONAGE names nothing to learn")
        return None
    return o.Espionage(clan=clan, keywords=words)


def _convert(r: Reader, a: _Args) -> o.CcOrder | None:
    n = a.convoy()
    if n is None:
        return None
    t = a.take()
    kind = o.CONVOY_TYPES.get(t.raw.upper()) if t is not None else None
    if kind is None:
        a.bad("CONVERT needs the new type: LAND, SEA, AMPHIB, MILITARY or AIR")
        return None
    return o.Convert(convoy=n, type=kind, name=a.text_arg("the new name", required=False) or "")


def _hex_order(r: Reader, a: _Args) -> o.CcOrder | None:
    h = a.hex()
    return None if h is None else o.HexOrder(hex=h)


def _lines(r: Reader, a: _Args) -> o.CcOrder | None:
    pre = a.number("ORDER: pre-turn lines")
    post = a.number("ORDER: post-turn lines", required=False) if pre is not None else None
    return None if pre is None else o.BuyLines(pre=pre, post=post or 0)


def _toward(r: Reader, a: _Args) -> o.CcOrder | None:
    t = a.peek()
    if t is not None and t.raw.upper() == "ALL":
        a.take()
        return o.Toward(all=True)
    clan = _clan_number(a, "the clan")
    return None if clan is None else o.Toward(clan=clan)


def _message(signed: bool):
    def read(r: Reader, a: _Args) -> o.CcOrder | None:
        t = a.peek()
        if t is None:
            a.bad("to whom? A clan number, a hex or ALL, then the text in quotes")
            return None
        m = o.Message(signed=signed)
        raw = t.raw.lstrip("#")
        if t.raw.upper() == "ALL":
            m.to_all = True
        elif _HEX.match(raw) and not t.raw.startswith("#"):
            m.to_hex = raw
        elif raw.isdigit() and len(raw) <= 3:
            m.to_clan = int(raw)
        else:
            a.bad(f"{t.raw!r} is neither a clan number, a hex nor ALL")
            return None
        a.take()
        text = a.text_arg("the message")
        if text is None:
            return None
        if ">" in text:
            a.bad("a message may not contain '>' (it marks signed and public messages)")
            return None
        m.message = text
        return m
    return read


def _name(r: Reader, a: _Args) -> o.CcOrder | None:
    t = a.peek()
    convoy = None
    if t is not None and t.kind != STRING and t.raw.lstrip("#").isdigit():
        convoy = a.convoy()
    name = a.text_arg("the name")
    return None if name is None else o.Name(convoy=convoy, name=name)


def _phone(r: Reader, a: _Args) -> o.CcOrder | None:
    t = a.take()
    if t is None or t.raw.upper() not in ("ON", "OFF"):
        a.bad("PHONE ON number, or PHONE OFF")
        return None
    if t.raw.upper() == "OFF":
        return o.Phone(on=False)
    number = " ".join(x.text for x in a.toks[a.i:])
    a.i = len(a.toks)
    if not any(ch.isdigit() for ch in number):
        a.bad("PHONE ON needs the number, e.g. (513)555-3902")
        return None
    return o.Phone(on=True, number=number)


def _slogan(r: Reader, a: _Args) -> o.CcOrder | None:
    text = a.text_arg("the slogan")
    return None if text is None else o.Slogan(slogan=text)


_CLAN = {
    "CREATE": _create,
    "BUY": lambda r, a: _buy_sell(r, a, False),
    "SELL": lambda r, a: _buy_sell(r, a, True),
    "ENLIST": _quantity(o.Enlist, "ENLIST: troops"),
    "TRAIN": _quantity(o.Train, "TRAIN: agents"),
    "ASSIGN": lambda r, a: _assign(r, a, False),
    "FORTIFY": lambda r, a: _assign(r, a, True),
    "ERECT": _erect,
    "DEFEND": lambda r, a: _defend(r, a, True),
    "GARRISON": lambda r, a: _defend(r, a, False),
    "GIVE": _give,
    "BUILD": _build,
    "VIGILANCE": _vigilance,
    "ESPIONAGE": _espionage,
    "CONVERT": _convert,
    "SABOTAGE": _hex_order,
    "GAMBLE": _hex_order,
    "ORDER": _lines,
    "EVENT": lambda r, a: o.Event(),
    "ALLY": _toward,
    "BAN": _toward,
    "MESSAGE": _message(False),
    "BROADCAST": _message(True),
    "NAME": _name,
    "PHONE": _phone,
    "SLOGAN": _slogan,
}


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
