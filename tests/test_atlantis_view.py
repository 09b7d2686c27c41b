"""Atlantis on the maps and in the viewer: the political map (engine.political's hook), a
faction's view of the demo, order completion, MOVE and SAIL lines from a drawn path, and
the six-faction demo itself (events by type)."""

from collections import Counter, defaultdict

import pytest

from engine import orderdraft as od
from engine import registry
from engine.political import political_map
from engine.rulesets.atlantis import drafting
from engine.service import GameService
from engine.viewer_model import from_service, turn_units

RS = registry.get("atlantis")


@pytest.fixture(scope="module")
def demo_db(demo_games):
    return demo_games.db("atlantis")  # `realmsmith demo --ruleset atlantis`, once a session


@pytest.fixture
def svc(demo_db):
    s = GameService.open(demo_db)
    yield s
    s.close()


SIX = 6  # the months every tree plays; later ones depend on what the turn carries out


def test_demo_is_six_factions_and_six_months_of_economy_teaching_and_building(svc):
    assert len(svc.scenario.factions) == 6
    assert svc.current_step >= SIX
    seen = Counter(e.kind for step in range(1, SIX + 1) for e in svc.events(step))
    for kind in ("atlantis.claimed", "atlantis.formed", "atlantis.bought", "atlantis.given",
                 "atlantis.studied", "atlantis.taught", "atlantis.taxed", "atlantis.produced",
                 "atlantis.earned", "atlantis.built", "atlantis.maintained"):
        assert seen[kind] > 0, kind
    assert seen["atlantis.failed"] == 0  # every scripted order was carried out
    built = [e for s in range(1, SIX + 1) for e in svc.events(s)
             if e.kind == "atlantis.built" and e.finished]
    assert {e.object for e in built} == {"tower", "longboat"}
    st = svc.state(SIX)
    ship = next(x for x in st["structures"] if x.kind == "longboat")
    assert ship.name == "Sea Sparrow"
    # faction 4 sent no orders in month 1: its unit worked (the server's custom)
    assert any(e.kind == "atlantis.earned" and e.faction == 4 for e in svc.events(1))


def test_political_map_colours_holders_and_counts_every_man(svc):
    st = svc.state(SIX)
    pm = political_map(svc.ruleset, svc.scenario, st)
    want: dict = defaultdict(int)
    for u in st["units"]:
        want[(u.cell, u.faction)] += u.men
    assert {(s.cell, s.owner): s.count for s in pm.stacks} == dict(want)
    assert all(s.kind == "men" for s in pm.stacks)
    colours = [pm.colour(f.number) for f in svc.scenario.factions]
    assert len(set(colours)) == 6 and "#888888" not in colours
    # every region with units is held by the faction with the most men there (no guards
    # stand alone in the demo's regions)
    for cell, owner in pm.owners.items():
        here = {f: n for (c, f), n in want.items() if c == cell}
        guards = {u.faction for u in st["units"] if u.cell == cell and u.guard}
        assert owner in guards or here[owner] == max(here.values())


def test_a_guard_holds_the_region_against_more_men(svc):
    st = svc.state(SIX)
    vex = next(u for u in st["units"] if u.number == 6)
    assert vex.guard  # GUARD 1 in month 3
    cell = vex.cell
    big = next(u for u in st["units"] if u.faction == 1 and u.men == 6)
    big.cell = cell
    big.men = 500
    pm = political_map(svc.ruleset, svc.scenario, st)
    assert pm.owners[cell] == 6


def test_a_factions_view_holds_only_what_it_sees(svc):
    full = svc.state(SIX)
    tv = from_service(svc, 1, SIX)
    seen = RS.visible_state(full, 1, svc.scenario)
    rows = turn_units(tv)
    assert {r.unit for r in rows} == {u.number for u in seen["units"]}
    assert {r.unit for r in rows if r.own} == {u.number for u in full["units"] if u.faction == 1}
    # The Whisper (4) stands in Merlin's region unseen (Stealth 2 > Observation 1); the
    # Watchers (17) there are seen; the Iron Legion in the forest next door is not (no
    # unit of faction 1 is there), nor anything of the other islands
    here = {r.unit for r in rows if r.cell == next(u.cell for u in full["units"] if u.number == 1)}
    assert 4 not in here and 17 in here
    assert {r.owner for r in rows} <= {0, 1, 4}
    assert not {u.number for u in full["units"] if u.faction == 6} & {r.unit for r in rows}
    pm = political_map(RS, tv.scenario, tv.state)
    assert set(pm.owners.values()) == {1}


