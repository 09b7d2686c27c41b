"""engine.tables: column coercion and refusals, catalogs, CSV, options."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.tables import Catalog, Column, Options, OptionSpec, TableError, TableSpec

TROOPS = TableSpec("troops", (
    Column("symbol", "str", unique=True, required=True),
    Column("name", "str", ""),
    Column("to_hit", "int", 50, min=0, max=100),
    Column("cost", "float", 1.0, min=0),
    Column("pincer", "bool", False),
    Column("kind", "str", "land", choices=("land", "sea")),
), key=("symbol",))


@pytest.mark.parametrize("col, value, expected", [
    (Column("n", "int"), "  42 ", 42),
    (Column("n", "int"), 7.0, 7),
    (Column("n", "int"), True, 1),
    (Column("x", "float"), "2.5", 2.5),
    (Column("x", "float"), 3, 3.0),
    (Column("b", "bool"), "Yes", True),
    (Column("b", "bool"), "x", True),
    (Column("b", "bool"), "off", False),
    (Column("b", "bool"), 0, False),
    (Column("b", "bool"), True, True),
    (Column("s", "str"), 12, "12"),
    (Column("s", "str", "dflt"), None, "dflt"),
    (Column("n", "int", 5), "", 5),       # blank cell = default
    (Column("n", "int", 5), "   ", 5),
    (Column("s", "str", "dflt"), "", ""),  # but a blank string stays a string
])
def test_coercion(col, value, expected):
    v = col.coerce(value)
    assert v == expected and type(v) is type(expected)


@pytest.mark.parametrize("col, value, message", [
    (Column("to_hit", "int", max=100), 101, "to_hit: 101 is above the maximum 100"),
    (Column("to_hit", "int", max=100), "150", "to_hit: 150 is above the maximum 100"),
    (Column("cost", "float", min=0), -1, "cost: -1.0 is below the minimum 0"),
    (Column("cost", "int", min=0), "-3", "cost: -3 is below the minimum 0"),
    (Column("n", "int"), "abc", "n: 'abc' is not an int"),
    (Column("n", "int"), 2.5, "n: 2.5 is not an int"),
    (Column("x", "float"), "many", "x: 'many' is not a float"),
    (Column("b", "bool"), "maybe", "b: 'maybe' is not a bool"),
    (Column("x", "float", min=0), "nan", "x: 'nan' is not a float"),
    (Column("x", "float", max=9), "inf", "x: 'inf' is not a float"),
    (Column("k", "str", choices=("land", "sea")), "air", "k: 'air' is not one of land, sea"),
    (Column("s", "str", required=True), None, "s is required"),
    (Column("s", "str", required=True), "  ", "s is required"),
    (Column("n", "int", required=True), "", "n is required"),
])
def test_refusals_say_why(col, value, message):
    with pytest.raises(TableError) as e:
        col.coerce(value)
    assert str(e.value) == message


def test_catalog_rows_are_coerced_with_defaults():
    cat = Catalog(TROOPS, [{"symbol": "I", "name": "Infantry", "to_hit": "40", "cost": "2"}])
    assert cat.rows == [{"symbol": "I", "name": "Infantry", "to_hit": 40, "cost": 2.0,
                         "pincer": False, "kind": "land"}]
    assert len(cat) == 1 and list(cat) == cat.rows
    assert cat.by("symbol")["I"]["to_hit"] == 40


def test_duplicate_unique_symbol_refused_case_insensitively():
    cat = Catalog(TROOPS, [{"symbol": "K"}])
    with pytest.raises(TableError, match="symbol: 'k' is used already"):
        cat.add({"symbol": "k"})
    assert len(cat) == 1


def test_unknown_column_refused():
    with pytest.raises(TableError, match="troops: unknown column\\(s\\) armour, speed"):
        Catalog(TROOPS, [{"symbol": "I", "speed": 1, "armour": 2}])


def test_update_checks_and_keeps_the_row_on_refusal():
    cat = Catalog(TROOPS, [{"symbol": "I"}, {"symbol": "K"}])
    old = cat.update(0, {"to_hit": 60})
    assert old["to_hit"] == 50 and cat.rows[0]["to_hit"] == 60
    cat.update(0, {"symbol": "i"})  # its own symbol in another case is fine
    with pytest.raises(TableError, match="is used already"):
        cat.update(0, {"symbol": "K"})
    with pytest.raises(TableError, match="above the maximum"):
        cat.update(1, {"to_hit": 101})
    assert [r["symbol"] for r in cat.rows] == ["i", "K"]
    assert cat.rows[1]["to_hit"] == 50
    assert cat.remove(0)["symbol"] == "i" and len(cat) == 1


def test_copy_is_independent():
    cat = Catalog(TROOPS, [{"symbol": "I"}])
    c = cat.copy()
    c.update(0, {"to_hit": 1})
    assert cat.rows[0]["to_hit"] == 50


def test_csv_round_trip_and_errors_name_source_and_line():
    cat = Catalog(TROOPS, [{"symbol": "I", "name": "Foot, heavy", "pincer": True},
                           {"symbol": "S", "kind": "sea", "cost": 2.5}])
    text = cat.to_csv()
    assert text.splitlines()[1] == 'I,"Foot, heavy",50,1.0,yes,land'
    assert Catalog.from_csv(TROOPS, text).rows == cat.rows
    bad = "symbol,to_hit\nI,40\nK,140\n"
    with pytest.raises(TableError) as e:
        Catalog.from_csv(TROOPS, bad, "troops.csv")
    assert str(e.value) == "troops.csv:3: to_hit: 140 is above the maximum 100"
    # Stray spaces in the header and an empty trailing column are tolerated.
    assert Catalog.from_csv(TROOPS, " symbol , to_hit,\nI,40,\n").rows[0]["to_hit"] == 40


def test_load_from_file(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("symbol,cost\nI,-1\n", encoding="utf-8")
    with pytest.raises(TableError, match=f"^{p}:2: cost: -1.0 is below the minimum 0$"):
        Catalog.load(TROOPS, p)


def test_spec_from_dataclass():
    @dataclass
    class Army:
        id: int
        owner: int | None = None
        strength: float = 1.0
        name: str = ""
        hidden: bool = False

    spec = TableSpec.from_dataclass(Army, key=("id",), strength={"min": 0})
    assert spec.name == "army" and spec.key == ("id",)
    assert [(c.name, c.type, c.default) for c in spec.columns] == [
        ("id", "int", None), ("owner", "int", None), ("strength", "float", 1.0),
        ("name", "str", ""), ("hidden", "bool", False)]
    assert spec.column("strength").min == 0
    with pytest.raises(KeyError):
        spec.column("nope")

    @dataclass
    class Bad:
        items: list

    with pytest.raises(TypeError, match="int, float, str or bool"):
        TableSpec.from_dataclass(Bad)


def test_options_defaults_set_and_refusals():
    specs = (OptionSpec("loyalty", "bool", False, "Loyalty"),
             OptionSpec("max_turns", "int", 30, min=1, max=200),
             OptionSpec("map", "str", "small", choices=("small", "large")))
    opts = Options(specs, {"loyalty": "yes"})
    assert opts.values == {"loyalty": True, "max_turns": 30, "map": "small"}
    assert opts["max_turns"] == 30 and opts.loyalty is True
    assert opts.set("max_turns", "40") == 30 and opts.max_turns == 40
    with pytest.raises(TableError, match="max_turns: 0 is below the minimum 1"):
        opts.set("max_turns", 0)
    with pytest.raises(TableError, match="unknown option 'speed'; known: loyalty, max_turns, map"):
        opts.set("speed", 1)
    with pytest.raises(AttributeError):
        opts.speed  # noqa: B018
    c = opts.copy()
    c.set("map", "large")
    assert opts.map == "small"
    with pytest.raises(TableError):
        Options(specs, {"map": "huge"})
