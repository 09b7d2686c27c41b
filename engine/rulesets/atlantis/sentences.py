"""Each Atlantis event as the sentence a report prints, in the Atlantis server's manner:
`Merlin's Workers (6): Earns 225 silver working in plain (22,40) in Iskar.`

Written once here and used by the text and HTML reports (report.py) and by the ruleset's
`chronicle()` (the GM console's and viewer's event lists), so a turn is told one way.
Refusals (`atlantis.failed`, `atlantis.not_built`) are not deeds but errors: the report
lists them under "Errors during turn:" as `Unit (n): VERB: reason.` (`refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.rulesets.atlantis import events as ev

REFUSALS = (ev.OrderFailed, ev.OrderNotBuilt)


@dataclass
class Names:
    """What a sentence needs to name things: units, factions, places, item plurals."""

    units: dict[int, str] = field(default_factory=dict)
    faction: Callable[[int], str] = lambda n: f"Faction {n}"
    place: Callable[[int], str] = lambda cell: f"region {cell}"
    plurals: dict[str, str] = field(default_factory=dict)

    def unit(self, n: int) -> str:
        return f"{self.units.get(n, 'Unit')} ({n})"

    def things(self, item: str, n: int) -> str:
        if item == "silver":
            return f"{n} silver"
        return f"{n} {self.plurals.get(item, item) if n != 1 else item}"


def _flag(order: str, value: str) -> str:
    on = value not in ("0", "", "off")
    return f"{'Sets' if on else 'Clears'} the {order.lower()} flag."


def _unit_changed(e: ev.UnitChanged, n: Names) -> str:
    verb = e.order.upper()
    if verb == "NAME":
        return f"Is now called {e.value}."
    if verb == "DESCRIBE":
        return f"Describes itself as: {e.value}." if e.value else "Clears its description."
    if verb == "COMBAT":
        return f"Sets combat spell to {e.value}."
    if verb in ("REVEAL", "CONSUME"):
        return f"{verb.title()} set to {e.value or 'none'}."
    return _flag(verb, e.value)


def _faction_changed(e: ev.FactionChanged, n: Names) -> str:
    verb = e.order.upper()
    if verb == "PASSWORD":
        return "Password changed."          # never the password itself
    if verb == "ADDRESS":
        return f"Address changed to {e.value}."
    if verb == "NAME":
        return f"Faction name changed to {e.value}."
    if verb == "QUIT":
        return "Quits the game."
    if verb == "DECLARE":
        return f"Declares {e.value}."
    return f"{verb.title()}: {e.value}."


def _structure(e: ev.StructureChanged, n: Names) -> str:
    s = f"[{e.structure}]"
    return {"ENTER": f"Enters {s}.", "LEAVE": f"Leaves {s}.",
            "PROMOTE": f"Promotes {n.unit(int(e.value))} to owner of {s}."
            if e.value.isdigit() else f"Promotes a new owner of {s}.",
            "DESTROY": f"Destroys {e.value} {s}.",
            "NAME": f"Renames {s} to {e.value}.",
            "DESCRIBE": f"Describes {s} as: {e.value}." if e.value else f"Clears {s}'s description.",
            }.get(e.order.upper(), f"{e.order.title()} {s}.")


def _given(e: ev.Given, n: Names) -> str:
    what = n.things(e.item, e.amount)
    if not e.to:
        return f"{'Disbands' if e.item == 'man' else 'Discards'} {what}."
    return f"Gives {what} to {n.unit(e.to)}."


def _maintained(e: ev.Maintained, n: Names) -> str:
    from_ = [f"{v} from {w}" for v, w in ((e.shared, "other units"),
                                          (e.unclaimed, "unclaimed silver"),
                                          (e.allies, "allies")) if v]
    text = f"Pays {e.cost - e.unpaid} silver for maintenance"
    if from_:
        text += f" ({e.own} of its own, {', '.join(from_)})"
    if e.unpaid > 0:
        text += f"; {e.unpaid} silver unpaid"
    return text + "."


def _starved(e: ev.Starved, n: Names) -> str:
    men = "man goes" if e.unfed == 1 else "men go"
    text = f"{e.unfed} {men} hungry"
    if e.died:
        text += f"; {e.died} {'man starves' if e.died == 1 else 'men starve'} to death"
    return text + "."


def _crime(e: ev.CrimeSeen, n: Names) -> str:
    who = n.unit(e.culprit)
    if e.culprit_faction:
        who += f", of {n.faction(e.culprit_faction)} ({e.culprit_faction}),"
    verb = "steal from" if e.what == "steal" else "assassinate"
    how = "is caught attempting to" if e.stopped else "attempts to"
    return f"{who} {how} {verb} {n.unit(e.target) if e.target else 'someone unseen'}."


def _stopped(e: ev.MoveStopped, n: Names) -> str:
    where = n.place(e.destination)
    if e.why == "ocean":
        return f"Discovers that {where} is ocean."
    if e.why == "ally":
        return f"Can't ADVANCE: {where} is guarded by {n.unit(e.by)}, an ally."
    return f"Is forbidden entry to {where} by {n.unit(e.by)}."
def _cast(e: ev.SpellCast, n: Names) -> str:
    if e.spell == "teleport":
        return f"Casts Teleport, sending {e.moved} {'unit' if e.moved == 1 else 'units'}."
    paid = f" ({e.cost} silver spent)" if e.cost else ""
    if e.item:
        return f"Casts {_title(e.spell)} and creates {_a(e.item)}{paid}."
    return f"Casts {_title(e.spell)}, but the attempt fails{paid}."


def _title(name: str) -> str:
    """`create staff of light` -> `Create Staff of Light` (the book's capitals)."""
    return " ".join(w if w == "of" else w.capitalize() for w in name.split())


def _a(item: str) -> str:
    return ("an " if item[:1] in "aeiou" else "a ") + _title(item)


_DEEDS: dict[type, Callable] = {
    ev.UnitChanged: _unit_changed,
    ev.FactionChanged: _faction_changed,
    ev.StructureChanged: _structure,
    ev.Given: _given,
    ev.Maintained: _maintained,
    ev.Starved: _starved,
    ev.UnitFormed: lambda e, n: f"Formed by {n.unit(e.by)} in {n.place(e.cell)}.",
    ev.UnitDissolved: lambda e, n: (
        f"Disbands ({e.reason}); its goods go to {n.unit(e.heir)}." if e.heir
        else f"Disbands ({e.reason}); its goods are lost."),
    ev.Claimed: lambda e, n: (f"Claims {e.amount} silver." if e.amount >= e.asked
                              else f"Claims {e.amount} silver (of {e.asked} asked)."),
    ev.UnitGiven: lambda e, n: f"Is given to {n.faction(e.to_faction)} ({e.to_faction}).",
    ev.SkillForgotten: lambda e, n: f"Forgets {e.skill}.",
    ev.Found: lambda e, n: f"The address of {e.name or 'Faction'} ({e.other}) is {e.address}.",
    ev.Taxed: lambda e, n: f"Collects ${e.amount} in taxes in {n.place(e.cell)}.",
    ev.Bought: lambda e, n: f"Buys {n.things(e.item, e.amount)} at ${e.price} each.",
    ev.Earned: lambda e, n: (
        f"Earns {e.amount} silver {'entertaining' if e.order.upper() == 'ENTERTAIN' else 'working'}"
        f" in {n.place(e.cell)}."),
    ev.Produced: lambda e, n: f"Produces {n.things(e.item, e.amount)} in {n.place(e.cell)}.",
    ev.Studied: lambda e, n: f"Studies {e.skill}.",
    ev.Taught: lambda e, n: f"Teaches {e.skill} to {n.unit(e.student)}.",
    ev.Built: lambda e, n: (f"Completes construction of {e.object} [{e.structure}]."
                            if e.finished else
                            f"Performs construction on {e.object} [{e.structure}]."),
    ev.GameWon: lambda e, n: (f"{n.faction(e.faction)} ({e.faction}) is the last faction "
                              "standing and wins the game." if e.faction else
                              "No faction is left standing: the game is over without a winner."),
    ev.FactionGone: lambda e, n: (f"{n.faction(e.faction)} ({e.faction}) leaves the game"
                                  f" ({e.reason})."),
    ev.Battle: lambda e, n: "\n".join(e.lines),   # already in the server's layout
    ev.Moved: lambda e, n: (f"{'Rides' if e.mode == 'ride' else 'Walks'} from "
                            f"{n.place(e.origin)} to {n.place(e.destination)}."),
    ev.MoveStopped: _stopped,
    ev.EntryForbidden: lambda e, n: f"Forbids entry to {n.unit(e.mover)}.",
    ev.Sailed: lambda e, n: (f"{e.name} [{e.structure}] sails from {n.place(e.origin)} to "
                             f"{n.place(e.destination)}."),
    ev.Stole: lambda e, n: (f"Steals {n.things(e.item, e.amount)} from {n.unit(e.target)}."
                            if e.amount else f"Finds no {e.item} to steal on {n.unit(e.target)}."),
    ev.Robbed: lambda e, n: f"Has {n.things(e.item, e.amount)} stolen.",
    ev.CrimeSeen: _crime,
    ev.Pillaged: lambda e, n: f"Pillages {e.amount} silver from {n.place(e.cell)}.",
    ev.RegionPillaged: lambda e, n: (f"{n.unit(e.by)} pillages {n.place(e.cell)}." if e.by
                                     else f"{n.place(e.cell)} is pillaged."),
    ev.SpellCast: _cast,
    ev.Teleported: lambda e, n: (
        ("Teleports" if e.unit == e.caster else f"Is teleported by {n.unit(e.caster)}"
         if e.caster_seen and e.caster else "Is teleported")
        + f" from {n.place(e.origin)} to {n.place(e.cell)}"
        + (f", into [{e.structure}]." if e.structure else ".")),
    ev.TeleportSeen: lambda e, n: (f"Arrives by Teleport in {n.place(e.cell)}"
                                   + (f", into [{e.structure}]." if e.structure else ".")),
    ev.FactionJoined: lambda e, n: (f"{n.faction(e.faction)} ({e.faction}) begins anew for the "
                                    f"player of faction {e.old}, with {n.unit(e.unit)} in "
                                    f"{n.place(e.cell)}."),
    ev.OrderFailed: lambda e, n: refusal(e),
    ev.OrderNotBuilt: lambda e, n: refusal(e),
}


def refusal(e: ev.OrderFailed | ev.OrderNotBuilt) -> str:
    """`VERB: reason.` of an order refused (the part after `Unit (n): `)."""
    return f"{e.order.upper()}: {e.reason.rstrip('.')}."


def deed(e, names: Names) -> str:
    """The sentence of an Atlantis event without its `Unit (n): ` lead; an event without
    one (a kind not yet told here) says its own `text`, else its fields."""
    told = _DEEDS.get(type(e))
    if told is not None:
        return told(e, names)
    text = getattr(e, "text", None)
    return text if isinstance(text, str) else e.describe()


def sentence(e, names: Names) -> str:
    """The whole line: `Merlin (1): Claims 2500 silver.`; events naming no unit (a faction
    leaving the game) stand alone."""
    unit = getattr(e, "unit", None)
    lead = f"{names.unit(unit)}: " if isinstance(unit, int) and unit else ""
    return lead + deed(e, names)


def told_kinds() -> set[str]:
    """The event kinds with a sentence of their own (a test checks it is all of them)."""
    return {k.kind for k in _DEEDS}
