"""Atlantis Conquest catalogs (terrains, items, skills, spells, objects) and game options.

The book's tables are data: CSV files in `data/` beside this module, loaded through typed
table specs so the scenario designer can edit a game's copy. Where the book gives no
figure (terrain economies, magic item weights, skill codes) the CSV says which reading
was taken (docs/atlantis.md lists them).

`Names` resolves what players write - singular, plural, four-letter code or alias, any
case, `_` for spaces - to catalog names.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.tables import Catalog, Column, OptionSpec, TableSpec

DATA = Path(__file__).resolve().parent / "data"


def _i(name: str, label: str, default: int = 0, lo: int | None = 0, hi: int | None = None,
       help: str = "") -> Column:
    return Column(name, "int", default, lo, hi, label=label, help=help)


def _s(name: str, label: str, default: str = "", help: str = "", **kw) -> Column:
    return Column(name, "str", default, label=label, help=help, **kw)


def _b(name: str, label: str, help: str = "") -> Column:
    return Column(name, "bool", False, label=label, help=help)


TERRAINS = TableSpec("terrains", (
    _s("name", "Terrain", required=True, unique=True),
    _s("letter", "Map letter", required=True, unique=True),
    _i("move_cost", "Movement points to enter", 1, 0, 10, "0: cannot be walked into"),
    _b("ocean", "Ocean", "only ships enter; no population"),
    _i("peasants", "Peasants"),
    _i("silver", "Taxable silver"),
    _i("wages", "Wages per man"),
    _i("entertainment", "Entertainment available"),
    _i("recruits", "Recruits for sale a month"),
    _i("recruit_price", "Price of a recruit"),
    _s("products", "Products", help="item:amount;item:amount produced per month"),
    _s("source", "Source", help="where the figures come from (book or reading)"),
), key=("name",), title="Terrains")

ITEMS = TableSpec("items", (
    _s("name", "Item", required=True, unique=True),
    _s("plural", "Plural", required=True),
    _s("code", "Code", required=True, unique=True, help="four-letter abbreviation"),
    _s("aliases", "Other names", help="|-separated names also understood in orders"),
    _s("kind", "Kind", "raw", choices=("money", "man", "raw", "mount", "weapon", "armor", "magic")),
    _i("weight", "Weight"),
    _i("capacity", "Carrying capacity", help="weight it can carry when walking"),
    _s("skill", "Producing skill"),
    _i("level", "Skill level needed", 1),
    _s("material", "Material"),
    _i("material_qty", "Material per item"),
    _i("per_man_cap", "Most per man a month", help="0 = skill level per man (plate armor: 1)"),
    _b("small", "Small", "not shown on other factions' reports"),
    _s("casts", "Casts spell", help="magic items: the combat spell a mage holding it may cast"),
    _i("cast_level", "at level", 0, 0, 5, help="the level the item casts its spell at"),
), key=("name",), title="Items")

SKILLS = TableSpec("skills", (
    _s("name", "Skill", required=True, unique=True),
    _s("code", "Code", required=True, unique=True),
    _i("cost", "Study cost per man a month", 10),
    _b("magic", "Magic skill"),
    _s("requires", "Requires skill"),
    _i("requires_level", "at level", 0, 0, 5),
    _b("one_man", "One-man units only"),
    _s("use", "Use", choices=("produce", "build", "entertain", "combat", "stealth", "sail",
                              "foundation", "automatic", "cast")),
    _s("produces", "Produces", help="|-separated items made with PRODUCE or CAST"),
), key=("name",), title="Skills")

SPELLS = TableSpec("spells", (
    _s("name", "Spell", required=True, unique=True),
    _i("magic_level", "Magic level needed", 1, 1, 5),
    _s("use", "Use", choices=("combat", "automatic", "cast")),
    _i("low", "Fewest affected"),
    _i("high", "Most affected"),
    _b("per_level", "Times the mage's level", "the range is multiplied by the spell level"),
    _i("cost", "Silver per cast"),
    _i("chance_per_level", "% success per level"),
    _s("creates", "Creates item"),
    _s("effect", "Effect"),
), key=("name",), title="Spells")

OBJECTS = TableSpec("objects", (
    _s("name", "Object", required=True, unique=True),
    _s("kind", "Kind", "building", choices=("building", "ship")),
    _i("size", "Men protected", help="buildings: men given +2 defence"),
    _i("capacity", "Capacity", help="ships: weight carried"),
    _i("cost", "Cost", 1, 1, help="man-months of work and units of material"),
    _s("material", "Material"),
    _i("sailors", "Sailors", help="ships: Sailing levels needed to sail"),
    _s("skill", "Skill"),
), key=("name",), title="Buildings and ships")

SPECS = {s.name: s for s in (TERRAINS, ITEMS, SKILLS, SPELLS, OBJECTS)}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("start_silver", "int", 5000, "Unclaimed silver of a new faction", min=0),
    OptionSpec("max_mages", "int", 5, "Mages a faction may have", min=0),
    OptionSpec("maintenance", "int", 10, "Maintenance per man a month", min=0),
    OptionSpec("tax_per_man", "int", 50, "Tax a combat-ready man collects", min=0),
    OptionSpec("entertain_per_level", "int", 20, "Entertainment silver per man and level", min=0),
    OptionSpec("starve_one_in", "int", 3, "An unfed man starves with a chance of one in",
               min=0, help="the book: one third (3); 0: nobody starves"),
    OptionSpec("faction_types", "bool", False, "War and Trade factions",
               help="The book says only War factions tax and only Trade factions produce and "
                    "build, but defines no faction types; off: every faction may do all."),
    OptionSpec("nmr_work", "bool", True, "Units of factions without orders WORK",
               help="the Atlantis server's custom for factions that sent no orders"),
    OptionSpec("report_layout", "str", "server", "Layout of the text report",
               choices=("server", "book"),
               help="server: the Atlantis server's layout, which players' tools read; "
                    "book: the rule book's sample region word for word"),
    OptionSpec("report_formats", "str", "all", "Report formats written each turn",
               choices=("all", "text"),
               help="all: text, HTML and JSON; text: the text report and the orders "
                    "template alone, as the Atlantis server writes them (a big game's "
                    "turn writes half the files and a third of the bytes)"),
    OptionSpec("ocean_name", "str", "Atlantis Ocean", "Name of ocean regions outside any area"),
    OptionSpec("victory", "str", "last_faction", "When the game ends",
               choices=("last_faction", "none"),
               help="last_faction: the book's closed-ended game - it ends when at most one "
                    "faction is left in it, and that one wins; none: play on until the GM "
                    "stops (the Atlantis server's open-ended custom)"),
    OptionSpec("spell_range", "str", "level_both", "Reading of '2 to N times the level'",
               choices=("level_both", "level_top"),
               help="level_both: L*2 to L*N; level_top: 2 to L*N"),
    OptionSpec("teleport_range", "int", 5, "Teleport reach in regions per level", min=0),
    OptionSpec("teleport_weight", "int", 1000, "Most weight one Teleport sends", min=0),
    OptionSpec("pillage_recovery", "int", 12, "Months a pillaged region takes to recover",
               min=1, help="a reading: the book says only that recovery is slow; the "
                           "region's tax silver comes back by equal steps over these months"),
)


@cache
def _default(name: str) -> Catalog:
    return Catalog.load(SPECS[name], DATA / f"{name}.csv")


def default_catalog(name: str) -> Catalog:
    """The book's catalog, shared: read it, never edit it (games edit their own copies)."""
    return _default(name)


