"""The King of Kings demo: four kingdoms on a 24 x 16 map, with scripted orders.

`demo()` gives the scenario and the orders of turns 1-4; factions without scripted
orders in a turn (the Scythians in turn 3, everybody from turn 5) get NMR orders (2.9).
The orders exercise placement, land and sea moves, a landing from the sea, battles, DEF,
ALL, DON and NAME. `play()` runs turns without a database, the way the game service does
(parse, check, NMR, phases, reports): the golden test and quick experiments use it.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.dice import Dice
from engine.events import EventLog
from engine.map import GameMap
from engine.orders import Diagnostic, OrderSheet
from engine.ruleset import TurnContext
from engine.scenario import Faction, Scenario
from engine.state import State

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "kok-demo" / "map.rsmap"
GAME = "DEMO"

FACTIONS = (
    # number, name, e-mail, colour, starting provinces, gold, wood
    (1, "Achaeans", "achaeans@example.org", "#2b6cb0",
     ("2/1", "3/1", "4/1", "2/2", "3/2", "4/2"), 30, 20),
    (2, "Persians", "persians@example.org", "#c05621",
     ("17/2", "18/1", "18/2", "19/2", "19/3", "20/3"), 30, 0),
    (3, "Egyptians", "egyptians@example.org", "#b7791f",
     ("6/8", "7/8", "5/8", "6/9", "7/9", "7/7"), 30, 0),
    (4, "Scythians", "scythians@example.org", "#2f855a",
     ("13/8", "14/8", "15/8", "14/9", "15/9", "15/10"), 30, 0),
)

ORDERS: dict[int, dict[int, str]] = {
    1: {
        1: """Dear GM, orders of the Achaeans for turn 1.
BEGIN
# horsemen south towards the Egyptians, ships on the coast of Argos
PLA 3 2 HO 4 2 HO 2 2 BO
PLA 2 1 SH 2 1 SH
LAND 4 2 HO 1 S S
LAND 3 2 T HO 1 FO 1 S S
DEF 3 2 C 4 1 F
NAME 3 2 Argos
ALL 2 1
END
""",
        2: """# Persians: the eastern kingdom
BEGIN
PLA 17 2 HO 19 3 HO 20 3 BO
LAND 19 3 HO 1 S S S
LAND 18 2 FO 1 S S
ALL 1 1
NAME 17 2 "Persepolis"
END
""",
        3: """BEGIN
PLA 6 8 HO 7 7 HO 5 8 BO
LAND 6 8 HO 1 N N N
LAND 7 7 HO 1 FO 1 N N
DEF 6 8 U
NAME 6 8 Memphis
ALL 4 1
END
""",
        4: """BEGIN
PLA 15 10 HO 14 8 HO 13 8 BO
LAND 14 8 HO 1 N N
DEF 15 10 C 13 8 T
ALL 3 1
NAME 15 10 Olbia
END
""",
    },
    2: {
        1: """BEGIN
# the fleet sails round the northern cape; the horsemen hold the south
PLA 3 2 HO 4 2 BO 2 1 FO
SEA 2 1 FO 2 SH 2 N E E E E E S
LAND 3 4 C AT E
DEF 4 4 C 3 4 C
ALL 2 2
END
""",
        2: """BEGIN
PLA 17 2 HO 18 2 BO 20 3 FO
LAND 19 6 HO 1 W S
LAND 18 4 FO 1 S W
ALL 1 2
END
""",
        3: """BEGIN
PLA 6 8 HO 7 8 HO 6 9 FO
LAND 6 5 P HO 1 W W N
LAND 7 5 F AT N W W
DEF 6 8 F
ALL 4 2
END
""",
        4: """BEGIN
PLA 15 10 HO 15 9 BO 14 9 FO
LAND 14 6 HO 1 E E
LAND 15 8 T AT N N
ALL 3 2
END
""",
    },
    3: {
        1: """BEGIN
SEA 7 1 AT SH 2 E S S S S E S E S S
PLA 3 2 HO 4 2 HO 2 2 HO
LAND 4 4 F AT S E
LAND 3 2 HO 1 S S S
DEF 4 4 F
ALL 2 3
END
""",
        2: """BEGIN
