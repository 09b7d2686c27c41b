"""Turn what a GM points at -- pasted text, a file, a folder, an .eml, an mbox -- into
Submissions. Nothing here raises on bad input: every file that gives no orders becomes a
problem naming the file; every oddity in a file that did give orders travels with its
submission (`submission_diagnostics`)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from engine.intake.decode import DEFAULT_MAX_BYTES, binary_kind, decode, normalise_newlines
from engine.intake.mail import (
    MailMessage,
    iso_utc,
    iter_mbox,
    looks_like_mbox,
    looks_like_message,
    parse_message,
)
from engine.orders import INVALID, Diagnostic, Severity
from engine.ruleset import Submission

MESSAGE_SUFFIXES = frozenset({".eml", ".msg822", ".mail"})
MBOX_SUFFIXES = frozenset({".mbox", ".mbx"})


@dataclass
class IntakeBatch:
    submissions: list[Submission] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # files that gave no orders

    def extend(self, other: IntakeBatch) -> None:
        self.submissions.extend(other.submissions)
        self.problems.extend(other.problems)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Problems plus every submission's own diagnostics, for one list on screen."""
        out = list(self.problems)
        for sub in self.submissions:
            out.extend(submission_diagnostics(sub))
        return out


def submission_diagnostics(sub: Submission) -> list[Diagnostic]:
    """What intake noticed about a submission (kept in `meta` as plain dicts for storage)."""
    return [Diagnostic.from_dict(d) for d in sub.meta.get("diagnostics", [])]


def _with_diagnostics(sub: Submission, diags: list[Diagnostic]) -> Submission:
    if diags:
        sub.meta.setdefault("diagnostics", []).extend(d.to_dict() for d in diags)
    return sub


def read_text(text: str, source_kind: str = "paste", source_name: str = "pasted",
              sender: str = "", subject: str = "", received_at: str = "") -> Submission:
    """A submission from text already in hand (pasted in the console, a forum post)."""
    text = normalise_newlines(text.lstrip("\ufeff"))
    return Submission(text=text, source_kind=source_kind, source_name=source_name,
                      sender=sender.strip(), subject=" ".join(subject.split()),
                      received_at=received_at, encoding="utf-8",
                      meta={"file_name": Path(source_name).name if source_kind == "file"
                            else ""})


def mtime_iso(path: Path) -> str:
    try:
        return iso_utc(datetime.fromtimestamp(path.stat().st_mtime, UTC))
    except OSError:
        return ""


