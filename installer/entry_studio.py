"""Entry point of the frozen studio (`realmsmith`): the command line of app.cli, plus
`--selftest` (installer/selftest.py), and the studio window when started with no
arguments (a double-click)."""

import sys

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--selftest"]:
        import selftest

        sys.exit(selftest.run())
    from app.cli import main

    sys.exit(main(args or ["gui"]))
