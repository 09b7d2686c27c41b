"""What the checker says about an orders file: invalid, illegal or ambiguous, by line."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

INVALID = "invalid"      # malformed: the line cannot be read as an order
ILLEGAL = "illegal"      # well formed but not allowed now (state, rules, options)
AMBIGUOUS = "ambiguous"  # could mean more than one thing; the checker says what it chose


class Severity(StrEnum):
    ERROR = "error"      # the order (or part of it) will not be carried out
    WARNING = "warning"  # carried out, maybe not as the player meant
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    kind: str
    message: str
    line: int = 0  # 1-based; 0 = the sheet as a whole
    col: int = 0   # 1-based; 0 = the whole line
    text: str = ""  # the offending line as written
    file: str = ""
    severity: Severity = Severity.ERROR
    faction: int | None = None
    part: int = 0   # 1-based part of a multi-part order (a PLA triple) it is about; 0 = all
    # what only the GM may read (why a unit named is not seen, where the player's message
    # must not say): `realmsmith check` and `import` print it (format_for_gm); `format()`
    # and `to_dict()`, which rulesets put in players' reports, leave it out (each check
    # makes it anew, so it is not stored either)
    gm_note: str = ""


    def format(self) -> str:
        """`file:line:col: error (invalid): message` for terminals and cron logs."""
        where = self.file or "<orders>"
        if self.line:
            where += f":{self.line}"
            if self.col:
                where += f":{self.col}"
        out = f"{where}: {self.severity.value} ({self.kind}): {self.message}"
        if self.text:
            out += f"\n    {self.text}"
        return out

    def with_file(self, file: str) -> Diagnostic:
        return Diagnostic(self.kind, self.message, self.line, self.col, self.text, file,
                          self.severity, self.faction, self.part, self.gm_note)

    def format_for_gm(self) -> str:
        """`format()` and, on a line of its own, the GM's note (for the GM's terminal)."""
        out = self.format()
        return f"{out}\n    for the GM: {self.gm_note}" if self.gm_note else out

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "message": self.message, "line": self.line, "col": self.col,
               "text": self.text, "file": self.file, "severity": self.severity.value,
               "faction": self.faction}
        if self.part:  # only multi-part orders have one; older readers never see the key
            out["part"] = self.part
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Diagnostic:
        return cls(d["kind"], d["message"], d.get("line", 0), d.get("col", 0), d.get("text", ""),
                   d.get("file", ""), Severity(d.get("severity", "error")), d.get("faction"),
                   int(d.get("part", 0) or 0))


def error(kind: str, message: str, line: int = 0, text: str = "", col: int = 0) -> Diagnostic:
    return Diagnostic(kind, message, line, col, text)


def warning(kind: str, message: str, line: int = 0, text: str = "", col: int = 0) -> Diagnostic:
    return Diagnostic(kind, message, line, col, text, severity=Severity.WARNING)
