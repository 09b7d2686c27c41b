"""Battle repairs ([COMBAT AGAINST CONVOYS], [CONVOY EXPERTS] Tinkerer).

After a battle each convoy mends its damage: one spare part per 5 hit points, rounded up
for each vehicle (the book's example: cars with 22 and 20 points need 5 + 4 = 9 parts, the
truck with 19 needs 4). A Tinkerer mends 10 points a part (X38; option `tinkerer_repair` =
`15pct` takes 15% off the parts instead) and scrapped vehicles give him twice their parts.
Short of parts, vehicles are scrapped smallest first (the most damaged first among equals,
X166) until the stock covers the rest; a convoy left with no vehicles is disbanded.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from engine.events import Event
from engine.rulesets.cc.combat import events as ev
from engine.rulesets.cc.combat.convoys import CombatConvoy, CombatVehicle
from engine.rulesets.cc.combat.rules import CombatRules, ceil_div


@dataclass
class RepairResult:
    parts_used: int                  # parts spent on mending (scrap parts included)
    parts_left: int                  # the clan's stock afterwards (scrap parts added)
    scrapped: list[str]              # vehicle types scrapped, in order
    parts_from_scrap: int
    convoy: CombatConvoy             # repaired (damage 0), scrapped vehicles gone
    disbanded: bool
    events: list[Event] = field(default_factory=list)


def parts_needed(vehicle: CombatVehicle, tinkerer: bool, rules: CombatRules) -> int:
    """Parts to mend one vehicle's damage."""
    if vehicle.damage <= 0:
        return 0
    if tinkerer and rules.tinkerer_repair == "10hp":
        return ceil_div(vehicle.damage, rules.tinkerer_hp_per_part)
    parts = ceil_div(vehicle.damage, rules.hp_per_part)
    return ceil_div(parts * (100 - rules.tinkerer_pct), 100) if tinkerer else parts


def repair(convoy: CombatConvoy, parts: int, rules: CombatRules | None = None) -> RepairResult:
    """Mend `convoy` from a stock of `parts`; scrap what the stock cannot pay for."""
    rules = rules or CombatRules()
    convoy = copy.deepcopy(convoy)      # the caller's convoy keeps its damage
    tinkerer = "TIN" in convoy.experts
    scrap_factor = rules.tinkerer_scrap_factor if tinkerer else 1
    vehicles = [v for v in convoy.vehicles if not v.destroyed]
    need = sum(parts_needed(v, tinkerer, rules) for v in vehicles)
    stock, scrapped, from_scrap = parts, [], 0
    # smallest first; among equals the most damaged (it saves the most parts)
    queue = sorted(vehicles, key=lambda v: (v.size, -v.damage))
    while need > stock and queue:
        v = queue.pop(0)
        vehicles.remove(v)
        need -= parts_needed(v, tinkerer, rules)
        gain = v.scrap_parts * scrap_factor
        stock += gain
        from_scrap += gain
        scrapped.append(v.type)
    for v in vehicles:
        v.damage = 0
    out = CombatConvoy(**{**convoy.__dict__, "vehicles": vehicles})
    out.troops = min(out.troops, out.troop_capacity())
    out.rockets = min(out.rockets, out.rocket_launchers())
    disbanded = not vehicles
    events: list[Event] = []
    if need or scrapped:
        events.append(ev.Repaired(convoy=convoy.id, owner=convoy.owner, parts_used=need,
                                  scrapped=tuple(scrapped), parts_from_scrap=from_scrap,
                                  disbanded=disbanded))
    return RepairResult(need, stock - need, scrapped, from_scrap, out, disbanded, events)
