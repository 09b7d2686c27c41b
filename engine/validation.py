"""Scenario validation: every problem a GM should fix before the first turn is run.

    problems = validate_scenario(scenario, ruleset)

Each Problem says how bad it is ("error": the game would run wrongly or not at all;
"warning": probably a mistake) and where it is (a faction, a cell or area, a catalog row,
an option), so the designer can jump to it. Starts are read the way the ruleset reads
them, from its `start_fields()` declarations (engine.ruleset.StartField); the helpers
here (`starts_of`, `assets_of`, `place_start`...) are shared with the scenario designer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.ruleset import Ruleset, StartField
from engine.scenario import Faction, Scenario
from engine.tables import Catalog, TableError

ERROR, WARNING = "error", "warning"
POSITION_FORMS = ("cells", "cell", "areas", "sites")
SEA_KINDS = ("sea", "ocean", "water", "lake")
WATER_WORDS = ("sea", "ocean", "water", "lake", "shallow", "deep")


@dataclass(frozen=True)
class Problem:
    severity: str
    message: str
    faction: int | None = None
    cell: int | None = None
    area: str | None = None
    catalog: str | None = None
    row: int | None = None
    option: str | None = None

    @property
    def where(self) -> str:
        """Where the problem is, in a few words (for lists and reports)."""
        parts = []
        if self.faction is not None:
            parts.append(f"faction {self.faction}")
        if self.area is not None:
            parts.append(f"area {self.area}")
        elif self.cell is not None:
            parts.append(f"cell {self.cell}")
        if self.catalog is not None:
            parts.append(f"{self.catalog}" + (f" row {self.row + 1}" if self.row is not None else ""))
        if self.option is not None:
            parts.append(f"option {self.option}")
        return ", ".join(parts) or "scenario"


@dataclass(frozen=True)
class Start:
    """One start entry of a faction as written, and the cells it stands for."""

    field: StartField
    raw: Any
    cells: tuple[int, ...]   # empty: the entry names no cell or area of this map
    area: str | None = None  # region maps: the area named


# ---- reading starts the way the ruleset does ---------------------------------------------

def start_fields(ruleset: Ruleset) -> tuple[StartField, ...]:
    hook = getattr(ruleset, "start_fields", None)
    fields = tuple(hook()) if callable(hook) else ()
    return fields or (StartField("faction", "sites"),)


def position_field(ruleset: Ruleset) -> StartField:
    """The field the designer places starts into: the ruleset's first position field."""
    fields = start_fields(ruleset)
    return next((f for f in fields if f.form in POSITION_FORMS), StartField("faction", "sites"))


def asset_field(ruleset: Ruleset) -> StartField | None:
    return next((f for f in start_fields(ruleset) if f.form == "assets"), None)


def cell_label(scenario: Scenario, cell: int, field: StartField) -> str:
    grid = scenario.map.grid
    return grid.label(cell, field.notation) if field.notation else grid.label(cell)


def parse_cell(scenario: Scenario, value: Any, field: StartField) -> int | None:
    grid = scenario.map.grid
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < len(grid) else None
    try:
        return grid.parse(str(value), field.notation) if field.notation else grid.parse(str(value))
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _area(scenario: Scenario, name: Any) -> str | None:
    want = str(name).casefold()
    return next((a for a in sorted(scenario.map.areas) if a.casefold() == want), None)


def _as_list(v: Any) -> list[Any]:
    if v is None or v == "":
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


