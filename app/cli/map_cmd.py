"""`realmsmith map ...`: new, generate, convert, export and info for map files and game maps.

MAP arguments are map files in any format engine.mapio reads (.rsmap, .rsmap.gz, .tmj, .tmx,
.geojson) or a game database (its scenario map). Nothing here imports Qt at import time;
only `--png` loads app.render inside the handler.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli import EXIT_OK, EXIT_OPEN, EXIT_USAGE, CliError

if TYPE_CHECKING:  # engine.map imports numpy: not at start-up (docs/performance.md)
    from engine.map import GameMap

SQLITE_MAGIC = b"SQLite format 3\x00"
MAX_SIDE = 2000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="create, generate, convert, export and inspect maps",
                       description="Map files: .rsmap (native), .rsmap.gz, Tiled .tmj/.tmx, .geojson; "
                                   "export also .svg and .png. MAP may be a game database too.")
    p.set_defaults(func=lambda args: _usage(p))
    ms = p.add_subparsers(dest="map_command", metavar="ACTION")

    q = ms.add_parser("new", help="a blank map")
    q.add_argument("out", metavar="OUT")
    q.add_argument("--kind", choices=("hex", "square", "regions"), default="hex")
    q.add_argument("--size", required=True, help="WIDTHxHEIGHT in cells, e.g. 60x40")
    q.add_argument("--orientation", choices=("flat", "pointy"), default="flat", help="hex maps only")
    q.add_argument("--terrain", default="plains", help="terrain of every cell (default plains)")
    q.add_argument("--name", default="")
    q.set_defaults(func=cmd_new)

    q = ms.add_parser("generate", help="a generated map (continents, islands, atlantis)")
    q.add_argument("out", metavar="OUT")
    q.add_argument("--kind", choices=("hex", "square", "regions"), default="hex")
    q.add_argument("--size", required=True, help="WIDTHxHEIGHT in cells; atlantis: or 'auto', "
                                                 "the smallest map for --players")
    q.add_argument("--seed", default="1", help="same seed, same map (default 1)")
    q.add_argument("--style", choices=("continents", "islands", "atlantis"), default="continents")
    q.add_argument("--orientation", choices=("flat", "pointy"), default="flat")
    q.add_argument("--ruleset", choices=("generic", "kok", "atlantis", "cc"), default="generic",
                   help="terrain names: generic, kok (King of Kings), atlantis or cc (Continental Conquest)")
    q.add_argument("--sea-level", type=float, help="fraction of water, e.g. 0.6")
    q.add_argument("--players", type=int, help="atlantis: starting islands (default 8)")
    q.add_argument("--cities", type=int, help="number of cities")
    q.add_argument("--rivers", type=int, help="number of rivers")
    q.add_argument("--name", default="")
    q.set_defaults(func=cmd_generate)

    q = ms.add_parser("convert", help="any supported format to any other")
    q.add_argument("src", metavar="IN")
    q.add_argument("out", metavar="OUT")
    q.add_argument("--to", help="output format when the extension does not say "
                                "(rsmap, tmj, tmx, geojson, svg)")
    q.set_defaults(func=cmd_convert)

    q = ms.add_parser("export", help="export a map as PNG, SVG, GeoJSON or Tiled files")
    q.add_argument("map", metavar="MAP")
    q.add_argument("--png", metavar="OUT.png")
    q.add_argument("--scale", type=float, default=8.0, help="PNG pixels per map unit (default 8)")
    q.add_argument("--turn", type=int, metavar="N",
                   help="game database: the political map of turn N (default: the latest)")
    q.add_argument("--width", type=int, default=1600, metavar="PX",
                   help="game database: width of the political map PNG (default 1600)")
    q.add_argument("--terrain-only", action="store_true",
                   help="game database: the bare map (terrain, sites) instead of the turn's "
                        "political map")
    q.add_argument("--svg", metavar="OUT.svg")
    q.add_argument("--grid", action="store_true", help="SVG: draw cell outlines")
    q.add_argument("--coords", action="store_true", help="SVG: write each cell's coordinate")
    q.add_argument("--geojson", metavar="OUT.json")
    cells = q.add_mutually_exclusive_group()
    cells.add_argument("--per-cell", action="store_true", help="GeoJSON: one polygon per cell")
    cells.add_argument("--merged", action="store_true", help="GeoJSON: one (multi)polygon per terrain")
    q.add_argument("--tmj", metavar="OUT.tmj")
    q.add_argument("--tmx", metavar="OUT.tmx")
    q.add_argument("--layer-format", choices=("csv", "base64", "zlib", "gzip"), default="csv",
                   help="Tiled tile layer encoding (default csv)")
    q.add_argument("--no-tileset-image", action="store_true",
                   help="Tiled: do not write the <name>.terrain.png swatch image")
    q.set_defaults(func=cmd_export)

    q = ms.add_parser("info", help="size, terrain counts, areas and sites of a map")
    q.add_argument("map", metavar="MAP")
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.set_defaults(func=cmd_info)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return EXIT_USAGE


# ---- reading and writing --------------------------------------------------------------------

def parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().replace("*", "x").partition("x")
    try:
        width, height = int(w), int(h)
    except ValueError:
        raise CliError(f"--size {text!r}: write WIDTHxHEIGHT, e.g. 60x40", EXIT_USAGE) from None
    if not sep or not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise CliError(f"--size {text!r}: width and height are 1 to {MAX_SIDE}", EXIT_USAGE)
    return width, height


def is_game_db(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def load_any(path: str | Path) -> GameMap:
    """A map file in any format, or the scenario map of a game database."""
    from engine.mapio import MapFileError, import_map

    p = Path(path)
    if is_game_db(p):
        try:
            from engine.service import GameService
        except ImportError as e:
            raise CliError(f"{p}: is a game database, but the game service is missing ({e})", EXIT_OPEN) from None
        try:
            svc = GameService.open(p)
        except Exception as e:  # the service's own errors name the problem
            raise CliError(f"{p}: cannot open the game ({e})", EXIT_OPEN) from None
        try:
            return svc.scenario.map
        finally:
            svc.close()
    try:
        return import_map(p)
    except MapFileError as e:
        raise CliError(str(e)) from None


def save_any(m: GameMap, out: str | Path, fmt: str | None = None, **options: Any) -> Path:
    from engine.mapio import MapFileError, export_map

    p = Path(out)
    if p.suffix.lower() == ".png" and fmt is None:
        return export_png(m, p, 8.0)
    if is_game_db(p):
        from engine.service import GameService

        svc = GameService.open(p)
        try:
            svc.save_map(m)
        finally:
            svc.close()
        return p
    if p.suffix.lower() == ".db":
        raise CliError(f"{p}: not a game database; create the game first (realmsmith game new)")
    if p.parent and not p.parent.exists():
        raise CliError(f"{p}: folder {p.parent} does not exist")
    try:
        return export_map(m, p, fmt, **options)
    except MapFileError as e:
        raise CliError(str(e)) from None


def export_png(m: GameMap, path: Path, scale: float) -> Path:
    try:
        from app.render import export_png as render_png
    except ImportError as e:
        raise CliError(f"{path}: PNG export needs the Qt renderer (app.render), which did not load: {e}") from None
    render_png(m, path, scale=scale, tile=4096)
    return path


def export_political(game: Path, out: Path, turn: int | None, width: int) -> Path:
    """A game's political map of one turn (owners, troops, names, legend) as a PNG."""
    from engine.service import GameService

    if not 200 <= width <= 8000:
        raise CliError(f"--width {width}: give 200 to 8000 pixels", EXIT_USAGE)
    if out.parent and not out.parent.exists():
        raise CliError(f"{out}: folder {out.parent} does not exist")
    try:
        from app.render import export_political_png
    except ImportError as e:
        raise CliError(f"{out}: PNG export needs the Qt renderer (app.render), which did not load: {e}") from None
    svc = GameService.open(game)
    try:
        if turn is not None and not 0 <= turn <= svc.current_step:
            raise CliError(f"--turn {turn}: {game} has turns 0 to {svc.current_step}", EXIT_USAGE)
        return export_political_png(svc, out, turn, width)
    finally:
        svc.close()


