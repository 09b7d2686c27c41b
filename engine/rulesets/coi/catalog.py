"""Conquest of Island catalogs: unit types, terrains and buildings, as CSV under resources/coi/.

The game keeps its own editable copy of each catalog; `Rules` is the read-only view the
adjudicator uses (dicts by id, so lookups are cheap and ordering is the catalog's).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tables import Catalog, Column, TableSpec

RESOURCES = Path(__file__).resolve().parents[3] / "resources" / "coi"
GOODS = ("food", "wood", "iron")
COUNTERS = ("", "pikeman", "scout", "halberdier", "knight", "rough_rider")
TERRAIN_IDS = ("desert", "mountain", "forest", "field", "ruin", "deep", "shallow")


def _flag(name: str, help: str = "") -> Column:
    return Column(name, "bool", False, help=help)


def _num(name: str, default: int = 0, lo: int | None = 0, help: str = "") -> Column:
    return Column(name, "int", default, min=lo, help=help)


UNITS = TableSpec("units", (
    Column("id", "str", required=True, unique=True),
    Column("name", "str", required=True),
    Column("plural", "str", ""),
    Column("aliases", "str", "", help="other spellings, separated by |"),
    Column("availability", "str", "all", choices=("all", *TERRAIN_IDS),
           help="terrain where it may be recruited (all = anywhere with a recruitment centre)"),
    _num("food"), _num("wood"), _num("iron"), _num("attack"), _num("defense"),
    _flag("cavalry"), _flag("archer"), _flag("ship"), _flag("transport", "carries one land unit"),
    _flag("convoyed", "the attacker may not pick it while non-convoyed units remain"),
    _flag("oceanfaring", "immune to the deep-water loss"), _flag("slow", "+1 AP to move or attack"),
    _flag("desert_survival", "ignored by desert overcrowding"),
    _flag("ambush", "+1 attack and +2 defense in forest or ruin"),
    Column("counter", "str", "", choices=COUNTERS, help="which once-per-battle counter bonus"),
), key=("id",), title="Unit types")

TERRAINS = TableSpec("terrains", (
    Column("id", "str", required=True, unique=True),
    Column("name", "str", required=True),
    Column("letter", "str", required=True, unique=True),
    _num("food"), _num("wood"), _num("iron"), _num("move_cost", 1),
    Column("special_unit", "str", ""), _num("points"),
    _flag("buildable"), _flag("water"), _flag("deep"),
    _num("defense_bonus", lo=None), _num("cavalry_attack", lo=None), _num("cavalry_defense", lo=None),
    _num("galley_bonus", lo=None), _flag("ambush"),
    _num("stock", help="harvests before it is used up (0 = never)"),
    _num("crowd_limit", help="most units allowed before one must go (0 = no limit)"),
), key=("id",), title="Terrains")

BUILDINGS = TableSpec("buildings", (
    Column("id", "str", required=True, unique=True),
    Column("name", "str", required=True),
    _num("wood"), _num("defense_bonus"), _num("fort_point"), _num("catapult_attack"),
    _flag("links", "tiles linked to it produce"), _flag("ship_recruitment"),
    _flag("land_recruitment"), _flag("shore_only"),
), key=("id",), title="Buildings")

ACTIONS = TableSpec("actions", (
    Column("id", "str", required=True, unique=True),
    Column("name", "str", required=True),
    _num("ap", help="AP cost (move and attack: the terrain's move cost instead)"),
    Column("help", "str", ""),
), key=("id",), title="Actions and their AP")

SPECS = {"units": UNITS, "terrains": TERRAINS, "buildings": BUILDINGS, "actions": ACTIONS}


def default_catalogs() -> dict[str, Catalog]:
    return {name: Catalog.load(spec, RESOURCES / f"{name}.csv") for name, spec in SPECS.items()}


def unit_cost(u: dict[str, Any]) -> int:
    return u["food"] + u["wood"] + u["iron"]


@dataclass
class Rules:
    """Catalog rows by id, plus the name lookup the order parser uses."""

    units: dict[str, dict[str, Any]]
    terrains: dict[str, dict[str, Any]]
    buildings: dict[str, dict[str, Any]]
    actions: dict[str, dict[str, Any]]

    @classmethod
    def from_catalogs(cls, catalogs: dict[str, Catalog]) -> Rules:
        cats = catalogs if catalogs else default_catalogs()
        if any(name not in cats for name in SPECS):
            cats = {**default_catalogs(), **cats}
        return cls(cats["units"].by("id"), cats["terrains"].by("id"), cats["buildings"].by("id"),
                   cats["actions"].by("id"))

    def ap(self, action: str) -> int:
        row = self.actions.get(action)
        return int(row["ap"]) if row else 0

    def order(self, uid: str) -> int:
        """Catalog position: the tie-break wherever units are sorted."""
        return list(self.units).index(uid) if uid in self.units else len(self.units)

    def cost(self, uid: str) -> int:
        return unit_cost(self.units[uid])

    def unit_names(self) -> dict[str, str]:
        """Normalised spelling -> unit id, singular, plural and aliases."""
        out: dict[str, str] = {}
        for uid, u in self.units.items():
            words = [uid, u["name"], u["plural"], *u["aliases"].split("|")]
            for w in words:
                if w.strip():
                    out[norm_name(w)] = uid
        return out

    def terrain_of_letter(self) -> dict[str, str]:
        return {t["letter"]: tid for tid, t in self.terrains.items()}

    def label(self, uid: str, count: int = 1) -> str:
        u = self.units.get(uid)
        if u is None:
            return uid
        return u["name"] if count == 1 else (u["plural"] or u["name"])


def norm_name(word: str) -> str:
    """Lower case, no punctuation, singular: 'Men-At-Arms' -> 'man at arm'."""
    w = "".join(ch if ch.isalnum() else " " for ch in word.lower())
    parts = []
    for p in w.split():
        if p.endswith("men"):
            p = p[:-3] + "man"
        elif p.endswith("ies") and len(p) > 4:
            p = p[:-3] + "y"
        elif p.endswith("s") and len(p) > 3 and not p.endswith("ss"):
            p = p[:-1]
        parts.append(p)
    return " ".join(parts)