def starts_of(scenario: Scenario, ruleset: Ruleset, faction: Faction) -> list[Start]:
    """Every start position entry of a faction, over all the ruleset's position fields."""
    out: list[Start] = []
    m = scenario.map
    for f in start_fields(ruleset):
        if f.form in ("cells", "cell"):
            for raw in _as_list(faction.attrs.get(f.key)):
                c = parse_cell(scenario, raw, f)
                out.append(Start(f, raw, () if c is None else (c,)))
        elif f.form == "areas":
            for raw in _as_list(faction.attrs.get(f.key)):
                name = _area(scenario, raw)
                cells = tuple(sorted(m.areas[name].cells)) if name else ()
                out.append(Start(f, raw, cells, name))
        elif f.form == "sites":
            for s in sorted(m.sites.values(), key=lambda s: s.id):
                if s.kind == "start" and _int(s.attrs.get(f.key)) == faction.number:
                    out.append(Start(f, s.id, (s.cell,)))
    return out


def _int(v: Any) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Asset:
    field: StartField
    index: int
    kind: str
    where: Any
    count: Any
    cells: tuple[int, ...]
    area: str | None = None


def assets_of(scenario: Scenario, ruleset: Ruleset, faction: Faction) -> list[Asset]:
    f = asset_field(ruleset)
    if f is None:
        return []
    out = []
    regions = scenario.map.kind == "regions"
    for i, item in enumerate(_as_list(faction.attrs.get(f.key))):
        if f.shape == "list" and isinstance(item, (list, tuple)) and len(item) >= 3:
            kind, where, count = item[0], item[1], item[2]
        elif isinstance(item, dict):
            kind, where, count = item.get(f.item_key), item.get("cell"), item.get("count", 1)
        else:
            kind, where, count = None, None, None
        if regions or f.shape == "list":
            name = _area(scenario, where)
            cells = tuple(sorted(scenario.map.areas[name].cells)) if name else ()
            out.append(Asset(f, i, str(kind or ""), where, count, cells, name))
        else:
            c = parse_cell(scenario, where, f)
            out.append(Asset(f, i, str(kind or ""), where, count, () if c is None else (c,)))
    return out


# ---- writing starts (the designer's place-start mode) --------------------------------------

def toggle_start(scenario: Scenario, ruleset: Ruleset, faction: Faction, cell: int) -> Faction:
    """The faction with `cell` (or its area on region maps) added to or taken off its starts.
    Site-based starts change the map instead: the caller saves the map; the faction
    returned is unchanged then."""
    f = position_field(ruleset)
    new = dataclasses.replace(faction, attrs=_deep(faction.attrs))
    if f.form == "cell":
        label = cell_label(scenario, cell, f)
        if parse_cell(scenario, new.attrs.get(f.key), f) == cell:
            new.attrs.pop(f.key, None)
        else:
            new.attrs[f.key] = label
    elif f.form == "cells":
        items = _as_list(new.attrs.get(f.key))
        kept = [v for v in items if parse_cell(scenario, v, f) != cell]
        if len(kept) == len(items):
            kept.append(cell_label(scenario, cell, f))
        new.attrs[f.key] = kept
    elif f.form == "areas":
        area = scenario.map.area_of(cell)
        if area is None:
            return new
        items = _as_list(new.attrs.get(f.key))
        kept = [v for v in items if str(v).casefold() != area.name.casefold()]
        if len(kept) == len(items):
            kept.append(area.name)
        new.attrs[f.key] = kept
    else:  # sites
        m = scenario.map
        mine = [s for s in m.sites_at(cell) if s.kind == "start"
                and _int(s.attrs.get(f.key)) == faction.number]
        if mine:
            for s in mine:
                m.remove_site(s.id)
        else:
            site = m.add_site(cell, "start", faction.name)
            site.attrs[f.key] = faction.number
    return new


