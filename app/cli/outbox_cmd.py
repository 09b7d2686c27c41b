"""`realmsmith bundle` and `realmsmith outbox`: players' report bundles and ready-to-send
e-mails for a turn, from the command line (the GM console's Export does both and more)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli import EXIT_OK, CliError, number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bundle", help="write players' report bundles (.rsbundle) of a turn",
                       description="Writes one report bundle per faction (or the one asked "
                                   "for): the file the player viewer opens.")
    p.add_argument("game", help="game database")
    p.add_argument("--out", default=".", help="folder (default: here)")
    p.add_argument("--faction", type=number, help="only this faction")
    p.add_argument("--turn", type=number, help="turn (default: the last run)")
    p.set_defaults(func=cmd_bundle)
    p = sub.add_parser("outbox", help="write one ready-to-send .eml per faction for a turn",
                       description="Each message: From the game's GM address, To the "
                                   "faction's e-mail, a subject a reply to which is matched as "
                                   "orders for the next turn, the text report as body, the "
                                   "HTML report, the orders template and the compressed bundle "
                                   "attached. Turn 0 (before the first run) gives the starting "
                                   "position. Send them with any mail program; Realmsmith stores "
                                   "no mail passwords.")
    p.add_argument("game", help="game database")
    p.add_argument("--out", default="outbox", help="folder (default: ./outbox)")
    p.add_argument("--turn", type=number, help="turn (default: the last run)")
    p.add_argument("--from", dest="sender", default="",
                   help="the GM's address for From: (kept for the game: give it once)")
    p.set_defaults(func=cmd_outbox)


def _open(path: str):
    from engine.db.errors import GameDbError
    from engine.service import GameService

    try:
        return GameService.open(path)
    except GameDbError as e:
        raise CliError(str(e)) from None


def cmd_bundle(args: argparse.Namespace) -> int:
    from engine.bundle import BundleError, bundle_name, write_bundle, write_bundles

    with _open(args.game) as svc:
        step = svc.current_step if args.turn is None else args.turn
        if not 0 <= step <= svc.current_step:
            raise CliError(f"{args.game}: no turn {step}; the game has turns 0 to {svc.current_step}")
        try:
            if args.faction is not None:
                own = svc.last_report_step(args.faction, step)  # sequential: its own last turn
                paths = [write_bundle(svc, args.faction, Path(args.out) / bundle_name(svc.name, own, args.faction), own)]
            else:
                paths = write_bundles(svc, args.out, step)
        except BundleError as e:
            raise CliError(str(e)) from None
    for p in paths:
        print(p)
    return EXIT_OK


def cmd_outbox(args: argparse.Namespace) -> int:
    from engine.bundle import BundleError
    from engine.db.errors import GameDbError
    from engine.outbox import write_outbox

    with _open(args.game) as svc:
        step = svc.current_step if args.turn is None else args.turn
        if not 0 <= step <= svc.current_step:
            raise CliError(f"{args.game}: no reports for turn {step}; the game has turns 0 to "
                           f"{svc.current_step}")
        sender = args.sender.strip()
        if sender:
            if "@" not in sender or any(ch in sender for ch in "\r\n"):
                raise CliError(f"--from {sender!r}: not an e-mail address", 2)
            if sender != svc.scenario.meta.get("gm_email"):
                svc.set_meta(gm_email=sender)
                print(f"GM address {sender} kept for this game")
        try:
            entries = write_outbox(svc, args.out, step, sender=sender)
        except (BundleError, GameDbError) as e:
            raise CliError(str(e)) from None
    for e in entries:
        print(e.path)
        if e.note:
            print(f"  note: {e.note}")
    return EXIT_OK
