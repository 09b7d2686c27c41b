"""Where the open map lives: a map file (.rsmap, .rsmap.gz), a game database, or an
imported foreign format. Opening never replaces the open map until the new one loaded."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.map import GameMap

MAP_SUFFIXES = (".rsmap", ".rsmap.gz", ".rsmap.json")
FOREIGN = {".tmj": "Tiled JSON", ".tmx": "Tiled TMX", ".geojson": "GeoJSON", ".json": "JSON"}


class OpenError(Exception):
    """A file could not be opened; the message names the file and says why."""


@dataclass
class Document:
    gmap: GameMap
    path: Path | None = None
    kind: str = "map"  # 'map' (native file), 'game' (database), 'import' (foreign format)
    service: Any = None

    @property
    def title(self) -> str:
        if self.path is None:
            return self.gmap.name or "untitled map"
        return self.path.name

    def save(self, path: Path | None = None) -> Path:
        """Save to the game database, or as a native map file (path given or the map's own)."""
        if path is None and self.kind == "game" and self.service is not None:
            self.service.save_map(self.gmap)
            return self.path
        target = path or (self.path if self.kind == "map" else None)
        if target is None:
            raise OpenError("choose a file name (Save As)")
        from engine.mapfile import save_map

        save_map(self.gmap, target)
        self.path, self.kind = Path(target), "map"
        return self.path

    def close(self) -> None:
        if self.service is not None:
            try:
                self.service.close()
            except Exception:  # noqa: BLE001 (closing must never fail the app)
                pass
            self.service = None


def is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def open_document(path: str | Path) -> Document:
    path = Path(path)
    if not path.exists():
        raise OpenError(f"{path}: no such file")
    name = path.name.lower()
    if name.endswith(MAP_SUFFIXES):
        from engine.mapfile import MapFileError, load_map

        try:
            return Document(load_map(path), path, "map")
        except MapFileError as e:
            raise OpenError(str(e)) from None
    if is_sqlite(path):
        return _open_game(path)
    suffix = path.suffix.lower()
    if suffix in FOREIGN:
        return Document(import_map(path), path, "import")
    # last resort: maybe a native map with an unusual name
    from engine.mapfile import MapFileError, load_map

    try:
        return Document(load_map(path), path, "map")
    except MapFileError:
        raise OpenError(f"{path}: not a Realmsmith map, game database, or a map format "
                        f"Realmsmith imports (.rsmap, .tmj, .tmx)") from None


def _open_game(path: Path) -> Document:
    try:
        from engine.service import GameService
    except ImportError:
        raise OpenError(f"{path}: opening game databases needs engine.service") from None
    try:
        service = GameService.open(path)
    except Exception as e:  # noqa: BLE001 (the service explains in its own words)
        raise OpenError(f"{path}: {e}") from None
    try:
        gmap = service.scenario.map
    except Exception as e:  # noqa: BLE001
        service.close()
        raise OpenError(f"{path}: the game's map does not load ({type(e).__name__}: {e})") from None
    return Document(gmap, path, "game", service)


# ---- foreign formats through engine.mapio (written alongside this editor) ----------------

def mapio_call(names: tuple[str, ...], *args):
    """Call the first of `names` that engine.mapio provides; OpenError if none."""
    try:
        import engine.mapio as mapio
    except ImportError:
        mapio = None
    for n in names:
        mod_name, _, fn_name = n.rpartition(".")
        mod = mapio
        if mod_name:
            try:
                mod = __import__(f"engine.mapio.{mod_name}", fromlist=[fn_name])
            except ImportError:
                continue
        fn = getattr(mod, fn_name, None) if mod is not None else None
        if callable(fn):
            return fn(*args)
    raise OpenError("map import and export (engine.mapio) is not available in this build yet")


def import_map(path: Path) -> GameMap:
    try:
        return mapio_call(("import_map", "load", "read_map"), path)
    except OpenError:
        raise
    except Exception as e:  # noqa: BLE001 (importers raise their own error types)
        text = str(e)
        raise OpenError(text if text.startswith(str(path)) else f"{path}: {text}") from None


def export_map(gmap: GameMap, path: Path, fmt: str) -> None:
    """fmt: 'tmj', 'tmx', 'geojson', 'svg' through engine.mapio; 'png' here."""
    if fmt == "png":
        from app.render import export_png

        export_png(gmap, path)
        return
    mapio_call(("export_map",), gmap, path, fmt)
