"""A mailbox nobody can jam, and orders nobody can replace (docs/security.md, "Intake").

Hostile numbers, unverified senders, re-imports with --faction, oversized and compressed
inputs: each costs at most its own submission or file, with a message that names it.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zlib
from email.message import EmailMessage
from pathlib import Path

import pytest
from test_e2e_intake import cli

from app.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, main
from engine.mapfile import MapFileError, load_map, save_map
from engine.mapgen import generate
from engine.mapio import export_map, import_map
from engine.service import GameService

HUGE = "99999999999999999999"
ORDERS = "BEGIN\nALL 1 1\nEND\n"


@pytest.fixture
def game(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert cli(capsys, "new", db, "--ruleset", "kok")[0] == EXIT_OK
    return db


def _mail(frm: str, subject: str, body: str = ORDERS, attach: str = "", mid: str = "") -> bytes:
    e = EmailMessage()
    e["From"], e["Subject"], e["Date"] = frm, subject, "Mon, 2 Mar 2026 10:00:00 +0000"
    if mid:
        e["Message-ID"] = mid
    e.set_content(body)
    if attach:
        e.add_attachment(ORDERS.encode(), maintype="text", subtype="plain", filename=attach)
    return bytes(e)


def _mbox(*mails: bytes) -> bytes:
    return b"".join(b"From x@y Mon Mar  2 10:00:00 2026\n" + m.replace(b"\r\n", b"\n") + b"\n"
                    for m in mails)


def test_hostile_numbers_cost_only_their_own_mail(game, tmp_path, capsys):
    box = tmp_path / "inbox.mbox"
    box.write_bytes(_mbox(
        _mail("achaeans@example.org", f"DEMO {HUGE}", mid="<1@x>"),
        _mail("persians@example.org", "orders", attach=f"SP1.R{HUGE}", mid="<2@x>"),
        _mail("egyptians@example.org", "DEMO 1", mid="<3@x>"),          # a good one
        _mail("scythians@example.org", f"DEMO 1 turn {HUGE}", mid="<4@x>")))
    code, out, _ = cli(capsys, "import", game, box)
    assert code == EXIT_ERRORS and "out of range" in out
    with GameService.open(game) as svc:
        subs = {s.submission.meta["message_id"]: s for s in svc.submissions()}
    assert len(subs) == 4  # every mail stored, none lost
    assert subs["<3@x>"].faction == 3 and subs["<3@x>"].active
    for mid in ("<1@x>", "<2@x>"):
        assert subs[mid].faction is None and "out of range" in subs[mid].submission.matched_by
    # the hourly cron imports the same mailbox again: nothing new, no failure
    code, out, _ = cli(capsys, "import", game, box)
    assert "4 seen before" in out


def test_artnes_turn_out_of_range(tmp_path, capsys):
    db = tmp_path / "a.db"
    assert cli(capsys, "new", db, "--ruleset", "artnes")[0] == EXIT_OK
    f = tmp_path / "eng.txt"
    f.write_text(f"Nation: England\nTurn {HUGE}\n", encoding="utf-8")
    code, out, _ = cli(capsys, "import", db, f)
    assert code == EXIT_ERRORS and "out of range" in out


@pytest.mark.parametrize("opt", [["--turn", str(2**63)], ["--faction", HUGE], ["--turn", "²"]])
def test_command_line_numbers_are_range_checked(game, tmp_path, capsys, opt):
    f = tmp_path / "o.txt"
    f.write_text(ORDERS)
    code, _, err = cli(capsys, "import", game, f, "--faction", "1", *opt)
    assert code == EXIT_USAGE and ("out of range" in err or "not a whole number" in err)


def test_one_unstorable_submission_does_not_lose_the_others(game):
    from engine.intake import read_text

    with GameService.open(game) as svc:
        good = read_text(ORDERS, "paste", "a")
        bad = read_text(ORDERS, "paste", "b")
        svc._given(good, 1, None)
        svc._given(bad, 2, None)
        bad.step = 2**70  # slipped past every check: the database refuses it
        rep = svc.import_submissions([bad, good])
        assert [r.submission.source_name for r in rep.results] == ["a"]
        assert any("could not be stored" in d.message and d.file == "b" for d in rep.problems)
        assert [s.submission.source_name for s in svc.submissions()] == ["a"]


# ---- verified senders -----------------------------------------------------------------------

def test_orders_from_a_stranger_are_held_until_the_gm_decides(game, tmp_path, capsys):
    real = tmp_path / "real.eml"
    real.write_bytes(_mail("egyptians@example.org", "DEMO 1", mid="<r@x>"))
    fake = tmp_path / "fake.eml"
    fake.write_bytes(_mail("mallory@evil.example", "orders", body="x", attach="SP3.R1", mid="<f@x>"))
    cli(capsys, "import", game, real)
    code, out, _ = cli(capsys, "import", game, fake)
    assert "held for the GM" in out
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert st["factions"][2]["source"] == str(real) and st["factions"][2]["held"] == 1
    held = st["held"][0]
    assert held["faction"] == 3 and "mallory@evil.example" in held["why"]
    text = cli(capsys, "status", game)[1]
    assert "HELD" in text and "mallory@evil.example" in text
    code, out, _ = cli(capsys, "submissions", game)
    row = next(ln for ln in out.splitlines() if ln.split()[0] == str(held["submission"]))
    assert code == EXIT_OK and "HELD: sender not verified" in row
    # rejected: kept, never used; the real orders still count
    assert cli(capsys, "reject", game, held["submission"])[0] == EXIT_OK
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert st["held"] == [] and st["factions"][2]["source"] == str(real)
    with GameService.open(game) as svc:
        assert not svc.held() and len(svc.submissions()) == 2


def test_accepted_orders_count_like_verified_ones(game, tmp_path, capsys):
    fake = tmp_path / "new-address.eml"
    fake.write_bytes(_mail("egypt-new@example.net", "DEMO 1", attach="SP3.R1", mid="<n@x>"))
    cli(capsys, "import", game, fake)
    with GameService.open(game) as svc:
        [h] = svc.held()
        assert svc.status().factions[2].submitted is False
        svc.accept(h.id)
        assert svc.status().factions[2].submitted is True
        assert svc.check()[3] is not None
    assert cli(capsys, "accept", game, "99999")[0] != EXIT_OK


def test_forwarded_message_counts_from_who_forwarded_it(game, tmp_path, capsys):
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "egyptians@example.org", "DEMO 1"
    inner.set_content(ORDERS)
    outer = EmailMessage()
    outer["From"], outer["Subject"] = "mallory@evil.example", "fwd"
    outer.set_content("see the forwarded mail")
    outer.add_attachment(inner)
    f = tmp_path / "fwd.eml"
    f.write_bytes(bytes(outer))
    cli(capsys, "import", game, f)
    with GameService.open(game) as svc:
        [h] = svc.held()
        assert h.faction == 3 and "forwarded" in h.submission.meta["verify_note"]


def test_factions_without_address_take_orders_from_anyone(tmp_path, capsys):
    """The policy for games with no addresses: nothing to verify, nothing held; status
    says which factions are open."""
    db = tmp_path / "g.db"
    assert cli(capsys, "new", db, "--ruleset", "kok")[0] == EXIT_OK
    with GameService.open(db) as svc:
        for f in svc.scenario.factions:
            f.email = ""
            svc.upsert_faction(f)
    m = tmp_path / "m.eml"
    m.write_bytes(_mail("someone@example.net", "DEMO 1", attach="SP2.R1"))
    assert cli(capsys, "import", db, m)[0] == EXIT_OK
    st = json.loads(cli(capsys, "status", db, "--json")[1])
    assert st["factions"][1]["submitted"] and st["held"] == []
    assert "open: faction(s) 1, 2, 3, 4" in cli(capsys, "status", db)[1]


def test_reimport_with_faction_is_a_new_decision(game, tmp_path, capsys):
    f = tmp_path / "orders.txt"
    f.write_text(ORDERS)
    cli(capsys, "import", game, f)  # unmatched: no clue in it
    code, out, _ = cli(capsys, "import", game, f, "--faction", "2")
    assert "seen before" not in out and "faction 2" in out
    assert json.loads(cli(capsys, "status", game, "--json")[1])["factions"][1]["submitted"]
    code, out, _ = cli(capsys, "import", game, f, "--faction", "2")  # the same decision again
    assert "1 seen before" in out
    code, out, _ = cli(capsys, "import", game, f, "--faction", "3")  # another one
    assert "seen before" not in out
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert st["factions"][1]["submitted"] and st["factions"][2]["submitted"]


# ---- bounded readers -------------------------------------------------------------------------

def test_endless_stdin_is_refused_without_reading_it_all(game, tmp_path):
    yes = subprocess.Popen(["yes", "MOVE 1 2 N"], stdout=subprocess.PIPE)
    try:
        r = subprocess.run([sys.executable, "-m", "app.cli", "import", str(game), "-"],
                           stdin=yes.stdout, capture_output=True, text=True, timeout=120)
    finally:
        yes.kill()
        yes.wait()
    assert r.returncode == EXIT_ERRORS and "<stdin>: more than 67,108,864 bytes" in r.stderr
    # an orders text over 1 MiB (but not a mailbox) is refused as too large, naming <stdin>
    r = subprocess.run([sys.executable, "-m", "app.cli", "import", str(game), "-"],
                       input=b"MOVE 1 2 N\n" * 200_000, capture_output=True, timeout=120)
    assert r.returncode == EXIT_ERRORS and b"<stdin> is too large" in r.stdout


def test_tmj_zlib_bomb_is_refused(tmp_path):
    m = generate("hex", 4, 4, seed=1)
    path = export_map(m, tmp_path / "m.tmj", layer_format="zlib")
    doc = json.loads(path.read_text())
    import base64

    bomb = base64.b64encode(zlib.compress(b"\0" * 50_000_000, 9)).decode()
    for layer in doc["layers"]:
        if layer.get("type") == "tilelayer":
            layer["data"] = bomb
    path.write_text(json.dumps(doc))
    assert path.stat().st_size < 200_000
    with pytest.raises(MapFileError, match=r"m\.tmj.*unpacks to more than 64 bytes"):
        import_map(path)


def test_geojson_with_a_giant_grid_is_refused(tmp_path):
    m = generate("hex", 4, 4, seed=1)
    path = export_map(m, tmp_path / "m.geojson")
    doc = json.loads(path.read_text())
    doc["realmsmith"]["grid"].update(width=1_000_000, height=1_000_000)
    path.write_text(json.dumps(doc))
    with pytest.raises(MapFileError, match=r"m\.geojson.*limit is 16,000,000 cells"):
        import_map(path)


def test_rsmap_gz_bomb_is_refused(tmp_path, monkeypatch):
    import engine.mapfile as mf

    p = tmp_path / "m.rsmap.gz"
    save_map(generate("hex", 20, 20, seed=1), p)
    monkeypatch.setattr(mf, "MAX_MAP_BYTES", 1000)
    with pytest.raises(MapFileError, match=r"m\.rsmap\.gz.*unpacks to more than 1,000 bytes"):
        load_map(p)
    q = tmp_path / "cut.rsmap.gz"
    q.write_bytes(gzip.compress(b"{}" * 10)[:-12])
    monkeypatch.setattr(mf, "MAX_MAP_BYTES", 10**6)
    with pytest.raises(MapFileError, match="cut.rsmap.gz"):
        load_map(q)


def test_thread_file_size_limit(tmp_path, monkeypatch):
    import engine.threads as th

    f = tmp_path / "t.txt"
    f.write_text("--- post 1 | A | 2026-11-20T10:00:00Z | lines 1\nHarvest\n" * 100)
    monkeypatch.setattr(th, "MAX_THREAD_BYTES", 1000)
    posts, problems = th.load_thread(f)
    assert posts == [] and "larger than 1,000 bytes" in problems[0].message
    assert problems[0].file == str(f)


def test_hostile_thread_posts_do_not_stop_the_import(tmp_path, capsys):
    db = tmp_path / "c.db"
    assert cli(capsys, "new", db, "--ruleset", "coi")[0] == EXIT_OK
    t = tmp_path / "t.txt"
    t.write_text("--- post 1 | GWG | 9999-12-31T23:59:59-23:59 | lines 1\nHarvest\n"
                 "--- post \u00b2 | GWG | 2026-11-20T12:00:00Z | lines 1\nHarvest\n"
                 "--- post 3 | GWG | 2026-11-20T12:01:00Z | lines 1\nHarvest\n", encoding="utf-8")
    code, out, _ = cli(capsys, "import", db, t)
    assert "imported 2 submission(s)" in out and "cannot read the time" in out
    assert cli(capsys, "run", db, "-q")[0] == EXIT_OK


def test_benchmark_inputs_are_what_they_claim(tmp_path):
    """The generated inputs of benchmarks/test_bench_intake.py import as intended (small)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.intake_inputs import many_attachments_mail, mbox, thread_text

    db = tmp_path / "k.db"
    assert main(["new", str(db), "--ruleset", "kok"]) == 0
    with GameService.open(db) as svc:
        rep = svc.import_paths([many_attachments_mail(tmp_path / "m.eml", 8),
                                mbox(tmp_path / "b.mbox", 8)])
        assert len(rep.results) == 16 and not rep.problems
        assert sum(1 for s in svc.submissions() if not s.held) == 10  # 8 mails + 2 of 8 parts
    db = tmp_path / "c.db"
    assert main(["new", str(db), "--ruleset", "coi"]) == 0
    with GameService.open(db) as svc:
        rep = svc.import_paths([thread_text(tmp_path / "t.txt", 30)])
        assert len(rep.results) == 30 and not rep.problems


