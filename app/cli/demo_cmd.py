"""`realmsmith demo` and `realmsmith rulesets`."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.cli import EXIT_OK, CliError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="create and run a ruleset's demo game",
                       description="Creates the demo game of a ruleset in DIR, imports its "
                                   "scripted orders turn by turn, runs the turns and prints "
                                   "where the game and the reports are.")
    p.add_argument("--ruleset", default="kok")
    p.add_argument("--dir", default="realmsmith-demo", help="folder for the game (default ./realmsmith-demo)")
    p.add_argument("--turns", type=int, help="turns to run (default: every scripted turn)")
    p.add_argument("--open", action="store_true", help="open the game in the GUI afterwards")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("rulesets", help="list the installed rulesets")
    p.set_defaults(func=cmd_rulesets)


def cmd_rulesets(args: argparse.Namespace) -> int:
    from engine import registry

    for name in registry.available():
        rs = registry.get(name)
        lacks = sorted({"play", "reports", "demo"} - rs.capabilities)
        note = f" (not built yet: {', '.join(lacks)})" if lacks else ""
        print(f"{name:<10} {rs.title or '':<34} {rs.turn_model}, maps: {', '.join(rs.map_kinds)}{note}")
    for name, why in registry.problems().items():
        print(f"{name:<10} FAILED TO LOAD: {why}")
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from engine import registry
    from engine.db.errors import GameDbError
    from engine.ruleset import TurnModel
    from engine.service import GameService, export_stem

    try:
        rs = registry.get(args.ruleset)
        lacks = sorted({"play", "reports"} - rs.capabilities)
        scen, script = rs.demo() if not lacks else (None, {})
    except registry.UnknownRuleset as e:
        raise CliError(str(e)) from None
    except NotImplementedError as e:
        raise CliError(str(e)) from None
    except Exception as e:  # a ruleset still being written, a missing map file...
        raise CliError(f"the {args.ruleset} demo does not load: {type(e).__name__}: {e}") from None
    if lacks:  # a ruleset still being built: say so before making any file
        raise CliError(f"the {rs.name} demo cannot run: not built yet: {', '.join(lacks)}")
    folder = Path(args.dir).resolve()
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder}: is a file, not a folder; give --dir a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"{folder}: cannot make the folder ({e.strerror or e})") from None
    db = folder / f"{export_stem(rs.name)}-demo.db"
    if db.exists():  # replace an earlier demo, but never some other file
        try:
            GameService.open(db).close()
        except GameDbError as e:
            raise CliError(f"{db} exists and is not a Realmsmith game; not replacing it ({e})", 3) from None
        for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            p.unlink(missing_ok=True)
    posts = _demo_posts(scen) if not script else []
    if posts:  # a forum game: its demo is a thread of posts, imported in a few batches
        n = args.turns if args.turns is not None else 3
        size = -(-len(posts) // max(1, n))
        batches = [posts[i:i + size] for i in range(0, len(posts), size)][:n]
        script = {i + 1: {} for i in range(len(batches))}
    turns = list(range(1, (args.turns if args.turns is not None else max(script, default=0)) + 1))
    clock = start = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    sequential = rs.turn_model == TurnModel.SEQUENTIAL
    with GameService.create(db, scen) as svc:
        print(f"demo game: {db} ({rs.title or rs.name}, {len(scen.factions)} factions)")
        for turn in turns:
            orders_dir = folder / "orders" / f"turn-{turn:03d}"
            orders_dir.mkdir(parents=True, exist_ok=True)
            for faction, texts in sorted(script.get(turn, {}).items()):
                # a list: several sheets of one faction this turn (a late turn caught up)
                for k, text in enumerate([texts] if isinstance(texts, str) else texts):
                    f = orders_dir / f"faction-{faction:02d}{'' if not k else f'-{k + 1}'}.txt"
                    f.write_text(text, encoding="utf-8")
                    clock += timedelta(minutes=7)
                    svc.import_text(text, "file", str(f), received_at=clock.isoformat().replace("+00:00", "Z"),
                                    faction=faction)
            if posts and turn <= len(batches):
                rep = svc.import_submissions(batches[turn - 1])
                print(f"import {turn}: {len(rep.results)} posts "
                      f"({sum(r.status != 'stored' for r in rep.results)} skipped or flagged)")
            if sequential:  # a week a turn, so the book's week between a clan's turns holds
                clock = start + timedelta(days=7 * turn, hours=-12)
                res = svc.run(now=clock.isoformat().replace("+00:00", "Z"))
            else:
                res = svc.run()
            for step in res.steps:
                files = svc.export(folder / "reports" / f"turn-{step:03d}", step)
                nmr = res.nmr.get(step) or []
                who = f" (faction {svc.steps()[step].faction}'s turn)" if sequential else ""
                print(f"turn {step}{who}: {res.events} events" + (f", NMR for {nmr}" if nmr else "")
                      + f"; {len(files)} reports in {files[0].parent if files else '-'}")
            if not res.steps:
                print(f"turn {turn}: {res.note}")
        print(f"\nthe game: {db}\nthe reports: {folder / 'reports'}\n"
              f"try: realmsmith status {db}")
    if args.open:
        from app.cli import build_parser, main

        parser = build_parser()
        if "gui" in parser._subparsers._group_actions[0].choices:  # registered by gui_cmd
            return main(["gui", str(db)])
        print("the GUI is not available here (app.cli.gui_cmd did not load)")
    return EXIT_OK


def _demo_posts(scen) -> list:
    """The posts of a ruleset's demo thread (scenario.meta['demo_thread']), if it has one."""
    thread = scen.meta.get("demo_thread")
    if not thread:
        return []
    import engine
    from engine.threads import load_thread

    path = Path(engine.__file__).resolve().parents[1] / thread
    posts, problems = load_thread(path, scen.meta.get("thread_format"))
    if problems and not posts:
        raise CliError(f"the demo thread does not load: {problems[0].format()}")
    return posts
