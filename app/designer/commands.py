"""Undoable designer edits: one QUndoCommand class per kind of edit. Each holds the values
before and after and asks the designer to apply them (which saves them to the game)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from engine.map import Site
from engine.scenario import Faction


class CatalogEdit(QUndoCommand):
    """One catalog row changed (a cell edited, a flag ticked)."""

    def __init__(self, designer: Any, catalog: str, index: int, old: dict, new: dict, text: str):
        super().__init__(text)
        self.d, self.catalog, self.index, self.old, self.new = designer, catalog, index, old, new

    def redo(self) -> None:
        self.d.apply_row(self.catalog, self.index, self.new)

    def undo(self) -> None:
        self.d.apply_row(self.catalog, self.index, self.old)


class CatalogInsert(QUndoCommand):
    """A row added (new or duplicated) at an index."""

    def __init__(self, designer: Any, catalog: str, index: int, row: dict, text: str):
        super().__init__(text)
        self.d, self.catalog, self.index, self.row = designer, catalog, index, row

    def redo(self) -> None:
        self.d.apply_insert(self.catalog, self.index, self.row)

    def undo(self) -> None:
        self.d.apply_remove(self.catalog, self.index)


class CatalogRemove(QUndoCommand):
    def __init__(self, designer: Any, catalog: str, index: int, row: dict, text: str):
        super().__init__(text)
        self.d, self.catalog, self.index, self.row = designer, catalog, index, row

    def redo(self) -> None:
        self.d.apply_remove(self.catalog, self.index)

    def undo(self) -> None:
        self.d.apply_insert(self.catalog, self.index, self.row)


class OptionEdit(QUndoCommand):
    def __init__(self, designer: Any, name: str, old: Any, new: Any, text: str):
        super().__init__(text)
        self.d, self.name, self.old, self.new = designer, name, old, new

    def redo(self) -> None:
        self.d.apply_option(self.name, self.new)

    def undo(self) -> None:
        self.d.apply_option(self.name, self.old)


class FactionEdit(QUndoCommand):
    """A faction added (old None), removed (new None) or changed: fields, colour, starts,
    starting units. Starts kept as map sites travel along as the start sites before/after."""

    def __init__(self, designer: Any, old: Faction | None, new: Faction | None, text: str,
                 sites: tuple[list[Site], list[Site]] | None = None):
        super().__init__(text)
        self.d, self.old, self.new, self.sites = designer, old, new, sites

    def redo(self) -> None:
        self.d.apply_faction(self.old, self.new, self.sites[1] if self.sites else None)

    def undo(self) -> None:
        self.d.apply_faction(self.new, self.old, self.sites[0] if self.sites else None)


class MetaEdit(QUndoCommand):
    """A game fact (Scenario.meta) set; undo puts the old value back (None: none)."""

    def __init__(self, designer: Any, key: str, old: Any, new: Any, text: str):
        super().__init__(text)
        self.d, self.key, self.old, self.new = designer, key, old, new

    def redo(self) -> None:
        self.d.apply_meta(self.key, self.new)

    def undo(self) -> None:
        self.d.apply_meta(self.key, self.old)
