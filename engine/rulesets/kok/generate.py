"""Large generated King of Kings games for benchmarks (and for trying the GUI on big maps).

`generate_game(width, height, tribes, armies, seed)` makes a square map with seas,
mountains, forests and towns, gives each tribe a connected territory grown from a seed
province, fills it with about `armies` army records, and writes realistic orders for
every tribe: placements on the frontier, DEF orders, attacks where the odds are good,
troops marched from the interior towards the frontier, and alliance offers. The same
arguments give the same game, byte for byte.

From the shell (docs/performance.md):
    python -m engine.rulesets.kok.generate big/ --size 100x100 --check-files 1000
writes big/game.db, one orders sheet a tribe in big/orders/ and 1,000 in big/check/.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from engine.map import GameMap, new_map
from engine.rulesets.kok.state import SCHEMA, Alliance, Army, Province, Tribe, World
from engine.scenario import Faction, Scenario
from engine.state import State

# shares of the map by rising height of the smoothed noise (ranked, so the shares hold)
_BANDS = (
    (0.22, "sea"), (0.27, "marsh"), (0.30, "swamps"), (0.42, "grassland"), (0.60, "plains"),
    (0.70, "cultivated"), (0.82, "forest"), (0.90, "hills"), (0.94, "steppes"),
    (0.98, "mountains"), (1.01, "desert"),
)
_TOWNS = ("town", "town", "town", "city", "city", "metropolis")
_COLOURS = ("#2b6cb0", "#c05621", "#b7791f", "#2f855a", "#6b46c1", "#c53030", "#2c7a7b",
            "#975a16", "#553c9a", "#9b2c2c", "#276749", "#2a4365", "#744210", "#702459",
            "#285e61", "#7b341e", "#22543d", "#1a365d", "#63171b", "#44337a")


def _terrain(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    noise = rng.random((height, width))
    for _ in range(4):  # box blur: neighbouring provinces get related terrain
        p = np.pad(noise, 1, mode="edge")
        noise = (p[1:-1, 1:-1] * 4 + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]) / 8
    ranks = np.argsort(np.argsort(noise, axis=None, kind="stable"), kind="stable")
    return (ranks / max(1, ranks.size - 1)).reshape(noise.shape)


def make_map(width: int, height: int, seed: int) -> GameMap:
    rng = np.random.default_rng([seed, 1])
    h = _terrain(width, height, rng).ravel()
    m = new_map("square", width, height, terrain="sea")
    m.name = f"Generated {width}x{height} (seed {seed})"
    names = np.empty(h.size, dtype=object)
    lower = 0.0
    for top, name in _BANDS:
        names[(h >= lower) & (h < top)] = name
        lower = top
    land = np.flatnonzero(names != "sea")
    towns = rng.choice(land, size=max(1, land.size // 40), replace=False) if land.size else []
    for i, c in enumerate(sorted(int(c) for c in towns)):
        names[c] = _TOWNS[i % len(_TOWNS)]
    m.set_terrain(range(h.size), [str(n) for n in names])
    return m


def _territories(m: GameMap, tribes: int, share: int, rng: np.random.Generator) -> dict[int, int]:
    """cell -> tribe: connected territories grown breadth-first from spread-out seeds."""
    grid = m.grid
    land = [c for c in range(len(grid)) if m.terrain_at(c) != "sea"]
    if not land:
        return {}
    cols = max(1, int(round((tribes * grid.width / grid.height) ** 0.5)))
    rows = -(-tribes // cols)
    seeds: list[int] = []
    taken: set[int] = set()
    landset = set(land)
    for t in range(tribes):
        r, q = divmod(t, cols)
        cx = int((q + 0.5) * grid.width / cols)
        cy = int((r + 0.5) * grid.height / rows)
        best = min(land, key=lambda c: (abs(c % grid.width - cx) + abs(c // grid.width - cy), c)
                   if c not in taken else (10**9, c))
        seeds.append(best)
        taken.add(best)
    owner = {s: t + 1 for t, s in enumerate(seeds)}
    queues = [deque([s]) for s in seeds]
    size = [1] * tribes
    grown = True
    while grown:
        grown = False
        for t in rng.permutation(tribes):
            t = int(t)
            q = queues[t]
            while q and size[t] < share:
                c = q[0]
                free = [n for n in grid.neighbours(c) if n in landset and n not in owner]
                if not free:
                    q.popleft()
                    continue
                n = free[int(rng.integers(len(free)))]
                owner[n] = t + 1
                size[t] += 1
                q.append(n)
                grown = True
                break
    return owner


def _armies(m: GameMap, owner: dict[int, int], armies: int,
            rng: np.random.Generator) -> list[Army]:
    """About `armies` records: foot soldiers in half of them, frontier provinces first,
    then bowmen, horsemen and castles added to garrisoned provinces."""
    grid = m.grid
    front = [c for c in sorted(owner)
             if any(owner.get(n, owner[c]) != owner[c] for n in grid.neighbours(c))]
    inner = [c for c in sorted(owner) if c not in set(front)]
    inner = [inner[int(i)] for i in rng.permutation(len(inner))]
    garrisons = (front + inner)[:max(1, armies // 2)]
    rows: dict[tuple[int, int, str], int] = {}
    for c in garrisons:
        rows[(c, owner[c], "F")] = int(rng.integers(1, 5))
    extra = ("B", "H", "C", "B", "H")
    tries = 0
    while len(rows) < armies and tries < armies * 4 and garrisons:
        tries += 1
        c = garrisons[int(rng.integers(len(garrisons)))]
        sym = extra[int(rng.integers(len(extra)))]
        key = (c, owner[c], sym)
        if key not in rows:
            rows[key] = 1 if sym == "C" else int(rng.integers(1, 4))
    return [Army(c, t, s, n) for (c, t, s), n in sorted(rows.items())]


def generate_game(width: int = 100, height: int = 100, tribes: int = 20, armies: int = 5000,
                  seed: int = 1) -> tuple[Scenario, dict[int, str]]:
    """A deterministic big game and one turn of orders for every tribe."""
    from engine.rulesets.kok import RULESET

    rng = np.random.default_rng([seed, 2])
    m = make_map(width, height, seed)
    land = sum(1 for c in range(len(m.grid)) if m.terrain_at(c) != "sea")
    # the tribes share out the land, so they border each other and have something to fight
    share = max(3, land // max(1, tribes))
    owner = _territories(m, tribes, share, rng)
    state = State(SCHEMA, 0)
    state.tables["world"] = [World(turn=0, end_turn=30, game="BENCH")]
    state.tables["tribes"] = [Tribe(t, f"Tribe {t}", gold=60, wood=20)
                              for t in range(1, tribes + 1)]
    state.tables["provinces"] = [Province(c, owner=t, home=t, loyal=t)
                                 for c, t in sorted(owner.items())]
    state.tables["armies"] = _armies(m, owner, armies, rng)
    state.tables["alliances"] = [Alliance(a, b, 0, 0) for a in range(1, tribes + 1)
                                 for b in range(1, tribes + 1) if a != b]
    opts = RULESET.default_options()
    opts.set("end_turn", 30)
    factions = [Faction(t, f"Tribe {t}", email=f"tribe{t}@example.org",
                        colour=_COLOURS[(t - 1) % len(_COLOURS)]) for t in range(1, tribes + 1)]
    scen = Scenario("kok", f"Benchmark {width}x{height}, {tribes} tribes", m,
                    RULESET.default_catalogs(), opts, factions, seed=seed, initial=state,
                    meta={"game": "BENCH", "end_turn": 30})
    orders = {t: _orders(scen, state, t, rng) for t in range(1, tribes + 1)}
    return scen, orders


def _orders(scen: Scenario, state: State, tribe: int, rng: np.random.Generator,
            board: Any = None) -> str:
    """One tribe's orders: what a sensible player of the rule book would write."""
    from engine.rulesets.kok.view import Board

    b = board if board is not None else Board(state, scen)
    grid = b.grid
    mine = sorted(c for c, p in b.provinces.items() if p.owner == tribe)
    hit = {s: t.initial_hit for s, t in b.rules.troops.items()}

    def strength(cell: int, who: int) -> int:
        return sum(hit.get(s, 0) * n for s, n in b.units(cell, who).items())

    frontier: list[tuple[int, int]] = []   # (own cell, enemy neighbour)
    for c in mine:
        for n in grid.neighbours(c):
            o = b.owner(n)
            if o and o != tribe:
                frontier.append((c, n))
                break
    lines = ["BEGIN", f"# generated orders of tribe {tribe}"]
    gold = b.tribes[tribe].gold
    # placements on the frontier, three to a PLA line, one land unit a province
    placed: list[str] = []
    for c, _ in frontier:
        if gold < 6 or len(placed) >= 9:
            break
        troop = "HO" if gold >= 12 and rng.random() < 0.4 else ("BO" if rng.random() < 0.5 else "FO")
        gold -= 12 if troop == "HO" else 6
        x, y = grid.xy(c)
        placed.append(f"{x} {y} {troop}")
    for i in range(0, len(placed), 3):
        lines.append("PLA " + " ".join(placed[i:i + 3]))
    # defensive tactics for the threatened provinces
    tactics = "FTUC"
    defs = [f"{grid.xy(c)[0]} {grid.xy(c)[1]} {tactics[int(rng.integers(4))]}"
            for c, _ in frontier[:6]]
    for i in range(0, len(defs), 3):
        lines.append("DEF " + " ".join(defs[i:i + 3]))
    # attacks where we are clearly stronger
    attacked = set()
    for c, n in frontier:
        if n in attacked:
            continue
        other = b.owner(n)
        if strength(c, tribe) >= 2 * strength(n, other) and strength(c, tribe) > 0:
            x, y = grid.xy(c)
            choice = "FPTUC" if b.units(c, tribe).get("H") else "FTUC"  # pincer needs horse
            lines.append(f"LAND {x} {y} {choice[int(rng.integers(len(choice)))]} AT "
                         f"{grid.direction(c, n)}")
            attacked.add(n)
    # the interior sends its foot soldiers one step towards the frontier
    front = {c for c, _ in frontier}
    moved = 0
    for c in mine:
        if c in front or moved >= 25:
            continue
        foot = b.units(c, tribe).get("F", 0)
        if foot < 2:
            continue
        steps = [n for n in grid.neighbours(c) if b.owner(n) == tribe and n in front]
        if steps:
            x, y = grid.xy(c)
            lines.append(f"LAND {x} {y} FO {foot - 1} {grid.direction(c, steps[0])}")
            moved += 1
    # friendly words to the neighbours left in peace this turn (a declaration binds at
    # once: who offers an alliance may not attack, 2.8)
    enemies = {b.owner(n) for n in attacked}
    neighbours = sorted({b.owner(n) for _, n in frontier} - enemies)
    for other in neighbours[:2]:
        lines.append(f"ALL {other} 1")
    lines.append("END")
    return "\n".join(lines) + "\n"


