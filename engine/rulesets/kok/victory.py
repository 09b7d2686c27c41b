"""Victory (6.2): rank in fame, treasure (gold) and might (land units); the best
average rank wins. Tied values share a rank (1, 1, 3); tied averages share a place."""

from __future__ import annotations

from engine.rulesets.kok.catalogs import troops_of
from engine.rulesets.kok.events import Ranking
from engine.scenario import Scenario
from engine.state import State


def _ranks(values: dict[int, int]) -> dict[int, int]:
    return {t: 1 + sum(1 for o in values.values() if o > v) for t, v in values.items()}


def standings(state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
    troops = troops_of(scenario.catalogs)
    might: dict[int, int] = {t.number: 0 for t in state["tribes"]}
    for a in state["armies"]:
        tr = troops.get(a.troop)
        if a.tribe in might and (tr is None or not tr.transport):
            might[a.tribe] += a.count
    provinces: dict[int, int] = {t: 0 for t in might}
    for p in state["provinces"]:
        if p.owner in provinces:
            provinces[p.owner] += 1
    return {t.number: {"fame": t.fame, "treasure": t.gold, "might": might[t.number],
                       "provinces": provinces[t.number], "wood": t.wood}
            for t in state["tribes"]}


def ranking(state: State, scenario: Scenario) -> list[Ranking]:
    s = standings(state, scenario)
    if not s:
        return []
    fr = _ranks({t: int(v["fame"]) for t, v in s.items()})
    tr = _ranks({t: int(v["treasure"]) for t, v in s.items()})
    mr = _ranks({t: int(v["might"]) for t, v in s.items()})
    avg = {t: round((fr[t] + tr[t] + mr[t]) / 3, 4) for t in s}
    out = []
    for t in sorted(s, key=lambda t: (avg[t], t)):
        place = 1 + sum(1 for o in s if avg[o] < avg[t])
        out.append(Ranking(t, place, avg[t], int(s[t]["fame"]), fr[t], int(s[t]["treasure"]),
                           tr[t], int(s[t]["might"]), mr[t]))
    return out


def summary(state: State, scenario: Scenario) -> dict[int, dict[str, float]]:
    return {t: {k: float(v) for k, v in d.items()} for t, d in standings(state, scenario).items()}
