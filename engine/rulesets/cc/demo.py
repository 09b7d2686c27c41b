"""The Continental Conquest demo: the eight clans of maps/cc/north-america-8.toml play seven
game turns ("months") of scripted orders: buying supplies and vehicles, enlisting, moving and
capturing hexes, defending them, a second convoy created and sent trading, a custom
structure built, the Plague met with vaccine (CURE), one clan's late turn caught up in the
next month, in month 6 combat (a convoy battle and a city invaded: ATTACK), and a quiet month 7.

Each month is a block of orders (MONTHS) written once for every clan; the places in it
(`{city}`, `{hex1}`, and the moves `{m1}`...) are filled from the clan's start city and a
walk over the land next to it (`_walk`), so the block reads like a sheet and still fits every
clan's corner of the map. Month 6's combat is for a few clans only (WAR): the others hold.
"""

from __future__ import annotations

from pathlib import Path

from engine.scenario import Scenario

SCENARIO = Path(__file__).resolve().parents[3] / "maps" / "cc" / "north-america-8.toml"
DEMO_SEED = 1995  # the book's year
LATE_CLAN = 166  # sends no sheet in month 2 and both sheets in month 3 (a catch-up turn)
DIRS = ("N", "NE", "SE", "S", "SW", "NW")

HEAD = "CLAN {clan}  ACCOUNT {account}  TURN {turn}\n"
QUIET = """PRE-TURN CLAN ORDERS
 1: ENLIST 5
CONVOY #1
 1: PAUSE
POST-TURN CLAN ORDERS
 1: DEFEND {city}
"""  # a month of holding on

MONTHS: list[str] = [
    # month 1: economy and the first captures
    """PRE-TURN CLAN ORDERS
 1: BUY 300 FUEL
 2: ENLIST 30
 3: BUY 1 CAR #1
 4: BUY 100 PARTS
CONVOY #1
 1: {m1}
 2: {m2}
 3: {m3}
 4: {m4}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
 2: PHONE ON (555)010-{clan}
 3: SLOGAN "{name} rebuilds"
""",
    # month 2: a second convoy for trade, more captures, the new hexes defended
    """PRE-TURN CLAN ORDERS
 1: CREATE {city} LAND "{short} Traders"
 2: BUY 100 PARTS
 3: ENLIST 10
CONVOY #1
 1: {m5}
 2: {m6}
 3: {m7}
 4: {m8}
POST-TURN CLAN ORDERS
 1: BUY 1 VAN #2
 2: DEFEND {hex1}
 3: MESSAGE ALL "Clan {clan} trades fairly: meet us at {city}"
""",
    # month 3: trade (pick up the city's product, carry it, drop it off), building
    """PRE-TURN CLAN ORDERS
 1: BUY 200 FUEL
 2: BUY 50 PARTS
CONVOY #1
 1: {m9}
 2: {m10}
 3: {m11}
CONVOY #2
 1: PAUSE
 2: PICKUP
 3: {t1}
 4: {t2}
 5: {t3}
 6: DROPOFF
POST-TURN CLAN ORDERS
 1: BUILD {hex1} {structure}
 2: GARRISON 3 {hex2}
""",
    # month 4: consolidating: more troops, the trade convoy home, the city fortified
    """PRE-TURN CLAN ORDERS
 1: ENLIST 20
 2: BUY 100 PARTS
 3: SELL 20 FUEL
CONVOY #1
 1: {m12}
 2: PAUSE
CONVOY #2
 1: {b1}
 2: {b2}
 3: {b3}
 4: PICKUP
POST-TURN CLAN ORDERS
 1: FORTIFY {city}
 2: GARRISON 10 {city}
""",
    # month 5: the Plague (it breaks out at the end of a game turn): vaccine bought, and the
    # trade convoy at home cures the city if it has the Plague (a healthy city: no vaccine used)
    """PRE-TURN CLAN ORDERS
 1: BUY 15 VACCINE
 2: ENLIST 10
CONVOY #1
 1: PAUSE
CONVOY #2
 1: CURE
 2: PICKUP
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
    # month 6: war (WAR below gives the clans that fight their own sheets); the rest hold
    QUIET,
    # month 7: everyone holds; its reports tell of month 6's fighting ("Heard on the Radio")
    QUIET,
]

# Month 6's fighting clans. A land convoy makes five moves a turn, so the convoys #1 of
# SCOUT and RAIDER, ten moves apart after month 4, meet halfway: SCOUT's turn runs first and
# it patrols there, so RAIDER's weaker convoy, driving in after it, must fight at least a
# round (it is destroyed; the patrolling clan hears of it on the radio). INVADER buys its trade convoy a truck and a
# bus (room for 36 more troops, filled in its city) and takes the neutral city TARGET.
SCOUT, RAIDER = 144, 155
INVADER, TARGET = 133, "3343"  # Oaxaca, held by 13 troops behind an Outpost
WAR = {
    SCOUT: """PRE-TURN CLAN ORDERS
 1: BUY 200 FUEL
CONVOY #1
{scout}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
    RAIDER: """PRE-TURN CLAN ORDERS
 1: BUY 200 FUEL
 2: BUY 100 PARTS
CONVOY #1
{raid}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
    INVADER: """PRE-TURN CLAN ORDERS
 1: BUY 1 TRUCK #2
 2: BUY 1 BUS #2
 3: ENLIST 40
CONVOY #1
 1: PAUSE
CONVOY #2
 1: PAUSE
{invade}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
}

