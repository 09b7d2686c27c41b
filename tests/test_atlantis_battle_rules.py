"""Atlantis battle rules the cases do not spell out, each with fixed dice whose faces are
checked too (a `Spy` records every die's size, so "2:1" is seen to be a d3 hitting on 1-2):
buildings, chain armour, crossbows in a free round, the BEHIND rear and bows, spells
(Dazzle, Cause Fear, Inspire Courage, Lightning Bolt, Black Wind, ranges), leaders,
items shared out over men, spoils in proportion to survivors, and the end of a battle."""

from __future__ import annotations

import pytest

from engine.dice import Dice, ScriptedDice
from engine.rulesets.atlantis import rules
from engine.rulesets.atlantis.combat import (
    ATTACKERS,
    DEFENDERS,
    BattleOptions,
    Combatant,
    duel,
    fight,
)
from engine.rulesets.atlantis.combat import battle as bt
from engine.rulesets.atlantis.combat import spells as sp
from engine.rulesets.atlantis.combat import spoils as sl


class Spy(ScriptedDice):
    """Scripted dice that also record each die's size and purpose."""

    def __init__(self, rolls):
        super().__init__(rolls)
        self.seen: list[tuple[str, int, int]] = []

    def d(self, sides: int, why: str = "") -> int:
        r = super().d(sides, why)
        self.seen.append((why, sides, r))
        return r


def C(unit, faction, men=1, **kw) -> Combatant:
    return Combatant(unit, faction, men, name=kw.pop("name", f"U{unit}"), **kw)


def _one_attack(attacker: Combatant, target: Combatant, rolls, terrain="forest",
                armour=True):
    """One attack of `attacker`'s first man on `target`'s army; (killed?, dice seen)."""
    spy = Spy(rolls)
    b = bt._Battle("battle", [attacker], [target], terrain, spy, None,
                   BattleOptions(armour=armour))
    a, d = b.armies[ATTACKERS], b.armies[DEFENDERS]
    a.round = 1
    b.attack(a.soldiers[0], d)
    return d.killed == 1, spy.seen


def test_the_odds_table_is_the_books():
    assert [float(rules.hit_chance(d, 0)) for d in (0, 1, 2, 3)] == \
        pytest.approx([1 / 2, 2 / 3, 4 / 5, 8 / 9])
    assert float(rules.hit_chance(0, 1)) == pytest.approx(1 / 3)


@pytest.mark.parametrize("attack, defence, sides, best", [
    (0, 0, 2, 1), (1, 0, 3, 2), (2, 0, 5, 4), (3, 0, 9, 8), (0, 1, 3, 1), (0, 2, 5, 1)])
def test_the_contest_die_is_the_odds_table(attack, defence, sides, best):
    """Odds 2^d:1 as one die of 2^d + 1 faces: the best face hits, the next misses."""
    spy = Spy([best, best + 1])
    assert bt._hits(spy, attack, defence) is True
    assert bt._hits(spy, attack, defence) is False
    assert [s for _, s, _ in spy.seen] == [sides, sides]


def test_a_building_adds_two_to_defence_for_as_many_men_as_it_protects():
    archer = C(1, 1, levels={"longbow": 1}, items={"longbow": 1})
    inside = C(2, 2, men=1, protected=1)
    killed, seen = _one_attack(archer, inside, [1, 1])   # 1 against 2 + 2: 1:8, a d9
    assert killed and seen[1][:2] == ("hit", 9)
    outside = C(2, 2, men=1, protected=0)
    killed, seen = _one_attack(archer, outside, [1, 1])  # 1 against 2: 1:2, a d3
    assert killed and seen[1][:2] == ("hit", 3)


def test_building_protection_goes_to_the_first_men_of_a_unit():
    b = bt._Battle("battle", [C(1, 1)], [C(2, 2, men=3, protected=2)], "forest", Dice(1),
                   None, BattleOptions())
    assert [s.protected for s in b.armies[DEFENDERS].soldiers] == [True, True, False]


