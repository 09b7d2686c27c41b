"""Property tests of the shared order tokenizer and keyword matching."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.orders import Tokenizer, keyword, split_lines, tokenize
from engine.orders.tokenizer import NUMBER, PUNCT, STRING, WORD

FAST = settings(max_examples=200, deadline=None)

# Text biased towards what matters: quotes, escapes, comment marks, underscores, spaces.
order_chars = st.sampled_from(list('ab AB 12 "\\#;_(),\t-+ÄöΩ\u00a0\u3000'))
lines = st.text(order_chars, max_size=40) | st.text(max_size=40)
tokenizers = st.builds(Tokenizer, comment_chars=st.sampled_from(["#;", "#", ";", "", "%"]),
                       underscore_space=st.booleans(),
                       punct=st.sampled_from(["", "(),", ",", "()"]))


@FAST
@given(st.text(max_size=300))
def test_split_lines_never_raises_and_counts_lines(text):
    out = split_lines(text)
    assert [n for n, _ in out] == list(range(1, len(out) + 1))
    assert all("\r" not in ln and "\n" not in ln for _, ln in out)


@FAST
@given(lines, tokenizers, st.integers(1, 10_000))
def test_tokens_are_slices_of_the_line_in_order(line, tz, lineno):
    toks = tz.tokenize(line, lineno)
    pos = 0
    for t in toks:
        assert t.line == lineno
        start = t.col - 1
        assert start >= pos
        assert line[start:start + len(t.raw)] == t.raw
        assert t.raw and not _blank(t.raw[0])
        assert all(_blank(ch) for ch in line[pos:start])  # only white space between tokens
        pos = start + len(t.raw)
    rest = "".join(ch for ch in line[pos:] if not _blank(ch))
    assert rest == "" or rest[0] in tz.comment_chars  # the rest is a comment


def _blank(ch: str) -> bool:
    """White space as the tokenizer counts it: invisible web-mail spaces included."""
    from engine.orders.tokenizer import INVISIBLE

    return ch.isspace() or ch in INVISIBLE


@FAST
@given(lines, tokenizers)
@example("a\xadb \xad", Tokenizer(comment_chars="#;", underscore_space=False, punct=""))
def test_token_kinds(line, tz):
    for t in tz.tokenize(line):
        if t.kind == STRING:
            assert t.raw.startswith('"')
            closed = len(t.raw) >= 2 and t.raw.endswith('"') and not t.raw.endswith('\\"')
            assert t.unterminated == (not closed)
            assert t.text == t.raw[1:len(t.raw) - (not t.unterminated)].replace('\\"', '"')
        elif t.kind == PUNCT:
            assert t.raw in tz.punct and t.text == t.raw
        else:
            assert t.kind in (WORD, NUMBER)
            assert not any(c.isspace() or c in tz.comment_chars or c in tz.punct or c == '"'
                           for c in t.raw)
            # A soft hyphen stays inside its word but is dropped from its text.
            bare = t.raw.replace("\xad", "")
            assert t.text == (bare.replace("_", " ") if tz.underscore_space else bare)
            if t.kind == NUMBER:
                assert t.value == int(t.raw)
            assert not t.unterminated


@FAST
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=8), max_size=6))
def test_quoted_words_come_back_whole(words):
    words = [w.replace("\\", "") for w in words]
    line = " ".join('"' + w.replace('"', '\\"') + '"' for w in words) + " # trailing comment"
    toks = tokenize(line)
    assert [t.text for t in toks] == words
    assert all(t.kind == STRING and not t.unterminated for t in toks)


@FAST
@given(st.text(st.sampled_from(list("abc _")), max_size=20))
def test_comment_hides_the_rest(body):
    assert tokenize("# " + body) == []
    assert [t.text for t in tokenize("MOVE ; " + body)] == ["MOVE"]


def test_unterminated_quote_ends_at_end_of_line():
    [a, b] = tokenize('NAME "Old Town')
    assert (b.kind, b.text, b.unterminated, b.col) == (STRING, "Old Town", True, 6)


def test_underscore_and_numbers():
    toks = tokenize("MOVE North_Sea -3 +4 x5")
    assert [(t.text, t.kind) for t in toks] == [
        ("MOVE", WORD), ("North Sea", WORD), ("-3", NUMBER), ("+4", NUMBER), ("x5", WORD)]
    assert [t.col for t in toks] == [1, 6, 16, 19, 22]


# ---- keyword() --------------------------------------------------------------------------

kw_sets = st.lists(st.text(st.sampled_from("ABCDE"), min_size=1, max_size=5), min_size=1,
                   max_size=8, unique=True)


@FAST
@given(kw_sets, st.data())
def test_exact_keyword_beats_prefix(kws, data):
    k = data.draw(st.sampled_from(kws))
    for word in (k, k.lower(), k.capitalize()):
        value, cands = keyword(word, kws)
        assert value == k and cands == [k]


@FAST
@given(kw_sets, st.text(st.sampled_from("ABCDEabcde"), max_size=5), st.integers(1, 3))
def test_prefix_unique_or_all_candidates(kws, word, min_len):
    value, cands = keyword(word, kws, min_len=min_len)
    w = word.upper()
    if w in kws:
        assert (value, cands) == (w, [w])
        return
    hits = sorted(k for k in kws if k.startswith(w))
    if len(w) < min_len:
        assert (value, cands) == (None, [])
    elif len(hits) == 1:
        assert (value, cands) == (hits[0], hits)
    else:
        assert value is None and cands == hits  # every candidate reported, sorted


def test_keyword_mapping_aliases_to_one_value_are_not_ambiguous():
    table = {"SAIL": "sea", "SEA": "sea", "SIEGE": "siege"}
    assert keyword("sa", table) == ("sea", ["SAIL"])
    assert keyword("se", table) == ("sea", ["SEA"])
    assert keyword("si", table) == ("siege", ["SIEGE"])
    assert keyword("s", table) == (None, ["SAIL", "SEA", "SIEGE"])
    assert keyword("x", table) == (None, [])


@FAST
@given(st.text(max_size=30), st.lists(st.text(max_size=6), max_size=6))
def test_keyword_never_raises(word, kws):
    value, cands = keyword(word, kws)
    assert value is None or value in kws or value in {k.upper() for k in kws} or any(
        k.upper() == str(value).upper() for k in kws)
    assert isinstance(cands, list)


def test_aliases_with_equal_values_are_one_meaning():
    table = {"INF": int("1000"), "INFANTRY": int("1000"), "IRON": 7}
    assert keyword("inf", table) == (1000, ["INF"])
    assert keyword("infa", table) == (1000, ["INFANTRY"])
    value, cands = keyword("in", table)
    assert value == 1000 and cands == ["INF", "INFANTRY"]
    assert keyword("i", table) == (None, ["INF", "INFANTRY", "IRON"])


def test_invisible_characters_from_web_mail_separate_like_spaces():
    from engine.orders.tokenizer import tokenize

    toks = tokenize("LAND\u200b1\u00a0\u200b2 N\u2060E\ufeff")
    assert [t.text for t in toks] == ["LAND", "1", "2", "N", "E"]
    assert [t.kind for t in toks][:3] == ["word", "number", "number"]


def test_every_ruleset_reads_orders_with_invisible_spaces():
    from engine.registry import get

    for name, text, verb in (("kok", "BEGIN\nPLA 1\u200b 2 FO\nEND\n", "Place"),
                             ("artnes", "Nation: France\nBuy\u200b knight\u00a0in Paris\n", "Buy"),
                             ("coi", "Harvest\u200b 4,5\n", "Harvest")):
        sheet = get(name).parse_orders(text, "pasted")
        assert [type(o).__name__ for o in sheet.orders] == [verb], (name, sheet.diagnostics)
        assert not sheet.errors, (name, sheet.diagnostics)


def test_a_soft_hyphen_stays_inside_its_word():
    from engine.orders.tokenizer import tokenize, unhide_spaces

    assert [(t.text, t.kind) for t in tokenize("Nor\u00admandy 1\u00ad2")] == [
        ("Normandy", "word"), ("12", "number")]
    assert unhide_spaces("Nor\u00admandy\u00a0x") == "Normandy x"
