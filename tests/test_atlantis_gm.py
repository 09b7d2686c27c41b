"""The Atlantis GM's hand, end to end through the command line: interventions between turns
(recorded, re-made after a rollback, told to nobody else), players joining (GM `join`,
RESTART), the last report of a faction that is out, and mails with several factions' sets
(a wrong password refuses only its own set and the faction's report says so)."""

from __future__ import annotations

import json

import pytest

from app.cli import EXIT_INPUT, EXIT_OK, main
from engine import registry
from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario
from engine.service import GameService

RS = registry.get("atlantis")
PW = {1: "secret", 2: "", 3: "three"}


@pytest.fixture
def game(tmp_path):
    """Three factions on a Conquest world made for four: one starting island is free."""
    factions = [Faction(n, f"Faction {n}", f"p{n}@example.org" if n != 2 else "", PW[n])
                for n in (1, 2, 3)]  # faction 2: no address, no password (open)
    scen = Scenario("atlantis", "GM test", conquest_map(4, seed=5), RS.default_catalogs(),
                    RS.default_options(), factions, 5)
    GameService.create(tmp_path / "g.db", scen).close()
    return str(tmp_path / "g.db")


def _svc(game):
    return GameService.open(game)


def _home(game, faction: int) -> str:
    with _svc(game) as s:
        u = next(u for u in s.state()["units"] if u.faction == faction)
        x, y = s.scenario.map.grid.atlantis(u.cell)
    return f"({x},{y})"


def _units(game, faction: int, step=None):
    with _svc(game) as s:
        st = s.state(step)
    return [u for u in st["units"] if u.faction == faction]


def _gm(game, *args: str) -> int:
    return main(["gm", game, *args])


def test_a_unit_added_with_items_skills_and_flags(game, capsys):
    home = _home(game, 1)
    assert _gm(game, "unit", "--faction", "1", "--region", home, "--men", "3", "--name",
               "Guards", "--item", "swords=3", "--item", "SILV=100", "--skill", "combat=2",
               "--skill", "obse=45d", "--flag", "guard", "--note", "a prize") == EXIT_OK
    assert "unit 4 (Guards, 3 men) added to faction 1" in capsys.readouterr().out
    with _svc(game) as s:
        st = s.state()
    u = next(u for u in st["units"] if u.number == 4)
    assert (u.faction, u.men, u.name, u.guard) == (1, 3, "Guards", True)
    assert {(r.item, r.count) for r in st["unit_items"] if r.unit == 4} == {("sword", 3),
                                                                         ("silver", 100)}
    # 2 months a man for 3 men = 180 days; 45 days given as days
    assert {(r.skill, r.days) for r in st["unit_skills"] if r.unit == 4} == {("combat", 180),
                                                                          ("observation", 45)}
    assert [w.next_unit for w in st["world"]] == [5]


def test_give_and_take_items_and_silver(game, capsys):
    assert _gm(game, "give", "--faction", "1", "--count", "-1000") == EXIT_OK
    assert _gm(game, "give", "--unit", "2", "--item", "wood", "--count", "7") == EXIT_OK
    assert _gm(game, "give", "--unit", "2", "--item", "wood", "--count", "-2") == EXIT_OK
    with _svc(game) as s:
        st = s.state()
    assert {f.number: f.unclaimed for f in st["factions"]} == {1: 4000, 2: 5000, 3: 5000}
    assert [(r.item, r.count) for r in st["unit_items"] if r.unit == 2] == [("wood", 5)]
    capsys.readouterr()
    # refused: more than there is, the wrong faction's unit, an unknown item; nothing changes
    before = _svc(game).state_json()
    assert _gm(game, "give", "--unit", "2", "--item", "wood", "--count", "-6") == EXIT_INPUT
    assert "unit 2 has only 5 wood" in capsys.readouterr().err
    assert _gm(game, "give", "--faction", "1", "--unit", "2", "--count", "5") == EXIT_INPUT
    assert "unit 2 is faction 2's, not 1's" in capsys.readouterr().err
    assert _gm(game, "give", "--unit", "2", "--item", "gold bars", "--count", "1") == EXIT_INPUT
    assert _svc(game).state_json() == before
    assert len(_svc(game).interventions()) == 3