def test_chain_saves_one_in_three_and_plate_two_in_three():
    man = C(1, 1, levels={"combat": 5})
    chain = C(2, 2, items={"chain armor": 1})
    assert _one_attack(man, chain, [1, 1, 1])[0] is False      # d3: 1 saves
    assert _one_attack(man, chain, [1, 1, 2])[0] is True
    plate = C(2, 2, items={"plate armor": 1})
    assert _one_attack(man, plate, [1, 1, 2])[0] is False      # 1-2 save
    killed, seen = _one_attack(man, plate, [1, 1, 3])
    assert killed and seen[-1][:2] == ("plate armor save", 3)


def test_crossbow_hits_ignore_armour_and_no_armour_in_an_assassination():
    xbow = C(1, 1, levels={"crossbow": 1}, items={"crossbow": 1})
    plate = C(2, 2, items={"plate armor": 1})
    killed, seen = _one_attack(xbow, plate, [1, 1])
    assert killed and len(seen) == 2                          # no save rolled
    killed, seen = _one_attack(C(1, 1, levels={"combat": 5}), plate, [1, 1], armour=False)
    assert killed and len(seen) == 2


def test_melee_against_a_bowman_counts_his_combat_as_zero():
    bowman = C(2, 2, levels={"combat": 3, "longbow": 1}, items={"longbow": 1, "sword": 1})
    killed, seen = _one_attack(C(1, 1), bowman, [1, 1])       # 0 against 0: a d2
    assert killed and seen[1][1] == 2


def test_a_bow_without_its_skill_is_not_used():
    b = bt._Battle("battle", [C(1, 1, items={"longbow": 1}, levels={"combat": 1})],
                   [C(2, 2)], "forest", Dice(1), None, BattleOptions())
    s = b.armies[ATTACKERS].soldiers[0]
    assert (s.weapon, s.skill) == ("melee", 1)


def test_a_unit_shares_its_items_over_its_men_first_men_first():
    assert [sl.share(5, 10, m) for m in range(10)] == [1] * 5 + [0] * 5
    assert [sl.share(13, 5, m) for m in range(5)] == [3, 3, 3, 2, 2]
    assert sl.carried_by({"sword": 5, "silver": 100}, 10, [0, 9]) == {"sword": 1, "silver": 20}
    b = bt._Battle("battle", [C(1, 1, men=4, levels={"combat": 1},
                               items={"sword": 2, "plate armor": 1, "chain armor": 2})],
                   [C(2, 2)], "forest", Dice(1), None, BattleOptions())
    men = b.armies[ATTACKERS].soldiers
    assert [s.skill for s in men] == [3, 3, 1, 1]
    assert [s.armour for s in men] == ["plate armor", "chain armor", "chain armor", ""]


def test_crossbows_fire_in_the_free_round_and_every_other_round_after():
    """The crossbowmen's side wins the free round (Tactics 1): their rounds 1 (free), 3...
    fire; round 1 of the battle is their 2nd: no shot, so no die is rolled for them."""
    xbows = C(1, 1, levels={"crossbow": 1, "tactics": 1}, items={"crossbow": 1})
    spy = Spy([2, 2, 2, 2, 2, 2, 1, 1, 1, 50])   # free: opp 2 | r1: order 2, foe opp 2 |
    # r2: order 2, xbow opp 2, foe opp 2 | r3: order 1 (foe first), opp 1, hit 1 | the
    # crossbow found (50)
    r = fight([xbows], [C(2, 2)], terrain="forest", dice=spy)
    assert r.winner == DEFENDERS and r.rounds == 3 and spy.used == 10
    assert r.spoils == {2: {"crossbow": 1}}
    whys = [w for w, _, _ in spy.seen]
    assert whys[:4] == ["lethal opportunity", "order of attacks", "lethal opportunity",
                        "order of attacks"]
    assert whys[4:6] == ["lethal opportunity", "lethal opportunity"]


def test_behind_men_fight_only_with_bows_while_their_front_stands():
    rear = C(1, 1, men=2, behind=True, levels={"longbow": 1, "combat": 5},
             items={"longbow": 1})
    front = C(3, 1, men=1)
    b = bt._Battle("battle", [rear, front], [C(2, 2, men=5)], "forest", Spy([2, 1, 1]),
                   None, BattleOptions())
    a, d = b.armies[ATTACKERS], b.armies[DEFENDERS]
    archer, swordsman = a.soldiers[0], a.soldiers[1]
    assert archer.weapon == "longbow" and swordsman.weapon == "melee"
    a.round = 1
    b.attack(swordsman, d)               # no die: a rear man without a bow waits
    assert b.dice.used == 0
    b.attack(archer, d)                  # the bowman shoots: opportunity 2 (none)
    assert b.dice.used == 1
    assert d.targets() and all(not s.behind for s in a.targets())


