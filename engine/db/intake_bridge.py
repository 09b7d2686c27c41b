"""Between intake and the game: reading sources into Submissions and matching them.

Uses engine.intake (files, folders, .eml, mbox, encodings) and engine.threads (forum thread
exports) when they import; otherwise a minimal fallback keeps the service working.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import tzinfo
from pathlib import Path
from typing import Any

from engine.orders import Diagnostic
from engine.ruleset import Ruleset, Submission
from engine.scenario import Scenario


def to_json(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def own(d: Diagnostic, file: str, faction: int | None) -> Diagnostic:
    """The diagnostic with the submission's file name and faction filled in."""
    if d.file and d.faction == faction:
        return d
    return dataclasses.replace(d, file=d.file or file, faction=faction)


def source_identity(sub: Submission, post_id: str | None = None) -> str | None:
    """Which source a submission came from, so that importing it again is recognised:
    a forum post by its id, a mail by its Message-ID (and the part of it), an mbox message
    without one by its place, a file by its path and modification time (a file saved
    again, even unchanged, is sent again: the same orders for the next turn). A pasted
    text has none: pasting again is a new submission. Same identity and same text =
    imported before."""
    if post_id:
        return f"post:{post_id}"
    mid = str(sub.meta.get("message_id") or "").strip()
    if mid and sub.source_kind in ("email", "mbox"):
        return f"mail:{mid}#{sub.meta.get('file_name') or ''}"
    if sub.source_kind in ("email", "mbox") and sub.source_name:
        return f"{sub.source_kind}:{sub.source_name}"
    if sub.source_kind == "file" and sub.source_name:
        return f"file:{sub.source_name}@{sub.received_at}"
    return None


def match(sub: Submission, rs: Ruleset, scen: Scenario, pending: int, state: Any = None,
          factions: Any = None) -> None:
    """Match a submission; `state` (the latest) gives factions' current passwords;
    `factions` is factions_index(scen), made once for many submissions."""
    try:
        from engine.intake import match_submission
    except Exception:  # intake not importable: the ruleset's identify plus sender address
        match_submission = None
    if match_submission is not None:
        match_submission(sub, rs, scen, pending, state, factions)
        return
    try:
        m = rs.identify(sub, scen)
    except Exception as e:
        m = None
        sub.matched_by = f"the ruleset could not read the header ({type(e).__name__})"
    if m is not None and m.faction is not None:
        sub.faction, sub.step, sub.matched_by = m.faction, m.step, m.reason or "header"
    elif sub.sender:
        hits = [f for f in scen.factions if f.email and f.email.lower() in sub.sender.lower()]
        if len(hits) == 1:
            sub.faction, sub.matched_by = hits[0].number, f"sender {sub.sender}"
    if sub.faction is not None and sub.step is None:
        sub.step = pending
    sub.meta["match"] = "ok" if sub.faction is not None and scen.faction(sub.faction) else \
        ("unmatched" if sub.faction is None else "unknown_faction")


def factions_index(scen: Scenario) -> Any:
    """The scenario's factions indexed for matching a batch (engine.intake.match.Factions);
    None where intake does not import."""
    try:
        from engine.intake.match import Factions
    except Exception:
        return None
    return Factions(scen)


def intake_text(text: str, kind: str, name: str, sender: str, subject: str, received_at: str) -> Submission:
    try:
        from engine.intake import read_text
    except Exception:
        return Submission(text.lstrip("\ufeff").replace("\r\n", "\n"), kind, name, sender, subject,
                          received_at)
    return read_text(text, kind, name, sender, subject, received_at)


def thread_path(path: str | Path, zone: tzinfo | None = None) -> tuple[list[Submission], list[Diagnostic]]:
    """Posts from a thread export (or every file of a folder), in time order; times written
    without a zone are on the forum's clock `zone` (default UTC)."""
    try:
        from engine.threads import load_thread
    except Exception:
        return intake_path(path)
    p = Path(path)
    if not p.exists():
        return [], [Diagnostic("intake", "no such file or folder", file=str(p))]
    files = sorted(x for x in p.rglob("*") if x.is_file() and not x.name.startswith(".")) \
        if p.is_dir() else [p]
    posts: list[Submission] = []
    problems: list[Diagnostic] = []
    for f in files:
        got, probs = load_thread(f, zone=zone)
        posts += got
        problems += probs
    return posts, problems


def intake_path(path: str | Path) -> tuple[list[Submission], list[Diagnostic]]:
    try:
        from engine.intake import read_path
    except Exception:
        read_path = None
    if read_path is not None:
        batch = read_path(path)
        return batch.submissions, batch.problems
    p = Path(path)  # minimal fallback: plain text files and folders
    if not p.exists():
        return [], [Diagnostic("intake", "no such file or folder", file=str(p))]
    files = sorted(x for x in p.rglob("*") if x.is_file()) if p.is_dir() else [p]
    subs = []
    for f in files:
        raw = f.read_bytes()
        try:
            text, enc = raw.decode("utf-8-sig"), "utf-8"
        except UnicodeDecodeError:
            text, enc = raw.decode("latin-1"), "latin-1"
        sub = Submission(text.replace("\r\n", "\n"), "file", str(f), encoding=enc)
        sub.meta["file_name"] = f.name
        subs.append(sub)
    return subs, []
