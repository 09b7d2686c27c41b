"""Whose orders, for which game and turn (rule book 5 and 9.4).

Three clues, in the book's own conventions (and, for pasted orders, the comment header
of the orders template Realmsmith writes): the e-mail subject `GAMECODE TURN` (e.g.
`KTEST 22`), the file name `SP<player>.R<turn>` (e.g. `SP3.R14`), and the sender's
address, which the host cross-references to the player. The turn is the one the orders
are for: one more than the turn of the last report. Anything that does not fit (another
game's code, another turn, a sender who is not the player named) is said in `reason`,
so the intake can report it; nothing is silently accepted.
"""

from __future__ import annotations

import functools
import re
from email.utils import parseaddr
from pathlib import PurePath

from engine.intake.match import REPLY_PREFIX
from engine.ruleset import Match, Submission
from engine.scenario import Scenario

SP_NAME = re.compile(r"(?<![A-Za-z0-9])SP0*(\d+)\.R0*(\d+)(?![0-9])", re.I)
_REPLY = REPLY_PREFIX
_TEMPLATE = re.compile(r"^#.*game\s+(?P<game>\S+?):\s+orders of player\s+(?P<player>\d+)"
                       r".*for turn\s+(?P<turn>\d+)", re.I | re.M)
_SUBJECT = re.compile(r"^(?P<game>.*?\S)\s*[\s,:/#-]\s*(?:turn\s*)?#?(?P<turn>\d+)\s*$", re.I)


def game_code(scenario: Scenario) -> str:
    """The game's code as players write it in the subject."""
    for key in ("game", "game_code", "code"):
        v = scenario.meta.get(key)
        if v not in (None, ""):
            return str(v)
    init = scenario.initial
    if init is not None and "world" in init.tables and init.tables["world"]:
        return str(init.tables["world"][0].game)
    return scenario.name


def report_subject(scenario: Scenario, step: int) -> str:
    """The report mail of `step`, titled for the orders it asks for (rule book 5): a reply
    keeps `CODE <step + 1>` in front, which is what a player writes for those orders."""
    return f"{game_code(scenario)} {step + 1} (report of turn {step}; reply with your orders)"


_OWN_SUBJECT = re.compile(r"^(?P<game>.*?\S)\s+(?P<turn>\d+)\s+\(report of turn \d+; reply with "
                          r"your orders\)", re.I)


def parse_subject(subject: str) -> tuple[str, int] | None:
    """('KTEST', 22) from 'KTEST 22', 'Re: KTEST 22', 'KTEST turn 22'; None if no turn."""
    s = _REPLY.sub("", subject or "").strip()
    m = _OWN_SUBJECT.match(s) or _SUBJECT.match(s)  # a reply to our report mail, or the book's
    if not m:
        return None
    return m.group("game").strip(), int(m.group("turn"))


def find_code_turn(subject: str, code: str) -> int | None:
    """The turn after this game's code anywhere in a subject: '[DEMO] 1', 'Orders DEMO 1',
    'DEMO 1 (corrected)', 'DEMO1'; None if the code is not followed by a turn."""
    if not code:
        return None
    s = _REPLY.sub("", subject or "").strip()
    c = re.escape(code)
    m = (re.search(rf"(?<![A-Za-z0-9]){c}[\])]?(?:\s*[\s,:/#-]\s*|\s*(?=turn))(?:turn\s*)?#?"
                   rf"0*(\d+)(?![0-9A-Za-z])", s, re.I)
         or re.fullmatch(rf"[\[(]?{c}0*(\d+)[\])]?", s, re.I))
    return int(m.group(1)) if m else None


def _ends_in_code(game: str, code: str) -> bool:
    """'Orders DEMO' or '[DEMO]' for DEMO, but not 'DEMO-2' or 'XDEMO' (other games)."""
    return game.lower() != code.lower() and re.search(
        rf"(?<![A-Za-z0-9_-]){re.escape(code)}[\])]?$", game, re.I) is not None


