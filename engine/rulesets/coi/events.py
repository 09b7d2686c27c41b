"""Typed events of Conquest of Island. Every action ends in exactly one ActionDone or
ActionIgnored; the specific events it caused come just before it, so the log reads in order.

Everything happens in a public forum thread, so every event is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Event


class _Players:
    """Events naming players in fields other than the core's standard names."""

    _player_fields: tuple[str, ...] = ()

    def factions(self) -> frozenset[int]:
        out = set(Event.factions(self))  # type: ignore[arg-type]
        out.update(getattr(self, f) for f in self._player_fields if getattr(self, f))
        return frozenset(out)


@dataclass(frozen=True)
class GameStarted(Event):
    kind = "coi_game_started"
    post: str
    time: str


@dataclass(frozen=True)
class PostSkipped(Event):
    """A post not applied: already applied, edited after applying, before the start..."""

    kind = "coi_post_skipped"
    post: str
    name: str
    reason: str


@dataclass(frozen=True)
class PostEdited(Event):
    kind = "coi_post_edited"
    post: str
    player: int
    edited_at: str
    applied: bool             # False: the edit of an applied post, never re-applied


@dataclass(frozen=True)
class ApClaimed(Event):
    kind = "coi_ap_claim"
    post: str
    player: int
    claimed: int
    actual: int               # AP at the post's time, before its actions
    after: int                # AP after its actions
    matches: bool


@dataclass(frozen=True)
class ApAdjusted(Event):
    """The GM's correction or penalty ("AP scapheap -3", "AP scapheap = 12")."""

    kind = "coi_ap_adjusted"
    post: str
    player: int
    change: int
    ap: int


@dataclass(frozen=True)
class ActionDone(Event):
    kind = "coi_action_done"
    post: str
    player: int
    action: str               # harvest | build | recruit | move | attack | ...
    text: str
    ap: int                   # AP spent
    ap_left: int


@dataclass(frozen=True)
class ActionIgnored(Event):
    kind = "coi_action_ignored"
    post: str
    player: int
    action: str
    text: str
    reason: str
    ap_had: int = 0


@dataclass(frozen=True)
class Harvested(Event):
    kind = "coi_harvested"
    player: int
    food: int
    wood: int
    iron: int
    cut_off: int              # controlled producing hexes not linked to a fort or port


@dataclass(frozen=True)
class Built(Event):
    kind = "coi_built"
    player: int
    cell: int
    building: str
    wood: int


@dataclass(frozen=True)
class Recruited(Event):
    kind = "coi_recruited"
    player: int
    cell: int
    unit: str
    count: int
    food: int
    wood: int
    iron: int


@dataclass(frozen=True)
class Moved(Event):
    kind = "coi_moved"
    player: int
    origin: int
    destination: int
    units: tuple              # ((unit, count), ...)


@dataclass(frozen=True)
class HexTaken(Event):
    kind = "coi_hex_taken"
    player: int
    cell: int
    previous: int             # previous owner, 0 = nobody


@dataclass(frozen=True)
class UnitsDestroyed(Event):
    kind = "coi_units_destroyed"
    player: int
    cell: int
    unit: str
    count: int
    reason: str               # battle | annihilated | deep_water | desert | transport_capacity


@dataclass(frozen=True)
class Battle(Event):
    kind = "coi_battle"
    attacker: int
    defender: int
    cell: int
    attack: int               # attacker's strength (attack values with bonuses)
    defense: int              # defender's strength (defense values, bonuses, fort point)
    winner: int
    damage: int               # strength the winner had to lose
    absorbed: int             # strength the winner actually lost (units and fort point)
    attacker_units: tuple     # ((unit, count), ...) before the battle
    defender_units: tuple
    loss_order: tuple         # the unit order the attacker's choice followed


@dataclass(frozen=True)
class AllianceDeclared(_Players, Event):
    _player_fields = ("ally",)
    kind = "coi_alliance_declared"
    player: int
    ally: int


@dataclass(frozen=True)
class AllianceBroken(_Players, Event):
    _player_fields = ("other",)
    kind = "coi_alliance_broken"
    player: int
    other: int


@dataclass(frozen=True)
class TradeOffered(Event):
    kind = "coi_trade_offered"
    player: int
    offer: int
    give: tuple               # ((good, amount), ...)
    want: tuple
    only_to: tuple            # player names


@dataclass(frozen=True)
class TradeAccepted(_Players, Event):
    _player_fields = ("offerer",)
    kind = "coi_trade_accepted"
    player: int               # who accepted
    offer: int
    offerer: int


@dataclass(frozen=True)
class TradeRescinded(Event):
    kind = "coi_trade_rescinded"
    player: int
    offer: int


@dataclass(frozen=True)
class PlayerSplit(_Players, Event):
    _player_fields = ("new_player",)
    kind = "coi_split"
    player: int
    new_player: int
    name: str
    cells: tuple
    units: tuple              # ((cell, unit, count), ...)
    goods: tuple


@dataclass(frozen=True)
class ExpeditionSent(_Players, Event):
    _player_fields = ("receiver",)
    kind = "coi_expedition"
    player: int
    receiver: int
    cell: int
    units: tuple


@dataclass(frozen=True)
class EndVoted(Event):
    kind = "coi_end_voted"
    player: int


@dataclass(frozen=True)
class GameEnded(Event):
    kind = "coi_game_ended"
    time: str
    scores: tuple             # ((player, points), ...) best first
