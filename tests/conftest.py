import os
import shutil
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden report folders from the current engine output")


import pytest  # noqa: E402


class DemoGames:
    """Each ruleset's demo as `realmsmith demo --ruleset RS --dir FOLDER` leaves it (the game
    database, reports, orders), played at most once a session, when a test first asks.

    Tests never get the played folder itself, only copies of it (`copy`), so a test that
    writes (runs a turn, rolls back, replays the demo into its folder) cannot change what
    another test reads, whatever the order they run in."""

    def __init__(self, factory: pytest.TempPathFactory):
        self._factory = factory
        self._played: dict[str, Path] = {}

    def copy(self, ruleset: str, dest: Path | None = None) -> Path:
        """A copy of the ruleset's played demo folder (at dest, else a new temporary folder)."""
        src = self._played.get(ruleset)
        if src is None:
            from app.cli import main as cli

            src = self._factory.mktemp(f"played-demo-{ruleset}")
            assert cli(["demo", "--ruleset", ruleset, "--dir", str(src)]) == 0
            self._played[ruleset] = src
        if dest is None:
            dest = self._factory.mktemp(f"demo-{ruleset}")
        shutil.copytree(src, dest, dirs_exist_ok=True)
        return dest

    def db(self, ruleset: str, dest: Path | None = None) -> Path:
        """The game database of a copy of the ruleset's played demo."""
        return next(self.copy(ruleset, dest).glob("*.db"))


@pytest.fixture(scope="session")
def demo_games(tmp_path_factory) -> DemoGames:
    return DemoGames(tmp_path_factory)


@pytest.fixture(scope="session")
def played_demos(demo_games):
    """ruleset -> the game database of its demo played by `realmsmith demo` (several turns)."""
    return {rs: demo_games.db(rs) for rs in ("kok", "artnes", "coi")}
