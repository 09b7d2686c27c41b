"""Stored events read back as their own typed classes in a fresh process, for every ruleset:
importing a ruleset package declares its event kinds (nothing else has to be called first)."""

import subprocess
import sys

import pytest

from engine import registry
from engine.service import GameService

SCRIPT = """
import sys
from engine.service import GameService
svc = GameService.open(sys.argv[1])
log = svc.events(1)
unknown = sorted({r.event.kind for r in log.records if type(r.event).__name__ == "UnknownEvent"})
print(len(log.records), ",".join(unknown))
"""


@pytest.mark.parametrize("name", ["kok", "artnes", "coi", "atlantis"])
def test_events_are_typed_when_read_in_a_fresh_process(name, tmp_path, capsys):
    from app.cli import main

    lacks = {"play", "reports", "demo"} - registry.get(name).capabilities
    if lacks:  # a ruleset still being built has no demo game to read back yet
        pytest.skip(f"{name}: not built yet: {', '.join(sorted(lacks))}")
    assert main(["demo", "--ruleset", name, "--dir", str(tmp_path), "--turns", "1"]) == 0
    capsys.readouterr()
    db = next(tmp_path.glob("*.db"))
    with GameService.open(db) as svc:
        assert svc.ruleset is registry.get(name)
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(db)], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert int(out[0]) > 10 and len(out) == 1, f"untyped kinds: {out[1:]}"


def test_describe_writes_cells_in_the_maps_notation():
    from engine.rulesets.kok import events as ev
    from engine.topology import SquareGrid

    grid = SquareGrid(24, 16)
    e = ev.ProvinceOccupied(faction=4, cell=grid.cell(5, 9), previous=0)
    assert e.describe(grid.label) == "kok.occupied: faction=4, cell=5/9, previous=0"
    assert "cell=221" in e.describe()  # no map: the plain number
