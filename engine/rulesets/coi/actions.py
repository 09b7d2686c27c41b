"""Reading posts: actions written in plain words close to the book's.

    Harvest
    Build fort at 4,5                 (fort | port | recruitment centre)
    Recruit 2 archers at 4,5          (ships: at the shallow hex next to your port)
    Move 3 swordsmen and 1 archer from 4,5 to 5,5     (or: Move all from 4,5 to 5,5)
    Attack 5,6 from 5,5 with 2 knights and 3 archers, losses: archers first
    Declare alliance with Bob  /  Break alliance with Bob
    Offer 10 wood for 5 iron to Bob and Carol    (without "to ...": open to all)
    Accept trade 3  /  Accept Bob's offer  /  Rescind offer 3
    Split to mastahcheese: hexes 4,5 and 4,6; 3 swordsmen at 4,5; 10 wood
    Send 2 knights at 4,5 to Bob      (expeditionary force)
    Agree to end the game
    AP: 12                            (the player's own AP count, checked)

One action a line (or several on a line separated by ";"). Quoted text ([quote]...[/quote])
and BBCode tags are ignored; a line that does not start with an action word is chat
(an info diagnostic). The parser never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.orders import INVALID, Diagnostic, Order, OrderSheet, Severity, unhide_spaces
from engine.rulesets.coi.catalog import norm_name

Coord = tuple[int, int]
UnitList = list[tuple[str, int | None]]   # (unit id or "*" for every unit, count or None = all)

_COORD = r"\(?\s*(\d+)\s*[,/]\s*(\d+)\s*\)?"
QUOTE = re.compile(r"\[quote[^\]]*\].*?\[/quote\]", re.I | re.S)
_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.I)
_AP_COST = re.compile(r"\(\s*-?\d*\s*ap\s*\)", re.I)
_CLAIM = [re.compile(r"\bAP\s*(?:left|now|remaining)?\s*[:=]\s*(\d+)", re.I),
          re.compile(r"^(?:i\s+have\s+|have\s+)?(\d+)\s*AP(?:\s+(?:left|now|remaining))?\s*[.!]?$", re.I)]
_FILLER = re.compile(r"^(?:(?:\d+[.)]|[-*•>]|i(?:'ll| will| shall)?|now|then|and|also|next|finally)\s+)+",
                     re.I)
GOOD_WORDS = {"food": "food", "wood": "wood", "iron": "iron", "ore": "iron", "lumber": "wood",
              "grain": "food"}
BUILDING_WORDS = {"fort": "fort", "fortress": "fort", "port": "port", "harbour": "port",
                  "harbor": "port", "recruitment centre": "centre", "recruitment center": "centre",
                  "centre": "centre", "center": "centre", "recruitment": "centre"}
VERBS = ("harvest", "build", "recruit", "train", "move", "attack", "declare", "ally", "alliance",
         "break", "offer", "accept", "rescind", "cancel", "withdraw", "split", "send", "agree",
         "end")


@dataclass
class Harvest(Order):
    pass


@dataclass
class Build(Order):
    building: str = ""
    at: Coord = (0, 0)


@dataclass
class Recruit(Order):
    units: UnitList = field(default_factory=list)
    at: Coord = (0, 0)


@dataclass
class Move(Order):
    units: UnitList = field(default_factory=list)
    frm: Coord = (0, 0)
    to: Coord = (0, 0)
    losses: list[str] = field(default_factory=list)   # which unit deep water takes, in order


@dataclass
class Attack(Order):
    units: UnitList = field(default_factory=list)
    frm: Coord = (0, 0)
    to: Coord = (0, 0)
    losses: list[str] = field(default_factory=list)   # unit ids, the attacker's loss order


@dataclass
class DeclareAlliance(Order):
    name: str = ""


@dataclass
class BreakAlliance(Order):
    name: str = ""


@dataclass
class OfferTrade(Order):
    give: dict[str, int] = field(default_factory=dict)
    want: dict[str, int] = field(default_factory=dict)
    only_to: list[str] = field(default_factory=list)


@dataclass
class AcceptTrade(Order):
    offer: int | None = None
    name: str = ""            # "Accept Bob's offer": Bob's only open offer


@dataclass
class RescindTrade(Order):
    offer: int | None = None  # None: the player's only open offer


@dataclass
class Split(Order):
    name: str = ""
    cells: list[Coord] = field(default_factory=list)
    units: list[tuple[str, int | None, Coord]] = field(default_factory=list)
    goods: dict[str, int] = field(default_factory=dict)


@dataclass
class Expedition(Order):
    units: UnitList = field(default_factory=list)
    at: Coord = (0, 0)
    name: str = ""


@dataclass
class EndGame(Order):
    pass


ACTION_NAMES = {Harvest: "harvest", Build: "build", Recruit: "recruit", Move: "move",
                Attack: "attack", DeclareAlliance: "declare_alliance",
                BreakAlliance: "break_alliance", OfferTrade: "offer_trade",
                AcceptTrade: "accept_trade", RescindTrade: "rescind_trade", Split: "split",
                Expedition: "expedition", EndGame: "end_game"}


def action_name(order: Order) -> str:
    return ACTION_NAMES.get(type(order), type(order).__name__.lower())


class BadAction(ValueError):
    pass


def _coord(m: re.Match, i: int) -> Coord:
    return int(m.group(i)), int(m.group(i + 1))


def parse_units(text: str, names: dict[str, str]) -> UnitList:
    """'3 swordsmen and an archer', 'all knights', 'all' -> [(id, count|None)]."""
    t = text.strip().strip(".")
    if re.fullmatch(r"(?:all|every(?:thing|one)?)(?:\s+(?:units?|troops?|forces?|of them))?", t, re.I):
        return [("*", None)]
    out: UnitList = []
    for part in re.split(r"\s*(?:,|\band\b|&|\+)\s*", t, flags=re.I):
        if not part:
            continue
        m = re.fullmatch(r"(?:(\d+)\s*x?\s+|(an?|one)\s+|(all)\s+)?(.+?)", part, re.I)
        if not m:
            raise BadAction(f"cannot read units {part!r}")
        count: int | None = int(m.group(1)) if m.group(1) else 1
        if m.group(3):
            count = None
        uid = names.get(norm_name(m.group(4)))
        if uid is None:
            raise BadAction(f"unknown unit type {m.group(4)!r}")
        if count is not None and count < 1:
            raise BadAction(f"a count of {count} {m.group(4)} moves nothing")
        out.append((uid, count))
    if not out:
        raise BadAction("no units named")
    return out


def parse_goods(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in re.split(r"\s*(?:,|\band\b|&|\+)\s*", text.strip().strip("."), flags=re.I):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s+([a-z]+)", part, re.I)
        if not m:
            raise BadAction(f"cannot read resources {part!r} (write e.g. '10 wood')")
        word = m.group(2).lower()
        if word in ("ap", "aps", "action"):
            raise BadAction("action points may not be traded")
        good = GOOD_WORDS.get(word) or GOOD_WORDS.get(word.rstrip("s"))
        if good is None:
            raise BadAction(f"{m.group(2)!r} is not a resource (food, wood, iron)")
        out[good] = out.get(good, 0) + int(m.group(1))
    if not out:
        raise BadAction("no resources named")
    return out


def parse_names(text: str) -> list[str]:
    return [n.strip().strip('"') for n in re.split(r"\s*(?:,|\band\b|&)\s*", text.strip().strip("."))
            if n.strip()]


def parse_losses(text: str, names: dict[str, str]) -> list[str]:
    t = re.sub(r"\b(first|last|then|before|after)\b", ",", text, flags=re.I)
    out = []
    for part in re.split(r"\s*(?:,|\band\b|>|;)\s*", t):
        part = part.strip().strip(".")
        if not part:
            continue
        uid = names.get(norm_name(part))
        if uid is None:
            raise BadAction(f"unknown unit type {part!r} in the loss order")
        if uid not in out:
            out.append(uid)
    return out


def _loss_order(line: str, names: dict[str, str]) -> tuple[str, list[str]]:
    """The line without its `, losses: ...` part, and the loss order it gives."""
    lm = re.search(r"[,;.]?\s*\b(?:losses|loss order|lose)\b\s*[:=]?\s*(.+)$", line, re.I)
    if not lm:
        return line, []
    return line[:lm.start()], parse_losses(lm.group(1), names)


def _action(line: str, names: dict[str, str]) -> Order:
    low = line.lower()
    verb = low.split()[0]
    if verb == "harvest":
        return Harvest()
    if verb == "build":
        m = re.fullmatch(r"build\s+(?:an?\s+)?(.+?)\s+(?:at|in|on)\s+" + _COORD, line, re.I)
        if not m:
            raise BadAction("write: Build fort|port|recruitment centre at X,Y")
        b = BUILDING_WORDS.get(" ".join(m.group(1).lower().split()))
        if b is None:
            raise BadAction(f"{m.group(1)!r} is not a building (fort, port, recruitment centre)")
        return Build(building=b, at=_coord(m, 2))
    if verb in ("recruit", "train"):
        m = re.fullmatch(r"(?:recruit|train)\s+(.+?)\s+(?:at|in|on)\s+" + _COORD, line, re.I)
        if not m:
            raise BadAction("write: Recruit 2 archers at X,Y")
        units = parse_units(m.group(1), names)
        if any(u == "*" or c is None for u, c in units):
            raise BadAction("say how many units to recruit")
        return Recruit(units=units, at=_coord(m, 2))
    if verb == "move":
        # "from" may be left out: "Move 2 archers 4,5 -> 5,5"; ", losses: transport first"
        # says which unit deep water takes (as the loss order of a battle)
        line, losses = _loss_order(line, names)
        m = re.fullmatch(r"move\s+(.+?)\s+(?:from\s+)?" + _COORD + r"\s*(?:to|->|=>|into)\s*"
                         + _COORD, line.strip(), re.I)
        if not m:
            raise BadAction("write: Move 3 swordsmen from X,Y to X,Y")
        return Move(units=parse_units(m.group(1), names), frm=_coord(m, 2), to=_coord(m, 4),
                    losses=losses)
    if verb == "attack":
        line, losses = _loss_order(line, names)
        m = re.fullmatch(r"attack\s+" + _COORD + r"\s+from\s+" + _COORD + r"(?:\s+with\s+(.+?))?",
                         line.strip(), re.I)
        if m:
            units = parse_units(m.group(5), names) if m.group(5) else [("*", None)]
            return Attack(units=units, frm=_coord(m, 3), to=_coord(m, 1), losses=losses)
        m = re.fullmatch(r"attack\s+(?:with\s+(.+?)\s+)?from\s+" + _COORD + r"\s+(?:to|on|into)\s+"
                         + _COORD + r"(?:\s+with\s+(.+?))?", line.strip(), re.I)
        if m:
            text = m.group(1) or m.group(6)
            units = parse_units(text, names) if text else [("*", None)]
            return Attack(units=units, frm=_coord(m, 2), to=_coord(m, 4), losses=losses)
        raise BadAction("write: Attack X,Y from X,Y with 2 knights, losses: knights first")
    if verb in ("declare", "ally", "alliance"):
        m = re.fullmatch(r"(?:declare\s+(?:an?\s+)?alliance|ally|alliance)\s+(?:with|to)\s+(.+)",
                         line, re.I)
        if not m:
            raise BadAction("write: Declare alliance with NAME")
        return DeclareAlliance(name=parse_names(m.group(1))[0])
    if verb == "break":
        m = re.fullmatch(r"break\s+(?:the\s+|my\s+|our\s+)?alliance\s+(?:with|to)\s+(.+)", line, re.I)
        if not m:
            raise BadAction("write: Break alliance with NAME")
        return BreakAlliance(name=parse_names(m.group(1))[0])
    if verb == "offer":
        m = re.fullmatch(r"offer\s+(?:trade\s*:?\s*)?(.+?)\s+for\s+(.+?)(?:\s+(?:to|only to)\s+(.+))?",
                         line, re.I)
        if not m:
            raise BadAction("write: Offer 10 wood for 5 iron [to NAME, NAME]")
        return OfferTrade(give=parse_goods(m.group(1)), want=parse_goods(m.group(2)),
                          only_to=parse_names(m.group(3)) if m.group(3) else [])
    if verb == "accept":
        m = re.fullmatch(r"accept\s+(?:the\s+)?(?:trade|offer)?\s*(?:offer\s*)?(?:no\.?\s*)?#?(\d+)", line, re.I)
        if m:
            return AcceptTrade(offer=int(m.group(1)))
        m = re.fullmatch(r"accept\s+(.+?)(?:'s|’s|s')\s+(?:trade\s+)?(?:offer|trade)", line, re.I)
        if m:
            return AcceptTrade(name=m.group(1).strip())
        raise BadAction("write: Accept trade 3, or Accept NAME's offer")
    if verb in ("rescind", "cancel", "withdraw"):
        m = re.fullmatch(r"(?:rescind|cancel|withdraw)\s+(?:my\s+|the\s+)?(?:trade\s*)?(?:offer\s*)?"
                         r"(?:no\.?\s*)?#?(\d+)?", line, re.I)
        if not m:
            raise BadAction("write: Rescind offer 3")
        return RescindTrade(offer=int(m.group(1)) if m.group(1) else None)
    if verb == "split":
        return _split(line, names)
    if verb == "send":
        m = re.fullmatch(r"send\s+(?:an?\s+)?(?:expeditionary\s+force\s*(?:of|:)?\s*)?(.+?)\s+(?:at|from|in)\s+"
                         + _COORD + r"\s+to\s+(.+)", line, re.I)
        if not m:
            raise BadAction("write: Send 2 knights at X,Y to NAME")
        return Expedition(units=parse_units(m.group(1), names), at=_coord(m, 2),
                          name=parse_names(m.group(4))[0])
    if verb in ("agree", "end"):
        if re.fullmatch(r"(?:agree\s+to\s+)?end(?:\s+(?:of\s+)?the)?\s+game|agree\s+to\s+end(?:\s+it)?", low):
            return EndGame()
        raise BadAction("write: Agree to end the game")
    raise BadAction("not an action")


def _split(line: str, names: dict[str, str]) -> Split:
    m = re.fullmatch(r"split\s+(?:off\s+)?(?:to|with|for)?\s*(\"[^\"]+\"|\S+?)\s*[:,]?\s+(.+)", line, re.I)
    if not m:
        raise BadAction("write: Split to NAME: hexes X,Y and X,Y; 3 swordsmen at X,Y; 10 wood")
    out = Split(name=m.group(1).strip('"'))
    for part in re.split(r"\s*;\s*", m.group(2)):
        part = part.strip().strip(".")
        if not part:
            continue
        hm = re.fullmatch(r"(?:the\s+)?(?:hexes|hex|tiles|tile)\s+(.+)", part, re.I)
        if hm:
            coords = re.findall(_COORD, hm.group(1))
            if not coords:
                raise BadAction(f"no hexes in {part!r}")
            out.cells += [(int(a), int(b)) for a, b in coords]
            continue
        um = re.fullmatch(r"(.+?)\s+(?:at|in|on|from)\s+" + _COORD, part, re.I)
        if um:
            for uid, count in parse_units(um.group(1), names):
                out.units.append((uid, count, (int(um.group(2)), int(um.group(3)))))
            continue
        goods = parse_goods(part)
        for g, n in goods.items():
            out.goods[g] = out.goods.get(g, 0) + n
    if not (out.cells or out.units or out.goods):
        raise BadAction("a split names hexes, units or resources")
    return out


def clean_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    return _TAG.sub("", QUOTE.sub("", text))


def read_post(text: str, names: dict[str, str], source: str = "") -> OrderSheet:
    """The actions of one post, with a diagnostic for every line it could not use."""
    sheet = OrderSheet(source=source)
    claims: list[int] = []
    text = unhide_spaces(text or "")
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    # Line numbers refer to the post as written; quotes are blanked line by line.
    cleaned = clean_text("\n".join(raw_lines)) if "[quote" not in (text or "").lower() else None
    lines = cleaned.split("\n") if cleaned is not None else _blank_quotes(raw_lines)
    for lineno, raw in enumerate(lines, start=1):
        line = " ".join(_AP_COST.sub("", raw).split())
        if not line or line.startswith("#"):  # the orders template's notes to the player
            continue
        for rx in _CLAIM:
            cm = rx.search(line)
            if cm:
                claims.append(int(cm.group(1)))
                line = (line[:cm.start()] + line[cm.end():]).strip(" ,.;-|")
                break
        if not line:
            continue
        for seg in _segments(line):
            _read_segment(seg, lineno, raw.strip(), names, sheet)
    if claims:
        sheet.header["ap_claim"] = claims[-1]
    return sheet


def _blank_quotes(lines: list[str]) -> list[str]:
    out, depth = [], 0
    for ln in lines:
        kept = []
        for tok in re.split(r"(\[quote[^\]]*\]|\[/quote\])", ln, flags=re.I):
            if re.fullmatch(r"\[quote[^\]]*\]", tok, re.I):
                depth += 1
            elif tok.lower() == "[/quote]":
                depth = max(0, depth - 1)
            elif depth == 0:
                kept.append(tok)
        out.append(_TAG.sub("", "".join(kept)))
    return out


def _segments(line: str) -> list[str]:
    parts = [p.strip() for p in line.split(";")]
    out: list[str] = []
    for p in parts:
        first = _FILLER.sub("", p).split()[:1]
        if out and not (first and first[0].lower() in VERBS):
            out[-1] += "; " + p   # part of the previous action (split lists use ';')
        else:
            out.append(p)
    return [o for o in out if o]


def _misspelt_verb(words: list[str], names: dict[str, str]) -> str:
    """The action word a chat line probably meant ('Buidl fort at 2,7' -> 'Build'): a word
    close to one, with the rest of the line reading as that action. '' if none."""
    import difflib

    if not words:
        return ""
    first = words[0].lower().strip(":,")
    for verb in difflib.get_close_matches(first, VERBS, n=3, cutoff=0.7):
        try:
            _action(" ".join([verb, *words[1:]]), names)
        except Exception:  # noqa: BLE001 (not that action either: chat after all)
            continue
        return verb.capitalize()
    return ""


def _read_segment(seg: str, lineno: int, raw: str, names: dict[str, str], sheet: OrderSheet) -> None:
    body = _FILLER.sub("", seg).strip().rstrip(".!")
    words = body.split()
    if not words or words[0].lower().strip(":,") not in VERBS:
        meant = _misspelt_verb(words, names)
        if meant:
            sheet.add(Diagnostic(INVALID, f"{words[0]!r} is not an action word; did you mean "
                                 f"{meant!r}? (line ignored)", lineno, 0, raw,
                                 severity=Severity.WARNING))
        else:
            sheet.add(Diagnostic(INVALID, "not an action (chat), ignored", lineno, 0, raw,
                                 severity=Severity.INFO))
        return
    body = words[0].lower().strip(":,") + (" " + " ".join(words[1:]) if len(words) > 1 else "")
    try:
        order = _action(body, names)
    except BadAction as e:
        sheet.add(Diagnostic(INVALID, str(e), lineno, 0, raw))
        return
    except Exception as e:  # a parser bug must not lose the rest of the post
        sheet.add(Diagnostic(INVALID, f"cannot read this line ({type(e).__name__})", lineno, 0, raw))
        return
    order.line, order.text = lineno, seg.strip()
    sheet.orders.append(order)
