"""Check and run agree, for every rule case of every ruleset (engine/orders/screen.py).

Simultaneous rulesets (the turn is screened by the checker):
- an order the checker refuses is not carried out: the turn ends exactly as if the player
  had never written that line (the case is run again with the line blanked out);
- an order the turn itself refuses (an event with severity "error" and a line) was
  foreseen by the checker: an error or a warning on that line.

Real-time rulesets (each post is checked at its moment inside the turn): checking a post on
the state left by the posts before it refuses exactly the actions the turn ignores, leaving
aside action points (the checker knows the AP last recorded, the turn the post's hour).
"""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.casefile import Case, build_scenario, case_files, case_posts, load_case, run_case
from engine.orders import Severity
from engine.orders.screen import refusing
from engine.ruleset import Ruleset, TurnModel

# Atlantis: only the first half holds so far (what the checker refuses has no effect); its
# turn refusals (atlantis.failed) carry no severity yet, since the checker does not foresee
# them all (GIVE of what a unit lacks, ENTER refused by the owner, ...).
# Continental Conquest holds both halves: its cc.failed events carry severity "error" and its
# checker's dry run (cc/dryrun.py) plays the clan's turn through, warning where it cannot know.
RULESETS = ("kok", "artnes", "coi", "atlantis", "cc")
CASES = [(rs, p) for rs in RULESETS for p in case_files(rs)]
FACTION_FIELDS = ("faction", "player", "nation", "tribe", "clan")


def _orders_cases():
    return [(rs, p) for rs, p in CASES if load_case(p).data.get("orders")]


def _posts_cases():
    return [(rs, p) for rs, p in CASES if load_case(p).data.get("posts")]


def _findings(case: Case) -> tuple[Ruleset, dict[int, list]]:
    """The checker's findings for each faction's orders against the case's first state."""
    rs, scen = build_scenario(case)
    state = rs.initial_state(scen)
    out = {}
    for key, text in case.data.get("orders", {}).items():
        sheet = rs.parse_orders(text, source=case.path.name)
        out[int(key)] = rs.check(sheet, state, int(key), scen)
    return rs, out


def _turn_refusals(events) -> set[tuple[int, int]]:
    """(faction, line) of the orders the turn refused: events of severity "error" that name
    the order's line (the convention every ruleset's order events follow)."""
    out = set()
    for e in events:
        if getattr(type(e), "severity", "") != "error" or not getattr(e, "line", 0):
            continue
        who = next((getattr(e, f) for f in FACTION_FIELDS if isinstance(getattr(e, f, None), int)), None)
        if who is not None:
            out.add((who, e.line))
    return out


def _blanked(case: Case, refused: dict[int, set[int]]) -> Case:
    """The case with the refused lines of each faction's orders replaced by empty lines."""
    data = json.loads(json.dumps(case.data))
    for key, text in data["orders"].items():
        gone = refused.get(int(key), set())
        if not gone:
            continue
        lines = text.split("\n")
        # orders texts in TOML ''' blocks start with a newline that the parser drops
        first = 1 if case.data["orders"][key].startswith("\n") else 0
        data["orders"][key] = "\n".join("" if i + 1 - first in gone else ln
                                        for i, ln in enumerate(lines))
    data.pop("expect", None)
    return Case(case.path, data)


def _alone(case: Case, faction: int) -> Case:
    """The case with only `faction`'s orders (the others send none)."""
    data = json.loads(json.dumps(case.data))
    data["orders"] = {k: v for k, v in data["orders"].items() if int(k) == faction}
    data.pop("expect", None)
    return Case(case.path, data)


@pytest.mark.parametrize("ruleset,path", _orders_cases(),
                         ids=[f"{r}/{p.stem}" for r, p in _orders_cases()])
def test_refused_orders_are_not_carried_out_and_turn_refusals_were_foreseen(ruleset, path):
    case = load_case(path)
    rs, found = _findings(case)
    if rs.turn_model == TurnModel.REALTIME:
        pytest.skip("real-time ruleset: see the posts test")
    result = run_case(case)
    # whole orders the checker refused (parts of a PLA/DEF are screened by the ruleset hook)
    refused = {f: {line for line, parts in refusing(ds).items() if 0 in parts and line}
               for f, ds in found.items()}
    if any(refused.values()):
        again = run_case(_blanked(case, refused))
        assert again.state.to_json() == result.state.to_json(), \
            f"{path.name}: a refused order changed the turn"
        assert [e.to_dict() for e in again.events] == [e.to_dict() for e in result.events], \
            f"{path.name}: a refused order changed what happened"
    foreseen = {(f, d.line) for f, ds in found.items() for d in ds
                if d.severity in (Severity.ERROR, Severity.WARNING)}
    unforeseen = sorted(_turn_refusals(result.events) - foreseen)
    # a refusal caused by another player's orders (an attack that pins the troops) cannot
    # be foreseen by checking one sheet: it must go when that player is alone in the turn
    static = [(f, line) for f, line in unforeseen if (f, line) in _turn_refusals(
        run_case(_alone(case, f)).events)]
    assert not static, (f"{path.name}: the turn refused orders the checker passed without a "
                        f"word: {static}")


@pytest.mark.parametrize("ruleset,path", _posts_cases(),
                         ids=[f"{r}/{p.stem}" for r, p in _posts_cases()])
def test_each_post_is_checked_as_the_turn_applies_it(ruleset, path):
    case = load_case(path)
    rs = registry.get(ruleset)
    if rs.turn_model != TurnModel.REALTIME:
        pytest.skip("posts only matter to real-time rulesets")
    from engine.rulesets.coi.posts import post_order  # the one real-time ruleset so far

    posts = case.data["posts"]
    subs = case_posts(posts, path.name)
    order = sorted(range(len(posts)), key=lambda i: post_order(subs[i], i))
    full = run_case(case)
    ignored = {}
    for e in full.events:
        if e.kind == "coi_action_ignored" and not e.reason.startswith("needs "):
            ignored.setdefault(e.post, set()).add(e.text)
    for k, i in enumerate(order):
        before = dict(case.data)
        before["posts"] = [posts[j] for j in order[:k]]
        before.pop("expect", None)
        state = run_case(Case(path, before)).state
        _, scen = build_scenario(case)
        who = next((p.number for p in state["players"]
                    if p.name.casefold() == str(posts[i].get("author", "")).casefold()), None)
        game = state.one("game") if state["game"] else None
        if who is None or game is None or not game.started_at or game.ended_at \
                or str(posts[i].get("author", "")).casefold() == (game.gm or "").casefold():
            continue  # GM posts, strangers, posts before the start: nothing to check
        sheet = rs.parse_orders(posts[i].get("text", ""))
        errors = {d.text for d in rs.check(sheet, state, who, scen) if d.severity == Severity.ERROR}
        pid = subs[i].meta["post_id"]
        assert errors == ignored.get(pid, set()), (
            f"{path.name} post {pid}: the checker refuses {sorted(errors)}, "
            f"the turn ignored {sorted(ignored.get(pid, set()))}")
