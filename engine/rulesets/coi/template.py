"""A player's orders template: a post to start from, made for that player.

The header (comment lines: chat, ignored when posted) gives the player's AP as of the
forum clock, goods, hexes and units; the example actions are built from the player's own
units and hexes and kept only if the checker accepts them on the current state, so the
template never suggests an action that is already impossible. The `AP:` claim is the
player's real AP (the claim check accepts the AP before the post's actions).
"""

from __future__ import annotations

from engine.orders import Severity
from engine.rulesets.coi.actions import read_post
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.checker import check_sheet
from engine.rulesets.coi.clock import ap_at
from engine.scenario import Scenario
from engine.state import State


def _ok(text: str, state: State, faction: int, scenario: Scenario, names: dict[str, str]) -> bool:
    """The actions read and check without an error, tried together in order."""
    sheet = read_post(text, names)
    if not sheet.orders or any(d.severity == Severity.ERROR for d in sheet.diagnostics):
        return False
    return not any(d.severity == Severity.ERROR
                   for d in check_sheet(sheet, state, faction, scenario))


def orders_template(state: State, faction: int, scenario: Scenario) -> str:
    rules = Rules.from_catalogs(scenario.catalogs)
    names = rules.unit_names()
    grid = scenario.map.grid
    me = next((p for p in state["players"] if p.number == faction), None)
    if me is None:
        return ""
    game = state.one("game") if state["game"] else None
    clock = game.clock if game else ""
    ap = ap_at(me.ap, me.ap_at, clock, scenario.options["ap_cap"], scenario.options["ap_per_hour"]) \
        if me.ap_at and clock else me.ap

    def label(cell: int) -> str:
        return grid.label(cell, "col,row")

    hexes = sorted(h.cell for h in state["hexes"] if h.owner == faction)
    stacks = sorted((s for s in state["units"] if s.owner == faction and s.count > 0),
                    key=lambda s: (s.cell, rules.order(s.unit)))
    out = [f"# Conquest of Island, {scenario.name}: a post for {me.name} (player {faction})",
           f"# AP {ap}" + (f" as of {clock}" if clock else "") + f" (+1 an hour, up to "
           f"{scenario.options['ap_cap']}); food {me.food}, wood {me.wood}, iron {me.iron}",
           "# Your hexes: " + (", ".join(label(c) for c in hexes) or "none yet"),
           "# Your units: " + ("; ".join(f"{s.count} {rules.label(s.unit, s.count)} at "
                                         f"{label(s.cell)}" for s in stacks) or "none"),
           "# One action a line; these lines starting with # are ignored. The examples below",
           "# are possible now: keep, change or delete them."]
    if game is not None and not game.started_at:
        out.append("# The game has not started yet: wait for the GM's start post.")
    examples: list[str] = []

    def fits(line: str) -> bool:  # with the examples before it: a post is tried in order
        return _ok("\n".join([*examples, line]), state, faction, scenario, names)

    if hexes and fits("Harvest"):
        examples.append("Harvest")
    for s in stacks:  # the first move a stack of the player's can make
        if len(examples) >= 3:
            break
        word = rules.label(s.unit, 1).lower()
        for n in grid.neighbours(s.cell):
            line = f"Move 1 {word} from {label(s.cell)} to {label(int(n))}"
            if fits(line):
                examples.append(line)
                break
    for c in hexes:  # a recruit the player can pay for
        line = f"Recruit 1 militia at {label(c)}"
        if fits(line):
            examples.append(line)
            break
    out += examples
    out.append(f"AP: {ap}")
    return "\n".join(out) + "\n"
