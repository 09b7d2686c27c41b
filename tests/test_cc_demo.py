"""`realmsmith demo --ruleset cc`: eight clans on the North America map play six months of
scripted orders (engine/rulesets/cc/demo.py), one clan late in month 2 and caught up later,
and month 6 brings a convoy battle and a city invasion."""

from __future__ import annotations

import json

import pytest

from app.cli import EXIT_OK, main
from engine import registry
from engine.rulesets.cc.demo import INVADER, LATE_CLAN, MONTHS, RAIDER, SCOUT, WAR
from engine.service import GameService


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    d = tmp_path_factory.mktemp("ccdemo")
    assert main(["demo", "--ruleset", "cc", "--dir", str(d)]) == EXIT_OK
    with GameService.open(d / "cc-demo.db") as svc:
        steps = svc.steps()[1:]
        last = svc.state(len(steps))
        events = [(s, r.event) for s in range(1, len(steps) + 1) for r in svc.events(s).records]
        kinds = [e.kind for _s, e in events]
        # the inbox after each step of month 6's fighting (news wait there for the next report)
        inboxes = {s: svc.state(s)["inbox"] for s, e in events
                   if e.kind in ("cc.convoy_battle_ended", "cc.city_invaded")}
    return d, steps, last, kinds, (events, inboxes)


def test_the_demo_is_eight_clans_and_the_capability_is_set():
    rs = registry.get("cc")
    scen, script = rs.demo()
    assert "demo" in rs.capabilities and len(scen.factions) >= 8
    assert len(script) == len(MONTHS) + 1 and script[len(MONTHS) + 1] == {}
    assert LATE_CLAN not in script[2] and len(script[3][LATE_CLAN]) == 2  # its two sheets


def test_the_game_turns_ran_in_sequence_with_the_late_clan_caught_up(demo):
    _d, steps, last, _kinds, _ = demo
    assert last["world"][0].game_turn == len(MONTHS) + 1
    assert all(c.turns_run == len(MONTHS) for c in last["clans"])
    info = [json.loads(s.info) for s in steps]
    assert [i.get("cycle_end") for i in info if i.get("cycle_end")] == list(range(1, len(MONTHS) + 1))
    # the late clan's turn 2 ran after every other clan's turn 2 (it came a month late), and
    # ended game turn 2; its turn 3 waited a week, so it ran after the others' turn 3
    def at(clan_is_late, turn):
        return [k for k, (s, i) in enumerate(zip(steps, info, strict=True))
                if (s.faction == LATE_CLAN) == clan_is_late and i["turn"] == turn]
    (late2,), (late3,) = at(True, 2), at(True, 3)
    assert late2 > max(at(False, 2)) and info[late2].get("cycle_end") == 2
    assert late3 > max(at(False, 3)) and info[late3].get("cycle_end") == 3


def test_the_clans_captured_traded_and_built(demo):
    _d, _steps, last, kinds, _ = demo
    owned = {}
    for h in last["hexes"]:
        if h.owner:
            owned[h.owner] = owned.get(h.owner, 0) + 1
    assert len(owned) == 8 and sum(owned.values()) > 16  # each started with one hex
    assert {"cc.moved", "cc.hex_taken", "cc.income", "cc.done", "cc.failed"} <= set(kinds)
    assert sum(1 for h in last["hexes"] if h.custom) >= 3  # BUILD of a custom structure
    assert sum(1 for c in last["convoys"] if c.number == 2) >= 6  # the trade convoys


def test_the_reports_of_the_demo_say_what_happened(demo):
    d, *_ = demo
    texts = [p.read_text(encoding="utf-8") for p in sorted((d / "reports").rglob("*-f1*.txt"))
             if not p.name.endswith("orders.txt")]
    joined = "\n".join(texts)
    assert "PICKUP: loaded" in joined and "DROPOFF" in joined and "BUILD: built a" in joined
    assert "moved from" in joined and "did not take" in joined  # failures explained
    # the Plague broke out in a clan's city; month 5's CURE says what it did in every city
    assert "does not have the Plague; no vaccine was used" in joined
    assert "cured St Louis of the Plague for 66 vaccine" in joined


def test_the_demo_is_the_same_every_time(demo):
    d, steps, *_ = demo
    with GameService.open(d / "cc-demo.db") as svc:
        first = svc.state_json(len(steps))
    assert main(["demo", "--ruleset", "cc", "--dir", str(d)]) == EXIT_OK  # replaces it
    with GameService.open(d / "cc-demo.db") as svc:
        assert svc.state_json(svc.current_step) == first


def test_month_6_has_a_convoy_battle_and_a_city_invasion(demo):
    d, steps, last, kinds, (events, inboxes) = demo
    ended = [(s, e) for s, e in events if e.kind == "cc.convoy_battle_ended"]
    assert "cc.convoy_battle" in kinds and ended
    assert {(e.attacker, e.defender) for _s, e in ended} == {(RAIDER, SCOUT)}
    assert all(e.rounds >= 1 for _s, e in ended)  # the patrol forced a round at least
    invaded = [e for _s, e in events if e.kind == "cc.city_invaded"]
    assert [e.attacker for e in invaded] == [INVADER] and invaded[0].rounds > 0 and invaded[0].captured
    assert {c.owner for c in last["cities"] if c.cell == invaded[0].cell} == {INVADER}
    # every order of the fighting clans' month-6 sheets was carried out (no refusals)
    war_turn = {k for k, st in enumerate(steps, 1) if st.faction in WAR and json.loads(st.info)["turn"] == 6}
    assert len(war_turn) == len(WAR) == 3  # their month-6 turns
    assert not [e for s, e in events if s in war_turn and e.kind == "cc.failed"]
    late = [(k, st.faction) for k, st in enumerate(steps, 1) if json.loads(st.info)["turn"] >= 6]
    reports = [p for k, clan in late for p in (d / "reports").glob(f"turn-{k:03d}/*-t{k:03d}-f{clan}.txt")]
    assert len(reports) == len(late) == 2 * 8  # two months of eight clans
    assert not [p for p in reports if "ORDERS NOT ACCEPTED" in p.read_text(encoding="utf-8")]
    # the battle went out on the radio: the clan that did not drive in heard it in its inbox
    (s, battle), = ended
    heard = [m for m in inboxes[s] if m.kind == "battle" and m.cell == battle.cell]
    assert SCOUT in {m.clan for m in heard}
    assert f"clan {RAIDER} and clan {SCOUT}" in heard[0].text
    # and its month-7 report lists it under "Heard on the Radio"
    texts = [p.read_text(encoding="utf-8") for p in sorted((d / "reports").rglob(f"*-f{SCOUT}.txt"))]
    assert any(heard[0].text in t.partition("HEARD ON THE RADIO")[2] for t in texts)
