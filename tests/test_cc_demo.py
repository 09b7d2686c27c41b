"""`realmsmith demo --ruleset cc`: eight clans on the North America map play eight months of
scripted orders (engine/rulesets/cc/demo.py), one clan late in month 2 and caught up later;
months 6 and 7 bring war: a city taken, a failed invasion, a HUNT and an attack on another
clan's city, a convoy battle heard on the radio by a third clan. No report, page or bundle
names a convoy by its game-wide id."""

from __future__ import annotations

import json
import re

import pytest

from app.cli import EXIT_OK, main
from engine import registry
from engine.rulesets.cc.demo import (
    BASTION,
    DEFENDER,
    HUNTER,
    INVADER,
    LATE_CLAN,
    LISTENER,
    MONTHS,
    PATROL,
    RAIDER,
    WAR,
)
from engine.service import GameService


@pytest.fixture(scope="module")
def demo(demo_games):
    d = demo_games.copy("cc")  # `realmsmith demo --ruleset cc`, played once a session
    with GameService.open(d / "cc-demo.db") as svc:
        steps = svc.steps()[1:]
        last = svc.state(len(steps))
        events = [(s, r.event) for s in range(1, len(steps) + 1) for r in svc.events(s).records]
        kinds = [e.kind for _s, e in events]
        # the inbox after each step of month 6's fighting (news wait there for the next report)
        inboxes = {s: svc.state(s)["inbox"] for s, e in events
                   if e.kind in ("cc.convoy_battle_ended", "cc.city_invaded")}
        inboxes |= {s: svc.state(s)["inbox"] for s in range(1, len(steps) + 1)
                    if steps[s - 1].faction == LISTENER}
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


def _war_turns(steps) -> set[int]:
    return {k for k, st in enumerate(steps, 1) if json.loads(st.info)["turn"] >= 6}


def test_the_war_months_carry_out_every_order(demo):
    d, steps, _last, _kinds, (events, _inboxes) = demo
    war = _war_turns(steps)
    assert len(war) == 3 * 8  # months 6, 7 and 8 of eight clans
    assert not [(s, e) for s, e in events if s in war and e.kind in ("cc.failed", "cc.not_built")]
    reports = [p for k in war for p in (d / "reports").glob(f"turn-{k:03d}/*-t{k:03d}-f{steps[k - 1].faction}.txt")]
    assert len(reports) == len(war)
    assert not [p for p in reports if "ORDERS NOT ACCEPTED" in p.read_text(encoding="utf-8")]
    assert {st.faction for k, st in enumerate(steps, 1) if k in war and st.faction in WAR} == set(WAR)


def test_a_city_is_taken_and_a_neutral_fortress_holds(demo):
    _d, _steps, last, _kinds, (events, _) = demo
    invaded = [e for _s, e in events if e.kind == "cc.city_invaded"]
    taken = [e for e in invaded if e.attacker == INVADER]
    assert len(taken) == 1 and taken[0].captured and taken[0].rounds > 0
    assert {c.owner for c in last["cities"] if c.cell == taken[0].cell} == {INVADER}
    # the failed invasion: the neutral city holds and turns hostile to the attacker's clan
    held = [e for e in invaded if e.attacker == PATROL]
    seattle = next(c for c in last["cities"] if c.name.upper() == "SEATTLE")
    assert [(e.cell, e.captured, e.defender) for e in held] == [(seattle.cell, False, 0)]
    assert seattle.owner == 0 and (seattle.cell, PATROL) in {(h.cell, h.clan) for h in last["hostile"]}
    assert BASTION == "1311"


def test_a_hunt_finds_the_hidden_convoy_and_the_clans_city_throws_the_hunter_back(demo):
    _d, _steps, last, _kinds, (events, _) = demo
    hunts = [(s, e) for s, e in events if e.kind == "cc.convoy_battle" and e.hunt]
    assert [(e.attacker, e.defender) for _s, e in hunts] == [(HUNTER, DEFENDER)]
    (s, hunt), = hunts
    # the hunted convoy was created that game turn's month before: hidden until it moves
    names = {(clan, n) for _c, clan, n in hunt.names}
    assert (DEFENDER, 3) in names
    attack = [e for t, e in events if t == s and e.kind == "cc.city_invaded"]
    assert [(e.attacker, e.defender, e.captured) for e in attack] == [(HUNTER, DEFENDER, False)]
    city = next(c for c in last["cities"] if c.cell == attack[0].cell)
    assert city.owner == DEFENDER and (city.cell, HUNTER) in {(h.cell, h.clan) for h in last["hostile"]}


