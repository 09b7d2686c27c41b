"""Atlantis JSON reports are written fast (orjson, engine/rulesets/atlantis/report_json.py)
but must read exactly as the standard library writes them."""

from __future__ import annotations

import json

import pytest

from engine.rulesets.atlantis.report_json import dumps


def reference(data):
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("data", [
    {}, [], {"a": {}, "b": [], "c": [[]], "d": [{}]}, None, True, 0, -7, 2**63, 2**64 - 1,
    "plain", {"z": 1, "a": 2, "M": 3, "é": 4, "ä": [1, 2, {"x": None}]},
    {"text": "control \x00\x01\x1b[31m bell\x07 tab\t nl\n cr\r del\x7f"},
    {"text": 'quotes " and \\ and / and \u2028\u2029 bidi \u202e and \U0001f600 ünïcödé'},
    {"deep": [[[[[[[[[[{"k": "v"}]]]]]]]]]]},
    {"a": [1, [2, [3, [4]]]], "b": {"c": {"d": {"e": "  spaces  "}}}},
    {"keys": {"10": 1, "9": 2, "a b": 3, "": 4}},
    {"a  key": {"b": [1, {"c": "three   and one "}]}},  # double spaces: the numpy way
    {"a": [{"b": "one space each", "c": [" ", "x y"]}]},  # none: the one replace
])
def test_same_text_as_the_standard_library(data):
    assert dumps(data) == reference(data)


@pytest.mark.parametrize("data", [{1: "int key"}, {"big": 2**70}, {"s": "lone \ud800"}])
def test_what_orjson_refuses_goes_to_the_standard_library(data):
    assert dumps(data) == reference(data)


def test_a_report_bigger_than_a_chunk(monkeypatch):
    from engine.rulesets.atlantis import report_json

    data = {"regions": [{"units": [{"n": i, "items": [[i, {"x": "y  z"}], []]}]} for i in range(300)]}
    monkeypatch.setattr(report_json, "CHUNK", 97)  # pieces end in the middle of every level
    assert dumps(data) == reference(data)


def test_a_whole_report_reads_the_same(tmp_path):
    """The GM's and two factions' reports of a played month on a generated world."""
    from engine import registry
    from engine.events import EventLog
    from engine.rulesets.atlantis.generate import generate_game

    rs = registry.get("atlantis")
    scen, _orders = generate_game(12, units=4)
    state = scen.initial
    for f in (None, 1, 12):
        data = rs.report(state, EventLog(), f, scen)
        assert dumps(data) == reference(data)
        assert rs.render(data, "json") == reference(data)
