"""End to end: orders written the way forum players write them, checked through the CLI.

ARTNES orders were forum messages: bold and coloured words, quotes of other players'
orders, names typed with or without their accents, en dashes that forums put for '-'.
Conquest of Island posts: quotes of other players' posts are never applied as one's own.
"""

from __future__ import annotations

import json

import pytest

from app.cli import EXIT_ERRORS, EXIT_OK, main


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


@pytest.fixture
def artnes(tmp_path, capsys):
    db = tmp_path / "a.db"
    assert cli(capsys, "new", db, "--ruleset", "artnes")[0] == EXIT_OK
    return db


PLAIN = """Nation: England
Gold 5, PP 9, left 6
Buy spearman in Wessex
Move knight London - Mercia
Move spearman London - York
"""


def _check(capsys, db, tmp_path, text: str):
    f = tmp_path / "orders.txt"
    f.write_text(text, encoding="utf-8")
    return cli(capsys, "check", db, f, "--faction", "1")


def test_plain_orders_are_clean(artnes, tmp_path, capsys):
    assert _check(capsys, artnes, tmp_path, PLAIN)[0] == EXIT_OK


@pytest.mark.parametrize("text", [
    PLAIN.replace("Buy spearman in Wessex", "[b]Buy spearman in Wessex[/b]"),
    PLAIN.replace("Move knight", "[color=red][i]Move knight").replace("Mercia", "Mercia[/i][/color]"),
    PLAIN.replace("London - Mercia", "London \u2013 Mercia").replace("London - York", "London \u2014 York"),
    PLAIN.replace("Mercia", "m\u00e9rcia").replace("Wessex", "WESSEX"),
])
def test_forum_writing_reads_as_plain(artnes, tmp_path, capsys, text):
    code, out, _ = _check(capsys, artnes, tmp_path, text)
    assert code == EXIT_OK, out


def test_quoted_orders_are_not_taken(artnes, tmp_path, capsys):
    text = PLAIN + '[quote="France"]\nMove knight London - Kent\nBuy castle in Wessex\n[/quote]\n'
    code, out, err = _check(capsys, artnes, tmp_path, text)
    assert code == EXIT_OK, out
    assert "orders.txt:6: warning (invalid): quoted text (lines 6-9) ignored" in out
    # the same two orders outside a quote are read (and are illegal here)
    code, out, _ = _check(capsys, artnes, tmp_path, PLAIN + "Buy castle in Wessex\nBuy castle in Wessex\n")
    assert code == EXIT_ERRORS


def test_coi_quotes_of_other_posts_are_not_applied(tmp_path, capsys):
    db = tmp_path / "coi.db"
    assert cli(capsys, "new", db, "--ruleset", "coi")[0] == EXIT_OK
    thread = tmp_path / "thread.txt"
    thread.write_text(
        "--- post 102 | IslandGM | 2026-11-20T12:00:00Z\n[b]The game has started![/b]\n\n"
        "--- post 103 | scapheap | 2026-11-20T12:03:00Z\n[b]Move 3 swordsmen from 5,1 to 5,2[/b]\n\n"
        '--- post 104 | GWG | 2026-11-20T12:10:00Z\n[quote="scapheap"]Move 3 swordsmen from 5,1 '
        "to 5,2\nHarvest[/quote]\nnice try\n", encoding="utf-8")
    cli(capsys, "import", db, thread)
    assert cli(capsys, "run", db, "-q")[0] == EXIT_OK
    events = [json.loads(x) for x in cli(capsys, "events", db, "--turn", "1", "--json")[1].splitlines()]
    done = [(e["player"], e["action"]) for e in events if e["kind"] == "coi_action_done"]
    assert done == [(1, "move")]


@pytest.mark.parametrize("header, says", [
    ("Nation: Englnad", "the header names 'Englnad', which is no nation of this game (England, "),
    ("Nation: E", "the header names 'E', which fits several nations (England, Empire)"),
    ("Buy spearman in Wessex", "no nation header and unknown sender"),
])
def test_artnes_unmatched_orders_say_why(artnes, tmp_path, capsys, header, says):
    f = tmp_path / "o.txt"
    f.write_text(f"{header}\nBuy spearman in Wessex\n", encoding="utf-8")
    code, out, _ = cli(capsys, "import", artnes, f)
    assert code == EXIT_ERRORS and "UNMATCHED" in out and says in out


def test_coi_move_written_in_several_ways(tmp_path, capsys):
    db = tmp_path / "coi.db"
    assert cli(capsys, "new", db, "--ruleset", "coi")[0] == EXIT_OK
    lines = ["Move 3 swordsmen from (5,1) to (5,2)", "move 1 swordsman 5,2 -> 5,3",
             "MOVE ONE SWORDSMAN FROM 5,3 TO 5,2", "Move 1 swordsmen from 5,2 to 5,3.",
             "I move 1 swordsman from 5,3 into 5,2"]
    posts = "--- post 102 | IslandGM | 2026-11-20T12:00:00Z\nThe game has started!\n\n" + "".join(
        f"--- post {200 + i} | scapheap | 2026-11-20T12:{i:02d}:00Z\n{line}\n\n"
        for i, line in enumerate(lines, start=1))
    thread = tmp_path / "thread.txt"
    thread.write_text(posts, encoding="utf-8")
    cli(capsys, "import", db, thread)
    assert cli(capsys, "run", db, "-q")[0] == EXIT_OK
    events = [json.loads(x) for x in cli(capsys, "events", db, "--turn", "1", "--json")[1].splitlines()]
    done = [e["post"] for e in events if e["kind"] == "coi_action_done"]
    assert done == ["201", "202", "203", "204", "205"]


@pytest.mark.parametrize("ruleset, kind, says", [
    ("kok", "hex", "King of Kings is played on a square map; this map is hex"),
    ("coi", "square", "Conquest of Island is played on a hex map; this map is square"),
    ("artnes", "square", "ARTNES is played on a map of named realms and seas"),
])
def test_new_game_on_a_map_of_the_wrong_kind(tmp_path, capsys, ruleset, kind, says):
    m = tmp_path / "m.rsmap"
    assert cli(capsys, "map", "generate", m, "--kind", kind, "--size", "20x15", "--seed", "3")[0] == EXIT_OK
    code, out, err = cli(capsys, "new", tmp_path / "g.db", "--ruleset", ruleset, "--map", m)
    assert code == 4 and says in err
    assert not (tmp_path / "g.db").exists()
