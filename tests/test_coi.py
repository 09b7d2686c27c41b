"""Conquest of Island: the clock, the post reader, the demo game, determinism and re-import."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.ruleset import Submission, TurnModel
from engine.rulesets.coi import actions as A
from engine.rulesets.coi.catalog import Rules, default_catalogs
from engine.rulesets.coi.clock import ap_at, hours_between
from engine.rulesets.coi.session import import_posts
from engine.threads import read_thread

RS = registry.get("coi")
NAMES = Rules.from_catalogs(default_catalogs()).unit_names()


def demo():
    scen, orders = RS.demo()
    posts = read_thread(scen.meta["demo_thread"])
    return scen, orders, posts


# ---- declarations ----------------------------------------------------------------------

def test_declarations():
    assert RS.turn_model == TurnModel.REALTIME
    assert "bbcode" in RS.report_formats
    cats = RS.default_catalogs()
    assert len(cats["units"]) == 18 and len(cats["terrains"]) == 7 and len(cats["buildings"]) == 3
    units = cats["units"].by("id")
    assert (units["halberdier"]["iron"], units["halberdier"]["attack"]) == (64, 5)
    assert units["galleon"]["oceanfaring"] and units["transport"]["convoyed"]
    assert units["supply_ship"]["convoyed"] and units["catapult"]["slow"]
    assert units["rough_rider"]["desert_survival"] and units["native_archer"]["ambush"]


# ---- the clock -----------------------------------------------------------------------------

def test_hours_on_the_hour():
    assert hours_between("2026-11-20T10:30:00Z", "2026-11-20T10:59:59Z") == 0
    assert hours_between("2026-11-20T10:30:00Z", "2026-11-20T11:00:00Z") == 1
    assert hours_between("2026-11-20T10:00:00Z", "2026-11-20T11:00:00Z") == 1
    assert hours_between("2026-11-20T23:59:00Z", "2026-11-22T00:01:00Z") == 25
    assert hours_between("2026-11-20T12:00:00Z", "2026-11-20T11:00:00Z") == 0


def test_ap_cap():
    assert ap_at(10, "2026-11-20T10:00:00Z", "2026-11-20T15:00:00Z", 30) == 15
    assert ap_at(10, "2026-11-20T10:00:00Z", "2026-11-23T10:00:00Z", 30) == 30
    assert ap_at(31, "2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z", 30) == 31


# ---- the post reader -------------------------------------------------------------------------

def test_reader_examples():
    sheet = A.read_post("Hello!\n- Move 3 swordsmen and a knight from 4,5 to 5,5\n"
                        "I'll attack 5,6 from 5,5 with 2 knights and 3 archers, losses: archers first\n"
                        "Harvest (1 AP); Build fort at 4,5\nRecruit 2 men-at-arms at (4,5)\n"
                        "Offer 10 wood for 5 ore to Bob\nAP: 12\nMove knights", NAMES)
    kinds = [type(o).__name__ for o in sheet.orders]
    assert kinds == ["Move", "Attack", "Harvest", "Build", "Recruit", "OfferTrade"]
    move, attack = sheet.orders[0], sheet.orders[1]
    assert move.units == [("swordsman", 3), ("knight", 1)] and move.frm == (4, 5) and move.to == (5, 5)
    assert attack.losses == ["archer"] and attack.to == (5, 6)
    assert sheet.orders[4].units == [("man_at_arms", 2)]
    assert sheet.orders[5].want == {"iron": 5} and sheet.orders[5].only_to == ["Bob"]
    assert sheet.header["ap_claim"] == 12
    kinds = {(d.line, d.severity.value) for d in sheet.diagnostics}
    assert kinds == {(1, "info"), (8, "error")}


def test_reader_ignores_quotes():
    sheet = A.read_post("[quote=Bob]Move 3 swordsmen from 1,1 to 1,2\nHarvest[/quote]\nHarvest", NAMES)
    assert [type(o).__name__ for o in sheet.orders] == ["Harvest"]
    assert sheet.orders[0].line == 3


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_reader_never_raises(text):
    sheet = A.read_post(text, NAMES)
    for o in sheet.orders:
        assert o.line >= 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Move", "Attack", "all", "3", "swordsmen", "from", "to", "4,5",
                                 "with", "losses:", "first", "Split", "hexes", "Offer", "for",
                                 "wood", "Accept", "Bob's", "offer", ";", "x", "Send", "at"]),
                max_size=14))
def test_reader_never_raises_on_near_orders(words):
    A.read_post(" ".join(words), NAMES)


# ---- starting position ----------------------------------------------------------------------

def test_starting_position():
    scen, _, _ = demo()
    state = RS.initial_state(scen)
    g = scen.map.grid
    assert len(state["players"]) == 4
    for p in state["players"]:
        assert (p.ap, p.food, p.wood, p.iron) == (10, 35, 35, 35)
        port = [h for h in state["hexes"] if h.owner == p.number]
        assert len(port) == 1 and port[0].building == "port"
        assert any(scen.map.terrain_at(n) == "shallow" for n in g.neighbours(port[0].cell))
        ships = {s.unit: s.count for s in state["units"] if s.owner == p.number}
        assert ships == {"barque": 1, "transport": 3, "swordsman": 3}
        cells = {s.cell for s in state["units"] if s.owner == p.number}
        assert len(cells) == 1 and scen.map.terrain_at(cells.pop()) == "shallow"
    assert state.one("game").gm == "IslandGM" and not state.one("game").started_at


def test_demo_map_has_every_terrain():
    scen, _, _ = demo()
    assert set(scen.map.terrain_names()) == {"desert", "mountain", "forest", "field", "ruin", "deep",
                                            "shallow"}


# ---- the demo game ---------------------------------------------------------------------------

def test_demo_thread_runs():
    scen, orders, posts = demo()
    assert orders == {} and len(posts) >= 30
    state = RS.initial_state(scen)
    new, events, diags = import_posts(RS, scen, state, posts)
    kinds = {e.kind for e in events}
    for k in ("coi_game_started", "coi_moved", "coi_battle", "coi_harvested", "coi_built",
              "coi_recruited", "coi_trade_offered", "coi_trade_accepted", "coi_trade_rescinded",
              "coi_alliance_declared", "coi_split", "coi_expedition", "coi_post_edited",
              "coi_units_destroyed", "coi_action_ignored", "coi_end_voted", "coi_ap_claim"):
        assert k in kinds, k
    assert len(new["players"]) == 5  # the split added notquitethere
    report = RS.report(new, events, None, scen, diags)
    for fmt in RS.report_formats:
        out = RS.render(report, fmt)
        assert "scapheap" in out and len(out) > 500
    bb = RS.render(report, "bbcode")
    assert bb.count("[list]") == bb.count("[/list]") and "[code]" in bb
    assert "<table>" in RS.render(report, "html")


def test_step_is_deterministic_and_reimport_is_idempotent():
    scen, _, posts = demo()
    state = RS.initial_state(scen)
    a, ev_a, _ = import_posts(RS, scen, state, posts)
    b, ev_b, _ = import_posts(RS, scen, state, posts)
    assert a.to_json() == b.to_json()
    assert ev_a.to_list() == ev_b.to_list()
    # the same thread imported again: nothing changes but the step
    again, ev, diags = import_posts(RS, scen, a, posts)
    assert {e.kind for e in ev} == {"coi_post_skipped"}
    a2 = a.copy()
    a2.step = again.step
    assert again.to_json() == a2.to_json()


def test_reimport_of_an_edited_post_is_flagged_not_applied():
    scen, _, posts = demo()
    state, _, _ = import_posts(RS, scen, RS.initial_state(scen), posts)
    edited = [Submission(p.text + ("\nHarvest\nHarvest" if p.meta["post_id"] == "128" else ""),
                         p.source_kind, p.source_name, p.sender, received_at=p.received_at,
                         meta=dict(p.meta)) for p in posts]
    after, ev, diags = import_posts(RS, scen, state, edited)
    flagged = [e for e in ev if e.kind == "coi_post_edited"]
    assert [(e.post, e.applied) for e in flagged] == [("128", False)]
    assert any(d.file == "post 128" and "edited" in d.message for d in diags)
    state2 = state.copy()
    state2.step = after.step
    assert after.to_json() == state2.to_json()


def test_new_posts_in_a_second_import():
    scen, _, posts = demo()
    first, second = posts[:15], posts[15:]
    s1, _, _ = import_posts(RS, scen, RS.initial_state(scen), first)
    s2, _, _ = import_posts(RS, scen, s1, first + second)   # the service may resend old posts
    whole, _, _ = import_posts(RS, scen, RS.initial_state(scen), posts)
    s2.step = whole.step
    assert s2.to_json() == whole.to_json()


def test_summary():
    scen, _, posts = demo()
    s, _, _ = import_posts(RS, scen, RS.initial_state(scen), posts)
    summ = RS.summary(s, scen)
    assert set(summ) == {1, 2, 3, 4, 5} and all(v["hexes"] >= 1 for v in summ.values())


def test_check_tries_a_draft_without_changing_the_state():
    from engine.casefile import build_scenario, load_case

    _, scen = build_scenario(load_case("tests/cases/coi/move.toml"))
    state = RS.initial_state(scen)
    before = state.to_json()
    sheet = RS.parse_orders("Move 2 swordsmen from 0,0 to 1,0\nMove 3 swordsmen from 0,0 to 1,0\n"
                            "Build fort at 0,0", "draft")
    diags = RS.check(sheet, state, 1, scen)
    assert [(d.line, d.kind) for d in diags] == [(2, "illegal"), (3, "illegal")]
    assert "lacks 50 wood" in diags[1].message
    assert state.to_json() == before


# ---- any sequence of posts keeps the island consistent -----------------------------------------

_COORDS = st.tuples(st.integers(0, 15), st.integers(0, 11)).map(lambda c: f"{c[0]},{c[1]}")
_UNITS = st.sampled_from(["swordsmen", "militia", "transports", "barque", "knights", "all",
                          "catapult", "galleys", "rough riders"])
_LINE = st.one_of(
    st.just("Harvest"),
    st.builds(lambda n, u, a, b: f"Move {n} {u} from {a} to {b}", st.integers(1, 4), _UNITS, _COORDS, _COORDS),
    st.builds(lambda n, u, a, b: f"Attack {b} from {a} with {n} {u}, losses: militia first",
              st.integers(1, 4), _UNITS, _COORDS, _COORDS),
    st.builds(lambda b, a: f"Build {b} at {a}", st.sampled_from(["fort", "port", "recruitment centre"]), _COORDS),
    st.builds(lambda n, u, a: f"Recruit {n} {u} at {a}", st.integers(1, 3), _UNITS, _COORDS),
    st.builds(lambda n, g, m, h, who: f"Offer {n} {g} for {m} {h} to {who}", st.integers(1, 40),
              st.sampled_from(["food", "wood", "iron"]), st.integers(1, 40),
              st.sampled_from(["food", "wood", "iron"]), st.sampled_from(["GWG", "kj1225", "Remuthra"])),
    st.builds(lambda k: f"Accept trade {k}", st.integers(1, 4)),
    st.builds(lambda who: f"Declare alliance with {who}", st.sampled_from(["GWG", "kj1225", "scapheap"])),
    st.builds(lambda who: f"Break alliance with {who}", st.sampled_from(["GWG", "kj1225", "scapheap"])),
    st.builds(lambda a, who: f"Send all at {a} to {who}", _COORDS, st.sampled_from(["GWG", "kj1225"])),
    st.builds(lambda who, a: f"Split to {who}: hexes {a}; 5 food", st.sampled_from(["newbie", "GWG"]), _COORDS),
    st.text(max_size=20),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["scapheap", "GWG", "Remuthra", "kj1225"]),
                          st.lists(_LINE, min_size=1, max_size=4)), min_size=1, max_size=12))
def test_random_posts_keep_the_island_consistent(posts):
    scen, _, thread = demo()
    state, _, _ = import_posts(RS, scen, RS.initial_state(scen), thread[:12])
    subs = [Submission("\n".join(lines), "post", f"h#{i}", who,
                       received_at=f"2026-11-21T{10 + i // 4:02d}:{(i * 7) % 60:02d}:00Z",
                       meta={"post_id": str(900 + i)})
            for i, (who, lines) in enumerate(posts)]
    new, _, _ = import_posts(RS, scen, state, subs)
    units = RS.default_catalogs()["units"].by("id")
    for p in new["players"]:
        assert 0 <= p.ap <= 30 and min(p.food, p.wood, p.iron) >= 0
    for s in new["units"]:
        assert s.count > 0
        water = scen.map.terrain_at(s.cell) in ("shallow", "deep")
        assert water or not units[s.unit]["ship"], "a ship on land"
    for cell in {s.cell for s in new["units"]}:
        if scen.map.terrain_at(cell) in ("shallow", "deep"):
            for owner in {s.owner for s in new["units"] if s.cell == cell}:
                mine = [s for s in new["units"] if s.cell == cell and s.owner == owner]
                room = sum(s.count for s in mine if units[s.unit]["transport"])
                assert sum(s.count for s in mine if not units[s.unit]["ship"]) <= room
    for h in new["hexes"]:
        assert scen.map.terrain_at(h.cell) not in ("shallow", "deep") or not h.owner


def test_demo_map_is_generated_deterministically():
    import importlib.util

    from engine.mapfile import load_map

    spec = importlib.util.spec_from_file_location("coi_make_map", "maps/coi/make_map.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.build().to_dict() == load_map("maps/coi/island.rsmap").to_dict()
