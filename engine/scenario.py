"""A scenario: everything a game starts from (map, catalogs, options, factions, state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.map import GameMap
from engine.state import State
from engine.tables import Catalog, Options


@dataclass
class Faction:
    number: int
    name: str
    email: str = ""
    password: str = ""
    colour: str = "#888888"
    attrs: dict[str, Any] = field(default_factory=dict)  # ruleset extras (start gold...)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "email": self.email,
                "password": self.password, "colour": self.colour, "attrs": self.attrs}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Faction:
        return cls(int(d["number"]), d["name"], d.get("email", ""), d.get("password", ""),
                   d.get("colour", "#888888"), dict(d.get("attrs", {})))


@dataclass
class Scenario:
    ruleset: str
    name: str
    map: GameMap
    catalogs: dict[str, Catalog]
    options: Options
    factions: list[Faction]
    seed: int = 1
    initial: State | None = None  # None: the ruleset builds it from factions and map
    meta: dict[str, Any] = field(default_factory=dict)  # game code, deadline, end turn...

    def faction(self, number: int) -> Faction | None:
        for f in self.factions:
            if f.number == number:
                return f
        return None
