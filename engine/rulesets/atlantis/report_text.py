"""The Atlantis report as text, in the layout Atlantis players and their tools read.

Two layouts (option `report_layout`): "server" (default) is the open-source Atlantis
server's, which players' tools such as Atlantis Little Helper parse: region header
`plain (11,15) in Turia, 800 peasants, $2500.`, item codes in brackets, own units with
weight, capacity and skills in days. "book" reproduces the rule book's sample region
word for word (`plain in Turia (11,15)`, `has: 1 man, $500. Skills: none.`). Section
titles are the server's in both, since tools find sections by them.

Lines are wrapped at 70 columns (the book's sample: 76), continuation lines indented two
more spaces. Player text (names, descriptions) is made one clean line first
(engine.markup.one_line), so nothing a player writes can add a line or a control code.
"""

from __future__ import annotations

from typing import Any

from engine.markup import one_line

WIDTH = {"server": 70, "book": 76}
DASHES = {"server": 60, "book": 61}
CAP = {a: a.capitalize() for a in ("hostile", "unfriendly", "neutral", "friendly", "ally")}


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Greedy word wrap (textwrap's result for single-spaced text, without its cost: a
    1,000-faction turn wraps some 100,000 lines); a word longer than the line stays whole."""
    if len(text) + len(indent) <= width and "  " not in text:
        return [indent + text]
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return _wrap_spaced(text, width, indent)
    out, line, more = [], indent, indent + "  "
    first = True
    for word in text.split():
        if first:
            line, first = indent + word, False
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = more + word
    out.append(line)
    return out


def _wrap_spaced(text: str, width: int, indent: str) -> list[str]:
    """`wrap` of a text whose words are one space apart (the spaces are its only blanks:
    it is printable): each line cut at the last space that fits, found by rfind rather
    than word by word."""
    out, at, end, prefix = [], 0, len(text), indent
    while True:
        room = width - len(prefix)
        if end - at <= room:
            out.append(prefix + text[at:])
            return out
        cut = text.rfind(" ", at, at + room + 1)
        if cut <= at:  # the first word is longer than the line: it stays whole
            cut = text.find(" ", at)
            if cut < 0:
                out.append(prefix + text[at:])
                return out
        out.append(prefix + text[at:cut])
        at, prefix = cut + 1, indent + "  "


def place(t: dict[str, Any], layout: str) -> str:
    """`plain (11,15) in Turia` (server) or `plain in Turia (11,15)` (book)."""
    area = one_line(t["area"])
    if layout == "book":
        return f"{t['terrain']} in {area} ({t['x']},{t['y']})"
    return f"{t['terrain']} ({t['x']},{t['y']}) in {area}"


def _things(entries: list[dict[str, Any]], layout: str, money: bool = True) -> str:
    out = []
    for e in entries:
        n, code = e["count"], e.get("code", "")
        if layout == "book":
            out.append(f"${n}" if money and e["item"] == "silver" else
                       f"{n} {e['name'] if n == 1 else e['plural']}")
        else:
            label = e["name"] if n == 1 else e["plural"]
            text = label if n == 1 else f"{n} {label}"
            out.append(f"{text} [{code}]" if code else text)
    return ", ".join(out)


def unit_line(u: dict[str, Any], layout: str) -> str:
    """One unit as the report writes it (before wrapping), with its `*`/`-` mark."""
    parts = [f"{'*' if u['own'] else '-'} {one_line(u['name'])} ({u['number']})"]
    if u["guard"]:
        parts.append("on guard")
    if u["faction"] is not None:
        name = f"{one_line(u['faction_name'])} ({u['faction']})"
        parts.append(f"faction {name}" if layout == "book" else name)
    parts += u["flags"]
    things = _things(u["items"], layout)
    if layout == "book":
        parts.append(f"has: {things or 'nothing'}")
    elif things:
        parts.append(things)
    text = ", ".join(parts)
    if u["description"]:
        text += f"; {one_line(u['description'])}"
    text += "."
    if "skills" in u:
        if layout == "book":
            skills = ", ".join(f"{s['skill']} {s['level']}" for s in u["skills"])
        else:
            text += f" Weight: {u['weight']}. Capacity: {'/'.join(map(str, u['capacity']))}."
            skills = ", ".join(f"{s['skill']} [{s['code']}] {s['level']} ({s['days']})"
                               for s in u["skills"])
        text += f" Skills: {skills or 'none'}."
        if u.get("combat_spell"):
            text += f" Combat spell: {u['combat_spell']}."
    return text


def structure_line(s: dict[str, Any], layout: str) -> str:
    sep = ", " if layout == "book" else " : "
    text = f"+ {one_line(s['name'])} [{s['number']}]{sep}{s['kind']}"
    if s["needs"]:
        text += f", needs {s['needs']}"
    if s["description"]:
        text += f"; {one_line(s['description'])}"
    return text + "."


_HEADS: dict[tuple[int, str], tuple[list, list[str]]] = {}  # see _head_lines


def _head_lines(reg: dict[str, Any], layout: str) -> list[str]:
    """A region's lines down to its exits, which every faction that sees the region reads
    alike: laid out once for the reports of a turn. Regions built by report.py share their
    exits list (report._Index.exits), one object per region and state, which is the key
    (kept with the lines, so that its id is not reused); any other region is laid out anew."""
    key = (id(reg["exits"]), layout)
    got = _HEADS.get(key)
    if got is not None and got[0] is reg["exits"]:
        return got[1]
    lines = _region_head(reg, layout)
    if len(_HEADS) > 50_000:
        _HEADS.clear()
    _HEADS[key] = (reg["exits"], lines)
    return lines


def forget_heads() -> None:
    """Let the laid-out heads go (a new state is being reported on: report._Index)."""
    _HEADS.clear()


def _region_head(reg: dict[str, Any], layout: str) -> list[str]:
    w = WIDTH[layout]
    head = (f"{place(reg, layout)}, {reg['peasants']} peasants, ${reg['silver']}."
            if reg["peasants"] or reg["terrain"] != "ocean" else f"{place(reg, layout)}.")
    out = wrap(head, w) + ["-" * DASHES[layout]]
    sale = ", ".join(f"{_things([e], layout, money=False)} at ${e['price']}"
                     for e in reg["for_sale"]) or "none"
    fields = {"Wages": f"${reg['wages']}", "Wanted": "none",
              "For Sale": sale, "Entertainment available": f"${reg['entertainment']}",
              "Products": _things(reg["products"], layout) or "none"}
    order = (("Wages", "Entertainment available", "For Sale", "Wanted", "Products")
             if layout == "book" else
             ("Wages", "Wanted", "For Sale", "Entertainment available", "Products"))
    ind = "" if layout == "book" else "  "
    for k in order:
        out += wrap(f"{k}: {fields[k]}.", w, ind)
    out += ["", "Exits:"]
    for e in reg["exits"]:
        out += wrap(f"{e['direction']} : {place(e, layout)}.", w, "  ")
    return out


def _unit_text(u: dict[str, Any], layout: str, memo: dict[int, str] | None) -> str:
    """unit_line, kept in `memo` (by the unit's entry) for the orders template's long
    format, which writes the own units' lines again in the same report."""
    if memo is None:
        return unit_line(u, layout)
    text = memo.get(id(u))
    if text is None:
        text = memo[id(u)] = unit_line(u, layout)
    return text


def region_lines(reg: dict[str, Any], layout: str, memo: dict[int, str] | None = None) -> list[str]:
    w = WIDTH[layout]
    out = list(_head_lines(reg, layout))
    units = [ln for u in reg["units"] for ln in wrap(_unit_text(u, layout, memo), w)]
    structs = []
    for s in reg["structures"]:
        structs += wrap(structure_line(s, layout), w)
        structs += [ln for u in s["units"] for ln in wrap(_unit_text(u, layout, memo), w, "  ")]
    blocks = [structs, units] if layout == "book" else [units, structs]
    for b in blocks:
        if b:
            out += [""] + b
    return out + [""]


def _unit_ref(e: dict[str, Any]) -> str:
    return f"{one_line(e['unit_name'])} ({e['unit']}): " if e.get("unit") else ""


def sections(r: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The report as (title, lines) sections; text and HTML both lay these out."""
    layout = r["layout"]
    w = WIDTH[layout]
    out: list[tuple[str, list[str]]] = []
    head = ["Atlantis Report For:",
            f"{one_line(r['faction_name'])} ({r['faction']})" if r["faction"] is not None
            else one_line(r["faction_name"]),
            f"{r['month']}, Year {r['year']}", "", "Atlantis Conquest 1.0 (Realmsmith)"]
    if r["eliminated"]:
        head += ["", "I'm sorry, your faction has been eliminated."]
    elif r["quit"]:
        head += ["", "Your faction has quit the game; this is its last report."]
    elif not r["password_set"] and r["faction"] is not None:
        head += ["", "REMINDER: You have not set a password for your faction!"]
    if r["turn"] == 0 and r["faction"] is not None:
        head += [""] + wrap("Your starting position: your units' numbers are below, and the "
                            "orders template at the end is ready for your first orders.", w)
    out.append(("", head))
    out.append(("Faction Status:", [f"Mages: {r['mages']} ({r['max_mages']})"]))
    if r["errors"]:
        lines = []
        for e in r["errors"]:
            if "verb" in e:
                who = _unit_ref(e) or (f"Line {e['line']}: " if e["line"] else "")
                msg = e["message"].rstrip(".")
                verb = f"{e['verb']}: " if e["verb"] else ""  # none: the whole set (a password)
                lines += wrap(f"{who}{verb}{one_line(msg)}.", w)
            else:
                lines += wrap(_unit_ref(e) + one_line(e["text"]), w)
        out.append(("Errors during turn:", lines))
    if r["battles"]:
        out.append(("Battles during turn:",
                    [ln for b in r["battles"] for part in b["text"].split("\n")
                     for ln in wrap(_unit_ref(b) + one_line(part), w)]))
    out.append(("Events during turn:",
                [ln for e in r["events"] for ln in wrap(_unit_ref(e) + one_line(e["text"]), w)]))
    for key, title in (("skill_reports", "Skill reports:"), ("item_reports", "Item reports:"),
                       ("object_reports", "Object reports:")):
        if r[key]:
            lines = []
            for text in r[key]:
                lines += [""] + wrap(text, w)
            out.append((title, lines[1:]))
    att = r["attitudes"]
    out.append((f"Declared Attitudes (default {CAP.get(att['default'], att['default'])}):",
                [ln for a, cap in CAP.items() for ln in wrap(
                    f"{cap} : " + (", ".join(f"{one_line(x['name'])} ({x['faction']})"
                                            for x in att[a]) or "none") + ".", w)]))
    out.append(("", [f"Unclaimed silver: {r['unclaimed']}."]))
    memo: dict[int, str] | None = {} if layout == "server" else None  # the template's layout
    for reg in r["regions"]:
        out.append(("region", region_lines(reg, layout, memo)))
    if r["template"] != "off" and r["faction"] is not None:
        out.append(("template", template_lines(r, memo=memo)))
    return out


def template_lines(r: dict[str, Any], titled: bool = True,
                   memo: dict[int, str] | None = None) -> list[str]:
    """The orders template: `#atlantis N "password"`, per region a `;***` comment, per unit
    `unit N`, (long) the unit's line as comments, and its `@` orders; then `#end`."""
    fmt = r["template"] if r["template"] in ("long", "short") else "short"
    out = [f"Orders Template ({fmt.capitalize()} Format):", ""] if titled else []
    pw = r["password"]
    quoted = f' "{pw}"' if pw and '"' not in pw else (f" {pw}" if pw else "")
    out += [f"#atlantis {r['faction']}{quoted}", ""]
    for reg in r["regions"]:
        own = [u for u in reg["units"] if u["own"]]
        own += [u for s in reg["structures"] for u in s["units"] if u["own"]]
        if not own:
            continue
        out += [f";*** {place(reg, 'server')} ***", ""]
        for u in own:
            out.append(f"unit {u['number']}")
            if fmt == "long":
                out += [";" + ln[1:] if ln.startswith(" ") else "; " + ln
                        for ln in wrap(_unit_text(u, "server", memo), WIDTH["server"] - 2)]
            out += [one_line(o) for o in u["orders"]]
            out.append("")
    return out + ["#end"]


def render_text(r: dict[str, Any], secs: list[tuple[str, list[str]]] | None = None) -> str:
    """The text report; `secs`: its sections if already made (render_all)."""
    lines: list[str] = []
    for title, body in sections(r) if secs is None else secs:
        if title in ("", "region", "template"):
            lines += body
        else:
            lines += [title] + body
        if title != "region":
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def render_template(r: dict[str, Any]) -> str:
    """The template alone, the file players fill in (no title line)."""
    return "\n".join(template_lines(r, titled=False)) + "\n"