# month 7: the raider lost its convoy #1 in the battle, so its sheet has no orders for it
OWN = {6: WAR, 7: {RAIDER: """PRE-TURN CLAN ORDERS
 1: ENLIST 5
POST-TURN CLAN ORDERS
 1: DEFEND {city}
"""}}


def _walk(scen: Scenario, start: int, drivable: set[str], steps: int, avoid: set[int]) -> list[tuple[str, int]]:
    """A walk of up to `steps` moves over drivable land from `start`, each to the neighbour
    with the most unvisited drivable neighbours (spreading out), ties by direction order:
    deterministic, so the demo is the same every time."""
    grid, gmap = scen.map.grid, scen.map
    seen, here, out = set(avoid) | {start}, start, []

    def ok(c: int | None) -> bool:
        return c is not None and c not in seen and gmap.terrain_at(c) in drivable

    for _ in range(steps):
        options = []
        for i, d in enumerate(DIRS):
            n = grid.step(here, d)
            if ok(n):
                room = sum(ok(grid.step(n, d2)) for d2 in DIRS)
                options.append((-room, i, d, n))
        if not options:
            break
        _, _, d, here = min(options)
        seen.add(here)
        out.append((d, here))
    return out


def _trade_route(scen: Scenario, start: int, drivable: set[str], product: str,
                 cities: dict[int, object]) -> list[tuple[str, int]]:
    """The shortest drivable path (at most three moves) to a city that needs the start
    city's product, else three moves of a walk: DROPOFF then says why it found no buyer."""
    grid, gmap = scen.map.grid, scen.map
    paths: dict[int, list[tuple[str, int]]] = {start: []}
    frontier = [start]
    for _ in range(3):
        nxt = []
        for c in frontier:
            for d in DIRS:
                n = grid.step(c, d)
                if n is None or n in paths or gmap.terrain_at(n) not in drivable:
                    continue
                paths[n] = paths[c] + [(d, n)]
                city = cities.get(n)
                if city is not None and getattr(city, "needs", "") in (product, "anything"):
                    return paths[n]
                nxt.append(n)
        frontier = nxt
    return _walk(scen, start, drivable, 3, set())


def _path(scen: Scenario, start: int, goal: int, drivable: set[str], most: int) -> list[str]:
    """The shortest drivable path from `start` to `goal` as directions (breadth first, ties
    by direction order: deterministic); ValueError if there is none within `most` moves."""
    grid, gmap = scen.map.grid, scen.map
    paths: dict[int, list[str]] = {start: []}
    frontier = [start]
    while frontier and goal not in paths:
        nxt = []
        for c in frontier:
            for d in DIRS:
                n = grid.step(c, d)
                if n is not None and n not in paths and (n == goal or gmap.terrain_at(n) in drivable):
                    paths[n] = paths[c] + [d]
                    nxt.append(n)
        frontier = nxt
    if len(paths.get(goal, [None] * (most + 1))) > most:
        raise ValueError(f"no drivable path of at most {most} moves from {grid.label(start, 'ccrr')} "
                         f"to {grid.label(goal, 'ccrr')}")
    return paths[goal]


