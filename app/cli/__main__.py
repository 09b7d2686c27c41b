"""`python -m app.cli` = `realmsmith`."""

from app.cli import entry

entry()
