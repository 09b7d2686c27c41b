"""The Atlantis report as an HTML page: the text report's sections, each escaped line by
line through engine.markup.html, so no name or description a player writes becomes markup.
"""

from __future__ import annotations

import html as _html
import re
from typing import Any

from engine.markup import html as esc
from engine.markup import is_clean
from engine.rulesets.atlantis.report_text import sections

STYLE = ("body{font-family:sans-serif;margin:1em 2em}pre{font-family:monospace;margin:0 0 1em}"
         ".own{font-weight:bold}h2{font-size:1.1em;margin:1em 0 .3em}")


_OWN = re.compile(r"<span>(\s*\* )")  # a line that is `* ` after its blanks (str.lstrip's)


def _pre(lines: list[str]) -> str:
    # Lines with nothing to clean (all but a hostile name's) are escaped in one call, not
    # one each: the same text, as HTML escaping goes character by character
    whole = "\n".join(lines)
    if lines and is_clean(whole) and len(lines) == whole.count("\n") + 1:
        # escaping leaves the blanks and "* " that begin an own unit's line as they are,
        # so those lines are found in the escaped text, all in one pass
        rows = "<span>" + _html.escape(whole, quote=True).replace("\n", "</span>\n<span>") + "</span>"
        return "<pre>" + (_OWN.sub(r"<span class='own'>\1", rows) if "* " in whole else rows) + "</pre>"
    safe = [esc(ln) for ln in lines]
    rows = [f"<span class='own'>{text}</span>" if ln.lstrip().startswith("* ") else
            f"<span>{text}</span>" for ln, text in zip(lines, safe, strict=True)]
    return "<pre>" + "\n".join(rows) + "</pre>"


def render_html(r: dict[str, Any], secs: list[tuple[str, list[str]]] | None = None) -> str:
    """The HTML report; `secs`: its sections if already made (render_all)."""
    title = f"Atlantis Report For: {r['faction_name']} ({r['faction']}), {r['month']}, Year {r['year']}"
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"]
    for name, body in sections(r) if secs is None else secs:
        if name == "region":
            parts.append(f"<h2>{esc(body[0])}</h2>{_pre(body[1:])}")
        elif name == "template":
            parts.append(f"<h2>{esc(body[0])}</h2>{_pre(body[2:])}")
        elif name:
            parts.append(f"<h2>{esc(name)}</h2>{_pre(body)}")
        else:
            parts.append(_pre(body))
    parts.append("</body></html>")
    return "\n".join(parts)
