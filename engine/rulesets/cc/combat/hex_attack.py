"""[ATTACKING A HEX]: a convoy in capture mode tries to take each hex it enters.

The troops needed are one roll over the defence level's range (hex_defense.csv) plus one
roll per guard over the terrain's range (2-4, or 3-5 in mountain, swamp, wilderness and
jungle; terrain.csv `guard_min/max`) (X48). The convoy attacks only if it has at least the
least possible requirement; it then loses the rolled requirement and takes the hex if it
had that many, or loses every troop and fails if it had fewer. With the greatest possible
requirement the attack is certain. Before it may attack, the convoy must be in capture mode,
not hidden, have beaten every visible enemy convoy in the hex (X50), and the hex's owner
must not be its ally.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.rules import roll_range
from engine.rulesets.cc.costs import conquest_range


@dataclass
class HexAttackResult:
    attacked: bool
    captured: bool
    needed: int                      # the rolled requirement (0 when no attack)
    troops_lost: int
    troops_left: int                 # the convoy's troops afterwards
    guards_killed: int
    reason: str = ""                 # why there was no attack
    least: int = 0                   # the least possible requirement (the turn's report names it)
    events: list[Event] = field(default_factory=list)


def hex_attack_refusal(*, mode: str, hidden: bool, owner: int, clan: int, allied: bool,
                       enemies_left: bool, ownable: bool = True) -> str:
    """Why a convoy may not attack the hex it entered ("" = it may)."""
    if owner == clan:
        return "own hex"
    if not ownable:
        return "nobody can hold this terrain"
    if mode != "capture":
        return f"{mode} mode"
    if hidden:
        return "in hiding"
    if allied:
        return "the owner is an ally"
    if enemies_left:
        return "enemy convoys undefeated in the hex"
    return ""


def attack_hex(book: Book, *, cell: int, convoy: int, clan: int, troops: int, owner: int,
               defense: int, terrain: str, guards: int, dice: Dice) -> HexAttackResult:
    """Resolve the attack (the caller has checked `hex_attack_refusal`)."""
    level = max(1, min(defense, max(book.hex_defense)))
    lo, _hi = conquest_range(book, level, guards, terrain)
    if troops < lo:
        return HexAttackResult(False, False, 0, 0, troops, 0, f"{troops} troops, {lo} needed", lo)
    d, t = book.hex_defense[level], book.terrain[terrain]
    needed = roll_range(dice, d["conquer_min"], d["conquer_max"], "hex defence")
    for _ in range(guards):
        needed += roll_range(dice, t["guard_min"], t["guard_max"], "hex guard")
    captured = troops >= needed
    lost = needed if captured else troops
    killed = guards if captured else 0
    event = ev.HexAttacked(cell=cell, convoy=convoy, attacker=clan, defender=owner,
                           needed=needed, troops_lost=lost, guards_killed=killed,
                           captured=captured)
    return HexAttackResult(True, captured, needed, lost, troops - lost, killed, least=lo, events=[event])