def test_history_lists_each_intervention_with_its_turn_and_note(game, capsys):
    _gm(game, "give", "--faction", "2", "--count", "250", "--note", "lost mail")
    main(["run", game])
    _gm(game, "password", "--faction", "3", "newpass")
    capsys.readouterr()
    assert _gm(game, "history") == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("turn 0  #1  give faction 2: $250 given to faction 2's "
                             "unclaimed silver")
    assert out[0].endswith("[applied] -- lost mail")
    assert out[1].startswith("turn 1  #2  password faction 3: faction 3's password changed")
    assert "newpass" not in "\n".join(out)  # the history never prints a password
    assert main(["status", game]) == EXIT_OK  # status names those made since the last turn
    said = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  GM: ")]
    assert len(said) == 1 and said[0].startswith("  GM: turn 1  #2  password faction 3")
    assert _gm(game, "history", "--json", "--turn", "1") == EXIT_OK
    rows = json.loads(capsys.readouterr().out)
    assert [(r["turn"], r["kind"], r["faction"]) for r in rows] == [(1, "password", 3)]


def test_an_intervention_belongs_to_its_turn_boundary_through_rollback_and_rerun(game, capsys):
    main(["run", game])
    home = _home(game, 2)
    _gm(game, "unit", "--faction", "2", "--region", home, "--name", "Extra")
    _gm(game, "give", "--unit", "1", "--item", "stone", "--count", "4")
    with _svc(game) as s:
        made = s.state_json()
    main(["rollback", game, "--to", "0"])
    capsys.readouterr()
    _gm(game, "history")
    out = capsys.readouterr().out
    assert out.count("[waits for turn 1 to be made again]") == 2
    assert not [u for u in _units(game, 2) if u.name == "Extra"]
    assert main(["run", game]) == EXIT_OK
    with _svc(game) as s:
        assert s.state_json() == made  # the same turn made again, the same hand on it
        assert [r.status for r in s.interventions()] == ["applied", "applied"]
    # a rollback to the boundary itself keeps them as they are
    main(["run", game])
    main(["rollback", game, "--to", "1"])
    assert [u.name for u in _units(game, 2)].count("Extra") == 1


def test_an_intervention_that_no_longer_fits_the_remade_turn_is_recorded_as_refused(game, capsys):
    with _svc(game) as s:
        s.import_text("#atlantis 2\nunit 2\nFORM 1\nCLAIM 100\nBUY 1 MAN\nEND\n#end\n", "file", "form.ord")
    main(["run", game])
    assert [u.number for u in _units(game, 2)] == [2, 4]  # FORM made unit 4
    assert _gm(game, "give", "--unit", "4", "--item", "wood", "--count", "3") == EXIT_OK
    main(["rollback", game, "--to", "0"])
    with _svc(game) as s:  # faction 2's orders change: no FORM this time
        s.import_text("#atlantis 2\nunit 2\nWORK\n#end\n", "file", "work.ord")
    assert main(["run", game]) == EXIT_OK
    (rec,) = _svc(game).interventions()
    assert rec.status == "refused"
    assert rec.summary == "refused when turn 1 was made again: no unit 4 in this game"
    assert not [u for u in _units(game, 2) if u.number == 4]


def test_interventions_are_told_only_to_the_faction_they_concern(game, tmp_path):
    home = _home(game, 1)
    _gm(game, "unit", "--faction", "1", "--region", home, "--name", "Guards", "--men", "2")
    main(["run", game])
    with _svc(game) as s:
        r1, r2 = s.report(1, 1), s.report(1, 2)
        b2 = s.report(1, 2, "json")
    assert "Guards (4)" in r1
    for text in (r2, b2):  # faction 2 sees nothing of it: no unit, no GM line, no history
        assert "Guards" not in text and "intervention" not in text.lower()
    assert main(["bundle", game, "--out", str(tmp_path / "b")]) == EXIT_OK
    for p in (tmp_path / "b").iterdir():
        if "f02" in p.name:
            import gzip
            data = p.read_bytes()
            data = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
            assert b"Guards" not in data


def test_a_new_player_joins_on_a_free_starting_island_and_gets_a_first_report(game, capsys):
    main(["run", game])
    assert _gm(game, "join", "--name", "Sea Folk", "--email", "sea@example.org",
               "--password", "kelp") == EXIT_OK
    assert "faction 4 (Sea Folk) joins with unit 4" in capsys.readouterr().out
    with _svc(game) as s:
        st, scen = s.state(), s.scenario
        f4 = next(f for f in st["factions"] if f.number == 4)
        assert (f4.unclaimed, f4.password, f4.email, f4.joined) == (5000, "kelp",
                                                                    "sea@example.org", 1)
        (u,) = [u for u in st["units"] if u.faction == 4]
        site = next(x for x in scen.map.sites.values() if x.kind == "start"
                    and x.attrs.get("player") == 4)
        assert (u.number, u.men, u.cell) == (4, 1, site.cell)
        assert 4 in s.reported_factions(1)
        report = s.report(1, 4)
    assert "Sea Folk (4)" in report and "Unit (4)" in report
    assert "#atlantis 4" in report  # the orders template, with its unit number
    # its orders count from the next turn, by its password
    with _svc(game) as s:
        sub = s.import_text('#atlantis 4 "kelp"\nunit 4\nWORK\n#end\n', "email", "m4",
                            sender="other@example.org").submission
        assert (sub.faction, sub.meta["match"], sub.meta["verify"]) == (4, "ok", "verified")
    # no starting island is left: a region must be given
    assert _gm(game, "join", "--name", "Late") == EXIT_INPUT
    assert "no starting island is free" in capsys.readouterr().err
    assert _gm(game, "join", "--name", "Late", "--region", _home(game, 2)) == EXIT_OK


