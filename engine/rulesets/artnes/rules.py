"""ARTNES rule data: the unit and combat-table catalogs, the scenario options, and the
board (realms, seas, coasts and realm numbers with castles) read from a region map."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.map import GameMap
from engine.state import State
from engine.tables import Catalog, Column, OptionSpec, TableSpec

RESOURCES = Path(__file__).resolve().parents[3] / "resources" / "artnes"
LAND_KINDS = ("knight", "spearman")
MOBILE_KINDS = ("knight", "spearman", "galley")
RESULTS = ("A", "B", "C", "D", "E")
CAPS = {"terrain": 2, "population": 4, "gold": 4}

UNITS_SPEC = TableSpec("units", (
    Column("kind", "str", required=True, unique=True, label="Unit"),
    Column("name", "str", required=True, label="Name"),
    Column("plural", "str", required=True, label="Plural"),
    Column("cost", "int", 0, 0, 99, label="Gold"),
    Column("pp", "int", 0, 0, 99, label="Population points"),
    Column("attack", "int", 0, 0, 99, label="Attack"),
    Column("defence", "int", 0, 0, 99, label="Defence"),
    Column("moves", "int", 0, 0, 9, label="Spaces a turn"),
    Column("coastal_only", "bool", False, label="Built only in coastal realms"),
    Column("max_per_realm", "int", 0, 0, 99, label="Most per realm (0 = any)"),
), key=("kind",), title="Units")

_RESULT = {"choices": RESULTS, "required": True}
CRT_SPEC = TableSpec("crt", (
    Column("column", "str", required=True, unique=True, label="Odds column"),
    Column("attack", "int", 1, 1, 99, label="Attacker part"),
    Column("defence", "int", 1, 1, 99, label="Defender part"),
    *(Column(f"r{i}", "str", **_RESULT, label=f"Roll {i}") for i in range(1, 7)),
), key=("column",), title="Land combat results table",
    help="Columns in the order of the rule book; each row is one odds column.")


@cache
def _csv(name: str) -> str:
    return (RESOURCES / name).read_text(encoding="utf-8")


def default_catalogs() -> dict[str, Catalog]:
    return {"units": Catalog.from_csv(UNITS_SPEC, _csv("units.csv"), "units.csv"),
            "crt": Catalog.from_csv(CRT_SPEC, _csv("crt.csv"), "crt.csv")}


def _loss(result: str, side: str, default: float) -> OptionSpec:
    what = {"A": "severe attacker losses", "B": "middling attacker losses", "C": "standoff",
            "D": "middling defender losses", "E": "severe defender losses"}[result]
    return OptionSpec(f"loss_{result}_{side}", "float", default,
                      f"Result {result}: {side} losses",
                      f"Share of the {side}'s fighting units lost on result {result} ({what}).",
                      0.0, 1.0)


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("start_year", "int", 1300, "First year", "The year of turn 1.", 1, 9999),
    OptionSpec("end_year", "int", 0, "Last year", "The game ends after this year (0 = never).",
               0, 9999),
    OptionSpec("start_gold", "int", 5, "Starting gold", "Gold each nation starts with.", 0, 999),
    OptionSpec("min_nations", "int", 8, "Nations to start",
               "The book starts the game once this many nations have joined; fewer is "
               "warned about (0 = no warning).", 0, 99),
    OptionSpec("max_nations", "int", 11, "Most nations",
               "The book has room for this many nations; a scenario with more is refused "
               "(raise it for a house game).", 1, 99),
    OptionSpec("column_order", "str", "book", "Odds column order",
               "book: printed order, the out-of-order 5:3 read as 5:2; numeric: headers in "
               "value order over the printed result columns; swapped: columns re-sorted by "
               "their printed headers.", choices=("book", "numeric", "swapped")),
    OptionSpec("below_lowest", "str", "clamp", "Odds below 1:2",
               "clamp: fight on the 1:2 column; A: the attack fails with result A.",
               choices=("clamp", "A")),
    OptionSpec("above_highest", "str", "clamp", "Odds above 3:1",
               "clamp: 3:1 column; extra: each whole point of odds above 3 absorbs one "
               "left shift.", choices=("clamp", "extra")),
    OptionSpec("castle_shift", "str", "capped", "Castle column shift",
               "capped: the castle adds 1 to terrain up to 2 (the book's limit); extra: it "
               "always adds a shift.", choices=("capped", "extra")),
    OptionSpec("undefended", "str", "capture", "Empty enemy realms",
               "capture: a foreign realm without defenders or castle is taken without a "
               "battle; fight: resolve a battle against 0 defence.",
               choices=("capture", "fight")),
    OptionSpec("castle_on_capture", "str", "keep", "Castles of lost realms",
               "keep: the castle passes to the new owner; destroy: it is razed.",
               choices=("keep", "destroy")),
    OptionSpec("loss_rounding", "str", "up", "Rounding of losses",
               "How a share of units becomes a number of units.",
               choices=("up", "nearest", "down")),
    OptionSpec("casualties", "str", "random", "Which units die",
               "random: chosen by dice; cheapest: spearmen first, then knights.",
               choices=("random", "cheapest")),
    _loss("A", "attacker", 0.5), _loss("A", "defender", 0.0),
    _loss("B", "attacker", 0.25), _loss("B", "defender", 0.0),
    _loss("C", "attacker", 0.25), _loss("C", "defender", 0.25),
    OptionSpec("standoff_losses", "str", "equal", "Result C losses",
               "equal: the book's standoff with equal losses, both sides lose the same "
               "number of units (the smaller of the two shares); share: each side loses its "
               "own share of its units.", choices=("equal", "share")),
    _loss("D", "attacker", 0.0), _loss("D", "defender", 0.25),
    _loss("E", "attacker", 0.0), _loss("E", "defender", 0.5),
    OptionSpec("sea_removal", "str", "galley", "Sea combat losses",
               "galley: each loss falls on a galley drawn at random (bigger fleets fare "
               "better); side: each loss falls on a side drawn at random.",
               choices=("galley", "side")),
    OptionSpec("peace", "str", "mutual", "Making peace",
               "mutual: both nations must order peace in the same turn; unilateral: one "
               "order ends the war.", choices=("mutual", "unilateral")),
    OptionSpec("attack_needs_war", "bool", False, "Land attacks need war",
               "Forbid moving land units into realms of nations at peace with you."),
    OptionSpec("swaps", "str", "pass", "Units swapping realms",
               "pass: two nations' units moving into each other's realms both attack what "
               "stayed behind; bounce: both moves fail.", choices=("pass", "bounce")),
    OptionSpec("galley_to_sea", "bool", True, "Galleys leave port",
               "A galley in a coastal realm may move out to a sea it borders."),
    OptionSpec("convoy_galley", "str", "own", "Convoying galley",
               "own: the convoying nation needs its own galley in the sea; any: any galley "
               "of a nation not at war with it.", choices=("own", "any")),
    OptionSpec("new_units_move", "bool", False, "New units move",
               "Units bought this turn may move this turn."),
)


# ---- the board -------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """Realms and seas of a region map with their adjacency and base numbers."""

    names: tuple[str, ...]
    kinds: dict[str, str]                 # name -> 'realm' | 'sea'
    adjacent: dict[str, frozenset[str]]
    stats: dict[str, tuple[int, int, int]]  # realm -> (terrain, population, gold)
    homes: dict[str, str]                 # realm -> suggested starting nation name

    def is_sea(self, name: str) -> bool:
        return self.kinds.get(name) == "sea"

    def is_realm(self, name: str) -> bool:
        return self.kinds.get(name) == "realm"

    @property
    def realms(self) -> list[str]:
        return [n for n in self.names if self.kinds[n] == "realm"]

    @property
    def seas(self) -> list[str]:
        return [n for n in self.names if self.kinds[n] == "sea"]

    def seas_of(self, realm: str) -> list[str]:
        return sorted(n for n in self.adjacent.get(realm, ()) if self.is_sea(n))

    def is_coastal(self, realm: str) -> bool:
        return self.is_realm(realm) and bool(self.seas_of(realm))

    def land_neighbours(self, realm: str) -> list[str]:
        return sorted(n for n in self.adjacent.get(realm, ()) if self.is_realm(n))

    def match(self, text: str, kind: str | None = None) -> list[str]:
        """Names a written name may mean: exact wins, else unique prefix; case and accents
        do not count (`mércia`, `GOTALAND` for Götaland)."""
        key = fold(text.replace("_", " "))
        if not key:
            return []
        pool = [n for n in self.names if kind is None or self.kinds[n] == kind]
        exact = [n for n in pool if fold(n) == key]
        if exact:
            return exact
        return [n for n in pool if fold(n).startswith(key)]


def fold(name: str) -> str:
    """A name as compared: accents dropped, case folded, runs of white space as one blank."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(plain.split()).casefold()


