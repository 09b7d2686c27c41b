"""Which faction sent a submission, and for which step.

The ruleset is asked first (`Ruleset.identify`: its header line, subject convention, file
names). What it leaves open is filled from generic clues: the sender's address equal to a
faction's e-mail, a file name `SP<faction>.R<turn>`. The outcome is written on the
submission -- faction, step, `matched_by` (a sentence for the GM) and `meta["match"]`,
one of the STATUS values -- and a submission for the wrong game or turn is kept and
reported, never dropped.
"""

from __future__ import annotations

import functools
import re
from email.utils import parseaddr
from pathlib import PurePath

from engine.intake import verify
from engine.intake.plainmail import bare_address
from engine.orders import Diagnostic, Severity
from engine.ruleset import Match, Ruleset, Submission
from engine.scenario import Faction, Scenario
from engine.state import State

OK = "ok"                      # faction and step known, step is the current one
UNMATCHED = "unmatched"        # no faction found
UNKNOWN_FACTION = "unknown_faction"  # a faction number that is not in this game
WRONG_GAME = "wrong_game"
WRONG_STEP = "wrong_step"      # orders for another turn than the one being collected
BAD_PASSWORD = "bad_password"
STATUS = (OK, UNMATCHED, UNKNOWN_FACTION, WRONG_GAME, WRONG_STEP, BAD_PASSWORD)

# Faction and turn numbers read from subjects, file names and headers: anything larger is
# a typo or an attack, and would not fit the database's 64-bit integers.
MAX_NUMBER = 999_999_999

SP_FILE = re.compile(r"(?<![A-Za-z0-9])SP0*(\d+)\.R0*(\d+)(?!\d)", re.I)
# what mail programs put before a subject when replying or forwarding, in several languages
REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|vs|antw|odp|ynt|fwd?|wg|tr|rv|enc|i)\s*(\[\d+\])?"
                          r"\s*:\s*)+", re.I)


def bare_subject(subject: str) -> str:
    """The subject without reply and forward prefixes, white space collapsed."""
    return " ".join(REPLY_PREFIX.sub("", subject or "").split())


# the player viewer's default orders mail subject (engine.orderdraft.orders_subject)
VIEWER_SUBJECT = re.compile(r"\borders of faction (\d+) for turn (\d+)\s*$", re.I)


def viewer_subject_clue(sub: Submission, scenario: Scenario) -> tuple[int, int] | None:
    """(faction, turn) from the subject the player viewer writes, '<game> orders of
    faction 2 for turn 5' (a reply or forward of it too); None if it is not one."""
    bare = bare_subject(sub.subject)
    m = VIEWER_SUBJECT.search(bare)
    if m is None or not bare.casefold().startswith(scenario.name.casefold()):
        return None
    return int(m.group(1)), int(m.group(2))


def report_reply_step(sub: Submission, ruleset: Ruleset, scenario: Scenario,
                      current_step: int, factions: Factions | None = None) -> int | None:
    """The turn a reply to one of our report mails is for: the report of turn N asks for
    the orders of turn N + 1 (Ruleset.report_subject). None if the subject is not one."""
    bare = bare_subject(sub.subject).casefold()
    if not bare:
        return None
    index = factions if factions is not None else Factions(scenario)
    return index.report_subjects(ruleset, current_step).get(bare)


