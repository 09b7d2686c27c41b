"""Turning a King of Kings turn's typed events into the report's narrative sentences (8.4).

Battles are told as stories (who attacked whom with what, round by round losses, retreat
or surrender, the outcome and the victory points); the other events become short lines
of a chronicle. The sentences are built here as data, so every rendering (text, HTML,
JSON) tells the same story.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.chronicle import BattleStory, Chronicle, cells_of, told
from engine.events import EventLog
from engine.rulesets.kok import events as ev

Units = Iterable[tuple[str, int]]


@dataclass
class Namer:
    """Names for players, troops and provinces as the report shows them."""

    players: dict[int, str]
    troops: dict[str, str]                 # symbol -> name
    province: Callable[[int], str]         # cell -> "3 4" or "New Troy (3 4)"
    xy: Callable[[int], str] = str

    def player(self, n: int) -> str:
        if not n:
            return "nobody"
        name = self.players.get(n, "")
        return f"player {n} ({name})" if name else f"player {n}"

    def subject(self, n: int) -> str:
        """The player as the subject opening a sentence."""
        text = self.player(n)
        return text[:1].upper() + text[1:]

    def units(self, units: Units) -> str:
        parts = [f"{n} {_number(self.troops.get(s, s), n)}" for s, n in units if n]
        if not parts:
            return "no troops"
        return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]

    def tactic(self, letter: str) -> str:
        from engine.rulesets.kok.catalogs import TACTIC_NAMES

        return TACTIC_NAMES.get(letter, letter or "no tactic")


def _number(name: str, n: int) -> str:
    """'1 Horseman', '2 Ships': the troop list's (plural or singular) name fitted to n."""
    low = name.lower()
    if n == 1:
        if low.endswith("men"):
            return name[:-3] + ("MAN" if name.endswith("MEN") else "man")
        if low.endswith("s") and not low.endswith("ss"):
            return name[:-1]
        return name
    if low.endswith(("men", "s")):
        return name
    return name + "s"


