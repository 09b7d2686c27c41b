"""BOMB and RAZE judged against the state before the turn (turn/strikes.py carries them out).

A convoy that gives no move before its BOMB or RAZE is still where the state has it when
the order comes (nothing else moves a convoy), and still hidden if it starts hidden (only a
move or PAUSE brings it out); its city changes hands in the clan's own turn only by the
clan's own ATTACK or RAZE, and an ally only by a pre-turn ALLY. So, for such a convoy, these
are certain and refused: no city in its hex; BOMB of the clan's own city (with no RAZE on the
sheet) or an ally's (with no pre-turn ALLY of that clan); BOMB in hiding; BOMB with no bomb
aboard, none in the stock to pick up, none bought, given or absorbed; RAZE of a city not the
clan's (with no ATTACK on the sheet). Where one of those orders is on the sheet the finding
is a warning. A second RAZE of the same city in a turn is warned of (it fails if the first
succeeded, X188). BOMB by a convoy that is not an air one, and a second BOMB or RAZE of one
convoy, are check.py's (the convoy orders catalog's limits).
"""

from __future__ import annotations

from engine.orders import ILLEGAL, Diagnostic, Severity
from engine.rulesets.cc import orders as o
from engine.scenario import Scenario
from engine.state import State

STRIKES = ("BOMB", "RAZE")


def check_strikes(orders: list[o.CcOrder], state: State, faction: int, scenario: Scenario,
                  source: str = "") -> list[Diagnostic]:
    strikes = [x for x in orders if isinstance(x, o.ConvoyOrder) and x.keyword in STRIKES]
    if not strikes:
        return []
    grid = scenario.map.grid
    cities = {c.cell: c for c in state["cities"]}
    convoys = {c.number: c for c in state["convoys"] if c.owner == faction}
    clan = next((c for c in state["clans"] if c.number == faction), None)
    allies = {r.other for r in state["relations"] if r.clan == faction and r.ally}
    pre = [x for x in orders if x.section == o.PRE]
    toggled = {x.clan for x in pre if isinstance(x, o.Toward) and x.keyword == "ALLY"}
    attacks = any(x.keyword == "ATTACK" for x in orders if isinstance(x, o.ConvoyOrder))
    razes = any(x.keyword == "RAZE" for x in strikes)
    bombs_bought = any(isinstance(x, o.Buy) and x.item == "bombs" for x in pre)
    out: list[Diagnostic] = []
    razed: set[int] = set()

    def say(x: o.CcOrder, message: str, certain: bool = True) -> None:
        out.append(Diagnostic(ILLEGAL, message, x.line, 0, x.text, source,
                              Severity.ERROR if certain else Severity.WARNING))

    for x in sorted(strikes, key=lambda x: (x.slot, x.convoy)):
        cv = convoys.get(x.convoy)
        if cv is None:
            continue  # check.py: no such convoy
        before = [y for y in orders if isinstance(y, o.ConvoyOrder) and y.convoy == x.convoy
                  and y.slot < x.slot]
        if any(isinstance(y, o.Move) for y in before):
            continue  # where it will be is the dry run's to tell
        city = cities.get(cv.cell)
        where = grid.label(cv.cell, "ccrr")
        if city is None:
            say(x, f"there is no city in {where}, where convoy #{x.convoy} stands when it "
                   f"comes to {x.keyword}")
            continue
        if x.keyword == "BOMB":
            _bomb(x, cv, city, clan, before, pre, allies, toggled, razes, bombs_bought, say)
        elif city.owner != faction:
            say(x, f"{city.name} is not yours" + (" (unless your ATTACK takes it first)"
                                                  if attacks else ""), certain=not attacks)
        elif city.cell in razed:
            say(x, f"{city.name} is razed earlier this turn and can be razed only once a turn",
                certain=False)
        else:
            razed.add(city.cell)
    return out


def _bomb(x, cv, city, clan, before, pre, allies, toggled, razes, bombs_bought, say) -> None:
    if cv.hidden and not any(y.keyword == "PAUSE" for y in before):
        say(x, f"convoy #{x.convoy} is hidden: BOMB cannot be done in hiding (PAUSE or move "
               "out first)")
    if city.owner == cv.owner:
        say(x, f"{city.name} is yours" + (" (unless you raze it first)" if razes else ""),
            certain=not razes)
    elif city.owner and city.owner in allies:
        say(x, f"{city.name} belongs to your ally clan {city.owner}"
               + (" (unless your ALLY order ends it first)" if city.owner in toggled else ""),
            certain=city.owner not in toggled)
    refill = (bombs_bought or (clan is not None and clan.bombs > 0)
              or any(y.keyword == "ABSORB" for y in before)
              or any(isinstance(y, o.Give) and y.item == "bombs" and y.receiver == x.convoy
                     for y in pre))
    if cv.bombs <= 0 and not refill:
        say(x, f"convoy #{x.convoy} carries no bombs and your stock has none to pick up")
