"""The `realmsmith` command line.

Subcommands are discovered: every module `app/cli/<x>_cmd.py` has `register(sub)` that adds
its parsers with `set_defaults(func=handler)`; `handler(args)` returns an exit code. A module
that fails to import is skipped (and named in `realmsmith --help`), so one broken command
never takes the others down. Nothing here imports Qt: the CLI runs headless from cron.

Exit codes (docs/cli.md):
    0 ok; 1 errors found (orders with errors, unmatched submissions, problem files);
    2 usage (bad arguments); 3 cannot open or create the game (missing, not a game,
    damaged, locked, newer format, exists already); 4 bad input file or value (scenario
    file, map, unknown ruleset, turn out of range); 5 the turn failed or the disk is full
    (game unchanged); 6 the turn was run by another process meanwhile (nothing done);
    70 an unexpected internal error (traceback printed; please report it).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_OPEN, EXIT_INPUT, EXIT_FAILED = 0, 1, 2, 3, 4, 5
EXIT_MOVED = 6  # `run` found its turn made by another run meanwhile
EXIT_BUG = 70  # an unexpected error inside Realmsmith: the traceback is printed

LOAD_PROBLEMS: dict[str, str] = {}


class CliError(Exception):
    """A message for the user and the exit code to leave with."""

    def __init__(self, message: str, code: int = EXIT_INPUT):
        super().__init__(message)
        self.code = code


def number(text: str) -> int:
    """argparse type of every faction and turn number: a whole number a game can have (a
    turn above 2^63 would otherwise reach the database and fail there)."""
    from engine.intake.match import MAX_NUMBER

    t = text.strip()
    if not t.isascii() or not t.lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a whole number")
    n = int(t)
    if not -MAX_NUMBER <= n <= MAX_NUMBER:  # the command itself says what fits (turns 0 to N)
        raise argparse.ArgumentTypeError(f"{t[:30]} is out of range (at most {MAX_NUMBER:,})")
    return n


def seed_number(text: str) -> int:
    """argparse type of a dice seed: a whole number that fits the database (64 bits)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a whole number") from None
    if not -2**63 <= n < 2**63:
        raise argparse.ArgumentTypeError("a seed has at most 19 digits")
    return n


def command_modules() -> list[object]:
    import app.cli as pkg

    mods = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.endswith("_cmd"):
            continue
        try:
            mods.append(importlib.import_module(f"app.cli.{info.name}"))
        except Exception as e:  # a broken command module must not break the others
            LOAD_PROBLEMS[info.name] = f"{type(e).__name__}: {e}"
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="realmsmith", description="Realmsmith: run play-by-email strategy games.",
        epilog="Exit codes: 0 ok, 1 errors found, 2 usage, 3 cannot open the game, "
               "4 bad input, 5 turn failed or disk full (game unchanged), 6 turn already run "
               "by another process, 70 internal error. See docs/cli.md.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in command_modules():
        try:
            mod.register(sub)  # type: ignore[attr-defined]
        except Exception as e:
            LOAD_PROBLEMS[mod.__name__.rsplit(".", 1)[-1]] = f"{type(e).__name__}: {e}"
    if LOAD_PROBLEMS:
        parser.epilog += "\nCommand modules that failed to load: " + "; ".join(
            f"{k} ({v})" for k, v in sorted(LOAD_PROBLEMS.items()))
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """parse_args, but a command that takes a list of paths (set_defaults(paths_dest=...))
    also takes paths written after its options: `import GAME --faction 3 FILE`.
    (argparse's parse_intermixed_args does not work with sub-commands.)"""
    args, extra = parser.parse_known_args(argv)
    dest = getattr(args, "paths_dest", None)
    if extra and dest and all(x == "-" or not x.startswith("-") for x in extra):
        getattr(args, dest).extend(extra)
    elif extra:
        parser.parse_args(argv)  # argparse's own "unrecognized arguments" and exit 2
    return args


class _CleanStream:
    """stdout/stderr that drop control characters, terminal escape sequences and bidi
    overrides (engine.markup.clean): `import` and `status` print subjects, senders and file
    names that players chose, and those must not drive the GM's terminal."""

    def __init__(self, stream):  # noqa: ANN001 (any text stream)
        self._stream = stream

    def write(self, text: str) -> int:
        from engine.markup import clean

        self._stream.write(clean(text))
        return len(text)

    def __getattr__(self, name: str):  # noqa: ANN204 (flush, fileno, buffer... as the stream's)
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _CleanStream(out), _CleanStream(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None = None) -> int:
    # only the error classes (no SQLAlchemy): `--help` must start fast (docs/performance.md)
    from engine.db.errors import DiskFull, GameDbError, RunCancelled, RunFailed, TurnMoved

    parser = build_parser()
    try:
        args = _parse(parser, argv)
    except SystemExit as e:  # argparse: --help (0) or usage error (2)
        return int(e.code or 0) if isinstance(e.code, int) else EXIT_USAGE
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below
        return code
    except BrokenPipeError:
        # the reader went away (`| head`): not an error of ours; say nothing more, and keep
        # Python from complaining when it flushes stdout at exit
        try:
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141  # 128 + SIGPIPE, as a shell tool killed by the pipe
    except CliError as e:
        print(f"realmsmith: {e}", file=sys.stderr)
        return e.code
    except TurnMoved as e:
        print(f"realmsmith: {e}", file=sys.stderr)
        return EXIT_MOVED
    except (RunFailed, RunCancelled, DiskFull) as e:
        print(f"realmsmith: {e}", file=sys.stderr)
        return EXIT_FAILED
    except GameDbError as e:
        print(f"realmsmith: {e}", file=sys.stderr)
        return EXIT_OPEN
    except KeyboardInterrupt:
        print("realmsmith: interrupted", file=sys.stderr)
        return 130
    except Exception:
        import traceback

        traceback.print_exc()
        print("realmsmith: unexpected internal error (above); nothing more was done", file=sys.stderr)
        return EXIT_BUG


def entry() -> None:
    """The `realmsmith` command: main(), then leave at once. Tearing the interpreter down
    object by object after a turn (a big state, SQLAlchemy, numpy) took longer than some
    commands themselves; everything is written and closed by then, so flush and go."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    if sys.getprofile() is not None or sys.gettrace() is not None or "PySide6" in sys.modules:
        # a profiler or coverage writes its results at exit; Qt (the studio) has its own
        # clean-up (settings, windows) to do
        sys.exit(code)
    import os

    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