def add_asset(scenario: Scenario, ruleset: Ruleset, faction: Faction, cell: int, kind: str,
              count: int = 1) -> Faction:
    """The faction with `count` units of `kind` added at a cell (its area on region maps)."""
    f = asset_field(ruleset)
    new = dataclasses.replace(faction, attrs=_deep(faction.attrs))
    if f is None:
        return new
    items = _as_list(new.attrs.get(f.key))
    if f.shape == "list" or scenario.map.kind == "regions":
        area = scenario.map.area_of(cell)
        if area is None:
            return new
        where: Any = area.name
    else:
        where = cell_label(scenario, cell, f)
    for i, item in enumerate(items):  # more of a kind already there: raise its count
        if f.shape == "list" and isinstance(item, (list, tuple)) and len(item) >= 3:
            if str(item[0]) == kind and str(item[1]).casefold() == str(where).casefold():
                items[i] = [item[0], item[1], int(item[2]) + count]
                break
        elif isinstance(item, dict) and str(item.get(f.item_key)) == kind \
                and parse_cell(scenario, item.get("cell"), f) == cell:
            items[i] = {**item, "count": int(item.get("count", 1)) + count}
            break
    else:
        items.append([kind, where, count] if f.shape == "list"
                     else {"cell": where, f.item_key: kind, "count": count})
    new.attrs[f.key] = items
    return new


def remove_assets_at(scenario: Scenario, ruleset: Ruleset, faction: Faction, cell: int) -> Faction:
    f = asset_field(ruleset)
    new = dataclasses.replace(faction, attrs=_deep(faction.attrs))
    if f is None:
        return new
    keep = {a.index for a in assets_of(scenario, ruleset, faction) if cell not in a.cells}
    new.attrs[f.key] = [x for i, x in enumerate(_as_list(new.attrs.get(f.key))) if i in keep]
    return new


def _deep(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_deep(x) for x in v]
    return v


# ---- terrain -----------------------------------------------------------------------------

def water_terrains(scenario: Scenario) -> set[str]:
    """Terrain names (casefolded) that are sea or water: from any catalog with a boolean
    'sea' or 'water' column (its name/id/key columns), else by the usual words."""
    found: set[str] = set()
    flagged = False
    for cat in scenario.catalogs.values():
        flags = [c.name for c in cat.spec.columns if c.type == "bool" and c.name in ("sea", "water")]
        if not flags:
            continue
        flagged = True
        keys = [n for n in ("name", "id", *cat.spec.key) if n in cat.spec.names]
        for r in cat.rows:
            if any(r.get(fl) for fl in flags):
                found |= {str(r[k]).casefold() for k in keys if r.get(k)}
    if not flagged:
        found = {t.casefold() for t in scenario.map.terrains
                 if any(w in t.casefold() for w in WATER_WORDS)}
    return found


# ---- the checks ----------------------------------------------------------------------------

def validate_scenario(scenario: Scenario, ruleset: Ruleset) -> list[Problem]:
    """Every problem found, errors first, each in the order the checks found them.
    Starts are checked when the ruleset builds the start from the scenario (no `initial`)."""
    out: list[Problem] = []
    out += _check_map(scenario, ruleset)
    out += _check_factions(scenario, ruleset)
    if scenario.initial is None:  # a given initial state holds the starts itself
        out += _check_starts(scenario, ruleset)
    out += _check_catalogs(scenario, ruleset)
    out += _check_options(scenario, ruleset)
    out += _ruleset_checks(scenario, ruleset)
    out += _check_names(scenario) + integrity_problems(scenario, ruleset)
    return [p for p in out if p.severity == ERROR] + [p for p in out if p.severity != ERROR]


def _check_map(scen: Scenario, rs: Ruleset) -> list[Problem]:
    out: list[Problem] = []
    kinds = tuple(rs.map_kinds or ())
    if kinds and scen.map.kind not in kinds:
        out.append(Problem(ERROR, f"{rs.title or rs.name} plays on {' or '.join(kinds)} maps, "
                                  f"not on a {scen.map.kind} map"))
    for name, cat in sorted(scen.catalogs.items()):
        if not any(c.type == "bool" and c.name in ("sea", "water") for c in cat.spec.columns):
            continue  # the terrain table is the catalog that says which terrain is water
        keys = [n for n in ("name", "id", *cat.spec.key) if n in cat.spec.names]
        known = {str(r[k]).casefold() for r in cat.rows for k in keys if r.get(k)}
        import numpy as np  # here, not at the top: `realmsmith status` needs no numpy

        m = scen.map
        counts = np.bincount(m.terrain, minlength=len(m.terrains))
        for code, t in enumerate(m.terrains):
            if counts[code] and t.casefold() not in known:
                cell = int(np.flatnonzero(m.terrain == code)[0])
                out.append(Problem(WARNING, f"terrain {t!r} ({counts[code]} cells) is not in the "
                                            f"{cat.spec.title or name}", cell=cell, catalog=name))
    return out


