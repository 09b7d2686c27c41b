"""Jinja2 templates for reports, compiled once per process.

Compiling a template costs tens of milliseconds; a ruleset that writes one report per
faction (Atlantis: a thousand) must not pay that for every report. `template(folder,
name)` keeps one Environment per folder and one compiled template per name; rendering
is then all that is left. Templates are read from the ruleset's package, which does not
change while Realmsmith runs. Autoescaping is on for .html and .j2 files: player text
never becomes markup.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any


@cache
def environment(folder: str | Path) -> Any:
    """The jinja2 Environment of a template folder (jinja2 is imported on first use)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)),
                              autoescape=jinja2.select_autoescape(["html", "j2"]),
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              auto_reload=False)


@cache
def template(folder: str | Path, name: str) -> Any:
    """A compiled template of that folder."""
    return environment(folder).get_template(name)


__all__ = ["environment", "template"]
