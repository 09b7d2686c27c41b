"""Fairness of an Atlantis turn (issue 10): a faction's text, HTML and JSON report, its
bundle and its mail hold nothing it could not see - not a stealthy thief or assassin, not
an invisible mage, not the faction of an unidentified attacker, not the dice seed - while
the GM's copy holds everything; and player text (names, DESCRIBE) stays plain text.

One month is played through the game service: in plain (0,0) Guild's Knife (Stealth 2)
assassinates one of Court's Mark's men (Observation 1) and Pickpocket (Stealth 3) robs
Purse; Umbra Cabal's Ghostmage (Invisibility) watches unseen. In plain (4,0) Umbra's
Raider (Stealth 9) attacks Court's Sentry and wins: Court sees Raider fight but never
learns its faction.
"""

from __future__ import annotations

import email
import json
from email.policy import default as default_policy

import pytest

from engine.bundle import open_bundle, write_bundle
from engine.casefile import build_scenario, load_case
from engine.outbox import write_outbox
from engine.rulesets.atlantis import events as ev
from engine.service import GameService

SEED = 918273645
EVIL = "Herald <b>&amp;[b]"
DESCRIPTION = "#end <i>&amp; [b]x[/b]"

CASE = f'''
title = "fairness"
ruleset = "atlantis"
seed = {SEED}
factions = [ {{ number = 1, name = "Guild <b>&amp; [b]", email = "guild@example.org" }},
             {{ number = 2, name = "Court", email = "court@example.org" }},
             {{ number = 3, name = "Umbra Cabal", email = "umbra@example.org" }} ]
[map]
kind = "hex"
terrain_rows = ["ppppp"]
[state]
world = [ {{ month = 1, next_unit = 60 }} ]
factions = [ {{ number = 1, name = "Guild <b>&amp; [b]" }}, {{ number = 2, name = "Court" }},
             {{ number = 3, name = "Umbra Cabal" }} ]
regions = [ {{ cell = 0 }}, {{ cell = 1 }}, {{ cell = 2 }}, {{ cell = 3 }}, {{ cell = 4 }} ]
structures = [ {{ number = 3, kind = "tower", cell = 0, name = "Tower <i>&[i]", work = 10 }} ]
units = [
  {{ number = 1, faction = 1, cell = 0, men = 1, seq = 1, name = "Knife" }},
  {{ number = 5, faction = 1, cell = 0, men = 1, seq = 2, name = "Pickpocket" }},
  {{ number = 6, faction = 1, cell = 0, men = 1, seq = 3, name = "{EVIL}", structure = 3 }},
  {{ number = 10, faction = 2, cell = 0, men = 3, seq = 4, name = "Mark" }},
  {{ number = 11, faction = 2, cell = 0, men = 1, seq = 5, name = "Purse" }},
  {{ number = 40, faction = 3, cell = 0, men = 1, seq = 6, name = "Ghostmage" }},
  {{ number = 42, faction = 3, cell = 4, men = 5, seq = 1, name = "Raider <b>[b]" }},
  {{ number = 60, faction = 2, cell = 4, men = 2, seq = 3, name = "Sentry" }},
]
unit_skills = [
  {{ unit = 1, skill = "stealth", days = 90 }}, {{ unit = 1, skill = "combat", days = 450 }},
  {{ unit = 5, skill = "stealth", days = 180 }}, {{ unit = 10, skill = "observation", days = 90 }},
  {{ unit = 40, skill = "invisibility", days = 180 }}, {{ unit = 40, skill = "stealth", days = 30 }},
  {{ unit = 42, skill = "stealth", days = 900 }}, {{ unit = 42, skill = "combat", days = 450 }},
]
unit_items = [ {{ unit = 1, item = "sword", count = 1 }}, {{ unit = 10, item = "silver", count = 300 }},
               {{ unit = 10, item = "chain armor", count = 3 }},
               {{ unit = 11, item = "silver", count = 4321 }},
               {{ unit = 40, item = "silver", count = 987 }},
               {{ unit = 40, item = "amulet of true seeing", count = 1 }},
               {{ unit = 42, item = "sword", count = 5 }} ]
'''

