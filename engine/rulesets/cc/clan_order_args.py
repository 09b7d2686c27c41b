"""The arguments of the 26 Continental Conquest clan orders, read from a sheet line's words.

One reader per order, in the book's `[CLAN ORDERS]` formats; `CLAN_ORDERS` maps each keyword to
its reader. A reader returns the typed order (orders.py) or None after saying what is wrong.
"""

from __future__ import annotations

from engine.orders import Severity
from engine.orders.tokenizer import NUMBER, STRING
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.order_words import HEX, Args, ReaderLike, item_of


def _vehicle(r: ReaderLike, args: Args) -> str | None:
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


def _create(r: ReaderLike, a: Args) -> o.CcOrder | None:
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


def _buy_sell(r: ReaderLike, a: Args, sell: bool) -> o.CcOrder | None:
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
    item = item_of(t.raw)
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


def _assign(r: ReaderLike, a: Args, fortify: bool) -> o.CcOrder | None:
    h = a.hex("the city's hex")
    if h is None:
        return None
    troops = a.number("troops", required=not fortify, signed=True)
    if troops is None and not fortify:
        return None
    claymores = a.number("claymores", required=False, signed=True)
    return o.Assign(hex=h, troops=troops or 0, claymores=claymores or 0, fortify=fortify)


def _erect(r: ReaderLike, a: Args) -> o.CcOrder | None:
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


def _defend(r: ReaderLike, a: Args, raise_level: bool) -> o.CcOrder | None:
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


def _give(r: ReaderLike, a: Args) -> o.CcOrder | None:
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
        elif (item := item_of(up)) is not None and item in ("rifles", "grenades", "rockets", "bombs"):
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


def _build(r: ReaderLike, a: Args) -> o.CcOrder | None:
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
    def read(r: ReaderLike, a: Args) -> o.CcOrder | None:
        q = a.number(what)
        return None if q is None else cls(quantity=q)
    return read


def _vigilance(r: ReaderLike, a: Args) -> o.CcOrder | None:
    p = a.number("VIGILANCE: percentage (0-50)")
    if p is not None and p > 100:
        a.bad(f"VIGILANCE {p}% is more than all of a city")
        return None
    return None if p is None else o.Vigilance(percent=p)


def _clan_number(a: Args, what: str) -> int | None:
    t = a.peek()
    raw = t.raw.lstrip("#") if t is not None else ""
    if not raw.isdigit() or len(raw) > 3:
        a.bad(f"{what}: " + ("missing" if t is None else f"{t.raw!r} is not a clan number"))
        return None
    a.take()
    return int(raw)


def _espionage(r: ReaderLike, a: Args) -> o.CcOrder | None:
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


def _convert(r: ReaderLike, a: Args) -> o.CcOrder | None:
    n = a.convoy()
    if n is None:
        return None
    t = a.take()
    kind = o.CONVOY_TYPES.get(t.raw.upper()) if t is not None else None
    if kind is None:
        a.bad("CONVERT needs the new type: LAND, SEA, AMPHIB, MILITARY or AIR")
        return None
    return o.Convert(convoy=n, type=kind, name=a.text_arg("the new name", required=False) or "")


def _hex_order(r: ReaderLike, a: Args) -> o.CcOrder | None:
    h = a.hex()
    return None if h is None else o.HexOrder(hex=h)


def _lines(r: ReaderLike, a: Args) -> o.CcOrder | None:
    pre = a.number("ORDER: pre-turn lines")
    post = a.number("ORDER: post-turn lines", required=False) if pre is not None else None
    return None if pre is None else o.BuyLines(pre=pre, post=post or 0)


def _toward(r: ReaderLike, a: Args) -> o.CcOrder | None:
    t = a.peek()
    if t is not None and t.raw.upper() == "ALL":
        a.take()
        return o.Toward(all=True)
    clan = _clan_number(a, "the clan")
    return None if clan is None else o.Toward(clan=clan)


def _message(signed: bool):
    def read(r: ReaderLike, a: Args) -> o.CcOrder | None:
        t = a.peek()
        if t is None:
            a.bad("to whom? A clan number, a hex or ALL, then the text in quotes")
            return None
        m = o.Message(signed=signed)
        raw = t.raw.lstrip("#")
        if t.raw.upper() == "ALL":
            m.to_all = True
        elif HEX.match(raw) and not t.raw.startswith("#"):
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


def _name(r: ReaderLike, a: Args) -> o.CcOrder | None:
    t = a.peek()
    convoy = None
    if t is not None and t.kind != STRING and t.raw.lstrip("#").isdigit():
        convoy = a.convoy()
    name = a.text_arg("the name")
    return None if name is None else o.Name(convoy=convoy, name=name)


def _phone(r: ReaderLike, a: Args) -> o.CcOrder | None:
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


def _slogan(r: ReaderLike, a: Args) -> o.CcOrder | None:
    text = a.text_arg("the slogan")
    return None if text is None else o.Slogan(slogan=text)


CLAN_ORDERS = {
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
