"""Checking an orders sheet against the state, without running the turn.

What can be judged from the sheet and the state alone: the account number (the password on
every orders set, `[ACCOUNTING]`), the clan and turn, order lines beyond the clan's allowance,
pulse lines beyond a convoy's 10 (12), convoys the clan does not have, hexes not on the map,
the once-a-turn and so-many-a-turn limits, lengths of names and messages, and the turn from
which ESPIONAGE and until which a clan's NAME are allowed; (check_holdings.py) the cities
and hexes clan orders need the clan to hold; and (check_strikes.py) what a BOMB or RAZE of a
convoy that has not moved yet certainly meets. Whatever depends on what happens
during the pulses (money, fuel, food, positions, troops) is the dry run's (dryrun.py): the
turn played on the clan's view with the turn's own code, over the orders the rest let through.

An ERROR finding is binding (engine/orders/screen.py): the turn will not carry the order out.
A wrong or missing account number refuses the whole sheet (line 0).
"""

from __future__ import annotations

import re
from collections import Counter

from engine.orders import AMBIGUOUS, ILLEGAL, Diagnostic, OrderSheet, Severity
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.check_holdings import check_holdings
from engine.rulesets.cc.check_strikes import check_strikes
from engine.rulesets.cc.dryrun import dry_run
from engine.rulesets.cc.sheet_stats import clan_of, convoy_sheets, next_turn, order_lines
from engine.rulesets.cc.turn.clan_orders import NOT_BUILT as NOT_BUILT_CLAN
from engine.rulesets.cc.turn.convoy_orders import NOT_BUILT as NOT_BUILT_CONVOY
from engine.scenario import Scenario
from engine.state import State


class _Findings(list):
    def __init__(self, source: str):
        super().__init__()
        self.source = source

    def add(self, message: str, order: o.CcOrder | None = None, line: int = 0,
            severity: Severity = Severity.ERROR, kind: str = ILLEGAL) -> None:
        if order is not None:
            line = order.line
        self.append(Diagnostic(kind, message, line, 0, order.text if order else "", self.source,
                               severity))


def pattern_cells(scenario: Scenario, pattern: str) -> list[int]:
    """Cells whose CCRR label fits a DEFEND/GARRISON pattern (`*` is any digit)."""
    grid = scenario.map.grid
    if "*" not in pattern:
        c = grid.parse(pattern, "ccrr")
        return [] if c is None else [c]
    rx = re.compile("^" + pattern.replace("*", r"\d") + "$")
    return [c for c in grid.cells() if rx.match(grid.label(c, "ccrr"))]


