"""Atlantis turn reports: the book's sample region word for word, the server's layout as a
whole (golden), and the turn-0 report players get before their first orders."""

from __future__ import annotations

import json

from atlantis_report_world import scenario

from engine import registry
from engine.events import EventLog
from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.lore import ShowItem, ShowObject, ShowSkill
from engine.rulesets.atlantis.report import build
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario

RS = registry.get("atlantis")

BOOK_REGION = """\
plain in Turia (11,15), 800 peasants, $2500.
-------------------------------------------------------------
Wages: $15.
Entertainment available: $125.
For Sale: 50 men at $60.
Wanted: none.
Products: 20 horses.
"""

BOOK_UNITS = """\
* Hans Shadowspawn (15), faction Hans and his Merry Pranksters (14), has: 1
  man, $500. Skills: none.
- Vox Populi (13), has: 1 man.
"""


def text_of(scen, state, faction=14, events=None, fmt="text"):
    return RS.render(RS.report(state, events or EventLog(), faction, scen), fmt)


def test_the_book_sample_region_word_for_word(tmp_path):
    """Regions (the book's sample): header, dashed line, the economy, then `*` own and `-`
    other units; Vox Populi's $200 is not seen (silver is small) and his faction is not
    named (Observation 0 is not higher than his Stealth 0)."""
    scen = scenario(tmp_path, "book")
    text = text_of(scen, RS.initial_state(scen))
    assert BOOK_REGION in text
    assert BOOK_UNITS in text
    assert text.index(BOOK_REGION) < text.index("Exits:") < text.index(BOOK_UNITS)


SERVER_REPORT = """\
Atlantis Report For:
Hans and his Merry Pranksters (14)
February, Year 1

Atlantis Conquest 1.0 (Realmsmith)

Faction Status:
Mages: 0 (5)

Events during turn:

Declared Attitudes (default Neutral):
Hostile : The Silent (3).
Unfriendly : none.
Neutral : none.
Friendly : Red Dragon Clan (7).
Ally : none.

Unclaimed silver: 4500.

plain (11,15) in Turia, 800 peasants, $2500.
------------------------------------------------------------
  Wages: $15.
  Wanted: none.
  For Sale: 50 men [MAN] at $60.
  Entertainment available: $125.
  Products: 20 horses [HORS].

Exits:
  North : forest (11,13) in Turia.
  Northeast : ocean (12,14) in Atlantis Ocean.
  Southeast : swamp (12,16) in Turia.
  South : ocean (11,17) in Atlantis Ocean.
  Southwest : ocean (10,16) in Atlantis Ocean.
  Northwest : mountain (10,14) in Turia.

* Hans Shadowspawn (15), on guard, Hans and his Merry Pranksters (14),
  behind, man [MAN], 500 silver [SILV], sword [SWOR]. Weight: 11.
  Capacity: 0/0/5/0. Skills: combat [COMB] 1 (30).
- Vox Populi (13), man [MAN].

+ Temple of Agrik [3] : tower.
  - High Priest Chafin (9), Red Dragon Clan (7), man [MAN], sword
    [SWOR].

Orders Template (Long Format):

#atlantis 14 "xyzzy"

;*** plain (11,15) in Turia ***

unit 15
; * Hans Shadowspawn (15), on guard, Hans and his Merry Pranksters
; (14), behind, man [MAN], 500 silver [SILV], sword [SWOR]. Weight:
; 11. Capacity: 0/0/5/0. Skills: combat [COMB] 1 (30).
@WORK
@TAX

#end
"""


def mid_game(scen):
    """A month on: Hans guards, fights from behind and has a month of Combat; a tower with
    a unit of faction 7 inside (seen whatever its Stealth, named: it reveals its faction);
    faction 14 has declared attitudes; two `@` orders."""
    s = RS.initial_state(scen)
    s.one("world").month = 1
    hans = next(u for u in s["units"] if u.number == 15)
    hans.guard = hans.behind = True
    s["unit_items"].append(st.UnitItem(15, "sword", 1))
    s["unit_skills"].append(st.UnitSkill(15, "combat", 30))
    s["structures"].append(st.Structure(3, "tower", hans.cell, "Temple of Agrik", work=10))
    s["units"].append(st.Unit(9, 7, hans.cell, "High Priest Chafin", men=1, structure=3, seq=5,
                              reveal="faction"))
    s["unit_items"].extend([st.UnitItem(9, "sword", 1), st.UnitItem(9, "silver", 90)])
    s["unit_skills"].append(st.UnitSkill(9, "stealth", 30))
    s["attitudes"].extend([st.Attitude(14, 7, "friendly"), st.Attitude(14, 3, "hostile")])
    s["known_skills"].append(st.KnownSkill(14, "combat", 1))
    s["repeat_orders"].extend([st.RepeatOrder(15, 1, "WORK"), st.RepeatOrder(15, 2, "@TAX")])
    return s


