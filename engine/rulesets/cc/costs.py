"""Fixed costs and the book's small formulas: creating convoys, training agents, paving,
espionage, curing a city, fishing, conquering a hex, a city's spotting and radio ranges."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.convoy_stats import expert_pct


def convoy_cost(book: Book, convoys_held: int) -> int | None:
    """Cost of CREATE (or SPLIT) with `convoys_held` convoys now; None past the table's end."""
    return book.convoy_costs.get(convoys_held + 1)


def agent_cost(book: Book, agents_held: int) -> int:
    """The next agent: the table, then doubling on past its end."""
    n = agents_held + 1
    if n in book.agent_costs:
        return book.agent_costs[n]
    last = max(book.agent_costs)
    return book.agent_costs[last] * 2 ** (n - last)


def pave_cost(book: Book, per_factor: int, here: str, there: str) -> int:
    """PAVE: the option's price times the parts factors of both hexes' terrains."""
    return round(per_factor * (book.terrain[here]["parts_factor"] + book.terrain[there]["parts_factor"]))


def espionage_cost(book: Book, popularity: int, keywords: Iterable[str]) -> int:
    return popularity * sum(book.espionage[k.upper()]["cost"] for k in dict.fromkeys(keywords))


def cure_vaccine(book: Book, population: int, experts: Collection[str] = ()) -> int:
    """CURE: a unit per 1,000 people or part, less the Doctor's share, rounded up (X69)."""
    need = math.ceil(population / 1000)
    return math.ceil(need * (100 - expert_pct(book, "DOC", experts)) / 100)


def fish_food(book: Book, convoy_size: int, experts: Collection[str] = (), cap: int = 50) -> int:
    """FISH: the convoy's size, at most 50, plus the Gourmet's share (57; 65 with a Priest)."""
    return min(convoy_size, cap) * (100 + expert_pct(book, "GOU", experts)) // 100


def conquest_range(book: Book, level: int, guards: int, terrain: str) -> tuple[int, int]:
    """Attacking troops a hex needs: the defence level's range plus each guard's."""
    d, t = book.hex_defense[level], book.terrain[terrain]
    return d["conquer_min"] + guards * t["guard_min"], d["conquer_max"] + guards * t["guard_max"]


def spotting(book: Book, fortification: int, tower: bool = False) -> tuple[int, int, int]:
    """(range, owner named within, size shown within); size only with a Spotting Tower."""
    f = book.fortifications[fortification]
    reach = f["spotting_tower"] if tower else f["spotting"]
    return reach, reach - 2, (reach - 4 if tower else -1)


def radio_range(book: Book, fortification: int, tower: bool = False) -> int:
    f = book.fortifications[fortification]
    return f["radio_tower"] if tower else f["radio"]
