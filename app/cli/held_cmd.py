"""Orders from unverified senders, held for the GM: accept or reject them (docs/security.md).

    realmsmith accept GAME.db ID [ID...]
    realmsmith reject GAME.db ID [ID...]

`realmsmith submissions GAME.db` (app/cli/submissions_cmd.py) lists them as
"HELD: sender not verified"; `realmsmith status` says why each is held.
"""

from __future__ import annotations

import argparse

from app.cli import EXIT_ERRORS, EXIT_OK, CliError


def register(sub: argparse._SubParsersAction) -> None:
    for name, verb in (("accept", "count held orders as the faction's"),
                       ("reject", "refuse held orders (kept in the history, never used)")):
        p = sub.add_parser(name, help=verb, description=f"{verb[0].upper()}{verb[1:]}: the "
                           "submissions with these ids (see `realmsmith submissions GAME`).")
        p.add_argument("game")
        p.add_argument("ids", nargs="+", type=_id, metavar="ID")
        p.set_defaults(func=cmd_decide, decision=name)


def _id(text: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise argparse.ArgumentTypeError(f"{text!r} is not a submission id")
    return int(text)


def cmd_decide(args: argparse.Namespace) -> int:
    from app.cli.game_cmd import open_game
    from engine.db.errors import GameDbError

    failed = 0
    with open_game(args.game) as svc:
        act = svc.accept if args.decision == "accept" else svc.reject
        for i in args.ids:
            try:
                r = act(i)
            except GameDbError as e:
                if type(e) is not GameDbError:
                    raise
                print(f"submission {i}: {e}")
                failed += 1
                continue
            s = r.submission
            print(f"submission {i} ({s.source_name}, faction {s.faction}): {r.note}")
    if failed == len(args.ids):
        raise CliError(f"nothing to {args.decision}")
    return EXIT_ERRORS if failed else EXIT_OK
