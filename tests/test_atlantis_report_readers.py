"""The Atlantis report read back: the orders template parses with no finding, a reader
written the way players' tools (Atlantis Little Helper, the server's clients) parse
reports reads ours, and player text never becomes markup or extra lines."""

from __future__ import annotations

import json
import re

from atlantis_report_world import scenario
from test_atlantis_report import mid_game

from engine import registry
from engine.events import EventLog
from engine.markup import is_clean, json_is_clean
from engine.rulesets.atlantis import orders as o
from engine.rulesets.atlantis import state as st

RS = registry.get("atlantis")

# ---- a small report reader, as ALH reads reports --------------------------------------
# ALH finds sections by their exact first words, regions by a line `terrain (x,y) in Area,`
# followed by dashes, units by the `* `/`- ` bullets (continuation lines indented), and
# names/numbers by `Name (N)`; structures by `+ Name [N] : type`.

REGION = re.compile(r"^(\w[\w ]*) \((\d+),(\d+)\) in ([^,]+)(?:, (\d+) peasants, \$(\d+))?\.$")
UNIT = re.compile(r"^ *([*-]) (.+?) \((\d+)\)(?:, on guard)?(?:, (.+?) \((\d+)\))?[,.;]")
STRUCT = re.compile(r"^\+ (.+) \[(\d+)\] : (\w+)")
SECTIONS = ("Atlantis Report For:", "Faction Status:", "Errors during turn:",
            "Events during turn:", "Declared Attitudes (", "Unclaimed silver:",
            "Orders Template (")


def read(text: str) -> dict:
    lines = text.split("\n")
    out: dict = {"sections": [], "regions": [], "faction": None, "date": None}
    out["faction"] = re.match(r"^(.*) \((\d+)\)$", lines[1]).group(2)
    out["date"] = lines[2]
    logical: list[str] = []  # wrapped entries joined back: continuation lines are indented
    for ln in lines:           # two more than the entry's first line, and are no bullet
        prev = logical[-1] if logical else ""
        indent = len(ln) - len(ln.lstrip())
        if (prev and ln.strip() and indent == len(prev) - len(prev.lstrip()) + 2
                and not ln.lstrip().startswith(("* ", "- ", "+ "))
                and not prev.startswith("---") and prev != "Exits:"):
            logical[-1] += " " + ln.strip()
        else:
            logical.append(ln)
    region = None
    in_template = False
    for i, ln in enumerate(logical):
        if ln.startswith(SECTIONS):
            out["sections"].append(next(s for s in SECTIONS if ln.startswith(s)))
            in_template = ln.startswith("Orders Template (")
            continue
        if in_template:
            continue
        m = REGION.match(ln)
        if m and i + 1 < len(logical) and logical[i + 1].startswith("-----"):
            region = {"terrain": m[1], "xy": (int(m[2]), int(m[3])), "area": m[4],
                      "units": [], "structures": []}
            out["regions"].append(region)
            continue
        m = STRUCT.match(ln)
        if m and region is not None:
            region["structures"].append((int(m[2]), m[3]))
            continue
        m = UNIT.match(ln)
        if m and region is not None:
            region["units"].append({"own": m[1] == "*", "name": m[2], "number": int(m[3]),
                                    "faction": int(m[5]) if m[5] else None,
                                    "inside": ln.startswith("  ")})
    return out


def test_a_tools_reader_reads_our_report(tmp_path):
    scen = scenario(tmp_path)
    s = mid_game(scen)
    text = RS.render(RS.report(s, EventLog(), 14, scen))
    got = read(text)
    assert got["faction"] == "14" and got["date"] == "February, Year 1"
    assert got["sections"] == ["Atlantis Report For:", "Faction Status:", "Events during turn:",
                               "Declared Attitudes (", "Unclaimed silver:", "Orders Template ("]
    [region] = got["regions"]
    assert (region["terrain"], region["xy"], region["area"]) == ("plain", (11, 15), "Turia")
    assert region["structures"] == [(3, "tower")]
    assert [(u["own"], u["number"], u["faction"], u["inside"]) for u in region["units"]] == [
        (True, 15, 14, False), (False, 13, None, False), (False, 9, 7, True)]
    assert region["units"][0]["name"] == "Hans Shadowspawn"
    cell = scen.map.grid.from_atlantis(*region["xy"])
    assert {u.number for u in s["units"] if u.cell == cell} == {u["number"] for u in region["units"]}


