"""Forum threads: a thread export read into timestamped submissions, for real-time rulesets.

Three export formats, told apart by the file extension or, failing that, the content:

* plain text (.txt): each post starts with a header line

      --- post 12 | scapheap | 2026-11-20T14:05:00Z
      --- post 13 | GWG | 2026-11-20 14:07 | edited 2026-11-20T15:00:00Z

  and its text runs to the next header (surrounding blank lines dropped);
* JSON (.json): a list of objects {"id", "author", "time", "text", "edited_at"} (or an
  object with such a list under "posts");
* CSV (.csv): a header row naming the same columns (aliases: post_id, user, poster,
  timestamp, date, body, message, edited), any encoding: a BOM is honoured, then UTF-8,
  then Windows-1252/Latin-1.

Times become UTC ISO strings ("2026-11-20T14:05:00Z"); a time without a zone counts as
UTC; day-first dotted dates ("20.11.2026 14:05") are read too. CSV may be separated by
',', ';' or tabs (told from the header row). Posts come back ordered by (time, post id). A malformed post is left out and reported
as a Diagnostic naming the file and line; nothing here raises on bad input.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any

from engine.orders import INVALID, Diagnostic, Severity
from engine.ruleset import Submission

HEADER = re.compile(r"^---\s*post\b(.*)$", re.I)
FIELDS = {"id": ("id", "post_id", "postid", "post", "number", "no"),
          "author": ("author", "user", "poster", "name", "username", "from"),
          "time": ("time", "timestamp", "date", "posted", "posted_at", "created", "created_at"),
          "text": ("text", "body", "message", "content", "post_text"),
          "edited_at": ("edited_at", "edited", "edit_time", "last_edit", "modified")}


def parse_time(text: Any, zone: tzinfo | None = None) -> datetime | None:
    """An ISO-like time (or epoch seconds) as an aware UTC datetime; None if bad. A time
    without a zone is on the clock of `zone` (the forum's), UTC if not given."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        try:
            return datetime.fromtimestamp(float(text), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    t = str(text or "").strip()
    if not t:
        return None
    if t[-1:] in "Zz":
        t = t[:-1] + "+00:00"
    t = re.sub(r"\s*(UTC|GMT)$", "+00:00", t, flags=re.I)
    # '20.11.2026 14:05' as spreadsheets in much of Europe write it (day first, unambiguous)
    t = re.sub(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})(?=$|[ T])",
               lambda m: f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}", t)
    try:
        d = datetime.fromisoformat(t)
    except ValueError:
        return None
    if d.tzinfo is None:
        d = d.replace(tzinfo=zone or UTC)
    return d.astimezone(UTC)


def normalise_time(text: Any, zone: tzinfo | None = None) -> str | None:
    """'2026-11-20 14:05' or '2026-11-20T16:05:00+02:00' -> '2026-11-20T14:05:00Z'; None if bad.
    A time without a zone is read on the clock of `zone` (default UTC)."""
    d = parse_time(text, zone)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ") if d else None


