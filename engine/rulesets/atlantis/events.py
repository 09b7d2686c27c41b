"""Typed events of an Atlantis Conquest turn (kinds `atlantis.*`).

Every event names the unit and faction it concerns; `visible_to` keeps a faction's own
doings (its silver, its study, its password) in its own report. What a faction may see of
others' deeds in its regions is the report's business (stealth), not the event's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.events import Event


class _Own:
    """Seen by the faction it concerns (and the GM)."""

    faction: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction})


def _blanked(e: Event, viewer: int, *fields: str) -> Event:
    """`e` with each faction field in `fields` that is not `viewer` set to 0: an event two
    or more factions are told of names the others' factions, which a faction's bundle
    must not hold unless its units identify them (the sentences never print them)."""
    return replace(e, **{f: 0 for f in fields if getattr(e, f) != viewer})


@dataclass(frozen=True)
class OrderNotBuilt(_Own, Event):
    """An order of a phase the turn does not carry out yet: refused, never silently dropped."""

    kind = "atlantis.not_built"
    faction: int
    unit: int
    order: str          # the verb
    line: int
    phase: str
    reason: str


@dataclass(frozen=True)
class OrderFailed(_Own, Event):
    """An order the turn could not carry out, with why (the server's "Error:" lines)."""

    kind = "atlantis.failed"
    faction: int
    unit: int
    order: str
    line: int
    reason: str
    gm_reason: str = ""   # the GM's words where the player's hide something (reading 97)

    def seen_by(self, faction: int) -> Event:
        """A player's bundle holds the player's words only."""
        return replace(self, gm_reason="") if self.gm_reason else self


@dataclass(frozen=True)
class UnitChanged(_Own, Event):
    """An instant order done: a name, description, flag, combat spell, REVEAL, CONSUME."""

    kind = "atlantis.unit_changed"
    faction: int
    unit: int
    order: str
    value: str


@dataclass(frozen=True)
class FactionChanged(_Own, Event):
    """ADDRESS, NAME FACTION, PASSWORD, OPTION, DECLARE, QUIT done (password: not shown)."""

    kind = "atlantis.faction_changed"
    faction: int
    unit: int
    order: str
    value: str


@dataclass(frozen=True)
class UnitFormed(_Own, Event):
    kind = "atlantis.formed"
    faction: int
    unit: int           # the new unit's number
    alias: int
    by: int             # the unit that gave FORM
    cell: int


@dataclass(frozen=True)
class UnitDissolved(_Own, Event):
    """A unit without men: gone; its goods went to `heir` (0: lost)."""

    kind = "atlantis.dissolved"
    faction: int
    unit: int
    heir: int
    cell: int
    reason: str


@dataclass(frozen=True)
class Claimed(_Own, Event):
    kind = "atlantis.claimed"
    faction: int
    unit: int
    amount: int
    asked: int


@dataclass(frozen=True)
class Given(Event):
    """GIVE of items, silver or men (item "man"); to = 0: discarded. `asked` is what the
    order named (more than the unit had: it gave what it had)."""

    kind = "atlantis.given"
    faction: int
    unit: int
    to: int
    to_faction: int
    item: str
    amount: int
    asked: int = 0

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction, self.to_faction} - {0})

    def seen_by(self, faction: int) -> Event:
        return _blanked(self, faction, "faction", "to_faction")


@dataclass(frozen=True)
class UnitGiven(Event):
    """GIVE n UNIT: the unit now belongs to `to_faction`."""

    kind = "atlantis.unit_given"
    faction: int
    unit: int
    to_faction: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction, self.to_faction})

    def seen_by(self, faction: int) -> Event:
        """The receiver's bundle does not name the giver's faction (its sentence does not:
        a stealthy giver's faction stays unknown); the giver's names the receiver's."""
        return _blanked(self, faction, "faction")


@dataclass(frozen=True)
class StructureChanged(_Own, Event):
    """ENTER, LEAVE, PROMOTE, DESTROY, NAME/DESCRIBE OBJECT of a structure."""

    kind = "atlantis.structure"
    faction: int
    unit: int
    structure: int
    order: str
    value: str


@dataclass(frozen=True)
class SkillForgotten(_Own, Event):
    kind = "atlantis.forgot"
    faction: int
    unit: int
    skill: str


@dataclass(frozen=True)
class Found(_Own, Event):
    """FIND: another faction's address, for the report. (SHOW SKILL and SHOW ITEM emit
    lore.ShowSkill and lore.ShowItem, which the report turns into skill and item reports.)"""

    kind = "atlantis.found"
    faction: int
    unit: int
    other: int
    name: str
    address: str


