import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden report folders from the current engine output")


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def played_demos(tmp_path_factory):
    """ruleset -> the game database of its demo played by `realmsmith demo` (several turns)."""
    from app.cli import main as cli

    out = {}
    for rs in ("kok", "artnes", "coi"):
        folder = tmp_path_factory.mktemp(f"demo-{rs}")
        assert cli(["demo", "--ruleset", rs, "--dir", str(folder)]) == 0
        out[rs] = next(folder.glob("*.db"))
    return out
