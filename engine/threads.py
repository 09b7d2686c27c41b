"""Forum threads: a thread export read into timestamped submissions, for real-time rulesets.

Three export formats, told apart by the file extension or, failing that, the content:

* plain text (.txt): each post starts with a header line

      --- post 12 | scapheap | 2026-11-20T14:05:00Z | lines 2
      --- post 13 | GWG | 2026-11-20 14:07 | edited 2026-11-20T15:00:00Z | lines 5

  followed by exactly that many lines of text; blank lines may stand between posts.
  Headers are recognised only there, so a line a player types inside a post that looks
  like a header is text of that post and cannot create or forge another (docs/security.md).
  Older exports without `lines N` are still read -- each post then runs to the next
  header-like line -- with a notice that they cannot be protected that way, and a post
  id that appears twice with different texts imports neither (one may be forged);
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
LINES = re.compile(r"^(?:lines?\s*(\d{1,9})|(\d{1,9})\s*lines?)$", re.I)
MAX_THREAD_BYTES = 256 * 1024 * 1024  # ~4 million posts; more is not a forum thread
MAX_POST_ID = 64                      # characters of a post id
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
        if d.tzinfo is None:
            d = d.replace(tzinfo=zone or UTC)
        return d.astimezone(UTC)
    except (ValueError, OverflowError):  # '9999-12-31T23:59:59-23:59' is past year 9999 in UTC
        return None


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
        self._seen: dict[str, tuple[str, int]] = {}   # post id -> (text, line)
        self.forgeable = False  # plain text without line counts: duplicates import neither
        self._doubted: set[str] = set()

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
        if len(pid_s) > MAX_POST_ID or not pid_s.isprintable():
            return self.problem(line, f"post id {pid_s[:MAX_POST_ID]!r}... is not a post id "
                                f"(at most {MAX_POST_ID} printable characters); left out")
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
            first, at = self._seen[pid_s]
            if first == body:
                return None
            if self.forgeable:  # one of the two may be a header typed inside another post
                if pid_s not in self._doubted:
                    self._doubted.add(pid_s)
                    self.posts = [p for p in self.posts if p.meta.get("post_id") != pid_s]
                self.problem(line, f"post {pid_s} appears twice with different text (lines {at} "
                             f"and {line}); one may be faked inside another post, so neither is "
                             "imported: check the thread")
            else:
                self.problem(line, f"post {pid_s} appears twice with different text; the first is kept")
            return None
        self._seen[pid_s] = (body, line)
        self.posts.append(Submission(body, "post", f"{self.path.name}#{pid_s}", author_s,
                                     received_at=when, encoding=self.encoding,
                                     meta={"post_id": pid_s, "edited_at": edited_s, "line": line}))
        return None

    # ---- formats -----------------------------------------------------------------------

    def text(self, text: str) -> None:
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        counted: bool | None = None    # decided by the first header
        current: dict[str, Any] | None = None
        body: list[str] = []
        i, n = 0, len(lines)

        def flush() -> None:
            if current is not None and not current.get("skip"):
                self.post(current["line"], current["id"], current["author"], current["time"],
                          "\n".join(body).strip("\n"), current["edited"])

        while i < n:
            line = lines[i]
            m = HEADER.match(line)
            if m is None:
                if current is None:
                    if line.strip():
                        self.problem(i + 1, "text before the first '--- post' header; left out", line)
                        current = {"skip": True, "open": True}
                elif current.get("open"):
                    if not current.get("skip"):
                        body.append(line)
                elif line.strip() and not current.get("warned"):
                    self.problem(i + 1, "text between posts (after the counted lines of the post "
                                 "before); left out", line)
                    current["warned"] = True
                i += 1
                continue
            flush()
            body = []
            current = self._header(m.group(1), i + 1, line)
            if counted is None:
                counted = current.get("lines") is not None
                self.forgeable = not counted
                if not counted:
                    self.problem(i + 1, "plain-text thread without line counts ('| lines N' in each "
                                 "header): a header typed inside a post cannot be told from a real "
                                 "one; prefer headers with line counts, or a JSON or CSV export",
                                 severity=Severity.INFO)  # a notice: the import itself is fine
            i += 1
            if not counted:
                current["open"] = True
                continue
            current["open"] = False
            k = current.get("lines")
            if current.get("skip"):
                continue
            if k is None:
                self.problem(i, "a post header without '| lines N' in a thread whose headers "
                             "have them; left out", line)
                current["skip"] = True
                continue
            body = lines[i:i + k]
            if len(body) < k:
                self.problem(i, f"post {current['id']} says {k} lines but the file ends after "
                             f"{len(body)}; left out", line)
            else:
                flush()
            current = {"skip": True, "open": False}
            i += k
        if current is not None and current.get("open"):
            flush()

    def _header(self, rest: str, n: int, line: str) -> dict[str, Any]:
        parts = [p.strip() for p in rest.split("|")]
        if len(parts) < 3 or not parts[0]:
            self.problem(n, "a post header reads '--- post ID | author | time [| edited TIME] "
                         "[| lines N]'", line)
            return {"skip": True}
        edited, count = None, None
        for extra in parts[3:]:
            em = re.match(r"edited\s*(?:at)?\s*(.*)$", extra, re.I)
            lm = LINES.match(extra)
            if lm:
                count = int(lm.group(1) or lm.group(2))
            elif em:
                edited = em.group(1).strip() or "unknown"
        return {"line": n, "id": parts[0], "author": parts[1], "time": parts[2], "edited": edited,
                "lines": count}

    def json(self, text: str) -> None:
        s = text.lstrip("\ufeff")
        try:
            data = json.loads(s)
        except json.JSONDecodeError as e:
            return self.problem(e.lineno, f"not valid JSON ({e.msg})")
        if isinstance(data, dict) and isinstance(data.get("posts"), list):
            data = data["posts"]
        if not isinstance(data, list):
            return self.problem(1, "JSON thread: expected a list of posts or {\"posts\": [...]}")
        # Line numbers: each post's place in the file, found by decoding the list again
        # item by item (counted incrementally: a 100,000-post thread stays linear).
        spots = _item_lines(s, data)
        for at, item in enumerate(data):
            line = spots[at] if at < len(spots) else 0
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


def _item_lines(s: str, items: list[Any]) -> list[int]:
    """The line each of `items` starts on in the JSON text `s` (best effort: [] if the
    list cannot be found where the items are, and then posts are reported at line 0)."""
    dec = json.JSONDecoder()
    m = re.search(r'"posts"\s*:\s*\[', s) if s.lstrip()[:1] == "{" else None
    pos = m.end() if m else s.find("[") + 1
    out: list[int] = []
    line, counted = 1, 0
    try:
        for _ in items:
            while pos < len(s) and s[pos] in " \t\r\n,":
                pos += 1
            line += s.count("\n", counted, pos)
            counted = pos
            out.append(line)
            _, pos = dec.raw_decode(s, pos)
    except (json.JSONDecodeError, ValueError):
        return out
    return out


def _delimiter(text: str) -> str:
    """',' unless the header line is clearly split by ';' or tabs instead."""
    head = text.split("\n", 1)[0]
    counts = {d: head.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def post_id_key(pid: str) -> tuple[int, int, str]:
    """Sort key of a post id: numeric ids in number order before any others. Only ASCII
    digits count ('²' is a digit to str.isdigit, but int() refuses it)."""
    num = pid.isascii() and pid.isdigit()
    return (0 if num else 1, int(pid) if num else 0, pid)


def _order(sub: Submission) -> tuple:
    return (sub.received_at, *post_id_key(str(sub.meta.get("post_id", ""))))


def load_thread(path: str | Path, fmt: str | None = None, zone: tzinfo | None = None
                ) -> tuple[list[Submission], list[Diagnostic]]:
    """The posts of a thread export in (time, id) order, and the problems found. Times
    written without a zone are on the forum's clock, `zone` (default UTC)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_THREAD_BYTES + 1)
    except OSError as e:
        return [], [Diagnostic(INVALID, f"cannot read the thread ({e.strerror or e})", 0, 0, "",
                               str(path))]
    if len(raw) > MAX_THREAD_BYTES:
        return [], [Diagnostic(INVALID, f"the thread file is larger than {MAX_THREAD_BYTES:,} "
                               "bytes; not read (split the export)", 0, 0, "", str(path))]
    text, encoding = decode(raw)
    del raw
    r = _Reader(path, encoding, zone)
    kind = fmt or sniff(path, text)
    try:
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
    except Exception as e:  # noqa: BLE001 - a reader bug must cost this file, not the import
        r.problem(0, f"the thread could not be read to the end ({type(e).__name__}: {e}); "
                  "the posts before are kept")
    return sorted(r.posts, key=_order), r.problems


def read_thread(path: str | Path, problems: list[Diagnostic] | None = None,
                fmt: str | None = None) -> list[Submission]:
    """The posts of a thread export; problems are appended to `problems` if given."""
    posts, found = load_thread(path, fmt)
    if problems is not None:
        problems.extend(found)
    return posts