@functools.lru_cache(maxsize=4096)  # called for every faction of every mail
def _address(s: str) -> str:
    return (parseaddr(s)[1] or s).strip().lower()


def identify(submission: Submission, scenario: Scenario,
             current_turn: int | None = None) -> Match:
    """Faction, turn and game of a submission, with the reasons in words for the GM."""
    code = game_code(scenario)
    why: list[str] = []
    match = Match()

    subj = parse_subject(submission.subject) if submission.subject else None
    sp = SP_NAME.search(submission.subject or "")
    if sp and subj and SP_NAME.fullmatch(submission.subject.strip()):
        subj = None  # the subject is a file name like SP3.R14, read below
    elif submission.subject and code and (subj is None or _ends_in_code(subj[0], code)):
        turn = find_code_turn(submission.subject, code)
        if turn is not None:  # the code is there, with a list tag or words around it
            subj = (code, turn)
    if subj is not None:
        game, turn = subj
        match.game, match.step = game, turn
        if code and game.lower() != code.lower():
            why.append(f"subject {submission.subject.strip()!r} is for game {game}, "
                       f"not this game {code}")
        else:
            why.append(f"turn {turn} from the subject {submission.subject.strip()!r}")
    elif submission.subject and submission.subject.strip() and not sp:
        why.append(f"subject {submission.subject.strip()!r} is not 'GAMECODE TURN' "
                   f"(e.g. '{code} 5')")

    names = [str(submission.meta.get("file_name") or "")]
    if submission.source_kind == "file" or not names[0]:
        names.append(PurePath(submission.source_name or "").name)
    names.append(submission.subject or "")
    for name in names:
        m = SP_NAME.search(name)
        if not m:
            continue
        player, turn = int(m.group(1)), int(m.group(2))
        match.faction = player
        why.append(f"player {player} from the name {m.group(0)}")
        if match.step is None:
            match.step = turn
            why.append(f"turn {turn} from the name {m.group(0)}")
        elif match.step != turn:
            why.append(f"the name says turn {turn} but the subject turn {match.step}; "
                       "the subject counts")
        break

    sender = _address(submission.sender) if submission.sender else ""
    if sender:
        owners = sorted(f.number for f in scenario.factions
                        if f.email and _address(f.email) == sender)
        if match.faction is None:
            if len(owners) == 1:
                match.faction = owners[0]
                why.append(f"player {owners[0]} by the sender {sender}")
            elif owners:
                why.append(f"sender {sender} is the address of players "
                           f"{', '.join(map(str, owners))}: cannot tell which")
            else:
                why.append(f"sender {sender} is no player's address")
        elif owners and match.faction not in owners:
            why.append(f"sender {sender} is player {owners[0]}'s address, not player "
                       f"{match.faction}'s")

    # last resort: the comment header of our own orders template (pasted orders)
    head = _TEMPLATE.search(submission.text[:2000]) if submission.text else None
    if head is not None and (match.faction is None or match.step is None):
        if match.faction is None:
            match.faction = int(head.group("player"))
            why.append(f"player {match.faction} from the orders template's header")
        if match.step is None:
            match.step = int(head.group("turn"))
            why.append(f"turn {match.step} from the orders template's header")
        if match.game is None:
            match.game = head.group("game")
            if code and match.game.lower() != code.lower():
                why.append(f"the template is for game {match.game}, not this game {code}")

    if match.faction is not None and scenario.faction(match.faction) is None:
        why.append(f"there is no player {match.faction} in this game")
    if current_turn is not None and match.step is not None and match.step != current_turn:
        why.append(f"orders for turn {match.step}, but turn {current_turn} is being collected")
    if match.faction is None and not why:
        why.append("no subject, file name or known sender to tell whose orders these are")
    match.reason = "; ".join(why)
    return match
