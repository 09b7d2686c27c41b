"""Stealth and Observation: which units, and whose factions, a faction sees in a region.

The book's rule (Stealth and Observation): a unit is seen by a faction that has a unit in
the same region whose Observation is at least the unit's Stealth; its faction is named
only when that Observation is higher. Units on guard, inside a building or aboard a ship
(and units in a battle) are seen whatever their Stealth, but naming their faction still
needs the higher Observation. REVEAL UNIT shows a unit to everyone, REVEAL FACTION its
faction too.

Effective levels (readings, docs/atlantis.md): Stealth = Stealth skill level + the
Invisibility level of a mage who knows it + 3 for a one-man unit carrying an Amulet of
Invisibility; Observation = Observation level + True Seeing level + 3 with an Amulet of
True Seeing. Pure functions over plain numbers, so the report, STEAL and ASSASSINATE and
combat can share them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

AMULET_BONUS = 3


def stealth(levels: Mapping[str, int], items: Mapping[str, int], men: int) -> int:
    """A unit's effective Stealth from its skill levels ({skill: level}) and items."""
    bonus = AMULET_BONUS if men == 1 and items.get("amulet of invisibility", 0) > 0 else 0
    return levels.get("stealth", 0) + levels.get("invisibility", 0) + bonus


def observation(levels: Mapping[str, int], items: Mapping[str, int]) -> int:
    """A unit's effective Observation from its skill levels and items."""
    bonus = AMULET_BONUS if items.get("amulet of true seeing", 0) > 0 else 0
    return levels.get("observation", 0) + levels.get("true seeing", 0) + bonus


@dataclass(frozen=True)
class Sighting:
    seen: bool            # the unit appears on the observer's report
    faction_seen: bool    # ... with its faction named


NOT_SEEN = Sighting(False, False)


def sighting(best_observation: int | None, unit_stealth: int, *, guarding: bool = False,
             inside: bool = False, in_battle: bool = False, reveal: str = "") -> Sighting:
    """What a faction whose best Observation in the region is `best_observation` (None: it
    has no unit there) learns of a unit of another faction there."""
    if best_observation is None:
        return NOT_SEEN  # nobody there to look: only regions with own units are reported
    by_skill = best_observation >= unit_stealth
    seen = by_skill or guarding or inside or in_battle or reveal in ("unit", "faction")
    named = best_observation > unit_stealth or reveal == "faction"
    return Sighting(seen, seen and named)


def unseen(ref: object) -> str:
    """The one answer about a unit named in an order that the faction cannot see where the
    order acts: the same whether the unit does not exist, stands elsewhere or is hidden, so
    no message is a probe for hidden units (turn refusals and the checker alike)."""
    return f"unit {ref} is not here (or you cannot see it)"


def unseen_note(ref: object, where: str | None, here: str, stealth: int = 0,
                observation: int | None = None) -> str:
    """The GM's copy of `unseen`: why the faction does not see unit `ref` - there is no such
    unit (`where` None), it stands elsewhere (`where`, not `here`), or it is hidden by
    stealth in the region. For the GM only (the event's `gm_reason`, the diagnostic's
    `gm_note`): to a player it is the very probe `unseen` does not answer."""
    if where is None:
        return f"no unit {ref} is in the game"
    if where != here:
        return f"unit {ref} is in {where}, not in {here}"
    best = ("the faction has no unit there that sees" if observation is None
            else f"the faction's best Observation there is {observation}")
    return f"unit {ref} is in {here}, hidden by stealth: its Stealth is {stealth}, {best}"


def best_observations(observers: Iterable[tuple[int, int, int]]) -> dict[tuple[int, int], int]:
    """{(faction, cell): best Observation} from (faction, cell, observation) of every unit."""
    best: dict[tuple[int, int], int] = {}
    for faction, cell, obs in observers:
        key = (faction, cell)
        if obs > best.get(key, -1):
            best[key] = obs
    return best
