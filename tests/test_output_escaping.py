"""Player text never becomes markup or moves a reader's cursor, in any report of any ruleset.

Hostile names (factions, forum authors) and hostile order lines carrying BBCode tags
(`[url]`, `[img]`, `[/quote]`, `[table]`), HTML, terminal escape sequences, backspaces,
carriage returns and right-to-left overrides go through a real game of every ruleset; every
stored report in every format and every outbox mail is then checked.
"""

from __future__ import annotations

import re
from email import message_from_bytes, policy

import pytest

from engine import markup, registry
from engine.outbox import write_outbox
from engine.scenario import Faction
from engine.service import GameService

MARKUP = "[url=http://evil.example]x[/url][img]http://evil.example/p.png[/img][/quote][table]"
HTML = "<script>alert(1)</script>"
TERMINAL = "\x1b[2J\x1b]0;owned\x07\b\b\r\u202etxt.exe\u2066"
HOSTILE = f"Bad{MARKUP}{HTML}{TERMINAL}"
# what must survive as text (the escaped forms)
BB_TEXT = "\uff3burl=http://evil.example\uff3d"
HTML_TEXT = "&lt;script&gt;"


# ---- the helpers ------------------------------------------------------------------------------

def test_clean_removes_controls_sequences_and_bidi_but_keeps_text():
    s = "Ré\x1b[31md\x1b[0m \x1b]0;title\x07ok\b\u202eevil\u2067 \x9b31m\x85\x00\tend\r\nnext 🐉"
    out = markup.clean(s)
    assert out == "Réd okevil \tend\nnext 🐉"
    assert "\x1b" not in out and "\b" not in out and "\u202e" not in out and "\r" not in out
    assert "Réd" in out and "🐉" in out and "\n" in out and "\t" in out
    assert "[31m" not in out and "title" not in out  # whole sequences go, not just ESC