def _check_factions(scen: Scenario, rs: Ruleset) -> list[Problem]:
    out: list[Problem] = []
    if not scen.factions:
        return [Problem(ERROR, "the scenario has no factions")]
    seen_num: dict[int, int] = {}
    seen_name: dict[str, int] = {}
    seen_mail: dict[str, int] = {}
    for f in scen.factions:
        if f.number < 1:
            out.append(Problem(ERROR, f"faction number {f.number} is below 1", f.number))
        if f.number in seen_num:
            out.append(Problem(ERROR, f"faction number {f.number} is used twice", f.number))
        seen_num.setdefault(f.number, f.number)
        name = f.name.strip().casefold()
        if not name:
            out.append(Problem(ERROR, f"faction {f.number} has no name", f.number))
        elif name in seen_name:
            out.append(Problem(ERROR, f"faction {f.number} has the name {f.name!r} of faction "
                                      f"{seen_name[name]}", f.number))
        else:
            seen_name[name] = f.number
        mail = f.email.strip().casefold()
        if mail:
            if "@" not in mail:
                out.append(Problem(WARNING, f"faction {f.number}: {f.email!r} does not look like "
                                            "an e-mail address", f.number))
            if mail in seen_mail:
                out.append(Problem(ERROR, f"faction {f.number} has the e-mail {f.email} of faction "
                                          f"{seen_mail[mail]}; orders could not be told apart",
                                   f.number))
            else:
                seen_mail[mail] = f.number
        elif str(getattr(rs, "turn_model", "")) != "realtime":  # forum games go by name
            out.append(Problem(WARNING, f"faction {f.number} ({f.name}) has no e-mail address",
                               f.number))
    return out


def _check_starts(scen: Scenario, rs: Ruleset) -> list[Problem]:
    out: list[Problem] = []
    m = scen.map
    water = water_terrains(scen)
    regions = m.kind == "regions"
    board = m.board()
    claimed: dict[Any, list[int]] = {}
    n_cells = len(m.grid)
    for fac in sorted(scen.factions, key=lambda f: f.number):
        starts = starts_of(scen, rs, fac)
        good = [s for s in starts if s.cells]
        for s in starts:
            if not s.cells:
                what = "area" if s.field.form == "areas" else "cell"
                out.append(Problem(ERROR, f"faction {fac.number} ({fac.name}): start {s.raw!r} is no "
                                          f"{what} of this map", fac.number))
        if not good:
            out.append(Problem(ERROR, f"faction {fac.number} ({fac.name}) has no start "
                                      f"({position_field(rs).label.lower()})", fac.number))
            continue
        for s in good:
            key = s.area if s.area else s.cells[0]
            claimed.setdefault(key, [])
            if fac.number not in claimed[key]:
                claimed[key].append(fac.number)
            if not s.field.land:
                continue
            if s.area:
                area = m.areas[s.area]
                if area.kind in SEA_KINDS:
                    out.append(Problem(ERROR, f"faction {fac.number}: start {s.area} is a sea",
                                       fac.number, area=s.area))
                elif regions and _isolated(board, s.area):
                    out.append(Problem(WARNING, f"faction {fac.number}: start {s.area} has no "
                                                "neighbours; it is cut off", fac.number, area=s.area))
                continue
            c = s.cells[0]
            if not 0 <= c < n_cells:
                continue
            if m.terrain_at(c).casefold() in water:
                out.append(Problem(ERROR, f"faction {fac.number}: start {_start_label(scen, s)} is on "
                                          f"{m.terrain_at(c)}, not land", fac.number, c))
            elif not regions and not any(m.terrain_at(n).casefold() not in water
                                         for n in m.grid.neighbours(c)):
                out.append(Problem(WARNING, f"faction {fac.number}: start {_start_label(scen, s)} has no "
                                            "land next to it; it is cut off", fac.number, c))
        out += _check_assets(scen, rs, fac, {c for s in good for c in s.cells}, water)
    for key, owners in claimed.items():
        if len(owners) > 1:
            names = " and ".join(str(n) for n in owners)
            if isinstance(key, str):
                out.append(Problem(ERROR, f"factions {names} both start in {key}", owners[1], area=key))
            else:
                out.append(Problem(ERROR, f"factions {names} both start at {_label(scen, key)}",
                                   owners[1], key))
    return out


