"""The GM's mail round trip, end to end, for every ruleset: the outbox mail goes out, the
player replies to it with orders (quoting the report), the reply is piped into
`realmsmith import GAME -` as a delivery tool does, and the orders count for the turn
being collected. Orders answering an old report are an error with a hint, never a silent
NMR; `reassign` and `dismiss` settle what `check` complains about."""

from __future__ import annotations

import email
import io
import json
import sys
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from app.cli import EXIT_ERRORS, EXIT_OK, main
from engine import registry
from engine.outbox import write_outbox
from engine.service import GameService
from engine.threads import load_thread

ROOT = Path(__file__).resolve().parents[1]

# a valid first order of faction 1 for turn 1 in each ruleset's demo
FIRST_ORDERS = {
    "kok": None,      # the demo's scripted orders for turn 1
    "artnes": None,
    "coi": "Harvest\n",
}


def _reply(outbox_mail: Path, body: str, msgid: str) -> bytes:
    """What a mail program sends when the player answers the report: Re: subject, the
    orders on top, the report quoted below."""
    got = email.message_from_bytes(outbox_mail.read_bytes(), policy=policy.default)
    quoted = "\n".join("> " + ln for ln in got.get_body(("plain",)).get_content().splitlines()[:8])
    r = EmailMessage()
    r["From"] = got["To"]
    r["To"] = got["From"]
    r["Subject"] = "Re: " + got["Subject"]
    r["Date"] = "Fri, 20 Nov 2026 13:30:00 +0000"
    r["Message-ID"] = msgid
    r["In-Reply-To"] = got["Message-ID"]
    r.set_content(f"{body}\nOn Friday the GM wrote:\n{quoted}\n")
    return r.as_bytes()


def _stdin(monkeypatch, data: bytes) -> None:
    class In:
        buffer = io.BytesIO(data)

        def read(self) -> str:  # pragma: no cover - the CLI reads the buffer
            return data.decode()

    monkeypatch.setattr(sys, "stdin", In())


def _game(tmp_path: Path, name: str) -> tuple[Path, str]:
    rs = registry.get(name)
    scen, scripted = rs.demo()
    for f in scen.factions:  # every player has an address to reply from
        f.email = f.email or f"player{f.number}@example.org"
    db = tmp_path / f"{name}.db"
    GameService.create(db, scen).close()
    if name == "coi":  # the forum game starts with the GM's post
        posts, _ = load_thread(ROOT / scen.meta["demo_thread"])
        with GameService.open(db) as svc:
            svc.import_submissions(posts[:2])
            svc.run()
        return db, FIRST_ORDERS[name]
    return db, scripted[1][1]