def check(sheet: OrderSheet, state: State, faction: int, scenario: Scenario) -> list[Diagnostic]:
    out = _Findings(sheet.source)
    clan = clan_of(state, faction)
    if clan is None:
        out.add(f"clan {faction} is not in this game")
        return out
    _header(out, sheet, clan, faction)
    turn = next_turn(clan)
    book, opts, grid = Book(scenario.catalogs), scenario.options, scenario.map.grid
    clans = {c.number for c in state["clans"]}
    sheets = {s.convoy.number: s for s in convoy_sheets(state, faction, scenario)}
    orders = [x for x in sheet.orders if isinstance(x, o.CcOrder)]

    def on_map(label: str, order: o.CcOrder, what: str = "hex") -> bool:
        if grid.parse(label, "ccrr") is None:
            out.add(f"{what} {label} is not on this map", order)
            return False
        return True

    # convoys that exist, and those CREATE or SPLIT may add this turn (lowest free numbers, X30)
    have = set(sheets)
    new = sum(1 for x in orders if x.keyword == "CREATE" or x.keyword == "SPLIT")
    maybe, n = set(have), 1
    while new:
        if n not in maybe:
            maybe.add(n)
            new -= 1
        n += 1
    converted = {x.convoy for x in orders if isinstance(x, o.Convert)}

    def convoy_ok(number: int | None, order: o.CcOrder) -> bool:
        if number is None or number in maybe:
            return True
        out.add(f"you have no convoy #{number}", order)
        return False

    pre, post = order_lines(scenario, clan)
    limits = {r["keyword"]: r["per_turn"] for r in scenario.catalogs["convoy_orders"]}
    per_convoy: Counter = Counter()
    fortified, defended, gambled = set(), set(), set()
    messages = to_all = bought = 0
    for x in orders:
        if x.section in (o.PRE, o.POST) and x.slot > (pre if x.section == o.PRE else post):
            allowed = pre if x.section == o.PRE else post
            out.add(f"line {x.slot} is beyond the {allowed} {x.section}-turn order lines you have "
                    "(ORDER buys more for the next turn)", x)
            continue
        needs = NOT_BUILT_CONVOY.get(x.keyword) if isinstance(x, o.ConvoyOrder) else \
            NOT_BUILT_CLAN.get(x.keyword)
        if needs:
            stops = " and stop the convoy for the turn" if isinstance(x, o.ConvoyOrder) else ""
            out.add(f"{x.keyword} needs {needs}, not built yet: the turn will refuse it{stops}", x,
                    severity=Severity.WARNING)
        if isinstance(x, o.AgentOrder):
            if x.agent > clan.agents:
                out.add(f"you have {clan.agents} agent(s); agent {x.agent} does not exist (agents "
                        "trained this turn report from the next)", x)
            else:
                on_map(x.hex, x)
            continue
        if isinstance(x, o.ConvoyOrder):
            s = sheets.get(x.convoy)
            if s is None:
                out.add(f"you have no convoy #{x.convoy}" + (" yet: a convoy created this turn "
                        "cannot move or act until the next" if x.convoy in maybe else ""), x)
                continue
            if x.slot > s.pulses:
                out.add(f"convoy #{x.convoy} has {s.pulses} pulses; line {x.slot} is one too many", x)
                continue
            if isinstance(x, o.Move) and x.hex:
                on_map(x.hex, x)
            per_convoy[(x.convoy, x.keyword)] += 1
            limit = limits.get(x.keyword, 0)
            military_hunt = x.keyword == "HUNT" and s.convoy.type == "military"
            if limit and per_convoy[(x.convoy, x.keyword)] > limit and not military_hunt:
                out.add(f"{x.keyword} only once a turn for a convoy", x)
            need = {"BOMB": "air", "FISH": "sea", "PAVE": "land"}.get(x.keyword)
            if need and s.convoy.type != need and x.convoy not in converted:
                out.add(f"{x.keyword} is for {need} convoys; #{x.convoy} is {s.convoy.type}", x)
            if x.keyword == "ABSORB":
                convoy_ok(x.amount, x)
                if x.amount == x.convoy:
                    out.add("a convoy cannot absorb itself", x)
            continue
        _clan_order(x, out, scenario, book, clan, clans, turn, on_map, convoy_ok, sheets, converted)
        if isinstance(x, o.Assign) and x.fortify:
            if x.hex in fortified:
                out.add(f"{x.hex} is already fortified on this sheet: one level a turn", x)
            fortified.add(x.hex)
        elif isinstance(x, o.Defend) and x.raise_level:
            cells = {c for h in x.hexes for c in pattern_cells(scenario, h)}
            if cells & defended:
                out.add("a hex here is already raised by an earlier DEFEND: one level a turn "
                        "(the turn skips it again)", x, severity=Severity.WARNING)
            defended |= cells
        elif x.keyword == "GAMBLE":
            if x.hex in gambled:
                out.add(f"you already gamble at {x.hex} this turn: once a casino a turn", x)
            gambled.add(x.hex)
        elif isinstance(x, o.BuyLines):
            bought += 1
            if bought > 1:
                out.add("ORDER only once a turn", x)
            elif x.pre + x.post > int(opts.extra_orders_max):
                out.add(f"ORDER buys at most {int(opts.extra_orders_max)} lines", x)
        elif isinstance(x, o.Message):
            messages += 1
            to_all += x.to_all
            if messages > int(opts.messages_per_turn):
                out.add(f"at most {int(opts.messages_per_turn)} messages a turn (BROADCAST counts)", x)
            elif x.to_all and to_all > 1:
                out.add("only one message to ALL a turn", x)
    found = (list(out) + check_holdings(orders, state, faction, scenario, book, sheet.source)
             + check_strikes(orders, state, faction, scenario, sheet.source))
    return found + dry_run(sheet, found, state, faction, scenario)  # money, fuel... by pulse