def _check_assets(scen: Scenario, rs: Ruleset, fac: Faction, starts: set[int],
                  water: set[str]) -> list[Problem]:
    out: list[Problem] = []
    f = asset_field(rs)
    if f is None:
        return out
    kinds: set[str] | None = None
    cat = scen.catalogs.get(f.catalog)
    if cat is not None and f.catalog_key in cat.spec.names:
        kinds = {str(r[f.catalog_key]).casefold() for r in cat.rows}
    for a in assets_of(scen, rs, fac):
        cell = a.cells[0] if len(a.cells) == 1 else None
        if not a.kind:
            out.append(Problem(ERROR, f"faction {fac.number}: starting unit {a.index + 1} is not "
                                      "readable", fac.number))
            continue
        if kinds is not None and a.kind.casefold() not in kinds:
            out.append(Problem(ERROR, f"faction {fac.number}: starting unit {a.kind!r} is not in "
                                      f"the {f.catalog} catalog", fac.number, cell, a.area,
                               catalog=f.catalog))
        if _int(a.count) is None or _int(a.count) < 1:
            out.append(Problem(ERROR, f"faction {fac.number}: {a.count!r} {a.kind} is not a "
                                      "count of 1 or more", fac.number, cell, a.area))
        if not a.cells:
            out.append(Problem(ERROR, f"faction {fac.number}: {a.kind} at {a.where!r}, which is "
                                      "not on this map", fac.number))
        elif not starts.intersection(a.cells) and not _at_sea(scen, a, water):
            out.append(Problem(WARNING, f"faction {fac.number}: {a.kind} at {a.where} stands outside "
                                        "the faction's starts", fac.number, cell, a.area))
    return out


def _start_label(scen: Scenario, s: Start) -> str:
    return cell_label(scen, s.cells[0], s.field) if s.field.form == "sites" else str(s.raw)


def _at_sea(scen: Scenario, a: Asset, water: set[str]) -> bool:
    """Ships start at sea beside the home ports; only land units are held to the starts."""
    if a.area:
        return scen.map.areas[a.area].kind in SEA_KINDS
    return all(scen.map.terrain_at(c).casefold() in water for c in a.cells)


def _isolated(board: Any, name: str) -> bool:
    i = board.parse(name)
    return i is not None and not board.neighbours(i)


def _label(scen: Scenario, cell: int) -> str:
    try:
        return scen.map.grid.label(cell)
    except Exception:  # noqa: BLE001 (a bad cell number still gets a message)
        return str(cell)


def _check_catalogs(scen: Scenario, rs: Ruleset) -> list[Problem]:
    out: list[Problem] = []
    specs = rs.catalog_specs()
    for name in specs:
        if name not in scen.catalogs:
            out.append(Problem(WARNING, f"catalog {name} is missing; the ruleset's defaults "
                                        "will not be there to edit", catalog=name))
    for name, cat in scen.catalogs.items():
        spec = specs.get(name, cat.spec)
        fresh = Catalog(spec)
        for i, row in enumerate(cat.rows):
            try:
                fresh.add({k: v for k, v in row.items() if k in spec.names})
            except TableError as e:
                out.append(Problem(ERROR, f"{spec.title or name} row {i + 1}: {e}", catalog=name,
                                   row=i))
        if not cat.rows:
            out.append(Problem(WARNING, f"catalog {spec.title or name} is empty", catalog=name))
    return out


