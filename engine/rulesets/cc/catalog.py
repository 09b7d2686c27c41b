"""Continental Conquest 5.0 catalogs: the rule book's tables as CSV under resources/cc/.

Every table of the book's charts (and the ones its text spells out) is a typed catalog a GM
can edit in the scenario designer. Numbers the book does not give (vehicle parts rates,
scrap parts, goods prices, terrain defence bonuses) are house values; their columns say so
in their help text and docs/continental.md lists them.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from engine.tables import Catalog, Column, TableSpec

RESOURCES = Path(__file__).resolve().parents[3] / "resources" / "cc"

CONVOY_TYPES = ("land", "sea", "amphibious", "military", "air")
CLASSES = ("fast_scout", "small_combat", "medium", "large_troop", "large_assault")
HOUSE = "not in the book: a house value the GM may change"


def _id(name: str = "id") -> Column:
    return Column(name, "str", required=True, unique=True)


def _n(name: str, default: int = 0, help: str = "", lo: int | None = 0) -> Column:
    return Column(name, "int", default, min=lo, help=help)


def _f(name: str, default: float = 1.0, help: str = "") -> Column:
    return Column(name, "float", default, min=0.0, help=help)


def _flag(name: str, help: str = "") -> Column:
    return Column(name, "bool", False, help=help)


def _text(name: str, help: str = "") -> Column:
    return Column(name, "str", "", help=help)


def _range(stem: str, help: str = "") -> tuple[Column, Column]:
    return _n(f"{stem}_min", help=help), _n(f"{stem}_max", help=help)


TERRAIN = TableSpec("terrain", (
    _id(), Column("name", "str", required=True), Column("abbr", "str", required=True, unique=True,
                                                         help="three letters, as the hex report prints"),
    _flag("ownable", "a clan can control the hex (not water or sea lanes)"),
    _flag("drivable", "land and military convoys may enter without a road"),
    _flag("navigable", "sea convoys move through freely (water, islands, sea lanes)"),
    _flag("amphib_link_only", "amphibious convoys enter only along a road or river"),
    *_range("money", "dollars a turn (the book prints thousands)"), *_range("food"), *_range("fuel"),
    *_range("parts"), *_range("vaccine"),
    _f("fuel_factor", help="fuel multiplier on entering"), _f("parts_factor", help="parts multiplier on entering"),
    *_range("guard", "attacking troops needed per defending troop in the hex"),
    _n("defense_bonus", help=f"starting defence levels added; {HOUSE} (the book names the terrains only)"),
), key=("id",), title="Terrain", help="The terrain summary: production, fuel and parts factors.")

LINKS = TableSpec("links", (
    _id(), Column("name", "str", required=True), *_range("food"), *_range("parts"),
    _f("fuel_factor", help="road: fuel multiplier for land/military/amphibious convoys following it; "
                           "river: fuel multiplier for sea convoys on it"),
    _f("parts_factor", help="road: parts factor while following it; river: sea convoys' parts factor"),
    _n("defense_bonus", help=f"starting defence levels added; {HOUSE}"),
    _flag("buildable", "PAVE can add it"),
), key=("id",), title="Roads and rivers")

VEHICLES = TableSpec("vehicles", (
    _id(), Column("name", "str", required=True, unique=True), _text("plural"),
    Column("convoy_type", "str", "land", choices=CONVOY_TYPES),
    Column("class", "str", "fast_scout", choices=CLASSES),
    _n("cost"), Column("damage", "str", "1d6", help="dice per combat round, e.g. 8d6+4"),
    _n("hit_points"), _n("cargo"), _n("troops"), _n("fuel"), _n("size"),
    _n("parts_rate", 1, f"parts per hex moved before terrain; {HOUSE} (the book says only that "
                        "bigger vehicles need more)"),
    _n("scrap_parts", 2, f"parts gained when the vehicle is scrapped; {HOUSE}"),
), key=("id",), title="Vehicles", help="The five master vehicle charts.")

VEHICLE_CLASSES = TableSpec("vehicle_classes", (
    _id(), Column("name", "str", required=True), _n("size"),
    _n("raze_building_pct", help="chance each such vehicle burns a building in a RAZE"),
    _n("rockets", help="rockets carried per vehicle of the class"),
    _n("bombs_air", help="bombs an air vehicle of the class carries"),
), key=("id",), title="Vehicle classes")

CONVOY_TYPE = TableSpec("convoy_types", (
    _id(), Column("name", "str", required=True),
    _n("moves", help="hexes a turn (air: range)"), _n("all_scout_bonus"), _n("engineer_bonus"),
    _n("pilot_bonus"), _n("airport_bonus"),
    _text("start_vehicles", "vehicle:count|... a new convoy gets"),
    _text("needs_building", "city building needed to create one"),
    _n("pulses", 10), _n("engineer_pulses", 10),
    _n("moves_per_order", 1, help="hexes one move order covers (0 = any distance within range)"),
), key=("id",), title="Convoy types")

SIZE_CATEGORIES = TableSpec("size_categories", (
    _id(), Column("name", "str", required=True), _n("size_min"), _n("size_max", help="0 = no limit"),
), key=("id",), title="Convoy size categories")


def _cost_table(name: str, title: str) -> TableSpec:
    return TableSpec(name, (Column("number", "int", required=True, unique=True, min=1), _n("cost")),
                     key=("number",), title=title)


CONVOY_COSTS = _cost_table("convoy_costs", "Convoy creation costs")
AGENT_COSTS = _cost_table("agent_costs", "Agent training costs")

FORTIFICATIONS = TableSpec("fortifications", (
    Column("level", "int", required=True, unique=True, min=1), Column("name", "str", required=True),
    _f("combat_value"), _n("to_hit", help="defenders' to-hit percent"), _n("capacity"),
    _n("capacity_barracks"), _n("raise_cost", help="to raise to the next level (0 = top)"),
    _n("spotting"), _n("spotting_tower"), _n("radio"), _n("radio_tower"),
    _n("bomb_hit", help="percent chance a bomb hits"),
), key=("level",), title="City fortification levels")

HEX_DEFENSE = TableSpec("hex_defense", (
    Column("level", "int", required=True, unique=True, min=1), Column("name", "str", required=True),
    _n("raise_cost", help="to raise to the next level (0 = top)"), _n("conquer_min"), _n("conquer_max"),
), key=("level",), title="Hex defence levels")

POPULATION = TableSpec("population", (
    _id(), Column("name", "str", required=True), _n("low_min"), _n("normal_min"), _n("normal_max"),
    _n("maximum"), _n("maximum_stockyard"), _n("usual_start"),
), key=("id",), title="City population bands")

BUILDINGS = TableSpec("buildings", (
    Column("code", "str", required=True, unique=True), Column("name", "str", required=True),
    _n("cost", 10000), _text("effect"),
), key=("code",), title="City buildings")

SPECIAL_STRUCTURES = TableSpec("special_structures", (
    Column("code", "str", required=True, unique=True), Column("name", "str", required=True),
    Column("where", "str", "land", choices=("land", "water")),
    *_range("money"), *_range("food"), *_range("fuel"), *_range("parts"), *_range("vaccine"),
    *_range("troops"), *_range("rifles"), *_range("grenades"),
    _n("popularity", 1, "popularity the hex is worth to its owner"), _text("effect"),
), key=("code",), title="Special structures")

CUSTOM_STRUCTURES = TableSpec("custom_structures", (
    _id(), Column("name", "str", required=True), _text("terrains", "terrain ids separated by |"),
    _n("food"), _n("fuel"), _n("parts"), _n("vaccine"), _n("troops"), _n("approx_value"),
    _flag("auto_garrison", "recruits free guards up to the hex's defence level"),
), key=("id",), title="Custom structures")

EXPERTS = TableSpec("experts", (
    Column("code", "str", required=True, unique=True), Column("name", "str", required=True),
    _n("cost", 10000), _flag("air_only"), _n("bonus_pct", help="the expert's main percentage"),
    _flag("priest_doubles", "a Priest in the convoy doubles the bonus"), _text("effect"),
), key=("code",), title="Experts")

SUPPLIES = TableSpec("supplies", (
    _id(), Column("name", "str", required=True), _n("price", help="starting market price"),
    _flag("sellable"), _text("convoy_capacity"), _text("note"),
), key=("id",), title="Supplies and optional weapons")

GOODS = TableSpec("goods", (
    _id(), Column("name", "str", required=True),
    _n("price", help=f"starting free-market price per unit; {HOUSE}"),
), key=("id",), title="Trade goods")

ESPIONAGE = TableSpec("espionage", (
    Column("keyword", "str", required=True, unique=True), _n("cost", help="times the target's popularity"),
    _text("reveals"),
), key=("keyword",), title="Espionage keywords")

GAMBLE = TableSpec("gamble", (
    Column("roll_from", "int", required=True, min=1, max=100), Column("roll_to", "int", required=True, min=1, max=100),
    Column("result", "str", required=True), _n("returned", help="dollars paid back, stake included"),
    _n("extra_loss"), _flag("casino_lost"),
), key=("roll_from",), title="Casino results (d100)")

# cc-cycle: the book says only "food, fuel, parts, or even vehicles" (CURE); a house table
CURE_GIFTS = TableSpec("cure_gifts", (
    Column("roll_from", "int", required=True, min=1, max=100), Column("roll_to", "int", required=True, min=1, max=100),
    Column("gift", "str", required=True, choices=("food", "fuel", "parts", "vaccine", "vehicle"),
           help="vehicle: a scout of the curing convoy's type"),
    _n("least", 1), _n("most", 1),
), key=("roll_from",), title="Gifts of a cured city (d100; not in the book)")

# cc-cycle: SABOTAGE names kinds of mishap but no odds or sizes; a house table
SABOTAGE = TableSpec("sabotage", (
    Column("roll_from", "int", required=True, min=1, max=100), Column("roll_to", "int", required=True, min=1, max=100),
    Column("result", "str", required=True,
           choices=("nothing", "people", "troops", "building", "income", "spotting", "money", "supplies"),
           help="people/troops killed, a building burnt, no income or no spotting report on the owner's next "
                "turn, money stolen, or fuel, food and parts stolen each"),
    _n("least"), _n("most"),
), key=("roll_from",), title="Sabotage results (d100; not in the book)")

# cc-house: EVENT and LOOT name tables the book never prints; house tables the GM edits
_FINDS = ("nothing", "money", "food", "fuel", "parts", "vaccine", "troops", "rifles", "grenades")
RANDOM_EVENTS = TableSpec("random_events", (
    Column("roll_from", "int", required=True, min=1, max=100), Column("roll_to", "int", required=True, min=1, max=100),
    Column("effect", "str", required=True,
           choices=(*_FINDS, "morale", "training", "population", "garrison", "vehicle"),
           help="money to grenades: the clan's stock; morale and training: every convoy; vehicle: a "
                "scout for one convoy; population (percent) and garrison (troops): one owned city"),
    _n("least", lo=None, help="negative for a loss"), _n("most", lo=None, help="negative for a loss"),
    _text("text", "the report's sentence: {n} is the amount, {city} the city, {convoy} the convoy"),
), key=("roll_from",), title="Random events (d100; not in the book)")

LOOT = TableSpec("loot", (
    Column("roll_from", "int", required=True, min=1, max=100), Column("roll_to", "int", required=True, min=1, max=100),
    Column("find", "str", required=True, choices=(*_FINDS, "vehicle"),
           help="added to the clan's stock; vehicle: a scout of the looting convoy's type"),
    _n("least"), _n("most"),
), key=("roll_from",), title="Loot found in a hex (d100; not in the book)")

CONVOY_ORDERS = TableSpec("convoy_orders", (
    Column("keyword", "str", required=True, unique=True), _text("code"), _text("syntax"), _text("needs"),
    _flag("allowed_hidden"), _n("per_turn", help="0 = no limit"), _text("cost"), _text("summary"),
), key=("keyword",), title="Convoy orders")

CLAN_ORDERS = TableSpec("clan_orders", (
    Column("keyword", "str", required=True, unique=True), Column("code", "str", required=True, unique=True),
    _text("syntax"), _text("cost"), _text("limit"), _text("summary"),
), key=("keyword",), title="Clan orders")

SPECS: dict[str, TableSpec] = {s.name: s for s in (
    TERRAIN, LINKS, VEHICLES, VEHICLE_CLASSES, CONVOY_TYPE, SIZE_CATEGORIES, CONVOY_COSTS,
    AGENT_COSTS, FORTIFICATIONS, HEX_DEFENSE, POPULATION, BUILDINGS, SPECIAL_STRUCTURES,
    CUSTOM_STRUCTURES, EXPERTS, SUPPLIES, GOODS, ESPIONAGE, GAMBLE, CONVOY_ORDERS, CLAN_ORDERS,
    CURE_GIFTS, SABOTAGE, RANDOM_EVENTS, LOOT)}


@functools.cache
def _book_table(name: str) -> Catalog:
    return Catalog.load(SPECS[name], RESOURCES / f"{name}.csv")


def d100_row(cats: dict[str, Catalog], name: str, roll: int) -> dict[str, Any] | None:
    """The row of a d100 house table (roll_from..roll_to) that `roll` falls in; a game saved
    before the table existed uses the shipped one, read once."""
    cat = cats.get(name) or _book_table(name)
    return next((r for r in sorted(cat.rows, key=lambda r: r["roll_from"])
                 if r["roll_from"] <= roll <= r["roll_to"]), None)


def default_catalogs() -> dict[str, Catalog]:
    """Every catalog as printed in the book (plus the labelled house values)."""
    return {name: Catalog.load(spec, RESOURCES / f"{name}.csv") for name, spec in SPECS.items()}


def check_catalogs(cats: dict[str, Catalog]) -> list[str]:
    """Cross-table problems a per-row check cannot see (plain sentences, empty when sound)."""
    problems: list[str] = []
    terrains = set(cats["terrain"].by("id"))
    vehicles = cats["vehicles"].by("id")
    classes = cats["vehicle_classes"].by("id")
    for v in vehicles.values():
        if v["class"] in classes and v["size"] != classes[v["class"]]["size"]:
            problems.append(f"vehicle {v['id']}: size {v['size']} differs from its class's {classes[v['class']]['size']}")
    for ct in cats["convoy_types"]:
        for part in filter(None, ct["start_vehicles"].split("|")):
            vid, _, count = part.partition(":")
            if vid not in vehicles or vehicles[vid]["convoy_type"] != ct["id"]:
                problems.append(f"convoy type {ct['id']}: start vehicle {vid!r} is not one of its vehicles")
            if not count.isdigit():
                problems.append(f"convoy type {ct['id']}: start vehicle count {count!r} is not a number")
    for s in cats["custom_structures"]:
        for t in filter(None, s["terrains"].split("|")):
            if t not in terrains:
                problems.append(f"custom structure {s['id']}: unknown terrain {t!r}")
    for table in ("gamble", "cure_gifts", "sabotage", "random_events", "loot"):  # d100 tables
        if table not in cats:
            continue
        rolls = sorted((g["roll_from"], g["roll_to"]) for g in cats[table])
        expect = 1
        for lo, hi in rolls:
            if lo != expect or hi < lo:
                problems.append(f"{table}: rolls {lo}-{hi} leave a gap or overlap at {expect}")
            expect = hi + 1
        if rolls and expect != 101:
            problems.append(f"{table}: the rolls do not end at 100")
    return problems


class Book:
    """Read-only view of a game's catalogs, rows by id, for the rules' formulas."""

    def __init__(self, cats: dict[str, Catalog] | None = None):
        if cats is None or not set(SPECS) <= set(cats):
            # the files are read only for catalogs the game lacks (every ClanTurn builds a Book)
            cats = {**default_catalogs(), **(cats or {})}
        self.terrain = cats["terrain"].by("id")
        self.links = cats["links"].by("id")
        self.vehicles = cats["vehicles"].by("id")
        self.classes = cats["vehicle_classes"].by("id")
        self.convoy_types = cats["convoy_types"].by("id")
        self.sizes = list(cats["size_categories"])
        self.convoy_costs = {r["number"]: r["cost"] for r in cats["convoy_costs"]}
        self.agent_costs = {r["number"]: r["cost"] for r in cats["agent_costs"]}
        self.fortifications = cats["fortifications"].by("level")
        self.hex_defense = cats["hex_defense"].by("level")
        self.experts = cats["experts"].by("code")
        self.espionage = cats["espionage"].by("keyword")
        self.supplies = cats["supplies"].by("id")
        self.convoy_orders = cats["convoy_orders"].by("keyword")
        self.buildings = cats["buildings"].by("code")