@dataclass
class Story:
    """One battle, land or sea: a title and its sentences."""

    kind: str                  # "land" | "sea"
    cell: int
    title: str
    lines: list[str] = field(default_factory=list)
    attacker: int = 0
    defender: int = 0
    winner: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cell": self.cell, "title": self.title, "lines": self.lines,
                "attacker": self.attacker, "defender": self.defender, "winner": self.winner}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def battles(log: EventLog, name: Namer,
            told: dict[int, list[tuple[int, str]]] | None = None) -> list[Story]:
    """Every land and sea battle of the turn, in the order they were fought. `told`, if
    given, gets for each event (by its place in the log) the (story, line) it wrote."""
    out: list[Story] = []
    land: Story | None = None
    sea: Story | None = None
    last: Story | None = None
    pos: dict[int, int] = {}  # id(story) -> its index in out
    for i, e in enumerate(log):
        if told is not None:  # only the current stories and new ones can change
            first_new = len(out)
            before = {id(st): list(st.lines) for st in (land, sea, last) if st is not None}
        if isinstance(e, ev.BattleStarted):
            where = name.province(e.cell)
            land = Story("land", e.cell, f"Battle of {where}", attacker=e.attacker,
                         defender=e.defender)
            came = f" from {name.province(e.frm)}" if e.frm >= 0 else ""
            how = f"landing from the sea{came.replace(' from ', ' at ')}" if e.amphibious \
                else f"attacking{came}"
            land.lines.append(
                f"{name.subject(e.attacker)}, {how} with "
                f"{name.units(e.attacker_units)}, meets {name.player(e.defender)} defending "
                f"{where} with {name.units(e.defender_units)}.")
            land.lines.append(
                f"The attackers use {name.tactic(e.attacker_tactic)}, the defenders "
                f"{name.tactic(e.defender_tactic)} (modifiers {_signed(e.attacker_modifier)}/"
                f"{_signed(e.defender_modifier)})."
                + (f" The terrain ({e.terrain}) caps the attackers' chance at {e.hit_cap}%."
                   if e.hit_cap else ""))
            if e.supporters:
                land.lines.append("Allies join the fight: "
                                  + ", ".join(name.player(s) for s in e.supporters) + ".")
            out.append(land)
            last = land
        elif isinstance(e, ev.BattleRound) and land is not None and land.cell == e.cell:
            a = name.units(e.attacker_losses) if any(n for _, n in e.attacker_losses) else "nothing"
            d = name.units(e.defender_losses) if any(n for _, n in e.defender_losses) else "nothing"
            land.lines.append(f"Round {e.round}: the attackers lose {a}, the defenders lose {d} "
                              f"({e.attacker_left} against {e.defender_left} left).")
        elif isinstance(e, ev.Retreat):
            story = land if land is not None and e.frm == land.cell else last
            if story is not None:
                story.lines.append(f"{name.subject(e.faction)} retreats with "
                                   f"{name.units(e.units)} to {name.province(e.to)}."
                                   + (f" ({e.reason})" if e.reason else ""))
        elif isinstance(e, ev.Surrender):
            story = land if land is not None and e.cell == land.cell else last
            if story is not None:
                story.lines.append(f"{name.subject(e.faction)} cannot retreat and "
                                   f"surrenders {name.units(e.units)} to {name.player(e.other)}."
                                   + (f" ({e.reason})" if e.reason else ""))
        elif isinstance(e, ev.BattleEnded) and land is not None and land.cell == e.cell:
            land.winner = e.winner
            rounds = f"{e.rounds} round{'s' if e.rounds != 1 else ''}"
            if e.winner:
                land.lines.append(f"{name.subject(e.winner)} holds the field after "
                                  f"{rounds}.")
            else:
                land.lines.append(f"Nobody holds the field after {rounds}.")
            land.lines.append(f"Victory points: {name.player(e.attacker)} "
                              f"{_signed(e.attacker_points)}, {name.player(e.defender)} "
                              f"{_signed(e.defender_points)}.")
            land = None
        elif isinstance(e, ev.ProvinceConquered) and last is not None and last.cell == e.cell:
            castles = (f"; {e.castles_destroyed} castle{'s' if e.castles_destroyed != 1 else ''}"
                       " destroyed") if e.castles_destroyed else ""
            last.lines.append(f"{name.subject(e.faction)} conquers "
                              f"{name.province(e.cell)}{castles}.")
        elif isinstance(e, ev.FleetDetected):
            sea = Story("sea", e.cell, f"Sea battle at {name.province(e.cell)}",
                        attacker=e.faction, defender=e.other)
            sea.lines.append(f"Ships of {name.player(e.other)} sight the fleet of "
                             f"{name.player(e.faction)} at {name.province(e.cell)} "
                             f"(roll {e.roll} against {e.chance}%).")
            out.append(sea)
            last = sea
        elif isinstance(e, ev.SeaBattleRound):
            if sea is None or sea.cell != e.cell or sea.lines and sea.winner:
                sea = Story("sea", e.cell, f"Sea battle at {name.province(e.cell)}",
                            attacker=e.attacker, defender=e.defender)
                out.append(sea)
                last = sea
            sea.lines.append(f"Round {e.round}: {e.attacker_hits} hit(s) by the attackers, "
                             f"{e.defender_hits} by the defenders ({e.attacker_ships} against "
                             f"{e.defender_ships} ships left).")
        elif isinstance(e, ev.SeaBattle):
            if sea is None or sea.cell != e.cell:
                sea = Story("sea", e.cell, f"Sea battle at {name.province(e.cell)}",
                            attacker=e.attacker, defender=e.defender)
                out.append(sea)
            sea.lines.insert(0 if not sea.lines or not sea.lines[0].startswith("Ships of") else 1,
                             f"{e.attacker_ships} ship(s) of {name.player(e.attacker)} fight "
                             f"{e.defender_ships} of {name.player(e.defender)}.")
            sea.winner = e.winner
            sea.lines.append((f"{name.subject(e.winner)} wins" if e.winner
                              else "Both fleets go down")
                             + f" after {e.rounds} round(s); sunk: {e.attacker_lost} of the "
                             f"attackers', {e.defender_lost} of the defenders' ships.")
            last = sea
            sea = None
        elif isinstance(e, ev.CarriedLosses) and last is not None and last.kind == "sea":
            last.lines.append(f"{name.subject(e.faction)} loses "
                              f"{name.units(e.units)} with the sunken ships ({e.percent}%).")
        if told is not None:
            _note_lines(told, i, out, first_new, before, pos)
    return out


