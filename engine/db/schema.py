"""The fixed part of the game database: SQLModel tables that every game has.

Every table carries `game_id`, so one database (a PostgreSQL server for a hosting
service) can hold many games; a desktop game is one SQLite file holding one game.
Ruleset-shaped tables (catalog rows and the per-step state tables) are built at run
time from the ruleset's declarations in `engine.db.dynamic`.

JSON-valued columns are plain text holding canonical JSON, so they read the same on
SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

FORMAT = 1           # database format this code writes; newer ones are refused
APPLICATION = "realmsmith"


class DbInfo(SQLModel, table=True):
    """Key/value facts about the database itself: application name and format."""

    __tablename__ = "rs_info"
    key: str = Field(primary_key=True)
    value: str = ""


class GameRow(SQLModel, table=True):
    __tablename__ = "rs_game"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True)
    ruleset: str = ""
    seed: int = 1
    format: int = FORMAT
    current_step: int = 0
    created: str = ""
    meta: str = "{}"


class MapRow(SQLModel, table=True):
    """Map header: grid spec, palette order is in rs_map_terrain."""

    __tablename__ = "rs_map"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    kind: str = "square"
    name: str = ""
    grid: str = "{}"               # topology to_dict() as JSON
    meta: str = "{}"
    adjacency_added: str = "[]"
    adjacency_removed: str = "[]"


class MapTerrain(SQLModel, table=True):
    __tablename__ = "rs_map_terrain"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    code: int = Field(primary_key=True)
    name: str = ""


class MapCell(SQLModel, table=True):
    """One row a cell (written with Core bulk inserts)."""

    __tablename__ = "rs_map_cell"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    cell: int = Field(primary_key=True)
    terrain: int = 0
    attrs: str | None = None       # JSON, only for cells that have attributes


class MapLink(SQLModel, table=True):
    __tablename__ = "rs_map_link"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    kind: str = Field(primary_key=True)
    a: int = Field(primary_key=True)
    b: int = Field(primary_key=True)


class MapSite(SQLModel, table=True):
    __tablename__ = "rs_map_site"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    site_id: int = Field(primary_key=True)
    cell: int = 0
    kind: str = "city"
    name: str = ""
    attrs: str = "{}"


class MapArea(SQLModel, table=True):
    __tablename__ = "rs_map_area"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    name: str = Field(primary_key=True)
    kind: str = "region"
    attrs: str = "{}"


class MapAreaCell(SQLModel, table=True):
    __tablename__ = "rs_map_area_cell"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    area: str = Field(primary_key=True)
    cell: int = Field(primary_key=True)


class MapLabel(SQLModel, table=True):
    __tablename__ = "rs_map_label"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    seq: int = Field(primary_key=True)
    text: str = ""
    x: float = 0.0
    y: float = 0.0
    size: float = 1.0


class CatalogRow(SQLModel, table=True):
    """Which catalogs a game has, in order, with the spec their rows follow."""

    __tablename__ = "rs_catalog"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    name: str = Field(primary_key=True)
    position: int = 0
    spec: str = "{}"               # TableSpec as JSON (engine.db.dynamic.spec_to_dict)


class OptionRow(SQLModel, table=True):
    __tablename__ = "rs_option"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    name: str = Field(primary_key=True)
    value: str = "null"            # JSON


class FactionRow(SQLModel, table=True):
    __tablename__ = "rs_faction"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    number: int = Field(primary_key=True)
    name: str = ""
    email: str = ""
    password: str = ""
    colour: str = "#888888"
    attrs: str = "{}"


class StepRow(SQLModel, table=True):
    """A processed step. Step 0 is the initial state; step N came from the orders for N."""

    __tablename__ = "rs_step"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    number: int = Field(primary_key=True)
    status: str = "done"           # initial | done
    processed_at: str = ""
    seed: str = ""                 # the dice path used, for the record
    faction: int | None = None     # sequential model: whose turn it was
    info: str = "{}"


class SubmissionRow(SQLModel, table=True):
    __tablename__ = "rs_submission"
    __table_args__ = (Index("ix_rs_submission_game_step", "game_id", "step", "faction"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True, foreign_key="rs_game.id")
    seq: int = 0                   # arrival (import) order within the game
    text: str = ""
    source_kind: str = "paste"
    source_name: str = ""
    sender: str = ""
    subject: str = ""
    received_at: str = ""
    imported_at: str = ""
    encoding: str = "utf-8"
    faction: int | None = None
    step: int | None = None
    matched_by: str = ""
    superseded: bool = False       # a later submission for the same faction and step exists
    applied_step: int | None = None  # the step that used it; None = not applied yet
    post_id: str | None = None     # realtime: the forum post id
    edited: bool = False           # realtime: same post id, changed text; never re-applied
    meta: str = "{}"


class DiagnosticRow(SQLModel, table=True):
    __tablename__ = "rs_diagnostic"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True, foreign_key="rs_game.id")
    submission_id: int | None = Field(default=None, index=True, foreign_key="rs_submission.id")
    step: int | None = None
    faction: int | None = None
    file: str = ""
    line: int = 0
    col: int = 0
    kind: str = ""
    severity: str = "error"
    message: str = ""
    text: str = ""


class EventRow(SQLModel, table=True):
    __tablename__ = "rs_event"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    step: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    phase: str = ""
    kind: str = Field(default="", index=True)
    data: str = "{}"               # the event's fields as JSON (without kind)
    factions: str = ""             # ",1,3," : factions concerned, for LIKE filtering
    visible: str | None = None     # ",1,3," or None for public


class ReportRow(SQLModel, table=True):
    __tablename__ = "rs_report"
    game_id: int = Field(primary_key=True, foreign_key="rs_game.id")
    step: int = Field(primary_key=True)
    faction: int = Field(primary_key=True)   # GM = 0 (factions are numbered from 1)
    format: str = Field(primary_key=True)
    content: str = ""


GM = 0  # faction number under which the GM's report is stored

STATIC_TABLES = [t.__table__ for t in (  # type: ignore[attr-defined]
    DbInfo, GameRow, MapRow, MapTerrain, MapCell, MapLink, MapSite, MapArea, MapAreaCell,
    MapLabel, CatalogRow, OptionRow, FactionRow, StepRow, SubmissionRow, DiagnosticRow,
    EventRow, ReportRow)]