@dataclass(frozen=True)
class Taxed(_Own, Event):
    kind = "atlantis.taxed"
    faction: int
    unit: int
    cell: int
    amount: int


@dataclass(frozen=True)
class Bought(_Own, Event):
    kind = "atlantis.bought"
    faction: int
    unit: int
    cell: int
    item: str
    amount: int
    asked: int
    price: int


@dataclass(frozen=True)
class Earned(_Own, Event):
    """WORK or ENTERTAIN income."""

    kind = "atlantis.earned"
    faction: int
    unit: int
    cell: int
    order: str
    amount: int


@dataclass(frozen=True)
class Produced(_Own, Event):
    kind = "atlantis.produced"
    faction: int
    unit: int
    cell: int
    item: str
    amount: int


@dataclass(frozen=True)
class Studied(_Own, Event):
    """A month of STUDY: days gained by the whole unit, the fee paid, the level now."""

    kind = "atlantis.studied"
    faction: int
    unit: int
    skill: str
    days: int
    cost: int
    level: int


@dataclass(frozen=True)
class Taught(_Own, Event):
    kind = "atlantis.taught"
    faction: int
    unit: int
    student: int
    skill: str


@dataclass(frozen=True)
class Built(_Own, Event):
    kind = "atlantis.built"
    faction: int
    unit: int
    structure: int
    object: str
    work: int
    finished: bool


@dataclass(frozen=True)
class Maintained(_Own, Event):
    """Maintenance paid by a unit: from its own silver, its faction's units in the region,
    the unclaimed fund, allies' units; `unpaid` is what nobody could pay."""

    kind = "atlantis.maintained"
    faction: int
    unit: int
    cost: int
    own: int
    shared: int
    unclaimed: int
    allies: int
    unpaid: int


@dataclass(frozen=True)
class Starved(_Own, Event):
    kind = "atlantis.starved"
    faction: int
    unit: int
    cell: int
    unfed: int
    died: int


@dataclass(frozen=True)
class FactionGone(_Own, Event):
    """A faction out of the game: QUIT, or no units left. Told to that faction (and the
    GM) only, as the Atlantis server does: others learn nothing of who left or why (the
    end of a closed-ended game, GameWon, is public)."""

    kind = "atlantis.faction_gone"
    faction: int
    reason: str


@dataclass(frozen=True)
class GameWon(Event):
    """The closed-ended game is over (option `victory`): `faction` is the last one standing,
    0 when the last factions all went out in the same month. Told to everyone."""

    kind = "atlantis.game_won"
    faction: int
    month: int


@dataclass(frozen=True)
class Battle(_Own, Event):
    """A battle (or an assassination) as one faction was told it: the battle's lines in the
    server's layout, already cut to what that faction may see (combat/report.py). One
    event per faction that hears of the battle; `winner` is "attackers", "defenders" or ""
    (a draw)."""

    kind = "atlantis.battle"
    faction: int        # who reads it
    cell: int
    what: str           # "battle" | "assassination"
    attacking_unit: int  # the unit named first ("X attacks Y"; not a faction)
    target_unit: int
    winner: str
    lines: tuple[str, ...]
    units: tuple[int, ...] = ()  # every unit that fought (the GM's copy): always seen in the
    #                              region's report (reading 77)
    named: tuple[int, ...] = ()  # the other factions this copy's lines name

    def seen_by(self, faction: int) -> Event:
        """A player's bundle holds no list of fighters (a turn run before the list was
        kept to the GM's copy has one in every copy: it would name a hidden assassin)."""
        return replace(self, units=()) if self.units else self

# ---- movement and sailing (movement.py, sailing.py) ------------------------------------------

@dataclass(frozen=True)
class Moved(_Own, Event):
    """One hex of a MOVE or ADVANCE: walked or ridden, the points it cost and those left."""

    kind = "atlantis.moved"
    faction: int
    unit: int
    order: str          # MOVE | ADVANCE
    line: int
    origin: int
    destination: int
    mode: str           # walk | ride
    cost: int
    left: int


@dataclass(frozen=True)
class MoveStopped(_Own, Event):
    """A MOVE or ADVANCE ends at a border: `why` is ocean (no walking into it), forbidden
    (a guard denies entry; `by` the guard) or ally (an ADVANCE will not fight an ally's
    guard). The rest of the route is dropped."""

    kind = "atlantis.move_stopped"
    faction: int
    unit: int
    order: str
    line: int
    origin: int
    destination: int
    why: str
    by: int = 0