PLA 17 2 HO 18 2 BO
LAND 18 6 F HO 1 W W
DON 1 10
ALL 1 3
END
""",
        3: """BEGIN
PLA 6 8 HO 7 8 HO 7 9 BO
LAND 6 8 P AT N N N
LAND 7 8 HO 1 N N N
DEF 6 8 T
END
""",
    },
    4: {
        1: """BEGIN
SEA 10 8 AT SH 2 E S E
LAND 12 9 F AT E
PLA 3 2 HO 4 2 HO 2 2 BO
LAND 3 2 AT S S
NAME 4 1 Korinthos
END
""",
        2: """BEGIN
PLA 17 2 HO 18 2 FO
LAND 17 2 HO 1 E S S
CEDE 20 3 1
END
""",
        3: """BEGIN
PLA 6 8 HO 7 8 BO 6 9 HO
LAND 6 8 F AT N N N
DEF 6 8 C 7 8 C
END
""",
        4: """BEGIN
PLA 15 10 HO 15 9 HO 14 9 BO
LAND 14 9 T AT W
DEF 14 9 C 15 9 C
ALL 3 3
END
""",
    },
}


def _load_map() -> GameMap:
    from engine.mapfile import load_map

    if MAP.exists():
        return load_map(MAP)
    spec = importlib.util.spec_from_file_location("kok_demo_make_map", MAP.with_name("make_map.py"))
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.build()


def scenario() -> Scenario:
    from engine.rulesets.kok import RULESET

    opts = RULESET.default_options()
    opts.set("end_turn", 6)
    opts.set("loyalty", True)
    factions = [Faction(n, name, email=mail, colour=colour,
                        attrs={"provinces": list(provs), "gold": gold, "wood": wood})
                for n, name, mail, colour, provs, gold, wood in FACTIONS]
    return Scenario("kok", "The Four Kingdoms (demo)", _load_map(), RULESET.default_catalogs(),
                    opts, factions, seed=2002,
                    meta={"game": GAME, "end_turn": 6, "start_date": "2026-03-02",
                          "days_per_turn": 7})


def demo() -> tuple[Scenario, dict[int, dict[int, str]]]:
    return scenario(), {t: dict(by) for t, by in ORDERS.items()}


@dataclass
class Turn:
    """One played turn: the state after it, its events, sheets and diagnostics."""

    step: int
    state: State
    events: EventLog
    sheets: dict[int, OrderSheet]
    diagnostics: list[Diagnostic]
    nmr: list[int] = field(default_factory=list)
    reports: dict[str, str] = field(default_factory=dict)


def play(scen: Scenario, orders: dict[int, dict[int, str]], turns: int,
         state: State | None = None, formats: tuple[str, ...] = ("text",)) -> list[Turn]:
    """Run `turns` turns as the game service does, without a database."""
    from engine.rulesets.kok import RULESET as rs

    state = state or rs.initial_state(scen)
    out: list[Turn] = []
    for _ in range(turns):
        step = state.step + 1
        dice = Dice(scen.seed, step)
        sheets: dict[int, OrderSheet] = {}
        diags: list[Diagnostic] = []
        for f in sorted(orders.get(step, {})):
            source = f"SP{f}.R{step}"
            sheet = rs.parse_orders(orders[step][f], source)
            found = sheet.diagnostics + rs.check(sheet, state, f, scen)
            diags += [dataclasses.replace(d, file=d.file or source, faction=f) for d in found]
            sheets[f] = sheet
        nmr = []
        for f in scen.factions:
            if f.number not in sheets:
                sheets[f.number] = rs.auto_orders(state, f.number, scen, dice.sub("nmr", f.number))
                nmr.append(f.number)
        new = state.copy()
        new.step = step
        ctx = TurnContext(rs, scen, new, state, sheets, dice)
        ctx.scratch["diagnostics"] = diags
        ctx.scratch["nmr"] = nmr
        rs.run_step(ctx)
        turn = Turn(step, new, ctx.events, sheets, diags, nmr)
        data: dict[str, Any] = rs.report(new, ctx.events, None, scen, diags)
        turn.reports = {fmt: rs.render(data, fmt) for fmt in formats}
        out.append(turn)
        state = new
    return out
