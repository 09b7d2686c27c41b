"""End to end: the orders a GM really gets at 2 a.m., through `realmsmith import/status/check`.

Every file here is bad in some way a real player manages. Each must give a message naming
the file (and the line where there is one), the exit code of docs/cli.md, no traceback,
and nothing lost: what can be stored is stored and shows in `status`.
"""

from __future__ import annotations

import json
import mailbox
import os
import sqlite3
from email.message import EmailMessage

import pytest

from app.cli import EXIT_ERRORS, EXIT_OK, main
from engine.service import GameService

# Achaeans (player 1) of the KoK demo, turn 1, with a German greeting that needs 8 bits.
ORDERS = """Grüße vom König an den Spielleiter
BEGIN
PLA 3 2 HO 4 2 HO 2 2 BO
LAND 4 2 HO 1 S S
NAME 3 2 Argos
END
"""


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


@pytest.fixture
def game(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert cli(capsys, "new", db, "--ruleset", "kok", "--seed", "5")[0] == EXIT_OK
    return db


def status(capsys, db) -> dict:
    code, out, _ = cli(capsys, "status", db, "--json")
    assert code == EXIT_OK
    return json.loads(out)


def stored_texts(db) -> list[tuple[str, str]]:
    with GameService.open(db) as svc:
        return [(s.submission.source_name, s.submission.text) for s in svc.submissions()]


ENCODINGS = {
    "SP1.R1.bom": b"\xef\xbb\xbf" + ORDERS.encode("utf-8"),
    "SP1.R1.utf8": ORDERS.encode("utf-8"),
    "SP1.R1.latin1": ORDERS.encode("latin-1"),
    "SP1.R1.macroman": ORDERS.encode("mac_roman"),
    "SP1.R1.crlf": ORDERS.replace("\n", "\r\n").encode("cp1252"),
    "SP1.R1.utf16": ORDERS.encode("utf-16"),
    "SP1.R1.utf16le": ORDERS.encode("utf-16-le"),
}


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_every_encoding_reads_the_same_orders(game, tmp_path, capsys, name):
    f = tmp_path / name
    f.write_bytes(ENCODINGS[name])
    code, out, _ = cli(capsys, "import", game, f)
    # the orders are fine (only the greeting before BEGIN gives a warning)
    assert code == EXIT_OK, out
    assert f"{f}: stored, faction 1 turn 1, 0 error(s)" in out
    [(src, text)] = stored_texts(game)
    assert src == str(f)
    assert text == ORDERS  # exact text, LF line ends, umlauts right
    st = status(capsys, game)
    assert st["factions"][0]["submitted"] and st["factions"][0]["source"] == str(f)
    code, out, _ = cli(capsys, "check", game)
    assert code == EXIT_OK


def test_the_later_of_several_encodings_counts_and_all_are_kept(game, tmp_path, capsys):
    paths = []
    for i, name in enumerate(sorted(ENCODINGS)):
        f = tmp_path / name
        f.write_bytes(ENCODINGS[name])
        os.utime(f, (1_700_000_000 + i * 60,) * 2)  # received in this order (mtime)
        paths.append(f)
    code, out, _ = cli(capsys, "import", game, *paths)
    assert code == EXIT_OK
    st = status(capsys, game)
    assert st["factions"][0]["source"] == str(paths[-1])
    assert st["factions"][0]["replaced"] == len(paths) - 1
    assert len(stored_texts(game)) == len(paths)


@pytest.mark.parametrize("name, data, says", [
    ("SP2.R1.empty", b"", "is empty"),
    ("SP2.R1.blank", b"  \r\n\t\n", "blank"),
    ("SP2.R1.bin", bytes(range(256)) * 8, "binary data"),
    ("SP2.R1.pdf", b"%PDF-1.4\n" + b"\x00" * 50, "PDF"),
    ("SP2.R1.big", b"PLA 3 2 HO 4 2 HO 2 2 BO\n" * 210_000, "too large"),
])
def test_unusable_files_are_named_and_recorded(game, tmp_path, capsys, name, data, says):
    f = tmp_path / name
    f.write_bytes(data)
    code, out, err = cli(capsys, "import", game, f)
    assert code == EXIT_ERRORS
    line = next(x for x in (out + err).splitlines() if x.startswith(f"{f}:"))
    assert says in line
    # the problem is kept in the game (rs_diagnostic, docs/database.md), not only printed
    with sqlite3.connect(game) as con:
        rows = con.execute("SELECT message FROM rs_diagnostic WHERE file = ?", (str(f),)).fetchall()
    assert any(says in m for (m,) in rows)


def test_status_shows_files_that_gave_no_orders(game, tmp_path, capsys):
    f = tmp_path / "SP2.R1"
    f.write_bytes(b"\x00\x01binary")
    cli(capsys, "import", game, f)
    code, out, _ = cli(capsys, "status", game)
    assert code == EXIT_OK
    assert any(line.strip().startswith("problem:") and str(f) in line for line in out.splitlines())
    assert [p["file"] for p in status(capsys, game)["problems"]] == [str(f)]


def test_garbage_lines_each_named_with_line(game, tmp_path, capsys):
    import random

    rnd = random.Random(1)
    lines = ["".join(rnd.choice('abcXYZ0123 #;"_\t') for _ in range(rnd.randint(1, 60)))
             for _ in range(500)]
    f = tmp_path / "SP3.R1"
    f.write_text("BEGIN\n" + "\n".join(lines) + "\nEND\n", encoding="utf-8")
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_ERRORS
    assert f"{f}: stored, faction 3 turn 1" in out
    code, out, err = cli(capsys, "check", game, "-q")
    assert code == EXIT_ERRORS
    findings = [x for x in out.splitlines() if x.startswith(f"{f}:")]
    assert len(findings) > 100
    for x in findings:  # file:line[:col]: error (kind): message
        assert x.split(":")[1].isdigit(), x
    st = status(capsys, game)
    assert st["factions"][2]["submitted"] and st["factions"][2]["errors"] == len(findings)


def test_wrong_turn_and_unknown_faction_kept_and_listed(game, tmp_path, capsys):
    (tmp_path / "SP1.R7").write_text(ORDERS, encoding="utf-8")
    (tmp_path / "SP9.R1").write_text(ORDERS, encoding="utf-8")
    code, out, _ = cli(capsys, "import", game, tmp_path / "SP1.R7", tmp_path / "SP9.R1")
    assert code == EXIT_ERRORS  # the unknown faction needs the GM
    assert "turn 7" in out and "no player 9" in out
    st = status(capsys, game)
    assert st["other_turns"] == [str(tmp_path / "SP1.R7")]
    assert st["rejected"] == [str(tmp_path / "SP9.R1")]
    assert st["missing"] == [1, 2, 3, 4]


def _mail(frm: str, subject: str, body: str, date: str = "Sun, 22 Nov 2026 02:00:00 +0000"):
    e = EmailMessage()
    e["From"], e["Subject"], e["Date"] = frm, subject, date
    e.set_content(body)
    return e


def test_eml_with_attachment(game, tmp_path, capsys):
    e = _mail("Persian King <persians@example.org>", "my orders", "Orders attached.\n-- \nP")
    e.add_attachment("BEGIN\nALL 1 1\nEND\n".encode("latin-1"), maintype="application",
                     subtype="octet-stream", filename="SP2.R1")
    f = tmp_path / "orders.eml"
    f.write_bytes(bytes(e))
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_OK, out
    assert f"{f}#SP2.R1: stored, faction 2 turn 1, 0 error(s)" in out
    st = status(capsys, game)
    assert st["factions"][1]["submitted"] and st["factions"][1]["source"] == f"{f}#SP2.R1"


def test_mbox_with_a_mix(game, tmp_path, capsys):
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    box.add(_mail("scythians@example.org", "DEMO 1", "BEGIN\nALL 1 1\nEND\n"))
    box.add(_mail("spam@x.com", "Cheap watches", "Buy now!"))
    box.add(_mail("egyptians@example.org", "OTHER 1", "BEGIN\nALL 1 1\nEND\n"))
    box.add(_mail("egyptians@example.org", "DEMO 99", "BEGIN\nALL 1 1\nEND\n"))
    box.add(_mail("persians@example.org", "Re: DEMO 1", "> old\nBEGIN\nALL 1 1\nEND\n"))
    box.flush()
    box.close()
    with open(box_path, "ab") as fh:  # a damaged last message
        fh.write(b"From broken\nSubject: \xff\xfe\n\n")
    code, out, err = cli(capsys, "import", game, box_path)
    assert code == EXIT_ERRORS
    assert "imported 5 submission(s)" in out
    assert f"{box_path} message 6" in out + err  # the damaged one, named by its number
    st = status(capsys, game)
    assert [f["submitted"] for f in st["factions"]] == [False, True, False, True]
    assert st["unmatched"] == [f"{box_path}#2"]
    assert st["rejected"] == [f"{box_path}#3"]
    assert st["other_turns"] == [f"{box_path}#4"]
    assert len(stored_texts(game)) == 5


def test_orders_for_another_game_do_not_replace_real_orders(game, tmp_path, capsys):
    f = tmp_path / "SP3.R1"
    f.write_text("BEGIN\nALL 1 1\nEND\n", encoding="utf-8")
    os.utime(f, (1_700_000_000,) * 2)
    assert cli(capsys, "import", game, f)[0] == EXIT_OK
    e = tmp_path / "other.eml"
    e.write_bytes(bytes(_mail("egyptians@example.org", "OTHER 1", "BEGIN\nALL 2 1\nEND\n",
                              "Sun, 22 Nov 2099 02:00:00 +0000")))
    assert cli(capsys, "import", game, e)[0] == EXIT_ERRORS
    st = status(capsys, game)
    assert st["rejected"] == [str(e)]
    assert st["factions"][2]["submitted"] and st["factions"][2]["source"] == str(f)


def _paste(db, data: bytes, *args: str):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "app.cli", "import", str(db), *args],
                          input=data, capture_output=True, timeout=120)


