"""`python -m app [GAME] [--workspace ...] [--screenshot PNG]` opens the studio."""

import sys

from app.cli.gui_cmd import main

if __name__ == "__main__":
    sys.exit(main())