def default_catalogs() -> dict[str, Catalog]:
    return {name: _default(name).copy() for name in SPECS}


def products(row: dict) -> list[tuple[str, int]]:
    """[(item, amount)] of a terrain row's `products` text."""
    out = []
    for part in (row.get("products") or "").split(";"):
        item, _, amount = part.partition(":")
        if item.strip() and amount.strip().isdigit():
            out.append((item.strip(), int(amount)))
    return out


def level_of(days: int, men: int) -> int:
    """Skill level from a unit's total study days (30 a man-month) and its men.

    Level n needs 1+2+...+n months per man (1, 3, 6, 10, 15); compared in whole numbers,
    so merged units' averages are exact."""
    if men <= 0 or days <= 0:
        return 0
    level = 0
    for n in range(1, 6):
        if days >= 30 * n * (n + 1) // 2 * men:
            level = n
    return level


def _norm(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).casefold()


@dataclass(frozen=True)
class Names:
    """Lookups of item, skill and object names as players write them."""

    items: dict[str, str]
    skills: dict[str, str]
    objects: dict[str, str]
    spells: dict[str, str]
    spell_use: dict[str, str]

    @classmethod
    def of(cls, catalogs: dict[str, Catalog]) -> Names:
        items: dict[str, str] = {}
        for r in catalogs["items"]:
            for n in (r["name"], r["plural"], r["code"], *r["aliases"].split("|")):
                if n.strip():
                    items.setdefault(_norm(n), r["name"])
        skills: dict[str, str] = {}
        for r in catalogs["skills"]:
            for n in (r["name"], r["code"]):
                skills.setdefault(_norm(n), r["name"])
        objects = {_norm(r["name"]): r["name"] for r in catalogs["objects"]}
        objects.update({_norm(r["name"]) + "s": r["name"] for r in catalogs["objects"]})
        spells = {_norm(r["name"]): r["name"] for r in catalogs["spells"]}
        spells.update({_norm(r["code"]): r["name"] for r in catalogs["skills"]
                       if _norm(r["name"]) in spells})
        use = {r["name"]: r["use"] for r in catalogs["spells"]}
        return cls(items, skills, objects, spells, use)

    def item(self, text: str) -> str | None:
        return self.items.get(_norm(text))

    def skill(self, text: str) -> str | None:
        return self.skills.get(_norm(text))

    def object(self, text: str) -> str | None:
        return self.objects.get(_norm(text))

    def spell(self, text: str) -> str | None:
        return self.spells.get(_norm(text))


@cache
def default_names() -> Names:
    return Names.of({name: _default(name) for name in SPECS})
