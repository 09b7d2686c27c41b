"""Continental Conquest catalogs, options and state schema: they load, hang together, and
the figures in resources/cc/ are the rule book's (checked against the book's own text,
whitespace removed). The worked examples are in test_cc_formulas.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rulesets.cc import RULESET, NotBuiltYet
from engine.rulesets.cc.catalog import SPECS, check_catalogs, default_catalogs
from engine.rulesets.cc.state import SCHEMA, Convoy, Vehicle
from engine.state import State
from engine.tables import Options

BOOK_NAME = "continental-conquest-5.0.txt"


def _book() -> str | None:
    """The rule book, beside the repository as in CI (../shared) or in the workshop."""
    here = Path(__file__).resolve()
    for base in [*here.parents, Path("/work")]:
        p = base / "shared" / "rulebooks" / BOOK_NAME
        if p.is_file():
            return p.read_text(encoding="utf-8")
    return None


BOOK = _book()
needs_book = pytest.mark.skipif(BOOK is None, reason=f"the rule book {BOOK_NAME} is not beside the repository")


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def cats():
    return default_catalogs()


@pytest.fixture(scope="module")
def book() -> str:
    return squeeze(BOOK or "")


def rng(lo: int, hi: int, unit: int = 1) -> str:
    lo, hi = lo // unit, hi // unit
    return f"{lo}-{hi}" if lo != hi else f"{lo}"


# ---- loading ----------------------------------------------------------------------------

def test_every_catalog_loads_and_is_consistent(cats):
    assert set(cats) == set(SPECS)
    sizes = {name: len(c) for name, c in cats.items()}
    assert sizes["terrain"] == 13 and sizes["vehicles"] == 25 and sizes["experts"] == 16
    assert sizes["buildings"] == 15 and sizes["special_structures"] == 15 and sizes["custom_structures"] == 7
    assert sizes["convoy_orders"] == 27 and sizes["clan_orders"] == 26 and sizes["goods"] == 10
    assert sizes["fortifications"] == 6 and sizes["hex_defense"] == 10 and sizes["convoy_costs"] == 12
    assert check_catalogs(cats) == []


def test_cross_check_finds_a_broken_catalog(cats):
    broken = {k: v.copy() for k, v in cats.items()}
    i = next(i for i, r in enumerate(broken["vehicles"]) if r["id"] == "truck")
    broken["vehicles"].update(i, {"size": 17})
    j = next(i for i, r in enumerate(broken["gamble"]) if r["result"] == "Average")
    broken["gamble"].update(j, {"roll_to": 69})
    problems = check_catalogs(broken)
    assert any("truck" in p for p in problems) and any("gamble" in p for p in problems)


def test_ruleset_declarations_and_what_is_not_built():
    assert RULESET.turn_model == "sequential" and RULESET.cell_notation == "ccrr"
    opts = RULESET.default_options()
    assert opts.pre_turn_orders == 5 and opts.post_turn_orders == 10 and opts.pulses == 10
    assert RULESET.terrain_letters()["Pla"] == "plains"
    assert [p.name for p in RULESET.phases()][0] == "income"
    assert RULESET.capabilities == {"parse", "turn", "play", "reports", "demo"}
    assert str(NotBuiltYet("the X")).startswith("Continental Conquest: the X is not built yet")


def test_state_schema_round_trips_and_builds_sql_tables():
    from sqlalchemy import MetaData, create_engine

    from engine.db.dynamic import catalog_table, ensure, state_table

    state = State(SCHEMA, 3)
    state["convoys"].append(Convoy(id=1, owner=122, number=1, cell=824, troops=20))
    state["vehicles"].append(Vehicle(convoy=1, type="truck", count=2))
    again = State.from_dict(SCHEMA, state.to_dict())
    assert again == state and again["convoys"][0].cell == 824
    md = MetaData()
    tables = [state_table(md, "cc", spec) for spec in state.specs().values()]
    tables += [catalog_table(md, "cc", spec) for spec in SPECS.values()]
    engine = create_engine("sqlite://")
    with engine.begin() as conn:
        ensure(conn, tables)
    assert len(tables) == len(SCHEMA) + len(SPECS)


def test_options_refuse_bad_values():
    opts = Options(RULESET.option_specs())
    with pytest.raises(ValueError, match="turn_order"):
        opts.set("turn_order", "alphabetical")
    with pytest.raises(ValueError, match="vigilance_max"):
        opts.set("vigilance_max", 120)


# ---- the book's charts, rebuilt from the CSVs and found in the book's text -----------------

@needs_book
def test_vehicle_charts_match_the_book(cats, book):
    for v in cats["vehicles"]:
        rest = f"${v['cost']:,}{v['damage']}{v['hit_points']}{v['cargo']}{v['troops']}{v['fuel']}{v['size']}"
        assert re.search(re.escape(squeeze(v["name"])) + r"[A-Za-z]*" + re.escape(rest), book), v["id"]


@needs_book
def test_terrain_summary_matches_the_book(cats, book):
    names = {"agricultural": "Agro"}
    for t in cats["terrain"]:
        if t["id"] in ("water", "sea_lane", "wilderness"):
            continue  # water prints money 0-1 (X13); sea lanes are not in the table; see below
        row = (names.get(t["id"], t["name"]) + rng(t["money_min"], t["money_max"], 1000)
               + rng(t["food_min"], t["food_max"]) + rng(t["fuel_min"], t["fuel_max"])
               + rng(t["parts_min"], t["parts_max"]) + rng(t["vaccine_min"], t["vaccine_max"])
               + f"{t['fuel_factor']}{t['parts_factor']}")
        assert row in book, row
    w = next(t for t in cats["terrain"] if t["id"] == "wilderness")  # the book prints 3 columns (X12)
    assert (f"Wilderness{rng(w['money_min'], w['money_max'], 1000)}{rng(w['food_min'], w['food_max'])}"
            f"{rng(w['fuel_min'], w['fuel_max'])}{w['fuel_factor']}{w['parts_factor']}") in book
    assert w["parts_max"] == 0 and w["vaccine_max"] == 0
    links = cats["links"].by("id")
    assert f"Road+{links['road']['parts_min']}-{links['road']['parts_max']}" in book
    assert f"River+{links['river']['food_min']}-{links['river']['food_max']}" in book


@needs_book
def test_city_and_hex_tables_match_the_book(cats, book):
    for f in cats["fortifications"]:
        cost = f"${f['raise_cost']:,}" if f["raise_cost"] else "N/A"
        assert f"{f['level']}{f['name']}{f['combat_value']}{f['capacity']}({f['capacity_barracks']}){cost}" in book
        assert f"{f['name']}{f['spotting']}{f['spotting_tower']}{f['radio']}{f['radio_tower']}" in book
        assert f"{f['to_hit']}%" in book
    for d in cats["hex_defense"]:
        cost = f"${d['raise_cost']:,}" if d["raise_cost"] else "N/A"
        assert f"{d['level']}{d['name']}{cost}{d['conquer_min']}-{d['conquer_max']}" in book
    for p in cats["population"]:
        assert (f"{p['id'].title()}{p['low_min']:,}-{p['normal_min'] - 1:,}{p['normal_min']:,}-{p['normal_max']:,}"
                f"{p['normal_max'] + 1:,}-above{p['maximum']:,}({p['maximum_stockyard']:,}withStockyard)") in book


@needs_book
def test_cost_tables_match_the_book(cats, book):
    conv = cats["convoy_costs"].by("number")
    row = "".join(f"{n}${conv[n]['cost']:,}" for r in range(4) for n in (1 + r, 5 + r, 9 + r))
    assert f"#Cost#Cost#Cost{row}" in book
    agents = cats["agent_costs"].by("number")
    assert "".join(f"{n}${agents[n]['cost']:,}" for r in range(3) for n in (1 + r, 4 + r, 7 + r)) in book
    for e in cats["espionage"]:
        assert f"{e['keyword']}{e['cost']}" in book
    for g in cats["gamble"]:
        assert f"{g['roll_to'] - g['roll_from'] + 1}%{squeeze(g['result'])}" in book
    speeds = "".join(str(t["moves"]) for t in cats["convoy_types"])
    assert f"LandSeaAmphibMilitaryAir{speeds}" in book
    sizes = "".join(str(c["size"]) for c in cats["vehicle_classes"])
    assert f"LargeAssault{sizes}Tiny" in book
    for s in cats["size_categories"]:
        assert f"{s['name']}{s['size_min']}" + (f"-{s['size_max']}" if s["size_max"] else "+") in book


@needs_book
def test_codes_and_names_match_the_book(cats, book):
    for o in cats["clan_orders"]:
        assert f"{o['keyword']}({o['code']})" in book, o["keyword"]
    for o in cats["convoy_orders"]:
        if o["code"]:
            assert f"{squeeze(o['keyword'])}({o['code']})" in book, o["keyword"]
    for b in cats["buildings"]:
        assert f"{squeeze(b['name'])}({b['code']})" in book, b["code"]
    for e in cats["experts"]:
        assert f"{e['name']}({e['code']})" in book, e["code"]
    for s in cats["special_structures"]:
        assert re.search(re.escape(squeeze(s["name"])[:5]) + r"[A-Za-z]*\(" + s["code"] + r"\)", book), s["code"]
    for c in cats["custom_structures"]:
        assert re.search(re.escape(c["name"]) + r"[A-Za-z]+.{0,30}?" + re.escape(f"${c['approx_value']:,}"), book)
    for g in cats["goods"]:
        assert g["id"] in BOOK.lower()


@needs_book
def test_starting_prices_match_the_book(cats, book):
    prices = {s["id"]: s["price"] for s in cats["supplies"]}
    assert f"startingcostoffuelis${prices['fuel']}perunit" in book
    assert f"buyoneunitforaround${prices['food']}" in book
    assert f"buythemfor${prices['parts']}perunit" in book
    assert f"pricestartsat${prices['vaccine']}" in book
    assert f"Riflescostapproximately${prices['rifles']}" in book
    assert f"Grenadescostabout${prices['grenades']}" in book
    assert f"Rocketscostabout${prices['rockets']}" in book
    assert f"Theycostapproximately${prices['claymores']}" in book
    assert f"Bombscost${prices['bombs']}" in book
    assert f"cost${prices['troops']}apiece" in book


def test_the_schema_holds_every_column_of_the_books_sample_reports():
    """[CITY REPORTS], [HEX REPORTS], the convoy block of [CONVOY ORDERS] and the pre-turn
    block of [CLAN ORDERS]: each printed column is a field (or a table) of the state."""
    import dataclasses

    def fields(name):
        return {f.name for f in dataclasses.fields(SCHEMA[name])}

    city = {"HEX": "cell", "NAME": "name", "OWN": "owner", "VALUE": "value", "POP": "population",
            "F": "fortification", "TRP": "troops", "CM": "claymores", "PRODUCES": "produces",
            "NEEDS": "needs", "EXPERT": "guild"}
    assert set(city.values()) <= fields("cities") and {"cell", "code"} <= fields("buildings")
    assert {"cell", "clan"} <= fields("hostile") and {"clan", "other", "ban"} <= fields("relations")
    hexes = {"HEX": "cell", "OWN": "owner", "DF": "defense", "TR": "troops", "VALUE": "value",
             "FO": "food", "FU": "fuel", "PA": "parts", "VA": "vaccine", "SS": "special", "CS": "custom"}
    assert set(hexes.values()) <= fields("hexes") and {"cell", "to"} <= fields("roads")
    convoy = {"number", "name", "type", "cell", "mode", "troops", "rifles", "grenades", "rockets",
              "morale", "training", "health", "kill_mode", "cargo", "cargo_type"}
    assert convoy <= fields("convoys") and {"convoy", "type", "count"} <= fields("vehicles")
    assert {"convoy", "code"} <= fields("experts")
    stock = {"money", "food_tenths", "fuel", "parts", "vaccine", "troops", "rifles", "grenades",
             "rockets", "claymores", "bombs"}
    assert stock | {"number", "account", "sequence", "agents", "popularity"} <= fields("clans")
    assert {"clan", "agent", "cell"} <= fields("agent_targets")