def test_the_server_layout_as_a_whole(tmp_path):
    """Golden: every section in the server's order and wording, 70 columns, `+` structures
    after the units with their units indented, the template at the end."""
    scen = scenario(tmp_path)
    assert text_of(scen, mid_game(scen)) == SERVER_REPORT


def test_skill_reports_on_first_learning_and_show(tmp_path):
    """A level the faction has not had a report for gets one; a level it had does not
    (combat 1 is known); SHOW SKILL/ITEM/OBJECT events add theirs."""
    scen = scenario(tmp_path)
    s = mid_game(scen)
    s["unit_skills"].append(st.UnitSkill(15, "mining", 90))  # 3 months: level 2
    log = EventLog()
    log.emit(ShowSkill(14, "combat", 1))
    log.emit(ShowItem(14, "sword"))
    log.emit(ShowObject(14, "longboat"))
    log.emit(ShowItem(3, "horse"))  # another faction's request: not in our report
    text = text_of(scen, s, events=log)
    skills = text.split("Skill reports:\n")[1].split("\n\nItem reports:")[0]
    assert [ln.split(":")[0] for ln in skills.split("\n") if ln and not ln.startswith(" ")] == [
        "mining [MINI] 1", "mining [MINI] 2", "combat [COMB] 1"]
    assert "PRODUCE iron [IRON]" in skills and "costs 10 silver" in skills
    assert "Item reports:\nsword [SWOR], weight 1." in text
    assert "weaponsmith [WEAP] 1 may PRODUCE this item from 1 iron [IRON]" in " ".join(text.split())
    assert "Object reports:\nlongboat: This is a ship. It carries 200 weight" in text
    assert "horses [HORS], weight" not in text and "horse [HORS], weight" not in text


def test_events_and_errors_are_told_with_the_unit(tmp_path):
    """The checker's errors name the unit and the order verb (`Name (N): VERB: message.`);
    events of the month the faction may see are listed, others' not."""
    from engine.rulesets.atlantis.lore import ShowSkill as Secret  # faction-only event

    scen = scenario(tmp_path)
    s = RS.initial_state(scen)
    sheet = RS.parse_orders('#atlantis 14 "xyzzy"\nunit 15\nTAX\nCOMBAT fireball\n#end\n')
    diags = RS.check(sheet, s, 14, scen)
    r = build(s, EventLog(), 14, scen, diags, sheet)
    text = RS.render(r)
    errors = text.split("Errors during turn:\n")[1].split("\n\n")[0].split("\n")
    assert errors[0].startswith("Hans Shadowspawn (15): TAX: ")
    combat = [i for i, x in enumerate(errors) if x.startswith("Hans Shadowspawn (15): COMBAT: ")]
    assert combat and "fireball" in " ".join(errors[combat[0]:])
    log = EventLog()
    log.emit(Secret(3, "stealth", 1))
    assert "stealth" not in text_of(scen, s, events=log)


def test_turn_zero_report_of_a_new_conquest_game():
    """Before the first orders each faction learns its starting region, its unit's number
    and gets a template with that unit, dated January, Year 1."""
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org", "") for n in (1, 2, 3, 4)]
    scen = Scenario("atlantis", "Conquest", conquest_map(4, seed=9), RS.default_catalogs(),
                    RS.default_options(), factions, 9)
    state = RS.initial_state(scen)
    for f in (1, 2, 3, 4):
        unit = next(u for u in state["units"] if u.faction == f)
        text = text_of(scen, state, f)
        assert text.startswith(f"Atlantis Report For:\nFaction {f} ({f})\nJanuary, Year 1\n")
        assert "REMINDER: You have not set a password for your faction!" in text
        assert "Your starting position" in text
        assert f"* Unit ({unit.number}), Faction {f} ({f}), man [MAN]." in text
        assert "Unclaimed silver: 5000." in text
        template = RS.orders_template(state, f, scen)
        assert template.startswith(f"#atlantis {f}\n") and f"\nunit {unit.number}\n" in template
        assert template in text.replace("Orders Template (Long Format):\n\n", "")
        others = [u.number for u in state["units"] if u.faction != f]
        assert not any(f"({n})" in text for n in others)


def test_json_and_html_carry_the_same_report(tmp_path):
    scen = scenario(tmp_path)
    s = mid_game(scen)
    data = json.loads(text_of(scen, s, fmt="json"))
    assert data["faction"] == 14 and [u["number"] for u in data["regions"][0]["units"]] == [15, 13]
    assert data["regions"][0]["structures"][0]["units"][0]["name"] == "High Priest Chafin"
    page = text_of(scen, s, fmt="html")
    assert page.startswith("<!DOCTYPE html>") and "<h2>Declared Attitudes (default Neutral):</h2>" in page
    assert "plain (11,15) in Turia, 800 peasants, $2500." in page


