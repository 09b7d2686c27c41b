"""Continental Conquest state: one typed table per thing the book keeps track of.

Designed for the whole book, although most tables are not yet written by any phase (see
docs/continental.md). Fields are scalars, so lists become child tables (vehicles, experts,
buildings...). Every hex field is called `cell`, so case files and viewers accept CCRR labels.
Food is counted in tenths (1/10 is eaten per pulse); sea convoys with an Engineer eat in
twelfths of their share, which the turn will convert with exact integer arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class World:
    game_turn: int = 1
    step_in_turn: int = 0          # clan turns run in this game turn
    leader: int = 0                # clan above the victory level at the last game-turn end
    leader_since: int = 0          # game turn it got there (the book's one-turn hold)
    winner: int = 0                # clan number of the winner (-1: shared)
    finished: bool = False


@dataclass
class Clan:
    number: int = 0                # the clan number players see (e.g. 122)
    name: str = ""
    player: str = ""
    address: str = ""
    account: str = ""              # the account number: also the password on every orders set
    sequence: int = 0              # hidden: turns of a game turn run from the lowest
    money: int = 0
    food_tenths: int = 0
    fuel: int = 0
    parts: int = 0
    vaccine: int = 0
    troops: int = 0                # unallocated (in reserve)
    rifles: int = 0
    grenades: int = 0
    rockets: int = 0
    claymores: int = 0
    bombs: int = 0
    agents: int = 0
    vigilance: int = 0
    popularity: int = 100
    extra_pre: int = 0             # order lines bought for the next turn
    extra_post: int = 0
    turns_run: int = 0             # this clan's turns so far (catch-up: behind game_turn)
    last_turn_at: str = ""         # ISO time its last turn ran (the one-week minimum)
    dropped: bool = False
    phone: str = ""
    phone_on: bool = False
    slogan: str = ""
    ban_all: bool = False


@dataclass
class Relation:
    clan: int = 0
    other: int = 0
    ally: bool = False             # one-sided: clan treats other as an ally
    ban: bool = False              # clan bans other from its cities


@dataclass
class Hex:
    cell: int = 0
    owner: int = 0                 # clan number; 0 = nobody
    defense: int = 1
    troops: int = 0
    value: int = 0                 # dollars a turn; production fixed at setup (option hex_production)
    food: int = 0
    fuel: int = 0
    parts: int = 0
    vaccine: int = 0
    special: str = ""              # special structure code (ARS, BAN, ...)
    custom: str = ""               # custom structure id (farm, camp, ...)
    looted: bool = False
    conquered_turn: int = 0        # game turn it was taken (no DEFEND/GARRISON that turn)
    defended_turn: int = 0         # game turn of the last DEFEND raise (one a turn)


@dataclass
class Road:
    """A road link between two neighbouring hexes: the map's roads plus PAVEd ones."""
    cell: int = 0
    to: int = 0
    paved_by: int = 0              # clan that paved it (0 = on the map from the start)


@dataclass
class City:
    cell: int = 0
    name: str = ""
    major: bool = False
    owner: int = 0
    value: int = 0                 # base dollar value
    population: int = 0
    fortification: int = 1
    troops: int = 0
    claymores: int = 0
    produces: str = ""             # goods id
    needs: str = ""                # goods id, or "anything"
    guild: str = ""                # expert code, "" = none
    plague: bool = False
    conquered_turn: int = 0        # no FORTIFY, ERECT or CREATE there that turn
    fortified_turn: int = 0
    razed_turn: int = 0


@dataclass
class Building:
    cell: int = 0
    code: str = ""                 # AIR, ARM, BAR...


@dataclass
class Hostile:
    """The city at `cell` is hostile to `clan` (it attacked and failed, or razed it)."""
    cell: int = 0
    clan: int = 0


@dataclass
class Spy:
    cell: int = 0
    clan: int = 0
    attempts: int = 0              # sabotage attempts (the counter-spy's catch chance grows)


