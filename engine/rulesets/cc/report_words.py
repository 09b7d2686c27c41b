"""Each `cc.*` event told as a line of the clan's turn results, in the report's plain manner
("Convoy #1, pulse 3: moved NE to 2904 for 4 fuel (road)")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.chronicle import Chronicle, Told, cells_of
from engine.events import Event, EventLog
from engine.rulesets.cc.combat.report import sentence as combat_sentence

Label = Callable[[int], str]


def _who(e: Event) -> str:
    convoy, pulse = getattr(e, "convoy", 0), getattr(e, "pulse", 0)
    where = f"Convoy #{convoy}" if convoy else "Clan"
    if pulse > 0:
        where += f", pulse {pulse}"
    return where


def sentence(e: Event, label: Label) -> str:
    k = e.kind
    if k == "cc.income":
        return (f"Income: ${e.money:,}, food {e.food}, fuel {e.fuel}, parts {e.parts}, vaccine "
                f"{e.vaccine}, troops {e.troops}, rifles {e.rifles}, grenades {e.grenades} from "
                f"{e.hexes} hexes and {e.cities} cities ({e.bonuses} income bonuses)")
    if k == "cc.done":
        paid = f" (${e.amount:,})" if e.amount > 0 else ""
        return f"{_who(e)}: {e.order}: {e.detail}{paid}"
    if k == "cc.failed":
        return f"{_who(e)}: {e.order} failed: {e.reason}"
    if k == "cc.not_built":
        return (f"{_who(e)}: {e.order} not carried out: it needs {e.needs}, which this game "
                "program does not have yet" + (" (the convoy stops for this turn)" if e.convoy and e.pulse > 0 else ""))
    if k == "cc.moved":
        how = " (road)" if e.road else " (river)" if e.river else ""
        return f"{_who(e)}: moved from {label(e.frm)} to {label(e.cell)} for {e.fuel} fuel{how}"
    if k == "cc.hex_taken":
        was = f"clan {e.previous}'s" if e.previous else "the unowned"
        return (f"{_who(e)}: conquered {was} hex {label(e.cell)} (needed {e.needed}, lost {e.lost}, "
                f"{e.guards} guards killed)")
    if k == "cc.hex_held":
        return f"{_who(e)}: did not take {label(e.cell)}: {e.reason}" + (f" ({e.lost} lost)" if e.lost else "")
    if k == "cc.picked_up":
        got = ", ".join(f"{n} {w}" for w, n in (("troops", e.troops), ("rifles", e.rifles),
                        ("grenades", e.grenades), ("rockets", e.rockets), ("bombs", e.bombs)) if n)
        return f"{_who(e)}: picked up {got} in {label(e.cell)}"
    if k == "cc.fed":
        units = e.eaten / 120
        return f"Pulse {e.pulse}: troops ate {units:.2f} food" + (f"; {e.hungry} went hungry" if e.hungry else "")
    if k == "cc.deserted":
        who = f"Convoy #{e.convoy}" if e.convoy else "Unallocated troops"
        took = f", taking one of the {e.weapon}" if e.weapon else ""
        took += f", driving off in a {e.vehicle}" if getattr(e, "vehicle", "") else ""
        morale = f"; morale now {e.morale}" if e.convoy else ""
        return f"Pulse {e.pulse}: {who}: {e.troops} hungry troops deserted{took}{morale}"
    if k == "cc.maintained":
        scrap = f"; scrapped {', '.join(e.scrapped)} for parts" if e.scrapped else ""
        return f"Convoy #{e.convoy}: maintenance used {e.parts} parts{scrap}"
    if k == "cc.convoy_lost":
        return f"Convoy #{e.convoy} is gone: {e.reason}"
    if k == "cc.game_turn_ended":
        dropped = f"; dropped: {', '.join(map(str, e.dropped))}" if e.dropped else ""
        return f"Game turn {e.game_turn} ended: {e.grown} cities grew by {e.people:,} people{dropped}"
    if k == "cc.popularity":
        return f"Game turn {e.game_turn}: popularity counted; " + ", ".join(
            f"clan {c} {p}" for c, p in e.scores[:5]) + (" ..." if len(e.scores) > 5 else "")
    if k == "cc.leading":
        return (f"Game turn {e.game_turn}: clan {e.clan} reached the victory level first "
                f"({e.popularity}); it wins if it holds it one more game turn")
    if k == "cc.game_won":
        who = (f"clan {e.clans[0]} won" if e.winner != -1
               else "clans " + ", ".join(map(str, e.clans)) + " share the victory")
        return f"Game turn {e.game_turn}: the game is over: {who} with popularity {e.popularity}"
    if k == "cc.clan_dropped":
        return f"The GM dropped clan {e.clan}" + (f": {e.reason}" if e.reason else "") + \
            " (its convoys and cities stay and defend themselves)"
    if k == "cc.standby":
        return f"A standby player took over clan {e.clan}" + (f" ({e.name})" if e.name else "")
    if k == "cc.cycle_not_built":
        return f"End of game turn {e.game_turn}: {e.step} is not built yet"
    # the combat package's sentences, convoys named as the clans know them (the event's names)
    text = combat_sentence(e, label=label)
    return text[:1].upper() + text[1:] if text else e.describe(label)


def chronicle(events: EventLog, scenario: Any) -> Chronicle:
    """The step's events as the report's lines, for the GM console's and viewer's lists (the
    food eaten each pulse is a detail those lists hide by default)."""
    grid = scenario.map.grid

    def label(c: int) -> str:
        return grid.label(c, "ccrr")

    out = Chronicle()
    for r in events.records:
        e = r.event
        cells = cells_of(e)
        who = tuple(getattr(e, "clans", ())) or tuple(sorted(e.factions()))
        out.told.append(Told(r.seq, r.phase, e.kind, sentence(e, label), who, cells,
                             label(cells[0]) if cells else "", detail=e.kind == "cc.fed"))
    return out