def test_completion_offers_what_the_order_takes_there(svc):
    st, scen = svc.state(SIX), svc.scenario

    def words(line):
        return drafting.completions(st, 1, scen, line)

    assert words("") is None and words("STU") is None  # the order words
    study = words("STUDY li")
    assert "lightning_bolt" in study and "LIGH" in study and "combat" in study
    assert words("unit ") == ["1", "7", "8"]
    assert {"N", "NE", "SE", "S", "SW", "NW", "IN", "OUT"} <= set(words("MOVE N "))
    give = words("GIVE 7 10 ")
    assert "chain_armor" in give and "CARM" in give and "UNIT" in give
    assert "15" in words("GIVE ")  # any unit of the game may be given to
    assert words("BUY 5 ") and "sword" in words("BUY 5 ") and words("BUY ") == []
    assert "create_staff_of_light" in words("CAST ")
    assert "ALLY" in words("DECLARE 3 ")
    assert od.order_completions(RS, st, 1, scen, "STUDY ") == study
    # what completion writes, the parser reads
    sheet = RS.parse_orders("#atlantis 1\nunit 1\nSTUDY lightning_bolt\nGIVE 7 1 CARM\n#end\n")
    assert not [d for d in sheet.diagnostics if d.severity == "error"]


def test_a_drawn_path_becomes_the_units_move_in_its_own_orders(svc):
    st, scen = svc.state(SIX), svc.scenario
    grid = scen.map.grid
    vex = next(u for u in st["units"] if u.number == 6)
    terr = scen.catalogs["terrains"].by("name")
    land = [d for d in drafting.STEPS
            if (c := grid.step(vex.cell, d)) is not None and not terr[scen.map.terrain_at(c)]["ocean"]]
    d = land[0]
    path = [vex.cell, grid.step(vex.cell, d)]
    assert od.move_order(RS, st, 6, scen, path, 6) == f"MOVE {d}"
    with pytest.raises(ValueError, match="several of your units"):
        od.move_order(RS, st, 6, scen, path)
    text = "#atlantis 6\n\nunit 6\nWORK\n\nunit 15\nWORK\n\n#end\n"
    out, at = od.place_order(RS, text, f"MOVE {d}", 6)
    assert out.split("\n")[at - 1] == f"MOVE {d}"
    assert out.index(f"MOVE {d}") < out.index("unit 15")
    again, at2 = od.place_order(RS, out, "MOVE N N", 6)  # a second path replaces the first
    assert again.count("MOVE") == 1 and again.split("\n")[at2 - 1] == "MOVE N N"
    new, at3 = od.place_order(RS, text, "MOVE S", 16)  # a unit without orders yet
    assert new.split("\n")[at3 - 2:at3] == ["unit 16", "MOVE S"]
    assert new.rstrip().endswith("#end")
    # the route of the move as written is drawn from the unit's region
    sheet = RS.parse_orders(f"#atlantis 6\nunit 6\nMOVE {d}\n#end\n")
    assert RS.order_paths(sheet, st, 6, scen) == [(3, path)]
    # walking: the range pays each region's entry cost; ocean is closed
    budget, cost = RS.move_range(st, 6, scen, vex.cell, unit=6)
    assert budget == 4  # Vex rides: he has a horse
    assert cost(vex.cell, path[1]) == terr[scen.map.terrain_at(path[1])]["move_cost"]


def test_the_owner_of_a_ship_sails(svc):
    st, scen = svc.state(SIX), svc.scenario
    grid = scen.map.grid
    ship = next(x for x in st["structures"] if x.kind == "longboat")
    owner = min((u for u in st["units"] if u.structure == ship.number), key=lambda u: u.seq)
    terr = scen.catalogs["terrains"].by("name")
    sea = next(d for d in drafting.STEPS
               if (c := grid.step(ship.cell, d)) is not None and terr[scen.map.terrain_at(c)]["ocean"])
    second = grid.step(ship.cell, sea)
    path = [ship.cell, second, grid.step(second, sea)]
    assert drafting.ship_owned(st, scen, owner.number) == ship.number
    assert od.move_order(RS, st, 5, scen, path, owner.number) == f"SAIL {sea} {sea}"
    assert any("SAIL" in label for _n, label in od.movers(RS, st, 5, scen, ship.cell))
    passenger = next(u for u in st["units"] if u.structure == ship.number and u is not owner)
    assert drafting.ship_owned(st, scen, passenger.number) == 0


