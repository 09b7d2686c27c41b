"""What the game service hands back: import results, the turn status, run results."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.orders import Diagnostic, Severity
from engine.ruleset import Submission

# submission states in an ImportResult
STORED = "stored"          # new submission kept (matched or not)
DUPLICATE = "duplicate"    # realtime: the same post (id and text) was imported before; skipped
EDITED = "edited"          # realtime: a post changed after it was applied; kept, not applied

# match statuses that make a matched submission unusable (see engine.intake.match)
REJECTED = ("unknown_faction", "wrong_game", "bad_password")


def count(diags: list[Diagnostic], severity: Severity) -> int:
    return sum(1 for d in diags if d.severity == severity)


@dataclass
class ImportResult:
    submission: Submission
    submission_id: int | None
    status: str = STORED
    diagnostics: list[Diagnostic] = field(default_factory=list)
    superseded: list[int] = field(default_factory=list)  # earlier submission ids it replaced
    note: str = ""

    @property
    def matched(self) -> bool:
        return self.submission.faction is not None and \
            self.submission.meta.get("match", "ok") not in REJECTED and \
            self.submission.meta.get("match") != "unmatched"

    @property
    def errors(self) -> int:
        return count(self.diagnostics, Severity.ERROR)

    @property
    def warnings(self) -> int:
        return count(self.diagnostics, Severity.WARNING)

    def line(self) -> str:
        s = self.submission
        who = f"faction {s.faction}" if s.faction is not None else s.meta.get("role") or "UNMATCHED"
        turn = f" turn {s.step}" if s.step is not None else ""
        extra = f" ({self.note})" if self.note else ""
        return (f"{s.source_name or s.source_kind}: {self.status}, {who}{turn}, "
                f"{self.errors} error(s), {self.warnings} warning(s){extra}"
                + (f"\n    matched by: {s.matched_by}" if s.matched_by else ""))


@dataclass
class ImportReport:
    results: list[ImportResult] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    @property
    def unmatched(self) -> list[ImportResult]:
        return [r for r in self.results if r.status == STORED and not r.matched]


@dataclass
class FactionStatus:
    faction: int
    name: str
    submitted: bool = False
    submission_id: int | None = None
    received_at: str = ""
    source: str = ""
    source_kind: str = ""
    errors: int = 0
    warnings: int = 0
    replaced: int = 0          # earlier submissions for this step it superseded
    held: int = 0              # submissions for this faction waiting for the GM (unverified)
    open: bool = False         # no registered address or password: orders taken from anyone
    turns: int = 0             # sequential: the faction's turns taken so far
    due: str = ""              # sequential: when its next turn may run (ISO), "" if any time
    dropped: bool = False      # sequential: its position is dropped (it takes no more turns)


@dataclass
class Status:
    game: str
    ruleset: str
    turn_model: str
    current_step: int
    pending_step: int
    factions: list[FactionStatus] = field(default_factory=list)
    unmatched: list[Submission] = field(default_factory=list)
    other_steps: list[Submission] = field(default_factory=list)  # for another turn (late, early)
    # (late ones are also in `late`, with their ids: an error until reassigned or dismissed)
    rejected: list[Submission] = field(default_factory=list)     # wrong game, password...
    edited: list[Submission] = field(default_factory=list)       # realtime edited posts
    late: list[tuple[int, Submission]] = field(default_factory=list)  # (id, orders) for a turn run already
    held: list[Submission] = field(default_factory=list)         # unverified sender: GM decides
    pending_posts: int = 0                                        # realtime: posts not applied
    problems: list[Diagnostic] = field(default_factory=list)     # files that gave no orders
    finished: bool = False                                        # the ruleset says the game is over
    # sequential: (submission id, faction, its turn, why it waits, when it may run or None)
    waiting: list[tuple[int, int, int, str, str | None]] = field(default_factory=list)
    game_turns: int = 0                                           # sequential: game turns ended
    game_turn_due: str = ""                                       # sequential: when the one under way ends at the latest
    gm_steps: list[tuple[int, str, str]] = field(default_factory=list)  # (step, when, what the GM did)
    interventions: list[str] = field(default_factory=list)  # the GM's at this turn boundary

    @property
    def missing(self) -> list[FactionStatus]:
        return [f for f in self.factions if not f.submitted]

    def lines(self) -> list[str]:
        if self.turn_model == "realtime":
            out = [f"game {self.game} ({self.ruleset}, {self.turn_model}); {self.current_step} "
                   f"import(s) of posts applied; posts waiting to be applied: {self.pending_posts}"]
        else:
            out = [f"game {self.game} ({self.ruleset}, {self.turn_model}); last turn run: "
                   f"{self.current_step}; " + ("THE GAME HAS ENDED" if self.finished else
                                               f"collecting orders for turn {self.pending_step}")]
        realtime = self.turn_model == "realtime"
        for f in self.factions:
            if realtime:
                out.append(f"  {f.faction:>3} {f.name:<24} "
                           + (f"new posts, last at {f.received_at or '?'}: {f.errors} error(s), "
                              f"{f.warnings} warning(s)" if f.submitted else "no new posts"))
            elif f.submitted:
                out.append(f"  {f.faction:>3} {f.name:<24} orders from {f.source_kind} {f.source} "
                           f"at {f.received_at or '?'}: {f.errors} error(s), {f.warnings} warning(s)"
                           + (f", replacing {f.replaced} earlier" if f.replaced else ""))
            elif f.dropped:
                out.append(f"  {f.faction:>3} {f.name:<24} DROPPED")
            else:
                out.append(f"  {f.faction:>3} {f.name:<24} NO ORDERS")
            if self.turn_model == "sequential" and not f.dropped:
                out[-1] += f" [turns {f.turns}" + (f"; next may run from {f.due}]" if f.due else "]")
            if f.held:
                out[-1] += (f"; {f.held} HELD submission(s) from an unverified sender wait for "
                            "the GM (realmsmith accept/reject)")
        late = {id(s) for _sid, s in self.late}  # said below, as errors
        for title, subs in (("unmatched", self.unmatched),
                            ("for another turn", [s for s in self.other_steps if id(s) not in late]),
                            ("rejected", self.rejected), ("edited after applying", self.edited)):
            for s in subs:
                sid = s.meta.get("submission_id")
                out.append(f"  {title}: " + (f"submission {sid}, " if sid is not None else "")
                           + f"{s.source_name or s.source_kind} from {s.sender or '?'}"
                           f" ({s.matched_by or 'no match'})")
        for sid, s in self.late:
            out.append(f"  ERROR: submission {sid}, {s.source_name or s.source_kind} from "
                       f"{s.sender or '?'}: faction {s.faction}'s orders for turn {s.step}, which "
                       f"has been run already; not used. Meant for turn {self.pending_step}? "
                       f"realmsmith reassign GAME {sid} --turn {self.pending_step} (or dismiss "
                       f"GAME {sid})")
        for s in self.held:
            out.append(f"  HELD: submission {s.meta.get('submission_id', '?')} "
                       f"{s.source_name or s.source_kind} from {s.sender or '?'} for faction "
                       f"{s.faction}: {s.meta.get('verify_note', 'sender not verified')} "
                       f"(realmsmith accept GAME {s.meta.get('submission_id', '?')}, or reject)")
        opened = [f.faction for f in self.factions if f.open]
        if opened and not realtime:
            out.append(f"  open: faction(s) {', '.join(map(str, opened))} have no registered "
                       "address or password; their orders are taken from any sender")
        for sid, faction, turn, why, _ready in self.waiting:
            out.append(f"  waiting: submission {sid}, faction {faction}'s turn {turn}: {why}")
        for d in self.problems:
            out.append(f"  problem: {d.file or '?'}: {d.message}")
        if self.turn_model == "sequential":
            out.append(f"  game turns ended: {self.game_turns}"
                       + (f"; the next ends by {self.game_turn_due} (its due date)" if self.game_turn_due else ""))
        for step, when, what in self.gm_steps:
            out.append(f"  GM, turn {step} ({when}): {what}")
        for line in self.interventions:
            out.append(f"  GM: {line}")
        sent = len(self.factions) - len(self.missing)
        if realtime:
            out.append(f"{sent} of {len(self.factions)} players have posts waiting")
        else:
            out.append(f"{sent} of {len(self.factions)} factions have sent orders")
        return out


@dataclass
class RunResult:
    steps: list[int] = field(default_factory=list)
    nmr: dict[int, list[int]] = field(default_factory=dict)     # step -> factions without orders
    events: int = 0
    reports: int = 0
    note: str = ""
    waiting: list[tuple[int, int, int, str, str | None]] = field(default_factory=list)  # see Status
