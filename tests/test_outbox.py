"""The outbox: one .eml per faction, parsed back with the email module."""

import email
from email import policy

import tinyrules

from engine.bundle import open_bundle
from engine.outbox import write_outbox
from engine.service import GameService


def test_outbox_messages(tmp_path):
    scen = tinyrules.tiny_scenario()
    scen.factions[1].email = ""  # a faction without an address still gets its file
    scen.factions[0].name = "Rouges Éclatants"
    svc = GameService.create(tmp_path / "g.db", scen)
    for f, text in tinyrules.Tiny().demo()[1][1].items():
        svc.import_text(text, faction=f)
    svc.run()
    out = write_outbox(svc, tmp_path / "outbox", sender="gm@example.org")
    assert [e.faction for e in out] == [1, 2]
    assert out[0].note == "" and "no e-mail address" in out[1].note
    for entry in out:
        msg = email.message_from_bytes(entry.path.read_bytes(), policy=policy.default)
        assert msg["Subject"] == "Tiny Demo: report of turn 1, orders for turn 2"
        assert msg["From"] == "gm@example.org"
        body = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")  # RFC line ends
        assert body == svc.report(1, entry.faction, "text")
        atts = {a.get_filename(): a for a in msg.iter_attachments()}
        assert atts["report-t001.html"].get_content().replace("\r\n", "\n") == svc.report(1, entry.faction, "html")
        bname = f"tiny-demo-t001-f{entry.faction:02d}.rsbundle.gz"
        packed = atts[bname].get_payload(decode=True)
        plain = (tmp_path / "outbox" / bname[:-3]).read_bytes()
        assert packed[:2] == b"\x1f\x8b" and len(packed) < len(plain) / 3  # gzip, and it pays
        saved = tmp_path / "got.rsbundle.gz"  # the viewer opens it as attached
        saved.write_bytes(packed)
        assert open_bundle(saved).faction.number == entry.faction
    first = email.message_from_bytes(out[0].path.read_bytes(), policy=policy.default)
    assert first["To"] == "red@example.org"
    second = email.message_from_bytes(out[1].path.read_bytes(), policy=policy.default)
    assert second["To"] is None
    # no password of any kind goes into a message header
    raw = b"".join(e.path.read_bytes() for e in out)
    assert b"password" not in raw.lower()
    svc.close()


def test_cli_outbox_and_bundle(tmp_path, capsys):
    from app.cli import main

    db = tmp_path / "g.db"
    svc = GameService.create(db, tinyrules.tiny_scenario())
    for f, text in tinyrules.Tiny().demo()[1][1].items():
        svc.import_text(text, faction=f)
    svc.run()
    svc.close()
    assert main(["outbox", str(db), "--out", str(tmp_path / "ob")]) == 0
    emls = sorted((tmp_path / "ob").glob("*.eml"))
    assert [p.name for p in emls] == ["tiny-demo-t001-f01.eml", "tiny-demo-t001-f02.eml"]
    assert main(["bundle", str(db), "--faction", "2", "--out", str(tmp_path / "b")]) == 0
    assert open_bundle(tmp_path / "b" / "tiny-demo-t001-f02.rsbundle").faction.name == "Blues"
    assert main(["outbox", str(db), "--turn", "7"]) != 0
    assert "no reports for turn 7" in capsys.readouterr().err


def test_a_damaged_compressed_bundle_is_named(tmp_path):
    import pytest

    from engine.bundle import BundleError

    bad = tmp_path / "x.rsbundle.gz"
    bad.write_bytes(b"\x1f\x8b" + b"not really gzip")
    with pytest.raises(BundleError, match="x.rsbundle.gz: damaged compressed bundle"):
        open_bundle(bad)