def orders_files(scen: Scenario, count: int, seed: int = 1) -> dict[str, str]:
    """`count` orders files for turn 1 (file name -> text), the tribes in turn, each a
    different sensible sheet: `0001-SP1.R1`, `0002-SP2.R1`... (the SP name matches them)."""
    from engine.rulesets.kok.view import Board

    rng = np.random.default_rng([seed, 3])
    board = Board(scen.initial, scen)
    tribes = [f.number for f in scen.factions]
    return {f"{i + 1:04d}-SP{tribes[i % len(tribes)]}.R1":
            _orders(scen, scen.initial, tribes[i % len(tribes)], rng, board)
            for i in range(count)}


def main(argv: list[str] | None = None) -> int:
    """Write a big game to a folder: `game.db`, `orders/` (one sheet a tribe, to import and
    run) and `check/` (many sheets, for `realmsmith check`). docs/performance.md uses it."""
    ap = argparse.ArgumentParser(prog="python -m engine.rulesets.kok.generate",
                                 description="Make a big generated King of Kings game.")
    ap.add_argument("folder", help="folder to write (created; must not hold game.db)")
    ap.add_argument("--size", default="100x100", help="WIDTHxHEIGHT (default 100x100)")
    ap.add_argument("--tribes", type=int, default=20)
    ap.add_argument("--armies", type=int, help="army records (default: one for every 2 cells)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-files", type=int, default=0, metavar="N",
                    help="also write N orders files into check/ (default none)")
    args = ap.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size {args.size!r}: write it as WIDTHxHEIGHT, e.g. 100x100")
    from engine.service import GameService

    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    armies = args.armies if args.armies is not None else w * h // 2
    scen, orders = generate_game(w, h, args.tribes, armies, args.seed)
    with GameService.create(folder / "game.db", scen):
        pass
    for sub, files in (("orders", {f"SP{t}.R1": text for t, text in orders.items()}),
                       ("check", orders_files(scen, args.check_files, args.seed))):
        if files:
            (folder / sub).mkdir(exist_ok=True)
            for name, text in files.items():
                (folder / sub / name).write_text(text, encoding="utf-8")
    print(f"{folder / 'game.db'}: {w}x{h}, {args.tribes} tribes, "
          f"{len(scen.initial['armies'])} armies; {len(orders)} sheets in {folder / 'orders'}"
          + (f", {args.check_files} in {folder / 'check'}" if args.check_files else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