def test_paste_utf8_from_stdin(game):
    r = _paste(game, ORDERS.encode("utf-8"), "--paste", "--faction", "1")
    assert r.returncode == EXIT_OK, r.stderr
    [(src, text)] = stored_texts(game)
    assert (src, text) == ("stdin", ORDERS)


@pytest.mark.parametrize("codec", ["latin-1", "utf-16"])
def test_paste_in_other_encodings_from_stdin(game, codec):
    r = _paste(game, ORDERS.encode(codec), "--paste", "--faction", "1")
    assert r.returncode == EXIT_OK, r.stderr
    [(_, text)] = stored_texts(game)
    assert text == ORDERS


def test_text_padded_with_nul_bytes_is_read(game, tmp_path, capsys):
    f = tmp_path / "SP1.R1"
    f.write_bytes(ORDERS.encode("utf-8") + b"\x00" * 7)
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_OK, out
    assert f"{f}: info (invalid): {f} ends in 7 NUL bytes; dropped" in out
    [(_, text)] = stored_texts(game)
    assert text == ORDERS
    g = tmp_path / "SP2.R1"  # a NUL inside is still binary
    g.write_bytes(b"BEGIN\n\x00ALL 1 1\nEND\n")
    assert cli(capsys, "import", game, g)[0] == EXIT_ERRORS


