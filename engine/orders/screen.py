"""Checker findings are part of the turn: what the checker refuses, the turn does not carry out.

A finding of severity ERROR means "this order (or this part of it) will not be carried out"
(`Severity`). `screen()` makes that a fact instead of a forecast: the turn runner and the
rule-case runner pass every checked sheet through it, so the turn only ever sees the orders
the checker let through, and the findings go on to the reports. Check and run cannot
disagree about an order the checker refused, whatever the ruleset.

- A finding with `line` 0 and severity ERROR refuses the whole sheet ("the orders as a whole").
- A finding with `part` 0 refuses the whole order on its line.
- A finding with `part` k > 0 refuses only part k (1-based) of a multi-part order (a King of
  Kings PLA or DEF triple); the ruleset's `without_parts(order, parts)` gives what is left.
- Warnings and infos never remove anything: the order is carried out, maybe otherwise.

Only the ruleset's `check` findings are applied, and of those not the `invalid` ones: the
reader's diagnostics (a checker may read a sheet again, say with the game's own troop
names) describe lines or pieces of lines it could not turn into orders, which never reach
the turn anyway; refusing the whole line for an unreadable piece would be wrong.

Real-time rulesets (a step is a batch of forum posts applied in time order) check each post
at its own moment inside the turn, with the same action handlers as the live checker; a
check against the state before the batch would judge later posts on a stale state, so the
runners do not screen their sheets (`screens_orders(ruleset)` says which rulesets are screened).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.orders.diagnostics import INVALID, Diagnostic, Severity
from engine.orders.sheet import Order, OrderSheet

WithoutParts = Callable[[Order, frozenset[int]], "Order | None"]


@dataclass
class Screened:
    """A sheet after screening: what the turn carries out, and what was held back."""

    sheet: OrderSheet                                   # the orders the turn receives
    refused: list[Order] = field(default_factory=list)  # whole orders not carried out
    trimmed: list[tuple[Order, frozenset[int]]] = field(default_factory=list)  # parts refused

    @property
    def refused_lines(self) -> set[int]:
        return {o.line for o in self.refused}


def refusing(findings: Iterable[Diagnostic]) -> dict[int, set[int]]:
    """line -> parts refused (0 in the set = the whole order) from the ERROR findings."""
    out: dict[int, set[int]] = {}
    for d in findings:
        if d.severity == Severity.ERROR and d.kind != INVALID:
            out.setdefault(d.line, set()).add(d.part)
    return out


def screen(sheet: OrderSheet, findings: Iterable[Diagnostic],
           without_parts: WithoutParts | None = None) -> Screened:
    """The sheet the turn may carry out, given the checker's findings for it.

    `without_parts(order, parts)` returns the order without the refused parts (None when
    nothing is left); without it, a refused part refuses the whole order."""
    refuse = refusing(findings)
    if not refuse:
        return Screened(sheet)
    if 0 in refuse:  # the sheet as a whole is refused
        return Screened(_copy(sheet, []), refused=list(sheet.orders))
    kept: list[Order] = []
    out = Screened(sheet)
    for order in sheet.orders:
        parts = refuse.get(order.line)
        if not parts:
            kept.append(order)
            continue
        if 0 in parts or without_parts is None:
            out.refused.append(order)
            continue
        rest = without_parts(order, frozenset(parts))
        if rest is None:
            out.refused.append(order)
        else:
            out.trimmed.append((order, frozenset(parts)))
            kept.append(rest)
    out.sheet = _copy(sheet, kept)
    return out


def _copy(sheet: OrderSheet, orders: list[Order]) -> OrderSheet:
    """The same sheet (header, diagnostics, source) with other orders; the original is kept."""
    return dataclasses.replace(sheet, orders=orders, diagnostics=list(sheet.diagnostics),
                               header=dict(sheet.header))


def screens_orders(ruleset: Any) -> bool:
    """Whether the runners screen this ruleset's sheets before the turn (see module doc)."""
    return str(getattr(ruleset, "turn_model", "")) != "realtime"


def screen_for(ruleset: Any, sheet: OrderSheet, findings: Iterable[Diagnostic]) -> OrderSheet:
    """`screen` with the ruleset's own `without_parts` hook; the sheet the turn receives."""
    if not screens_orders(ruleset):
        return sheet
    return screen(sheet, findings, getattr(ruleset, "without_parts", None)).sheet
