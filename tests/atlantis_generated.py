"""A small generated Atlantis game (engine.rulesets.atlantis.generate) with its orders
files written out, created, imported and run: for tests of what a run stores and exports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.rulesets.atlantis.generate import generate_game
from engine.scenario import Scenario
from engine.service import GameService


def run_generated(tmp_path: Path, name: str, seed: int, factions: int = 4, units: int = 3,
                  adjust: Callable[[Scenario], None] | None = None) -> GameService:
    """The game `name`.db in tmp_path after its first turn; `adjust` changes the scenario
    (options, names) before the game is created."""
    scen, orders = generate_game(factions, units=units, seed=seed)
    if adjust is not None:
        adjust(scen)
    folder = tmp_path / f"{name}-orders"
    folder.mkdir()
    for f, text in orders.items():
        (folder / f"f{f}.txt").write_text(text, encoding="utf-8")
    svc = GameService.create(tmp_path / f"{name}.db", scen)
    svc.import_paths([str(folder)])
    svc.run()
    return svc
