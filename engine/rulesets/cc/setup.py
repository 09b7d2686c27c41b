"""Setting up a Continental Conquest game: hexes, roads, cities, clans and their start convoys.

What the book says about the start `[GAME OBJECTIVES]`, `[POPULATION]`, `[FORTIFICATIONS]`,
`[DEFENSE LEVELS]`, `[SPECIAL STRUCTURES]`, `[CREATING CONVOYS]`, `[PLAYER SEQUENCING]`,
`[ACCOUNTING]`: each clan holds one city (50,000-60,000 people, a Station, never major) and
its hex, and one small convoy (land; sea on an island start); starts are widely spaced; hexes
start at defence 1-5 with bonuses for some terrains and rivers; 15-20% of hexes hold a special
structure (never barren, water or city hexes; fisheries only in water); every clan has an
account number (its password) and a hidden sequence number from about 1,000.

Every roll comes from the scenario's seed through `Dice(seed, "cc-setup", ...)`, one
sub-stream per hex, city and clan, so editing one hex of the map does not reshuffle the rest.
Numbers the book leaves open are options marked "not in the book" (options.py).
"""

from __future__ import annotations

from collections import deque

from engine.dice import Dice
from engine.map import GameMap
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.state import SCHEMA, City, Clan, Convoy, Hex, Price, Road, Vehicle, World
from engine.scenario import Faction, Scenario
from engine.state import State

START_KEY = "city"      # Faction.attrs["city"]: the CCRR hex of the clan's start city
MAX_CLAN_NUMBER = 999   # clan numbers are 1-3 digits, hexes 4 (MESSAGE 122 vs MESSAGE 0825)


def city_sites(gmap: GameMap) -> dict[int, object]:
    """cell -> the city site there (the first by id if a GM put two on one hex)."""
    out: dict[int, object] = {}
    for s in sorted(gmap.sites.values(), key=lambda s: s.id):
        if s.kind == "city":
            out.setdefault(s.cell, s)
    return out


def land_masses(gmap: GameMap, book: Book) -> dict[int, int]:
    """cell -> size of its land mass (ownable hexes joined by adjacency)."""
    land = {c for c in gmap.grid.cells()
            if book.terrain.get(gmap.terrain_at(c), {}).get("ownable")}
    size: dict[int, int] = {}
    for start in sorted(land):
        if start in size:
            continue
        seen, todo = {start}, deque([start])
        while todo:
            c = todo.popleft()
            for n in gmap.grid.neighbours(c):
                if n in land and n not in seen:
                    seen.add(n)
                    todo.append(n)
        for c in seen:
            size[c] = len(seen)
    return size


def start_cell(scenario: Scenario, faction: Faction) -> int | None:
    raw = faction.attrs.get(START_KEY)
    if raw is None or raw == "" or isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if 0 <= raw < len(scenario.map.grid) else None
    try:
        return scenario.map.grid.parse(str(raw).strip(), "ccrr")
    except (ValueError, TypeError, IndexError):
        return None


def assign_starts(scenario: Scenario) -> dict[int, str]:
    """Give every faction without a start city one, widely spaced, as the book's GM does:
    non-major cities on the largest land mass, each as far as possible from those already
    taken (the first one drawn with the scenario's seed). Writes Faction.attrs["city"] and
    returns {faction: hex label} for the ones it placed."""
    gmap, book = scenario.map, Book(scenario.catalogs)
    masses = land_masses(gmap, book)
    biggest = max(masses.values(), default=0)
    sites = city_sites(gmap)
    taken = [c for f in scenario.factions if (c := start_cell(scenario, f)) is not None]
    free = sorted(c for c, s in sites.items()
                  if not s.attrs.get("major") and masses.get(c) == biggest and c not in taken)
    dice = Dice(scenario.seed, "cc-setup", "starts")
    placed: dict[int, str] = {}
    for f in sorted(scenario.factions, key=lambda f: f.number):
        if f.attrs.get(START_KEY) not in (None, "") or not free:
            continue  # a start written, even a wrong one, is the GM's to mend (validate says)
        if taken:
            far = max(min(gmap.grid.distance(c, t) for t in taken) for c in free)
            best = [c for c in free if min(gmap.grid.distance(c, t) for t in taken) == far]
            cell = best[0]
        else:
            cell = dice.choice(free, "first start")
        free.remove(cell)
        taken.append(cell)
        label = gmap.grid.label(cell, "ccrr")
        f.attrs[START_KEY] = label
        placed[f.number] = label
    return placed


