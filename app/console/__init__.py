"""The GM console: collect orders, run turns, read results, export reports (issue 7)."""

from app.console.workspace import ConsoleWorkspace

__all__ = ["ConsoleWorkspace"]
