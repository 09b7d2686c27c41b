"""The Continental Conquest demo: the eight clans of maps/cc/north-america-8.toml play eight
game turns ("months") of scripted orders: buying supplies and vehicles, enlisting, moving and
capturing hexes, defending them, a second convoy created and sent trading, a custom
structure built, the Plague met with vaccine (CURE), one clan's late turn caught up in the
next month; war in months 6 and 7 (a neutral city taken and another holding, a HUNT and an
attack on another clan's city, a convoy battle heard on a third clan's radio), a quiet month 8.

Each month is a block of orders (MONTHS) written once for every clan; the places in it
(`{city}`, `{hex1}`, and the moves `{m1}`...) are filled from the clan's start city and a
walk over the land next to it (`_walk`), so the block reads like a sheet and still fits every
clan's corner of the map. The war is for a few clans only (WAR): the others hold.
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
 1: GARRISON 5 {city}
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
    # trade convoy at home cures the city if it has the Plague (a healthy city: no vaccine used);
    # the convoys #1 of the clans that march to war (MARCH below) set out
    """PRE-TURN CLAN ORDERS
 1: BUY 15 VACCINE
 2: ENLIST 10
CONVOY #1
{march}
CONVOY #2
 1: CURE
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
    # months 6 and 7: war (WAR below gives the clans that fight their own sheets); the rest hold
    QUIET,
    QUIET,
    # month 8: everyone holds; its reports tell of the fighting ("Heard on the Radio")
    QUIET,
]