def _check_options(scen: Scenario, rs: Ruleset) -> list[Problem]:
    out: list[Problem] = []
    for spec in rs.option_specs():
        if spec.name not in scen.options.values:
            continue
        try:
            spec.column().coerce(scen.options.values[spec.name])
        except TableError as e:
            out.append(Problem(ERROR, f"option {spec.label or spec.name}: {e}", option=spec.name))
    return out


def _ruleset_checks(scen: Scenario, rs: Ruleset) -> list[Problem]:
    hook = getattr(rs, "validate", None)
    if not callable(hook):
        return []
    try:
        found: Iterable[Any] = hook(scen) or []
    except Exception as e:  # noqa: BLE001 (a ruleset bug must not hide the other problems)
        return [Problem(ERROR, f"the {rs.name} checks failed ({type(e).__name__}: {e})")]
    out = []
    for item in found:
        if isinstance(item, Problem):
            out.append(item)
        else:
            out.append(Problem(ERROR, str(item)))
    return out


# ---- integrity: what would break the database or the first turn -------------------------

INT64 = (-(2 ** 63), 2 ** 63 - 1)   # the range SQLite and PostgreSQL store as an integer
# Characters that have no place in a name or an address (they would break mail headers,
# reports and terminals): C0/C1 controls, DEL, bidi overrides; see engine/markup.
_NAME_FIELDS = ("name", "email", "password")