@pytest.mark.parametrize("name", ["kok", "artnes", "coi"])
def test_a_reply_to_the_report_mail_counts(name, tmp_path, monkeypatch, capsys):
    db, orders = _game(tmp_path, name)
    with GameService.open(db) as svc:
        step = svc.current_step
        entries = write_outbox(svc, tmp_path / "outbox", step, sender="gm@example.org")
        subject = svc.ruleset.report_subject(svc.scenario, step)
    mail = entries[0].path
    sent = email.message_from_bytes(mail.read_bytes(), policy=policy.default)
    assert sent["From"] == "gm@example.org" and sent["Subject"] == subject
    reply = _reply(mail, orders, "<reply-1@example.org>")
    (tmp_path / "reply.eml").write_bytes(reply)

    _stdin(monkeypatch, reply)
    assert main(["import", str(db), "-"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "stored, faction 1" in out and "0 error(s)" in out, out
    # the same mail given by path is the same submission: seen before, nothing new
    assert main(["import", str(db), str(tmp_path / "reply.eml")]) == EXIT_OK
    assert "1 seen before (skipped)" in capsys.readouterr().out
    with GameService.open(db) as svc:
        [s] = [s for s in svc.submissions() if s.submission.source_name == "<stdin>"]
        assert s.faction == 1 and s.submission.source_kind == "email"
        if name != "coi":
            assert s.step == step + 1
            assert svc.status().factions[0].submitted
    assert main(["check", str(db), "--faction", "1"]) == EXIT_OK
    capsys.readouterr()
    assert main(["run", str(db), "-q"]) == EXIT_OK
    capsys.readouterr()
    with GameService.open(db) as svc:
        [s] = [s for s in svc.submissions() if s.submission.source_name == "<stdin>"]
        assert s.applied_step == step + 1          # used by the turn it was sent for
        if name == "coi":                          # the mail became a post of the player
            done = [r.event for r in svc.events().records if r.event.kind == "coi_action_done"]
            assert [(e.player, e.action) for e in done] == [(1, "harvest")]
        else:
            info = json.loads(svc.steps()[-1].info)
            assert s.id in info["submissions"] and 1 not in info["nmr"]


def test_kok_report_subject_asks_for_the_next_turn():
    rs = registry.get("kok")
    scen = rs.demo()[0]
    subject = rs.report_subject(scen, 4)
    assert subject.startswith("DEMO 5 ")          # what the book tells players to write
    from engine.intake import match_submission
    from engine.ruleset import Submission

    for prefix in ("Re: ", "AW: ", "Fwd: Re: ", "SV:", ""):
        sub = Submission("BEGIN\nEND\n", "email", "x.eml", sender=scen.factions[1].email,
                         subject=prefix + subject)
        match_submission(sub, rs, scen, 5)
        assert (sub.faction, sub.step, sub.meta["match"]) == (2, 5, "ok"), sub.matched_by


def test_orders_for_a_turn_already_run_are_an_error_until_reassigned(tmp_path, monkeypatch, capsys):
    db, orders = _game(tmp_path, "kok")
    with GameService.open(db) as svc:
        old = write_outbox(svc, tmp_path / "t0", 0)        # the report of turn 0...
        scripted = registry.get("kok").demo()[1]
        for f, text in scripted[1].items():
            svc.import_text(text, faction=f)
        svc.run()                                       # ...then turn 1 runs without the reply
    late = _reply(old[1].path, scripted[2][2], "<late@example.org>")  # orders meant for turn 2
    _stdin(monkeypatch, late)
    assert main(["import", str(db), "-"]) == EXIT_ERRORS
    out = capsys.readouterr().out
    assert "faction 2 turn 1" in out and "has been run already" in out
    assert main(["check", str(db)]) == EXIT_ERRORS
    out = capsys.readouterr().out
    assert "realmsmith reassign GAME" in out and "--turn 2" in out
    assert main(["status", str(db)]) == EXIT_OK
    status = capsys.readouterr().out
    assert "ERROR: submission" in status and "2 Persians                 NO ORDERS" in status
    sid = int(status.split("ERROR: submission ")[1].split(",")[0])
    assert main(["submissions", str(db)]) == EXIT_OK
    assert f"{sid:>5}  LATE" in capsys.readouterr().out
    assert main(["reassign", str(db), str(sid), "--turn", "2"]) == EXIT_OK
    assert "faction 2, turn 2; 0 error(s)" in capsys.readouterr().out
    assert main(["check", str(db)]) == EXIT_OK
    capsys.readouterr()
    assert main(["run", str(db), "-q"]) == EXIT_OK
    assert "NMR) from 2" not in capsys.readouterr().out


def test_unmatched_mail_and_problems_can_be_dismissed_and_stay_quiet(tmp_path, capsys):
    db, _ = _game(tmp_path, "kok")
    spam = EmailMessage()
    spam["From"], spam["Subject"], spam["Message-ID"] = "who@nowhere.org", "hello", "<spam@x>"
    spam.set_content("Cheap castles!\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "spam.eml").write_bytes(spam.as_bytes())
    (tmp_path / "in" / "orders.pdf").write_bytes(b"%PDF-1.4 binary")
    assert main(["import", str(db), str(tmp_path / "in")]) == EXIT_ERRORS
    capsys.readouterr()
    assert main(["check", str(db)]) == EXIT_ERRORS     # the cron job's gate is shut
    capsys.readouterr()
    assert main(["submissions", str(db)]) == EXIT_OK
    sid = int(capsys.readouterr().out.split()[0])
    assert main(["dismiss", str(db), str(sid), "--problems", "--reason", "spam"]) == EXIT_OK
    assert "dismissed 1 problem(s)" in capsys.readouterr().out
    assert main(["check", str(db)]) == EXIT_OK          # ...and open again
    capsys.readouterr()
    assert main(["status", str(db)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "unmatched" not in out and "problem" not in out
    # the hourly import of the same folder repeats nothing and does not shut the gate
    assert main(["import", str(db), str(tmp_path / "in")]) == EXIT_OK
    out = capsys.readouterr().out
    assert "orders.pdf" not in out and "1 seen before (skipped)" in out
    assert main(["dismiss", str(db), "999"]) != EXIT_OK
    assert main(["dismiss", str(db)]) == 2


@pytest.mark.parametrize("name", ["kok", "artnes", "coi"])
def test_turn_0_and_a_gm_address_given_once(name, tmp_path, capsys):
    db, _ = _game(tmp_path, name)
    if name == "coi":
        db = tmp_path / "fresh.db"
        GameService.create(db, registry.get("coi").demo()[0]).close()
    # before the first turn: the starting position and the orders template go out
    assert main(["report", str(db), "--turn", "0", "--faction", "1"]) == EXIT_OK
    assert capsys.readouterr().out.strip()
    assert main(["export", str(db), "--out", str(tmp_path / "t0")]) == EXIT_OK
    assert list((tmp_path / "t0").glob("*-t000-f01-orders.txt"))
    assert main(["outbox", str(db), "--out", str(tmp_path / "ob"), "--from", "gm@example.org"]) == 0
    assert "kept for this game" in capsys.readouterr().out
    assert main(["outbox", str(db), "--out", str(tmp_path / "ob2")]) == EXIT_OK  # no --from now
    assert "no GM address" not in capsys.readouterr().out
    mail = sorted((tmp_path / "ob2").glob("*-t000-f01.eml"))[0]
    msg = email.message_from_bytes(mail.read_bytes(), policy=policy.default)
    assert msg["From"] == "gm@example.org"
    names = [a.get_filename() for a in msg.iter_attachments()]
    assert "orders-t001.txt" in names and any(n.endswith(".rsbundle.gz") for n in names)
    assert main(["outbox", str(db), "--out", str(tmp_path / "ob3"), "--from", "x\r\nBcc: a@b"]) == 2


@pytest.mark.parametrize("name", ["kok", "artnes"])
def test_the_viewers_orders_mail_is_matched_by_its_subject(name):
    """The player viewer's E-mail button writes a subject that every ruleset's intake
    reads back as that faction's orders for that turn (KoK: the book's 'CODE N')."""
    from engine import orderdraft as od
    from engine.intake import match_submission
    from engine.ruleset import Submission

    rs = registry.get(name)
    scen = rs.demo()[0]
    state = rs.initial_state(scen)
    subject = od.orders_subject(rs, state, 2, scen)
    raw = od.orders_email("orders\n", "gm@example.org", subject, "orders.txt", "")
    got = email.message_from_bytes(raw, policy=policy.default)
    sub = Submission("orders\n", "email", "m.eml", sender="someone@else.org",
                     subject=got["Subject"])
    if name == "kok":  # the subject names the turn; the faction comes from the sender
        sub.sender = scen.factions[1].email
    match_submission(sub, rs, scen, 1)
    assert (sub.faction, sub.step) == (2, 1), sub.matched_by