class Factions:
    """A scenario's factions by number and by registered address, and the subjects of its
    last 50 reports: made once for a batch of submissions (each of 1,000 mails scanned
    the 1,000 factions twice, and the reports' subjects once per turn of the game)."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.by_number: dict[int, Faction] = {}
        self.by_address: dict[str, list[Faction]] = {}
        for f in scenario.factions:
            self.by_number.setdefault(f.number, f)  # the first, as Scenario.faction
            if f.email:
                self.by_address.setdefault(address(f.email), []).append(f)
        self._subjects: dict[tuple[int, int], dict[str, int]] = {}

    def faction(self, number: int) -> Faction | None:
        return self.by_number.get(number)

    def report_subjects(self, ruleset: Ruleset, current_step: int) -> dict[str, int]:
        """bare subject (case folded) of the report of turn N -> N + 1, the latest report
        first, for N from `current_step` back 50 turns; up to the first a ruleset cannot
        write (a ruleset bug must not lose orders; the other clues remain)."""
        key = (id(ruleset), current_step)
        got = self._subjects.get(key)
        if got is None:
            got = self._subjects[key] = {}
            for n in range(current_step, max(-1, current_step - 50), -1):
                try:
                    mine = ruleset.report_subject(self.scenario, n)
                except Exception:  # noqa: BLE001 - see above
                    break
                got.setdefault(bare_subject(mine).casefold(), n + 1)
        return got


@functools.lru_cache(maxsize=4096)  # parseaddr is slow; a mailbox repeats few addresses
def address(sender: str) -> str:
    """The bare address of 'Name <a@b.c>' or 'a@b.c', lower case."""
    bare = bare_address(sender)
    if bare is not None:
        return bare.lower()
    return parseaddr(sender)[1].strip().lower() or sender.strip().lower()


def file_name_clue(sub: Submission) -> tuple[int, int] | None:
    """(faction, turn) from an `SP3.R14`-style file or attachment name."""
    names = [str(sub.meta.get("file_name") or "")]
    if sub.source_kind == "file":
        names.append(PurePath(sub.source_name).name)
    for n in names:
        m = SP_FILE.search(n)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def _game_code(scenario: Scenario) -> str:
    for key in ("game", "game_code", "code"):
        v = scenario.meta.get(key)
        if v not in (None, ""):
            return str(v)
    return ""


def current_password(ruleset: Ruleset, state: State | None, f: Faction,
                     scenario: Scenario) -> str:
    """The password a faction's orders must give: the ruleset's current one by the latest
    state (Ruleset.current_password: Atlantis PASSWORD orders), else the scenario's."""
    if state is not None:
        try:
            pw = ruleset.current_password(state, f.number, scenario)
        except Exception:  # a ruleset bug must not lose orders: the scenario's password then
            pw = None
        if pw is not None:
            return pw
    return f.password or ""


