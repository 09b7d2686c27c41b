"""What a clan's report bundle and player viewer may hold: the state pruned by the same rule
as its status report (report.py), so nothing reaches a player that its report does not tell.

Kept: the clan's own row, convoys (with vehicles and experts), relations, marks, news, agents
and sightings; the hexes and cities it holds or met this turn (with their buildings and
roads); the foreign convoys its cities spot, as the spotting report gives them (hex; owner
only within the naming range; no vehicles); every clan's number, name and popularity (the Top
Clans list), never an account number (the password), sequence number, address or stockpile;
the world (game turn, leader, winner), prices and Top Clans lists, which are public.

No game-wide convoy id reaches the bundle (it would tell how many convoys the game has had,
and would let a clan follow a spotted convoy from turn to turn): the clan's own convoys are
keyed by their number (#1, #2...; vehicles, experts and marks follow), spotted ones by -1,
-2... in the spotting report's order.
"""

from __future__ import annotations

from dataclasses import replace

from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.report import spotted_convoys
from engine.rulesets.cc.turn.espionage import spy_views
from engine.rulesets.cc.turn.plague import plague_known
from engine.scenario import Scenario
from engine.state import State


def visible_state(state: State, clan: int, scenario: Scenario) -> State:
    out = State(state.schema, state.step)
    now = next((c.turns_run for c in state["clans"] if c.number == clan), 0)  # its last turn
    met = {s.cell for s in state["seen"] if s.clan == clan and s.game_turn == now}
    # cc-house: whether a hex was looted (by anyone) is not in the report, so not here either
    hexes = [replace(h, looted=False) for h in state["hexes"] if h.owner == clan or h.cell in met]
    plagued = plague_known(state, clan, now)  # cc-cycle: the Plague only where the report tells it
    cities = [replace(c, plague=c.cell in plagued) for c in state["cities"] if c.owner == clan or c.cell in met]
    places = {h.cell for h in hexes} | {c.cell for c in cities}
    # cc-house (K24): a city known only from a spy beside a counter-spy, as the spy reported it
    views = spy_views(state, clan, now)
    cities = [replace(c, fortification=views[c.cell].fortification, troops=views[c.cell].troops,
                      claymores=views[c.cell].claymores) if c.cell in views else c for c in cities]
    buildings = [b for b in state["buildings"] if b.cell in places and b.cell not in views]
    buildings += [st.Building(cell, code) for cell, v in sorted(views.items()) for code in v.buildings.split()]
    key = {c.id: c.number for c in state["convoys"] if c.owner == clan}  # id -> its number
    mine = [replace(c, id=c.number) for c in state["convoys"] if c.owner == clan]
    out.tables.update({
        "world": list(state["world"]), "prices": list(state["prices"]),
        "top_clans": list(state["top_clans"]), "hexes": hexes, "cities": cities,
        "buildings": buildings,
        "roads": [r for r in state["roads"] if r.cell in places or r.to in places],
        "convoys": mine + _spotted(state, clan, scenario),
        "vehicles": [replace(v, convoy=key[v.convoy]) for v in state["vehicles"] if v.convoy in key],
        "experts": [replace(e, convoy=key[e.convoy]) for e in state["experts"] if e.convoy in key],
    })
    for name in ("relations", "seen", "inbox", "agent_targets", "hostile", "spies"):
        out.tables[name] = [r for r in state[name] if r.clan == clan]
    out.tables["turn_marks"] = [replace(m, convoy=key.get(m.convoy, 0)) if m.convoy else m
                                for m in state["turn_marks"] if m.clan == clan]
    out.tables["clans"] = [c if c.number == clan else
                           st.Clan(number=c.number, name=c.name, popularity=c.popularity,
                                   dropped=c.dropped, account="", sequence=0)
                           for c in state["clans"]]
    return out


def _spotted(state: State, clan: int, scenario: Scenario) -> list[st.Convoy]:
    """Foreign convoys the clan's cities spot, as ghost images: the hex, and the owner only
    within naming range (0 otherwise); no vehicles, troops or name."""
    return [st.Convoy(id=-(k + 1), owner=cv.owner if named else 0, number=0, type=cv.type, cell=cv.cell)
            for k, (cv, named, _sized) in enumerate(spotted_convoys(state, Book(scenario.catalogs), clan, scenario))]
