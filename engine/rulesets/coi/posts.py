"""Applying a batch of forum posts: the one phase of a Conquest of Island step.

Posts are applied in (time, post id) order, so of two contradicting posts in the same
minute the earlier, then the lower id, wins. A post already applied is skipped; a post
whose text changed since it was applied is flagged for the GM and never re-applied.
"""

from __future__ import annotations

import hashlib
import re

from engine.orders import ILLEGAL, INVALID, Diagnostic, Severity
from engine.ruleset import Submission, TurnContext
from engine.rulesets.coi import actions as A
from engine.rulesets.coi.catalog import Rules
from engine.rulesets.coi.clock import ap_at, game_zone, normalise
from engine.rulesets.coi.events import (
    ActionDone,
    ActionIgnored,
    ApAdjusted,
    ApClaimed,
    GameEnded,
    GameStarted,
    PostEdited,
    PostSkipped,
)
from engine.rulesets.coi.rules import HANDLERS, Act
from engine.rulesets.coi.state import Post
from engine.rulesets.coi.world import Impossible, World
from engine.threads import post_id_key

# The book: the GM says "the game has started" in bold. Bold BBCode, or the phrase alone on a line.
START = [re.compile(r"\[b\][^\[]*the\s+game\s+has\s+started[^\[]*\[/b\]", re.I),
         re.compile(r"^\W*the\s+game\s+has\s+started\W*$", re.I | re.M)]


def post_id(sub: Submission, index: int) -> str:
    pid = sub.meta.get("post_id")
    return str(pid) if pid not in (None, "") else (sub.source_name or f"#{index}")


def post_order(sub: Submission, index: int, zone=None) -> tuple:
    pid = post_id(sub, index)
    return (normalise(sub.received_at, zone) or "9999", *post_id_key(pid), index)


def digest(text: str) -> str:
    return hashlib.sha256(text.replace("\r\n", "\n").strip().encode()).hexdigest()[:16]


def apply_posts(ctx: TurnContext) -> None:
    rules = Rules.from_catalogs(ctx.catalogs)
    diags = ctx.scratch.setdefault("diagnostics", [])
    w = World(ctx.state, ctx.map, rules, ctx.options, ctx.emit, diags)
    names = rules.unit_names()
    zone = game_zone(ctx.options)
    indexed = sorted(enumerate(ctx.submissions), key=lambda iv: post_order(iv[1], iv[0], zone))
    applied = {p.post: p for p in ctx.state["applied"]}
    for index, sub in indexed:
        apply_post(w, sub, post_id(sub, index), names, applied)
    w.tidy()


def _diag(w: World, kind: str, msg: str, pid: str, line: int = 0, text: str = "",
          severity: Severity = Severity.ERROR, faction: int | None = None) -> None:
    w.diagnostics.append(Diagnostic(kind, msg, line, 0, text, f"post {pid}", severity, faction))


def apply_post(w: World, sub: Submission, pid: str, names: dict[str, str],
               applied: dict[str, Post] | None = None) -> None:
    game = w.state.one("game")
    author = (sub.sender or "").strip()
    text = sub.text or ""
    dig = digest(text)
    if applied is None:
        applied = {p.post: p for p in w.state["applied"]}
    seen = applied.get(pid)
    if seen is not None:
        if seen.digest == dig:
            w.emit(PostSkipped(pid, author, "already applied"))
            return
        who = w.player_named(author)
        w.emit(PostEdited(pid, who.number if who else 0, sub.meta.get("edited_at") or "", False))
        _diag(w, ILLEGAL, "post was edited after it was applied; the edit is not applied (GM: check it)",
              pid, severity=Severity.WARNING, faction=who.number if who else None)
        return
    zone = game_zone(w.options)
    time = normalise(sub.received_at, zone)
    if time is None:
        _diag(w, INVALID, f"post has no readable time ({sub.received_at!r}); not applied", pid)
        w.emit(PostSkipped(pid, author, "no time"))
        return
    applied[pid] = Post(pid, author, time, dig)
    w.state["applied"].append(applied[pid])
    if game.clock and time < game.clock:
        _diag(w, ILLEGAL, f"post of {time} arrived after posts of {game.clock}; applied at its own time",
              pid, severity=Severity.WARNING)
    game.clock = max(game.clock, time)
    if game.gm and author.casefold() == game.gm.casefold():
        if not game.started_at and is_start(text):
            start(w, time, pid)
        gm_adjustments(w, text, time, pid)
        return
    if game.ended_at:
        w.emit(PostSkipped(pid, author, "the game has ended"))
        return
    player = w.player_named(author)
    if player is None and sub.faction is not None:
        player = next((p for p in w.state["players"] if p.number == sub.faction), None)
    if player is None:
        if text.strip():
            _diag(w, INVALID, f"{author or 'the author'} is not a player; post ignored", pid,
                  severity=Severity.INFO)
        w.emit(PostSkipped(pid, author, "not a player"))
        return
    me = player.number
    if not game.started_at:
        _diag(w, ILLEGAL, "the game has not started yet; post ignored", pid, faction=me)
        w.emit(PostSkipped(pid, author, "before the start"))
        return
    if player.ap_at and time >= player.ap_at:
        player.ap = ap_at(player.ap, player.ap_at, time, w.options["ap_cap"], w.options["ap_per_hour"],
                          zone)
        player.ap_at = time
    if sub.meta.get("edited_at"):
        w.emit(PostEdited(pid, me, str(sub.meta["edited_at"]), True))
        _diag(w, ILLEGAL, f"post was edited at {sub.meta['edited_at']} (editing is against the rules; "
              "GM: check it)", pid, severity=Severity.WARNING, faction=me)
    sheet = A.read_post(text, names, f"post {pid}")
    for d in sheet.diagnostics:
        w.diagnostics.append(Diagnostic(d.kind, d.message, d.line, d.col, d.text, f"post {pid}",
                                        d.severity, me))
    before = player.ap
    for order in sheet.orders:
        apply_action(w, player, order, time, pid)
        if w.state.one("game").ended_at:
            break
    claim = sheet.header.get("ap_claim")
    if claim is not None:
        ok = claim in (before, player.ap)
        w.emit(ApClaimed(pid, me, claim, before, player.ap, ok))
        if not ok:
            _diag(w, ILLEGAL, f"the post claims {claim} AP; the player had {before} "
                  f"({player.ap} after its actions)", pid, severity=Severity.WARNING, faction=me)