# The war. A land convoy makes five moves a turn; the clans' cities are 21 hexes apart or
# more, so the convoys that fight march from month 5 on, in RECON mode (no hexes attacked on
# the way), along paths computed from where their walks end (month 4):
# - PATROL's and RAIDER's convoys #1 meet in month 7 at a hex next to LISTENER's city
#   (within its radio's reach, and neither fighter's): PATROL's turn runs first in a game
#   turn (its sequence number is lower), it arrives and patrols, and RAIDER's convoy, driving
#   in after it, must fight; LISTENER hears the battle on the radio.
# - HUNTER's convoy #1 drives to DEFENDER's city; DEFENDER creates a convoy there in month 6
#   (a new convoy is hidden until it moves) and sends its trade convoy out of the city, so
#   HUNTER's convoy enters without a fight in month 7, HUNTs the hidden convoy and ATTACKs
#   the city, whose garrison throws it back (the city turns hostile to HUNTER).
# - INVADER buys its trade convoy a truck and a bus (room for 36 more troops, filled in its
#   city) and takes the neutral city TARGET in month 6; PATROL's trade convoy, with a bus and
#   troops, ATTACKs the neutral city BASTION (150 troops behind a Fortress) and is thrown back.
PATROL, RAIDER, LISTENER = 100, 144, 155
HUNTER, DEFENDER = 177, 111
INVADER, TARGET = 133, "3343"  # Oaxaca, held by 13 troops behind an Outpost
BASTION = "1311"               # Seattle, two hexes from clan 100's Vancouver
MARCH = """PRE-TURN CLAN ORDERS
 1: BUY 200 FUEL
CONVOY #1
{march}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
"""
WAR6 = {
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
    PATROL: """PRE-TURN CLAN ORDERS
 1: BUY 1 BUS #2
 2: ENLIST 30
CONVOY #1
{march}
CONVOY #2
 1: PAUSE
{bastion}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
    RAIDER: MARCH,
    HUNTER: MARCH,
    DEFENDER: """PRE-TURN CLAN ORDERS
 1: CREATE {city} LAND "{short} Home Guard"
CONVOY #2
 1: {out}
POST-TURN CLAN ORDERS
 1: DEFEND {city}
""",
}
WAR7 = {clan: MARCH for clan in (PATROL, RAIDER, HUNTER)}  # PATROL's trade convoy stays put
# the clans with their own sheets, by month
OWN = {6: WAR6, 7: WAR7}
WAR = {**WAR6, **WAR7}  # every clan that fights


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


def _war(scen: Scenario, state, drivable: set[str], ends: dict[int, int]) -> dict:
    """Each marching clan's convoy #1 orders, by month (5, 6, 7), as sheet lines; "cells":
    the hexes of HUNTER's path. The battle hex is the one next to LISTENER's city (within the
    reach its radio has at the start) that both fighters reach in 11 to 15 moves, the least
    of the longer of their paths first (ties by hex: deterministic)."""
    from engine.rulesets.cc import costs
    from engine.rulesets.cc.catalog import Book

    grid = scen.map.grid
    home = {f.number: grid.parse(str(f.attrs["city"]), "ccrr") for f in scen.factions}
    city = next(c for c in state["cities"] if c.cell == home[LISTENER])
    reach = costs.radio_range(Book(scen.catalogs), city.fortification, False)
    dist = {c: _distances(scen, ends[c], drivable, 15) for c in (PATROL, RAIDER)}
    spots = sorted((max(dist[PATROL][x], dist[RAIDER][x]), dist[PATROL][x] + dist[RAIDER][x], x)
                   for x in set(dist[PATROL]) & set(dist[RAIDER])
                   if grid.distance(x, home[LISTENER]) <= reach
                   and min(dist[PATROL][x], dist[RAIDER][x]) >= 11)
    if not spots:
        raise ValueError(f"no hex within {reach} of clan {LISTENER}'s city that the convoys of "
                         f"clans {PATROL} and {RAIDER} both reach in 11 to 15 moves")
    battle = spots[0][2]
    out: dict = {}
    for clan, goal, last in ((PATROL, battle, ["PATROL"]), (RAIDER, battle, []),
                             (HUNTER, home[DEFENDER], ["HUNT", "ATTACK"])):
        road = _path(scen, ends[clan], goal, drivable, 15)
        if len(road) < 11:
            raise ValueError(f"clan {clan}'s convoy would reach {grid.label(goal, 'ccrr')} before month 7")
        out[clan] = {5: _lines(["RECON"] + road[:5]).split("\n"), 6: _lines(road[5:10]).split("\n"),
                     7: _lines(road[10:] + last).split("\n")}
    cells, c = [], ends[HUNTER]
    for d in _path(scen, ends[HUNTER], home[DEFENDER], drivable, 15):
        c = grid.step(c, d)
        cells.append(c)
    out["cells"] = cells
    return out


def _distances(scen: Scenario, start: int, drivable: set[str], most: int) -> dict[int, int]:
    """Moves from `start` to every drivable hex within `most` moves (breadth first)."""
    grid, gmap = scen.map.grid, scen.map
    dist, frontier = {start: 0}, [start]
    for k in range(1, most + 1):
        nxt = []
        for c in frontier:
            for d in DIRS:
                n = grid.step(c, d)
                if n is not None and n not in dist and gmap.terrain_at(n) in drivable:
                    dist[n] = k
                    nxt.append(n)
        frontier = nxt
    return dist


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
    marches = _war(scen, state, drivable, ends)
    home = grid.parse(str(next(f for f in scen.factions if f.number == INVADER).attrs["city"]), "ccrr")
    invade = _path(scen, home, grid.parse(TARGET, "ccrr"), drivable, 8) + ["ATTACK"]
    home = grid.parse(str(next(f for f in scen.factions if f.number == PATROL).attrs["city"]), "ccrr")
    bastion = _path(scen, home, grid.parse(BASTION, "ccrr"), drivable, 5) + ["ATTACK"]
    war = {"invade": _lines(invade, 2), "bastion": _lines(bastion, 2)}
    avoid = set(marches.get("cells", ()))  # DEFENDER's trade convoy leaves its city off HUNTER's path
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
                **{f"b{i + 1}": m for i, m in enumerate(back)},
                "out": next((d for d in DIRS if (n := grid.step(city, d)) is not None
                             and scen.map.terrain_at(n) in drivable and n not in avoid), "PAUSE")}
        for month, block in enumerate(MONTHS, 1):
            block = OWN.get(month, {}).get(f.number, block)
            march = marches.get(f.number, {}).get(month, [" 1: PAUSE"])
            text = (HEAD + block).format(turn=month, **fill, **war, march="\n".join(march))
            if f.number == LATE_CLAN and month == 2:
                continue  # late: its month-2 sheet arrives with its month-3 sheet
            if f.number == LATE_CLAN and month == 3:
                script[month][f.number] = [(HEAD + MONTHS[1]).format(turn=2, **fill), text]
            else:
                script[month][f.number] = text
    script[len(MONTHS) + 1] = {}  # a week later: the late clan's last turn runs, the month ends
    return scen, script
