"""Forum thread exports: plain text, JSON and CSV read into ordered submissions."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.threads import load_thread, normalise_time, read_thread

TEXT = """--- post 12 | scapheap | 2026-11-20T14:05:00Z | lines 3
Move 3 swordsmen from 5,1 to 5,2

AP: 9

--- post 11 | GWG | 2026-11-20 16:05:00+02:00 | edited 2026-11-20T15:00:00Z | lines 1
Harvest
--- post 13 | Remuthra | 2026-11-20T14:05:00Z | 1 line
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
    assert _ids(posts) == []  # post 1 twice with different texts, no line counts: neither
    lines = {p.line: p.message for p in problems}
    assert set(lines) == {1, 2, 4, 6, 8}
    assert "before the first" in lines[1]
    assert "without line counts" in lines[2]
    assert "post header" in lines[4]
    assert "cannot read the time 'yesterday'" in lines[6]
    assert "appears twice with different text" in lines[8] and "neither" in lines[8]
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


FORGED = ("I propose peace.\n\n--- post 106 | GWG | 2026-11-20T12:16:00Z | lines 1\n"
          "GWG allies with Remuthra")


def test_a_header_inside_a_post_is_text_of_that_post(tmp_path):
    """With line counts, headers are recognised only after the counted lines: a header a
    player types into a post creates no post and cannot push out the real one."""
    f = tmp_path / "t.txt"
    f.write_text("--- post 105 | Remuthra | 2026-11-20T12:15:00Z | lines 4\n" + FORGED + "\n\n"
                 "--- post 106 | kj1225 | 2026-11-20T12:20:00Z | lines 1\nHarvest\n", encoding="utf-8")
    posts, problems = load_thread(f)
    assert problems == []
    assert [(p.meta["post_id"], p.sender) for p in posts] == [("105", "Remuthra"), ("106", "kj1225")]
    assert posts[0].text == FORGED and posts[1].text == "Harvest"


def test_counted_thread_faults_are_problems_not_posts(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("--- post 1 | Ann | 2026-11-20T10:00:00Z | lines 1\nHarvest\nstray\n"
                 "--- post 2 | Bob | 2026-11-20T10:01:00Z\nno count\n"
                 "--- post 3 | Cid | 2026-11-20T10:02:00Z | lines 5\nshort\n", encoding="utf-8")
    posts, problems = load_thread(f)
    assert _ids(posts) == ["1"]
    msgs = {p.line: p.message for p in problems}
    assert "text between posts" in msgs[3] and "without '| lines N'" in msgs[4]
    assert "says 5 lines but the file ends" in msgs[6]


def test_old_style_forgery_with_a_real_post_id_imports_neither(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("--- post 105 | Remuthra | 2026-11-20T12:15:00Z\n" + FORGED.replace(" | lines 1", "")
                 + "\n--- post 106 | kj1225 | 2026-11-20T12:20:00Z\nHarvest\n", encoding="utf-8")
    posts, problems = load_thread(f)
    assert _ids(posts) == ["105"]
    assert any("post 106 appears twice" in p.message and "neither" in p.message for p in problems)


def test_hostile_times_and_ids_cost_only_their_post(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("--- post 1 | Ann | 9999-12-31T23:59:59-23:59 | lines 1\nHarvest\n"
                 "--- post \u00b2 | Bob | 2026-11-20T10:00:00Z | lines 1\nHarvest\n"
                 "--- post 3 | Cid | 2026-11-20T10:01:00Z | edited 9999-12-31T23:59:59-23:59 | lines 1\n"
                 "Harvest\n"
                 f"--- post {'9' * 100} | Dan | 2026-11-20T10:02:00Z | lines 1\nHarvest\n"
                 "--- post 5 | Eve | 2026-11-20T10:03:00Z | lines 1\nHarvest\n", encoding="utf-8")
    posts, problems = load_thread(f)
    assert _ids(posts) == ["\u00b2", "3", "5"]  # by time; a bad id or time costs its post
    assert any("cannot read the time" in p.message and p.line == 1 for p in problems)
    assert any("not a post id" in p.message and p.line == 7 for p in problems)
    g = tmp_path / "t.json"
    g.write_text(json.dumps({"posts": [{"id": "\u00b2", "author": "A", "time": 1e300, "text": "x"},
                                       {"id": 2, "author": "B", "time": "2026-11-20T10:00:00Z",
                                        "text": "y"}]}), encoding="utf-8")
    posts, problems = load_thread(g)
    assert _ids(posts) == ["2"] and problems[0].line == 1
