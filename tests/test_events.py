"""engine.events: typed events, visibility, and the to_dict/from_dict round trip."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import EVENT_TYPES, Event, EventLog


@dataclass(frozen=True)
class Moved(Event):
    kind = "test-events-moved"
    faction: int
    path: tuple[str, ...] = ()
    speed: float = 1.0
    note: str | None = None


@dataclass(frozen=True)
class Fought(Event):
    kind = "test-events-fought"
    attacker: int
    defender: int
    losses: tuple[tuple[str, int], ...] = ()
    won: bool = False

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.attacker, self.defender})


def test_kinds_are_registered():
    assert EVENT_TYPES["test-events-moved"] is Moved


def test_a_kind_is_required_and_unique():
    with pytest.raises(TypeError, match="needs a `kind`"):
        @dataclass(frozen=True)
        class NoKind(Event):
            x: int = 0
    with pytest.raises(TypeError, match="declared twice"):
        @dataclass(frozen=True)
        class Impostor(Event):
            kind = "test-events-moved"


def test_to_dict_is_plain_json():
    e = Fought(1, 2, (("I", 3), ("K", 1)), True)
    d = e.to_dict()
    assert d == {"kind": "test-events-fought", "attacker": 1, "defender": 2,
                 "losses": [["I", 3], ["K", 1]], "won": True}
    assert json.loads(json.dumps(d)) == d


def test_round_trip_restores_tuples():
    for e in (Moved(3, ("a", "b"), 2.5, "n"), Moved(1), Fought(1, 2, (("I", 3),), True)):
        back = Event.from_dict(json.loads(json.dumps(e.to_dict())))
        assert back == e and type(back) is type(e)
        assert isinstance(getattr(back, "path", getattr(back, "losses", None)), tuple)


def test_from_dict_ignores_unknown_fields_and_uses_defaults():
    e = Event.from_dict({"kind": "test-events-moved", "faction": 2, "added_later": 1})
    assert e == Moved(2)


@settings(max_examples=100, deadline=None)
@given(st.integers(), st.lists(st.text(max_size=5), max_size=4).map(tuple),
       st.floats(allow_nan=False, allow_infinity=False), st.none() | st.text(max_size=8))
def test_round_trip_property(faction, path, speed, note):
    e = Moved(faction, path, speed, note)
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_factions_concerned():
    assert Fought(1, 2).factions() == frozenset({1, 2})
    assert Moved(4).factions() == frozenset({4})


def test_log_sequence_phase_visibility_and_round_trip():
    log = EventLog()
    log.phase = "movement"
    log.emit(Moved(1, ("x",)))
    log.phase = "battle"
    log.emit(Fought(1, 2, (("I", 1),)))
    log.emit(Moved(3))
    assert len(log) == 3 and list(log)[1] == Fought(1, 2, (("I", 1),))
    assert [(r.seq, r.phase) for r in log.records] == [(1, "movement"), (2, "battle"),
                                                       (3, "battle")]
    assert log.of(Moved) == [Moved(1, ("x",)), Moved(3)]
    assert [r.seq for r in log.for_faction(3)] == [1, 3]   # not the battle of 1 and 2
    assert [r.seq for r in log.for_faction(2)] == [1, 2, 3]
    assert [r.seq for r in log.for_faction(None)] == [1, 2, 3]
    data = json.loads(json.dumps(log.to_list()))
    assert data[1] == {"seq": 2, "phase": "battle", "kind": "test-events-fought",
                       "attacker": 1, "defender": 2, "losses": [["I", 1]], "won": False}
    back = EventLog.from_list(data)
    assert back.to_list() == log.to_list()
    assert back.records == log.records


def test_unknown_kind_is_a_key_error():
    with pytest.raises(KeyError):
        Event.from_dict({"kind": "no-such-event"})
