"""King of Kings catalogs (troop list 2.1/2.2, terrain table 2.3 + build table, tactics 3.5)
and game options (section 7 plus the host's numbers). Defaults live as CSV in resources/kok/."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.tables import Catalog, Column, OptionSpec, TableSpec

RESOURCES = Path(__file__).resolve().parents[3] / "resources" / "kok"
TACTIC_LETTERS = ("F", "P", "T", "U", "C")
TACTIC_NAMES = {"F": "Frontal Assault", "P": "Pincer Attack", "T": "Standard Attack",
                "U": "Outflank", "C": "Counter Attack"}


def _i(name: str, label: str, default: int = 0, lo: int | None = 0, hi: int | None = None,
       help: str = "") -> Column:
    return Column(name, "int", default, lo, hi, label=label, help=help)


def _b(name: str, label: str, help: str = "") -> Column:
    return Column(name, "bool", False, label=label, help=help)


TROOPS = TableSpec("troops", (
    Column("symbol", "str", required=True, unique=True, label="Symbol",
           help="one letter used in orders and on the map"),
    Column("name", "str", required=True, unique=True, label="Name"),
    _i("initial_hit", "Initial to hit", 0, 0, 100, "to-hit % in the first combat round"),
    _i("hit", "Continuous to hit", 0, 0, 100, "to-hit % from the second round on"),
    _i("armour", "Armour", 0, 0, 100, "taken off the enemy's to-hit chance"),
    _i("land_move", "Land move", help="movement points on land"),
    _i("sea_move", "Sea move", help="movement points at sea (0: carried only)"),
    _i("food", "Food", help="food eaten per unit and turn"),
    _i("gold", "Gold cost"),
    _i("wood", "Wood cost"),
    _i("sea_order", "Casualty order (sea)", help="0 = does not fight at sea"),
    _i("land_order", "Casualty order (land)",
       help="order of hit rolls and of targets in land battles; 0 = non-combatant"),
    _i("morale", "Morale bonus", 0, None, None, "added to the modifier when testing for retreat"),
    _i("hit_bonus", "To-hit bonus", 0, None, None, "added to all units of its side (once per type)"),
    _b("pincer", "Pincer", "the army may use the pincer tactic when this type is present"),
    _b("transport", "Transport", "carries one crew-capable unit; needs crew at sea"),
    _b("crew", "Crew", "may crew a transport and be carried by one"),
    _b("general", "General", "the army moves at its fastest member's rate"),
    Column("buyable", "bool", True, label="Buyable",
           help="placed for gold/wood; if not, becomes available with time (generals)"),
    _i("value", "Victory value", help="worth of one unit lost in battle, for fame (3.4, 3.6)"),
), key=("symbol",), title="Troop list")

TERRAIN = TableSpec("terrain", (
    Column("name", "str", required=True, unique=True, label="Terrain"),
    Column("letter", "str", required=True, unique=True, label="Map letter"),
    _i("food", "Food"), _i("gold", "Gold"), _i("wood", "Wood"),
    _i("move", "Movement points", 1, 0),
    _i("hit_cap", "To hit cap", 0, 0, 100, "attackers' highest chance here; 0 = no cap"),
    _b("sea", "Sea", "a sea area"),
    _i("build_chance", "Build chance", 0, 0, 100, "% chance a BUILD succeeds here"),
    Column("build_into", "str", "", label="Build into", help="terrain a successful BUILD makes"),
), key=("name",), title="Terrain table")

TACTICS = TableSpec("tactics", (
    Column("attacker", "str", required=True, choices=TACTIC_LETTERS, label="Attacker tactic"),
    Column("defender", "str", required=True, choices=TACTIC_LETTERS, label="Defender tactic"),
    _i("attacker_mod", "Attacker modifier", 0, -100, 100),
    _i("defender_mod", "Defender modifier", 0, -100, 100),
), key=("attacker", "defender"), title="Tactics table")

SPECS = {"troops": TROOPS, "terrain": TERRAIN, "tactics": TACTICS}


def _opt(name: str, type_: str, default: Any, label: str, help: str = "",
         lo: float | None = None, hi: float | None = None) -> OptionSpec:
    return OptionSpec(name, type_, default, label, help, lo, hi)


OPTIONS: tuple[OptionSpec, ...] = (
    _opt("build", "bool", True, "7.1 Build", "the BUILD order is allowed"),
    _opt("loyalty", "bool", False, "7.2 Loyalty", "captured provinces stay loyal to their old owner"),
    _opt("sea_ownership", "bool", False, "7.3 Sea ownership",
         "sea areas are owned and held like land, without a fleet present"),
    _opt("place_and_move", "bool", True, "7.4 Place and move",
         "units placed this turn may move this turn"),
    _opt("no_crew", "bool", False, "7.5 Crew", "transports (ships) need no crew to move"),
    _opt("capture", "bool", False, "7.6 Capture", "unguarded non-combatants can be captured"),
    _opt("sea_placement", "bool", False, "7.7 Sea placement",
         "troops that are not land-bound may be placed at sea"),
    _opt("gold_limit", "int", 5, "Gold storage", "gold kept from turn to turn (4.2); -1 = unlimited", -1),
    _opt("wood_limit", "int", 20, "Wood storage", "-1 = unlimited", -1),
    _opt("food_limit", "int", 0, "Food storage", "-1 = unlimited", -1),
    _opt("start_gold", "int", 30, "Start gold", "gold of each tribe at the start (6.1)", 0),
    _opt("end_turn", "int", 20, "End turn", "the game ends after this turn (6.2)", 1),
    _opt("home_only", "bool", False, "Home placement only",
         "units may be placed only in home provinces (4.3 d)"),
    _opt("general_every", "int", 5, "General every N turns",
         "a tribe gains the right to one more general every N turns (2.4); 0 = never", 0),
    _opt("general_max", "int", 2, "Generals per tribe", "most generals a tribe may have placed", 0),
    _opt("build_cost", "int", 12, "Build cost", "gold per BUILD order (5.8)", 0),
    _opt("loyalty_chance", "int", 20, "Loyalty chance", "% chance a disloyal province converts (2.7)", 0, 100),
    _opt("detection", "int", 10, "Detection", "% chance per ship to detect a moving fleet (3.2.2)", 0, 100),
    _opt("donation_fee", "int", 10, "Donation fee", "% of a donation lost, rounded up (5.7)", 0, 100),
    _opt("donation_status", "int", 2, "Donation alliance", "status both sides need to donate (5.7)", 0, 5),
    _opt("pla_limit", "int", 3, "PLA items", "placements in one PLA order (5.1)", 1),
    _opt("def_limit", "int", 3, "DEF items", "provinces in one DEF order (5.4)", 1),
    _opt("max_orders", "int", 0, "Orders per turn", "most orders a tribe may give; 0 = no limit", 0),
    _opt("siege_loss", "int", 10, "Siege losses", "% of each isolated province's land units lost "
         "each turn, rounded up (2.6)", 0, 100),
    _opt("start_units", "str", "F", "Start garrison", "troop placed in each starting province (6.1)"),
    _opt("declarations_persist", "bool", False, "One-sided ALL persists",
         "house reading of 2.8: a declaration the other player did not match stays in force "
         "for the declarer in later turns (the alliance table then shows each side's own "
         "declaration); off, as 2.8 and 8.1 say: at turn end both are set to the lower value"),
)


@cache
def _default_text(name: str) -> str:
    return (RESOURCES / f"{name}.csv").read_text(encoding="utf-8")


def default_catalogs() -> dict[str, Catalog]:
    return {name: Catalog.from_csv(spec, _default_text(name), f"resources/kok/{name}.csv")
            for name, spec in SPECS.items()}


@dataclass(frozen=True)
class Troop:
    symbol: str
    name: str
    initial_hit: int
    hit: int
    armour: int
    land_move: int
    sea_move: int
    food: int
    gold: int
    wood: int
    sea_order: int
    land_order: int
    morale: int
    hit_bonus: int
    pincer: bool
    transport: bool
    crew: bool
    general: bool
    buyable: bool
    value: int
    row: int                # position in the troop list (ties and display order)

    @property
    def land_bound(self) -> bool:
        return self.sea_move == 0 and self.land_move > 0

    @property
    def sea_bound(self) -> bool:
        return self.land_move == 0 and self.sea_move > 0

    @property
    def static(self) -> bool:
        return self.land_move == 0 and self.sea_move == 0

    @property
    def is_land_unit(self) -> bool:
        """Counts as a land unit (2:1 numbers, placement limit, might): not a transport."""
        return not self.transport


@dataclass(frozen=True)
class Terrain:
    name: str
    letter: str
    food: int
    gold: int
    wood: int
    move: int
    hit_cap: int
    sea: bool
    build_chance: int
    build_into: str


def troops_of(catalogs: dict[str, Catalog]) -> dict[str, Troop]:
    return {r["symbol"].upper(): Troop(**{**r, "symbol": r["symbol"].upper()}, row=i)
            for i, r in enumerate(catalogs["troops"].rows)}


def terrain_of(catalogs: dict[str, Catalog]) -> dict[str, Terrain]:
    return {r["name"].lower(): Terrain(**{**r, "name": r["name"].lower()})
            for r in catalogs["terrain"].rows}


def tactics_of(catalogs: dict[str, Catalog]) -> dict[tuple[str, str], tuple[int, int]]:
    return {(r["attacker"], r["defender"]): (r["attacker_mod"], r["defender_mod"])
            for r in catalogs["tactics"].rows}
