"""The battle as the report tells it (the server's "Battles during turn:" layout)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis.combat.battle import BattleResult


def battle_lines(result: BattleResult, viewer: int, *, where: str,
                 items: Mapping[str, Mapping] | None = None) -> list[str]:
    """The battle's lines for faction `viewer`: `where` is the region as reports name it
    ("plain (1,1) in Turia"); `items` the items catalog by name (plurals and codes;
    default: the book's). Factions are shown only to those who identify them; a
    successful assassination tells the victim's side only that its man was killed."""
    raise NotImplementedError("interface only; the engine follows on this branch")


def battle_events(result: BattleResult, cell: int, viewers: Iterable[int], *, where: str,
                  items: Mapping[str, Mapping] | None = None) -> list[ev.Battle]:
    """One `atlantis.battle` event per faction in `viewers` (the muster decides who hears
    of the battle: at least every faction with a unit in it)."""
    raise NotImplementedError("interface only; the engine follows on this branch")