ORDERS = {
    1: f'#atlantis 1\nunit 1\nASSASSINATE 10\nunit 5\nSTEAL 11 silver\n'
       f'unit 6\nDESCRIBE UNIT "{DESCRIPTION}"\n#end\n',
    3: "#atlantis 3\nunit 42\nATTACK 60\n#end\n",
}
MAIL = {1: "guild@example.org", 2: "court@example.org", 3: "umbra@example.org"}
FORMATS = ("text", "html", "json")
UNIT_FIELDS = ("unit", "number", "attacking_unit", "target_unit", "culprit", "to", "by",
               "captain", "caster", "mover", "heir")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The month played; every faction's reports, bundle and mail, and the GM's reports."""
    tmp = tmp_path_factory.mktemp("fair")
    (tmp / "case.toml").write_text(CASE, encoding="utf-8")
    _, scen = build_scenario(load_case(tmp / "case.toml"))
    with GameService.create(tmp / "game.db", scen) as svc:
        for f, text in ORDERS.items():
            svc.import_text(text, "email", f"mail-{f}", sender=MAIL[f])
        assert not svc.status().rejected
        svc.run()
        out = {f: {fmt: svc.report(1, f, fmt) for fmt in FORMATS} for f in (1, 2, 3, None)}
        for f in (1, 2, 3):
            path = write_bundle(svc, f, tmp / f"f{f}.rsbundle", step=1)
            out[f]["bundle"] = path.read_bytes()
            out[f]["opened"] = open_bundle(path)
        for entry in write_outbox(svc, tmp / "outbox", step=1):
            out[entry.faction]["mail"] = entry.path.read_bytes()
        out["template2"] = svc.ruleset.orders_template(svc.state(1), 2, scen)
    return out


def _units_named(data) -> set[int]:
    """Every unit number a JSON value names in a unit field, at any depth."""
    found: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in UNIT_FIELDS and isinstance(v, int):
                found.add(v)
            if k == "units" and isinstance(v, list):   # a battle's fighters
                found |= {x for x in v if isinstance(x, int)}
            found |= _units_named(v)
    elif isinstance(data, list):
        for v in data:
            found |= _units_named(v)
    return found


def _player_copies(played, faction: int) -> dict[str, str]:
    """Everything faction receives, as text: its three reports, the bundle's reports and
    events (as JSON), and the mail (decoded parts)."""
    mine = played[faction]
    b = mine["opened"]
    out = {fmt: mine[fmt] for fmt in FORMATS}
    out.update({f"bundle {fmt}": text for fmt, text in b.reports.items()})
    out["bundle events"] = json.dumps(b.events.to_list())
    msg = email.message_from_bytes(mine["mail"], policy=default_policy)
    out["mail"] = "\n".join(str(p.get_content()) for p in msg.walk()
                            if p.get_content_maintype() == "text")
    return out


def test_court_sees_no_thief_no_assassin_no_invisible_mage_no_attacking_faction(played):
    copies = _player_copies(played, 2)
    for where, text in copies.items():
        for secret in ("Knife", "Pickpocket", "Ghostmage", "Umbra Cabal", "AMTS", "(40)"):
            assert secret not in text, (where, secret)
    # the JSON report and the bundle's events name no hidden unit by number either
    assert not _units_named(json.loads(played[2]["json"])) & {1, 5, 40}
    assert not _units_named(played[2]["opened"].events.to_list()) & {1, 5, 40}
    b = played[2]["opened"]
    assert {u.number for u in b.state["units"]} == {6, 10, 11}
    assert not {(r.unit, r.item) for r in b.state["unit_items"]} & {(40, "silver"), (1, "sword")}
    for name in (b"Knife", b"Pickpocket", b"Ghostmage", b"(42), Umbra"):
        assert name not in played[2]["bundle"], name
    # what Court may know: a man assassinated, silver stolen, Raider fighting unnamed
    assert "Mark (10) is assassinated in" in copies["text"]
    assert "Purse (11): Has 200 silver stolen." in copies["text"]
    assert "Raider <b>[b] (42), 5 men [MAN], 5 swords [SWOR], combat 2." in copies["text"]
    assert "Raider &lt;b&gt;[b] (42) attacks Sentry (60)" in copies["html"]   # battle escaped
    battles = {x["what"]: x for x in json.loads(played[2]["json"])["battles"]}
    assert battles["assassination"]["attacking_unit"] == 0


def test_guild_does_not_see_the_invisible_mage_or_the_victims_purse(played):
    for where, text in _player_copies(played, 1).items():
        for secret in ("Ghostmage", "AMTS", "Umbra Cabal", "4321", "4111", "observation"):
            assert secret not in text, (where, secret)
    assert {u.number for u in played[1]["opened"].state["units"]} == {1, 5, 6, 10, 11}


def test_the_gm_sees_everything(played):
    gm = played[None]
    for fmt in FORMATS:
        for name in ("Knife", "Pickpocket", "Ghostmage", "Raider", "Umbra Cabal", "AMTS"):
            assert name in gm[fmt] or (fmt == "html" and name in gm["text"]), (fmt, name)
    gm_battles = json.loads(gm["json"])["battles"]
    assert {(x["what"], x["attacking_unit"]) for x in gm_battles} == {
        ("assassination", 1), ("battle", 42)}
    assert "Umbra Cabal (3)" in gm["text"] and "Knife (1), Guild" in gm["text"]


@pytest.mark.parametrize("faction", [1, 2, 3])
def test_no_copy_holds_the_seed(played, faction):
    """The dice seed (and so every roll to come) never reaches a player: not in a report,
    the bundle's game row, events, state or map meta, nor the mail."""
    for where, text in _player_copies(played, faction).items():
        assert str(SEED) not in text, where
    assert str(SEED).encode() not in played[faction]["bundle"]
    assert str(SEED).encode() not in played[faction]["mail"]
    b = played[faction]["opened"]
    assert b.seed == 0 and b.scenario.seed == 0
    assert not {"seed", "dice", "rng"} & set(json.loads(played[faction]["json"]))


