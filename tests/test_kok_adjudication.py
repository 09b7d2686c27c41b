"""King of Kings adjudication beyond single rules: determinism, speed, set-up, robustness."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.map import Site, new_map
from engine.orders import OrderSheet
from engine.ruleset import TurnContext
from engine.rulesets.kok import RULESET as rs
from engine.rulesets.kok import orders_model as om
from engine.rulesets.kok.generate import generate_game
from engine.rulesets.kok.state import Army, Province
from engine.scenario import Faction, Scenario


def _run(scen, state, sheets, seed=1):
    new = state.copy()
    new.step = state.step + 1
    ctx = TurnContext(rs, scen, new, state, sheets, Dice(seed, "turn", new.step))
    rs.run_step(ctx)
    return new, ctx.events


def _sheets(orders):
    return {f: rs.parse_orders(text, f"SP{f}.R1") for f, text in sorted(orders.items())}


def test_phase_table():
    names = [p.name for p in rs.phases()]
    assert names == ["orders", "placement", "sea", "land", "battles", "isolation", "production",
                     "loyalty", "alliances", "end"]


def test_same_seed_same_bytes_other_seed_other_dice():
    scen, orders = generate_game(40, 30, tribes=6, armies=600, seed=5)
    state = rs.initial_state(scen)
    a, ea = _run(scen, state, _sheets(orders), seed=7)
    b, eb = _run(scen, state, _sheets(orders), seed=7)
    assert a.to_json() == b.to_json()
    assert ea.to_list() == eb.to_list()
    assert any(r["kind"] == "kok.battle" for r in ea.to_list())
    c, ec = _run(scen, state, _sheets(orders), seed=8)
    rolls = [r["roll"] for r in ea.to_list() if r["kind"] == "kok.hit_roll"]
    assert rolls != [r["roll"] for r in ec.to_list() if r["kind"] == "kok.hit_roll"]


def test_state_stays_canonical():
    scen, orders = generate_game(40, 30, tribes=6, armies=600, seed=2)
    new, _ = _run(scen, rs.initial_state(scen), _sheets(orders))
    armies = new["armies"]
    keys = [(a.cell, a.tribe) for a in armies]
    assert keys == sorted(keys) and all(a.count > 0 for a in armies)
    assert len({(a.cell, a.tribe, a.troop) for a in armies}) == len(armies)
    cells = [p.cell for p in new["provinces"]]
    assert cells == sorted(cells) and len(set(cells)) == len(cells)


def test_100x100_generated_turn_adjudicates():
    # Speed is measured in benchmarks/test_bench_maps_and_rules.py, never asserted here.
    scen, orders = generate_game()  # 100x100, 20 tribes, 5,000 armies
    state = rs.initial_state(scen)
    new, events = _run(scen, state, _sheets(orders))
    assert len(events) > 1000 and new["armies"]


def test_initial_state_from_factions_sites_and_areas():
    m = new_map("square", 6, 4)
    m.sites[1] = Site(1, m.grid.cell(5, 3), "start", "Keep", {"tribe": 2})
    m.add_area("north", "home", [m.grid.cell(0, 0), m.grid.cell(1, 0)], tribe=3)
    factions = [
        Faction(1, "Gauls", attrs={"provinces": ["2/1", "3/1"], "gold": 50}),
        Faction(2, "Huns"),
        Faction(3, "Picts", attrs={"armies": [{"cell": "0/0", "troop": "H", "count": 2}]}),
    ]
    scen = Scenario("kok", "t", m, rs.default_catalogs(), rs.default_options(), factions)
    s = rs.initial_state(scen)
    owners = {p.cell: (p.owner, p.home, p.loyal) for p in s["provinces"]}
    assert owners == {m.grid.cell(2, 1): (1, 1, 1), m.grid.cell(3, 1): (1, 1, 1),
                      m.grid.cell(5, 3): (2, 2, 2), 0: (3, 3, 3), 1: (3, 3, 3)}
    assert {(a.cell, a.tribe, a.troop, a.count) for a in s["armies"]} == {
        (m.grid.cell(2, 1), 1, "F", 1), (m.grid.cell(3, 1), 1, "F", 1),
        (m.grid.cell(5, 3), 2, "F", 1), (0, 3, "H", 2)}
    assert [(t.number, t.gold) for t in s["tribes"]] == [(1, 50), (2, 30), (3, 30)]
    assert len(s["alliances"]) == 6 and s.one("world").turn == 0
    assert not rs.is_finished(s, scen)


def _small():
    m = new_map("square", 5, 4)
    for c in (3, 4, 8, 9):
        m.set_terrain([c], "sea")
    m.set_terrain([6], "forest")
    scen = Scenario("kok", "t", m, rs.default_catalogs(), rs.default_options(),
                    [Faction(1, "A"), Faction(2, "B")])
    init = rs.new_state(0)
    init.tables["provinces"] = [Province(0, 1), Province(1, 1), Province(5, 1), Province(2, 2),
                                Province(7, 2), Province(12, 2)]
    init.tables["armies"] = [Army(0, 1, "F", 3), Army(1, 1, "H", 2), Army(1, 1, "S", 2),
                             Army(2, 2, "F", 2), Army(2, 2, "C", 1), Army(7, 2, "B", 2),
                             Army(8, 2, "S", 1)]
    scen.initial = init
    return scen, rs.initial_state(scen)


cells = st.integers(-3, 25)
troops = st.sampled_from(["F", "B", "H", "C", "G", "S", "X", "f", ""])
routes = st.lists(st.sampled_from(["N", "E", "S", "W", "Q", ""]), max_size=12)
units = st.dictionaries(troops, st.integers(-2, 50), max_size=4)
orders = st.one_of(
    st.builds(om.Place, items=st.lists(st.tuples(cells, troops), max_size=5)),
    st.builds(om.LandMove, cell=cells, tactic=st.sampled_from([None, "F", "P", "T", "U", "C", "Z"]),
              at=st.booleans(), units=units, route=routes),
    st.builds(om.SeaMove, cell=cells, at=st.booleans(), units=units, route=routes),
    st.builds(om.Defend, items=st.lists(st.tuples(cells, st.sampled_from(["F", "C", "x", ""])), max_size=4)),
    st.builds(om.Ally, other=st.integers(-1, 4), status=st.integers(-2, 7)),
    st.builds(om.Cede, cell=cells, other=st.integers(-1, 4)),
    st.builds(om.Donate, other=st.integers(-1, 4), gold=st.integers(-5, 100)),
    st.builds(om.Build, cell=cells),
    st.builds(om.Name, cell=cells, name=st.text(max_size=60)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(orders, max_size=12), st.lists(orders, max_size=12), st.integers(0, 1000))
def test_any_orders_adjudicate_without_error(o1, o2, seed):
    scen, state = _small()
    width = scen.map.grid.width
    sheets = {}
    for f, os_ in ((1, o1), (2, o2)):
        sheet = OrderSheet(list(os_), source=f"f{f}")
        sheet.header["width"] = width
        sheets[f] = sheet
    new, events = _run(scen, state, sheets, seed)
    assert all(a.count > 0 for a in new["armies"])
    assert all(0 <= a.cell < 20 for a in new["armies"])
    assert all(t.gold >= 0 and t.wood >= 0 for t in new["tribes"])
    for e in events:
        assert e.to_dict()["kind"].startswith("kok.")


def test_off_map_and_unknown_orders_are_reported():
    scen, state = _small()
    sheet = OrderSheet([om.LandMove(line=1, text="LAND 9 9 E", cell=-7, route=["E"]),
                        om.Place(line=2, text="PLA 0 0 ZZ", items=[(0, "Z")]),
                        om.Ally(line=3, text="ALL 9 1", other=9, status=1)], source="x")
    sheet.header["width"] = 5
    _, events = _run(scen, state, {1: sheet})
    kinds = [(e.kind, getattr(e, "line", 0)) for e in events]
    assert ("kok.order_failed", 1) in kinds and ("kok.place_refused", 2) in kinds
    assert ("kok.order_failed", 3) in kinds
