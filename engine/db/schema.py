"""The fixed part of the game database: the tables every game has (SQLAlchemy Core).

Every table carries `game_id`, so one database (a PostgreSQL server for a hosting
service) can hold many games; a desktop game is one SQLite file holding one game.
Ruleset-shaped tables (catalog rows and the per-step state tables) are built at run
time from the ruleset's declarations in `engine.db.dynamic`.

JSON-valued columns are plain text holding canonical JSON, so they read the same on
SQLite and PostgreSQL.

The tables are plain Core `Table`s rather than SQLModel classes: everything reads and
writes them with Core statements, and importing SQLModel and pydantic cost 0.3 s at
every start of the command line (docs/performance.md). The columns, types, defaults,
keys and indexes are those the SQLModel declarations made, so older files open as
they are.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

FORMAT = 1           # database format this code writes; newer ones are refused
APPLICATION = "realmsmith"

metadata = MetaData()
_TYPES = {str: String, int: Integer, float: Float, bool: Boolean}
_NONE = object()


def _c(name: str, kind: type, default: Any = _NONE, *, key: bool = False, null: bool = False,
       index: bool = False, ref: str | None = None) -> Column:
    """A column as the SQLModel field `name: kind = default` made it: NOT NULL unless
    optional, the default applied by inserts that leave the column out."""
    args: list[Any] = [ForeignKey(ref)] if ref else []
    kw: dict[str, Any] = {"primary_key": key, "nullable": null and not key, "index": index}
    if default is not _NONE:
        kw["default"] = default
    return Column(name, _TYPES[kind](), *args, **kw)


def _game(key: bool = True, index: bool = False) -> Column:
    return _c("game_id", int, key=key, index=index, ref="rs_game.id")


# Key/value facts about the database itself: application name and format.
DbInfo = Table("rs_info", metadata, _c("key", str, key=True), _c("value", str, ""))

GameRow = Table(
    "rs_game", metadata,
    _c("id", int, None, key=True), _c("name", str, index=True), _c("ruleset", str, ""),
    _c("seed", int, 1), _c("format", int, FORMAT), _c("current_step", int, 0),
    _c("created", str, ""), _c("meta", str, "{}"))

# Map header: grid spec (topology to_dict() as JSON); palette order is in rs_map_terrain.
MapRow = Table(
    "rs_map", metadata, _game(),
    _c("kind", str, "square"), _c("name", str, ""), _c("grid", str, "{}"), _c("meta", str, "{}"),
    _c("adjacency_added", str, "[]"), _c("adjacency_removed", str, "[]"))

MapTerrain = Table("rs_map_terrain", metadata, _game(), _c("code", int, key=True),
                   _c("name", str, ""))

# One row a cell (written with bulk inserts); attrs is JSON, only for cells that have any.
MapCell = Table("rs_map_cell", metadata, _game(), _c("cell", int, key=True),
                _c("terrain", int, 0), _c("attrs", str, None, null=True))

MapLink = Table("rs_map_link", metadata, _game(), _c("kind", str, key=True),
                _c("a", int, key=True), _c("b", int, key=True))

MapSite = Table(
    "rs_map_site", metadata, _game(), _c("site_id", int, key=True), _c("cell", int, 0),
    _c("kind", str, "city"), _c("name", str, ""), _c("attrs", str, "{}"))

MapArea = Table("rs_map_area", metadata, _game(), _c("name", str, key=True),
                _c("kind", str, "region"), _c("attrs", str, "{}"))

MapAreaCell = Table("rs_map_area_cell", metadata, _game(), _c("area", str, key=True),
                    _c("cell", int, key=True))

MapLabel = Table(
    "rs_map_label", metadata, _game(), _c("seq", int, key=True), _c("text", str, ""),
    _c("x", float, 0.0), _c("y", float, 0.0), _c("size", float, 1.0))

# Which catalogs a game has, in order, with the spec their rows follow
# (TableSpec as JSON, engine.db.dynamic.spec_to_dict).
CatalogRow = Table("rs_catalog", metadata, _game(), _c("name", str, key=True),
                   _c("position", int, 0), _c("spec", str, "{}"))

OptionRow = Table("rs_option", metadata, _game(), _c("name", str, key=True),
                  _c("value", str, "null"))  # JSON

FactionRow = Table(
    "rs_faction", metadata, _game(), _c("number", int, key=True), _c("name", str, ""),
    _c("email", str, ""), _c("password", str, ""), _c("colour", str, "#888888"),
    _c("attrs", str, "{}"))

# A processed step. Step 0 is the initial state; step N came from the orders for N.
# status: initial | done; seed: the dice path used; faction: whose turn (sequential model).
StepRow = Table(
    "rs_step", metadata, _game(), _c("number", int, key=True), _c("status", str, "done"),
    _c("processed_at", str, ""), _c("seed", str, ""), _c("faction", int, None, null=True),
    _c("info", str, "{}"))

# superseded: a later submission for the same faction and step exists; applied_step: the
# step that used it (None: not yet); post_id and edited: real time (the forum post, and
# a changed text under the same post id, which is never re-applied).
SubmissionRow = Table(
    "rs_submission", metadata,
    _c("id", int, None, key=True), _game(key=False, index=True), _c("seq", int, 0),
    _c("text", str, ""), _c("source_kind", str, "paste"), _c("source_name", str, ""),
    _c("sender", str, ""), _c("subject", str, ""), _c("received_at", str, ""),
    _c("imported_at", str, ""), _c("encoding", str, "utf-8"),
    _c("faction", int, None, null=True), _c("step", int, None, null=True),
    _c("matched_by", str, ""), _c("superseded", bool, False),
    _c("applied_step", int, None, null=True), _c("post_id", str, None, null=True),
    _c("edited", bool, False), _c("meta", str, "{}"))
Index("ix_rs_submission_game_step", SubmissionRow.c.game_id, SubmissionRow.c.step,
      SubmissionRow.c.faction)

DiagnosticRow = Table(
    "rs_diagnostic", metadata,
    _c("id", int, None, key=True), _game(key=False, index=True),
    _c("submission_id", int, None, null=True, index=True, ref="rs_submission.id"),
    _c("step", int, None, null=True), _c("faction", int, None, null=True),
    _c("file", str, ""), _c("line", int, 0), _c("col", int, 0), _c("kind", str, ""),
    _c("severity", str, "error"), _c("message", str, ""), _c("text", str, ""))

# data: the event's fields as JSON (without kind); factions: ",1,3," the factions
# concerned, for LIKE filtering; visible: ",1,3," or None for public.
EventRow = Table(
    "rs_event", metadata, _game(), _c("step", int, key=True), _c("seq", int, key=True),
    _c("phase", str, ""), _c("kind", str, "", index=True), _c("data", str, "{}"),
    _c("factions", str, ""), _c("visible", str, None, null=True))

ReportRow = Table(
    "rs_report", metadata, _game(), _c("step", int, key=True),
    _c("faction", int, key=True),   # GM = 0 (factions are numbered from 1)
    _c("format", str, key=True), _c("content", str, ""))

# A GM intervention (engine/interventions): made at turn boundary `step` (the game was at
# turn `step`), applied to that turn's state in place; `status`: applied | refused (a
# re-made turn it no longer fits; `summary` says why); params and note as the GM gave them.
InterventionRow = Table(
    "rs_intervention", metadata,
    _c("id", int, None, key=True), _game(key=False, index=True), _c("step", int, 0),
    _c("kind", str, ""), _c("faction", int, None, null=True), _c("params", str, "{}"),
    _c("note", str, ""), _c("summary", str, ""), _c("status", str, "applied"),
    _c("made_at", str, ""))

GM = 0  # faction number under which the GM's report is stored
# the format under which a faction's orders template is stored with its reports
# (Ruleset.templates_with_reports); not a report: report_keys and stream_reports skip it
TEMPLATE = "orders-template"

STATIC_TABLES = [
    DbInfo, GameRow, MapRow, MapTerrain, MapCell, MapLink, MapSite, MapArea, MapAreaCell,
    MapLabel, CatalogRow, OptionRow, FactionRow, StepRow, SubmissionRow, DiagnosticRow,
    EventRow, ReportRow, InterventionRow]