def _note_lines(told: dict[int, list[tuple[int, str]]], i: int, out: list[Story],
                first_new: int, before: dict[int, list[str]], pos: dict[int, int]) -> None:
    """The lines event i wrote: in the stories it could touch and in the new ones."""
    for k in range(first_new, len(out)):
        pos[id(out[k])] = k
    for k in sorted({pos[key] for key in before} | set(range(first_new, len(out)))):
        old = before.get(id(out[k]), [])
        if out[k].lines != old:
            told.setdefault(i, []).extend((k, ln) for ln in out[k].lines if ln not in old)


def chronicle(log: EventLog, name: Namer) -> list[dict[str, Any]]:
    """The other public events of the turn as {"player", "text"} lines, in event order."""
    return [line for e in log if (line := sentence(e, name)) is not None]


def sentence(e: object, name: Namer) -> dict[str, Any] | None:
    """One event as the report's chronicle tells it: {"player", "section", "text"} (the
    text follows the player's name), or None for events told elsewhere or not at all."""
    out: list[dict[str, Any]] = []

    def add(player: int, text: str, section: str = "events") -> None:
        out.append({"player": player, "section": section, "text": text})

    p = name.province
    if isinstance(e, ev.UnitPlaced):
        add(e.faction, f"places {name.units([(e.troop, 1)])} at {p(e.cell)}", "placements")
    elif isinstance(e, ev.GeneralAvailable):
        add(e.faction, f"may place {e.available} more general(s)")
    elif isinstance(e, ev.MoveEnded):
        by = "sea" if e.medium == "sea" else "land"
        add(e.faction, f"moves {name.units(e.units)} by {by} from {p(e.frm)} to {p(e.to)}",
            "movements")
    elif isinstance(e, ev.ProvinceOccupied):
        was = f" from {name.player(e.previous)}" if e.previous else ""
        add(e.faction, f"occupies {p(e.cell)}{was}")
    elif isinstance(e, ev.UnitsCaptured):
        add(e.faction, f"captures {name.units(e.units)} of {name.player(e.other)} at "
            f"{p(e.cell)}")
    elif isinstance(e, ev.UnitsLost):
        add(e.faction, f"loses {name.units(e.units)} at {p(e.cell)}: {e.reason}")
    elif isinstance(e, ev.AllianceDeclared):
        # binds the declarer from now on this turn (2.8), whatever the other answers
        add(e.faction, f"declares alliance status {e.declared} towards "
            f"{name.player(e.other)} (was {e.old})", "diplomacy")
    elif isinstance(e, ev.AllianceChanged):
        if e.faction < e.other:
            add(e.faction, f"and {name.player(e.other)}: alliance {e.old} -> {e.new}",
                "diplomacy")
    elif isinstance(e, ev.Ceded):
        add(e.faction, f"cedes {p(e.cell)} to {name.player(e.other)}", "diplomacy")
    elif isinstance(e, ev.Donation):
        add(e.faction, f"gives {e.gold} gold to {name.player(e.other)}, who receives "
            f"{e.received} ({e.fee} lost)", "diplomacy")
    elif isinstance(e, ev.BuildResult):
        if e.success:
            add(e.faction, f"builds at {p(e.cell)}: {e.old} becomes {e.new} (roll {e.roll} "
                f"of {e.chance}%)")
        else:
            add(e.faction, f"builds at {p(e.cell)} in vain (roll {e.roll}, needed "
                f"{e.chance}% or less); {e.cost} gold spent")
    elif isinstance(e, ev.Named):
        add(e.faction, f"names {name.xy(e.cell)}: {e.name}")
    elif isinstance(e, ev.Isolated):
        add(e.faction, f"is cut off at {p(e.cell)} (isolated)", "supply")
    elif isinstance(e, ev.SiegeLoss):
        add(e.faction, f"loses {name.units(e.units)} to siege at {p(e.cell)}", "supply")
    elif isinstance(e, ev.Disbanded):
        add(e.faction, f"disbands {name.units([(e.troop, e.count)])} at {p(e.cell)} "
            "for want of food", "supply")
    elif isinstance(e, ev.StorageLoss):
        if e.lost:
            add(e.faction, f"loses {e.lost} {e.resource} beyond the storage limit "
                f"(keeps {e.kept})", "supply")
    elif isinstance(e, ev.LoyaltyReverted):
        add(e.faction, f"regains the loyal province {p(e.cell)} from "
            f"{name.player(e.previous)}")
    elif isinstance(e, ev.LoyaltyConverted):
        if e.cause != "leaderless":  # taking a leaderless province is told already
            add(e.faction, f"wins the loyalty of {p(e.cell)} ({e.cause})")
    elif isinstance(e, ev.FameAwarded):
        if e.added:
            add(e.faction, f"gains {e.added} fame (total {e.total})", "fame")
    elif isinstance(e, ev.TribeEliminated):
        add(e.faction, "is wiped out", "events")
    return out[0] if out else None