def board_of(gmap: GameMap) -> Board:
    """The board of a map. Not cached: the GM may edit realm numbers between calls, and
    building it is cheap next to the region graph, which the map caches itself."""
    graph = gmap.regions()
    kinds, stats, homes = {}, {}, {}
    for name, area in gmap.areas.items():
        a = area.attrs
        sea = area.kind == "sea" or bool(a.get("sea"))
        kinds[name] = "sea" if sea else "realm"
        if not sea:
            stats[name] = (int(a.get("terrain", 0)), int(a.get("population", 1)), int(a.get("gold", 1)))
            if a.get("home"):
                homes[name] = str(a["home"])
    adjacent = {n: frozenset(graph.names[j] for j in graph.neighbours(i))
                for i, n in enumerate(graph.names)}
    return Board(tuple(sorted(kinds, key=str.casefold)), kinds, adjacent, stats, homes)


def realm_rows(state: State) -> dict[str, object]:
    return {r.realm: r for r in state["realms"]}


def owner_of(state: State, realm: str) -> int:
    for r in state["realms"]:
        if r.realm == realm:
            return r.owner
    return 0


def has_castle(state: State, realm: str) -> bool:
    return any(r.realm == realm and r.castle for r in state["realms"])


def realm_numbers(board: Board, realm: str, castle: bool) -> tuple[int, int, int]:
    """(terrain, population, gold), each raised by 1 with a castle up to its limit."""
    t, p, g = board.stats.get(realm, (0, 1, 1))
    if castle:
        t, p, g = min(CAPS["terrain"], t + 1), min(CAPS["population"], p + 1), min(CAPS["gold"], g + 1)
    return t, p, g