def _lines(moves: list[str], start: int = 1) -> str:
    return "\n".join(f" {i}: {m}" for i, m in enumerate(moves, start))


GM_NEWS = ({"game_turn": 2, "text": "Fuel convoys report bandits on the old interstates."},
           {"game_turn": 3, "text": "Traders pay well for milk and steel this month."})
BACK = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}
STRUCTURES = (("agricultural", "FARM"), ("mountains", "SHOP"), ("desert", "DERRICK"),
              ("islands", "DERRICK"), ("plains", "CAMP"), ("wilderness", "CAMP"))


def demo() -> tuple[Scenario, dict[int, dict[int, str | list[str]]]]:
    from engine import registry
    from engine.scenario_file import load_scenario

    rs = registry.get("cc")
    scen = load_scenario(SCENARIO)
    scen.name = "North America demo"
    scen.seed = DEMO_SEED  # the same demo every time (a game from the file draws a secret seed)
    scen.meta["gm_news"] = [dict(n) for n in GM_NEWS]
    state = rs.initial_state(scen)
    grid = scen.map.grid
    drivable = {t["id"] for t in scen.catalogs["terrain"] if t["drivable"] in (True, "yes")}
    cities = {c.cell: c for c in state["cities"]}
    clans = {c.number: c for c in state["clans"]}
    script: dict[int, dict[int, str | list[str]]] = {m: {} for m in range(1, len(MONTHS) + 1)}
    ends = {}  # where each clan's convoy #1 ends its walk (month 4)
    for f in scen.factions:
        city = grid.parse(str(f.attrs["city"]), "ccrr")
        ends[f.number] = ([city] + [c for _, c in _walk(scen, city, drivable, 12, set())])[-1]
    road = _path(scen, ends[SCOUT], ends[RAIDER], drivable, 10)
    half = (len(road) + 1) // 2
    home = grid.parse(str(next(f for f in scen.factions if f.number == INVADER).attrs["city"]), "ccrr")
    invade = _path(scen, home, grid.parse(TARGET, "ccrr"), drivable, 8) + ["ATTACK"]
    war = {"scout": _lines(road[:half] + ["PATROL"]), "raid": _lines([BACK[d] for d in reversed(road[half:])]),
           "invade": _lines(invade, 2)}
    for f in scen.factions:
        clan = clans[f.number]
        city = grid.parse(str(f.attrs["city"]), "ccrr")
        walk = _walk(scen, city, drivable, 12, set())
        moves = [d for d, _ in walk] + ["PAUSE"] * (12 - len(walk))
        trade = _trade_route(scen, city, drivable, cities[city].produces, cities)
        tmoves = [d for d, _ in trade] + [""] * (3 - len(trade))
        back = [BACK[d] for d, _ in reversed(trade)] + [""] * (3 - len(trade))
        hexes = [c for _, c in walk] or [city]
        built, where = next(((s, c) for t, s in STRUCTURES for c in hexes[:8]
                             if scen.map.terrain_at(c) == t), ("CAMP", hexes[0]))
        fill = {"clan": f.number, "account": clan.account, "name": f.name, "short": f.name.split()[0][:8],
                "city": grid.label(city, "ccrr"), "hex1": grid.label(where, "ccrr"),
                "hex2": grid.label(hexes[min(1, len(hexes) - 1)], "ccrr"), "structure": built,
                **{f"m{i + 1}": m for i, m in enumerate(moves)},
                **{f"t{i + 1}": m for i, m in enumerate(tmoves)},
                **{f"b{i + 1}": m for i, m in enumerate(back)}}
        for month, block in enumerate(MONTHS, 1):
            block = OWN.get(month, {}).get(f.number, block)
            text = (HEAD + block).format(turn=month, **fill, **war)
            if f.number == LATE_CLAN and month == 2:
                continue  # late: its month-2 sheet arrives with its month-3 sheet
            if f.number == LATE_CLAN and month == 3:
                script[month][f.number] = [(HEAD + MONTHS[1]).format(turn=2, **fill), text]
            else:
                script[month][f.number] = text
    script[len(MONTHS) + 1] = {}  # a week later: the late clan's last turn runs, the month ends
    return scen, script
