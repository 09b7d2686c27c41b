"""Continental Conquest through the command line on the North America map: a game made from
the eight-clan scenario, one clan's turn from its filled-in orders sheet (import, check, run,
report), then the rest of the game turn, whose last clan turn ends the game turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import EXIT_OK, main
from engine.service import GameService
from tests.test_cc_check import fill_template

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "cc" / "north-america-8.toml"
T0 = "2026-03-02T12:00:00Z"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The game after clan 100's first turn, with the files of its start."""
    d = tmp_path_factory.mktemp("cc")
    db = d / "g.db"
    assert main(["new", str(db), "--scenario", str(SCENARIO), "--seed", "3"]) == EXIT_OK
    assert main(["export", str(db), "--out", str(d / "t0")]) == EXIT_OK
    with GameService.open(db) as svc:
        start = svc.state(0)
    convoy = next(c for c in start["convoys"] if c.owner == 100)
    template = (d / "t0" / "north-america-t000-f100-orders.txt").read_text(encoding="utf-8")
    sheet = fill_template(template, {"pre 1": "BUY 200 FUEL", "pre 2": "ENLIST 10", "c1 1": "PAUSE",
                            "c1 2": "N", "c1 3": "NE", "post 1": "DEFEND 1309"})
    (d / "c100.txt").write_text(sheet, encoding="utf-8")
    assert main(["import", str(db), str(d / "c100.txt")]) == EXIT_OK
    assert main(["check", str(db)]) == EXIT_OK
    assert main(["run", str(db)]) == EXIT_OK
    return d, db, start, convoy