def test_player_text_stays_plain_text_everywhere(played):
    """A unit, faction and structure name and a DESCRIBE with `<b>`, `&`, `[b]` and `#end`
    are plain text: escaped in HTML, left as written in text, JSON and mail, and never a
    line of their own an orders parser could take for `#end` or `#atlantis`."""
    for f in (1, 2):
        html = played[f]["html"]
        assert "<b>" not in html and "<i>" not in html and "[b]x" in html
        assert "Herald &lt;b&gt;&amp;amp;[b] (6)" in html
        assert "Tower &lt;i&gt;&amp;[i] [3]" in html
        assert "&lt;i&gt;&amp;amp; [b]x[/b]" in html    # the description, wrapped
        text = played[f]["text"]
        assert f"{EVIL} (6)" in text
        assert [ln for ln in text.splitlines() if ln.strip().startswith(("#end", "#atlantis"))] \
            == [f"#atlantis {f}", "#end"]            # the template's own, nothing else
        assert json.loads(played[f]["json"])["regions"][0]["structures"][0]["units"][0][
            "description"] == DESCRIPTION
        msg = email.message_from_bytes(played[f]["mail"], policy=default_policy)
        body = msg.get_body(("plain",)).get_content()
        assert f"{EVIL} (6)" in body
        attached = msg.get_body(("html",))
        html_parts = [p.get_content() for p in msg.walk() if p.get_content_type() == "text/html"]
        assert attached is not None or html_parts
        assert all("<b>" not in h for h in html_parts)
    assert "Guild &lt;b&gt;&amp;amp; [b] (1)" in played[1]["html"]
    template = played["template2"].splitlines()
    assert template[0] == "#atlantis 2" and template[-1] == "#end"
    assert [ln for ln in template if ln.startswith(("#", "unit"))] == [
        "#atlantis 2", "unit 10", "unit 11", "#end"]


# ---- events that tell two or more factions: the bundle holds only the reader's part ----

def test_events_told_to_several_factions_name_only_the_readers_faction():
    sailed = ev.Sailed(1, 5, 3, "Longboat", 0, 1, aboard=(1, 2, 3))
    assert sailed.seen_by(2) == ev.Sailed(0, 5, 3, "Longboat", 0, 1, aboard=(2,))
    assert sailed.seen_by(1).faction == 1 and 1 in sailed.seen_by(1).visible_to()
    given = ev.Given(1, 5, 10, 2, "silver", 50)
    assert (given.seen_by(1).to_faction, given.seen_by(2).faction) == (0, 0)
    tele = ev.Teleported(1, 5, 7, 2, 3, 0, 1, 0)
    assert tele.seen_by(1) == ev.Teleported(1, 5, 7, 0, 0, 0, 1, 0)
    assert 3 not in tele.visible_to()     # the target's faction: TeleportSeen, if it sees
    hidden = ev.Teleported(1, 5, 7, 2, 3, 0, 1, 0, caster_seen=False)
    assert hidden.seen_by(1).caster == 0 and hidden.seen_by(2).caster == 7
    unit = ev.UnitGiven(1, 5, 2)
    assert unit.seen_by(2) == ev.UnitGiven(0, 5, 2) and unit.seen_by(1) == unit
    for e, f in ((sailed, 2), (given, 1), (given, 2), (tele, 1), (tele, 2), (unit, 2)):
        assert f in e.seen_by(f).visible_to()      # still the reader's event


def test_a_bundle_holds_the_blanked_events():
    from engine.events import EventLog

    log = EventLog()
    log.emit(ev.Sailed(1, 5, 3, "Longboat", 0, 1, aboard=(1, 2)))
    log.emit(ev.Robbed(3, 30, "silver", 5))
    assert [r.event for r in log.seen_by(2).records] == [
        ev.Sailed(0, 5, 3, "Longboat", 0, 1, aboard=(2,))]
    assert log.seen_by(3).records[0].event == ev.Robbed(3, 30, "silver", 5)


def test_teleport_tells_nothing_of_a_unit_whose_faction_did_not_consent():
    """CAST TELEPORT may name any unit number: until the target's faction has declared the
    caster's Friendly, the refusal says only that - not whether it knows Teleport, nor how
    far away it is."""
    from engine.rulesets.atlantis import magic
    from engine.rulesets.atlantis import state as st

    class World:
        def level(self, unit, skill):
            return {1: 1}.get(unit, 0)          # the caster knows Teleport, the target not

        def declared_friendly(self, faction, other):
            return False

    caster, target = st.Unit(1, 1, 0, "Mage", men=1), st.Unit(9, 2, 0, "Stranger", men=1)
    assert magic.target_refusal(World(), caster, target, {"teleport_range": 5}, None) == \
        magic.no_target(9)


def test_the_bundle_does_not_count_everyones_units(played):
    """The world row a bundle holds has the month, not the game-wide next unit and
    structure numbers (which would tell how many units every faction has formed)."""
    for f in (1, 2, 3):
        (w,) = played[f]["opened"].state["world"]
        assert (w.month, w.next_unit, w.next_object, w.next_faction) == (2, 0, 0, 0)


def test_the_checker_tells_of_an_ally_only_for_a_unit_the_faction_sees(tmp_path):
    """ATTACK may name any unit number: the warning that it belongs to a faction declared
    Ally (it goes into the report's errors) comes only for a unit the attacker's faction
    sees there, as the turn itself calls such an attack off, not for one far away or
    hidden."""
    from engine.rulesets.atlantis import state as st
    from engine.rulesets.atlantis.checker import check
    from engine.rulesets.atlantis.parser import parse_orders

    (tmp_path / "case.toml").write_text(CASE, encoding="utf-8")
    rs, scen = build_scenario(load_case(tmp_path / "case.toml"))
    state = rs.initial_state(scen)
    state["attitudes"].extend([st.Attitude(2, 1, "ally"), st.Attitude(2, 3, "ally")])
    sheet = parse_orders("#atlantis 2\nunit 10\nATTACK 6\nATTACK 1\nATTACK 42\n#end\n", "orders")
    told = [d.message for d in check(sheet, state, 2, scen) if "Ally" in d.message]
    assert told == ["ATTACK: unit 6 belongs to a faction declared Ally: attacking it calls "
                    "the attack off and withdraws your troops"]   # Knife hidden, Raider away


PROBE = '''
title = "probe"
ruleset = "atlantis"
seed = 5
[map]
kind = "hex"
terrain_rows = ["ppppp"]
[state]
world = [ { month = 1, next_unit = 40 } ]
factions = [ { number = 1, name = "Seekers" }, { number = 2, name = "Hidden" } ]
regions = [ { cell = 0 }, { cell = 1 }, { cell = 2 } ]
units = [
  { number = 1, faction = 1, cell = 0, men = 1, seq = 1, name = "Asker" },
  { number = 20, faction = 2, cell = 2, men = 1, seq = 1, name = "Far" },
  { number = 21, faction = 2, cell = 0, men = 1, seq = 2, name = "Shade" },
]
unit_skills = [ { unit = 1, skill = "combat", days = 30 }, { unit = 1, skill = "teleport", days = 30 },
                { unit = 1, skill = "pattern", days = 30 }, { unit = 1, skill = "spirit", days = 30 },
                { unit = 21, skill = "stealth", days = 180 }, { unit = 20, skill = "teleport", days = 30 },
                { unit = 21, skill = "teleport", days = 30 }, { unit = 20, skill = "study", days = 0 } ]
unit_items = [ { unit = 1, item = "silver", count = 500 }, { unit = 20, item = "silver", count = 50 },
               { unit = 21, item = "silver", count = 50 } ]
[orders]
1 = """#atlantis 1
unit 1
{order}
#end
"""
'''
PROBE_ORDERS = ["GIVE {n} 5 silver", "TEACH {n}", "ATTACK {n}", "STEAL {n} silver",
                "ASSASSINATE {n}", "CAST teleport 1 UNITS {n}", "CAST teleport {n} UNITS 1"]


def _told(tmp_path, order: str) -> list[str]:
    """Everything faction 1 is told about `order` (checker findings, turn refusals), with
    unit numbers replaced by N."""
    import re

    from engine.casefile import run_case

    path = tmp_path / "probe.toml"
    path.write_text(PROBE.replace("{order}", order))
    r = run_case(load_case(path))
    said = [d.message for d in r.diagnostics if d.faction == 1]
    said += [rec.event.reason for rec in r.events.seen_by(1).records
             if rec.event.kind == "atlantis.failed"]
    return [re.sub(r"\b(99|20|21)\b", "N", m) for m in said]


@pytest.mark.parametrize("order", PROBE_ORDERS)
def test_an_order_naming_a_unit_cannot_probe_for_hidden_units(tmp_path, order):
    """A unit number that does not exist, one of a unit in another region and one of a
    stealthy unit in the same region draw the same words from the checker and the turn:
    nothing a player is told shows whether a unit number is in the game, or where."""
    told = {n: _told(tmp_path, order.format(n=n)) for n in (99, 20, 21)}
    assert told[99], told                       # the order is refused, with a reason
    assert told[99] == told[20] == told[21], told


def test_only_the_faction_that_left_hears_of_it(tmp_path):
    """A faction out of the game (QUIT, no units left) is told so, and the GM; the other
    factions learn nothing of who left or why (the Atlantis server tells no one else)."""
    gone = ev.FactionGone(2, "quit")
    assert gone.visible_to() == frozenset({2})
    assert ev.GameWon(1, 5).visible_to() is None     # the end of the game is public


# ---- the bundle holds what the text report shows: units seen for fighting, known factions ----

def _in_text(b, text: str) -> None:
    """Every unit and every faction a bundle holds is one its text report names: units as
    `Name (N)`, other factions as `Name (N)` too."""
    for u in b.state["units"]:
        assert f"{u.name} ({u.number})" in text, u
    assert {f.number for f in b.factions} == {f.number for f in b.state["factions"]}
    for f in (*b.factions, *b.state["factions"]):
        assert f.number == b.faction.number or f"{f.name} ({f.number})" in text, f


@pytest.mark.parametrize("faction", [1, 2, 3])
def test_a_bundle_holds_no_unit_or_faction_its_report_does_not_name(played, faction):
    b = played[faction]["opened"]
    _in_text(b, played[faction]["text"])


def test_a_bundle_lists_only_the_factions_it_knows(played):
    """Court's units never identify the Umbra Cabal (Raider's Stealth is above their
    Observation): Court's bundle does not list it, so no player learns from the list of
    factions who is in the game or who joined it. The Cabal's Ghostmage names them all."""
    court = played[2]["opened"]
    assert {f.number for f in court.factions} == {1, 2}    # Guild: Herald is in the tower
    assert b"Umbra Cabal" not in played[2]["bundle"]
    assert {f.number for f in played[3]["opened"].factions} == {1, 2, 3}