def test_the_leader_is_the_best_tactician_then_the_lowest_number():
    r = fight([C(9, 1, levels={"tactics": 3}), C(4, 1, levels={"tactics": 3}),
               C(2, 1, levels={"tactics": 1})], [C(5, 2)], terrain="forest",
              dice=Dice(3))
    assert r.leaders[ATTACKERS] == 4 and r.free_rounds[0].side == ATTACKERS


def test_equal_tactics_give_no_free_round():
    r = fight([C(1, 1, levels={"tactics": 2})], [C(2, 2, levels={"tactics": 2})],
              terrain="forest", dice=Dice(4))
    assert all(f.reason != "tactics" for f in r.free_rounds)


class Blunt(Dice):
    """Dice under which no blow ever lands (every lethal opportunity is missed)."""

    def d(self, sides: int, why: str = "") -> int:
        return 2 if why == "lethal opportunity" else 1


def test_a_battle_nobody_wins_ends_indecisively_after_the_round_limit():
    r = fight([C(1, 1, men=3)], [C(2, 2, men=3)], terrain="forest", dice=Blunt(5),
              options=BattleOptions(max_rounds=7))
    assert r.draw and r.rounds == 7 and r.log[-1].kind == "indecisive"


def test_an_empty_side_loses_at_once():
    r = fight([C(1, 1, men=3)], [C(2, 2, men=0)], terrain="forest", dice=Dice(6))
    assert r.winner == ATTACKERS and r.rounds == 0 and r.losses == {1: 0, 2: 0}


def test_spell_ranges_follow_the_option():
    fireball = sp.book_spells()["fireball"]
    assert sp.reach(fireball, 2, Spy([1])) == 4              # 2 x 2 .. 50 x 2
    assert sp.reach(fireball, 2, Spy([97])) == 100
    assert sp.reach(fireball, 2, Spy([1]), "level_top") == 2  # 2 .. 50 x 2
    courage = sp.book_spells()["inspire courage"]            # no level factor
    spy = Spy([49])
    assert sp.reach(courage, 5, spy) == 50 and spy.seen[0][1] == 49


def test_casting_level_needs_the_spell_or_a_mages_staff():
    book = sp.book_spells()
    assert sp.casting_level("fireball", {"fireball": 4}, {}, book) == 4
    assert sp.casting_level("fireball", {"magic": 1}, {"staff of fire": 1}, book) == 3
    assert sp.casting_level("fireball", {}, {"staff of fire": 1}, book) == 0   # no mage
    assert sp.casting_level("dazzle", {"magic": 1}, {"staff of fire": 1}, book) == 0
    assert sp.casting_level("teleport", {"teleport": 5}, {}, book) == 0      # not combat


def _mage_battle(spell, level, rolls, defenders=5, friends=None):
    mage = C(1, 1, levels={"magic": 5, spell: level}, combat_spell=spell, behind=True)
    spy = Spy(rolls)
    b = bt._Battle("battle", [mage, *(friends or [])], [C(2, 2, men=defenders)], "forest",
                   spy, None, BattleOptions())
    return b, spy


def test_dazzle_costs_two_on_the_next_attack_only():
    b, spy = _mage_battle("dazzle", 1, [1, 1, 2, 3])   # reach 2, pick 1st and 2nd
    a, d = b.armies[ATTACKERS], b.armies[DEFENDERS]
    b.cast(a.soldiers[0], d)
    dazzled = [s for s in d.soldiers if s.dazzled]
    assert len(dazzled) == 2
    d.round = 1
    b.dice = Spy([1, 1])
    b.attack(dazzled[0], a)              # 0 - 2 against the mage's 0: 1:4, a d5
    assert b.dice.seen[-1][:2] == ("hit", 5) and not dazzled[0].dazzled