def test_a_battle_next_to_a_third_clans_city_is_heard_on_its_radio(demo):
    d, steps, _last, _kinds, (events, inboxes) = demo
    battles = [(s, e) for s, e in events if e.kind == "cc.convoy_battle_ended"
               and {e.attacker, e.defender} == {PATROL, RAIDER}]
    assert battles and all(e.rounds >= 1 for _s, e in battles)  # the patrol forced a round
    (s, first), *_ = battles
    began = next(e for t, e in events if t == s and e.kind == "cc.convoy_battle")
    assert (began.attacker, began.defender, began.surprise) == (RAIDER, PATROL, True)
    assert LISTENER not in (first.attacker, first.defender)
    heard = [m for k, box in inboxes.items() if k > s for m in box
             if m.clan == LISTENER and m.kind == "battle" and m.cell == first.cell]
    assert heard and f"clan {RAIDER} and clan {PATROL}" in heard[0].text
    texts = [p.read_text(encoding="utf-8") for p in sorted((d / "reports").rglob(f"*-f{LISTENER}.txt"))]
    assert any(heard[0].text in t.partition("HEARD ON THE RADIO")[2] for t in texts)


# "convoy 8", "convoy_id": the game-wide id; "convoy #1" is the clan's own number
_ID = re.compile(r"\bconvoys? (\d+)\b|convoy_id", re.IGNORECASE)


def test_no_report_page_or_bundle_names_a_convoy_by_its_id(demo, tmp_path):
    from engine.bundle import open_bundle, write_bundle
    from engine.rulesets.cc.combat.events import CONVOY_FIELDS

    d, steps, _last, _kinds, (events, _) = demo
    war = sorted(_war_turns(steps))
    files = [p for k in war for p in (d / "reports").glob(f"turn-{k:03d}/*-f*.*")]
    assert {p.suffix for p in files} >= {".txt", ".html", ".json"}
    for p in files:
        text = p.read_text(encoding="utf-8")
        assert not _ID.search(text), (p.name, _ID.search(text).group(0))
    assert any("Convoy #1 of clan" in p.read_text(encoding="utf-8") for p in files)
    # the bundles of the fighting turns: own convoys keyed by number, spotted ones by -1,
    # -2...; the combat events' convoy fields hold only references local to each event (the
    # other events' `convoy` is the clan's own number already)
    fights = sorted({s for s, e in events if e.kind in ("cc.convoy_battle", "cc.city_invaded")})
    checked = 0
    with GameService.open(d / "cc-demo.db") as svc:
        for s in fights:
            for who in {e.attacker for t, e in events if t == s and e.kind.startswith("cc.")
                        and getattr(e, "attacker", 0)} | {steps[s - 1].faction}:
                b = open_bundle(write_bundle(svc, who, tmp_path / f"s{s}-f{who}.rsbundle", step=s))
                mine = [c for c in b.state["convoys"] if c.owner == who and c.number]
                assert mine and all(c.id == c.number for c in mine)
                spotted = [c.id for c in b.state["convoys"] if c not in mine]
                assert sorted(spotted, reverse=True) == list(range(-1, -len(spotted) - 1, -1))
                assert {v.convoy for v in b.state["vehicles"]} <= {c.id for c in mine}
                assert {m.convoy for m in b.state["turn_marks"]} <= {0} | {c.id for c in mine}
                for r in b.events.records:
                    if not hasattr(r.event, "names"):
                        continue
                    for f in CONVOY_FIELDS:
                        v = getattr(r.event, f, None)
                        for x in v if isinstance(v, tuple) else (v,):
                            assert x is None or x <= 0, (s, who, r.event.kind, f, x)
                            checked += x is not None and x < 0
    assert checked  # the bundles did hold combat events naming convoys
