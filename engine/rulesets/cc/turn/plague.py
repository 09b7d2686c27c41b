"""The Plague ([VACCINE], [CONVOY STATISTICS › Health], [CURE], [AID], [BUILDINGS › Hospital],
BOMB's Scourge, [GAME TURN ACTIVITIES]).

Cities: at the end of a game turn an afflicted city loses `plague_decline_pct` of its people
(half with a Hospital), never below `min_population`, its value following (X61); then every
owned city still healthy may catch it (`plague_chance_pct`). An afflicted city pays
`plague_income_loss_pct` less (income.py) and never grows (game_turn.py). A city is cured by
CURE, or by a convoy in AID mode entering it: a vaccine per 1,000 people or part, less the
Doctor's share (X69), all or nothing; the grateful people then give a gift (a house table,
`cure_gifts.csv`, as the book names the kinds but no figures). Its owner learns of the Plague
only where a Hospital stands ("shown on your city list"); a Doctor reports it in cities his
convoy enters.

Convoys: a convoy entering an afflicted city catches the Plague (`plague_convoy_chance_pct`)
and loses `plague_health_per_pulse` health each pulse after. At the pre-turn pick-up and at
maintenance each convoy below full health or infected is healed, in number order, all or
nothing: size x health points lost / `plague_heal_points` vaccine, rounded up, less the
Doctor's share. One left unhealed while infected loses each troop at
`plague_troop_death_pct`; below 75% its troops all desert (and none board, movement.pick_up);
below 50% it obeys no orders (pulses.py). The book gives none of these rates (X68).

Each event here tells its own report line (`describe`), which report_words uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.dice import Dice
from engine.events import Event
from engine.ruleset import TurnContext
from engine.rulesets.cc import convoy_stats as cs
from engine.rulesets.cc import costs
from engine.rulesets.cc import orders as o
from engine.rulesets.cc import state as st
from engine.rulesets.cc.catalog import d100_row
from engine.rulesets.cc.turn.buildings import scout_of
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.events import _Own
from engine.rulesets.cc.turn.income import city_value

# ---- events ------------------------------------------------------------------------------


def _chance(dice: Dice, pct: int, why: str) -> bool:
    """A percentage chance, rolled only where it could go either way (so a rule case's
    scripted dice need no roll for a certainty or an impossibility)."""
    return pct >= 100 or (pct > 0 and dice.chance(pct, why))


def _who(convoy: int, pulse: int) -> str:
    return f"Convoy #{convoy}" + (f", pulse {pulse}" if pulse > 0 else "")


@dataclass(frozen=True)
class Infected(_Own, Event):
    """A convoy caught the Plague in an afflicted city."""

    kind = "cc.infected"
    clan: int
    convoy: int
    pulse: int
    cell: int

    def describe(self, label=None, width: int = 80) -> str:
        where = label(self.cell) if label else str(self.cell)
        return f"{_who(self.convoy, self.pulse)}: caught the Plague in {where}"


@dataclass(frozen=True)
class PlagueFound(_Own, Event):
    """A Doctor found the Plague in a city his convoy entered."""

    kind = "cc.plague_found"
    clan: int
    convoy: int
    pulse: int
    cell: int
    city: str

    def describe(self, label=None, width: int = 80) -> str:
        return f"{_who(self.convoy, self.pulse)}: the Doctor reports the Plague in {self.city}"


@dataclass(frozen=True)
class CityCured(_Own, Event):
    """CURE (or AID): the city's Plague cured, and the gift of its people."""

    kind = "cc.city_cured"
    clan: int
    convoy: int
    pulse: int
    cell: int
    city: str
    vaccine: int
    gift: str           # "fuel", "vehicle"... ("" none)
    amount: int         # units, or 1 vehicle
    vehicle: str = ""   # the vehicle's id when the gift is one

    def describe(self, label=None, width: int = 80) -> str:
        thanks = ""
        if self.gift == "vehicle":
            thanks = f"; its grateful people gave a {self.vehicle}"
        elif self.gift:
            thanks = f"; its grateful people gave {self.amount} {self.gift}"
        return (f"{_who(self.convoy, self.pulse)}: cured {self.city} of the Plague for "
                f"{self.vaccine} vaccine{thanks}")


