"""[HIDING]: what a convoy chased into hiding may not do, and how it comes out.

A convoy hides when it loses (or flees) a convoy battle; new convoys start hidden. Hidden,
it may not attack cities, capture or loot hexes, celebrate, practise, patrol, pick up or drop
off cargo (and, X87, fish, hire, bomb or scan) - the convoy orders catalog's
`allowed_hidden` column says which, so a GM's house rules live in one place. It can still
guard a city. Enemies attack it only with HUNT. Leaving the hex or a PAUSE brings it out
(the PAUSE re-enters the hex, so its fights may send it straight back). There is no HIDE
order: nobody hides on purpose.
"""

from __future__ import annotations

from engine.rulesets.cc.catalog import Book

NEW_CONVOYS_HIDDEN = True
UNHIDING_ORDERS = frozenset({"MOVE", "PAUSE"})


def hidden_may(book: Book, keyword: str) -> bool:
    """May a hidden convoy carry out this convoy order? (Unknown orders: no.)"""
    row = book.convoy_orders.get(keyword.upper())
    return bool(row and row["allowed_hidden"])


def hidden_refusal(book: Book, keyword: str, hidden: bool) -> str:
    """The reason a convoy's order is refused for hiding ("" = not refused)."""
    if hidden and not hidden_may(book, keyword):
        return f"{keyword.upper()} cannot be done in hiding (PAUSE or move out first)"
    return ""


def may_attack_convoy(target_hidden: bool, hunting: bool) -> bool:
    """Hidden convoys are attacked only by a convoy using HUNT in their hex."""
    return hunting or not target_hidden


def hidden_after(keyword: str, hidden: bool) -> bool:
    """Hidden state once the order starts: moving out of the hex or a PAUSE un-hides."""
    return False if keyword.upper() in UNHIDING_ORDERS else hidden


def is_order(book: Book, keyword: str) -> bool:
    """Whether the convoy orders know the word (HIDE is not one: the book says so)."""
    return keyword.upper() in book.convoy_orders
