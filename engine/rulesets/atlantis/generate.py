"""Big generated Atlantis Conquest games, for the whole-turn benchmark and for trying the
studio on a crowded world.

`generate_game(factions, units=10, seed=1)` makes the Conquest world for that many
factions (world.conquest_map), gives every faction `units` units on its island (men,
silver, items and skills to match their orders; one a scout on the next faction's start
region, one aboard the faction's longboat, one a mage for some) and writes one month's
orders for each: CLAIM, TAX, WORK (repeated with @), ENTERTAIN, PRODUCE, STUDY, TEACH,
BUY, GIVE, FORM ... END, BUILD, DECLARE, NAME, and MOVE, ADVANCE, SAIL, ATTACK, STEAL and
CAST, the way players write them (a mail's text around `#atlantis` ... `#end`, comments).
The same arguments give the same game, byte for byte.

From the shell (docs/performance.md, "Atlantis: a whole turn"):
    python -m engine.rulesets.atlantis.generate big/ --factions 1000
writes big/game.db (turn 1 not run) and big/orders/f0001.txt ... one file a faction.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import registry
from engine.map import GameMap
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
ROLES = ("leader", "workers", "players", "smiths", "students", "teacher", "buyers", "builders",
         "travellers", "scout")
SPELL = "create staff of fire"  # a CAST spell with no target (magic level 3)


def generate_game(factions: int, units: int = 10, seed: int = 1) -> tuple[Scenario, dict[int, str]]:
    """(scenario with its starting state, {faction: orders file text}) for turn 1."""
    if units < 1:
        raise ValueError("each faction needs at least one unit")
    rs = registry.get("atlantis")
    gmap = conquest_map(factions, seed=seed)
    scen = Scenario("atlantis", f"Generated Atlantis, {factions} factions", gmap,
                    rs.default_catalogs(), rs.default_options(),
                    [Faction(n, f"Faction {n}", f"f{n}@example.org", f"pw{n}")
                     for n in range(1, factions + 1)], seed)
    state = rs.initial_state(scen)  # regions, factions, one unit each (replaced below)
    land = {r.cell for r in state["regions"]}
    island = {a.attrs["start"]: sorted(a.cells) for a in gmap.areas.values() if a.kind == "island"}
    start = {u.faction: u.cell for u in state["units"]}
    state["units"].clear()
    orders: dict[int, str] = {}
    ship = 1
    for f in range(1, factions + 1):
        base = (f - 1) * units + 1
        nxt = f % factions + 1
        cells = [start[f]] + [c for c in island[f] if c != start[f]]
        lines = [f"From: player{f}@example.org\nDate: Mon, 2 Nov 2026 10:00:00 +0000\nSubject: orders\n\n"
                 "Here are my orders.\n",
                 f'#atlantis {f} "pw{f}"']
        for i in range(units):
            n = base + i
            cell = start[nxt] if i == 9 else cells[i % len(cells)]
            men = 1 if i == 9 else 1 + i % 5  # the scout alone: only one man may STEAL
            inside = 0
            if i == 8 and f % 3 == 2:  # the sailor, aboard the faction's longboat
                state["structures"].append(st.Structure(ship, "longboat", cell, f"Boat {ship}"))
                inside, ship = ship, ship + 1
            state["units"].append(st.Unit(n, f, cell, f"Unit {n}", men=men, seq=n, structure=inside))
            for item, count in _items(i, men):
                state["unit_items"].append(st.UnitItem(n, item, count))
            for skill, months in _skills(i, f):
                state["unit_skills"].append(st.UnitSkill(n, skill, 30 * men * months))
            lines += [f"unit {n}", f"; {ROLES[i] if i < len(ROLES) else 'workers'}"]
            lines += _orders(i, f, n, base, nxt, (nxt - 1) * units + 1, cell, land, gmap)
        lines.append("#end\n-- \nsent from my phone")
        orders[f] = "\n".join(lines) + "\n"
    state["world"][0].next_unit = factions * units + 1
    state["world"][0].next_object = ship
    scen.initial = state
    return scen, orders


def _items(i: int, men: int) -> list[tuple[str, int]]:
    out = [("silver", 100 * men + 50 * i)]
    if i == 3:
        out.append(("iron", 10))
    if i == 7:
        out.append(("stone", 5))
    if i in (0, 5, 9):
        out.append(("sword", men))
    if i == 8:
        out.append(("horse", men))
    return out


def _skills(i: int, f: int) -> list[tuple[str, int]]:
    return {0: [("combat", 3)], 2: [("entertainment", 1)], 3: [("weaponsmith", 1)],
            4: [("combat", 1)], 5: [("combat", 6)], 7: [("building", 1)],
            8: [("sailing", 3), ("riding", 1)],
            9: [("stealth", 3), ("combat", 1)] + ([("magic", 6), (SPELL, 6)] if f % 3 == 2 else []),
            }.get(i, [])


def _orders(i: int, f: int, n: int, base: int, nxt: int, target: int, cell: int, land: set[int],
            gmap: GameMap) -> list[str]:
    """Unit i's orders; `nxt`: the next faction, `target`: its leader on its start region."""
    if i == 0:
        return ["CLAIM 1000", f"DECLARE {nxt} friendly", "TAX"]
    if i == 1:
        return ["@WORK"]
    if i == 2:
        return ["ENTERTAIN"]
    if i == 3:
        return ["PRODUCE swords"]
    if i == 4:
        return ["STUDY combat"]
    if i == 5:
        return [f"TEACH {base + 4}"]
    if i == 6:
        return ["BUY 5 men", f"GIVE {base + 1} 50 silver"]
    if i == 7:
        return ["FORM 1", '  NAME UNIT "Recruits"', "  BUY 2 men", "  STUDY riding", "END",
                "GIVE NEW 1 100 silver", "BUILD tower"]
    if i == 8:
        way = [d for d in DIRECTIONS if (c := gmap.grid.step(cell, d)) is not None and c in land]
        sea = [d for d in DIRECTIONS if d not in way]
        if f % 3 == 2:
            return [f"SAIL {sea[0] if sea else 'N'} {sea[0] if sea else 'N'}"]
        return [f"{'MOVE' if f % 3 == 0 else 'ADVANCE'} {way[0] if way else 'N'}"]
    if i == 9:
        return [[f"ATTACK {target}", f"STEAL {target} silver", f"CAST {SPELL}"][f % 3]]
    return ["WORK", f'NAME UNIT "Unit {n} of faction {f}"']


def main(argv: list[str] | None = None) -> int:
    from engine.service import GameService

    ap = argparse.ArgumentParser(prog="python -m engine.rulesets.atlantis.generate",
                                 description="Write a generated Atlantis game and its orders.")
    ap.add_argument("folder")
    ap.add_argument("--factions", type=int, default=100)
    ap.add_argument("--units", type=int, default=10, help="units a faction (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report-formats", choices=("all", "text"), default="all",
                    help="the game's option report_formats (text: as the Atlantis server)")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    (folder / "orders").mkdir(parents=True, exist_ok=True)
    scen, orders = generate_game(args.factions, args.units, args.seed)
    scen.options.set("report_formats", args.report_formats)
    db = folder / "game.db"
    if db.exists():
        db.unlink()
    GameService.create(str(db), scen).close()
    for f, text in orders.items():
        (folder / "orders" / f"f{f:04d}.txt").write_text(text, encoding="utf-8")
    print(f"wrote {db} and {len(orders)} orders files in {folder / 'orders'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
