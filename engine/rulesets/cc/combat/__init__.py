"""Continental Conquest combat: pure functions over small dataclasses and seeded dice.

The three kinds of [COMBAT] and what follows them, each a call that returns a result with
typed events (events.py) and changes nothing it is given:

    attack_hex(book, cell=, convoy=, clan=, troops=, owner=, defense=, terrain=, guards=, dice=)
        -> HexAttackResult        [ATTACKING A HEX]; check hex_attack_refusal(...) first
    invade_city(book, Invader, CityDefence, dice, rules) -> InvasionResult
                                  [INVADING A CITY] (the ATTACK order)
    convoy_battle(attacker, defender, dice, rules, cell) -> ConvoyBattleResult
    fight_through(entrant, enemies, dice, rules, cell) -> HexBattles
                                  [COMBAT AGAINST CONVOYS]: one battle, or every enemy in a hex
    repair(convoy, parts, rules) -> RepairResult
                                  battle repairs and scrapping
    hiding: hidden_refusal, may_attack_convoy, hidden_after   [HIDING]
    bomb_city(book, convoy, owner, bombs, target, BombTarget, dice, rules, shelter=, battery=)
        -> BombingResult          [BOMB]
    raze_city(book, convoy, clan, [Razer], RazedCity, dice, rules, spy=) -> RazeResult
                                  [RAZE]

`CombatRules.from_options(game_options)` carries the book's figures and the GM's options;
`CombatConvoy.from_state(book, convoy, vehicles, experts, game_turn)` and
`Invader.from_state(convoy, experts, game_turn, troops)` build the sides from state rows.
"""

from engine.rulesets.cc.combat.bombing import BombingResult, BombTarget, bomb_city
from engine.rulesets.cc.combat.city import (
    CityDefence,
    Invader,
    InvasionResult,
    conquered_city_refusal,
    invade_city,
)
from engine.rulesets.cc.combat.convoy_battle import (
    ConvoyBattleResult,
    HexBattles,
    Losses,
    convoy_battle,
    fight_through,
)
from engine.rulesets.cc.combat.convoys import CombatConvoy, CombatVehicle
from engine.rulesets.cc.combat.hex_attack import HexAttackResult, attack_hex, hex_attack_refusal
from engine.rulesets.cc.combat.hiding import hidden_after, hidden_refusal, may_attack_convoy
from engine.rulesets.cc.combat.razing import RazedCity, Razer, RazeResult, raze_city
from engine.rulesets.cc.combat.repair import RepairResult, repair
from engine.rulesets.cc.combat.rules import CombatRules

__all__ = [
    "BombTarget", "BombingResult", "RazeResult", "RazedCity", "Razer", "bomb_city", "raze_city",
    "CityDefence", "CombatConvoy", "CombatRules", "CombatVehicle", "ConvoyBattleResult",
    "HexAttackResult", "HexBattles", "InvasionResult", "Invader", "Losses", "RepairResult",
    "attack_hex", "conquered_city_refusal", "convoy_battle", "fight_through", "hex_attack_refusal",
    "hidden_after", "hidden_refusal", "invade_city", "may_attack_convoy", "repair",
]