def test_one_clan_turn_from_a_filled_sheet(game, capsys):
    d, db, start, convoy = game
    with GameService.open(db) as svc:
        steps = svc.steps()
        assert [(s.number, s.faction) for s in steps[1:]] == [(1, 100)]
        new = svc.state(1)
        kinds = [r.event.kind for r in svc.events(1).records]
        reported = svc.reported_factions(1)
    clan0 = next(c for c in start["clans"] if c.number == 100)
    clan = next(c for c in new["clans"] if c.number == 100)
    moved = next(c for c in new["convoys"] if c.id == convoy.id)
    assert moved.cell != convoy.cell and not moved.hidden
    assert clan.turns_run == 1 and clan.troops > clan0.troops - 5 and clan.fuel > clan0.fuel
    assert next(h for h in new["hexes"] if h.cell == convoy.cell).defense == \
        next(h for h in start["hexes"] if h.cell == convoy.cell).defense + 1
    # maintenance ends with the parts paid and (cc-house) the turn's morale decay
    assert kinds[0] == "cc.income" and "cc.moved" in kinds and kinds[-2:] == ["cc.maintained", "cc.drilled"]
    # only the clan whose turn ran gets a report; the others keep their last one
    assert reported == [100]
    capsys.readouterr()
    assert main(["report", str(db), "--faction", "100", "--turn", "1"]) == EXIT_OK
    text = capsys.readouterr().out
    assert "CLAN 100 Robin's Hood  TURN 1" in text and "bought 200 fuel ($4,000)" in text
    assert f"moved from {'1309'} to" in text and "1309 defence raised to" in text
    for heading in ("STATUS", "Income next turn (estimate)", "CONVOYS", "HEXES", "CITIES",
                    "SPOTTING REPORTS", "HEARD ON THE RADIO"):
        assert heading in text
    assert main(["report", str(db), "--faction", "100", "--turn", "1", "--format", "json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["status"]["fuel"] == clan.fuel and data["convoys"][0]["hex"] != "1309"
    # another clan's report shows none of clan 100's doings
    assert main(["report", str(db), "--faction", "111", "--turn", "0"]) == EXIT_OK
    assert "bought 200 fuel" not in capsys.readouterr().out


def test_the_whole_game_turn_ends_after_the_last_clan(game, capsys):
    d, db, start, _convoy = game
    for f in (111, 122, 133, 144, 155, 166, 177):
        text = (d / "t0" / f"north-america-t000-f{f}-orders.txt").read_text(encoding="utf-8")
        (d / f"c{f}.txt").write_text(text, encoding="utf-8")  # a sheet left blank is a turn too
        assert main(["import", str(db), str(d / f"c{f}.txt")]) == EXIT_OK
    assert main(["run", str(db)]) == EXIT_OK
    with GameService.open(db) as svc:
        steps = svc.steps()[1:]
        info = [json.loads(s.info) for s in steps]
        last = svc.state(len(steps))
        events = svc.events(len(steps)).records
    clans = {c.number: c for c in start["clans"]}
    # the seven turns ran lowest hidden sequence number first
    seven = [s.faction for s in steps[1:]]
    assert seven == sorted(seven, key=lambda f: clans[f].sequence)
    assert [i.get("cycle_end") for i in info] == [None] * 7 + [1]
    assert last["world"][0].game_turn == 2
    ended = [r.event for r in events if r.event.kind == "cc.game_turn_ended"]
    assert len(ended) == 1 and ended[0].game_turn == 1 and ended[0].grown == 8
    assert [r.event.kind for r in events if r.event.kind in ("cc.popularity", "cc.game_won")] == [
        "cc.popularity"]
    pop0 = {c.cell: c.population for c in start["cities"]}
    for c in last["cities"]:
        if c.owner:   # owned cities grew 8-12%; the others stayed as they were
            assert pop0[c.cell] * 108 // 100 <= c.population <= pop0[c.cell] * 112 // 100
        else:
            assert c.population == pop0[c.cell]


def test_a_clans_bundle_holds_what_its_report_tells_and_no_other_clans_secrets(game, tmp_path):
    d, db, start, convoy = game
    assert main(["bundle", str(db), "--faction", "100", "--turn", "1", "--out", str(tmp_path)]) == EXIT_OK
    bundle = next(tmp_path.glob("*"))
    with GameService.open(bundle) as b:
        seen = b.state(b.current_step)
    clans = {c.number: c for c in seen["clans"]}
    assert clans[100].account == "48213" and clans[100].money > 0
    for n, c in clans.items():
        if n != 100:   # others: number, name, popularity; no password, sequence or money
            assert (c.account, c.sequence, c.money, c.fuel) == ("", 0, 0, 0) and c.name
    assert {c.owner for c in seen["convoys"] if c.id > 0} == {100}
    assert {v.convoy for v in seen["vehicles"]} <= {c.id for c in seen["convoys"] if c.owner == 100}
    assert all(h.owner == 100 or any(s.cell == h.cell for s in seen["seen"]) for h in seen["hexes"])
    assert all(m.clan == 100 for m in seen["inbox"])


SCRIPT = """
import sys
from pathlib import Path
from app.cli import main
from tests.test_cc_check import fill_template
d = Path(sys.argv[1])
db = d / "g.db"
assert main(["new", str(db), "--scenario", sys.argv[2], "--seed", "5"]) == 0
assert main(["export", str(db), "--out", str(d / "t0")]) == 0
for f in (100, 111, 122, 133, 144, 155, 166, 177):
    text = (d / "t0" / f"north-america-t000-f{f}-orders.txt").read_text(encoding="utf-8")
    fill = {"pre 1": "BUY 100 FUEL", "pre 2": "ENLIST 30", "c1 1": "PAUSE", "c1 2": "N", "c1 3": "NE",
            "c1 4": "SE", "c1 5": "S", "c1 6": "SW", "post 1": "MESSAGE ALL \\"hello\\""}
    (d / f"c{f}.txt").write_text(fill_template(text, fill), encoding="utf-8")
    # 1: the checker's dry run refuses the blind moves into water, as the turn would
    assert main(["import", str(db), str(d / f"c{f}.txt")]) in (0, 1)
assert main(["run", str(db), "--early", "--now", "2026-03-09T12:00:00Z"]) == 0
for n in range(1, 9):
    assert main(["export", str(db), "--turn", str(n), "--out", str(d / "out" / f"t{n}")]) == 0
"""


def test_same_orders_and_seed_give_the_same_bytes_whatever_the_string_hashing(tmp_path):
    """A whole game turn of eight clans run twice in processes with different PYTHONHASHSEED:
    the same states, events and reports to the byte (no set order leaks into them)."""
    import os
    import subprocess
    import sys

    out = {}
    for seed in ("1", "4242"):
        d = tmp_path / "game"      # the same folder each time: file names appear in reports
        if d.exists():
            import shutil

            shutil.rmtree(d)
        d.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = subprocess.run([sys.executable, "-c", SCRIPT, str(d), str(SCENARIO)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        files = {str(p.relative_to(d)): p.read_bytes() for p in sorted((d / "out").rglob("*")) if p.is_file()}
        with GameService.open(d / "g.db") as svc:
            files["states"] = "\n".join(svc.state_json(n) for n in range(svc.current_step + 1)).encode()
            files["events"] = json.dumps([svc.events(n).to_list() for n in range(1, svc.current_step + 1)]).encode()
        out[seed] = files
    a, b = out["1"], out["4242"]
    assert len(a) > 40 and sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []
