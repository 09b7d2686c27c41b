"""The New game dialog: ruleset, map (demo, a file, blank or generated), name, seed and where
the game database goes. `create_game()` builds the scenario and calls GameService.create."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine import registry
from engine.map import GameMap, new_map
from engine.ruleset import Ruleset
from engine.scenario import Scenario

SOURCES = (("demo", "Demo scenario of the ruleset (map and factions)"),
           ("demo_map", "Demo map of the ruleset (no factions)"),
           ("file", "A map file (.rsmap, .tmj, .tmx…)"),
           ("blank", "A new blank map"),
           ("generate", "A generated map"))
MAP_FILTER = "Maps (*.rsmap *.rsmap.gz *.tmj *.tmx *.json *.geojson);;All files (*)"
WATER_WORDS = ("sea", "ocean", "water", "lake", "shallow", "deep")


class NewGameError(Exception):
    """What keeps the dialog from creating the game, in the GM's words."""


def _row(*widgets: QWidget) -> QWidget:
    w = QWidget()
    lay = QHBoxLayout(w)
    lay.setContentsMargins(0, 0, 0, 0)
    for x in widgets:
        lay.addWidget(x)
    return w


class NewGameDialog(QDialog):
    def __init__(self, parent=None, folder: str | Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setObjectName("newGameDialog")
        self.service = None
        self.folder = Path(folder) if folder else Path.cwd()
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("ruleset")
        for name in registry.available():
            rs = registry.get(name)
            if "play" not in rs.capabilities:  # turns not built yet: no game to start
                continue
            self.ruleset.addItem(f"{rs.title or name} ({name})", name)
        self.info = QLabel("")
        self.info.setObjectName("rulesetInfo")
        self.info.setWordWrap(True)
        self.source = QComboBox()
        self.source.setObjectName("mapSource")
        for key, text in SOURCES:
            self.source.addItem(text, key)
        self.map_file = QLineEdit()
        self.map_file.setObjectName("mapFile")
        browse_map = QPushButton("Browse…")
        browse_map.clicked.connect(self._browse_map)
        self.map_file_row = _row(self.map_file, browse_map)
        self.kind = QComboBox()
        self.kind.setObjectName("mapKind")
        self.width = QSpinBox()
        self.width.setRange(4, 2000)
        self.width.setValue(24)
        self.height = QSpinBox()
        self.height.setRange(4, 2000)
        self.height.setValue(16)
        self.size_row = _row(self.kind, QLabel("width"), self.width, QLabel("height"), self.height)
        self.terrain = QComboBox()
        self.terrain.setEditable(True)
        self.terrain.setObjectName("blankTerrain")
        self.style = QComboBox()
        self.style.setObjectName("mapStyle")
        try:
            from engine.mapgen import STYLES
        except ImportError:  # the generator is optional
            STYLES = ()
        self.style.addItems(list(STYLES))
        self.name = QLineEdit()
        self.name.setObjectName("gameName")
        self.name.setPlaceholderText("e.g. Spring campaign")
        self.seed = QSpinBox()
        self.seed.setObjectName("seed")
        self.seed.setRange(0, 2**31 - 1)
        from engine.dice import secret_seed

        self.seed.setValue(secret_seed(31))  # a fresh secret one for each game
        self.seed.setToolTip("All dice of the game come from this number: same seed, same "
                             "results. Keep it secret: it predicts every roll")
        self.db = QLineEdit()
        self.db.setObjectName("databasePath")
        browse_db = QPushButton("Browse…")
        browse_db.clicked.connect(self._browse_db)
        self.error = QLabel("")
        self.error.setObjectName("newGameError")
        self.error.setStyleSheet("color: #a4231a;")
        self.error.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Ruleset", self.ruleset)
        form.addRow("", self.info)
        form.addRow("Map", self.source)
        form.addRow("Map file", self.map_file_row)
        form.addRow("Map size", self.size_row)
        form.addRow("Terrain", self.terrain)
        form.addRow("Layout", self.style)
        form.addRow("Game name", self.name)
        form.addRow("Seed", self.seed)
        form.addRow("Game database", _row(self.db, browse_db))
        self.form = form
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create game")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.ruleset.currentIndexChanged.connect(lambda _i: self._ruleset_changed())
        self.source.currentIndexChanged.connect(lambda _i: self._source_changed())
        self.name.textEdited.connect(lambda _t: self._suggest_db())
        self._ruleset_changed()
        self._source_changed()

    # ---- choices --------------------------------------------------------------------

    def rs(self) -> Ruleset:
        return registry.get(self.ruleset.currentData())

    def set_ruleset(self, name: str) -> None:
        i = self.ruleset.findData(name)
        if i < 0:
            raise NewGameError(f"no ruleset {name!r} here")
        self.ruleset.setCurrentIndex(i)

    def set_source(self, key: str) -> None:
        self.source.setCurrentIndex(self.source.findData(key))

    def _ruleset_changed(self) -> None:
        rs = self.rs()
        kinds = tuple(rs.map_kinds or ("hex", "square"))
        self.info.setText(f"Turn model: <b>{rs.turn_model}</b> · maps: <b>{', '.join(kinds)}</b> · "
                          f"{len(rs.catalog_specs())} catalogs, {len(rs.option_specs())} options")
        self.kind.clear()
        self.kind.addItems(list(kinds))
        self.terrain.clear()
        names = self._terrains(rs)
        self.terrain.addItems(names)
        if not self.name.text().strip():
            self.name.setPlaceholderText(f"e.g. {rs.title or rs.name} game")
        self._suggest_db()

    @staticmethod
    def _terrains(rs: Ruleset) -> list[str]:
        letters = getattr(rs, "terrain_letters", None)
        names: list[str] = []
        if callable(letters):
            try:
                names = list(dict.fromkeys(letters().values()))
            except Exception:  # noqa: BLE001 (a helper only)
                names = []
        land = [n for n in names if not any(w in n.casefold() for w in WATER_WORDS)]
        return land + [n for n in names if n not in land] or ["plains"]

    def _source_changed(self) -> None:
        key = self.source.currentData()
        for widget, shown in ((self.map_file_row, key == "file"),
                              (self.size_row, key in ("blank", "generate")),
                              (self.terrain, key == "blank"), (self.style, key == "generate")):
            widget.setVisible(shown)
            label = self.form.labelForField(widget)
            if label is not None:
                label.setVisible(shown)

    def _browse_map(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Map for the new game", str(self.folder), MAP_FILTER)
        if path:
            self.map_file.setText(path)

    def _browse_db(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Game database", self.db.text() or str(self.folder),
                                              "Game databases (*.rsgame *.db)")
        if path:
            self.db.setText(path if Path(path).suffix else path + ".rsgame")

    def _suggest_db(self) -> None:
        if self.db.isModified():
            return  # the GM typed a path; keep it
        from engine.service import export_stem

        stem = export_stem(self.name.text() or self.rs().name + "-game")
        self.db.setText(str(self.folder / f"{stem}.rsgame"))

    # ---- building ----------------------------------------------------------------------

    def make_map(self) -> tuple[GameMap, Scenario | None]:
        rs, key = self.rs(), self.source.currentData()
        if key in ("demo", "demo_map"):
            try:
                demo, _ = rs.demo()
            except NotImplementedError:
                raise NewGameError(f"{rs.title or rs.name} has no demo map; pick another map") from None
            return demo.map, (demo if key == "demo" else None)
        if key == "file":
            text = self.map_file.text().strip()
            if not text:
                raise NewGameError("choose a map file")
            from app.documents import OpenError, open_document

            try:
                doc = open_document(text)
            except OpenError as e:
                raise NewGameError(str(e)) from None
            gmap = doc.gmap
            doc.close()
            return gmap, None
        kind, w, h = self.kind.currentText(), self.width.value(), self.height.value()
        if key == "blank":
            return new_map(kind, w, h, self.terrain.currentText().strip() or "plains"), None
        from engine.mapgen import generate

        params = {"style": self.style.currentText() or "continents"}
        if rs.name in ("kok",):
            params["ruleset"] = rs.name
        try:
            return generate(kind, w, h, self.seed.value(), **params), None
        except ValueError as e:
            raise NewGameError(f"cannot generate the map: {e}") from None

    def make_scenario(self) -> Scenario:
        rs = self.rs()
        name = self.name.text().strip()
        if not name:
            raise NewGameError("name the game")
        gmap, demo = self.make_map()
        if demo is not None:
            demo.name, demo.seed = name, self.seed.value()
            return demo
        return Scenario(rs.name, name, gmap, rs.default_catalogs(), rs.default_options(), [],
                        seed=self.seed.value())

    def create_game(self):
        """The new game's GameService; NewGameError says why not."""
        from engine.service import GameService

        if not self.name.text().strip():
            raise NewGameError("name the game")
        db = self.db.text().strip()
        if not db:
            raise NewGameError("choose where the game database goes")
        path = Path(db)
        if path.exists():
            raise NewGameError(f"{path} exists already; choose another file")
        if not path.parent.is_dir():
            raise NewGameError(f"{path.parent}: no such folder")
        scen = self.make_scenario()
        rs = self.rs()
        if rs.map_kinds and scen.map.kind not in rs.map_kinds:
            raise NewGameError(f"{rs.title or rs.name} plays on {' or '.join(rs.map_kinds)} maps; "
                               f"this map is {scen.map.kind}")
        try:
            return GameService.create(path, scen)
        except Exception as e:  # noqa: BLE001 (the service says what is wrong)
            raise NewGameError(f"cannot create {path}: {type(e).__name__}: {e}") from None

    def accept(self) -> None:
        try:
            self.service = self.create_game()
        except NewGameError as e:
            self.error.setText(str(e))
            return
        self.path = Path(self.db.text().strip())
        super().accept()