def setup_problems(scenario: Scenario) -> list[tuple[str, str, int | None]]:
    """(severity, message, faction) for everything that stops or spoils a game's start."""
    out: list[tuple[str, str, int | None]] = []
    gmap = scenario.map
    if gmap.kind != "hex":
        return [("error", f"Continental Conquest is played on a hex map; this map is {gmap.kind}", None)]
    book = Book(scenario.catalogs)
    sites = city_sites(gmap)
    masses = land_masses(gmap, book)
    small = int(scenario.options.island_land_hexes)
    seen: dict[int, int] = {}
    for f in sorted(scenario.factions, key=lambda f: f.number):
        who = f"clan {f.number} ({f.name})"
        if not 1 <= f.number <= MAX_CLAN_NUMBER:
            out.append(("error", f"{who}: clan numbers run from 1 to {MAX_CLAN_NUMBER} (hexes are "
                                 "four digits, clan numbers fewer)", f.number))
        if not f.password:
            out.append(("warning", f"{who} has no account number (password); one is drawn at "
                                   "the start and printed on its orders sheet", f.number))
        elif any(ch.isspace() for ch in f.password):
            out.append(("error", f"{who}: the account number {f.password!r} has a space in it",
                        f.number))
        cell = start_cell(scenario, f)
        if cell is None:
            raw = f.attrs.get(START_KEY)
            out.append(("error", f"{who} has no start city" if raw in (None, "") else
                        f"{who}: start {raw!r} is no hex of this map (write CCRR, e.g. 0825)",
                        f.number))
            continue
        label = gmap.grid.label(cell, "ccrr")
        site = sites.get(cell)
        if site is None:
            out.append(("error", f"{who}: start hex {label} has no city", f.number))
            continue
        if site.attrs.get("major"):
            out.append(("error", f"{who}: {site.name} ({label}) is a major city; the book never "
                                 "starts a clan in one", f.number))
        if cell in seen:
            out.append(("error", f"clans {seen[cell]} and {f.number} both start in {site.name} "
                                 f"({label})", f.number))
        seen.setdefault(cell, f.number)
        if masses.get(cell, 0) < small and not _coastal(gmap, book, cell):
            out.append(("error", f"{who}: {site.name} ({label}) is on an island without a coast "
                                 "for its sea convoy", f.number))
    return out


def _coastal(gmap: GameMap, book: Book, cell: int) -> bool:
    return any(book.terrain.get(gmap.terrain_at(n), {}).get("navigable")
               for n in gmap.grid.neighbours(cell))


def _roll(dice: Dice, lo: int, hi: int, why: str) -> int:
    return lo if hi <= lo else lo + dice.d(hi - lo + 1, why) - 1


def initial_state(scenario: Scenario) -> State:
    """The state before game turn 1 (the scenario's `initial` when it has one)."""
    errors = [m for sev, m, _ in setup_problems(scenario) if sev == "error"]
    if scenario.initial is not None:
        return scenario.initial.copy()
    if errors:
        raise ValueError("; ".join(errors))
    book, gmap = Book(scenario.catalogs), scenario.map
    state = State(SCHEMA, 0)
    state["world"].append(World(game_turn=1))
    factions = sorted(scenario.factions, key=lambda f: f.number)
    starts = {f.number: start_cell(scenario, f) for f in factions}
    owner_of = {c: n for n, c in starts.items()}
    _hexes(state, scenario, book, owner_of)
    for a, b in sorted(gmap.links.get("road", ())):
        state["roads"].append(Road(a, b, 0))
    _cities(state, scenario, book, owner_of)
    _clans(state, scenario, book, factions, starts)
    for s in scenario.catalogs["supplies"]:
        state["prices"].append(Price(s["id"], s["price"]))
    for g in scenario.catalogs["goods"]:
        state["prices"].append(Price(g["id"], g["price"]))
    return state


def _hexes(state: State, scenario: Scenario, book: Book, owner_of: dict[int, int]) -> None:
    gmap, opts = scenario.map, scenario.options
    roads = {c for link in gmap.links.get("road", ()) for c in link}
    rivers = {c for link in gmap.links.get("river", ()) for c in link}
    cities = city_sites(gmap)
    land_codes = sorted(s["code"] for s in scenario.catalogs["special_structures"] if s["where"] == "land")
    water_codes = sorted(s["code"] for s in scenario.catalogs["special_structures"] if s["where"] == "water")
    pct = int(opts.special_structure_pct)
    road, river = book.links.get("road", {}), book.links.get("river", {})
    for cell in gmap.grid.cells():
        tid = gmap.terrain_at(cell)
        t = book.terrain.get(tid)
        if t is None:
            continue
        dice = Dice(scenario.seed, "cc-setup", "hex", cell)
        if not t["ownable"]:  # water: only a fishery makes it worth a row
            if (water_codes and tid == "water" and not _inland(gmap, book, cell)
                    and dice.chance(pct, "fishery")):
                state["hexes"].append(Hex(cell=cell, defense=0, special=dice.choice(water_codes)))
            continue
        h = Hex(cell=cell, owner=owner_of.get(cell, 0))
        roll_production(h, t, dice, road if cell in roads else None, river if cell in rivers else None)
        bonus = t["defense_bonus"]
        if cell in roads and road:
            bonus += road["defense_bonus"]
        if cell in rivers and river:
            bonus += river["defense_bonus"]
        lo, hi = int(opts.hex_defense_start_min), int(opts.hex_defense_start_max)
        h.defense = min(max(book.hex_defense), _roll(dice, lo, hi, "defence") + bonus)
        if land_codes and tid != "barren" and cell not in cities and dice.chance(pct, "special"):
            h.special = dice.choice(land_codes, "which special")
        state["hexes"].append(h)