def decode(raw: bytes) -> tuple[str, str]:
    """Text and the encoding it was read with: BOM, then UTF-8, then Windows-1252/Latin-1."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace"), "utf-16"
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1"


def sniff(path: Path, text: str) -> str:
    ext = path.suffix.lower()
    if ext in (".json", ".csv"):
        return ext[1:]
    if ext == ".txt":
        return "text"
    head = text.lstrip()
    if head[:1] in "[{":
        return "json"
    if HEADER.match(head.split("\n", 1)[0]):
        return "text"
    return "csv"


class _Reader:
    def __init__(self, path: Path, encoding: str, zone: tzinfo | None = None):
        self.path, self.encoding, self.zone = path, encoding, zone
        self.posts: list[Submission] = []
        self.problems: list[Diagnostic] = []
        self._seen: dict[str, str] = {}

    def problem(self, line: int, message: str, text: str = "",
                severity: Severity = Severity.ERROR) -> None:
        self.problems.append(Diagnostic(INVALID, message, line, 0, text[:200], str(self.path),
                                        severity))

    def post(self, line: int, pid: Any, author: Any, time: Any, text: Any, edited: Any) -> None:
        pid_s = str(pid).strip() if pid not in (None, "") else ""
        author_s = str(author or "").strip()
        when = normalise_time(time, self.zone)
        if not pid_s:
            return self.problem(line, "post has no id; left out")
        if not author_s:
            return self.problem(line, f"post {pid_s} has no author; left out")
        if time is None or not str(time).strip():
            return self.problem(line, f"post {pid_s} has no time; left out")
        if when is None:
            return self.problem(line, f"post {pid_s}: cannot read the time {str(time)!r}; left out")
        body = "" if text is None else str(text)
        edited_s = None
        if edited not in (None, ""):
            edited_s = normalise_time(edited, self.zone)
            if edited_s is None:
                self.problem(line, f"post {pid_s}: cannot read the edit time {str(edited)!r}; "
                             "treated as edited", severity=Severity.WARNING)
                edited_s = str(edited)
        if pid_s in self._seen:
            if self._seen[pid_s] != body:
                self.problem(line, f"post {pid_s} appears twice with different text; the first is kept")
            return None
        self._seen[pid_s] = body
        self.posts.append(Submission(body, "post", f"{self.path.name}#{pid_s}", author_s,
                                     received_at=when, encoding=self.encoding,
                                     meta={"post_id": pid_s, "edited_at": edited_s, "line": line}))
        return None

    # ---- formats -----------------------------------------------------------------------

    def text(self, text: str) -> None:
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        current: dict[str, Any] | None = None
        body: list[str] = []

        def flush() -> None:
            if current is not None and not current.get("skip"):
                self.post(current["line"], current["id"], current["author"], current["time"],
                          "\n".join(body).strip("\n"), current["edited"])

        for n, line in enumerate(lines, start=1):
            m = HEADER.match(line)
            if m:
                flush()
                body = []
                current = self._header(m.group(1), n, line)
                continue
            if current is None:
                if line.strip():
                    self.problem(n, "text before the first '--- post' header; left out", line)
                    current = {"skip": True}
                continue
            if current.get("skip"):
                continue
            body.append(line)
        flush()

    def _header(self, rest: str, n: int, line: str) -> dict[str, Any]:
        parts = [p.strip() for p in rest.split("|")]
        if len(parts) < 3 or not parts[0]:
            self.problem(n, "a post header reads '--- post ID | author | time [| edited TIME]'", line)
            return {"skip": True}
        edited = None
        for extra in parts[3:]:
            em = re.match(r"edited\s*(?:at)?\s*(.*)$", extra, re.I)
            if em:
                edited = em.group(1).strip() or "unknown"
        return {"line": n, "id": parts[0], "author": parts[1], "time": parts[2], "edited": edited}

    def json(self, text: str) -> None:
        dec = json.JSONDecoder()
        s = text.lstrip("\ufeff")
        try:
            data = json.loads(s)
        except json.JSONDecodeError as e:
            return self.problem(e.lineno, f"not valid JSON ({e.msg})")
        if isinstance(data, list):
            start = s.index("[")
        elif isinstance(data, dict) and isinstance(data.get("posts"), list):
            start = s.index("[", s.index('"posts"'))
        else:
            return self.problem(1, "JSON thread: expected a list of posts or {\"posts\": [...]}")
        pos = start + 1
        while True:
            while pos < len(s) and s[pos] in " \t\r\n,":
                pos += 1
            if pos >= len(s) or s[pos] == "]":
                return None
            line = s.count("\n", 0, pos) + 1
            try:
                item, pos = dec.raw_decode(s, pos)
            except json.JSONDecodeError as e:
                return self.problem(e.lineno, f"not valid JSON ({e.msg}); the rest is left out")
            if not isinstance(item, dict):
                self.problem(line, "a post must be a JSON object")
                continue
            low = {str(k).lower(): v for k, v in item.items()}
            self.post(line, *(next((low[a] for a in FIELDS[f] if a in low), None)
                              for f in ("id", "author", "time", "text", "edited_at")))

    def csv(self, text: str) -> None:
        text = text.lstrip("\ufeff")
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
        try:
            header = next(reader)
        except (StopIteration, csv.Error):
            return self.problem(1, "empty CSV thread")
        cols = {}
        lowered = [h.strip().lower() for h in header]
        for f, aliases in FIELDS.items():
            cols[f] = next((lowered.index(a) for a in aliases if a in lowered), None)
        missing = [f for f in ("id", "author", "time", "text") if cols[f] is None]
        if missing:
            return self.problem(1, f"CSV header lacks column(s) {', '.join(missing)} "
                                f"(have {', '.join(lowered)})")
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return None
            except csv.Error as e:
                return self.problem(reader.line_num, f"damaged CSV ({e}); the rest is left out")
            if not any(c.strip() for c in row):
                continue

            def get(f: str, row: list[str] = row) -> str | None:
                i = cols[f]
                return row[i] if i is not None and i < len(row) else None

            self.post(reader.line_num, get("id"), get("author"), get("time"), get("text"),
                      get("edited_at"))


def _delimiter(text: str) -> str:
    """',' unless the header line is clearly split by ';' or tabs instead."""
    head = text.split("\n", 1)[0]
    counts = {d: head.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def _order(sub: Submission) -> tuple:
    pid = str(sub.meta.get("post_id", ""))
    return (sub.received_at, 0 if pid.isdigit() else 1, int(pid) if pid.isdigit() else 0, pid)


def load_thread(path: str | Path, fmt: str | None = None, zone: tzinfo | None = None
                ) -> tuple[list[Submission], list[Diagnostic]]:
    """The posts of a thread export in (time, id) order, and the problems found. Times
    written without a zone are on the forum's clock, `zone` (default UTC)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        return [], [Diagnostic(INVALID, f"cannot read the thread ({e.strerror or e})", 0, 0, "",
                               str(path))]
    text, encoding = decode(raw)
    r = _Reader(path, encoding, zone)
    kind = fmt or sniff(path, text)
    if "\x00" in text:  # NUL survives only in binary data (UTF-16 with a BOM decodes clean)
        r.problem(0, "the thread file is binary data, not a text, JSON or CSV export of posts")
    elif not text.strip():
        r.problem(0, "the thread file is empty", severity=Severity.WARNING)
    elif kind == "json":
        r.json(text)
    elif kind == "csv":
        r.csv(text)
    else:
        r.text(text)
    return sorted(r.posts, key=_order), r.problems


def read_thread(path: str | Path, problems: list[Diagnostic] | None = None,
                fmt: str | None = None) -> list[Submission]:
    """The posts of a thread export; problems are appended to `problems` if given."""
    posts, found = load_thread(path, fmt)
    if problems is not None:
        problems.extend(found)
    return posts
