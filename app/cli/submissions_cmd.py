"""`realmsmith submissions`, `dismiss` and `reassign`: the GM's hand on stored submissions.

A cron job gated on `realmsmith check` stops at unmatched mail, orders for a turn already
run and unreadable files until the GM decides; these commands are that decision, from the
command line: give a submission to a faction and turn, or set it aside for good (it stays
in the history, and importing the same mail again does not bring it back).
"""

from __future__ import annotations

import argparse
import json

from app.cli import EXIT_OK, CliError, number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("submissions", help="list stored submissions with their ids and state",
                       description="Every stored submission (orders, mail, posts) with the id "
                                   "that `reassign` and `dismiss` take, whose and which turn it "
                                   "is, and its state. Without --all: only those waiting or "
                                   "needing the GM.")
    p.add_argument("game")
    p.add_argument("--all", action="store_true", help="also used, replaced and dismissed ones")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_submissions)

    p = sub.add_parser("dismiss", help="set stored submissions (or the listed problems) aside",
                       description="Dismissed submissions stay in the history but are never "
                                   "used and no longer make `status`, `check` or `run --strict` "
                                   "complain; importing the same mail again does not bring them "
                                   "back. `reassign` undoes it.")
    p.add_argument("game")
    p.add_argument("ids", nargs="*", type=number, metavar="ID", help="submission ids (see `submissions`)")
    p.add_argument("--problems", action="store_true",
                   help="also set aside the listed problem files (unreadable, binary...)")
    p.add_argument("--reason", default="", help="a note kept with the submission")
    p.set_defaults(func=cmd_dismiss)

    p = sub.add_parser("reassign", help="give a stored submission to a faction and turn",
                       description="The GM's own match: the orders are checked again as that "
                                   "faction's for that turn (default: the turn being "
                                   "collected) and replace or are replaced as usual.")
    p.add_argument("game")
    p.add_argument("id", type=number, metavar="ID")
    p.add_argument("--faction", type=number, help="the faction (default: the one it is matched to)")
    p.add_argument("--turn", type=number, help="the turn (default: the one being collected)")
    p.add_argument("--nobody", action="store_true", help="take it away from every faction")
    p.set_defaults(func=cmd_reassign)


def _open(path: str):
    from engine.service import GameService

    return GameService.open(path)


def cmd_submissions(args: argparse.Namespace) -> int:
    with _open(args.game) as svc:
        pending = svc.pending_step
        realtime = str(svc.ruleset.turn_model) == "realtime"
        factions = {f.number for f in svc.scenario.factions}
        rows = []
        for s in svc.submissions():
            state = s.state_words(pending, factions, realtime)
            if not args.all and state.startswith(("used", "replaced", "dismissed")):
                continue
            sub = s.submission
            rows.append({"id": s.id, "state": state, "faction": s.faction, "turn": s.step,
                         "role": sub.meta.get("role", ""), "source": sub.source_name or sub.source_kind, "sender": sub.sender,
                         "received_at": sub.received_at, "matched_by": sub.matched_by,
                         "errors": sum(d.severity == "error" for d in s.diagnostics)})
    if args.json:
        print(json.dumps(rows, indent=1))
        return EXIT_OK
    for r in rows:
        who = f"faction {r['faction']}" if r["faction"] is not None else r["role"] or "nobody"
        turn = f" turn {r['turn']}" if r["turn"] is not None else ""
        print(f"{r['id']:>5}  {r['state']:<24} {who}{turn}  {r['source']}"
              + (f" from {r['sender']}" if r["sender"] else "")
              + (f"  ({r['errors']} error(s))" if r["errors"] else ""))
    if not rows:
        print("no submissions" + ("" if args.all else " waiting or needing you (--all lists every one)"))
    return EXIT_OK


def cmd_dismiss(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    if not args.ids and not args.problems:
        raise CliError("give submission ids (see `realmsmith submissions`) or --problems", 2)
    with _open(args.game) as svc:
        for sid in args.ids:
            try:
                s = svc.dismiss(sid, args.reason)
            except GameDbError as e:
                raise CliError(f"{args.game}: {e}") from None
            print(f"dismissed submission {sid} ({s.submission.source_name or s.submission.source_kind})")
        if args.problems:
            print(f"dismissed {svc.dismiss_problems()} problem(s)")
    return EXIT_OK


def cmd_reassign(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with _open(args.game) as svc:
        old = [s for s in svc.submissions() if s.id == args.id]
        if not old:
            raise CliError(f"{args.game}: no submission {args.id}")
        faction = None if args.nobody else (args.faction if args.faction is not None
                                            else old[0].faction)
        if faction is None and not args.nobody:
            raise CliError(f"submission {args.id} is nobody's: give --faction N", 2)
        if faction is not None and svc.scenario.faction(faction) is None:
            raise CliError(f"{args.game}: no faction {faction}")
        try:
            res = svc.reassign(args.id, faction, args.turn)
        except GameDbError as e:
            raise CliError(f"{args.game}: {e}") from None
        sub = res.submission
        print(f"submission {args.id}: " + (f"faction {sub.faction}, turn {sub.step}; "
                                           f"{res.errors} error(s), {res.warnings} warning(s)"
                                           if sub.faction is not None else "nobody's now"))
        for d in res.diagnostics:
            print("  " + d.format().replace("\n", "\n  "))
    return EXIT_OK