def test_a_unit_seen_only_for_fighting_is_on_the_bundles_map(tmp_path):
    """The Onlookers' Watcher sees Knives only because it fought (reading 77): the text
    report lists it, and now so does the bundle's map - unnamed, its faction 0 - while the
    Lurker of the same faction, hidden and out of the fight, is in neither; the bundle
    lists the Onlookers alone (it identified nobody)."""
    from pathlib import Path

    from engine.viewer_model import from_service, load_turn

    case = load_case(Path(__file__).parent / "cases" / "atlantis" / "combat-seen-in-battle.toml")
    _, scen = build_scenario(case)
    with GameService.create(tmp_path / "game.db", scen) as svc:
        svc.import_text(case.data["orders"]["1"], faction=1)
        svc.run()
        text = svc.report(1, 3, "text")
        path = write_bundle(svc, 3, tmp_path / "f3.rsbundle", step=1)
        b = open_bundle(path)
        gm_view = {u.number for u in from_service(svc, 3, 1).state["units"]}
    assert "Knives (1), 5 men [MAN]" in text and "Lurker (2)" not in text
    # the viewer, on the bundle or on the GM's game trying faction 3, shows the same units
    assert {u.number for u in load_turn(path).state["units"]} == gm_view == {1, 30}
    units = {u.number: u for u in b.state["units"]}
    assert set(units) == {1, 30} and units[1].faction == 0      # the Farmer fell
    assert [f.number for f in b.factions] == [3]
    _in_text(b, text)


# ---- the GM's copy of a refusal: the precise reason, for the GM only (reading 97) ----

GM_PROBE = PROBE.replace('''[orders]
1 = """#atlantis 1
unit 1
{order}
#end
"""''', "")
GM_ORDERS = "#atlantis 1\nunit 1\nGIVE 99 5 silver\nGIVE 20 5 silver\nATTACK 21\n#end\n"
GM_WORDS = ("no unit 99 is in the game", "unit 20 is in (2,0), not in (0,0)",
            "unit 21 is in (0,0), hidden by stealth: its Stealth is 3, the faction's best "
            "Observation there is 0")


def test_the_gm_reads_why_a_unit_is_not_seen_and_the_player_does_not(tmp_path, capsys):
    """GIVE to a unit that does not exist, GIVE to one elsewhere and ATTACK on one hidden in
    the region: the player reads "not here (or you cannot see it)" thrice in the checker's
    findings, its report, bundle and mail; the GM reads which it is in `realmsmith check`,
    in the GM's report and in the events' `gm_reason`."""
    from app.cli import main

    (tmp_path / "case.toml").write_text(GM_PROBE, encoding="utf-8")
    _, scen = build_scenario(load_case(tmp_path / "case.toml"))
    scen.factions[0].email = "seek@example.org"
    with GameService.create(tmp_path / "game.db", scen) as svc:
        svc.import_text(GM_ORDERS, "email", "m", sender="seek@example.org")
        found = svc.check()[1]
        assert [d.gm_note for d in found if d.gm_note] == list(GM_WORDS)
        assert all("for the GM" not in d.format() and "gm_note" not in d.to_dict()
                   for d in found)
    assert main(["check", str(tmp_path / "game.db")]) == 0
    out = capsys.readouterr().out
    assert all(f"for the GM: {w}" in out for w in GM_WORDS), out
    with GameService.open(tmp_path / "game.db") as svc:
        svc.run()
        gm_report = svc.report(1, None, "text") + svc.report(1, None, "json")
        failed = [e for e in svc.events(1).of(ev.OrderFailed) if e.faction == 1]
        assert {e.gm_reason for e in failed} == set(GM_WORDS)   # combat comes before GIVE
        assert {e.reason for e in failed} == {"unit 99 is not here (or you cannot see it)",
                                              "unit 20 is not here (or you cannot see it)",
                                              "unit 21 is not here (or you cannot see it)"}
        player = "".join(svc.report(1, 1, fmt) for fmt in FORMATS)
        bundle = write_bundle(svc, 1, tmp_path / "f1.rsbundle", step=1).read_bytes()
        opened = open_bundle(tmp_path / "f1.rsbundle")
        mails = b"".join(e.path.read_bytes() for e in write_outbox(svc, tmp_path / "out", step=1))
    gm_text = " ".join(gm_report.split())
    for w in GM_WORDS:
        assert w in gm_text, w
        assert w not in player
        assert w.encode() not in bundle and w.encode() not in mails
    assert "for the GM" not in player and b"for the GM" not in bundle
    assert not any(r.event.gm_reason for r in opened.events.records
                   if r.event.kind == "atlantis.failed")
    assert player.count("is not here (or you cannot see it)") >= 3
