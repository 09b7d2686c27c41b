"""Matching King of Kings orders to player and turn: subject, file name, sender (5, 9.4)."""

import kok_fixtures as fx

from engine.intake.match import WRONG_GAME, WRONG_STEP, match_submission
from engine.ruleset import Submission
from engine.rulesets.kok import RULESET
from engine.rulesets.kok.identify import identify, parse_subject


def test_subject_forms():
    assert parse_subject("KTEST 22") == ("KTEST", 22)
    assert parse_subject("Re: Fwd: Terrania 23") == ("Terrania", 23)
    assert parse_subject("My Game turn 5") == ("My Game", 5)
    assert parse_subject("orders") is None


def test_subject_and_sender():
    sub = Submission("BEGIN\nEND", "email", "<m1>", sender="Ann <TWO@example.org>",
                     subject="TESTGAME 4")
    m = identify(sub, fx.scenario())
    assert (m.faction, m.step, m.game) == (2, 4, "TESTGAME")
    assert m.reason == ("turn 4 from the subject 'TESTGAME 4'; "
                        "player 2 by the sender two@example.org")


def test_file_name():
    sub = Submission("BEGIN\nEND", "file", "/tmp/in/SP3.R14")
    m = identify(sub, fx.scenario())
    assert (m.faction, m.step) == (3, 14)
    assert "player 3 from the name SP3.R14" in m.reason


def test_attachment_name_and_subject_as_file_name():
    sub = Submission("", "email", "<m2>", subject="SP1.R7", meta={"file_name": "orders.txt"})
    assert (identify(sub, fx.scenario()).faction, identify(sub, fx.scenario()).step) == (1, 7)
    sub = Submission("", "email", "<m3>", meta={"file_name": "sp02.r009"})
    m = identify(sub, fx.scenario())
    assert (m.faction, m.step) == (2, 9)


def test_wrong_game_is_reported():
    sub = Submission("", "email", "<m4>", sender="one@example.org", subject="OTHER 4")
    m = identify(sub, fx.scenario())
    assert m.game == "OTHER" and m.faction == 1
    assert "is for game OTHER, not this game TESTGAME" in m.reason
    sub2 = match_submission(sub, RULESET, fx.scenario(), 4)
    assert sub2.meta["match"] == WRONG_GAME


def test_wrong_turn_is_reported():
    sub = Submission("", "email", "<m5>", sender="one@example.org", subject="TESTGAME 3")
    m = identify(sub, fx.scenario(), current_turn=4)
    assert "orders for turn 3, but turn 4 is being collected" in m.reason
    assert match_submission(sub, RULESET, fx.scenario(), 4).meta["match"] == WRONG_STEP


def test_sender_not_matching_the_file_name_is_reported():
    sub = Submission("", "email", "<m6>", sender="one@example.org", subject="TESTGAME 4",
                     meta={"file_name": "SP2.R4"})
    m = identify(sub, fx.scenario())
    assert m.faction == 2
    assert "sender one@example.org is player 1's address, not player 2's" in m.reason


def test_unknown_sender_and_player():
    m = identify(Submission("", "email", "<m7>", sender="x@y.z", subject="TESTGAME 4"),
                 fx.scenario())
    assert m.faction is None and "no player's address" in m.reason
    m = identify(Submission("", "file", "SP9.R4"), fx.scenario())
    assert m.faction == 9 and "no player 9 in this game" in m.reason


def test_bad_subject_is_named():
    m = identify(Submission("", "email", "<m8>", sender="one@example.org",
                            subject="my orders"), fx.scenario())
    assert m.faction == 1 and m.step is None
    assert "'my orders' is not 'GAMECODE TURN'" in m.reason


def test_nothing_at_all():
    m = identify(Submission("BEGIN\nEND"), fx.scenario())
    assert m.faction is None and m.reason.startswith("no subject")


def test_pasted_template_header():
    from engine.rulesets.kok.reports import orders_template

    text = orders_template(fx.state(), 2, fx.scenario()).replace("BEGIN\n", "BEGIN\nALL 1 3\n")
    m = identify(Submission(text, "paste", "pasted"), fx.scenario())
    assert (m.faction, m.step, m.game) == (2, 4, "TESTGAME")
    assert "player 2 from the orders template's header" in m.reason
    # a subject still wins over the template
    m = identify(Submission(text, "email", "<x>", sender="three@example.org",
                            subject="TESTGAME 5"), fx.scenario())
    assert (m.faction, m.step) == (3, 5)