def _problem(message: str, name: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(INVALID, message, file=name, severity=severity)


def _read_limited(path: Path, max_bytes: int) -> bytes | None:
    """The file's bytes, or None when it holds more than `max_bytes` (never read whole)."""
    with path.open("rb") as f:
        data = f.read(max_bytes + 1)
    return None if len(data) > max_bytes else data


def read_path(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> IntakeBatch:
    """Submissions from a file, a folder (recursively, sorted, hidden files skipped),
    an .eml message or an mbox. Problems are collected, never raised."""
    p = Path(path)
    batch = IntakeBatch()
    name = str(p)
    try:
        if p.is_dir():
            for child in _walk(p, batch):
                batch.extend(_read_file(child, max_bytes))
        elif p.exists():
            batch.extend(_read_file(p, max_bytes))
        else:
            batch.problems.append(_problem(f"{name}: no such file or folder", name))
    except PermissionError:
        batch.problems.append(_problem(f"{name}: permission denied", name))
    except OSError as e:
        batch.problems.append(_problem(f"{name}: cannot be read ({e.strerror or e})", name))
    return batch


def _walk(root: Path, batch: IntakeBatch) -> list[Path]:
    files: list[Path] = []

    def onerror(e: OSError) -> None:
        where = str(e.filename or root)
        why = "permission denied" if isinstance(e, PermissionError) else (e.strerror or str(e))
        batch.problems.append(_problem(f"{where}: folder cannot be read ({why})", where))

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        files.extend(Path(dirpath, f) for f in filenames if not f.startswith("."))
    rel = [f.relative_to(root).parts for f in files]
    return [f for _, f in sorted(zip(rel, files, strict=True),
                                 key=lambda t: ([x.lower() for x in t[0]], t[0]))]


def _read_file(path: Path, max_bytes: int) -> IntakeBatch:
    name = str(path)
    batch = IntakeBatch()
    try:
        if not path.is_file():
            batch.problems.append(_problem(f"{name}: not a regular file; skipped", name,
                                           Severity.WARNING))
            return batch
        suffix = path.suffix.lower()
        with path.open("rb") as f:
            head = f.read(4096)
        # The content decides; the suffix only explains a mismatch.
        if looks_like_mbox(head):
            return _read_mbox(path, max_bytes)
        is_message = looks_like_message(head)
        notes: list[Diagnostic] = []
        if suffix in MESSAGE_SUFFIXES | MBOX_SUFFIXES and not is_message and head.strip() \
                and binary_kind(head) is None:
            notes.append(_problem(f"{name} is named {suffix} but holds no mail headers; read "
                                  "as plain text", name, Severity.WARNING))
        size = path.stat().st_size
        if size > max_bytes:
            batch.problems.append(_problem(
                f"{name} is too large to be an orders file ({size:,} bytes; the limit is "
                f"{max_bytes:,}); not read", name))
            return batch
        data = _read_limited(path, max_bytes)
        if data is None:  # grew while we looked
            batch.problems.append(_problem(f"{name} is too large; not read", name))
            return batch
        if is_message:
            return _from_message(parse_message(data, name, max_bytes), name, "email",
                                 name, mtime_iso(path))
        dec = decode(data, name, max_bytes)
        if dec.refused and suffix == ".msg":  # Outlook's own format, not text
            dec.diagnostics = [_problem(f"{name} is an Outlook .msg file, not an orders text; "
                                        "save the mail as .eml or the orders as a .txt file",
                                        name)]
        if dec.refused or not dec.text.strip():
            batch.problems.extend(dec.diagnostics or [_problem(
                f"{name} has no orders text", name, Severity.WARNING)])
            return batch
        sub = Submission(text=dec.text, source_kind="file", source_name=name,
                         received_at=mtime_iso(path), encoding=dec.encoding,
                         meta={"file_name": path.name})
        batch.submissions.append(_with_diagnostics(sub, notes + dec.diagnostics))
    except PermissionError:
        batch.problems.append(_problem(f"{name}: permission denied", name))
    except OSError as e:
        batch.problems.append(_problem(f"{name}: cannot be read ({e.strerror or e})", name))
    return batch


def _from_message(msg: MailMessage, label: str, kind: str, source: str,
                  fallback_time: str) -> IntakeBatch:
    batch = IntakeBatch(problems=list(msg.problems))
    for part in msg.texts:
        received = msg.received_at if part.received_at is None else part.received_at
        sub = Submission(
            text=part.text, source_kind=kind,
            source_name=f"{source}#{part.part_name}" if part.part_name else source,
            sender=msg.sender if part.sender is None else part.sender,
            subject=msg.subject if part.subject is None else part.subject,
            received_at=received or fallback_time, encoding=part.encoding,
            meta={"file_name": part.part_name, "message_id": msg.message_id})
        if part.sender is not None:  # forwarded: who sent it to the GM is what verifies it
            sub.meta["envelope_sender"] = msg.sender
        diags = list(part.diagnostics)
        if not received:
            diags.append(_problem(f"{label} has no valid Date header; the file time is used",
                                  label, Severity.WARNING))
        batch.submissions.append(_with_diagnostics(sub, diags))
    return batch


def read_mail_bytes(data: bytes, name: str = "<stdin>",
                    max_bytes: int = DEFAULT_MAX_BYTES) -> IntakeBatch | None:
    """A mail message or an mbox held in memory (piped on standard input, as mail delivery
    tools do), read exactly as the same file given by path; None if it is neither."""
    head = data[:4096]
    if looks_like_mbox(head):
        return _read_mbox_stream(io.BytesIO(data), name, max_bytes, "")
    if looks_like_message(head):
        return _from_message(parse_message(data, name, max_bytes), name, "email", name, "")
    return None


def _read_mbox(path: Path, max_bytes: int) -> IntakeBatch:
    with path.open("rb") as f:
        return _read_mbox_stream(f, str(path), max_bytes, mtime_iso(path))


def _read_mbox_stream(f: BinaryIO, name: str, max_bytes: int, fallback: str) -> IntakeBatch:
    batch = IntakeBatch()
    for index, data in iter_mbox(f, name, max_bytes):
        label = f"{name} message {index}"
        if data is None:
            batch.problems.append(_problem(f"{label} is too large (over {max_bytes:,} "
                                           "bytes); not read", label))
            continue
        part = _from_message(parse_message(data, label, max_bytes), label, "mbox",
                             f"{name}#{index}", fallback)
        for sub in part.submissions:
            sub.meta["mbox_index"] = index
        batch.extend(part)
    if not batch.submissions and not batch.problems:
        batch.problems.append(_problem(f"{name} holds no messages", name, Severity.WARNING))
    return batch
