"""Continental Conquest orders: the typed orders a mailed orders sheet holds.

The book's sheet `[CONVOY ORDERS]`, `[CLAN ORDERS]`, `[TRAIN]` has four kinds of block:
pre-turn clan orders, one block per convoy with its numbered pulse lines, post-turn clan
orders, and one line per agent. Every order records where it stood: its block (`section`),
its line within the block (`slot`: the pulse for convoy orders) and, in a convoy block, the
convoy's number. sheet.py reads the text into these; check.py judges them against the state.

Hexes are kept as written (`"0825"`, or a pattern with `*` for DEFEND and GARRISON), so the
reader needs no map; the checker resolves them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.orders import Order

PRE, POST, CONVOY, AGENTS = "pre", "post", "convoy", "agents"

DIRECTIONS = {"N": "N", "NORTH": "N", "NE": "NE", "NORTHEAST": "NE", "SE": "SE",
              "SOUTHEAST": "SE", "S": "S", "SOUTH": "S", "SW": "SW", "SOUTHWEST": "SW",
              "NW": "NW", "NORTHWEST": "NW"}
CONVOY_TYPES = {"LAND": "land", "SEA": "sea", "AMPHIB": "amphibious", "AMPHIBIOUS": "amphibious",
                "MILITARY": "military", "AIR": "air"}
SUPPLY_ITEMS = ("food", "fuel", "parts", "vaccine", "rifles", "grenades", "rockets",
                "claymores", "bombs")
BOMB_TARGETS = {"B": "B", "BUILDINGS": "B", "P": "P", "POPULATION": "P", "T": "T",
                "TROOPS": "T", "S": "S", "SCOURGE": "S"}


@dataclass
class CcOrder(Order):
    section: str = ""     # pre | post | convoy | agents
    slot: int = 0         # its number in the block (the pulse, for convoy orders)
    keyword: str = ""     # the book's keyword (MOVE for the six directions and hex numbers)

    @property
    def verb(self) -> str:
        return self.keyword


# ---- convoy orders (27) ------------------------------------------------------------------

@dataclass
class ConvoyOrder(CcOrder):
    """One pulse line of a convoy. `amount`: ATTACK's troops, ABSORB's convoy; `word`: BOMB's
    target letter, HIRE's expert code, AID ON/OFF, KILL MODE N/V/T, PAVE's direction."""

    convoy: int = 0
    amount: int | None = None
    word: str = ""


@dataclass
class Move(ConvoyOrder):
    """One hex in a direction (N NE SE S SW NW), or to a hex number (air: any hex in range)."""

    direction: str = ""
    hex: str = ""


# ---- clan orders (26) --------------------------------------------------------------------

@dataclass
class ClanOrder(CcOrder):
    pass


@dataclass
class Create(ClanOrder):
    hex: str = ""
    type: str = ""
    name: str = ""


@dataclass
class Buy(ClanOrder):
    """BUY 2 BIKES #1 (a vehicle for a convoy) or BUY 500 FUEL (supplies and weapons)."""

    quantity: int = 0
    item: str = ""        # a supply id (fuel, rifles...), or "" for a vehicle
    vehicle: str = ""     # vehicles catalog id
    convoy: int | None = None


@dataclass
class Sell(ClanOrder):
    """SELL 10 FOOD, SELL 1 BIKE #2, SELL CONVOY #1."""

    quantity: int = 0
    item: str = ""
    vehicle: str = ""
    convoy: int | None = None
    whole_convoy: bool = False


@dataclass
class Enlist(ClanOrder):
    quantity: int = 0


@dataclass
class Assign(ClanOrder):
    """ASSIGN hex troops [claymores]; FORTIFY raises the fortification too (troops optional)."""

    hex: str = ""
    troops: int = 0
    claymores: int = 0
    fortify: bool = False


@dataclass
class Erect(ClanOrder):
    hex: str = ""
    buildings: list[str] = field(default_factory=list)   # building codes, in order


@dataclass
class Defend(ClanOrder):
    """DEFEND [troops] hex... raises defence levels; GARRISON troops hex... only assigns."""

    troops: int | None = None
    hexes: list[str] = field(default_factory=list)        # CCRR or patterns with *
    raise_level: bool = True


@dataclass
class Give(ClanOrder):
    """GIVE 3 CARS #3 #1, GIVE 50 TROOPS 2 5, GIVE GUNNER 2 5, GIVE ALL EXPERTS 2 5."""

    quantity: int = 0
    item: str = ""        # troops, rifles, grenades, rockets, bombs, cargo
    vehicle: str = ""
    expert: str = ""      # expert code
    all_experts: bool = False
    giver: int = 0
    receiver: int = 0


@dataclass
class Build(ClanOrder):
    hex: str = ""
    structure: str = ""   # custom structure id


@dataclass
class Train(ClanOrder):
    quantity: int = 0


@dataclass
class Vigilance(ClanOrder):
    percent: int = 0


@dataclass
class Espionage(ClanOrder):
    clan: int = 0
    keywords: list[str] = field(default_factory=list)


@dataclass
class Convert(ClanOrder):
    convoy: int = 0
    type: str = ""
    name: str = ""


@dataclass
class HexOrder(ClanOrder):
    """SABOTAGE hex and GAMBLE hex."""

    hex: str = ""


@dataclass
class BuyLines(ClanOrder):
    """ORDER pre post: order lines for the next turn."""

    pre: int = 0
    post: int = 0


@dataclass
class Event(ClanOrder):
    pass


@dataclass
class Toward(ClanOrder):
    """ALLY clan# and BAN clan# (toggles); BAN ALL."""

    clan: int = 0
    all: bool = False


@dataclass
class Message(ClanOrder):
    """MESSAGE (anonymous) or BROADCAST (signed) to a clan, a hex or ALL."""

    to_clan: int | None = None
    to_hex: str = ""
    to_all: bool = False
    message: str = ""
    signed: bool = False


@dataclass
class Name(ClanOrder):
    convoy: int | None = None   # None: the clan's name
    name: str = ""


@dataclass
class Phone(ClanOrder):
    on: bool = True
    number: str = ""


@dataclass
class Slogan(ClanOrder):
    slogan: str = ""


# ---- agents ---------------------------------------------------------------------------------

@dataclass
class AgentOrder(CcOrder):
    """Agent k reports on a hex this turn (a line of the agents block, not an order)."""

    agent: int = 0
    hex: str = ""