def test_a_join_rolled_back_past_its_turn_comes_back_when_the_turn_is_remade(game):
    main(["run", game])
    _gm(game, "join", "--name", "Sea Folk")
    main(["rollback", game, "--to", "0"])
    with _svc(game) as s:
        assert [f.number for f in s.scenario.factions] == [1, 2, 3]
    main(["run", game])
    with _svc(game) as s:
        assert [f.number for f in s.scenario.factions] == [1, 2, 3, 4]
        assert "Sea Folk (4)" in s.report(1, 4)


def test_restart_ends_the_faction_and_begins_a_new_one_for_its_player(game, capsys):
    with _svc(game) as s:
        s.import_text('#atlantis 3 "three"\nunit 3\nRESTART "three"\n#end\n', "email", "r3",
                      sender="p3@example.org")
    assert main(["run", game]) == EXIT_OK
    with _svc(game) as s:
        st = s.state()
        f3 = next(f for f in st["factions"] if f.number == 3)
        new = next(f for f in st["factions"] if f.number == 4)
        assert f3.eliminated == 1 and not _units(game, 3)
        assert (new.name, new.email, new.password, new.unclaimed) == (
            "Faction 3", "p3@example.org", "three", 5000)
        assert [u.men for u in st["units"] if u.faction == 4] == [1]
        assert s.scenario.faction(4) is not None  # matched and reported like anyone
        last, first = s.report(1, 3), s.report(1, 4)
    assert "your faction has been eliminated" in last
    assert "begins anew for the player of faction 3" in first
    main(["run", game])
    with _svc(game) as s:
        assert s.reported_factions(2) == [1, 2, 4]  # faction 3 had its last report
        with pytest.raises(Exception, match="no text report for faction 3"):
            s.report(2, 3)


def test_a_faction_without_units_gets_a_last_report_and_no_more(game, tmp_path):
    with _svc(game) as s, s.store.transaction() as c:  # faction 2's only unit is gone
        st = s.store.load_state(c, RS.state_schema, 0)
        st["units"][:] = [u for u in st["units"] if u.faction != 2]
        s.store.save_state(c, st)
    main(["run", game])
    with _svc(game) as s:
        assert [f.eliminated for f in s.state()["factions"] if f.number == 2] == [1]
        assert "your faction has been eliminated" in s.report(1, 2)
        assert "leaves the game (no units left)" in s.report(1, 2)
        # the next turn waits for it no more: not in status, no NMR orders for it
        assert [f.faction for f in s.status().factions] == [1, 3]
    main(["run", game])
    with _svc(game) as s:
        assert json.loads(s.steps()[-1].info)["nmr"] == [1, 3]
        assert s.reported_factions(2) == [1, 3]
    assert main(["outbox", game, "--out", str(tmp_path / "o"), "--from", "gm@example.org"]) == 0
    names = sorted(p.name for p in (tmp_path / "o").glob("*.eml"))
    assert names and not [n for n in names if "f02" in n]


def _mail(tmp_path, body: str, name: str = "m.eml") -> str:
    p = tmp_path / name
    p.write_text("From: friend@example.org\nTo: gm@example.org\nSubject: orders\n"
                 "Message-ID: <m1@example.org>\nDate: Wed, 25 Nov 2026 10:00:00 +0000\n\n"
                 + body, encoding="utf-8")
    return str(p)


SETS = """Hello GM, here are our orders.

#atlantis 1 "secret"
unit 1
WORK
#end

#atlantis 2 "whatever"
unit 2
ENTERTAIN
#end

#atlantis 3 "wrong"
unit 3
WORK
#end
""" + "-- \nsignature\n"  # a mail signature after its dashes