def test_one_line_header_bbcode_html():
    assert markup.one_line("a\r\nb\tc\u2028d") == "a b c d"
    assert markup.header("x\r\nBcc: evil@example.org") == "x Bcc: evil@example.org"
    bb = markup.bbcode("[url=x]y[/url] [*] [quote]")
    assert "[" not in bb and "]" not in bb and "url=x" in bb
    assert markup.html('<a href="x">&</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
    data = {"k\x1b[1m": ["a\u202eb", ("c\b",), 3, None]}
    assert markup.clean_data(data) == {"k": ["ab", ("c",), 3, None]}


@pytest.mark.parametrize("text", ["plain", "tab\tand\nnewline", "émoji 🐉 ünïcode", ""])
def test_clean_text_is_left_alone(text):
    assert markup.clean(text) == text and markup.is_clean(text)


# ---- every ruleset, every report --------------------------------------------------------------

def _check(fmt: str, text: str, where: str) -> None:
    assert markup.is_clean(text), f"{where}: control or bidi character in the {fmt} report"
    if fmt == "bbcode":
        for tag in ("[url=http://evil", "[img]http://evil", "[/quote]", "[table][", "[script"):
            assert tag not in text, f"{where}: {tag} became BBCode"
    if fmt == "html":
        assert "<script" not in text.lower(), f"{where}: HTML from a player"
        assert "[url=http://evil" not in text or HTML_TEXT in text


def _hostile_names(scen, n: int = 2) -> None:
    for f in scen.factions[:n]:
        f.name = f"{f.name}{HOSTILE}"


def _kok():
    rs = registry.get("kok")
    scen, orders = rs.demo()
    _hostile_names(scen)
    # an order line the reader cannot read is quoted back in the public report
    bad = {1: orders[1][1].replace("BEGIN", f"BEGIN\nNAME 3 3 {MARKUP}{HTML}\n{HOSTILE}", 1)}
    return scen, {**orders[1], **bad}


def _artnes():
    rs = registry.get("artnes")
    scen, orders = rs.demo()
    _hostile_names(scen)
    first = min(orders)
    f1 = scen.factions[0].number
    bad = {f1: orders[first].get(f1, "") + f"\n{HOSTILE}\nbuy 1 knight in {MARKUP}\n"}
    return scen, {**orders[first], **bad}


@pytest.mark.parametrize("make", [_kok, _artnes], ids=["kok", "artnes"])
def test_hostile_names_and_orders_in_every_report(tmp_path, make):
    scen, orders = make()
    svc = GameService.create(tmp_path / "g.db", scen)
    for faction, text in sorted(orders.items()):
        svc.import_text(text, source_name=f"orders-{faction}.txt", faction=faction)
    assert svc.run().steps == [1]
    formats = svc.ruleset.report_formats
    seen = {fmt: "" for fmt in formats}
    for who in [None] + [f.number for f in scen.factions]:
        for fmt in formats:
            text = svc.report(1, who, fmt)
            _check(fmt, text, f"{svc.ruleset.name} report for {who or 'the GM'}")
            seen[fmt] += text
    # the hostile names did reach the reports, as text
    if "bbcode" in seen:
        assert BB_TEXT in seen["bbcode"]
    assert HTML_TEXT in seen["html"]
    assert "txt.exe" in seen["text"] and "Bad" in seen["text"]
    _check_mail(svc, tmp_path)
    svc.close()


def _check_mail(svc, tmp_path) -> None:
    for e in write_outbox(svc, tmp_path / "outbox"):
        raw = e.path.read_bytes()
        msg = message_from_bytes(raw, policy=policy.default)
        assert msg["Bcc"] is None and msg["Cc"] is None
        for k, v in msg.items():
            assert markup.one_line(str(v)) == str(v), f"header {k} holds a control character"
        body = msg.get_body(("plain",))
        if body is not None:
            assert markup.is_clean(body.get_content().replace("\r\n", "\n"))  # SMTP line ends


def test_forum_names_and_posts_in_every_coi_report(tmp_path):
    rs = registry.get("coi")
    scen, _ = rs.demo()
    hostile = f"GWG{MARKUP}{HTML}\x1b[2J\u202e"
    thread = open(scen.meta["demo_thread"], encoding="utf-8").read()
    thread = thread.replace("| GWG |", f"| {hostile} |")
    thread = thread.replace("Our port sits on a rock.",
                            f"Our port sits on a rock. {MARKUP} {HTML} \x1b[31m\b\u202e")
    path = tmp_path / "thread.txt"
    path.write_text(thread, encoding="utf-8")
    for f in scen.factions:
        if f.name == "GWG":
            f.name = hostile
            f.attrs["forum"] = hostile
    svc = GameService.create(tmp_path / "g.db", scen)
    svc.import_paths([path])
    assert svc.run().steps == [1]
    seen = ""
    for fmt in rs.report_formats:
        text = svc.report(1, None, fmt)
        _check(fmt, text, f"coi {fmt}")
        seen += text
    assert BB_TEXT in svc.report(1, None, "bbcode")
    assert HTML_TEXT in svc.report(1, None, "html")
    assert "Our port sits on a rock" in seen
    svc.close()


def test_kok_colour_cannot_carry_css(tmp_path):
    rs = registry.get("kok")
    scen, _ = rs.demo()
    scen.factions[0].colour = "red;background:url(http://evil.example/x)"
    svc = GameService.create(tmp_path / "g.db", scen)
    svc.run()
    html = svc.report(1, None, "html")
    assert "evil.example" not in html
    svc.close()


def test_a_faction_added_later_with_markup_in_its_name(tmp_path):
    """The designer refuses control characters but markup characters are a valid name:
    they are escaped where they are shown."""
    rs = registry.get("artnes")
    scen, _ = rs.demo()
    svc = GameService.create(tmp_path / "g.db", scen)
    f = scen.factions[0]
    svc.upsert_faction(Faction(f.number, f"[b]{f.name}[/b]", f.email, "", f.colour, f.attrs))
    svc.run()
    bb = svc.report(1, None, "bbcode")
    assert f"\uff3bb\uff3d{f.name}\uff3b/b\uff3d" in bb
    svc.close()


def test_cli_output_cannot_drive_the_gm_terminal(tmp_path, capsys):
    """`import` and `status` print subjects, senders and file names chosen by players."""
    from app.cli import main

    db = tmp_path / "g.db"
    assert main(["new", str(db), "--ruleset", "kok"]) == 0
    mail = tmp_path / "m.eml"
    mail.write_bytes(("From: \x1b]0;owned\x07<x@example.org>\nSubject: DEMO 1 \x1b[2J\u202eevil\n\n"
                      "BEGIN\n\x1b[31mNAME 3 3 red\nEND\n").encode("utf-8"))
    (tmp_path / "SP1.R1\u202etxt.exe").write_text("BEGIN\nEND\n", encoding="utf-8")
    capsys.readouterr()
    main(["import", str(db), str(mail), str(tmp_path / "SP1.R1\u202etxt.exe")])
    main(["status", str(db)])
    main(["check", str(db)])
    out = capsys.readouterr()
    assert "m.eml" in out.out and "txt.exe" in out.out
    for text in (out.out, out.err):
        assert markup.is_clean(text), repr(text)


def test_what_clean_and_one_line_change_is_never_printable():
    """clean and one_line return a printable string as it is, unsearched (the common case,
    checked fast): that holds only while every character they remove or replace is one
    str.isprintable rejects."""
    from engine.markup import escape

    removed = re.compile(f"[{escape._BAD}]|{escape._BREAKS.pattern}|[\x1b\x9b]")
    changed = [hex(cp) for cp in range(0x110000)
               if removed.match(chr(cp)) and chr(cp).isprintable()]
    assert changed == []
    assert escape.one_line("a\u202eb\nc") == "ab c" and escape.clean("ok \u00e9\u4e2d") == "ok \u00e9\u4e2d"


def test_an_ascii_text_is_checked_for_the_same_characters():
    """is_clean checks an ASCII text as bytes: the same answer as the search, for every
    ASCII character anywhere in a text."""
    from engine.markup import escape

    for cp in range(128):
        for text in (chr(cp), f"report line\n{chr(cp)}\tmore", f"{chr(cp)}x" * 3):
            assert escape.is_clean(text) == (escape._CHARS.search(text) is None), (cp, text)
