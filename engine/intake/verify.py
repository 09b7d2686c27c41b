"""Is a matched submission really from its faction? (docs/security.md, "Intake")

Matching says *whose* orders a text claims to be; anyone can write `SP3.R1` or `DEMO 5`.
Orders may replace a faction's accepted orders only when they come from somewhere the
faction is known by:

- its registered e-mail address (the faction's `email` in the scenario), read from the
  mail that reached the GM -- for a message forwarded as an attachment that is the outer
  mail's sender, not the From line inside, which the forwarder wrote;
- its password, where the ruleset reads one (`Match.password`, checked by the matcher
  against the faction's current one, `Ruleset.current_password`);
- its forum account, for forum posts (the faction's `forum` attribute, else its name);
- the GM: files and pasted text are handed in by the GM, and `--faction`, reassign and
  accept are the GM's decisions.

Everything else that claims a faction with a registered address or password is HELD: it
is stored and shown, but takes no part in choosing the orders that count until the GM
accepts it (`realmsmith accept`) or rejects it. A faction with neither an address nor a
password has nothing to check against: its orders are taken from anyone ("open"), and
`status` says which factions are open.
"""

from __future__ import annotations

import dataclasses
import functools
from email.utils import parseaddr

from engine.intake.plainmail import bare_address
from engine.ruleset import Submission
from engine.scenario import Faction, Scenario

KEY = "verify"          # sub.meta key holding one of the states below
NOTE = "verify_note"    # sub.meta key: why, in words for the GM

VERIFIED = "verified"   # registered address, password, forum account
GM = "gm"               # handed in or decided by the GM
OPEN = "open"           # the faction has no address or password to check against
HELD = "held"           # waits for the GM: accept or reject
ACCEPTED = "accepted"   # held, then accepted by the GM
REJECTED = "rejected"   # held, then rejected by the GM: kept, never used
STATES = (VERIFIED, GM, OPEN, HELD, ACCEPTED, REJECTED)
UNUSABLE = (HELD, REJECTED)  # take no part in supersession, are not run

MAIL_KINDS = ("email", "mbox")
GM_KINDS = ("file", "paste")


@functools.lru_cache(maxsize=4096)
def _addr(s: str) -> str:
    bare = bare_address(s)
    if bare is not None:
        return bare.lower()
    return (parseaddr(s)[1] or s).strip().lower()


def is_open(f: Faction) -> bool:
    """Nothing to verify orders against: no registered address, no password."""
    return not (f.email or "").strip() and not (f.password or "")


def mail_sender(sub: Submission) -> str:
    """The address the mail reached the GM from (outer sender of a forwarded message)."""
    return _addr(str(sub.meta.get("envelope_sender") or sub.sender or ""))


def judge(sub: Submission, f: Faction, password_ok: bool = False) -> tuple[str, str]:
    """(state, note) for a submission matched to faction `f`."""
    kind = sub.source_kind
    if password_ok:
        return VERIFIED, f"faction {f.number}'s password given"
    if kind in GM_KINDS:
        return GM, f"{kind} handed in by the GM"
    if kind == "post":
        who = (sub.sender or "").strip().casefold()
        account = str(f.attrs.get("forum") or f.name).strip().casefold()
        if who and who == account:
            return VERIFIED, f"forum account {sub.sender}"
        if is_open(f) and not f.attrs.get("forum"):
            return OPEN, f"faction {f.number} has no forum account on record"
        return HELD, (f"posted by {sub.sender or '(nobody)'}, not by faction {f.number}'s forum "
                      f"account {f.attrs.get('forum') or f.name}")
    sender = mail_sender(sub) if kind in MAIL_KINDS else ""
    if f.email and sender and sender == _addr(f.email):
        return VERIFIED, f"registered address {sender}"
    if is_open(f):
        return OPEN, f"faction {f.number} has no registered address or password"
    what = [f"address {_addr(f.email)}"] if f.email else []
    if f.password:
        what.append("password")
    fwd = " (a forwarded message counts from who forwarded it)" \
        if sub.meta.get("envelope_sender") and _addr(sub.sender) != sender else ""
    return HELD, (f"sent from {sender or 'an unknown sender'}{fwd}, without faction "
                  f"{f.number}'s registered {' or '.join(what)}")


def apply(sub: Submission, scenario: Scenario, password_ok: bool = False,
          password: str | None = None, found: Faction | None = None) -> None:
    """Write the verification state on a matched submission (unmatched ones get none).
    `password`: the faction's current one where the game changes it (engine.intake.match);
    `found`: the scenario's faction sub.faction, where the caller has it at hand."""
    f = found if found is not None and found.number == sub.faction else \
        scenario.faction(sub.faction) if sub.faction is not None else None
    if f is None:
        sub.meta.pop(KEY, None)
        sub.meta.pop(NOTE, None)
        return
    if password is not None and password != (f.password or ""):
        f = dataclasses.replace(f, password=password)
    sub.meta[KEY], sub.meta[NOTE] = judge(sub, f, password_ok)


def set_by_gm(sub: Submission, state: str = GM, note: str = "decided by the GM") -> None:
    sub.meta[KEY], sub.meta[NOTE] = state, note


def state_of(meta: dict) -> str:
    """The stored state; submissions stored before verification existed count as verified."""
    return str(meta.get(KEY) or VERIFIED)


def usable(meta: dict) -> bool:
    return state_of(meta) not in UNUSABLE