@dataclass(frozen=True)
class EntryForbidden(_Own, Event):
    """Told to the guard's faction: its unit kept `mover` out of its region."""

    kind = "atlantis.forbids"
    faction: int
    unit: int           # the guard
    mover: int
    cell: int


@dataclass(frozen=True)
class Sailed(Event):
    """A ship's step of its course, told to every faction with a unit aboard (the server's
    faction event; no unit leads the sentence)."""

    kind = "atlantis.sailed"
    faction: int        # the owner's
    captain: int
    structure: int
    name: str           # the ship's name ("Longboat" when it has none)
    origin: int
    destination: int
    aboard: tuple[int, ...] = ()   # factions with units aboard

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction, *self.aboard})

    def seen_by(self, faction: int) -> Event:
        """A passenger's bundle: neither the owner's faction nor the other passengers'."""
        return replace(_blanked(self, faction, "faction"),
                       aboard=(faction,) if faction in self.aboard else ())


# ---- stealing and assassination (stealth.py) -------------------------------------------------

@dataclass(frozen=True)
class Stole(_Own, Event):
    """Told to the thief's faction: what its unit took from `target` (0 of it: the target
    had none)."""

    kind = "atlantis.stole"
    faction: int
    unit: int
    target: int
    item: str
    amount: int


@dataclass(frozen=True)
class Robbed(_Own, Event):
    """Told to the victim's faction: what was stolen from its unit, never by whom."""

    kind = "atlantis.robbed"
    faction: int
    unit: int           # the victim
    item: str
    amount: int


@dataclass(frozen=True)
class CrimeSeen(_Own, Event):
    """Told to a faction whose units see a thief or assassin at work: the culprit (its
    faction only when identified, else 0), whom it tried, and whether it was stopped (by
    the victim's faction, or by an ally of it that saw the culprit)."""

    kind = "atlantis.crime_seen"
    faction: int        # who saw it
    culprit: int        # the thief or assassin (not `unit`: the sentence names it itself)
    culprit_faction: int
    target: int         # 0: a unit the watcher does not see
    what: str           # steal | assassinate
    stopped: bool


@dataclass(frozen=True)
class Pillaged(_Own, Event):
    """PILLAGE: the unit's share of twice the region's tax silver."""

    kind = "atlantis.pillaged"
    faction: int
    unit: int
    cell: int
    amount: int


@dataclass(frozen=True)
class RegionPillaged(_Own, Event):
    """Told to each other faction with units in a region pillaged this month."""

    kind = "atlantis.region_pillaged"
    faction: int        # the faction told
    by: int             # a pillaging unit it sees (0: it sees none of them)
    cell: int


@dataclass(frozen=True)
class SpellCast(_Own, Event):
    """CAST done: an item-creating spell (`item` made, or "" when the attempt failed; `cost`
    paid either way) or Teleport (`item` ""; `moved` units sent)."""

    kind = "atlantis.cast"
    faction: int
    unit: int
    spell: str
    item: str
    cost: int
    moved: int = 0


@dataclass(frozen=True)
class Teleported(Event):
    """A unit sent by a mage's Teleport to the region (and structure) of the target unit;
    told to its faction and the caster's (the target's faction hears of it only as its
    units see the unit arrive: TeleportSeen). `caster_seen`: whether the sent unit's
    faction saw the caster beside it (else its copy does not name the caster)."""

    kind = "atlantis.teleported"
    faction: int
    unit: int
    caster: int
    caster_faction: int
    target_faction: int
    origin: int
    cell: int
    structure: int
    caster_seen: bool = True

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction, self.caster_faction})

    def seen_by(self, faction: int) -> Event:
        e = _blanked(self, faction, "faction", "caster_faction", "target_faction")
        if not self.caster_seen and faction != self.caster_faction:
            e = replace(e, caster=0)
        return e


@dataclass(frozen=True)
class TeleportSeen(_Own, Event):
    """Told to the Teleport target's faction when its units see a sent unit arrive (the
    book's sight rules at the month's end: always inside the target's building or ship):
    the unit and where it came out, not who sent it nor from where (reading 94)."""

    kind = "atlantis.teleport_seen"
    faction: int        # the target's
    unit: int
    cell: int
    structure: int

@dataclass(frozen=True)
class FactionJoined(Event):
    """A new faction begins (RESTART of `old`): told to the new faction and the old one."""

    kind = "atlantis.faction_joined"
    faction: int
    old: int
    unit: int
    cell: int

    def visible_to(self) -> frozenset[int] | None:
        return frozenset({self.faction, self.old})
