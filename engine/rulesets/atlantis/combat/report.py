"""The battle as the report tells it, in the Atlantis server's layout ("Battles during
turn:"): the first line, the two sides' units, each free round and round with the men
each side lost, the rout, the total casualties with the damaged units, the spoils.

What a faction reads is cut to what it may see: a unit's faction only where the muster
says that faction identifies it (`Combatant.identified_by`; its own always), the items
others may see (not small ones such as amulets, nor silver and goods: only men, mounts,
weapons, armour and staffs), and the fighting skills (Tactics, Combat, Longbow, Crossbow,
Riding) that every soldier on the field saw in use. A successful assassination tells the
victim's side only that its man was assassinated, not by whom (Assassination).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from engine.rulesets.atlantis import events as ev
from engine.rulesets.atlantis.combat.battle import (
    ATTACKERS,
    DEFENDERS,
    BattleResult,
    Combatant,
    Note,
)

SHOWN_KINDS = ("man", "mount", "weapon", "armor", "magic")
SHOWN_SKILLS = ("tactics", "combat", "longbow", "crossbow", "riding")
SPELL_VERBS = {"dazzle": "dazzling", "cause fear": "frightening",
               "inspire courage": "inspiring"}   # the rest kill


@cache
def _book_items() -> dict[str, Mapping]:
    from engine.rulesets.atlantis.catalog import default_catalogs

    return dict(default_catalogs()["items"].by("name"))


def _things(counts: Mapping[str, int], items: Mapping[str, Mapping]) -> list[str]:
    """`12 swords [SWOR]`, `sword [SWOR]`, `876 silver [SILV]`, in catalog order."""
    order = [n for n in items if counts.get(n, 0) > 0]
    order += sorted(n for n in counts if n not in items and counts[n] > 0)
    out = []
    for name in order:
        n, row = counts[name], items.get(name, {})
        label = name if n == 1 else row.get("plural", name)
        text = label if n == 1 else f"{n} {label}"
        out.append(f"{text} [{row['code']}]" if row.get("code") else text)
    return out


def _title(c: Combatant | None, unit: int = 0) -> str:
    if c is None:
        return f"Unit ({unit})"
    return f"{c.name or 'Unit'} ({c.unit})"


GM = 0   # the game master's copy of a battle: every faction shown


def _sees_faction(c: Combatant, viewer: int) -> bool:
    return (viewer == GM or c.faction == viewer or c.identified_by is None
            or viewer in c.identified_by)


def unit_line(c: Combatant, viewer: int, items: Mapping[str, Mapping]) -> str:
    """`Name (N), Faction (F), behind, 12 men [MAN], 12 swords [SWOR], combat 2.`"""
    parts = [_title(c)]
    if _sees_faction(c, viewer):
        parts.append(f"{c.faction_name or 'Faction'} ({c.faction})")
    if c.behind:
        parts.append("behind")
    shown = {"man": c.men}
    for name, n in c.items.items():
        row = items.get(name)
        if row is not None and row["kind"] in SHOWN_KINDS and not row["small"]:
            shown[name] = n
    parts += _things(shown, items)
    parts += [f"{s} {c.levels[s]}" for s in SHOWN_SKILLS if c.levels.get(s, 0) > 0]
    return ", ".join(parts) + "."


def _told(n: Note, names: Mapping[int, Combatant]) -> str:
    who = _title(names.get(n.unit), n.unit)
    if n.kind == "free_round":
        return f"{who} gets a free round of attacks."
    if n.kind == "round":
        return f"Round {n.round}:"
    if n.kind == "losses":
        return f"{who} loses {n.count}."
    if n.kind == "routed":
        return f"{who} is routed!"
    if n.kind == "spell":
        verb = SPELL_VERBS.get(n.spell, "killing")
        return f"{who} casts {n.spell.title()}, {verb} {n.count}."
    return "The battle ends indecisively."


def battle_lines(result: BattleResult, viewer: int, *, where: str,
                 items: Mapping[str, Mapping] | None = None) -> list[str]:
    """The battle's lines for faction `viewer` (0: the GM, who sees it all): `where` is the
    region as reports name it
    ("plain (1,1) in Turia"); `items` the items catalog by name (plurals and codes;
    default: the book's). Factions are shown only to those who identify them; a
    successful assassination tells the victim's side only that its man was killed."""
    items = items if items is not None else _book_items()
    names = {c.unit: c for c in (*result.attackers, *result.defenders)}
    first = _title(result.attackers[0]) if result.attackers else "Nobody"
    target = _title(result.defenders[0]) if result.defenders else "nobody"
    if result.kind == "assassination":
        if not _told_who(result, viewer):
            return [f"{target} is assassinated in {where}!", ""]
        out = [f"{first} attempts to assassinate {target} in {where}!", ""]
    else:
        out = [f"{first} attacks {target} in {where}!", ""]
    for title, side in (("Attackers:", result.attackers), ("Defenders:", result.defenders)):
        out.append(title)
        out += [unit_line(c, viewer, items) for c in side]
        out.append("")
    log = result.log
    for i, n in enumerate(log):
        out.append(_told(n, names))
        # a round's block ends with its last "loses" line; the server leaves a blank there
        ends_block = n.kind == "losses" and (i + 1 == len(log) or log[i + 1].kind != "losses")
        if ends_block or n.kind == "indecisive":
            out.append("")
    out += _casualties(result, names, items)
    return out


def _casualties(result: BattleResult, names: Mapping[int, Combatant],
                items: Mapping[str, Mapping]) -> list[str]:
    out = ["Total Casualties:"]
    sides = [ATTACKERS, DEFENDERS]
    if result.winner == ATTACKERS:
        sides.reverse()   # the server tells the loser's first
    for side in sides:
        lead = result.leaders.get(side, 0)
        out.append(f"{_title(names.get(lead), lead)} loses {result.side_losses(side)}.")
        damaged = [str(c.unit) for c in result.side(side) if result.losses.get(c.unit)]
        if damaged:
            out.append(f"Damaged units: {', '.join(damaged)}.")
    if result.winner is not None:
        out.append("")
        things = _things(result.found, items)
        out.append(f"Spoils: {', '.join(things)}." if things else "No spoils.")
    out.append("")
    return out


def battle_events(result: BattleResult, cell: int, viewers: Iterable[int], *, where: str,
                  items: Mapping[str, Mapping] | None = None) -> list[ev.Battle]:
    """One `atlantis.battle` event per faction in `viewers` (the muster decides who hears
    of the battle: at least every faction with a unit in it), in faction order, after the
    GM's copy (faction 0, everything shown; the GM's report prints only that one)."""
    first = result.attackers[0].unit if result.attackers else 0
    target = result.defenders[0].unit if result.defenders else 0
    winner = result.winner or ""
    side = (*result.attackers, *result.defenders)
    fought = tuple(c.unit for c in side)
    # who fought only in the GM's copy (the report reads it there): a viewer's copy would
    # name an assassin its lines keep from the victim's side; `named`, the factions that
    # viewer's lines name (its bundle lists those factions, view.known_factions)
    return [ev.Battle(f, cell, result.kind, first if _told_who(result, f) else 0, target,
                      winner, tuple(battle_lines(result, f, where=where, items=items)),
                      fought if f == GM else (),
                      () if f == GM else tuple(sorted({c.faction for c in side
                                                       if _sees_faction(c, f)} - {f})))
            for f in [GM, *sorted(set(viewers) - {GM})]]


def _told_who(result: BattleResult, viewer: int) -> bool:
    """Whether `viewer` learns who attacked: not the side of a man assassinated (its
    event's `attacking_unit` would name the assassin to the JSON report and the bundle)."""
    if result.kind != "assassination" or result.winner != ATTACKERS:
        return True
    return viewer in (GM, result.attackers[0].faction if result.attackers else 0)