def test_findings_without_the_sheet_name_the_line(tmp_path):
    """Through the ruleset (as the game service calls it) only the findings are at hand:
    each error names its line and verb; warnings are not errors."""
    scen = scenario(tmp_path)
    s = RS.initial_state(scen)
    sheet = RS.parse_orders('#atlantis 14 "xyzzy"\nunit 15\nTAX\nCLAIM 9000\n#end\n')
    diags = RS.check(sheet, s, 14, scen)
    assert {d.severity.value for d in diags} == {"error", "warning"}
    text = RS.render(RS.report(s, EventLog(), 14, scen, diags))
    errors = text.split("Errors during turn:\n")[1].split("\n\n")[0].split("\n")
    assert [e.split(": ")[:2] for e in errors if not e.startswith(" ")] == [["Line 3", "TAX"]]


def test_an_eliminated_faction_is_told(tmp_path):
    scen = scenario(tmp_path)
    s = RS.initial_state(scen)
    f = next(f for f in s["factions"] if f.number == 14)
    f.eliminated = 1
    s["units"][:] = [u for u in s["units"] if u.faction != 14]
    text = text_of(scen, s)
    assert "I'm sorry, your faction has been eliminated." in text
    assert "plain (11,15)" not in text and "\nunit " not in text


from dataclasses import dataclass  # noqa: E402

from engine.events import Event  # noqa: E402


@dataclass(frozen=True)
class _TestBattle(Event):
    kind = "test_atlantis_report_battle"
    unit: int
    text: str


@dataclass(frozen=True)
class _TestDeed(Event):
    kind = "test_atlantis_report_deed"
    unit: int
    amount: int
    faction: int = 14

    def visible_to(self) -> frozenset[int]:
        return frozenset({self.faction})


def test_events_without_a_sentence_are_told_generically(tmp_path):
    """An event kind sentences.py does not know (battles are not built yet): a battle-kind
    event goes to `Battles during turn:`, any other to `Events during turn:`, as
    `Name (N): ` and its text or fields;
    an event visible to another faction only is not told."""
    scen = scenario(tmp_path)
    s = RS.initial_state(scen)
    log = EventLog()
    log.emit(_TestBattle(15, "Hans Shadowspawn (15) attacks Vox Populi (13)!\nRound 1:"))
    log.emit(_TestDeed(15, 300))
    log.emit(_TestDeed(13, 99, faction=3))
    text = text_of(scen, s, events=log)
    assert ("Battles during turn:\nHans Shadowspawn (15): Hans Shadowspawn (15) attacks Vox "
            "Populi (13)!\nHans Shadowspawn (15): Round 1:\n") in text
    assert ("Events during turn: Hans Shadowspawn (15): test_atlantis_report_deed: unit=15, "
            "amount=300, faction=14 Declared Attitudes") in " ".join(text.split())
    assert "amount=99" not in text


def test_the_book_layout_lists_structures_above_the_units(tmp_path):
    """Structures (the book's sample): `+ Name [n], type.` above the units, the units inside
    indented under it. The book writes counts always (`1 man`, reading 22)."""
    scen = scenario(tmp_path, "book")
    text = text_of(scen, mid_game(scen))
    block = ("+ Temple of Agrik [3], tower.\n"
             "  - High Priest Chafin (9), faction Red Dragon Clan (7), has: 1 man, 1\n"
             "    sword.\n\n* Hans Shadowspawn (15), on guard, faction Hans and his Merry")
    assert block in text


def test_wrap_is_textwraps_for_single_spaced_text():
    """report_text.wrap cuts long lines at the last space that fits: the lines textwrap
    makes (long words kept whole, never cut at hyphens), and texts with runs of blanks are
    wrapped word by word the same way."""
    import random
    import textwrap

    from engine.rulesets.atlantis.report_text import wrap

    rnd = random.Random(3)
    words = ["a", "bb", "dddd", "x" * 9, "y" * 30, "z" * 75, "é-ü", "w,", "(1,2)"]
    for _ in range(3000):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 30)))
        width, indent = rnd.choice([10, 40, 70, 76]), rnd.choice(["", "  "])
        want = textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_long_words=False, break_on_hyphens=False)
        assert wrap(text, width, indent) == want, (text, width, indent)
        assert wrap(text.replace(" ", "  ", 1), width, indent) == want


def test_html_sections_mark_own_units_as_line_by_line():
    """report_html._pre lays out a clean section in one pass: the same spans, and the same
    own-unit lines (`* ` after any blanks), as escaping and marking each line alone."""
    import random

    from engine.markup import html as esc
    from engine.rulesets.atlantis.report_html import _pre

    def by_line(lines):
        return "<pre>" + "\n".join(
            f"<span class='own'>{esc(ln)}</span>" if ln.lstrip().startswith("* ")
            else f"<span>{esc(ln)}</span>"
            for ln in lines) + "</pre>"

    rnd = random.Random(1)
    bits = ["* ", "- ", " ", "\u00a0", "\u3000", "x", "<b>", "&", "'", "*", "\x1b[1m", "\u202e", "\r"]
    for _ in range(20000):
        lines = ["".join(rnd.choice(bits) for _ in range(rnd.randint(0, 6)))
                 for _ in range(rnd.randint(0, 5))]
        assert _pre(lines) == by_line(lines), lines