@dataclass(frozen=True)
class Healed(_Own, Event):
    """Vaccine spent to restore a convoy to full health (pre-turn or maintenance)."""

    kind = "cc.healed"
    clan: int
    convoy: int
    pulse: int          # 0: pre-turn, -1: maintenance
    health: int         # before
    vaccine: int

    def describe(self, label=None, width: int = 80) -> str:
        return (f"Convoy #{self.convoy}: healed from {self.health}% to 100% health "
                f"for {self.vaccine} vaccine")


@dataclass(frozen=True)
class Unhealed(_Own, Event):
    """A convoy the vaccine could not heal: troops dead of the Plague, deserters below 75%."""

    kind = "cc.unhealed"
    clan: int
    convoy: int
    pulse: int
    health: int
    needed: int         # vaccine it needed
    died: int
    deserted: int

    def describe(self, label=None, width: int = 80) -> str:
        text = (f"Convoy #{self.convoy}: not enough vaccine to heal it ({self.needed} needed); "
                f"health {self.health}%")
        if self.died:
            text += f"; {self.died} troops died of the Plague"
        if self.deserted:
            text += f"; {self.deserted} troops deserted in fear of the Scourge"
        return text


@dataclass(frozen=True)
class CityPlague(Event):
    """End of a game turn: a city struck by the Plague, or losing people to it. Its owner
    sees it only where a Hospital stands (the book's city list); the GM always."""

    kind = "cc.city_plague"
    game_turn: int
    owner: int
    cell: int
    city: str
    struck: bool        # True: caught it now; False: declined
    lost: int           # people lost
    population: int     # after
    hospital: bool

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.owner}) if self.hospital and self.owner else frozenset()

    def describe(self, label=None, width: int = 80) -> str:
        if self.struck:
            return f"The Plague struck {self.city}"
        half = " (halved by its Hospital)" if self.hospital else ""
        return f"The Plague killed {self.lost:,} people in {self.city}{half}; {self.population:,} left"


# ---- cities --------------------------------------------------------------------------------


def plague_known(state: Any, clan: int, now: int) -> set[int]:
    """Cells of afflicted cities the clan knows of after its turn `now`: its own with a
    Hospital, and those its Doctors found this turn (report and bundle show no others)."""
    hospitals = {b.cell for b in state["buildings"] if b.code == "HOS"}
    doctored = {s.cell for s in state["seen"] if s.clan == clan and s.game_turn == now and s.how == "plague"}
    return {c.cell for c in state["cities"]
            if c.plague and (c.cell in doctored or (c.owner == clan and c.cell in hospitals))}


def cure_city(t: ClanTurn, cv: st.Convoy, city: st.City, pulse: int,
              order: o.CcOrder | None = None) -> bool:
    """CURE / AID: all or nothing; a gift follows. False (and a failure if ordered) when short."""
    need = costs.cure_vaccine(t.book, city.population, t.experts(cv))
    if t.clan.vaccine < need:
        if order is not None:
            t.fail(order, f"curing {city.name} needs {need} vaccine and the clan has "
                          f"{t.clan.vaccine}; none was used", cv.number, pulse)
        return False
    t.clan.vaccine -= need
    city.plague = False
    gift, amount, vehicle = "", 0, ""
    roll = t.dice.d(100, f"cure gift {city.cell}")
    row = d100_row(t.ctx.catalogs, "cure_gifts", roll)
    if row is not None:
        gift, amount = row["gift"], t.roll(row["least"], row["most"], f"cure gift amount {city.cell}")
        if gift == "vehicle":
            vid = scout_of(t, cv.type)
            if vid is None:
                gift, amount = "", 0
            else:
                t.add_vehicles(cv, vid, 1)
                vehicle, amount = t.book.vehicles[vid]["name"].lower(), 1
        else:
            t.put(gift, amount)
    t.emit(CityCured(t.number, cv.number, pulse, city.cell, city.name, need, gift, amount, vehicle))
    return True


def cure(t: ClanTurn, cv: st.Convoy, order: o.ConvoyOrder, pulse: int) -> None:
    """The CURE convoy order, in the city where the convoy stands."""
    city = t.cities.get(cv.cell)
    if city is None:
        return t.fail(order, f"there is no city in {t.label(cv.cell)}", cv.number, pulse)
    if not city.plague:
        return t.fail(order, f"{city.name} does not have the Plague; no vaccine was used", cv.number, pulse)
    cure_city(t, cv, city, pulse, order)


