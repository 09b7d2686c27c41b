"""`realmsmith gm`: the GM's hand between turns (engine/interventions, docs/cli.md).

    realmsmith gm GAME unit --faction 3 --region "(11,15)" --men 5 --name Guards \\
        --item swords=5 --skill combat=2 --skill obse=45d --flag guard --note "prize"
    realmsmith gm GAME give --faction 3 --item silver --count -500      # unclaimed silver
    realmsmith gm GAME give --unit 17 --item wood --count 10
    realmsmith gm GAME join --name "Sea Folk" --email sea@example.org --password kelp
    realmsmith gm GAME password --faction 3 newpw    |   address --faction 3 new@example.org
    realmsmith gm GAME history [--json]

Each is made at the current turn boundary and recorded (`history`); a refused one changes
nothing and leaves with exit code 4 and the reason.
"""

from __future__ import annotations

import argparse
import json

from app.cli import EXIT_INPUT, EXIT_OK, CliError, number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gm", help="GM interventions between turns: add a unit, give or take "
                                  "items and silver, let a player join, change a password or "
                                  "address; their history",
                       description="Changes the GM makes by hand at the current turn boundary "
                                   "(the state the next turn starts from), each recorded in "
                                   "the game's history and made again if the turn is rolled "
                                   "back and run again. Which kinds a ruleset takes: see its "
                                   "guide (Atlantis: docs/atlantis.md).")
    p.add_argument("game")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)

    def common(q: argparse.ArgumentParser, faction: bool = True) -> None:
        if faction:
            q.add_argument("--faction", type=number, help="the faction it concerns")
        q.add_argument("--note", default="", help="why, kept in the history")

    q = what.add_parser("unit", help="add a unit to a faction")
    common(q)
    q.add_argument("--region", required=True, help="where, as (x,y)")
    q.add_argument("--men", type=number, default=1)
    q.add_argument("--name", default="")
    q.add_argument("--item", action="append", default=[], metavar="ITEM=N",
                   help="items it carries (repeat); silver too")
    q.add_argument("--skill", action="append", default=[], metavar="SKILL=MONTHS|DAYSd",
                   help="months of study per man, or total days with d (repeat)")
    q.add_argument("--flag", action="append", default=[], help="guard, avoid, behind, hold, "
                   "noaid, autotax (repeat)")
    q.add_argument("--reveal", default="", choices=("", "unit", "faction"))
    q.set_defaults(kind="unit")

    q = what.add_parser("give", help="give (count > 0) or take (count < 0) items or silver "
                                     "of a unit, or a faction's unclaimed silver")
    common(q)
    q.add_argument("--unit", type=number, help="the unit (without: the faction's unclaimed silver)")
    q.add_argument("--item", default="silver")
    q.add_argument("--count", type=int, required=True, help="negative takes")
    q.set_defaults(kind="give")

    q = what.add_parser("join", help="a new player's faction: next number, a free starting "
                                     "island, one man and the start silver")
    common(q, faction=False)
    q.add_argument("--name", required=True)
    q.add_argument("--email", default="")
    q.add_argument("--password", default="")
    q.add_argument("--region", default="", help="where to start when no starting island is free")
    q.set_defaults(kind="join")

    q = what.add_parser("password", help="set a faction's password (\"\" clears it)")
    common(q)
    q.add_argument("password")
    q.set_defaults(kind="password")

    q = what.add_parser("address", help="set a faction's e-mail address")
    common(q)
    q.add_argument("email")
    q.set_defaults(kind="address")

    q = what.add_parser("history", help="every intervention, oldest first")
    q.add_argument("--turn", type=number, help="only those made at this turn")
    q.add_argument("--json", action="store_true")
    q.set_defaults(kind="history")
    p.set_defaults(func=cmd_gm)


def intervention(args: argparse.Namespace):  # noqa: ANN201 - engine type, imported late
    from engine.interventions import Intervention, InterventionRefused, pairs

    k = args.kind
    if k == "unit":
        try:
            items, skills = pairs(args.item, "--item"), pairs(args.skill, "--skill")
        except InterventionRefused as e:
            raise CliError(str(e), EXIT_INPUT) from None
        params = {"region": args.region, "men": args.men, "name": args.name,
                  "items": items, "skills": skills, "flags": args.flag, "reveal": args.reveal}
    elif k == "give":
        params = {"item": args.item, "count": args.count}
        if args.unit is not None:
            params["unit"] = args.unit
    elif k == "join":
        params = {"name": args.name, "email": args.email, "password": args.password,
                  "region": args.region}
    elif k == "password":
        params = {"password": args.password}
    else:
        params = {"email": args.email}
    if k in ("unit", "password", "address") and args.faction is None:
        raise CliError(f"gm {k} needs --faction", EXIT_INPUT)
    return Intervention(k, getattr(args, "faction", None), params, args.note)


def cmd_gm(args: argparse.Namespace) -> int:
    from engine.interventions import InterventionRefused
    from engine.service import GameService

    with GameService.open(args.game) as svc:
        if args.kind == "history":
            rows = svc.interventions(args.turn)
            if args.json:
                print(json.dumps([{"id": r.id, "turn": r.step, **r.intervention.to_dict(),
                                   "summary": r.summary, "status": r.status,
                                   "waiting": r.waiting, "made_at": r.made_at} for r in rows],
                                 indent=1, ensure_ascii=False))
            else:
                for r in rows:
                    print(r.line())
                if not rows:
                    print("no GM interventions")
            return EXIT_OK
        iv = intervention(args)
        try:
            rec = svc.intervene(iv)
        except InterventionRefused as e:
            raise CliError(f"{args.game}: gm {args.kind} refused: {e}; nothing changed",
                           EXIT_INPUT) from None
        print(rec.line())
    return EXIT_OK
