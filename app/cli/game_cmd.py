"""Commands that run a game: new, import, check, status, run, rollback, export, state, report."""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, CliError, number, seed_number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="create a game database",
                       description="Create GAME.db from a scenario file, or from the ruleset's "
                                   "demo scenario (optionally on another map).")
    p.add_argument("game", help="the game database to create (GAME.db)")
    p.add_argument("--ruleset", help="ruleset name (see `realmsmith rulesets`)")
    p.add_argument("--scenario", help="a scenario file (docs/scenario-file.md)")
    p.add_argument("--map", help="a map file (.rsmap) to use instead of the scenario's map")
    p.add_argument("--seed", type=seed_number, help="dice seed of the game (default: a random secret one, "
                        "or the scenario file's)")
    p.add_argument("--name", help="name of the game")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("import", help="import orders (files, folders, .eml, mbox, - for stdin)")
    p.add_argument("game")
    p.add_argument("paths", nargs="*", help="files, folders, .eml messages, mbox files; - = stdin")
    p.add_argument("--paste", action="store_true", help="read one pasted orders text from stdin")
    p.add_argument("--faction", type=number, help="the faction the orders are from (skip matching)")
    p.add_argument("--turn", type=number, help="the turn the orders are for (with --faction)")
    p.set_defaults(func=cmd_import, paths_dest="paths")

    p = sub.add_parser("check", help="check orders; exit 1 if any has errors",
                       description="Without FILEs: check the orders waiting for the next turn. "
                                   "With FILEs: check those files against the current state "
                                   "(nothing is stored). With --ruleset instead of a GAME: "
                                   "check the FILEs' syntax without any game, as players do "
                                   "before sending. Prints file:line: error (kind): message.")
    p.add_argument("game", nargs="?", help="the game (leave out with --ruleset)")
    p.add_argument("--ruleset", help="check FILEs for this ruleset without a game (syntax only)")
    p.add_argument("files", nargs="*")
    p.add_argument("--faction", type=number, help="check the FILEs as this faction's orders; without FILEs: "
                        "only this faction's waiting orders")
    p.add_argument("--quiet", "-q", action="store_true", help="print errors only, no warnings")
    p.set_defaults(func=cmd_check, paths_dest="files")

    p = sub.add_parser("status", help="who sent orders, who has not, errors")
    p.add_argument("game")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("run", help="run the next turn (one transaction)")
    p.add_argument("game")
    p.add_argument("--quiet", "-q", action="store_true")
    p.add_argument("--wait-for-all", action="store_true",
                   help="do not run (exit 1) while a faction has sent no orders")
    p.add_argument("--strict", action="store_true",
                   help="do not run (exit 1) while any orders have errors")
    p.add_argument("--early", action="store_true",
                   help="sequential games: also run turns that come sooner after the faction's "
                        "previous turn than the rules allow (status says which wait)")
    p.add_argument("--now", metavar="TIME",
                   help="sequential games: the UTC time the turns count as run at, e.g. "
                        "2026-03-09T12:00:00Z (default: the clock); the week between a clan's "
                        "turns and the reports' due dates count from it")
    p.add_argument("--orders", nargs="+", metavar="PATH",
                   help="first import these orders (files, folders, .eml, mbox), as `import` "
                        "does; the whole turn in one process: each set is read and checked "
                        "once, not again by the run")
    p.add_argument("--out", metavar="FOLDER",
                   help="then write the turn's reports and orders templates into FOLDER, as "
                        "`export` does")
    p.add_argument("--gm", action="store_true", help="with --out: also the GM's report")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("rollback", help="go back to an earlier turn (orders are kept)")
    p.add_argument("game")
    p.add_argument("--to", type=number, required=True, metavar="N", help="the turn to go back to")
    p.set_defaults(func=cmd_rollback)

    p = sub.add_parser("export", help="write every faction's reports and the GM's into a folder")
    p.add_argument("game")
    p.add_argument("--out", required=True, help="folder to write into")
    p.add_argument("--turn", type=number, help="turn (default: the last one run)")
    p.add_argument("--gm", action="store_true",
                   help="also the GM's report of the whole world where the game makes it only "
                        "when asked (Atlantis)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("state", help="the state of the game at a turn")
    p.add_argument("game")
    p.add_argument("--json", action="store_true", help="canonical JSON of every state table")
    p.add_argument("--turn", type=number, help="turn (default: the last one run)")
    p.set_defaults(func=cmd_state)

    p = sub.add_parser("events", help="the events of a turn, as the report's sentences",
                       description="The events of a turn, one a line, told as the text report "
                       "tells them; --json gives the raw records, one JSON object a line.")
    p.add_argument("game")
    p.add_argument("--turn", type=number, help="turn (default: the last one run)")
    p.add_argument("--faction", type=number, help="only events concerning this faction")
    p.add_argument("--kind", help="only events whose kind contains this text (e.g. battle)")
    p.add_argument("--json", action="store_true", help="the raw event records, one JSON object a line")
    p.add_argument("--details", action="store_true",
                   help="also the steps the report leaves out (tactics, rolls); --kind shows them too")
    p.set_defaults(func=cmd_events)

    p = sub.add_parser("report", help="print one report")
    p.add_argument("game")
    p.add_argument("--faction", type=number, help="faction number (default: the GM's report)")
    p.add_argument("--turn", type=number)
    p.add_argument("--format", default="text", help="text, html or json")
    p.set_defaults(func=cmd_report)


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """Python's cyclic garbage collector walked the game's 100,000 loaded records again and
    again while a command read them (a fifth of `check` of 1,000 factions); these commands
    free nothing cyclic worth collecting before they end. What exists is set aside and
    collections start after 50,000 new objects; as before afterwards (tests call main)."""
    saved = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(saved[0], 50_000), *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()


def _one_pass(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command that reads a whole game once and ends: with fewer collections."""
    @functools.wraps(cmd)
    def run(args: argparse.Namespace) -> int:
        with _few_collections():
            return cmd(args)
    return run


def open_game(path: str):
    from engine.service import GameService

    return GameService.open(path)


def _refused(e: Exception) -> CliError:
    return CliError(str(e))


def cmd_new(args: argparse.Namespace) -> int:
    from engine import registry
    from engine.mapfile import MapFileError, load_map

    if args.scenario:
        from engine.scenario_file import ScenarioFileError, load_scenario

        try:
            scen = load_scenario(args.scenario)
        except ScenarioFileError as e:
            raise CliError(str(e)) from None
        if args.ruleset and args.ruleset.lower() != scen.ruleset.lower():
            raise CliError(f"{args.scenario} is a {scen.ruleset} scenario, not {args.ruleset}")
    else:
        if not args.ruleset:
            raise CliError("give --ruleset (or --scenario)", 2)
        try:
            rs = registry.get(args.ruleset)
            scen = rs.demo()[0]
            if args.seed is None:  # the demo's own seed is public: this game gets a secret one
                from engine.dice import secret_seed

                scen.seed = secret_seed()
        except registry.UnknownRuleset as e:
            raise CliError(str(e)) from None
        except NotImplementedError:
            raise CliError(f"ruleset {args.ruleset} has no demo scenario; give --scenario") from None
    if args.map:
        try:
            scen.map = load_map(args.map)
        except MapFileError as e:
            raise CliError(str(e)) from None
        scen.initial = None  # the ruleset places the factions on the new map
    if args.seed is not None:
        scen.seed = args.seed
    if args.name:
        scen.name = args.name
    return create_game(args.game, scen, args.scenario or f"the {scen.ruleset} demo scenario")


def create_game(path: str, scen, source: str) -> int:
    """Create the game database and say so; a scenario the ruleset cannot build is exit 4."""
    from engine.service import GameService
    from engine.validation import ScenarioInvalid

    try:
        svc = GameService.create(path, scen)
    except ScenarioInvalid as e:
        raise CliError(f"{source}: {e}") from None
    except (ValueError, KeyError, TypeError) as e:
        raise CliError(f"{source}: cannot build the game ({type(e).__name__}: {e})") from None
    with svc:
        print(f"created {svc.where} from {source}: {scen.name} ({svc.ruleset.name}), "
              f"{len(scen.factions)} factions, dice seed kept secret in the game; "
              f"collecting orders for turn {svc.pending_step}")
    return EXIT_OK


@_one_pass
def cmd_import(args: argparse.Namespace) -> int:
    from engine.orders import Severity

    paths = [p for p in args.paths if p != "-"]
    stdin = args.paste or "-" in args.paths
    if not paths and not stdin:
        raise CliError("nothing to import: give files or folders, or - / --paste for stdin", 2)
    with open_game(args.game) as svc:
        results, problems = [], []
        if paths:
            rep = svc.import_paths(paths, args.faction, args.turn)
            results += rep.results
            problems += rep.problems
        mail = None
        if stdin:
            data = _stdin_bytes()
            if len(data) > STDIN_MAX_BYTES:
                raise CliError(f"<stdin>: more than {STDIN_MAX_BYTES:,} bytes; not read (give "
                               "the mailbox's path instead of piping it)", 1)
            # a whole mail (headers and all) from a delivery tool: read as the same file
            mail = None if args.paste else svc.import_mail_bytes(data, "<stdin>", args.faction,
                                                                 args.turn)
            if mail is not None:
                results += mail.results
                problems += mail.problems
        if stdin and mail is None:
            dec = _decode_stdin(data)
            if dec.refused or not dec.text.strip():
                problems += dec.diagnostics
            else:
                results.append(svc.import_text(
                    dec.text, "paste", "stdin", faction=args.faction, step=args.turn,
                    meta={"diagnostics": [d.to_dict() for d in dec.diagnostics]}
                    if dec.diagnostics else None, encoding=dec.encoding))
        realtime = str(svc.ruleset.turn_model) == "realtime"
        new = _print_import(results, problems)
        stored = [r for r in new if r.status == "stored"]
        # in a forum game posts by non-players (the GM...) are normal, not errors
        bad = [r for r in stored if r.errors or (not r.matched and not realtime)]
        bad += [r for r in new if r.status == "edited"]
        # notices (an old thread format) are shown and kept, but are no reason to exit 1
        serious = [d for d in problems if d.severity != Severity.INFO]
        return EXIT_ERRORS if bad or serious else EXIT_OK


@_one_pass
def cmd_check(args: argparse.Namespace) -> int:
    from engine.orders import Severity

    if args.ruleset:
        return _check_without_game(args)
    if not args.game:
        raise CliError("check needs a GAME, or --ruleset NAME and the FILEs to check", EXIT_USAGE)
    with open_game(args.game) as svc:
        found = []
        if args.files:
            subs = []
            for f in args.files:
                batch = _read_orders(Path(f))
                subs += batch.submissions
                found += batch.problems
            for sub, diags in svc.check_submissions(subs, args.faction):
                who = f"faction {sub.faction}" if sub.faction is not None else "no faction"
                print(f"{sub.source_name}: {who}, "
                      f"{sum(d.severity == Severity.ERROR for d in diags)} error(s)", file=sys.stderr)
                found += diags
        else:
            # unmatched orders are no one faction's; in a forum game posts by non-players
            # are normal (the GM's, split players'): the ruleset judged them above
            unmatched: list | None = [] if args.faction is None and \
                str(svc.ruleset.turn_model) != "realtime" else None
            for faction, diags in sorted(svc.check(unmatched=unmatched).items()):
                if args.faction is None or faction == args.faction:
                    found += diags
            found += [_unmatched(s) for s in unmatched or ()]
        return _print_findings(found, args.quiet)


def _check_without_game(args: argparse.Namespace) -> int:
    """Syntax only: each file's orders read by the ruleset's parser, no game state."""
    from engine import registry

    try:
        rs = registry.get(args.ruleset)
    except registry.UnknownRuleset as e:
        raise CliError(str(e), EXIT_USAGE) from None
    paths = ([args.game] if args.game else []) + list(args.files)
    if not paths:
        raise CliError("check --ruleset needs the FILEs to check", EXIT_USAGE)
    found = []
    for f in paths:
        batch = _read_orders(Path(f))
        found += batch.problems
        for sub in batch.submissions:
            sheet = rs.parse_orders(sub.text, sub.source_name or f)
            faction = sheet.header.get("faction")
            who = f"faction {faction}" if faction is not None else "no faction"
            print(f"{sub.source_name or f}: {who}, {len(sheet.orders)} order(s), "
                  f"{len(sheet.errors)} error(s)", file=sys.stderr)
            found += sheet.sorted_diagnostics()
    return _print_findings(found, args.quiet)


def _print_findings(found: list, quiet: bool) -> int:
    """Errors (and warnings unless quiet) on stdout, the counts on stderr; exit 1 on errors."""
    from engine.orders import Severity

    for d in found:
        if d.severity == Severity.ERROR or not quiet and d.severity == Severity.WARNING:
            print(d.format_for_gm())  # `check` is the GM's: the GM's notes too
    errors = sum(d.severity == Severity.ERROR for d in found)
    print(f"{errors} error(s), {sum(d.severity == Severity.WARNING for d in found)} warning(s)",
          file=sys.stderr)
    return EXIT_ERRORS if errors else EXIT_OK


def _unmatched(sub):
    from engine.orders import Diagnostic

    return Diagnostic("intake", f"not matched to a faction ({sub.matched_by or 'no clue found'})",
                      file=sub.source_name or sub.source_kind)


def _read_orders(p: Path):
    """Files, folders, .eml and mbox read exactly as `import` reads them (nothing stored);
    a path that is not there at all is a usage mistake (exit 4)."""
    from engine.intake import read_path

    if not p.exists():
        raise CliError(f"{p}: no such file or folder")
    return read_path(p)


STDIN_MAX_BYTES = 64 * 1024 * 1024  # a piped mbox; one orders text or mail is limited to 1 MiB


def _stdin_bytes() -> bytes:
    """Standard input, but never more than STDIN_MAX_BYTES + 1 bytes of it (`yes |
    realmsmith import g.db -` would otherwise fill the memory)."""
    buf = getattr(sys.stdin, "buffer", None)
    if buf is not None:
        return buf.read(STDIN_MAX_BYTES + 1)
    return sys.stdin.read(STDIN_MAX_BYTES + 1).encode("utf-8")


def _decode_stdin(data: bytes):
    """Standard input through engine.intake.decode: any encoding, binary refused, and more
    than the intake limit (1 MiB) refused as too large, naming <stdin>."""
    from engine.intake import decode

    return decode(data, "<stdin>")


def cmd_status(args: argparse.Namespace) -> int:
    with open_game(args.game) as svc:
        st = svc.status()
        if args.json:
            out = {"game": st.game, "ruleset": st.ruleset, "turn_model": st.turn_model,
                   "current_turn": st.current_step, "collecting_turn": st.pending_step,
                   "finished": st.finished,
                   "factions": [vars(f) for f in st.factions],
                   "missing": [f.faction for f in st.missing],
                   "unmatched": [s.source_name for s in st.unmatched],
                   "other_turns": [s.source_name for s in st.other_steps],
                   "rejected": [s.source_name for s in st.rejected],
                   "edited": [s.source_name for s in st.edited],
                   "late": [{"submission": sid, "source": s.source_name, "faction": s.faction,
                             "turn": s.step} for sid, s in st.late],
                   "held": [{"submission": s.meta.get("submission_id"), "source": s.source_name,
                             "sender": s.sender, "faction": s.faction, "turn": s.step,
                             "why": s.meta.get("verify_note", "")} for s in st.held],
                   "problems": [d.to_dict() for d in st.problems],
                   "waiting": [{"submission": sid, "faction": f, "turn": t, "why": why,
                                "ready_at": ready} for sid, f, t, why, ready in st.waiting],
                   "game_turns": st.game_turns, "game_turn_due": st.game_turn_due,
                   "gm_steps": [{"turn": n, "at": at, "what": what} for n, at, what in st.gm_steps],
                   "gm_interventions": st.interventions}
            print(json.dumps(out, indent=1))
        else:
            print("\n".join(st.lines()))
        return EXIT_OK


def cmd_run(args: argparse.Namespace) -> int:
    def progress(frac: float, msg: str) -> None:
        if not args.quiet:
            print(f"[{frac * 100:3.0f}%] {msg}", file=sys.stderr)

    from engine.orders import Severity

    with open_game(args.game) as svc, _few_collections() if args.orders else contextlib.nullcontext():
        if args.orders:
            _import_for_run(svc, args.orders, args.quiet)
        due = svc.pending_step  # this run is for this turn, whatever happens meanwhile
        if args.wait_for_all:
            missing = svc.status().missing
            if missing:
                print("not running: no orders yet from " +
                      ", ".join(f"{f.faction} ({f.name})" for f in missing))
                return EXIT_ERRORS
        if args.strict:
            bad = [d for ds in svc.check().values() for d in ds if d.severity == Severity.ERROR]
            if bad:
                for d in bad:
                    print(d.format())
                print(f"not running: {len(bad)} error(s) in the orders")
                return EXIT_ERRORS
        late = svc.late_submissions()
        res = svc.run(progress=progress, for_step=due, early=args.early, now=_now_arg(args.now))
        for s in late:
            print(f"warning: submission {s.id} ({s.submission.source_name}) holds faction "
                  f"{s.faction}'s orders for turn {s.step}, run before; not used (see status)")
        for sid, f, t, why, _ready in res.waiting:  # sequential turns that may not run yet
            print(f"waiting: submission {sid}, faction {f}'s turn {t}: {why}")
        if not res.steps:
            print(res.note or "nothing to run")
            return EXIT_OK
        for step in res.steps:
            nmr = res.nmr.get(step) or []
            print(f"turn {step} run" + (f"; no orders (NMR) from {', '.join(map(str, nmr))}" if nmr else ""))
        print(f"{res.events} event(s), {res.reports} report(s); the game is at turn {res.steps[-1]}")
        if args.out:
            files = svc.export(args.out, res.steps[-1], gm=args.gm)
            print(f"wrote {len(files)} report file(s) to {Path(args.out).resolve()}")
        return EXIT_OK


def _print_import(results: list[Any], problems: list[Any], quiet: bool = False) -> list[Any]:
    """What an import found, as `import` prints it: a line a new submission with its
    findings (quiet: only the errors, and only the lines of sets with errors, unmatched or
    not stored), each problem file, the summary. The results not seen before."""
    from engine.orders import Severity

    new = [r for r in results if r.status != "duplicate"]
    for r in new:
        # the GM's terminal: the GM's notes too
        shown = [d for d in r.diagnostics if not quiet or d.severity == Severity.ERROR]
        if not quiet or shown or r.status != "stored" or not r.matched:
            print(r.line())
        for d in shown:
            print("  " + d.format_for_gm().replace("\n", "\n  "))
    for d in problems:
        print(d.format())
    stored = [r for r in new if r.status == "stored"]
    dup = len(results) - len(new)
    print(f"imported {len(stored)} submission(s); {sum(not r.matched for r in stored)} unmatched, "
          f"{len(problems)} problem file(s)" + (f", {dup} seen before (skipped)" if dup else ""))
    return new


def _import_for_run(svc: Any, paths: list[str], quiet: bool) -> None:
    """`run --orders`: import as `import` does and say what it found; the turn runs
    whatever it found, as after a separate import."""
    rep = svc.import_paths(paths)
    _print_import(rep.results, rep.problems, quiet)


def cmd_rollback(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with open_game(args.game) as svc:
        before = svc.current_step
        try:
            svc.rollback(args.to)
        except GameDbError as e:
            if type(e) is GameDbError:
                raise _refused(e) from None
            raise
        print(f"rolled back from turn {before} to turn {args.to}; orders are kept and will be "
              "used when the turns are run again")
        return EXIT_OK


@_one_pass
def cmd_export(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with open_game(args.game) as svc:
        try:
            files = svc.export(args.out, args.turn, gm=args.gm)
        except GameDbError as e:
            if type(e) is GameDbError:
                raise _refused(e) from None
            raise
        print(f"wrote {len(files)} report file(s) to {Path(args.out).resolve()}")
        for f in files:
            print(f"  {f.name}")
        return EXIT_OK


def cmd_state(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with open_game(args.game) as svc:
        try:
            st = svc.state(args.turn)
        except GameDbError as e:
            if type(e) is GameDbError:
                raise _refused(e) from None
            raise
        if args.json:
            print(st.to_json())
        else:
            print(f"turn {st.step}: " + ", ".join(f"{k} {len(v)} row(s)" for k, v in st.tables.items()))
        return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with open_game(args.game) as svc:
        try:
            print(svc.report(args.turn, args.faction, args.format), end="")
        except GameDbError as e:
            if type(e) is GameDbError:
                raise _refused(e) from None
            raise
        return EXIT_OK


def cmd_events(args: argparse.Namespace) -> int:
    from engine.db.errors import GameDbError

    with open_game(args.game) as svc:
        try:
            log = svc.events(args.turn, args.faction, args.kind)
        except GameDbError as e:
            if type(e) is GameDbError:
                raise _refused(e) from None
            raise
        step = svc.current_step if args.turn is None else args.turn
        gm = _interventions_told(svc, step, args.faction, args.kind)
        if args.json:
            for r in log.records:
                print(json.dumps(r.to_dict(), sort_keys=True, ensure_ascii=False))
            for row in gm:
                iv = row.intervention
                print(json.dumps({"kind": "gm.intervention", "id": row.id, "step": row.step,
                                  "intervention": iv.kind, "faction": iv.faction,
                                  "note": iv.note, "summary": row.summary,  # no params: a
                                  # password's would be printed (`gm history --json` has them)
                                  "status": row.status}, sort_keys=True, ensure_ascii=False))
            return EXIT_OK
        # the sentences come from the whole step (a battle is told from all its records);
        # the filters pick the records, so both forms list the same events
        from engine.chronicle import chronicle_of

        told = chronicle_of(svc.ruleset, svc.events(step), svc.state(step), svc.scenario).told
        wanted = {r.seq for r in log.records}
        details = args.details or bool(args.kind)
        for t in told:
            if t.seq in wanted and (details or not t.detail):
                print(t.text)
        for row in gm:  # made after the turn's reports, so told after its events
            print(f"GM intervention #{row.id}: {row.summary} [{row.status}]"
                  + (f" -- {row.intervention.note}" if row.intervention.note else ""))
        return EXIT_OK


def _interventions_told(svc: Any, step: int, faction: int | None, kind: str | None) -> list:
    """The GM's interventions made at this turn's boundary (they are no events of the month,
    docs/atlantis.md reading 86, but `events` is the GM's list of what happened), filtered
    as the events are: `--faction` by the faction they concern, `--kind` by "gm.intervention"
    or the intervention's kind."""
    rows = [r for r in svc.interventions(step) if not r.waiting]
    if faction is not None:
        rows = [r for r in rows if r.intervention.faction == faction]
    if kind:
        rows = [r for r in rows if kind in "gm.intervention" or kind in r.intervention.kind]
    return rows


def _now_arg(text: str | None) -> str | None:
    """`run --now`: an ISO time, kept as UTC ("...Z"); a clear message for anything else."""
    if text is None:
        return None
    from datetime import UTC, datetime

    try:
        t = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise CliError(f"--now {text!r}: not a time; write it as 2026-03-09T12:00:00Z", 2) from None
    t = t if t.tzinfo else t.replace(tzinfo=UTC)
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
