"""City buildings and hex structures whose effects other modules do not carry
([BUILDINGS], [CUSTOM STRUCTURES]); the rest live where they act (income.py: Armory,
Marketplace, special and custom structures' output; movement.py: Police Station, Rec Center,
Racetrack, Training School; game_turn.py: Church, Stockyard; upkeep.py: Recruiting Center,
Helipad; plague.py: Hospital; standing.py: Stadium).

- A building serves the clan that owns its city, and not in a city it took this turn (D23);
  one erected this turn works at once.
- Airport: an air convoy that begins its turn in a friendly city with an Airport has four more
  hexes of range that turn (remembered at the turn's start, so leaving the city keeps it and
  arriving gives nothing).
- Indoctrination Center: a convoy CREATEd there gets a free scout of its type, +15-20 morale
  and +15-20 training, and a full load of troops at no charge.
- Junkyard: each turn one car for the first land convoy of the owner to enter the city's hex;
  none entering, the car is lost (a car is a land vehicle: military convoys get none, which
  narrows X89).
- Garrison (custom structure, `auto_garrison`): at the start and end of the owner's turn its
  hex's guards are filled up to the defence level for nothing, except in the turn the hex was
  taken.
"""

from __future__ import annotations

from engine.rulesets.cc import state as st
from engine.rulesets.cc.turn import events as ev
from engine.rulesets.cc.turn.clan_turn import ClanTurn


def works(t: ClanTurn, city: st.City | None, code: str) -> bool:
    """The city's building `code` serves the active clan now (D23)."""
    return (city is not None and city.owner == t.number and city.conquered_turn != t.turn
            and code in t.buildings[city.cell])


def _note(t: ClanTurn, what: str, convoy: int, pulse: int, detail: str) -> None:
    t.emit(ev.OrderDone(t.number, what, convoy, pulse, 0, detail))


def turn_start(t: ClanTurn) -> None:
    """The income phase: Airports mark the air convoys starting there; Garrisons recruit."""
    for cv in t.convoys():
        if cv.type == "air" and "AIR" in t.buildings[cv.cell] and t.friendly_city(cv.cell) is not None:
            t.mark("airport start", cv.id)
    garrisons(t, 0)


def airport_bonus(t: ClanTurn, cv: st.Convoy) -> bool:
    return cv.type == "air" and ("airport start", cv.id, -1) in t.marks


def scout_of(t: ClanTurn, kind: str) -> str | None:
    """The fast scout vehicle of a convoy type (a free vehicle, a gift)."""
    return next((v for v, r in sorted(t.book.vehicles.items())
                 if r["convoy_type"] == kind and r["class"] == "fast_scout"), None)


def indoctrinate(t: ClanTurn, cv: st.Convoy, city: st.City) -> None:
    """CREATE in a city with an Indoctrination Center."""
    if not works(t, city, "IND"):
        return
    scout = scout_of(t, cv.type)
    if scout:
        t.add_vehicles(cv, scout, 1)
    morale, training = t.roll(15, 20, "indoctrination morale"), t.roll(15, 20, "indoctrination training")
    cv.morale += morale
    cv.training = min(100, cv.training + training)
    cv.troops = max(cv.troops, t.troop_cap(cv))
    name = t.book.vehicles[scout]["name"].lower() if scout else "no vehicle"
    _note(t, "INDOCTRINATION CENTER", cv.number, 0,
          f"a free {name}, morale +{morale}, training +{training}, {cv.troops} free troops")


def entered(t: ClanTurn, cv: st.Convoy, pulse: int) -> None:
    """A convoy entered a hex: the Junkyard's car."""
    city = t.cities.get(cv.cell)
    if cv.type == "land" and works(t, city, "JUN") and t.mark("junkyard", 0, cv.cell):
        t.add_vehicles(cv, "car", 1)
        _note(t, "JUNKYARD", cv.number, pulse, f"picked up a car at the Junkyard of {city.name}")


def garrisons(t: ClanTurn, pulse: int) -> None:
    """Garrison structures fill their hex's guards up to its defence level, free."""
    for h in sorted((h for h in t.hexes.values() if h.custom and h.owner == t.number), key=lambda h: h.cell):
        row, cell = t.custom.get(h.custom), h.cell
        if row is None or not row.get("auto_garrison") or h.conquered_turn == t.turn:
            continue
        n = h.defense - h.troops
        if n > 0:
            h.troops += n
            _note(t, "GARRISON", 0, pulse, f"{n} guards recruited at {t.label(cell)}")
