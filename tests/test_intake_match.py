"""engine.intake.match: faction and step from the ruleset's identify() and generic clues."""

from __future__ import annotations

import re

import pytest

from engine import registry
from engine.intake import (
    BAD_PASSWORD,
    OK,
    UNKNOWN_FACTION,
    UNMATCHED,
    WRONG_GAME,
    WRONG_STEP,
    is_matched,
    match_submission,
    read_text,
)
from engine.map import GameMap
from engine.orders import OrderSheet
from engine.ruleset import Match, Ruleset, Submission
from engine.scenario import Faction, Scenario
from engine.tables import Options
from engine.topology import SquareGrid


class Tiny(Ruleset):
    """A ruleset whose orders start with `#tiny GAME FACTION "password" TURN`."""

    name = "tiny-intake"
    HEADER = re.compile(r'^#tiny\s+(\S+)\s+(\d+)\s+"([^"]*)"(?:\s+(\d+))?', re.M)

    def catalog_specs(self):
        return {}

    def default_catalogs(self):
        return {}

    def option_specs(self):
        return ()

    def phases(self):
        return []

    def initial_state(self, scenario):
        return self.new_state()

    def parse_orders(self, text, source=""):
        return OrderSheet(source=source)

    def report(self, state, events, faction, scenario, diagnostics=None):
        return {}

    def render(self, report, fmt="text"):
        return ""

    def identify(self, submission, scenario):
        m = self.HEADER.search(submission.text)
        if m:
            return Match(faction=int(m.group(2)), step=int(m.group(4)) if m.group(4) else None,
                         game=m.group(1), password=m.group(3),
                         reason=f"faction {m.group(2)} from the #tiny line")
        if submission.subject == "boom":
            raise ValueError("bad subject")
        if submission.subject == "explain":
            return Match(reason=f"the tiny rules know no sender {submission.sender}")
        return Match()


@pytest.fixture(scope="module")
def tiny():
    rs = Tiny()
    registry.register(rs)
    return registry.get("tiny-intake")


@pytest.fixture
def scenario():
    factions = [Faction(1, "Ash", "ash@example.org", "pw1"),
                Faction(2, "Birch", "Birch@Example.ORG", ""),
                Faction(3, "Cedar", "shared@example.org"),
                Faction(4, "Damson", "shared@example.org")]
    return Scenario("tiny-intake", "Test", GameMap(SquareGrid(2, 2)), {}, Options(()),
                    factions, meta={"game": "G7"})


def match(sub, tiny, scenario, step=14):
    out = match_submission(sub, tiny, scenario, step)
    assert out is sub
    return (sub.faction, sub.step, sub.meta["match"], sub.matched_by)


def test_header_line_from_the_ruleset(tiny, scenario):
    sub = read_text('#tiny G7 1 "pw1" 14\nMOVE 1 2\n')
    assert match(sub, tiny, scenario) == (1, 14, OK, "faction 1 from the #tiny line")
    assert is_matched(sub)


def test_header_without_turn_takes_the_current_one(tiny, scenario):
    sub = read_text('#tiny g7 2 ""\n')
    assert match(sub, tiny, scenario) == (
        2, 14, OK, "faction 2 from the #tiny line; no turn given; taken as the current turn 14")


def test_wrong_turn_is_kept_and_reported(tiny, scenario):
    sub = read_text('#tiny G7 1 "pw1" 12\n')
    assert match(sub, tiny, scenario) == (
        1, 12, WRONG_STEP, "faction 1 from the #tiny line; orders for turn 12 but the game is "
                           "at turn 14")
    assert not is_matched(sub)


def test_wrong_game(tiny, scenario):
    sub = read_text('#tiny OTHER 1 "pw1" 14\n')
    assert match(sub, tiny, scenario) == (
        1, 14, WRONG_GAME, "faction 1 from the #tiny line; orders for game OTHER but this game "
                           "is G7")


def test_wrong_password(tiny, scenario):
    sub = read_text('#tiny G7 1 "guess" 14\n')
    assert match(sub, tiny, scenario)[2:] == (
        BAD_PASSWORD, "faction 1 from the #tiny line; wrong password for faction 1")


def test_unknown_faction(tiny, scenario):
    sub = read_text('#tiny G7 9 "" 14\n')
    assert match(sub, tiny, scenario) == (
        9, 14, UNKNOWN_FACTION, "faction 9 from the #tiny line; faction 9 is not in this game")