def test_reimporting_a_mailbox_adds_nothing(game, tmp_path, capsys):
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    box.add(_mail("scythians@example.org", "DEMO 1", "BEGIN\nALL 1 1\nEND\n"))
    box.add(_mail("spam@x.com", "Cheap watches", "Buy now!"))
    box.flush()
    box.close()
    cli(capsys, "import", game, box_path)
    cli(capsys, "import", game, box_path)
    st = status(capsys, game)
    assert st["factions"][3]["replaced"] == 0
    assert len(st["unmatched"]) == 1
    assert len(stored_texts(game)) == 2


@pytest.mark.parametrize("subject, turn", [
    ("DEMO 1", 1), ("Fwd: DEMO 1", 1), ("AW: DEMO 1", 1), ("Re: Re: [DEMO] 1", 1),
    ("DEMO-1", 1), ("DEMO Turn1", 1), ("DEMO #1", 1), ("DEMO 01", 1), ("Orders DEMO 1", 1),
    ("DEMO 1 (corrected)", 1), ("DEMO1", 1), ("demo turn 3", 3),
])
def test_kok_subjects_as_players_write_them(game, tmp_path, capsys, subject, turn):
    f = tmp_path / "m.eml"
    f.write_bytes(bytes(_mail("x@unknown.org", subject, "BEGIN\nALL 2 1\nEND\n")))
    code, out, _ = cli(capsys, "import", game, f)
    assert f"turn {turn} from the subject {subject!r}" in out


@pytest.mark.parametrize("subject", ["DEMO2 1", "DEMO-2 1", "XDEMO 1", "OTHER 1"])
def test_kok_subjects_of_other_games(game, tmp_path, capsys, subject):
    f = tmp_path / "m.eml"
    f.write_bytes(bytes(_mail("achaeans@example.org", subject, "BEGIN\nALL 2 1\nEND\n")))
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_ERRORS and "not this game DEMO" in out
    assert status(capsys, game)["rejected"] == [str(f)]


def test_orders_from_another_players_address_are_flagged(game, tmp_path, capsys):
    e = _mail("achaeans@example.org", "DEMO 1", "see attached")
    e.add_attachment(b"BEGIN\nALL 1 1\nEND\n", maintype="text", subtype="plain", filename="SP3.R1")
    f = tmp_path / "m.eml"
    f.write_bytes(bytes(e))
    code, out, _ = cli(capsys, "import", game, f)
    assert ("warning (intake): sent from achaeans@example.org, the address of faction 1, "
            "not of faction 3") in out
    # not faction 3's address: held for the GM, who may accept it
    st = status(capsys, game)
    assert not st["factions"][2]["submitted"] and st["factions"][2]["held"] == 1
    held = st["held"][0]
    assert held["faction"] == 3 and "achaeans@example.org" in held["why"]
    assert cli(capsys, "accept", game, held["submission"])[0] == EXIT_OK
    st = status(capsys, game)
    assert st["factions"][2]["submitted"] and st["factions"][2]["warnings"] == 1
    # the player's own address, or an unknown one, is no warning
    f.write_bytes(bytes(_mail("egyptians@example.org", "DEMO 1", "BEGIN\nALL 1 1\nEND\n")))
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_OK and "0 warning(s)" in out and "(intake)" not in out