def match_submission(sub: Submission, ruleset: Ruleset, scenario: Scenario,
                     current_step: int, state: State | None = None,
                     factions: Factions | None = None) -> Submission:
    """Fill sub.faction, sub.step, sub.matched_by and sub.meta['match']; returns `sub`.
    `state`: the latest state, for the faction's current password (else the scenario's).
    `factions`: Factions(scenario), made once for many submissions."""
    index = factions if factions is not None else Factions(scenario)
    why: list[str] = []
    try:
        m = ruleset.identify(sub, scenario) or Match()
    except Exception as e:  # a ruleset bug must not lose a player's orders
        m = Match()
        why.append(f"the ruleset could not read the header ({type(e).__name__}: {e})")
    faction, step = m.faction, m.step
    if _in_range(faction, "faction", why) is None and faction is not None \
            or _in_range(step, "turn", why) is None and step is not None:
        return _done(sub, None, None, UNMATCHED, why)  # a number no game has: kept for the GM
    if faction is not None:
        why.append(m.reason or f"faction {faction} from the orders header")
    elif m.reason:
        why.append(m.reason)
    if step is None:
        step = report_reply_step(sub, ruleset, scenario, current_step - 1, index)
        if step is not None:
            why.append(f"turn {step}: a reply to the report of turn {step - 1}")
    viewer = viewer_subject_clue(sub, scenario)
    if viewer is not None and faction is None:
        faction = viewer[0]
        why.append(f"faction {faction} from the player viewer's subject")
    if viewer is not None and step is None and viewer[0] == faction:
        step = viewer[1]
        why.append(f"turn {step} from the player viewer's subject")

    sender = address(sub.sender) if sub.sender else ""
    # Rulesets that read the sender themselves have said what they found; not twice.
    said_sender = bool(sender) and sender in (m.reason or "").lower()
    by_mail = index.by_address.get(sender, []) if sender else []
    clue = file_name_clue(sub)
    if faction is None and len(by_mail) == 1:
        faction = by_mail[0].number
        why.append(f"faction {faction} by sender {sender}")
    elif faction is None and len(by_mail) > 1 and not said_sender:
        nums = ", ".join(str(f.number) for f in sorted(by_mail, key=lambda f: f.number))
        why.append(f"sender {sender} is the address of several factions ({nums})")
    if clue and (_in_range(clue[0], "faction", why) is None
                 or _in_range(clue[1], "turn", why) is None):
        return _done(sub, None, None, UNMATCHED, why)
    if faction is None and clue:
        faction = clue[0]
        why.append(f"faction {faction} by file name {sub.meta.get('file_name') or sub.source_name}")
    if step is None and clue and (faction is None or clue[0] == faction):
        step = clue[1]
        why.append(f"turn {step} by file name")

    if faction is None and m.role:  # known, not a faction: no error, just not orders
        sub.meta["role"] = m.role
        return _done(sub, None, step, UNMATCHED, why)
    if faction is None:
        parts = []
        if sender and not said_sender:
            parts.append(f"no faction matches sender {sender}")
        if not clue and not m.reason:
            parts.append("no faction in the header, subject or file name")
        why.append("; ".join(parts) or ("" if m.reason else "no faction found"))
        return _done(sub, None, step, UNMATCHED, why)

    status = OK
    password_ok, pw = False, None
    f = index.faction(faction)
    if f is None:
        why.append(f"faction {faction} is not in this game")
        status = UNKNOWN_FACTION
    else:
        if sender and f.email and address(f.email) != sender and not said_sender:
            others = [g.number for g in by_mail if g.number != faction]
            why.append(f"note: sender {sender} is not faction {faction}'s address"
                       + (f" but faction {others[0]}'s" if others else ""))
        _warn_other_players_address(sub, faction, sender, by_mail)
        pw = current_password(ruleset, state, f, scenario)
        if m.password is not None and pw and m.password != pw:
            why.append(f"wrong password for faction {faction}")
            status = BAD_PASSWORD
        password_ok = bool(pw) and m.password == pw
    game = _game_code(scenario)
    if m.game and game and m.game.strip().lower() != game.strip().lower():
        why.append(f"orders for game {m.game} but this game is {game}")
        status = WRONG_GAME
    if step is None:
        step = current_step
        why.append(f"no turn given; taken as the current turn {current_step}")
    elif step != current_step and status == OK:
        status = WRONG_STEP
        why.append(f"orders for turn {step} but the game is at turn {current_step}")
    _done(sub, faction, step, status, why)
    if status not in (UNKNOWN_FACTION, BAD_PASSWORD, WRONG_GAME):
        verify.apply(sub, scenario, password_ok, pw, index.faction(faction))
    return sub


def _in_range(n: int | None, what: str, why: list[str]) -> int | None:
    """n if it is a plausible faction or turn number, else None with the reason said."""
    if n is None or (isinstance(n, int) and 0 <= n <= MAX_NUMBER):
        return n
    why.append(f"{what} number {str(n)[:30]} is out of range (0 to {MAX_NUMBER:,}); ignored")
    return None


def _warn_other_players_address(sub: Submission, faction: int, sender: str,
                                by_mail: list) -> None:
    """Orders for one faction sent from another faction's address: taken, but the GM must
    see it (a wrong attachment, or somebody writing orders for an ally)."""
    others = sorted(g.number for g in by_mail)
    if not others or faction in others:
        return
    d = Diagnostic("intake", f"sent from {sender}, the address of faction "
                   f"{', '.join(map(str, others))}, not of faction {faction}; check before the "
                   "turn runs", file=sub.source_name or sub.source_kind,
                   severity=Severity.WARNING, faction=faction).to_dict()
    notes = sub.meta.setdefault("diagnostics", [])
    if d not in notes:  # matching again (reassign, rollback) must not repeat it
        notes.append(d)


def _done(sub: Submission, faction: int | None, step: int | None, status: str,
          why: list[str]) -> Submission:
    sub.faction, sub.step = faction, step
    sub.matched_by = "; ".join(w for w in why if w)
    sub.meta["match"] = status
    return sub


def is_matched(sub: Submission) -> bool:
    return sub.meta.get("match") == OK