class ScenarioInvalid(ValueError):
    """The scenario cannot make a game; the message lists the problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        lines = [p.message for p in problems[:20]]
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__("the scenario cannot start a game:\n  " + "\n  ".join(lines) + more)


def integrity_problems(scen: Scenario, rs: Ruleset, state: Any = None) -> list[Problem]:
    """Problems no game can run with: numbers beyond 64 bits, and an initial state whose
    cells are off the map or whose references (factions, catalog rows, areas) name
    nothing. `state` is the initial state (built from the scenario if not given)."""
    out = _check_numbers(scen)
    if state is None:
        try:
            state = rs.initial_state(scen)
        except Exception as e:  # noqa: BLE001 (the ruleset cannot build it: say so)
            return out + [Problem(ERROR, f"the {rs.name} ruleset cannot build the start from "
                                         f"this scenario ({type(e).__name__}: {e})")]
    return out + state_problems(state, scen, rs)


def check_integrity(scen: Scenario, rs: Ruleset, state: Any = None) -> None:
    """Raise ScenarioInvalid if `integrity_problems` finds any error."""
    errors = [p for p in integrity_problems(scen, rs, state) if p.severity == ERROR]
    if errors:
        raise ScenarioInvalid(errors)


def _big(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and not INT64[0] <= v <= INT64[1]


def _big_in(v: Any) -> Any:
    """The first integer beyond 64 bits inside plain data, or None."""
    if _big(v):
        return v
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (list, tuple)):
        for x in v:
            found = _big_in(x)
            if found is not None:
                return found
    return None


def _too_big(what: str, v: Any, **where: Any) -> Problem:
    return Problem(ERROR, f"{what}: {v} is beyond the largest number a game stores "
                          f"({INT64[1]})", **where)


def _check_numbers(scen: Scenario) -> list[Problem]:
    out = []
    if _big(scen.seed):
        out.append(_too_big("seed", scen.seed))
    if (v := _big_in(scen.meta)) is not None:
        out.append(_too_big("meta", v))
    for name, value in scen.options.values.items():
        if _big(value):
            out.append(_too_big(f"option {name}", value, option=name))
    for name, cat in scen.catalogs.items():
        for i, row in enumerate(cat.rows):
            if (v := _big_in(row)) is not None:
                out.append(_too_big(f"{cat.spec.title or name} row {i + 1}", v, catalog=name, row=i))
    for f in scen.factions:
        if _big(f.number) or (v := _big_in(f.attrs)) is not None:
            out.append(_too_big(f"faction {f.number}", f.number if _big(f.number) else v))
    m = scen.map
    for sid, site in sorted(m.sites.items(), key=lambda kv: str(kv[0])):
        if (v := _big_in([sid, site.id, site.cell, site.attrs])) is not None:
            out.append(_too_big(f"site {site.name or sid}", v))
    for what, data in (("cell attributes", list(m.cell_attrs.values())),
                       ("area attributes", [a.attrs for a in m.areas.values()]),
                       ("map meta", m.meta)):
        if (v := _big_in(data)) is not None:
            out.append(_too_big(what, v))
    return out


def faction_text_problem(f: Faction) -> str | None:
    """Why a faction's name, e-mail or password cannot be used (a line break or control
    character would break mail headers and reports), or None."""
    from engine.markup import one_line

    for field in _NAME_FIELDS:
        value = str(getattr(f, field) or "")
        if one_line(value) != value:
            return f"faction {f.number}: the {field} {value!r} holds a line break or control character"
    return None


def _check_names(scen: Scenario) -> list[Problem]:
    return [Problem(ERROR, why, f.number) for f in scen.factions
            if (why := faction_text_problem(f)) is not None]


def state_problems(state: Any, scen: Scenario, rs: Ruleset) -> list[Problem]:
    """The start state checked against map, factions and catalogs (see integrity_problems)."""
    from engine.state import CELL_FIELDS

    out: list[Problem] = []
    n_cells = len(scen.map.grid)
    factions = {f.number for f in scen.factions} | {0}
    areas = {a.casefold() for a in scen.map.areas}
    hook = getattr(rs, "state_references", None)
    refs: dict[str, dict[str, str]] = hook() if callable(hook) else {}
    rows_of: dict[str, set[str]] = {}
    for fields in refs.values():
        for target in fields.values():
            if "." in target and target not in rows_of:
                cat_name, col = target.split(".", 1)
                cat = scen.catalogs.get(cat_name)
                if cat is not None and col in cat.spec.names:
                    rows_of[target] = {str(r.get(col)).casefold() for r in cat.rows}
    for table in sorted(state.tables):
        mine = refs.get(table, {})
        for i, rec in enumerate(state.tables[table]):
            values = vars(rec) if hasattr(rec, "__dict__") else {}
            where = f"state.{table} row {i + 1}"
            for field, v in values.items():
                if _big(v):
                    out.append(_too_big(f"{where}, {field}", v))
                    continue
                if field in CELL_FIELDS and isinstance(v, int) and not isinstance(v, bool) \
                        and not 0 <= v < n_cells:
                    out.append(Problem(ERROR, f"{where}: {field} {v} is not a cell of the map "
                                              f"(cells 0 to {n_cells - 1})"))
                    continue
                target = mine.get(field)
                if target is None:
                    continue
                if target == "faction":
                    if isinstance(v, int) and v not in factions:
                        out.append(Problem(ERROR, f"{where}: {field} {v} is no faction of the "
                                                  f"scenario (factions: "
                                                  f"{', '.join(map(str, sorted(factions - {0})))})",
                                           faction=v))
                elif target == "area":
                    if str(v).casefold() not in areas:
                        out.append(Problem(ERROR, f"{where}: {field} {v!r} is no area of the map",
                                           area=str(v)))
                elif target in rows_of and str(v).casefold() not in rows_of[target]:
                    cat_name = target.split(".", 1)[0]
                    out.append(Problem(ERROR, f"{where}: {field} {v!r} is not in the {cat_name} "
                                              "catalog", catalog=cat_name))
    return out