def test_sender_address_case_insensitive(tiny, scenario):
    sub = read_text("MOVE 1 2\n", source_kind="email", source_name="m.eml",
                    sender="Bea <birch@example.org>")
    assert match(sub, tiny, scenario) == (
        2, 14, OK, "faction 2 by sender birch@example.org; no turn given; taken as the current "
                   "turn 14")


def test_unknown_sender_is_reported(tiny, scenario):
    sub = read_text("MOVE 1 2\n", source_kind="email", source_name="m.eml",
                    sender="stranger@x.y")
    assert match(sub, tiny, scenario) == (
        None, None, UNMATCHED, "no faction matches sender stranger@x.y; no faction in the "
                               "header, subject or file name")


def test_shared_address_is_ambiguous(tiny, scenario):
    sub = read_text("MOVE\n", source_kind="email", source_name="m", sender="shared@example.org")
    f, s, status, why = match(sub, tiny, scenario)
    assert (f, status) == (None, UNMATCHED)
    assert why.startswith("sender shared@example.org is the address of several factions (3, 4)")


@pytest.mark.parametrize("name, faction, step", [
    ("orders/SP3.R14", 3, 14), ("sp03.r014.txt", 3, 14), ("Mail-SP4.R13", 4, 13)])
def test_file_name_sp_r(tiny, scenario, name, faction, step):
    sub = read_text("MOVE\n", source_kind="file", source_name=name)
    f, s, status, why = match(sub, tiny, scenario)
    assert (f, s, status) == (faction, step, OK if step == 14 else WRONG_STEP)
    assert f"faction {faction} by file name" in why and f"turn {step} by file name" in why


def test_attachment_name_is_a_clue_too(tiny, scenario):
    sub = Submission("MOVE\n", "email", "m.eml#SP2.R14", sender="birch@example.org",
                     meta={"file_name": "SP2.R14"})
    assert match(sub, tiny, scenario) == (
        2, 14, OK, "faction 2 by sender birch@example.org; turn 14 by file name")


def test_no_clue_at_all(tiny, scenario):
    sub = read_text("MOVE 1 2\n")
    assert match(sub, tiny, scenario) == (
        None, None, UNMATCHED, "no faction in the header, subject or file name")


def test_header_wins_over_sender_with_a_note(tiny, scenario):
    sub = read_text('#tiny G7 1 "pw1" 14\n', source_kind="email", source_name="m",
                    sender="birch@example.org")
    assert match(sub, tiny, scenario) == (
        1, 14, OK, "faction 1 from the #tiny line; note: sender birch@example.org is not "
                   "faction 1's address but faction 2's")


def test_a_failing_identify_does_not_lose_the_orders(tiny, scenario):
    sub = read_text("MOVE\n", source_kind="email", source_name="m", subject="boom",
                    sender="ash@example.org")
    assert match(sub, tiny, scenario) == (
        1, 14, OK, "the ruleset could not read the header (ValueError: bad subject); faction 1 "
                   "by sender ash@example.org; no turn given; taken as the current turn 14")


def test_matching_twice_gives_the_same_answer(tiny, scenario):
    sub = read_text('#tiny G7 1 "pw1" 12\n')
    first = match(sub, tiny, scenario)
    assert match(sub, tiny, scenario) == first


def test_what_the_ruleset_explained_is_not_said_twice(tiny, scenario):
    sub = read_text("MOVE\n", source_kind="email", source_name="m", subject="explain",
                    sender="nobody@x.y")
    assert match(sub, tiny, scenario) == (
        None, None, UNMATCHED, "the tiny rules know no sender nobody@x.y")


def test_end_to_end_sample_folder(tiny, scenario, tmp_path):
    import sys
    from pathlib import Path

    from engine.intake import read_path
    sys.path.insert(0, str(Path(__file__).parent / "data" / "intake"))
    import make_samples

    make_samples.write(tmp_path)
    batch = read_path(tmp_path / "folder")
    got = [(Path(s.source_name).name, *match(s, tiny, scenario)[:3]) for s in batch.submissions]
    assert got == [("SP1.R14", 1, 14, OK), ("SP2.R14.txt", 2, 14, OK)]
    [sub] = read_path(tmp_path / "attachment.eml").submissions  # SP3.R14 from anna@example.org
    assert match(sub, tiny, scenario) == (
        3, 14, OK, "faction 3 by file name SP3.R14; turn 14 by file name; note: sender "
                   "anna@example.org is not faction 3's address")
