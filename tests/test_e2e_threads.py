"""End to end: a Conquest of Island forum thread export as the GM gets it, through the CLI.

tests/data/e2e/coi-malformed-thread.txt mixes good posts with every header a forum export
or a hand edit breaks: no id, unreadable time, no author, missing time, a post id twice
with different text, a time zone of +25:00, a non-player, a post from the future.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import EXIT_ERRORS, EXIT_OK, main
from engine.threads import load_thread

THREAD = Path(__file__).parent / "data" / "e2e" / "coi-malformed-thread.txt"


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


@pytest.fixture
def game(tmp_path, capsys):
    db = tmp_path / "coi.db"
    assert cli(capsys, "new", db, "--ruleset", "coi")[0] == EXIT_OK
    return db


def test_malformed_posts_named_by_file_and_line(game, tmp_path, capsys):
    thread = tmp_path / "thread.txt"
    thread.write_bytes(THREAD.read_bytes())
    code, out, _ = cli(capsys, "import", game, thread)
    assert code == EXIT_ERRORS
    problems = {int(x.split(":")[1]): x for x in out.splitlines() if x.startswith(f"{thread}:")}
    assert sorted(problems) == [1, 7, 9, 11, 13, 22, 28]
    assert "without line counts" in problems[1]  # an old-style export: said once
    assert "yesterday at noon" in problems[9]
    assert "no author" in problems[11]
    # post 108 twice with different texts: one may be forged, so neither counts
    assert "appears twice" in problems[22] and "neither is imported" in problems[22]
    # the good posts are stored, players' and others' alike, and status says so
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert [f["submitted"] for f in st["factions"]] == [False, True, False, True]
    # the GM's posts (101, 102) are the GM's, not unmatched; a stranger's post is
    assert sorted(st["unmatched"]) == [f"{thread.name}#107"]
    assert f"{thread.name}#101: stored, GM post" in out
    assert len(st["problems"]) == 7
    # the run applies what can be applied, skips the rest with a reason, and does not crash
    assert cli(capsys, "run", game, "-q")[0] == EXIT_OK
    events = [json.loads(x) for x in cli(capsys, "events", game, "--turn", "1", "--json")[1].splitlines()]
    assert {"post": "110", "reason": "before the start"}.items() <= next(
        e for e in events if e.get("post") == "110").items()
    assert not any(e.get("post") == "108" for e in events)


def test_reimport_takes_only_new_posts_and_flags_edits(game, tmp_path, capsys):
    thread = tmp_path / "thread.txt"
    text = THREAD.read_text(encoding="utf-8")
    thread.write_text(text, encoding="utf-8")
    cli(capsys, "import", game, thread)
    code, out, _ = cli(capsys, "import", game, thread)
    assert "imported 0 submission(s)" in out and "6 seen before" in out
    assert cli(capsys, "run", game, "-q")[0] == EXIT_OK
    # the export taken an hour later: post 113 edited, one new post
    thread.write_text(text.replace("lowercase header, space time", "Harvest")
                      + "--- post 200 | Remuthra | 2026-11-20T15:00:00Z\nHarvest\n", encoding="utf-8")
    code, out, _ = cli(capsys, "import", game, thread)
    assert f"{thread.name}#113: edited" in out and "the edit is not applied" in out
    assert f"{thread.name}#200: stored, faction 3" in out
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert st["edited"] == [f"{thread.name}#113"]
    assert [f["submitted"] for f in st["factions"]] == [False, False, True, False]


def test_reimport_does_not_repeat_problems(game, tmp_path, capsys):
    thread = tmp_path / "thread.txt"
    thread.write_bytes(THREAD.read_bytes())
    cli(capsys, "import", game, thread)
    cli(capsys, "import", game, thread)
    st = json.loads(cli(capsys, "status", game, "--json")[1])
    assert len(st["problems"]) == 7


def test_semicolon_csv_from_a_spreadsheet(game, tmp_path, capsys):
    f = tmp_path / "thread.csv"
    f.write_bytes("Id;Author;Time;Text\r\n1;IslandGM;2026-11-20T12:00:00Z;Game on!\r\n"
                  "2;GWG;20.11.2026 12:10;\"Harvest; then wait\"\r\n3;GWG\r\n"
                  .encode("cp1252"))
    code, out, _ = cli(capsys, "import", game, f)
    assert code == EXIT_ERRORS  # row 4 is short
    assert f"{f}:4: error (invalid): post 3 has no time; left out" in out
    assert "thread.csv#2: stored, faction 2" in out
    posts, _ = load_thread(f)
    assert [p.text for p in posts] == ["Game on!", "Harvest; then wait"]
    assert posts[1].received_at == "2026-11-20T12:10:00Z"  # day-first dotted date


@pytest.mark.parametrize("name, data, says", [
    ("t.txt", bytes(range(256)) * 4, "binary data"),
    ("t.json", b'{"posts": "nope"}', "expected a list of posts"),
    ("t.json", b'[{"id": 1, "author": "GWG", "time": "2026-11-20T12:00:00Z", "text": "x"},', "not valid JSON"),
    ("t.csv", b"", "empty"),
    ("t.csv", b"who,when\nGWG,now\n", "lacks column(s) id, author, time, text"),
])
def test_unusable_thread_files(game, tmp_path, capsys, name, data, says):
    f = tmp_path / name
    f.write_bytes(data)
    code, out, err = cli(capsys, "import", game, f)
    assert code == EXIT_ERRORS
    assert any(x.startswith(f"{f}:") and says in x for x in (out + err).splitlines()), out + err
