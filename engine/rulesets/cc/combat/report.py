"""Plain sentences for the combat events, for the clans' reports and the GM's chronicle.

`sentence(event, name, label)`: `name(convoy_id)` gives a convoy's name as the reader's
report calls it; by default the event's own `names` ("convoy #2 of clan 7", never the
game-wide id, which would tell how many convoys the game has had); `label(cell)` a hex in
the map's notation. The
sentences hold numbers and the catalogs' vehicle names only - no player text - so they are
safe in any markup once the report escapes the names it passes in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.events import Event

Name = Callable[[int], str]
Label = Callable[[int], str]


def _hits(hits) -> str:
    per: Counter[str] = Counter()
    for vtype, pts in hits:
        per[vtype] += pts
    return ", ".join(f"{vtype} {pts}" for vtype, pts in per.items())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def convoy_names(e: Event) -> Name:
    """A convoy's name as the clans know it, from the event's `names` (combat/events.py)."""
    known = {cid: f"convoy #{n} of clan {clan}" for cid, clan, n in getattr(e, "names", ())}
    return lambda c: known.get(c, "a convoy")


def sentence(e: Event, name: Name | None = None, label: Label = str) -> str:
    name = name or convoy_names(e)
    k = e.kind
    if k == "cc.hex_attacked":
        if e.captured:
            return (f"{name(e.convoy)} took hex {label(e.cell)}: {e.needed} troops needed, "
                    f"{e.troops_lost} lost, {e.guards_killed} guards killed.")
        return f"{name(e.convoy)} failed to take hex {label(e.cell)}: all {e.troops_lost} attackers fell."
    if k == "cc.city_round":
        g = {"hit": " A grenade hit.", "miss": " A grenade missed."}.get(e.grenade, "")
        return (f"Round {e.round} at {label(e.cell)} ({e.attacker_to_hit}% against "
                f"{e.defender_to_hit}%): {e.defenders_killed} defenders and {e.attackers_killed} "
                f"attackers killed, {e.people_killed} people died.{g}")
    if k == "cc.city_invaded":
        head = (f"{name(e.convoy)} took the city at {label(e.cell)}" if e.captured
                else f"The city at {label(e.cell)} held against {name(e.convoy)}")
        tail = f"; {e.garrison_left} troops stay as its garrison" if e.captured else ""
        return (f"{head} after {_plural(e.rounds, 'round')}: {e.attackers_lost} attackers and "
                f"{e.defenders_lost + e.guards_lost} defenders killed, {e.people_killed} people "
                f"died{tail}.")
    if k == "cc.city_bombed":
        aim = {"B": "its buildings", "P": "its people", "T": "its troops",
               "S": "it with the Scourge"}.get(e.aim, "it at random")
        parts = [f"{e.hits} hit", f"{e.misses} missed"]
        if e.flak:
            parts.append(f"{e.flak} thrown off by flak")
        done = []
        if e.people_killed:
            done.append(f"{e.people_killed:,} people killed")
        if e.troops_killed:
            done.append(f"{_plural(e.troops_killed, 'defender')} killed")
        if e.buildings:
            done.append(f"destroyed: {', '.join(e.buildings)}")
        if e.scourge_hits:
            done.append("the Scourge was dropped on target")
        return (f"{name(e.convoy)} bombed the city at {label(e.cell)}, aiming at {aim}: "
                f"{_plural(e.bombs, 'bomb')}, " + ", ".join(parts) + "; "
                + ("; ".join(done) or "no harm done") + ".")
    if k == "cc.city_razed":
        burnt = f"; burnt: {', '.join(e.buildings)}" if e.buildings else ""
        spy = "; your spy there died" if e.spy_lost else ""
        return (f"{name(e.convoy)} razed the city at {label(e.cell)} with "
                f"{_plural(len(e.convoys), 'convoy')}: {e.people_killed:,} people and "
                f"{_plural(e.troops_killed, 'troop')} killed{burnt}; {e.troops_returned} of the "
                f"garrison back in reserve, {_plural(e.claymores_saved, 'claymore')} saved{spy}. The city falls "
                f"to fortification {e.fortification} and {e.garrison} survivors hold it for nobody.")
    if k == "cc.convoy_battle":
        how = " by surprise (on patrol)" if e.surprise else " on a hunt" if e.hunt else ""
        return f"{name(e.convoy)} attacked {name(e.enemy)} in {label(e.cell)}{how}."
    if k == "cc.battle_declined":
        return f"{name(e.convoy)} judged {name(e.enemy)} in {label(e.cell)} too strong to attack."
    if k == "cc.salvo":
        parts = []
        if e.rocket:
            parts.append(f"a rocket hit a {e.rocket[0]} for {e.rocket[1]}")
        parts.append(f"{e.damage} damage")
        if e.troops_killed:
            parts.append(f"{_plural(e.troops_killed, 'troop')} killed")
        if e.hits:
            parts.append(f"vehicles hit: {_hits(e.hits)}")
        if e.destroyed:
            parts.append(f"destroyed: {', '.join(e.destroyed)}")
        return f"Round {e.round}: {name(e.by)} fired, " + "; ".join(parts) + "."
    if k == "cc.convoy_fled":
        return f"{name(e.convoy)} fled after round {e.round} and went into hiding."
    if k == "cc.convoy_battle_ended":
        won = f"{name(e.winner)} won" if e.winner else "Nobody won"
        gone = "".join(f" {name(c)} was destroyed." for c in e.destroyed)
        return f"{won} the battle in {label(e.cell)} after {_plural(e.rounds, 'round')}.{gone}"
    if k == "cc.repaired":
        scrap = (f", scrapping {', '.join(e.scrapped)} for {e.parts_from_scrap} parts"
                 if e.scrapped else "")
        end = " It has no vehicles left and disbands." if e.disbanded else ""
        return f"{name(e.convoy)} used {e.parts_used} parts for repairs{scrap}.{end}"
    return ""
