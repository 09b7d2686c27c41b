"""Typed events of Continental Conquest combat, for the turn's log and the clans' reports.

`attacker` and `defender` are clan numbers (0 = nobody, for uncontrolled cities and hexes);
`convoy` and `enemy` are convoy ids. Every event is seen by the clans it names (and the GM);
the radio's broadcast of battles (the book's "Heard on the Radio") is the report's business.

A convoy id is the game's own key: it tells how many convoys the game has had, so no player
may see one. The turn (turn/battles.py) gives each event the `names` of the convoys it
names, `(id, clan, number)` - the clan's own "convoy #2 of clan 7" - and the sentences use
those; a clan's bundle holds the event with each id replaced by a local reference (`seen_by`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from engine.events import Event

# the fields of the combat events that hold convoy ids (a number or a tuple of them)
CONVOY_FIELDS = ("convoy", "enemy", "by", "at", "winner", "hidden", "destroyed", "convoys")


class _Sides:
    attacker: int
    defender: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset(c for c in (self.attacker, self.defender) if c)


@dataclass(frozen=True, kw_only=True)
class _Named:
    """`names`: (convoy id, clan, the clan's convoy number) for each convoy the event names."""

    names: tuple[tuple[int, int, int], ...] = ()

    def seen_by(self, faction: int) -> Event:
        """For a clan's bundle: every convoy id replaced by a reference local to the event
        (-1, -2... in the order of `names`; 0 for an id without a name)."""
        ref = {cid: -(k + 1) for k, (cid, _clan, _n) in enumerate(self.names)}
        out: dict[str, object] = {"names": tuple((ref[c], o, n) for c, o, n in self.names)}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name in CONVOY_FIELDS:
                v = getattr(self, f.name)
                out[f.name] = tuple(ref.get(x, 0) for x in v) if isinstance(v, tuple) else ref.get(v, 0)
        return replace(self, **out)  # type: ignore[type-var]


def named(e: Event, convoys: Mapping[int, tuple[int, int]]) -> Event:
    """The event with the `names` of the convoys it names, from `convoys` (id -> (clan,
    number)); events without convoy fields come back unchanged."""
    if not isinstance(e, _Named):
        return e
    ids: list[int] = []
    for f in fields(e):  # type: ignore[arg-type]
        if f.name in CONVOY_FIELDS:
            v = getattr(e, f.name)
            ids += v if isinstance(v, tuple) else [v]
    seen: dict[int, tuple[int, int, int]] = {}
    for cid in ids:
        if cid and cid in convoys and cid not in seen:
            seen[cid] = (cid, *convoys[cid])
    return replace(e, names=tuple(seen.values()))  # type: ignore[type-var]


# ---- attacking a hex -------------------------------------------------------------------


@dataclass(frozen=True)
class HexAttacked(_Sides, _Named, Event):
    """A convoy in capture mode took on a hex: the rolled requirement and what it cost."""

    kind = "cc.hex_attacked"
    cell: int
    convoy: int
    attacker: int
    defender: int
    needed: int          # the rolled troop requirement
    troops_lost: int
    guards_killed: int
    captured: bool


# ---- invading a city -------------------------------------------------------------------


@dataclass(frozen=True)
class CityRound(_Sides, _Named, Event):
    kind = "cc.city_round"
    cell: int
    convoy: int
    attacker: int
    defender: int
    round: int
    attacker_to_hit: int
    defender_to_hit: int
    defenders_killed: int
    attackers_killed: int
    grenade: str         # "" | "hit" | "miss"
    people_killed: int


@dataclass(frozen=True)
class CityInvaded(_Sides, _Named, Event):
    """The end of an ATTACK: who won, what each side lost, the people killed."""

    kind = "cc.city_invaded"
    cell: int
    convoy: int
    attacker: int
    defender: int
    rounds: int
    captured: bool
    attackers_lost: int
    defenders_lost: int
    guards_lost: int     # troops of guarding convoys among the defenders lost
    people_killed: int
    garrison_left: int
    rifles_lost: int
    grenades_used: int
    claymores_lost: int


# ---- bombing and razing ----------------------------------------------------------------


@dataclass(frozen=True)
class CityBombed(_Sides, _Named, Event):
    """BOMB: an air convoy's bombs on a city; `buildings` the names of those destroyed. Whether a Scourge hit took hold is
    not said here (the bomber learns only that its bombs hit, X183)."""

    kind = "cc.city_bombed"
    cell: int
    convoy: int
    attacker: int
    defender: int        # the city's owner (0: uncontrolled)
    aim: str             # the order's target letter B P T S ("" = each bomb at random)
    bombs: int
    hits: int
    misses: int
    flak: int            # bombs a Battery's flak made useless
    people_killed: int
    troops_killed: int
    buildings: tuple[str, ...]
    scourge_hits: int


@dataclass(frozen=True)
class CityRazed(_Sides, _Named, Event):
    """RAZE: a clan burnt its own city with its convoys there (`convoys` their ids)."""

    kind = "cc.city_razed"
    cell: int
    convoy: int          # the convoy that gave the order
    attacker: int        # the razing clan
    defender: int        # 0: the city is uncontrolled now
    convoys: tuple[int, ...]
    people_killed: int
    buildings: tuple[str, ...]
    troops_killed: int   # of the convoys and the garrison
    troops_returned: int  # garrison survivors back to the clan's unallocated troops
    claymores_saved: int
    claymores_lost: int
    fortification: int   # the new level
    garrison: int        # the defenders who now hold it for nobody
    spy_lost: bool
    morale: tuple[int, ...]   # each convoy's morale gain (and training loss), as `convoys`


# ---- convoy battles --------------------------------------------------------------------


@dataclass(frozen=True)
class ConvoyBattleBegan(_Sides, _Named, Event):
    kind = "cc.convoy_battle"
    cell: int
    convoy: int
    enemy: int
    attacker: int
    defender: int
    surprise: bool       # the defender was on patrol
    hunt: bool


@dataclass(frozen=True)
class BattleDeclined(_Sides, _Named, Event):
    """The attacking convoy's commander judged the fight not winnable."""

    kind = "cc.battle_declined"
    cell: int
    convoy: int
    enemy: int
    attacker: int
    defender: int


@dataclass(frozen=True)
class Salvo(_Sides, _Named, Event):
    """One side's fire in one round: rocket, damage rolled, and where it went.
    `by` is the firing convoy; `hits` lists (vehicle type, points) in order."""

    kind = "cc.salvo"
    cell: int
    round: int
    by: int
    at: int
    attacker: int
    defender: int
    rocket: tuple[str, int] | None
    damage: int
    troops_killed: int
    hits: tuple[tuple[str, int], ...]
    destroyed: tuple[str, ...]


@dataclass(frozen=True)
class ConvoyFled(_Sides, _Named, Event):
    kind = "cc.convoy_fled"
    cell: int
    convoy: int
    round: int
    attacker: int
    defender: int


@dataclass(frozen=True)
class ConvoyBattleEnded(_Sides, _Named, Event):
    kind = "cc.convoy_battle_ended"
    cell: int
    convoy: int
    enemy: int
    attacker: int
    defender: int
    rounds: int
    winner: int          # convoy id, 0 when nobody won
    hidden: tuple[int, ...]
    destroyed: tuple[int, ...]


# ---- repairs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Repaired(_Named, Event):
    kind = "cc.repaired"
    convoy: int
    owner: int
    parts_used: int
    scrapped: tuple[str, ...]
    parts_from_scrap: int
    disbanded: bool

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.owner}) if self.owner else frozenset()