def roll_production(h: Hex, terrain: dict, dice: Dice, road: dict | None, river: dict | None) -> None:
    """A hex's production from its terrain's ranges, a road's parts and a river's food (at
    set-up, and each game turn with option `hex_production` = reroll)."""
    for what in ("money", "food", "fuel", "parts", "vaccine"):
        setattr(h, "value" if what == "money" else what,
                _roll(dice, terrain[f"{what}_min"], terrain[f"{what}_max"], what))
    if road:
        h.parts += _roll(dice, road["parts_min"], road["parts_max"], "road parts")
    if river:
        h.food += _roll(dice, river["food_min"], river["food_max"], "river food")


def _inland(gmap: GameMap, book: Book, cell: int) -> bool:
    """Open water with no land beside it: no fisheries out there (they serve coastal fleets)."""
    return all(not book.terrain.get(gmap.terrain_at(n), {}).get("ownable")
               for n in gmap.grid.neighbours(cell))


def _cities(state: State, scenario: Scenario, book: Book, owner_of: dict[int, int]) -> None:
    opts = scenario.options
    goods = sorted(g["id"] for g in scenario.catalogs["goods"])
    experts = sorted(e["code"] for e in scenario.catalogs["experts"])
    lo_pct, hi_pct = int(opts.neutral_garrison_min_pct), int(opts.neutral_garrison_max_pct)
    for cell, site in sorted(city_sites(scenario.map).items()):
        a, dice = site.attrs, Dice(scenario.seed, "cc-setup", "city", cell)
        major = bool(a.get("major"))
        pop = int(a.get("population") or book.population["major" if major else "minor"]["usual_start"])
        # generated maps give population and major only: the rest is drawn here
        value = int(a.get("value") or pop // 2)      # the book's sample cities are worth about half their people
        fort = int(a.get("fortification") or (5 if major else _roll(dice, 1, 2, "fortification")))
        produces = str(a.get("produces") or dice.choice(goods, "produces"))
        needs = str(a.get("needs") or dice.choice([g for g in goods if g != produces], "needs"))
        guild = a.get("guild")
        if guild is None:
            guild = "" if dice.chance(33, "no guild") else dice.choice(experts, "guild")
        c = City(cell=cell, name=site.name, major=major, value=value, population=pop,
                 fortification=fort, produces=produces, needs=needs, guild=str(guild))
        owner = owner_of.get(cell, 0)
        if owner:
            c.owner = owner
            c.population = _roll(dice, int(opts.start_population_min), int(opts.start_population_max),
                                 "start population")
            c.value = round(value * c.population / pop) if pop else value  # reading X61
            c.fortification = int(opts.start_fortification)
            c.troops = min(int(opts.start_city_troops), _capacity(book, c.fortification))
        else:
            c.troops = _capacity(book, fort) * _roll(dice, lo_pct, hi_pct, "garrison") // 100
        state["cities"].append(c)


def _capacity(book: Book, level: int) -> int:
    row = book.fortifications.get(level)
    return int(row["capacity"]) if row else 0


def _clans(state: State, scenario: Scenario, book: Book, factions: list[Faction],
           starts: dict[int, int | None]) -> None:
    opts, gmap = scenario.options, scenario.map
    masses = land_masses(gmap, book)
    dice = Dice(scenario.seed, "cc-setup", "clans")
    base = int(opts.sequence_min)
    pool = list(range(base, base + max(1000, 10 * len(factions))))
    sequences = dice.shuffle(pool, "sequence")[:len(factions)]
    for i, f in enumerate(factions):
        fd = dice.sub(f.number)
        account = f.password or str(99_999 + fd.d(900_000, "account"))
        clan = Clan(number=f.number, name=f.name, player=str(f.attrs.get("player", "")),
                    address=f.email, account=account, sequence=sequences[i],
                    money=int(opts.start_money), food_tenths=10 * int(opts.start_food),
                    fuel=int(opts.start_fuel), parts=int(opts.start_parts),
                    vaccine=int(opts.start_vaccine), troops=int(opts.start_troops),
                    popularity=int(opts.start_popularity))
        state["clans"].append(clan)
        cell = starts[f.number]
        if cell is None:
            continue
        island = masses.get(cell, 0) < int(opts.island_land_hexes)
        kind = "sea" if island and "sea" in book.convoy_types else "land"
        convoy = Convoy(id=i + 1, owner=f.number, number=1, type=kind, cell=cell, hidden=True)
        fleet: dict[str, int] = {}
        for part in filter(None, book.convoy_types[kind]["start_vehicles"].split("|")):
            vid, _, n = part.partition(":")
            fleet[vid] = fleet.get(vid, 0) + int(n or 1)
        for vid, n in fleet.items():
            state["vehicles"].append(Vehicle(convoy.id, vid, n))
        # the start convoy stands in its own city: it has picked up what troops it can carry
        convoy.troops = min(clan.troops, cs.troop_capacity(book, fleet))
        clan.troops -= convoy.troops
        state["convoys"].append(convoy)