def apply_action(w: World, player, order: A.Order, time: str, pid: str) -> None:
    name = A.action_name(order)
    had = player.ap
    try:
        spent = HANDLERS[type(order)](Act(w, player, time), order)
    except Impossible as e:
        w.emit(ActionIgnored(pid, player.number, name, order.text, str(e), had))
        _diag(w, ILLEGAL, f"ignored: {e}", pid, order.line, order.text, faction=player.number)
        return
    w.emit(ActionDone(pid, player.number, name, order.text, spent, player.ap))
    if isinstance(order, A.EndGame):
        maybe_end(w, time)


GM_AP = re.compile(r"^\W*AP\s+(?:of\s+)?(\"[^\"]+\"|\S+)\s*(=|:)?\s*([+-]?\d+)\s*$", re.I)


def gm_adjustments(w: World, text: str, time: str, pid: str) -> None:
    """GM lines `AP NAME -3` (a penalty or correction) or `AP NAME = 12` (set)."""
    for lineno, line in enumerate(A.clean_text(text).split("\n"), start=1):
        m = GM_AP.match(line.strip())
        if not m:
            continue
        p = w.player_named(m.group(1).strip('"'))
        if p is None:
            _diag(w, INVALID, f"{m.group(1)} is not a player", pid, lineno, line.strip())
            continue
        if p.ap_at and time >= p.ap_at:
            p.ap = ap_at(p.ap, p.ap_at, time, w.options["ap_cap"], w.options["ap_per_hour"],
                         game_zone(w.options))
            p.ap_at = time
        value = int(m.group(3))
        new = value if m.group(2) else p.ap + value
        new = max(0, min(w.options["ap_cap"], new))
        w.emit(ApAdjusted(pid, p.number, new - p.ap, new))
        p.ap = new


def is_start(text: str) -> bool:
    unquoted = A.QUOTE.sub("", text or "")
    return bool(START[0].search(unquoted) or START[1].search(A.clean_text(unquoted)))


def start(w: World, time: str, pid: str) -> None:
    game = w.state.one("game")
    game.started_at = time
    for p in w.state["players"]:
        if not p.ap_at:
            p.ap, p.ap_at = w.options["ap_start"], time
            p.joined_at = p.joined_at or time
    w.emit(GameStarted(pid, time))


def scores(w: World) -> list[tuple[int, int]]:
    pts: dict[int, int] = {p.number: 0 for p in w.state["players"]}
    for h in w.state["hexes"]:
        if h.owner in pts:
            pts[h.owner] += w.terrain(h.cell)["points"]
    return sorted(pts.items(), key=lambda kv: (-kv[1], kv[0]))


def maybe_end(w: World, time: str) -> None:
    holders = {h.owner for h in w.state["hexes"] if h.owner}
    voters = {p.number for p in w.state["players"] if p.end_vote}
    if holders and holders <= voters:
        w.state.one("game").ended_at = time
        w.emit(GameEnded(time, tuple(scores(w))))