# ---- commands -----------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> int:
    from engine.map import new_map

    w, h = parse_size(args.size)
    opts = {"orientation": args.orientation} if args.kind == "hex" else {}
    m = new_map(args.kind, w, h, args.terrain, **opts)
    m.name = args.name
    out = save_any(m, args.out)
    print(f"{out}: new {args.kind} map {w}x{h}")
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    from engine.mapgen import atlantis_size, generate

    if args.size == "auto":
        if args.style != "atlantis":
            raise CliError("--size auto is for --style atlantis; give WIDTHxHEIGHT", EXIT_USAGE)
        w, h = atlantis_size(args.players or 8)
    else:
        w, h = parse_size(args.size)
    params: dict[str, Any] = {"style": args.style}
    if args.kind == "hex" and args.style != "atlantis":
        params["orientation"] = args.orientation
    if args.ruleset != "generic":
        params["ruleset"] = args.ruleset
    for key in ("sea_level", "players", "cities", "rivers", "name"):
        v = getattr(args, key)
        if v not in (None, ""):
            params[key] = v
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    try:
        m = generate(args.kind, w, h, seed, **params)
    except ValueError as e:
        raise CliError(f"{args.out}: {e}") from None
    out = save_any(m, args.out)
    counts = Counter(m.terrain_names())
    print(f"{out}: {args.style} {m.kind} map {w}x{h}, seed {seed}; "
          + ", ".join(f"{t} {n}" for t, n in counts.most_common(5))
          + f"; {len(m.sites)} sites, {len(m.areas)} areas")
    return EXIT_OK


