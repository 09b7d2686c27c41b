"""An orders sheet: what a parser read from one submission, with everything it noticed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.orders.diagnostics import Diagnostic, Severity


@dataclass
class Order:
    """Base of every ruleset's order classes: where it came from in the file."""

    line: int = 0
    text: str = ""

    @property
    def verb(self) -> str:
        return type(self).__name__.upper()


@dataclass
class OrderSheet:
    orders: list[Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)  # faction, password, turn, game...
    source: str = ""

    def add(self, diag: Diagnostic) -> None:
        self.diagnostics.append(diag.with_file(self.source) if self.source and not diag.file else diag)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.WARNING]

    def sorted_diagnostics(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=lambda d: (d.line, d.col, d.severity != Severity.ERROR))
