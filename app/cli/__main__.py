"""`python -m app.cli` = `realmsmith`."""

import sys

from app.cli import main

sys.exit(main())
