"""Whole-turn golden folder for King of Kings: state + orders in, reports out, byte for byte.

tests/golden/kok/ holds turn 3 of the demo game:
    in/state.json          the state after turn 2 (State.to_json)
    in/SP<n>.R3            the orders of each player who sent any (the Scythians did not:
                           their orders come from the NMR rules)
    out/report.txt|.html|.json, out/state.json, out/events.json
Run `pytest tests/test_kok_golden.py --update-golden` to rewrite the folder from the
current engine (then review the diff before committing it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rulesets.kok.demo import demo, play
from engine.rulesets.kok.state import SCHEMA
from engine.state import State

GOLDEN = Path(__file__).parent / "golden" / "kok"
TURN = 3
FORMATS = {"text": "report.txt", "html": "report.html", "json": "report.json"}


def _outputs(turn) -> dict[str, str]:
    out = {FORMATS[f]: turn.reports[f] for f in FORMATS}
    out["state.json"] = json.dumps(json.loads(turn.state.to_json()), indent=1, sort_keys=True) + "\n"
    out["events.json"] = json.dumps(turn.events.to_list(), indent=1, sort_keys=True) + "\n"
    return out


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _regenerate() -> None:
    scen, orders = demo()
    before = play(scen, orders, TURN - 1)[-1].state
    for old in sorted(GOLDEN.glob("*/*")):
        old.unlink()
    _write(GOLDEN / "in" / "state.json", before.to_json() + "\n")
    for f, text in sorted(orders[TURN].items()):
        _write(GOLDEN / "in" / f"SP{f}.R{TURN}", text)
    (turn,) = play(scen, orders, 1, state=before, formats=tuple(FORMATS))
    for name, text in _outputs(turn).items():
        _write(GOLDEN / "out" / name, text)


def test_golden_turn(request):
    if request.config.getoption("--update-golden"):
        _regenerate()
    if not (GOLDEN / "in" / "state.json").exists():
        pytest.fail("no golden folder: run pytest tests/test_kok_golden.py --update-golden")
    scen, _ = demo()
    state = State.from_dict(SCHEMA, json.loads((GOLDEN / "in" / "state.json").read_text("utf-8")))
    orders = {TURN: {int(p.name[2:p.name.index(".")]): p.read_bytes().decode("utf-8")
                     for p in sorted((GOLDEN / "in").glob(f"SP*.R{TURN}"))}}
    assert state.step == TURN - 1 and sorted(orders[TURN]) == [1, 2, 3]
    (turn,) = play(scen, orders, 1, state=state, formats=tuple(FORMATS))
    assert turn.nmr == [4]
    for name, text in _outputs(turn).items():
        want = (GOLDEN / "out" / name).read_bytes().decode("utf-8")
        assert text == want, f"{name} differs from tests/golden/kok/out/{name} " \
                             "(rerun with --update-golden if the change is intended)"


def test_golden_report_content():
    """The golden text report says what the turn did (guards against a silent rewrite)."""
    text = (GOLDEN / "out" / "report.txt").read_text("utf-8")
    assert text.startswith("KING OF KINGS  -  game DEMO")
    assert "Turn 3 of 6" in text
    assert "Battle of 16 6" in text
    assert "Persians gives 10 gold to player 1 (Achaeans)" in text
    assert "\n   1   -  3  0  0\n" in text          # Achaeans and Persians at 3 after turn 3
    assert "[3 LAND 6 8 P AT N N N]" in text


def test_demo_runs_six_turns_deterministically():
    scen, orders = demo()
    a = play(scen, orders, 6)
    b = play(demo()[0], orders, 6)
    assert [t.reports["text"] for t in a] == [t.reports["text"] for t in b]
    assert [t.state.to_json() for t in a] == [t.state.to_json() for t in b]
    assert a[-1].nmr == [1, 2, 3, 4] and a[2].nmr == [4] and a[0].nmr == []
    battles = [t.reports["text"].count("Battle of ") for t in a]
    assert sum(battles[:4]) >= 3
    assert "FINAL RANKING" in a[-1].reports["text"]
    # every scripted sheet reads without invalid lines (only the letter before BEGIN)
    for t in a[:4]:
        bad = [d for d in t.diagnostics if d.kind == "invalid" and d.severity == "error"]
        assert bad == []


def _disagreements(turns) -> list[str]:
    """Checker errors the adjudication did not confirm, and adjudication messages on lines
    the checker passed without a word (both should be none: one reading of the rules)."""
    from engine.rulesets.kok.narrative import order_messages

    out = []
    for t in turns:
        said = {(m["player"], m["line"]): m for m in order_messages(t.events)}
        for d in t.diagnostics:
            if d.kind == "illegal" and d.severity == "error" and (d.faction, d.line) not in said:
                out.append(f"turn {t.step}: checker only: {d.format()}")
        seen = {(d.faction, d.line) for d in t.diagnostics}
        for key, m in said.items():
            if key not in seen and key[0] not in t.nmr:
                out.append(f"turn {t.step}: adjudication only: {key} {m['text']} {m['message']}")
    return out


def test_checker_agrees_with_the_adjudication_on_the_demo():
    scen, orders = demo()
    assert _disagreements(play(scen, orders, 4)) == []


def test_demo_map_file_is_what_make_map_makes():
    import importlib.util

    from engine.mapfile import load_map
    from engine.rulesets.kok.demo import MAP

    spec = importlib.util.spec_from_file_location("make_map", MAP.with_name("make_map.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    built, saved = mod.build(), load_map(MAP)
    assert built.to_dict() == saved.to_dict()
    g = saved.grid
    assert (g.width, g.height) == (24, 16)
    terrains = set(saved.terrain_names())
    assert terrains == {"cultivated", "plains", "grassland", "desert", "steppes", "forest",
                        "hills", "mountains", "marsh", "swamps", "town", "city",
                        "metropolis", "sea"}
    # an inland channel (not the border ocean) joins north and south: the fleet sails it
    sea = {c for c in range(len(g)) if saved.terrain_at(c) == "sea"
           and 0 < c % g.width < g.width - 1 and 0 < c // g.width < g.height - 1}
    seen, todo = {g.cell(8, 3)}, [g.cell(8, 3)]
    while todo:
        c = todo.pop()
        for n in g.neighbours(c):
            if n in sea and n not in seen:
                seen.add(n)
                todo.append(n)
    assert g.cell(12, 12) in seen