def _header(out: _Findings, sheet: OrderSheet, clan, faction: int) -> None:
    h = sheet.header
    said = h.get("account")
    if said is None:
        out.add(f"no account number: write ACCOUNT and clan {faction}'s account number at the "
                "top (it is the password on every orders set)")
    elif str(said) != clan.account:
        out.add(f"the account number on line {h.get('account_line', 0)} is not clan {faction}'s: "
                "the orders are refused")
    if "clan" in h and h["clan"] != faction:
        out.add(f"the sheet says clan {h['clan']} (line {h.get('clan_line', 0)}) but was taken "
                f"for clan {faction}")
    if "turn" in h and h["turn"] != next_turn(clan):
        out.add(f"the sheet says turn {h['turn']}; clan {faction}'s next turn is {next_turn(clan)}",
                line=h.get("turn_line", 0), severity=Severity.WARNING, kind=AMBIGUOUS)


def _clan_order(x: o.CcOrder, out: _Findings, scenario: Scenario, book: Book, clan, clans: set[int],
                turn: int, on_map, convoy_ok, sheets: dict, converted: set[int]) -> None:
    opts = scenario.options
    label = getattr(x, "hex", "")
    if label and not on_map(label, x):
        return
    if isinstance(x, o.Message) and x.to_hex and not on_map(x.to_hex, x):
        return
    if isinstance(x, o.Defend):
        for h in x.hexes:
            if "*" not in h:
                on_map(h, x)
            elif not pattern_cells(scenario, h):
                out.add(f"{h} matches no hex of this map", x, severity=Severity.WARNING)
    if isinstance(x, (o.Buy, o.Sell)) and x.vehicle:
        if x.vehicle not in book.vehicles:
            out.add(f"{x.vehicle} is not a vehicle of this game", x)
        elif convoy_ok(x.convoy, x) and x.convoy in sheets and x.convoy not in converted:
            kind = sheets[x.convoy].convoy.type
            if book.vehicles[x.vehicle]["convoy_type"] != kind:
                out.add(f"a {book.vehicles[x.vehicle]['name']} is not a {kind} convoy's vehicle", x)
    elif isinstance(x, o.Sell) and x.whole_convoy:
        convoy_ok(x.convoy, x)
    elif isinstance(x, o.Give):
        if convoy_ok(x.giver, x) and convoy_ok(x.receiver, x) and x.giver == x.receiver:
            out.add("GIVE needs two different convoys", x)
    elif isinstance(x, o.Convert):
        convoy_ok(x.convoy, x)
    elif isinstance(x, o.Name):
        if x.convoy is not None:
            convoy_ok(x.convoy, x)
        elif turn > int(opts.clan_name_until_turn):
            out.add(f"the clan's name can be changed only until turn {int(opts.clan_name_until_turn)}", x)
        if len(x.name) > int(opts.name_length):
            out.add(f"names are at most {int(opts.name_length)} characters ({len(x.name)} here)", x)
        if x.name.strip().lower().split(" ")[0] == "the":
            out.add("a name may not start with \"the\"", x)
    elif isinstance(x, o.Espionage):
        if turn < int(opts.espionage_from_turn):
            out.add(f"ESPIONAGE only from turn {int(opts.espionage_from_turn)}", x)
        elif x.clan not in clans:
            out.add(f"there is no clan {x.clan} in this game", x)
    elif isinstance(x, o.Toward) and not x.all:
        if x.clan not in clans:
            out.add(f"there is no clan {x.clan} in this game", x)
        elif x.clan == clan.number:
            out.add(f"{x.keyword} names your own clan", x)
    elif isinstance(x, o.Message):
        if x.to_clan is not None and x.to_clan not in clans:
            out.add(f"there is no clan {x.to_clan} in this game", x)
        if len(x.message) > int(opts.message_length):
            out.add(f"messages are at most {int(opts.message_length)} characters ({len(x.message)} here)", x)
    elif isinstance(x, o.Slogan) and len(x.slogan) > int(opts.slogan_length):
        out.add(f"the slogan is at most {int(opts.slogan_length)} characters ({len(x.slogan)} here)", x)
    elif isinstance(x, o.Vigilance) and x.percent > int(opts.vigilance_max):
        out.add(f"VIGILANCE is at most {int(opts.vigilance_max)}%", x)
