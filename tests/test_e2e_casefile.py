"""A broken rule case file names itself and says what is wrong (for whoever writes cases)."""

from __future__ import annotations

import pytest

from engine.casefile import CaseError, load_case, run_case

HEAD = 'title = "x"\nruleset = "kok"\n'


@pytest.mark.parametrize("body, says", [
    ("[map\nkind = 'square'\n", "Expected ']'"),
    ('[map]\nterrain_rows = ["pp", "ppp"]\n', "rows of the same length"),
    ('[map]\nterrain_rows = ["pz"]\n', "map letter 'z'"),
    ('[map]\nterrain_rows = ["pp"]\n[state]\narmies = [{cell = "0/0", tribe = 1, troop = "H", '
     'count = 2, bogus = 3}]\n', "[state] armies"),
    ('[map]\nterrain_rows = ["pp"]\n[state]\nnosuch = []\n', "[state] nosuch: kok has no such table"),
    ('[map]\nterrain_rows = ["pp"]\n[state]\narmies = [{cell = "9/9", tribe = 1, troop = "H", '
     'count = 2}]\n', "not a cell of the case map"),
    ("", "missing or unknown 'map'"),
])
def test_broken_case_files(tmp_path, body, says):
    f = tmp_path / "case.toml"
    f.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(CaseError) as e:
        run_case(load_case(f))
    assert str(e.value).startswith(f"{f}: ") and says in str(e.value)


def test_unknown_ruleset(tmp_path):
    f = tmp_path / "case.toml"
    f.write_text('title = "x"\nruleset = "nosuch"\n', encoding="utf-8")
    with pytest.raises(CaseError, match="unknown ruleset 'nosuch'"):
        run_case(load_case(f))