def population_points(board: Board, state: State, nation: int) -> int:
    return sum(realm_numbers(board, r.realm, r.castle)[1] for r in state["realms"]
               if r.owner == nation and board.is_realm(r.realm))


def salary(board: Board, state: State, nation: int) -> int:
    return sum(realm_numbers(board, r.realm, r.castle)[2] for r in state["realms"]
               if r.owner == nation and board.is_realm(r.realm))


def unit_table(catalogs: dict[str, Catalog]) -> dict[str, dict]:
    return catalogs["units"].by("kind")


def points_used(state: State, nation: int, units: dict[str, dict]) -> int:
    return sum(u.count * int(units.get(u.kind, {}).get("pp", 0)) for u in state["units"]
               if u.nation == nation)


def normalise_units(state: State) -> None:
    """Merge stacks of the same nation, kind and place; drop empty ones; stable order."""
    merged: dict[tuple[int, str, str], int] = {}
    for u in state["units"]:
        key = (u.nation, u.kind, u.location)
        merged[key] = merged.get(key, 0) + u.count
    cls = type(state["units"][0]) if state["units"] else None
    if cls is None:
        return
    state.tables["units"] = [cls(n, k, loc, c) for (n, k, loc), c in
                             sorted(merged.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1]))
                             if c > 0]


def add_units(state: State, nation: int, kind: str, location: str, count: int) -> None:
    from engine.rulesets.artnes.state import Unit

    for u in state["units"]:
        if u.nation == nation and u.kind == kind and u.location == location:
            u.count += count
            return
    state["units"].append(Unit(nation, kind, location, count))


def take_units(state: State, nation: int, kind: str, location: str, count: int) -> int:
    """Remove up to `count` units; returns how many were there to remove."""
    for u in state["units"]:
        if u.nation == nation and u.kind == kind and u.location == location:
            n = min(count, u.count)
            u.count -= n
            return n
    return 0


def count_units(state: State, nation: int, kind: str, location: str) -> int:
    return sum(u.count for u in state["units"]
               if u.nation == nation and u.kind == kind and u.location == location)


def set_owner(state: State, realm: str, owner: int) -> None:
    from engine.rulesets.artnes.state import Realm

    for r in state["realms"]:
        if r.realm == realm:
            r.owner = owner
            return
    state["realms"].append(Realm(realm, owner, False))


def at_war(state: State, a: int, b: int) -> bool:
    lo, hi = min(a, b), max(a, b)
    return any(w.nation == lo and w.other == hi for w in state["wars"])
