"""ARTNES state tables. Nations are numbered from 1; owner 0 means a neutral realm.

Realms and seas are named by the map's area names (the canonical spelling), so the
database rows read like the map update.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Realm:
    """A realm that is owned or fortified; realms without a row are neutral and bare."""

    realm: str
    owner: int = 0
    castle: bool = False


@dataclass
class Unit:
    """`count` units of one kind (knight, spearman, galley) of one nation in one place."""

    nation: int
    kind: str
    location: str
    count: int = 1


@dataclass
class Nation:
    nation: int
    name: str = ""
    gold: int = 0           # treasury: balance plus this turn's salary
    salary: int = 0         # gold received at the end of the last turn
    population: int = 0     # population points at the end of the last turn


@dataclass
class War:
    """Nations `nation` < `other` are at war."""

    nation: int
    other: int


SCHEMA: dict[str, type] = {"nations": Nation, "realms": Realm, "units": Unit, "wars": War}