def test_an_import_racing_another_is_judged_again_under_the_lock(game, tmp_path):
    """Judging runs without the write lock; if another import stored something meanwhile,
    the judging is repeated inside the write transaction: nothing is stored twice."""
    m = tmp_path / "m.eml"
    m.write_bytes(_mail("egyptians@example.org", "DEMO 1", mid="<race@x>"))
    with GameService.open(game) as a, GameService.open(game) as b:
        real = a._judge_all
        calls = []

        def judge_then_b_imports(*args):
            out = real(*args)
            if not calls:
                calls.append(1)
                assert b.import_paths([m]).results[0].status == "stored"
            return out

        a._judge_all = judge_then_b_imports
        rep = a.import_paths([m])
        assert [r.status for r in rep.results] == ["duplicate"]
        assert len(a.submissions()) == 1


@pytest.mark.parametrize("date", ["Fri, 31 Dec 9999 23:59:59 -2359",
                                  f"Mon, 2 Mar {HUGE} 10:00:00 +0000"])
def test_a_hostile_date_header_does_not_lose_the_orders(game, tmp_path, capsys, date):
    f = tmp_path / "m.eml"
    f.write_bytes(f"From: egyptians@example.org\nSubject: DEMO 1\nDate: {date}\n\n{ORDERS}".encode())
    code, out, _ = cli(capsys, "import", game, f)
    assert "faction 3" in out and "no valid Date header; the file time is used" in out