def entered(t: ClanTurn, cv: st.Convoy, pulse: int) -> None:
    """A convoy entered (or paused in) a hex: in an afflicted city a Doctor reports it, AID
    cures it, and otherwise the convoy may catch it."""
    doctor = "DOC" in t.experts(cv)
    if cv.aid and not doctor:
        cv.aid = False          # [AID]: back to OFF when the Doctor has gone
    city = t.cities.get(cv.cell)
    if city is None or not city.plague:
        return
    if doctor:
        t.seen(city.cell, "plague")
        t.emit(PlagueFound(t.number, cv.number, pulse, city.cell, city.name))
        if cv.aid and cure_city(t, cv, city, pulse):
            return
    if not cv.plague and _chance(t.dice, int(t.opts.plague_convoy_chance_pct), f"plague {cv.number}"):
        cv.plague = True
        t.emit(Infected(t.number, cv.number, pulse, city.cell))


def scourge(t: ClanTurn, city: st.City) -> bool:
    """A Scourge bomb that hit (BOMB S): the city is infected, only half the time where a
    Hospital stands. For the bombing rules (combat) to call; True when it took."""
    if city.plague:
        return False
    if "HOS" in t.buildings[city.cell] and not _chance(t.dice, 50, f"scourge hospital {city.cell}"):
        return False
    city.plague = True
    return True


# ---- convoys --------------------------------------------------------------------------------


def sicken(t: ClanTurn, convoys: list[st.Convoy]) -> None:
    """After a pulse: each infected convoy that acted in it loses health."""
    per = int(t.opts.plague_health_per_pulse)
    for cv in convoys:
        if cv.plague:
            cv.health = max(0, cv.health - per)


def heal_need(t: ClanTurn, cv: st.Convoy) -> int:
    """Vaccine to restore a convoy: size x points lost / plague_heal_points, rounded up, less
    the Doctor's share (15%, 30% with a Priest); at least one while it carries the Plague."""
    lost = 100 - cv.health
    need = math.ceil(max(1, t.size(cv)) * lost / int(t.opts.plague_heal_points))
    need = math.ceil(need * (100 - cs.expert_pct(t.book, "DOC", t.experts(cv))) / 100)
    return max(need, 1 if cv.plague else 0)


def heal(t: ClanTurn, pulse: int) -> None:
    """[PRE-TURN PICKUP/HEALING], [POST-TURN MAINTENANCE]: convoys healed in number order."""
    for cv in t.convoys():
        if not cv.plague and cv.health >= 100:
            continue
        need, before = heal_need(t, cv), cv.health
        if t.clan.vaccine >= need:
            t.clan.vaccine -= need
            cv.health, cv.plague = 100, False
            t.emit(Healed(t.number, cv.number, pulse, before, need))
            continue
        died = 0
        if cv.plague:
            died = sum(1 for _ in range(cv.troops)
                       if _chance(t.dice, int(t.opts.plague_troop_death_pct), "plague death"))
            cv.troops -= died
        deserted = 0
        if cv.health < 75:
            deserted, cv.troops = cv.troops, 0
        t.emit(Unhealed(t.number, cv.number, pulse, cv.health, need, died, deserted))


# ---- the end of a game turn -----------------------------------------------------------------


def cycle(ctx: TurnContext) -> None:
    """[GAME TURN ACTIVITIES]: afflicted cities decline; then healthy owned cities may catch it."""
    world = ctx.state["world"][0] if ctx.state["world"] else st.World()
    dice: Dice = ctx.dice.sub("game turn", world.game_turn, "plague")
    ended = world.game_turn - 1
    hospitals = {b.cell for b in ctx.state["buildings"] if b.code == "HOS"}
    pct, floor = int(ctx.options.plague_decline_pct), int(ctx.options.min_population)
    cities = sorted(ctx.state["cities"], key=lambda c: c.cell)
    chance = int(ctx.options.plague_chance_pct)
    struck_now = set()
    for city in cities:
        if city.plague or not city.owner:
            continue
        if _chance(dice, chance, f"plague {city.cell}"):
            struck_now.add(city.cell)
    for city in cities:
        hospital = city.cell in hospitals
        if city.plague:
            lost = city.population * pct // (200 if hospital else 100)
            new = max(min(floor, city.population), city.population - lost)
            if new < city.population:
                city.value = city_value(ctx.catalogs, city, new)  # X243
            lost, city.population = city.population - new, new
            ctx.emit(CityPlague(ended, city.owner, city.cell, city.name, False, lost, new, hospital))
        elif city.cell in struck_now:
            city.plague = True
            ctx.emit(CityPlague(ended, city.owner, city.cell, city.name, True, 0, city.population, hospital))