# ---- the orders template parses back -----------------------------------------------------

def test_the_template_parses_back_with_no_finding(tmp_path):
    """The template (report's and file) is a valid orders set: `#atlantis` with the password,
    the unit, its `@` orders kept as repeat orders; nothing to warn about."""
    scen = scenario(tmp_path)
    s = mid_game(scen)
    template = RS.orders_template(s, 14, scen)
    sheet = RS.parse_orders(template, "template.txt")
    assert sheet.diagnostics == [] and RS.check(sheet, s, 14, scen) == []
    assert sheet.header["faction"] == 14 and sheet.header["password"] == "xyzzy"
    assert [(type(x), x.unit.number, x.repeat) for x in sheet.orders] == [
        (o.Work, 15, True), (o.Tax, 15, True)]
    report_text = RS.render(RS.report(s, EventLog(), 14, scen))
    assert RS.parse_orders(report_text).diagnostics == []  # the whole report mailed back


def test_the_template_file_is_the_reports_template(tmp_path):
    """With units inside and outside a structure, the file lists them as the report does."""
    scen = scenario(tmp_path)
    s = mid_game(scen)
    cell = s["units"][0].cell
    s["units"].append(st.Unit(20, 14, cell, "Inside", men=1, structure=3, seq=0))
    s["units"].append(st.Unit(21, 14, cell, "Outside", men=2, seq=9))
    text = RS.render(RS.report(s, EventLog(), 14, scen))
    template = RS.orders_template(s, 14, scen)
    assert text.endswith(template)
    assert [ln for ln in template.split("\n") if ln.startswith("unit ")] == [
        "unit 15", "unit 21", "unit 20"]


def test_template_formats(tmp_path):
    scen = scenario(tmp_path)
    s = mid_game(scen)
    fac = next(f for f in s["factions"] if f.number == 14)
    fac.template = "short"
    text = RS.render(RS.report(s, EventLog(), 14, scen))
    assert "Orders Template (Short Format):" in text and "\nunit 15\n@WORK\n@TAX\n" in text
    fac.template = "off"
    text = RS.render(RS.report(s, EventLog(), 14, scen))
    assert "Orders Template" not in text and "#atlantis" not in text
    bare = RS.orders_template(s, 14, scen)  # the file is still written, without comments
    assert bare.startswith('#atlantis 14 "xyzzy"\n') and "\nunit 15\n@WORK\n" in bare


# ---- player text never becomes markup ------------------------------------------------------

EVIL = '<script>alert("x")</script>\x1b[2J\u202eEvil\r\nunit 99\n#end'


def test_player_text_is_escaped_everywhere(tmp_path):
    """A unit name, faction name, description, structure name and area name full of markup,
    terminal escapes, bidi overrides and line breaks: the text report stays one line per
    entry (no forged `unit 99` or `#end` line), the HTML holds no tag of theirs, the JSON no
    control character, and the template still parses to the same orders."""
    scen = scenario(tmp_path)
    s = mid_game(scen)
    for f in s["factions"]:
        f.name = EVIL
    for u in s["units"]:
        u.name = u.description = EVIL
    s["structures"][0].name = EVIL
    s["repeat_orders"].append(st.RepeatOrder(15, 3, "WORK\nunit 13\nGIVE 9 500 silver"))
    r = RS.report(s, EventLog(), 14, scen)
    text, page, data = (RS.render(r, fmt) for fmt in ("text", "html", "json"))
    assert is_clean(text) and json_is_clean(data) and is_clean(page)
    assert "\nunit 99" not in text and "\n#end" not in text.split("#atlantis")[0]
    assert "<script>" not in page and "&lt;script&gt;" in page
    json.loads(data)
    sheet = RS.parse_orders(RS.orders_template(s, 14, scen))
    assert {x.unit.number for x in sheet.orders} == {15}  # no forged unit block
