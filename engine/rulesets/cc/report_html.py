"""The clan's status report as an HTML page: the text report's sections (report_text.py),
each under a heading of its own, every line escaped through engine.markup.html, so no clan
name, slogan or message a player writes becomes markup. Rows of hexes and cities taken this
turn (marked `*`) are bold, as the book prints them; the first page is a header block.
"""

from __future__ import annotations

from typing import Any

from engine.markup import html as esc
from engine.rulesets.cc.report_text import sections

STYLE = ("body{font-family:sans-serif;margin:1em 2em;max-width:70em}"
         "pre{font-family:monospace;margin:0 0 1em;white-space:pre-wrap}"
         ".new{font-weight:bold}h1{font-size:1.3em;margin:.2em 0}h2{font-size:1.05em;margin:1em 0 .3em;"
         "border-bottom:1px solid #999}.first p{margin:.1em 0}nav a{margin-right:.8em}")


def _pre(lines: list[str], bold_marked: bool) -> str:
    rows = []
    for ln in lines:
        cls = " class='new'" if bold_marked and ln.startswith(" *") else ""
        rows.append(f"<span{cls}>{esc(ln)}</span>")
    return "<pre>" + "\n".join(rows) + "</pre>"


def _anchor(title: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in title.lower()).strip("-")


def render_html(r: dict[str, Any]) -> str:
    parts_ = sections(r)
    first = parts_[0][1]
    title = first[1] if len(first) > 1 else first[0]
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
           f"<div class='first'><h1>{esc(first[0])}</h1>"
           + "".join(f"<p>{esc(x)}</p>" for x in first[1:]) + "</div>"]
    out.append("<nav>" + "".join(f"<a href='#{_anchor(t)}'>{esc(t.title())}</a>"
                                 for t, _ in parts_[1:] if t) + "</nav>")
    for t, lines in parts_[1:]:
        if t:
            out.append(f"<h2 id='{_anchor(t)}'>{esc(t)}</h2>")
        out.append(_pre(lines, t in ("HEXES", "CITIES")))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