def test_cause_fear_lasts_and_inspire_courage_lifts_it():
    b, spy = _mage_battle("cause fear", 1, [48])   # reach 2 + 47 = 49: all five
    a, d = b.armies[ATTACKERS], b.armies[DEFENDERS]
    b.cast(a.soldiers[0], d)
    assert all(s.feared for s in d.soldiers)
    a.round = d.round = 1
    for _ in range(2):                   # -2 on every attack, not just the next
        b.dice = Spy([1, 2])             # 0 - 2 against 0: 1:4, a d5 (2 misses)
        b.attack(d.soldiers[0], a)
        assert b.dice.seen[-1][:2] == ("hit", 5)
    b.dice = Spy([1, 1, 5])              # and -2 defending: 0 against 0 - 2 is 4:1
    b.attack(a.soldiers[0], d)
    assert b.dice.seen[-1][:2] == ("hit", 5)
    priest = bt._Soldier(d, C(3, 2, levels={"inspire courage": 1}), 0, False, True)
    priest.spell, priest.spell_level = "inspire courage", 1
    b.dice = Spy([1, 1, 1])              # reach 2: two of the four left are freed
    b.cast(priest, a)
    assert sum(s.feared for s in d.standing()) == len(d.standing()) - 2


@pytest.mark.parametrize("spell, level, sides", [("lightning bolt", 1, 9),
                                                  ("black wind", 1, 249)])
def test_killing_spells_reach_only_the_front_while_it_stands(spell, level, sides):
    rear = C(3, 2, men=4, behind=True)
    mage = C(1, 1, levels={"magic": 5, spell: level}, combat_spell=spell)
    spy = Spy([sides])                   # the most it can reach: still only the front
    b = bt._Battle("battle", [mage], [C(2, 2, men=3), rear], "forest", spy, None,
                   BattleOptions())
    b.cast(b.armies[ATTACKERS].soldiers[0], b.armies[DEFENDERS])
    assert spy.seen[0][1] == sides
    assert b.armies[DEFENDERS].dead == {2: [0, 2, 1]} or \
        sorted(b.armies[DEFENDERS].dead[2]) == [0, 1, 2]
    assert 3 not in b.armies[DEFENDERS].dead


def test_a_mage_casts_and_also_fights():
    """The mage's free round (Tactics 1): Lightning Bolt (2-10 dead), then his own blow."""
    mage = C(1, 1, levels={"magic": 1, "lightning bolt": 1, "combat": 1, "tactics": 1},
             combat_spell="lightning bolt")
    dice = Dice(11)
    r = fight([mage], [C(2, 2, men=40)], terrain="forest", dice=dice)
    spells = [n for n in r.log if n.kind == "spell"]
    assert spells and all(2 <= n.count <= 10 for n in spells)
    whys = [w for w, _ in dice.log]
    free_round = whys[:whys.index("order of attacks")]
    assert free_round[0] == "lightning bolt reach" and "lethal opportunity" in free_round


def test_spoils_go_to_survivors_in_proportion():
    got = sl.hand_out({"silver": 30000}, [(1, 1), (2, 2)], Dice(7))
    assert got[1]["silver"] + got[2]["silver"] == 30000
    assert 9000 < got[1]["silver"] < 11000     # a third: 10,000 +- 13 sigma (sigma ~82)


def test_one_surviving_unit_picks_up_everything_without_dice():
    assert sl.hand_out({"silver": 50, "sword": 2}, [(4, 30), (5, 0)], ScriptedDice([])) == \
        {4: {"silver": 50, "sword": 2}}


def test_winners_keep_their_dead_mens_things_a_wiped_unit_loses_them():
    strong = C(1, 1, men=20, levels={"combat": 5}, items={"sword": 20})
    r = fight([strong, C(3, 1, men=1, items={"sword": 1})], [C(2, 2, men=10, items={"sword": 10})],
              terrain="forest", dice=Dice(12))
    assert r.winner == ATTACKERS
    for unit in (1, 3):
        if r.losses[unit] and r.survivors(unit):
            assert unit not in r.lost_items
        elif r.losses[unit]:
            assert r.lost_items[unit] == {"sword": 1}
    assert r.lost_items[2]["sword"] == r.losses[2]


def test_an_assassin_must_be_one_man():
    with pytest.raises(ValueError, match="one-man"):
        duel(C(1, 1, men=2), C(2, 2), terrain="forest", dice=Dice(1))
