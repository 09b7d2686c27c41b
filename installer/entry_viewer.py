"""Entry point of the frozen player viewer (`realmsmith-viewer`, app.viewer:main):
`realmsmith-viewer [BUNDLE ...]`, `--selftest [BUNDLE]`, `--help`."""

import sys

from app.viewer import main

if __name__ == "__main__":
    sys.exit(main())