def cmd_convert(args: argparse.Namespace) -> int:
    src, out = Path(args.src), Path(args.out)
    if src.resolve() == out.resolve():
        raise CliError(f"{out}: input and output are the same file", EXIT_USAGE)
    m = load_any(src)
    save_any(m, out, args.to)
    print(f"{src} -> {out}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    targets = [(k, getattr(args, k)) for k in ("svg", "geojson", "tmj", "tmx", "png") if getattr(args, k)]
    if not targets:
        raise CliError("map export: name at least one of --png, --svg, --geojson, --tmj, --tmx", EXIT_USAGE)
    m = load_any(args.map)
    for kind, out in targets:
        if kind == "png" and is_game_db(Path(args.map)) and not args.terrain_only:
            export_political(Path(args.map), Path(out), args.turn, args.width)
        elif kind == "png":
            export_png(m, Path(out), args.scale)
        elif kind == "svg":
            save_any(m, out, "svg", grid=args.grid, coords=args.coords)
        elif kind == "geojson":
            per_cell = True if args.per_cell else False if args.merged else None
            save_any(m, out, "geojson", per_cell=per_cell)
        else:
            save_any(m, out, kind, layer_format=args.layer_format,
                     tileset_image=not args.no_tileset_image)
        print(f"{args.map} -> {out}")
    return EXIT_OK


def map_summary(m: GameMap) -> dict[str, Any]:
    g = m.grid
    counts = Counter(m.terrain_names())
    return {
        "name": m.name, "kind": m.kind, "width": g.width, "height": g.height, "cells": len(g),
        "orientation": getattr(g, "orientation", None),
        "terrain": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "links": {k: len(v) for k, v in sorted(m.links.items())},
        "areas": [{"name": a.name, "kind": a.kind, "cells": len(a.cells)}
                  for a in sorted(m.areas.values(), key=lambda a: a.name.casefold())],
        "sites": [{"id": s.id, "name": s.name, "kind": s.kind, "at": g.label(s.cell)}
                  for s in sorted(m.sites.values(), key=lambda s: s.id)],
        "labels": len(m.labels), "meta": m.meta,
    }


def cmd_info(args: argparse.Namespace) -> int:
    m = load_any(args.map)
    info = map_summary(m)
    if args.json:
        print(json.dumps(info, indent=1, ensure_ascii=False, default=str))
        return EXIT_OK
    shape = f"{info['kind']} {info['width']}x{info['height']}"
    if info["orientation"]:
        shape += f" {info['orientation']}-topped"
    print(f"{args.map}: {info['name'] or '(unnamed)'} - {shape}, {info['cells']} cells")
    print("terrain: " + ", ".join(f"{t} {n} ({100 * n / info['cells']:.0f}%)" for t, n in info["terrain"].items()))
    print("links: " + (", ".join(f"{k} {n}" for k, n in info["links"].items()) or "none"))
    print(f"areas: {len(info['areas'])}" + "".join(
        f"\n  {a['name']} ({a['kind']}, {a['cells']} cells)" for a in info["areas"][:30]))
    if len(info["areas"]) > 30:
        print(f"  ... and {len(info['areas']) - 30} more")
    print(f"sites: {len(info['sites'])}" + "".join(
        f"\n  {s['name'] or '#' + str(s['id'])} ({s['kind']}) at {s['at']}" for s in info["sites"][:30]))
    if len(info["sites"]) > 30:
        print(f"  ... and {len(info['sites']) - 30} more")
    print(f"labels: {info['labels']}")
    return EXIT_OK
