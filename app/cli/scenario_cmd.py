"""`realmsmith scenario export|import`: the human-writable text scenario file."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli import EXIT_OK, CliError, number, seed_number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scenario", help="export or import a text scenario file",
                       description="Scenario files are TOML; see docs/scenario-file.md.")
    ssub = p.add_subparsers(dest="scenario_command", metavar="ACTION", required=True)
    e = ssub.add_parser("export", help="write a game's scenario to a text file")
    e.add_argument("game")
    e.add_argument("file")
    e.add_argument("--turn", type=number, default=0,
                   help="write the state of this turn as the initial state (default 0)")
    e.add_argument("--map-file", action="store_true",
                   help="write the map to a .rsmap file next to the scenario instead of inline")
    e.add_argument("--with-seed", action="store_true",
                   help="also write the dice seed (a private copy for the GM; never give it "
                        "to players: it predicts every roll)")
    e.add_argument("--public", action="store_true",
                   help="a file players may see: no seed, no addresses or passwords, only the "
                        "public meta (use with --turn 0)")
    e.set_defaults(func=cmd_export)
    i = ssub.add_parser("import", help="create a game database from a scenario file")
    i.add_argument("file")
    i.add_argument("game")
    i.add_argument("--seed", type=seed_number, help="override the scenario's seed (without one in the file "
                   "or here, the game gets a random secret seed)")
    i.set_defaults(func=cmd_import)


def cmd_export(args: argparse.Namespace) -> int:
    import dataclasses

    from engine.db.errors import GameDbError
    from engine.scenario_file import dump_scenario
    from engine.service import GameService

    with GameService.open(args.game) as svc:
        try:
            state = svc.state(args.turn)
        except GameDbError as e:
            if type(e) is GameDbError:
                raise CliError(str(e)) from None
            raise
        scen = dataclasses.replace(svc.scenario, initial=state)
        out = Path(args.file)
        if not out.parent.exists():
            raise CliError(f"{out.parent}: no such folder")
        if not out.parent.is_dir():
            raise CliError(f"{out}: cannot write there: {out.parent} is a file, not a folder")
        try:
            dump_scenario(scen, out, map_file=True if args.map_file else None,
                          with_seed=args.with_seed, public=args.public)
        except OSError as e:
            raise CliError(f"{e.filename or out}: cannot write ({e.strerror or e})") from None
    print(f"wrote {out.resolve()}")
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from app.cli.game_cmd import create_game
    from engine.scenario_file import ScenarioFileError, load_scenario

    try:
        scen = load_scenario(args.file)
    except ScenarioFileError as e:
        raise CliError(str(e)) from None
    if args.seed is not None:
        scen.seed = args.seed
    return create_game(args.game, scen, args.file)
