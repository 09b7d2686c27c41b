"""Skill, item and object reports ("lore", as the Atlantis server calls them).

A faction gets a skill report the first time one of its units reaches a level
(Skill Reports; the `known_skills` table says what it has had), and again for SHOW SKILL;
SHOW ITEM gives an item's facts. The texts are written here from the catalogs, in our own
words: the book gives no skill descriptions beyond its tables.

`ShowSkill`/`ShowItem`/`ShowObject` are the typed events the turn emits for SHOW orders;
the report turns them into these sections.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event
from engine.rulesets.atlantis.events import _Own
from engine.rulesets.atlantis.sight import AMULET_BONUS
from engine.tables import Catalog


@dataclass(frozen=True)
class ShowSkill(_Own, Event):
    kind = "atlantis_show_skill"
    faction: int
    skill: str
    level: int


@dataclass(frozen=True)
class ShowItem(_Own, Event):
    kind = "atlantis_show_item"
    faction: int
    item: str


@dataclass(frozen=True)
class ShowObject(_Own, Event):
    kind = "atlantis_show_object"
    faction: int
    object: str


def _item(items: dict, name: str, count: int | None = None) -> str:
    row = items.get(name)
    if row is None:
        return name
    label = row["name"] if count in (None, 1) else row["plural"]
    return f"{label} [{row['code']}]" if count is None else f"{count} {label} [{row['code']}]"


def skill_report(catalogs: dict[str, Catalog], skill: str, level: int) -> str:
    """`combat [COMB] 1: <what the level allows>. This skill costs 10 silver per month of
    study.` A level with nothing new to say reads "No skill report." as on the server."""
    skills, items = catalogs["skills"].by("name"), catalogs["items"].by("name")
    row = skills.get(skill)
    if row is None:
        return f"{skill} {level}: No skill report."
    head = f"{row['name']} [{row['code']}] {level}:"
    text = ""
    if row["use"] == "produce" and row["produces"]:
        made = [i for i in row["produces"].split("|") if items.get(i, {}).get("level", 1) == level]
        if made:
            text = ("A unit with this skill may PRODUCE "
                    + ", ".join(_item(items, i) for i in made) + ".")
    elif level == 1:
        text = {
            "build": "A unit with this skill may BUILD the structures that need it.",
            "entertain": "A unit with this skill may ENTERTAIN for silver.",
            "combat": "This skill is used in battle.",
            "stealth": "This skill is used to hide units or to see hidden ones.",
            "sail": "A unit with this skill may SAIL a ship.",
            "foundation": "This skill is the foundation of every magic skill.",
            "automatic": "This spell works without an order.",
            "cast": "A unit with this skill may CAST it.",
        }.get(row["use"], "")
        if row["use"] == "combat" and row["magic"]:
            text = "A mage with this skill may choose it with COMBAT."
        if row["magic"] and row["use"] in ("cast", "automatic"):
            text = _spell_use(catalogs, skill) or text
    text = text or "No skill report."
    if level == 1:
        text += f" This skill costs {row['cost']} silver per month of study."
    return f"{head} {text}"


def _spell_use(catalogs: dict[str, Catalog], spell: str) -> str:
    """How a CAST or automatic spell is used, with its syntax (the book: the skill
    description tells a mage how to cast it)."""
    row = catalogs["spells"].by("name").get(spell)
    if row is None:
        return ""
    if spell == "teleport":
        return ("Use CAST TELEPORT target UNITS unit ... at the end of the month to send the "
                "listed units (weighing no more than 1000) to the region of the target unit, "
                "which must know Teleport; the reach is 5 regions per level.")
    if row["creates"]:
        return (f'Use CAST "{spell}" to try to make {row["creates"]}: the chance is '
                f'{row["chance_per_level"]}% per level, and {row["cost"]} silver is spent '
                "whether it works or not. CAST is one a month, not a month-long order.")
    if row["use"] == "automatic":
        what = "Stealth" if spell == "invisibility" else "Observation"
        return f"This spell works without an order: the mage's {what} rises by his level."
    return ""


_AMULETS = {  # sight.py adds these bonuses
    "amulet of invisibility": f" It gives a one-man unit carrying it {AMULET_BONUS} more Stealth.",
    "amulet of true seeing": f" It gives the unit carrying it {AMULET_BONUS} more Observation.",
}


def item_report(catalogs: dict[str, Catalog], item: str) -> str:
    """`sword [SWOR], weight 1. Units with weaponsmith [WEAP] 1 may PRODUCE it from 1 iron
    [IRON].`"""
    items, skills = catalogs["items"].by("name"), catalogs["skills"].by("name")
    row = items.get(item)
    if row is None:
        return f"{item}: no item report."
    text = f"{_item(items, item)}, weight {row['weight']}."
    if row["capacity"]:
        text += f" Capacity {row['capacity']}."
    if row["kind"] == "magic" and row["skill"]:
        sk = skills.get(row["skill"])
        code = f" [{sk['code']}]" if sk else ""
        text += f" Mages with {row['skill']}{code} may CAST it into being."
        text += _AMULETS.get(item, "")
        if row.get("casts"):
            text += (f" A mage holding it may cast {row['casts']} at level "
                     f"{row['cast_level']} (choose it with COMBAT).")
    elif row["skill"]:
        sk = skills.get(row["skill"])
        code = f" [{sk['code']}]" if sk else ""
        text += f" Units with {row['skill']}{code} {row['level']} may PRODUCE this item"
        if row["material"]:
            text += f" from {_item(items, row['material'], row['material_qty'] or 1)}"
        text += "."
    return text


def object_report(catalogs: dict[str, Catalog], obj: str) -> str:
    """`longboat: This is a ship. It carries 200 weight and needs 5 sailors...`"""
    row = catalogs["objects"].by("name").get(obj)
    if row is None:
        return f"{obj}: no object report."
    items = catalogs["items"].by("name")
    material = _item(items, row["material"], row["cost"]) if row["material"] else ""
    if row["kind"] == "ship":
        return (f"{row['name']}: This is a ship. It carries {row['capacity']} weight and "
                f"needs {row['sailors']} levels of sailing to sail. It takes {material} "
                f"to build, with {row['skill']}.")
    return (f"{row['name']}: This is a building. It protects {row['size']} men in battle. "
            f"It takes {material} to build, with {row['skill']}.")