@dataclass
class Convoy:
    id: int = 0                    # unique in the game
    owner: int = 0
    number: int = 0                # the clan's convoy number (#1, #2...)
    name: str = ""
    type: str = "land"             # land | sea | amphibious | military | air
    cell: int = 0
    mode: str = "capture"          # capture | recon | empty
    hidden: bool = False
    morale: int = 30
    training: int = 30
    health: int = 100
    plague: bool = False
    troops: int = 0
    rifles: int = 0
    grenades: int = 0
    rockets: int = 0
    bombs: int = 0
    cargo_type: str = ""
    cargo: int = 0
    kill_mode: str = "N"           # N | T | V (needs a Gunner)
    aid: bool = False              # AID mode (needs a Doctor)
    guarding: bool = False
    patrolling: bool = False
    must_reach_water: bool = False  # a sea convoy on a coast must move onto water next
    moves_used: int = 0
    created_turn: int = 0
    zero_morale_turns: int = 0
    parts_owed_tenths: int = 0     # wear run up this turn, paid at maintenance
    police_turn: int = 0           # game turn it visited a Police Station (+10% that turn)


@dataclass
class Vehicle:
    convoy: int = 0                # Convoy.id
    type: str = ""                 # vehicles catalog id
    count: int = 0
    damage: int = 0                # hit points lost, repaired after battle


@dataclass
class Expert:
    convoy: int = 0
    code: str = ""


@dataclass
class TurnMark:
    """A once-a-turn use, so the limit holds: a celebration, a practice, a scan, a bombing,
    a hunt (per hex for military convoys), a fishery fished, a casino gambled at, a rec
    center enjoyed, a city fortified or razed, a racetrack scout or junkyard car taken, a
    message sent."""
    clan: int = 0
    game_turn: int = 0             # the clan's own turn number (its turn of that game turn)
    kind: str = ""
    convoy: int = 0                # Convoy.id, 0 when the mark is the clan's
    cell: int = -1


@dataclass
class Price:
    item: str = ""                 # supplies or goods id
    price: int = 0


@dataclass
class Seen:
    """What a clan saw this turn, for its hex and city lists (knowledge, not ownership)."""
    clan: int = 0
    cell: int = 0
    game_turn: int = 0             # the clan's own turn number, as TurnMark
    how: str = ""                  # visit | scan | agent | spy | conquered


@dataclass
class Inbox:
    """News for a clan's next report: radio, passings, messages, espionage, sabotage."""
    clan: int = 0
    seq: int = 0
    game_turn: int = 0
    kind: str = ""
    cell: int = -1
    text: str = ""
    delivered: bool = False


@dataclass
class SpyView:
    """What a spy beside a counter-spy reported of its city this turn: each figure may be
    wrong (K24, X211). The clan's report and bundle show these in place of the truth; the
    table itself never leaves the GM's database."""
    clan: int = 0
    game_turn: int = 0             # the clan's own turn number, as Seen
    cell: int = 0
    fortification: int = 1
    troops: int = 0
    claymores: int = 0
    buildings: str = ""            # building codes, space-separated


@dataclass
class AgentTarget:
    clan: int = 0
    agent: int = 0
    cell: int = -1


@dataclass
class TopClan:
    game_turn: int = 0
    ranking: str = "popularity"    # popularity | cities | hexes | income | power
    rank: int = 0
    clan: int = 0
    value: int = 0


SCHEMA: dict[str, type] = {
    "world": World, "clans": Clan, "relations": Relation, "hexes": Hex, "roads": Road,
    "cities": City, "buildings": Building, "hostile": Hostile, "spies": Spy, "convoys": Convoy,
    "vehicles": Vehicle, "experts": Expert, "turn_marks": TurnMark, "prices": Price, "seen": Seen,
    "inbox": Inbox,
    "agent_targets": AgentTarget, "top_clans": TopClan, "spy_views": SpyView,
}
