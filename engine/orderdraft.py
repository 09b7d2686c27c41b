"""Drafting orders in the player viewer: keywords, move lines from a path on the map, the
orders file name the GM expects, and an e-mail ready to send. No Qt here.

Rulesets may provide optional hooks (all looked up with getattr, so a ruleset without
them still works with plain defaults):

    order_keywords() -> list[str]                       words for completion and colouring
    order_paths(sheet, state, faction, scenario) -> [(line, cells)]   moves to draw
    move_order(state, faction, scenario, path[, unit]) -> str   order line(s) moving the
                                                        faction's units at path[0] (or the
                                                        one unit chosen) along path
    move_range(state, faction, scenario, cell[, unit]) -> (budget, step_cost or None)
    reach(state, faction, scenario, cell, unit=, orders=) -> {cell: cost}   rulesets whose
                                                        reach is more than one budget (cc:
                                                        moves and fuel, after the moves the
                                                        orders text already has); the origin,
                                                        where the unit's new path starts, at 0
    movers(state, faction, scenario, cell) -> [(unit, label)]   rulesets whose units move
                                                        one by one (Atlantis): the click
                                                        picks one of these first
    insert_order(text, line, unit) -> (text, line number)   where a move line goes (the
                                                        unit's own orders), else before END
    order_completions(state, faction, scenario, line_before_cursor) -> words or None
                                                        what fits where the cursor is
                                                        (skills after STUDY...)
    order_comment, order_quotes (attributes)            the editor's comment pattern and
                                                        quote characters
    orders_filename(state, faction, scenario) -> str    e.g. KoK's SP3.R14
    orders_subject(state, faction, scenario) -> str     e.g. KoK's "DEMO 14"
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from engine.ruleset import Ruleset
from engine.scenario import Scenario
from engine.state import State

GENERIC_KEYWORDS = ("move", "from", "to", "all")


def order_keywords(ruleset: Ruleset) -> list[str]:
    fn = getattr(ruleset, "order_keywords", None)
    if fn is not None:
        try:
            words = [str(w) for w in fn() if str(w).strip()]
            if words:
                return sorted(set(words), key=lambda w: (w.casefold(), w))
        except Exception:  # noqa: BLE001 (completion is a convenience)
            pass
    return list(GENERIC_KEYWORDS)


def complete_path(board: Any, path: list[int]) -> list[int]:
    """The path with gaps between non-neighbouring cells filled by shortest steps."""
    out: list[int] = []
    for c in path:
        if not out:
            out.append(c)
            continue
        if c == out[-1]:
            continue
        if board.are_neighbours(out[-1], c):
            out.append(c)
            continue
        hop = board.path(out[-1], c)
        if hop is None:
            raise ValueError(f"no way from {board.label(out[-1])} to {board.label(c)}")
        out += hop[1:]
    return out


def order_completions(ruleset: Ruleset, state: State, faction: int, scenario: Scenario,
                      line: str) -> list[str] | None:
    """The words that fit after `line` (the text before the cursor), where the ruleset can
    say (hook `order_completions`); None: its order keywords."""
    fn = getattr(ruleset, "order_completions", None)
    if fn is None:
        return None
    try:
        words = fn(state, faction, scenario, line)
    except Exception:  # noqa: BLE001 (completion is a convenience)
        return None
    return None if words is None else [str(w) for w in words]


def movers(ruleset: Ruleset, state: State, faction: int, scenario: Scenario,
           cell: int) -> list[tuple[int, str]]:
    """(unit, label) of the faction's units at a cell that move one by one (hook `movers`);
    [] for rulesets whose move orders move everything there."""
    fn = getattr(ruleset, "movers", None)
    if fn is None:
        return []
    try:
        return [(int(n), str(label)) for n, label in fn(state, faction, scenario, cell)]
    except Exception:  # noqa: BLE001
        return []


def place_order(ruleset: Ruleset, text: str, line: str, unit: int | None = None) -> tuple[str, int]:
    """`line` put into the orders where the ruleset says (hook `insert_order`: Atlantis puts
    it among the unit's orders), else before the last END; and its 1-based line number."""
    fn = getattr(ruleset, "insert_order", None)
    if fn is not None:
        return fn(text, line, unit)
    return insert_order(text, line)


def move_order(ruleset: Ruleset, state: State, faction: int, scenario: Scenario,
               path: list[int], unit: int | None = None) -> str:
    """The move order line(s) for the faction's units at path[0] (or the unit chosen)
    going along path.

    Raises ValueError with a reason in words when no order can be written.
    """
    board = scenario.map.board()
    path = complete_path(board, [int(c) for c in path])
    if len(path) < 2:
        raise ValueError("pick a destination: click the cells of the path after the start")
    fn = getattr(ruleset, "move_order", None)
    if fn is None:
        return f"move all from {board.label(path[0])} to {board.label(path[-1])}"
    text = fn(state, faction, scenario, path) if unit is None else \
        fn(state, faction, scenario, path, unit=unit)
    if not text:
        raise ValueError(f"no units of yours at {board.label(path[0])} can move")
    return text


def order_paths(ruleset: Ruleset, state: State, faction: int, scenario: Scenario,
                text: str) -> list[tuple[int, list[int]]]:
    """(line, board cells) of the moves in an orders text, where the ruleset can say
    (hook `order_paths`); [] otherwise or if anything goes wrong."""
    fn = getattr(ruleset, "order_paths", None)
    if fn is None:
        return []
    try:
        sheet = ruleset.parse_orders(text, source="")
        return [(int(line), [int(c) for c in cells])
                for line, cells in fn(sheet, state, faction, scenario) if len(cells) >= 2]
    except Exception:  # noqa: BLE001 (drawing routes is a convenience)
        return []


def orders_filename(ruleset: Ruleset, state: State, faction: int, scenario: Scenario) -> str:
    """The file name the GM expects; default `<game>-f<NN>-t<NNN>-orders.txt` for the turn
    being collected (the step after the report's)."""
    fn = getattr(ruleset, "orders_filename", None)
    if fn is not None:
        try:
            name = fn(state, faction, scenario)
            if name:
                return str(name)
        except Exception:  # noqa: BLE001
            pass
    stem = re.sub(r"[^A-Za-z0-9]+", "-", scenario.name).strip("-").lower() or "game"
    return f"{stem}-f{faction:02d}-t{state.step + 1:03d}-orders.txt"


def orders_subject(ruleset: Ruleset, state: State, faction: int, scenario: Scenario) -> str:
    fn = getattr(ruleset, "orders_subject", None)
    if fn is not None:
        try:
            s = fn(state, faction, scenario)
            if s:
                return str(s)
        except Exception:  # noqa: BLE001
            pass
    return f"{scenario.name} orders of faction {faction} for turn {state.step + 1}"


def insert_order(text: str, line: str) -> tuple[str, int]:
    """The sheet with `line` added before its last END (or at the end); and the 1-based
    number of the first inserted line."""
    lines = text.split("\n")
    end = None
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip().upper() == "END":
            end = i
            break
    new = line.rstrip("\n").split("\n")
    if end is None:
        while lines and lines[-1] == "":
            lines.pop()
        at = len(lines)
        lines += new + [""]
    else:
        at = end
        if at > 0 and lines[at - 1].strip() == "":
            at -= 1  # fill the blank line the template leaves between BEGIN and END
            lines[at:at + 1] = new
        else:
            lines[at:at] = new
    return "\n".join(lines), at + 1


def orders_email(text: str, to: str, subject: str, filename: str, sender: str = "") -> bytes:
    """An RFC 5322 message (.eml) with the orders in the body and attached as `filename`.

    Nothing about mail accounts is stored: the player sends it with their own mail program.
    """
    msg = EmailMessage()
    msg["To"] = to
    if sender:
        msg["From"] = sender
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain="realmsmith.invalid")
    msg["X-Unsent"] = "1"  # mail programs open it as a draft ready to send
    msg.set_content(text)
    msg.add_attachment(text.encode("utf-8"), maintype="text", subtype="plain", filename=filename)
    return bytes(msg)


__all__ = ["order_keywords", "order_completions", "movers", "place_order", "move_order", "order_paths", "orders_filename", "orders_subject", "insert_order",
           "orders_email", "complete_path"]
