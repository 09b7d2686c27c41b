"""BOMB and RAZE in the player turn: the combat package's `bomb_city` and `raze_city`
(engine/rulesets/cc/combat/bombing.py, razing.py) applied to the state.

- BOMB [B|P|T|S]: an air convoy, not hidden, with bombs aboard, in the hex of a city that is
  neither its clan's nor an ally's, once a turn: every bomb is dropped and used up; the city
  loses people (its value following, X189), troops or buildings, a Scourge hit infects it
  (turn/plague.py `scourge`), the city turns hostile to the bomber (`bomb_hostile`, X182) and
  the bombing goes out on the radio (X52).
- RAZE: in a city the clan owns, not razed this game turn (X188), with every convoy the clan
  has there (X187): people killed, buildings burnt, troops killed, morale up and training
  down, the clan's spy there lost, half the claymores saved, the fortification a level down;
  the city goes uncontrolled, fully garrisoned and hostile to the clan, and the razing goes
  out on the radio. The convoys stay in the hex, guard no more, and go on with their orders.
"""

from __future__ import annotations

from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.combat import BombTarget, RazedCity, Razer, bomb_city, raze_city
from engine.rulesets.cc.combat.events import named
from engine.rulesets.cc.turn import plague, radio
from engine.rulesets.cc.turn.battles import combat_rules, shrink
from engine.rulesets.cc.turn.clan_turn import ClanTurn


def _burn(t: ClanTurn, city: st.City, codes) -> None:
    """Remove the named buildings of the city from the state."""
    for code in codes:
        row = next((b for b in t.ctx.state["buildings"] if b.cell == city.cell and b.code == code), None)
        if row is not None:
            t.ctx.state["buildings"].remove(row)
        t.buildings[city.cell].discard(code)


def _make_hostile(t: ClanTurn, city: st.City) -> None:
    if (city.cell, t.number) not in t.hostile:
        t.hostile.add((city.cell, t.number))
        t.ctx.state["hostile"].append(st.Hostile(city.cell, t.number))


def bomb_refusal(t: ClanTurn, cv: st.Convoy) -> str:
    """Why the convoy cannot bomb where it is now ("" = it can)."""
    city = t.cities.get(cv.cell)
    if cv.type != "air":
        return "only air convoys bomb"
    if ("bomb", cv.id, -1) in t.marks:
        return "the convoy bombed already this turn"
    if city is None:
        return f"there is no city in {t.label(cv.cell)} to bomb"
    if city.owner == t.number:
        return f"{city.name} is yours"
    if city.owner and t.ally(city.owner):
        return f"{city.name} belongs to an ally"
    if cv.bombs <= 0:
        return "the convoy carries no bombs"
    return ""


def bomb(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    why = bomb_refusal(t, cv)
    if why:
        return t.fail(order, why, cv.number, pulse)
    city = t.cities[cv.cell]
    t.mark("bomb", cv.id)
    rules = combat_rules(t)
    here = t.buildings[city.cell]
    target = BombTarget(city.cell, city.owner, city.fortification, city.population, city.troops,
                        tuple(sorted(here)), city.plague)
    r = bomb_city(t.book, cv.id, t.number, cv.bombs, order.word, target, t.dice, rules,
                  shelter="SHE" in here, battery="BAT" in here)
    for e in r.events:
        t.emit(named(e, {cv.id: (cv.owner, cv.number)}))
    cv.bombs = 0
    shrink(t, city, r.population)
    city.troops = r.troops
    _burn(t, city, r.destroyed)
    if r.scourge_hits and plague.scourge(t, city):
        # the owner learns of it as of any Plague: only where a Hospital stands (X183)
        t.emit(plague.CityPlague(t.world.game_turn, city.owner, city.cell, city.name, True, 0,
                                 city.population, "HOS" in t.buildings[city.cell]))
    if rules.bomb_hostile:
        _make_hostile(t, city)
    held = f", held by clan {city.owner}," if city.owner else ""
    harm = [f"{r.people_killed:,} people" if r.people_killed else "",
            f"{r.troops_killed} defenders" if r.troops_killed else "",
            f"{len(r.destroyed)} building{'s' if len(r.destroyed) != 1 else ''}" if r.destroyed else ""]
    harm = [h for h in harm if h]
    radio.broadcast(t, "bombing", city.cell,
                    f"Clan {t.number} bombed {city.name} ({t.label(city.cell)}){held} with "
                    f"{len(r.drops)} bomb{'s' if len(r.drops) != 1 else ''}"
                    + (f": {', '.join(harm)} lost." if harm else "."),
                    involved=(city.owner,) if city.owner else ())
    t.done(order, f"dropped {len(r.drops)} bombs on {city.name}", cv.number, pulse)


def raze_refusal(t: ClanTurn, cv: st.Convoy) -> str:
    city = t.cities.get(cv.cell)
    if city is None:
        return f"there is no city in {t.label(cv.cell)} to raze"
    if city.owner != t.number:
        return f"{city.name} is not yours"
    if city.razed_turn == t.turn:
        return f"{city.name} was razed already this turn"
    return ""


def _razer(t: ClanTurn, c: st.Convoy) -> Razer:
    fleet = t.fleet(c)
    classes = [t.book.vehicles[v]["class"] for v in sorted(fleet) for _ in range(fleet[v])]
    return Razer(c.id, classes, t.size(c), c.troops, c.morale, c.training)


def raze(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    why = raze_refusal(t, cv)
    if why:
        return t.fail(order, why, cv.number, pulse)
    city = t.cities[cv.cell]
    mine = [c for c in t.convoys() if c.cell == cv.cell]
    spies = t.ctx.state["spies"]
    spy = next((s for s in spies if s.cell == city.cell and s.clan == t.number), None)
    target = RazedCity(city.cell, city.owner, city.fortification, city.population, city.troops,
                       city.claymores, tuple(sorted(t.buildings[city.cell])))
    r = raze_city(t.book, cv.id, t.number, [_razer(t, c) for c in mine], target, t.dice,
                  combat_rules(t), spy=spy is not None)
    for e in r.events:
        t.emit(named(e, {c.id: (c.owner, c.number) for c in mine}))
    for c in mine:
        c.troops, c.morale, c.training = r.convoys[c.id]
        c.guarding = False       # they retreat outside the walls
    t.clan.troops += r.troops_returned
    t.clan.claymores += r.claymores_saved
    if spy is not None:
        spies.remove(spy)
    shrink(t, city, r.population)
    _burn(t, city, r.burnt)
    city.owner, city.fortification, city.troops, city.claymores = 0, r.fortification, r.garrison, 0
    city.razed_turn = t.turn
    _make_hostile(t, city)
    radio.broadcast(t, "razing", city.cell,
                    f"Clan {t.number} razed its own city of {city.name} ({t.label(city.cell)}): "
                    f"{r.people_killed:,} people died and the city is left to its survivors.")
    t.done(order, f"razed {city.name}", cv.number, pulse)
