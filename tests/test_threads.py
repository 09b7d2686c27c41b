"""Forum thread exports: plain text, JSON and CSV read into ordered submissions."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.threads import load_thread, normalise_time, read_thread

TEXT = """--- post 12 | scapheap | 2026-11-20T14:05:00Z
Move 3 swordsmen from 5,1 to 5,2

AP: 9

--- post 11 | GWG | 2026-11-20 16:05:00+02:00 | edited 2026-11-20T15:00:00Z
Harvest
--- post 13 | Remuthra | 2026-11-20T14:05:00Z
Harvest
"""


def _ids(posts):
    return [p.meta["post_id"] for p in posts]


def test_text_format(tmp_path):
    f = tmp_path / "thread.txt"
    f.write_text(TEXT, encoding="utf-8")
    posts, problems = load_thread(f)
    assert problems == []
    # 16:05+02:00 is 14:05Z: the three share a time; ids break the tie
    assert _ids(posts) == ["11", "12", "13"]
    p11, p12, _ = posts
    assert p11.received_at == "2026-11-20T14:05:00Z"
    assert p11.meta["edited_at"] == "2026-11-20T15:00:00Z"
    assert p12.sender == "scapheap" and p12.text == "Move 3 swordsmen from 5,1 to 5,2\n\nAP: 9"
    assert p12.meta["edited_at"] is None and p12.meta["line"] == 1
    assert p12.source_kind == "post"


def test_json_format_and_posts_object(tmp_path):
    items = [{"id": 2, "author": "Ann", "time": "2026-11-20T10:00:00Z", "text": "Harvest"},
             {"id": 1, "author": "Bob", "time": "2026-11-20T09:00:00", "text": "Hi",
              "edited_at": "2026-11-20T09:30:00Z"}]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(items, indent=2), encoding="utf-8")
    posts, problems = load_thread(f)
    assert problems == [] and _ids(posts) == ["1", "2"]
    assert posts[0].received_at == "2026-11-20T09:00:00Z"  # no zone: UTC
    g = tmp_path / "t2.json"
    g.write_text(json.dumps({"thread": "x", "posts": items}), encoding="utf-8")
    assert _ids(read_thread(g)) == ["1", "2"]


def test_csv_format_encodings(tmp_path):
    rows = 'id,author,time,text,edited_at\n5,Jos\u00e9,2026-11-20T10:00:00Z,"Offer 1 wood for 1 food\nAP: 3",\n'
    for enc in ("utf-8", "utf-8-sig", "cp1252", "utf-16"):
        f = tmp_path / f"t-{enc}.csv"
        f.write_bytes(rows.encode(enc))
        posts, problems = load_thread(f)
        assert problems == [], enc
        assert posts[0].sender == "Jos\u00e9", enc
        assert posts[0].text == "Offer 1 wood for 1 food\nAP: 3"


def test_csv_aliases_and_missing_columns(tmp_path):
    f = tmp_path / "a.csv"
    f.write_text("Post_ID,User,Timestamp,Body\n7,Ann,2026-11-20 10:00,Harvest\n", encoding="utf-8")
    assert _ids(read_thread(f)) == ["7"]
    g = tmp_path / "b.csv"
    g.write_text("id,author,text\n1,Ann,Harvest\n", encoding="utf-8")
    posts, problems = load_thread(g)
    assert posts == [] and "lacks column(s) time" in problems[0].message and problems[0].line == 1


def test_malformed_posts_are_reported_with_file_and_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("stray text\n--- post 1 | Ann | 2026-11-20T10:00:00Z\nHarvest\n"
                 "--- post 2 | Bob\nMove\n--- post 3 | Cid | yesterday\nHarvest\n"
                 "--- post 1 | Ann | 2026-11-20T10:00:00Z\nSomething else\n", encoding="utf-8")
    problems = []
    posts = read_thread(f, problems)
    assert _ids(posts) == ["1"]
    lines = {p.line: p.message for p in problems}
    assert set(lines) == {1, 4, 6, 8}
    assert "before the first" in lines[1]
    assert "post header" in lines[4]
    assert "cannot read the time 'yesterday'" in lines[6]
    assert "appears twice with different text" in lines[8]
    assert all(p.file == str(f) for p in problems)


def test_bad_json_and_missing_fields(tmp_path):
    f = tmp_path / "x.json"
    f.write_text('[\n {"id": 1, "author": "A", "time": "2026-11-20T10:00:00Z", "text": "a"},\n'
                 ' {"id": 2, "time": "2026-11-20T10:00:00Z"},\n 17\n]', encoding="utf-8")
    posts, problems = load_thread(f)
    assert _ids(posts) == ["1"]
    assert [(p.line, "no author" in p.message or "object" in p.message) for p in problems] == [(3, True), (4, True)]
    g = tmp_path / "y.json"
    g.write_text('[{"id": 1,', encoding="utf-8")
    posts, problems = load_thread(g)
    assert posts == [] and "not valid JSON" in problems[0].message


def test_unreadable_and_empty_files(tmp_path):
    posts, problems = load_thread(tmp_path / "missing.txt")
    assert posts == [] and "cannot read" in problems[0].message
    e = tmp_path / "empty.txt"
    e.write_bytes(b"")
    posts, problems = load_thread(e)
    assert posts == [] and "empty" in problems[0].message


def test_reading_twice_gives_the_same_submissions(tmp_path):
    f = tmp_path / "thread.txt"
    f.write_text(TEXT, encoding="utf-8")
    assert read_thread(f) == read_thread(f)


def test_normalise_time():
    assert normalise_time("2026-11-20T23:30:00-01:00") == "2026-11-21T00:30:00Z"
    assert normalise_time("2026-11-20 10:00 UTC") == "2026-11-20T10:00:00Z"
    assert normalise_time(0) == "1970-01-01T00:00:00Z"
    assert normalise_time("soon") is None and normalise_time(None) is None


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(["t.txt", "t.json", "t.csv", "t.dat"]))
def test_any_bytes_never_raise(tmp_path_factory, data, name):
    f = tmp_path_factory.mktemp("h") / name
    f.write_bytes(data)
    posts, problems = load_thread(f)
    assert isinstance(posts, list) and isinstance(problems, list)