def test_batch_checked_posts_store_what_check_finds(tmp_path, capsys):
    """Conquest of Island checks waiting posts as one batch; the import does that before
    taking the write lock, and stores the same findings `check` works out afresh."""
    import engine

    db = tmp_path / "c.db"
    assert cli(capsys, "new", db, "--ruleset", "coi")[0] == EXIT_OK
    text = (Path(engine.__file__).resolve().parents[1] / "maps/coi/demo-thread.txt").read_text()
    posts = text.split("\n--- post ")
    half = len(posts) // 2
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("\n--- post ".join(posts[:half]) + "\n", encoding="utf-8")
    second.write_text("--- post " + "\n--- post ".join(posts[half:]), encoding="utf-8")
    for f in (first, second):
        cli(capsys, "import", db, f)
        with GameService.open(db) as svc:
            stored = sorted((d.file, d.line, d.message) for s in svc.submissions()
                            if s.active for d in s.diagnostics)
            fresh = sorted((d.file, d.line, d.message) for ds in svc.check().values() for d in ds)
            assert stored == fresh and stored


class _PasswordHeader:
    """A ruleset reading `#game FACTION "password"` (as Atlantis's #atlantis line does)."""

    def identify(self, sub, scen):
        from engine.ruleset import Match

        _, faction, *pw = sub.text.split("\n", 1)[0].split()
        return Match(faction=int(faction), password=pw[0].strip('"') if pw else "")


@pytest.mark.parametrize("header, sender, match, state", [
    ('#game 1 "pw1"', "stranger@example.net", "ok", "verified"),       # the password vouches
    ("#game 1", "red@example.org", "bad_password", None),              # refused outright
    ('#game 1 "nope"', "stranger@example.net", "bad_password", None),
    ("#game 2", "stranger@example.net", "ok", "open"),                 # Blues: no address/password
])
def test_a_faction_password_verifies_orders_from_any_address(header, sender, match, state):
    import tinyrules

    from engine.intake import match_submission, read_text

    scen = tinyrules.tiny_scenario("tiny")
    scen.factions[1].email = ""
    sub = read_text(header + "\nGROW 1\n", "email", "<m@x>", sender=sender)
    match_submission(sub, _PasswordHeader(), scen, 1)
    assert sub.meta["match"] == match and sub.meta.get("verify") == state
