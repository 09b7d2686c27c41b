"""The GM's steps in a sequential game (engine/db/gm_steps.py), each a step of the history:

    realmsmith close GAME.db [--now TIME]                 end the game turn under way
    realmsmith drop GAME.db FACTION [--reason TEXT]       drop a faction's position
    realmsmith standby GAME.db FACTION --password P [--name N] [--email E]
                                                          a standby player takes it over

`realmsmith run --early` runs turns the week between a clan's turns still holds back.
"""

from __future__ import annotations

import argparse

from app.cli import EXIT_OK, number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("close", help="end the game turn under way (sequential games where the GM does)",
                       description="Runs the end of the game turn now, as a step of its own, "
                                   "whoever has not had a turn (Continental Conquest: option "
                                   "close_game_turn = gm).")
    p.add_argument("game")
    p.add_argument("--now", metavar="TIME", help="the UTC time it counts as done at (default: the clock)")
    p.set_defaults(func=cmd_close)
    p = sub.add_parser("drop", help="drop a faction's position (a GM step)",
                       description="The faction takes no more turns; its units stay and defend.")
    p.add_argument("game")
    p.add_argument("faction", type=number)
    p.add_argument("--reason", default="", help="said in the history and the GM's report")
    p.set_defaults(func=cmd_drop)
    p = sub.add_parser("standby", help="give a faction's position to a standby player (a GM step)",
                       description="The position plays on under the new player's password (the "
                                   "account number), name and address.")
    p.add_argument("game")
    p.add_argument("faction", type=number)
    p.add_argument("--password", required=True, help="the new player's password (account number)")
    p.add_argument("--name", default="", help="the new player's name")
    p.add_argument("--email", default="", help="the new player's address")
    p.set_defaults(func=cmd_standby)


def _done(res) -> int:
    print(f"turn {res.steps[0]}: {res.note} ({res.events} events, {res.reports} reports)")
    return EXIT_OK


def cmd_close(args: argparse.Namespace) -> int:
    from app.cli.game_cmd import _now_arg, _refused, open_game
    from engine.service import GmStepRefused

    with open_game(args.game) as svc:
        try:
            return _done(svc.close_game_turn(now=_now_arg(args.now)))
        except GmStepRefused as e:
            raise _refused(e) from None


def cmd_drop(args: argparse.Namespace) -> int:
    from app.cli.game_cmd import _refused, open_game
    from engine.service import GmStepRefused

    with open_game(args.game) as svc:
        try:
            return _done(svc.drop_faction(args.faction, args.reason.strip()))
        except (GmStepRefused, NotImplementedError, ValueError) as e:
            raise _refused(e) from None


def cmd_standby(args: argparse.Namespace) -> int:
    from app.cli.game_cmd import _refused, open_game
    from engine.service import GmStepRefused

    with open_game(args.game) as svc:
        try:
            return _done(svc.standby(args.faction, args.name.strip(), args.email.strip(), args.password.strip()))
        except (GmStepRefused, NotImplementedError, ValueError) as e:
            raise _refused(e) from None
