"""The Atlantis Conquest world: the generated layout, region names, and the state a game
starts from.

The map is engine.mapgen's "atlantis" style (engine/mapgen/conquest.py, written once, for
the map editor too): one 8-region island per faction a few regions' sail from a large
central island, ocean between; up to 11 factions on one ring around it, more in rows
between bands of the central island's land. Here it is sized for the number of factions
and turned into regions with the terrain catalog's economy, one one-man unit per faction
on its island's plain, and the book's 5,000 silver unclaimed. PROFILE dresses the other
map styles (continents, islands) in the book's five terrains.
"""

from __future__ import annotations

from typing import Any

from engine.map import GameMap
from engine.mapgen import atlantis_size, generate
from engine.mapgen.profile import MapProfile
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.catalog import products
from engine.scenario import Scenario
from engine.state import State

PROFILE = MapProfile(palette=("ocean", "plain", "forest", "mountain", "swamp"),
                     rename={"plains": "plain", "desert": "plain", "tundra": "plain",
                             "hills": "mountain", "mountains": "mountain", "jungle": "forest"})
DIRECTION_NAMES = {"N": "North", "NE": "Northeast", "SE": "Southeast", "S": "South",
                   "SW": "Southwest", "NW": "Northwest"}


def conquest_map(factions: int, seed: int | str = 1, **params: Any) -> GameMap:
    """The book's Conquest layout for 1 to 1,000 factions, the same for the same seed; every
    starting island has the same land (mapgen.ATLANTIS_ISLAND unless `island_terrains`)."""
    if not 1 <= factions <= 1000:
        raise ValueError(f"an Atlantis Conquest world holds 1 to 1,000 factions, not {factions}")
    width, height = atlantis_size(factions, params.get("gap", 4))
    return generate("atlantis", width, height, seed, players=factions, **params)


def area_name(gmap: GameMap, cell: int, ocean_name: str = "Atlantis Ocean") -> str:
    """The named area a region belongs to (oceans outside any area: the ocean's name)."""
    area = gmap.area_of(cell)
    return area.name if area is not None else ocean_name


def region_title(gmap: GameMap, cell: int, ocean_name: str = "Atlantis Ocean") -> str:
    """`plain in Turia (11,15)`: terrain, area and Atlantis coordinates, as the book writes."""
    x, y = gmap.grid.atlantis(cell)
    return f"{gmap.terrain_at(cell)} in {area_name(gmap, cell, ocean_name)} ({x},{y})"


def start_cell(scenario: Scenario, number: int) -> int | None:
    """A faction's starting region: its `start` attribute (a cell label), else the map's
    start site for it (attrs player=N or faction=N)."""
    f = scenario.faction(number)
    board = scenario.map.board()
    if f is not None and f.attrs.get("start") not in (None, ""):
        return board.parse(str(f.attrs["start"]))
    for site in sorted(scenario.map.sites.values(), key=lambda s: s.id):
        if site.kind == "start" and number in (site.attrs.get("player"), site.attrs.get("faction")):
            return site.cell
    return None


def initial_state(schema: dict[str, type], scenario: Scenario) -> State:
    """Step 0: the scenario's own state if it has one, else regions from the map and one
    unit per faction."""
    if scenario.initial is not None:
        return scenario.initial.copy()
    gmap, opts = scenario.map, scenario.options
    terrains = scenario.catalogs["terrains"].by("name")
    state = State(schema, 0)
    for cell in range(len(gmap.grid)):
        name = gmap.terrain_at(cell)
        row = terrains.get(name)
        if row is None:
            raise ValueError(f"region {gmap.grid.label(cell)} is {name!r}, not a terrain of "
                             f"the catalog ({', '.join(terrains)})")
        if row["ocean"]:
            continue
        state["regions"].append(st.Region(
            cell, name, row["peasants"], row["silver"], row["wages"], row["entertainment"],
            row["recruits"], row["recruit_price"]))
        state["products"].extend(st.Product(cell, item, amount) for item, amount in products(row))
    next_unit = 1
    for f in sorted(scenario.factions, key=lambda f: f.number):
        cell = start_cell(scenario, f.number)
        if cell is None:
            raise ValueError(f"faction {f.number} ({f.name}) has no starting region: place a "
                             "start site for it or set its start")
        if terrains.get(gmap.terrain_at(cell), {}).get("ocean"):
            raise ValueError(f"faction {f.number} ({f.name}) starts at sea, "
                             f"{gmap.grid.label(cell)}")
        state["factions"].append(st.Faction(f.number, f.name, f.email, f.password,
                                            unclaimed=int(opts["start_silver"])))
        # unit numbers are handed out in faction order, so they are known before turn 1
        state["units"].append(st.Unit(next_unit, f.number, cell, "Unit", men=1, seq=next_unit))
        next_unit += 1
    state["world"].append(st.World(0, next_unit, 1, max((f.number for f in scenario.factions),
                                                        default=0) + 1))
    return state
