"""The orders of Atlantis Conquest 1.0 as typed objects: one class per order of the book.

Every order knows the unit that gave it (`unit`, a UnitRef: a number, or the alias of a
unit formed this month), the faction whose `#atlantis` set it came from, and whether it
was marked `@` (repeat in next month's template). The parser (parser.py) builds them; the
adjudication will read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from engine.orders import Order

DIRECTIONS = {"N": "N", "NORTH": "N", "NE": "NE", "NORTHEAST": "NE", "SE": "SE",
              "SOUTHEAST": "SE", "S": "S", "SOUTH": "S", "SW": "SW", "SOUTHWEST": "SW",
              "NW": "NW", "NORTHWEST": "NW"}


@dataclass(frozen=True)
class UnitRef:
    """A unit as orders name it: `17`, `NEW 2` (own new unit), `FACTION 15 NEW 2`."""

    number: int = 0
    alias: int = 0            # NEW alias (number is then 0)
    faction: int = 0          # FACTION f NEW alias: another faction's new unit (0 = own)

    def __str__(self) -> str:
        if not self.alias:
            return str(self.number)
        return f"faction {self.faction} new {self.alias}" if self.faction else f"new {self.alias}"


@dataclass
class AtlantisOrder(Order):
    unit: UnitRef = field(default_factory=UnitRef)
    faction: int = 0          # the #atlantis set it came from
    repeat: bool = False      # written with `@`
    month_long: ClassVar[bool] = False


def _long(cls):
    cls.month_long = True
    return cls


@dataclass
class Address(AtlantisOrder):
    address: str = ""


@_long
@dataclass
class Move(AtlantisOrder):
    steps: tuple[str, ...] = ()  # N NE SE S SW NW, IN, OUT, or an object number as text


@dataclass
class Advance(Move):
    pass


@dataclass
class Assassinate(AtlantisOrder):
    target: UnitRef = field(default_factory=UnitRef)


@dataclass
class Attack(AtlantisOrder):
    targets: tuple[UnitRef, ...] = ()


@dataclass
class Flag(AtlantisOrder):
    """AUTOTAX, AVOID, BEHIND, GUARD, HOLD, NOAID: a unit flag set (1) or cleared (0)."""

    value: bool = False


@dataclass
class Autotax(Flag):
    pass


@dataclass
class Avoid(Flag):
    pass


@dataclass
class Behind(Flag):
    pass


@dataclass
class Guard(Flag):
    pass


@dataclass
class Hold(Flag):
    pass


@dataclass
class Noaid(Flag):
    pass


@_long
@dataclass
class Build(AtlantisOrder):
    object_type: str = ""     # "" = work on the object the unit is in


@dataclass
class Buy(AtlantisOrder):
    quantity: int = 0
    item: str = ""


@dataclass
class Cast(AtlantisOrder):
    spell: str = ""
    args: tuple[str, ...] = ()
    target: UnitRef | None = None        # Teleport: the unit to arrive at
    units: tuple[UnitRef, ...] = ()      # Teleport: the units sent


@dataclass
class Claim(AtlantisOrder):
    amount: int = 0


@dataclass
class Combat(AtlantisOrder):
    spell: str = ""


@dataclass
class Consume(AtlantisOrder):
    mode: str = ""            # "" (silver first) | unit | faction


@dataclass
class Declare(AtlantisOrder):
    other: int = 0            # 0 with default=True: DECLARE DEFAULT
    default: bool = False
    attitude: str = ""        # "" = back to the default attitude


@dataclass
class Describe(AtlantisOrder):
    target: str = "unit"      # unit | ship | building
    description: str = ""


@dataclass
class Destroy(AtlantisOrder):
    pass


@dataclass
class Enter(AtlantisOrder):
    object: int = 0


@_long
@dataclass
class Entertain(AtlantisOrder):
    pass


@dataclass
class Find(AtlantisOrder):
    other: int = 0


@dataclass
class Forget(AtlantisOrder):
    skill: str = ""


@dataclass
class Form(AtlantisOrder):
    """FORM alias: the orders up to END belong to the new unit (their `unit` is the alias)."""

    alias: int = 0


@dataclass
class Give(AtlantisOrder):
    target: UnitRef = field(default_factory=UnitRef)  # number 0: discard
    quantity: int = 0
    item: str = ""
    whole_unit: bool = False  # GIVE target UNIT


@dataclass
class Leave(AtlantisOrder):
    pass


@dataclass
class Name(AtlantisOrder):
    target: str = "unit"      # unit | faction | object
    name: str = ""


@dataclass
class Option(AtlantisOrder):
    setting: str = ""         # times | notimes | template
    value: str = ""           # template: off | short | long


@dataclass
class Password(AtlantisOrder):
    password: str = ""        # "" clears it


@dataclass
class Pillage(AtlantisOrder):
    pass


@_long
@dataclass
class Produce(AtlantisOrder):
    item: str = ""


@dataclass
class Promote(AtlantisOrder):
    target: UnitRef = field(default_factory=UnitRef)


@dataclass
class Quit(AtlantisOrder):
    password: str = ""


@dataclass
class Restart(AtlantisOrder):
    password: str = ""


@dataclass
class Reveal(AtlantisOrder):
    mode: str = ""            # "" cancels | unit | faction


@_long
@dataclass
class Sail(AtlantisOrder):
    steps: tuple[str, ...] = ()  # empty: help sail the ship the unit is on


@dataclass
class Show(AtlantisOrder):
    what: str = "skill"       # skill | item
    name: str = ""
    level: int = 0


@dataclass
class Steal(AtlantisOrder):
    target: UnitRef = field(default_factory=UnitRef)
    item: str = ""


@_long
@dataclass
class Study(AtlantisOrder):
    skill: str = ""


@dataclass
class Tax(AtlantisOrder):
    pass


@_long
@dataclass
class Teach(AtlantisOrder):
    targets: tuple[UnitRef, ...] = ()


@_long
@dataclass
class Work(AtlantisOrder):
    pass


# The book's Order Summary: 43 orders (END closes FORM and is not an order of its own).
BOOK_ORDERS: dict[str, type[AtlantisOrder]] = {
    "ADDRESS": Address, "ADVANCE": Advance, "ASSASSINATE": Assassinate, "ATTACK": Attack,
    "AUTOTAX": Autotax, "AVOID": Avoid, "BEHIND": Behind, "BUILD": Build, "BUY": Buy,
    "CAST": Cast, "CLAIM": Claim, "COMBAT": Combat, "CONSUME": Consume, "DECLARE": Declare,
    "DESCRIBE": Describe, "DESTROY": Destroy, "ENTER": Enter, "ENTERTAIN": Entertain,
    "FIND": Find, "FORGET": Forget, "FORM": Form, "GIVE": Give, "GUARD": Guard, "HOLD": Hold,
    "LEAVE": Leave, "MOVE": Move, "NAME": Name, "NOAID": Noaid, "OPTION": Option,
    "PASSWORD": Password, "PILLAGE": Pillage, "PRODUCE": Produce, "PROMOTE": Promote,
    "QUIT": Quit, "RESTART": Restart, "REVEAL": Reveal, "SAIL": Sail, "SHOW": Show,
    "STEAL": Steal, "STUDY": Study, "TAX": Tax, "TEACH": Teach, "WORK": Work,
}

# Orders players know from later versions of the server: not orders under this book.
LATER_ORDERS = frozenset({
    "TURN", "ENDTURN", "FACTION", "EXCHANGE", "EVICT", "SPOILS", "SELL", "WITHDRAW",
    "NOCROSS", "NOSPOILS", "SHARE", "DISTRIBUTE", "TRANSPORT", "JOIN", "SACRIFICE",
    "ANNIHILATE", "PREPARE", "WEAPON", "ARMOR", "ARMOUR",
})

MONTH_LONG = frozenset(k for k, c in BOOK_ORDERS.items() if c.month_long)
# Month-long orders that add to each other instead of replacing (MOVE N / MOVE NE chain).
CHAINING = frozenset({"MOVE", "ADVANCE", "SAIL", "TEACH"})


def verb(order: AtlantisOrder) -> str:
    for k, c in BOOK_ORDERS.items():
        if type(order) is c:
            return k
    return type(order).__name__.upper()
