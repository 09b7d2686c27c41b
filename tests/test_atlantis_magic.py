"""Atlantis magic beyond the rule cases: the pure functions the battle, STEAL/ASSASSINATE
and the viewer share (cast levels, effective Stealth and Observation, a pillaged region's
silver), and the viewer bundle hiding what Invisibility hides (magic-sight.toml)."""

from __future__ import annotations

from pathlib import Path

from engine.casefile import load_case, run_case
from engine.rulesets.atlantis import rules, sight, view
from engine.rulesets.atlantis.catalog import default_catalog
from engine.rulesets.atlantis.combat.muster import unit_observation, unit_stealth
from engine.rulesets.atlantis.magic import cast_level, combat_refusal
from engine.rulesets.atlantis.turn import Turn, turn_of

CASES = Path(__file__).resolve().parent / "cases" / "atlantis"
ITEMS = default_catalog("items").by("name")


def test_a_staff_casts_its_spell_at_level_3_for_a_mage_only():
    staff = {"staff of fire": 1}
    assert cast_level({}, staff, "fireball", ITEMS) == 3
    assert cast_level({"fireball": 4}, staff, "fireball", ITEMS) == 4   # the higher
    assert cast_level({}, staff, "dazzle", ITEMS) == 0
    assert combat_refusal(0, staff, True, "fireball", ITEMS) == ""
    assert combat_refusal(0, staff, False, "fireball", ITEMS) == \
        "only a mage may cast fireball with a staff"
    assert "does not know dazzle" in combat_refusal(0, staff, True, "dazzle", ITEMS)


def test_invisibility_true_seeing_and_the_amulets():
    amulet = {"amulet of invisibility": 1}
    assert sight.stealth({"stealth": 1, "invisibility": 2}, amulet, 1) == 6
    assert sight.stealth({"stealth": 1, "invisibility": 2}, amulet, 2) == 3  # one man only
    assert sight.observation({"observation": 1, "true seeing": 3},
                             {"amulet of true seeing": 1}) == 7


def test_a_pillaged_region_recovers_by_equal_steps():
    assert [rules.tax_silver(1200, p, 12) for p in (12, 11, 6, 1, 0)] == [0, 100, 600, 1100, 1200]
    assert rules.pillage_needs(1000, 50) == 10      # 10 men tax 500, half of 1000
    assert rules.pillage_needs(101, 50) == 2        # half of 101 rounds up to 51


def test_the_turn_and_the_viewer_bundle_see_by_the_same_levels():
    case = load_case(CASES / "magic-sight.toml")
    result = run_case(case)
    seen = {u.number for u in view.visible_state(result.state, 2, result.scenario)["units"]}
    assert {3, 5, 7} <= seen and not {1, 2} & seen       # Invisibility and the amulet hide
    from engine import registry
    from engine.dice import Dice
    from engine.ruleset import TurnContext

    ctx = TurnContext(registry.get("atlantis"), result.scenario, result.state.copy(),
                      result.state, {}, Dice(1))
    t = Turn(ctx)
    # the muster's (and STEAL's) effective levels, by the same sight.py functions
    assert [unit_stealth(t, t.units[n]) for n in (1, 2, 3, 5, 7)] == [1, 3, 0, 1, 2]
    assert [unit_observation(t, t.units[n]) for n in (4, 6, 8)] == [0, 1, 3]


def test_skill_and_item_reports_tell_how_magic_is_used():
    from engine.rulesets.atlantis.catalog import default_catalogs
    from engine.rulesets.atlantis.lore import item_report, skill_report

    cats = default_catalogs()
    fire = skill_report(cats, "create staff of fire", 1)
    assert 'CAST "create staff of fire"' in fire and "600 silver" in fire and "20%" in fire
    assert "CAST TELEPORT target UNITS unit" in skill_report(cats, "teleport", 1)
    assert "Stealth rises by his level" in skill_report(cats, "invisibility", 1)
    staff = item_report(cats, "staff of fire")
    assert "may CAST it" in staff and "fireball at level 3" in staff and "PRODUCE" not in staff


def test_the_chance_of_a_create_spell_is_20_percent_a_level():
    """400 mages at level 1 and 400 at level 3 cast with seeded dice: about 20% and 60%
    succeed (binomial: mean 80 and 240, sd 8 and 10; the bounds are 4 sd wide), and every
    one pays $200 either way. Deterministic for the seed; a wrong chance (2%, 40%...) fails."""
    from engine.casefile import Case

    n = 400
    units, skills, items, orders = [], [], [], ["#atlantis 1"]
    for i in range(1, 2 * n + 1):
        units.append({"number": i, "faction": 1, "cell": 0, "men": 1, "seq": i})
        skills.append({"unit": i, "skill": "create staff of light", "days": 30 if i <= n else 180})
        items.append({"unit": i, "item": "silver", "count": 210})
        orders += [f"unit {i}", 'CAST "create staff of light"']
    data = {"title": "chance", "ruleset": "atlantis", "seed": 11,
            "map": {"kind": "hex", "terrain_rows": ["p"]},
            "state": {"world": [{"month": 1, "next_unit": 2 * n + 1, "next_faction": 2}],
                      "factions": [{"number": 1}], "regions": [{"cell": 0, "terrain": "plain"}],
                      "units": units, "unit_skills": skills, "unit_items": items},
            "orders": {"1": "\n".join(orders + ["#end"])}}
    result = run_case(Case(CASES / "generated.toml", data))
    made = [e.unit for e in result.events if e.kind == "atlantis.cast" and e.item]
    paid = [e.cost for e in result.events if e.kind == "atlantis.cast"]
    assert paid == [200] * (2 * n)
    low = sum(1 for u in made if u <= n)
    high = len(made) - low
    assert 48 <= low <= 112 and 200 <= high <= 280, (low, high)


def test_the_turn_itself_refuses_what_the_parser_would_have_caught():
    """Orders made by hand (not through the parser): CAST of an automatic spell is refused
    with its reason, and a mage's second CAST in a month is refused."""
    from engine import registry
    from engine.dice import Dice
    from engine.orders import OrderSheet
    from engine.ruleset import TurnContext
    from engine.rulesets.atlantis import magic
    from engine.rulesets.atlantis import orders as o

    result = run_case(load_case(CASES / "magic-create-items.toml"))
    state = result.state.copy()
    mage = o.UnitRef(3)                      # knows Create Staff of Fire 2; has no silver now
    state["unit_items"].append(type(state["unit_items"][0])(3, "silver", 1300))
    sheet = OrderSheet([o.Cast(1, "CAST invisibility", mage, 1, spell="invisibility"),
                        o.Cast(2, "CAST x", mage, 1, spell="create staff of fire"),
                        o.Cast(3, "CAST x", mage, 1, spell="create staff of fire")])
    ctx = TurnContext(registry.get("atlantis"), result.scenario, state, result.state,
                      {1: sheet}, Dice(5))
    t = turn_of(ctx)
    t.bind_orders()
    magic.instant_magic(ctx)
    said = [(e.line, getattr(e, "reason", "")) for e in ctx.events if e.kind == "atlantis.failed"]
    assert said == [(1, "invisibility is used automatically; no order is needed"),
                    (3, "a mage may CAST only one spell a month")]
    assert [e.cost for e in ctx.events if e.kind == "atlantis.cast"] == [600]
    assert t.has(3, "silver") == 700
