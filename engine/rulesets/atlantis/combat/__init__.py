"""Atlantis Conquest battles: a pure, deterministic engine (no Turn, no state).

Who fights is the muster's business (`combat/muster.py`, ATTACK/ADVANCE, ASSASSINATE);
it builds a `Combatant` for each unit and calls `fight` (or `duel` for an assassination),
then applies the `BattleResult` (men lost, items lost, spoils) to the state and reports
the battle with `combat.report`. Same combatants, same dice: the same battle.
"""

from engine.rulesets.atlantis.combat.battle import (
    ATTACKERS,
    DEFENDERS,
    BattleOptions,
    BattleResult,
    Combatant,
    FreeRound,
    Note,
    duel,
    fight,
)

__all__ = ["ATTACKERS", "DEFENDERS", "BattleOptions", "BattleResult", "Combatant", "FreeRound",
           "Note", "duel", "fight"]