def tell(log: EventLog, name: Namer) -> Chronicle:
    """Every event of the turn as the report tells it, for lists on screen: battle events
    by the lines of their battle's story, the others by their chronicle sentence, order
    messages as the report's error list words them, anything else by `describe`."""
    by_event: dict[int, list[tuple[int, str]]] = {}
    stories = battles(log, name, by_event)
    out = Chronicle(battles=[BattleStory(s.title, list(s.lines), s.cell, name.province(s.cell),
                                         (s.attacker, s.defender), s.winner, s.kind)
                             for s in stories])
    for i, r in enumerate(log.records):
        e = r.event
        cells = cells_of(e)
        place = name.province(cells[0]) if cells else ""
        if i in by_event:
            k = by_event[i][0][0]
            text = f"{stories[k].title}: " + " ".join(ln for _, ln in by_event[i])
            out.told.append(told(r, text, out.battles[k].sides, cells or (stories[k].cell,),
                                 place or out.battles[k].place, k))
        elif (line := sentence(e, name)) is not None:
            who = name.players.get(line["player"]) or name.player(line["player"])
            out.told.append(told(r, f"{who} {line['text']}", (line["player"],), cells, place))
        elif getattr(type(e), "severity", "") in ("error", "warning") and hasattr(e, "line"):
            what = getattr(e, "reason", "") or type(e).__name__
            order = getattr(e, "text", "")
            out.told.append(told(r, f"{name.subject(e.faction)}, line {e.line}"
                                 + (f" ({order})" if order else "") + f": {what}", (), cells, place))
        else:
            out.told.append(told(r, e.describe(name.xy), (), cells, place, detail=True))
    return out


def order_messages(log: EventLog) -> list[dict[str, Any]]:
    """8.5 messages the adjudication emitted: failed and partly carried out orders."""
    out = []
    for e in log:
        sev = getattr(type(e), "severity", "")
        if sev not in ("error", "warning") or not hasattr(e, "line"):
            continue
        reason = getattr(e, "reason", "") or type(e).__name__
        out.append({"player": e.faction, "line": e.line, "text": getattr(e, "text", ""),
                    "message": reason, "severity": sev})
    return out
