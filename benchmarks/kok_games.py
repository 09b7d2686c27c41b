"""Generated King of Kings games for the benchmarks, made as docs/performance.md says:

    python -m engine.rulesets.kok.generate DIR --size NxN --check-files 1000
    realmsmith import DIR/game.db DIR/orders

20 tribes, one army record for every two cells (5,000 at 100x100), the 20 tribes'
orders imported for turn 1 (not run), and 1,000 orders files for `realmsmith check`.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class KokGame:
    size: int
    db: Path        # turn 1's orders imported, not run: copy it before running
    orders: Path    # the 20 sheets imported
    check: Path     # 1,000 sheets for checking (100x100 only)


@pytest.fixture(scope="session")
def kok_game(tmp_path_factory):
    made: dict[int, KokGame] = {}

    def get(size: int) -> KokGame:
        if size not in made:
            from app.cli import main
            from engine.rulesets.kok.generate import main as generate

            folder = tmp_path_factory.mktemp(f"kok{size}")
            files = ["--check-files", "1000"] if size == 100 else []
            with contextlib.redirect_stdout(io.StringIO()):
                assert generate([str(folder), "--size", f"{size}x{size}", *files]) == 0
                assert main(["import", str(folder / "game.db"), str(folder / "orders")]) == 0
            made[size] = KokGame(size, folder / "game.db", folder / "orders", folder / "check")
        return made[size]

    return get