def test_a_mail_with_several_sets_gives_each_faction_its_own(game, tmp_path, capsys):
    path = _mail(tmp_path, SETS)
    assert main(["import", game, path]) == 1  # the refused set is an error the GM must see
    out = capsys.readouterr().out
    with _svc(game) as s:
        subs = {x.submission.faction: x for x in s.submissions()}
        assert sorted(subs) == [1, 2, 3]
        assert subs[1].submission.meta["match"] == "ok"
        assert subs[2].submission.meta["match"] == "ok"  # no password: any header
        assert subs[3].submission.meta["match"] == "bad_password"
        assert subs[3].submission.meta["set"] == "set 3 of 3, lines 13-16"
        status = s.status()
        assert [x.source_name for x in status.rejected] == [path]
    # the GM is told which file and which line
    assert "wrong password for faction 3" in out and "line 13" in out
    # each set alone: faction 1's has no ENTERTAIN of faction 2, no error about unit 2
    with _svc(game) as s:
        assert not [d for d in s.check().get(1, []) if d.severity == "error"]
    # importing the same mail again adds nothing
    main(["import", game, path])
    assert len(_svc(game).submissions()) == 3
    assert main(["run", game]) == EXIT_OK
    with _svc(game) as s:
        ev = s.events(1)
        r3 = s.report(1, 3)
        r1 = s.report(1, 1)
    kinds = {(r.event.kind, getattr(r.event, "unit", None)) for r in ev.records}
    # faction 2's own set was its orders (ENTERTAIN, refused: no skill), not NMR's WORK
    assert ("atlantis.failed", 2) in kinds and ("atlantis.earned", 2) not in kinds
    with _svc(game) as s:
        assert json.loads(s.steps()[-1].info)["nmr"] == [3]
    errors = " ".join(r3.split("Errors during turn:")[1].split("Events during turn:")[0].split())
    assert errors.startswith("A set of orders for your faction received 2026-11-25 10:00 was "
                             "refused: its password is not your faction's; none of it was "
                             "carried out.")
    assert "refused" not in r1.split("Events during turn:")[0].lower()


def test_a_gm_password_change_is_the_one_that_counts(game, tmp_path):
    assert _gm(game, "password", "--faction", "1", "fresh") == EXIT_OK
    with _svc(game) as s:
        old = s.import_text('#atlantis 1 "secret"\nunit 1\nWORK\n#end\n', "email", "o").submission
        new = s.import_text('#atlantis 1 "fresh"\nunit 1\nWORK\n#end\n', "email", "n").submission
        assert (old.meta["match"], new.meta["match"]) == ("bad_password", "ok")
        assert s.scenario.faction(1).password == "fresh"
    assert _gm(game, "address", "--faction", "1", "new1@example.org") == EXIT_OK
    with _svc(game) as s:
        assert s.scenario.faction(1).email == "new1@example.org"
        assert [f.email for f in s.state()["factions"] if f.number == 1] == ["new1@example.org"]


def test_check_reads_each_set_of_a_file_as_its_factions(game, tmp_path, capsys):
    p = tmp_path / "sets.txt"
    p.write_text(SETS.replace("ENTERTAIN", "TAX"), encoding="utf-8")
    assert main(["check", game, str(p)]) == 1
    out = capsys.readouterr().out
    # faction 2's TAX is judged on its own line as faction 2's; nothing of it is laid on
    # faction 1's set; faction 3's set is refused whole, naming its #atlantis line
    assert f"{p}:10: error (illegal): TAX: only combat-ready units" in out
    assert "refused, none of it is used: faction 3 from the #atlantis line (line 13)" in out
    assert "not the faction's" not in out and ":5:" not in out


def test_realmsmith_events_lists_the_turns_interventions(game, capsys):
    """`realmsmith events` is the GM's list of what happened at a turn: the interventions made
    at that turn's boundary come after the month's events (reading 86: they are no events of
    the month, and no report names them), filtered by --faction and --kind like the events,
    and never with a password."""
    _gm(game, "give", "--faction", "2", "--count", "250", "--note", "lost mail")
    _gm(game, "password", "--faction", "3", "newpass")
    capsys.readouterr()
    assert main(["events", game, "--turn", "0"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["GM intervention #1: $250 given to faction 2's unclaimed silver "
                          "(now $5250) "
                          "[applied] -- lost mail",
                          "GM intervention #2: faction 3's password changed [applied]"]
    assert main(["events", game, "--turn", "0", "--faction", "3", "--json"]) == EXIT_OK
    rows = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    gm = [r for r in rows if r["kind"] == "gm.intervention"]
    assert [(r["id"], r["intervention"], r["faction"]) for r in gm] == [(2, "password", 3)]
    assert main(["events", game, "--turn", "0", "--kind", "battle"]) == EXIT_OK
    assert "GM intervention" not in capsys.readouterr().out
    main(["run", game])
    capsys.readouterr()
    assert main(["events", game]) == EXIT_OK   # turn 1: none made there
    out = capsys.readouterr().out
    assert "GM intervention" not in out and "newpass" not in out