def test_charts_measure_men_units_regions_and_silver(svc):
    st = svc.state(SIX)
    sm = RS.summary(st, svc.scenario)
    assert set(sm) == {1, 2, 3, 4, 5, 6}
    for f in sm:
        units = [u for u in st["units"] if u.faction == f]
        assert sm[f]["men"] == sum(u.men for u in units) and sm[f]["units"] == len(units)
        silver = sum(r.count for r in st["unit_items"] if r.item == "silver"
                     and r.unit in {u.number for u in units})
        unclaimed = next(x.unclaimed for x in st["factions"] if x.number == f)
        assert sm[f]["silver"] == silver + unclaimed
    assert sm[6]["regions held"] == 1 and sm[6]["men"] == 21


def test_the_demo_plays_every_later_month_the_turn_carries_out(svc):
    from engine.rulesets.atlantis import demo

    months = demo.script()
    assert svc.current_step == max(months) >= 6
    built = demo.built_phases()
    for m in sorted(demo.LATER):  # a month is played when it and every one before can be
        assert (m in months) == all(demo.LATER[k][0] <= built for k in demo.LATER if k <= m)


def _events(svc, month, kind):
    return [e for e in svc.events(month) if e.kind == kind]


def test_the_demo_sails_fights_for_spoils_steals_and_casts(svc):
    """The LATER months, as far as the turn in this tree plays them (docs/atlantis.md)."""
    from engine.rulesets.atlantis import demo

    months = demo.script()
    for m in months:  # every order of every month played was carried out
        assert not _events(svc, m, "atlantis.failed") and not _events(svc, m, "atlantis.not_built")
    if 7 not in months:
        pytest.skip("movement is not built in this tree: the demo stops at month 6")
    assert len(_events(svc, 7, "atlantis.sailed")) == 4  # four hexes of ocean
    assert any(e.unit == 15 for e in _events(svc, 7, "atlantis.moved"))
    if 8 not in months:
        pytest.skip("combat is not built in this tree: the demo stops at month 7")
    battle = _events(svc, 8, "atlantis.battle")
    assert battle
    lines = [ln for e in battle for ln in e.lines]
    assert any(ln.startswith("Spoils:") for ln in lines)
    assert any("casts Lightning Bolt" in ln for ln in lines)  # a combat spell
    assert _events(svc, 8, "atlantis.sailed")  # landed on the central island
    if 9 not in months:
        pytest.skip("stealing is not built in this tree: the demo stops at month 8")
    assert _events(svc, 9, "atlantis.stole") and _events(svc, 9, "atlantis.robbed")
    # the thief was not seen: Merlin's faction does not see it in his region
    assert 4 not in {u.number for u in RS.visible_state(svc.state(9), 1, svc.scenario)["units"]}
    if 10 not in months:
        pytest.skip("magic is not built in this tree: the demo stops at month 9")
    assert _events(svc, 10, "atlantis.cast")  # an item-creating CAST
    # an automatic spell: Invisibility hides Merlin from the Iron Legion's men beside him
    st = svc.state(10)
    merlin = next(u for u in st["units"] if u.number == 1)
    assert any(u.faction == 6 and u.cell == merlin.cell for u in st["units"])
    assert 1 not in {u.number for u in RS.visible_state(st, 6, svc.scenario)["units"]}


def test_the_viewers_regions_name_their_area(svc):
    from engine.viewer_model import turn_regions

    tv = from_service(svc, 1, SIX)
    rows = turn_regions(tv)
    merlin = next(u.cell for u in svc.state(SIX)["units"] if u.number == 1)
    assert rows[merlin].name == svc.scenario.map.area_of(merlin).name
    assert rows[merlin].owner == 1 and rows[merlin].units == 8 + 3  # and the Watchers seen
    assert set(rows) == set(tv.visible)  # every region the faction sees, and only those
