"""The Continental Conquest player turn ([PLAYER TURN SEQUENCE]) as a declared phase table.

A step of the sequential runner is one clan's turn: the clan whose orders sheet the step
carries (a case file may give several sheets; they run one after the other, lowest hidden
sequence number first, each a whole turn as the book's game turn would). Every phase works on
that clan's `ClanTurn`, kept in `ctx.scratch["cc_turn"]`. The end of the game turn
(`CYCLE_PHASES`, game_turn.py) runs after the turn that completes it.

Modules, named as the book names things: income.py, clan_orders.py (and gifts.py),
upkeep.py (pick-up/healing and maintenance), pulses.py (the convoy orders phase, food and
desertion), movement.py (moves, entering a hex, attacking a hex, pick-up), convoy_orders.py,
cargo.py, reshape.py, game_turn.py; events.py holds the typed events.
"""

from __future__ import annotations

from engine.ruleset import Phase, TurnContext
from engine.rulesets.cc import orders as o
from engine.rulesets.cc.state import AgentTarget
from engine.rulesets.cc.turn import buildings, clan_orders, espionage, pulses, random_events, upkeep
from engine.rulesets.cc.turn.clan_turn import ClanTurn
from engine.rulesets.cc.turn.game_turn import CYCLE_PHASES
from engine.rulesets.cc.turn.income import income_phase

__all__ = ["CYCLE_PHASES", "PLAYER_TURN", "ClanTurn", "run_clan_turns"]


def _turn(ctx: TurnContext) -> ClanTurn:
    return ctx.scratch["cc_turn"]


def income(ctx: TurnContext) -> None:
    t = _turn(ctx)
    if t.opts.guard_patrol_lasts == "one_turn":  # X51: they lasted until this turn began
        for cv in t.convoys():
            cv.guarding = cv.patrolling = False
    # X72: lines bought last turn serve this turn only; an ORDER this turn buys the next
    t.clan.extra_pre = t.clan.extra_post = 0
    income_phase(t)
    buildings.turn_start(t)  # cc-cycle: Airports' range, Garrisons' guards
    random_events.turn_chance(t)  # cc-house: the turn's random event (unless EVENT brings it)


def _clan_block(section: str):
    def run(ctx: TurnContext) -> None:
        t = _turn(ctx)
        for order in t.orders:
            if isinstance(order, o.ClanOrder) and order.section == section:
                clan_orders.carry_out(t, order)
    return run


def agents(ctx: TurnContext) -> None:
    """The agents block: each agent's hex for this turn, reported with the spies' cities."""
    t = _turn(ctx)
    rows = ctx.state["agent_targets"]
    rows[:] = [a for a in rows if a.clan != t.number]
    for order in t.orders:
        if isinstance(order, o.AgentOrder) and 1 <= order.agent <= t.clan.agents:
            cell = t.board.parse(order.hex, "ccrr") if order.hex else None
            if cell is not None:
                rows.append(AgentTarget(t.number, order.agent, cell))
    espionage.intelligence(t)  # cc-cycle: the agents' hexes and the spies' cities reported


def pre_pickup(ctx: TurnContext) -> None:
    upkeep.pick_up_and_heal(_turn(ctx), 0)


def ten_pulses(ctx: TurnContext) -> None:
    t = _turn(ctx)
    pulses.run_pulses(t, 1, int(t.opts.pulses))


def engineer_pulses(ctx: TurnContext) -> None:
    t = _turn(ctx)
    if int(t.opts.engineer_pulses) > int(t.opts.pulses):
        pulses.run_pulses(t, int(t.opts.pulses) + 1, int(t.opts.engineer_pulses))


def maintenance(ctx: TurnContext) -> None:
    t = _turn(ctx)
    upkeep.maintenance(t)
    buildings.garrisons(t, -1)  # cc-cycle
    t.close()


PLAYER_TURN: list[Phase] = [
    Phase("income", income, "owned hexes and cities produce; usable at once; the turn's random event"),
    Phase("pre-turn clan orders", _clan_block(o.PRE), "the pre-turn block, in order"),
    Phase("agents", agents, "each agent's hex this turn; agents and planted spies report"),
    Phase("pre-turn pick-up and healing", pre_pickup, "convoys in friendly cities board troops and weapons"),
    Phase("convoy orders", ten_pulses, "ten pulses; convoy #1 first; pick-ups and food after each"),
    Phase("engineers' pulses", engineer_pulses, "pulses 11 and 12 for sea convoys with an Engineer"),
    Phase("post-turn clan orders", _clan_block(o.POST), "the post-turn block, in order"),
    Phase("post-turn maintenance", maintenance, "pick-ups, parts paid convoy by convoy, scrapping"),
]


def run_clan_turns(ctx: TurnContext) -> None:
    """Each clan with a sheet in this step takes its whole turn, lowest sequence number first."""
    clans = {c.number: c for c in ctx.state["clans"]}
    order = sorted((f for f in ctx.orders if f in clans and not clans[f].dropped),
                   key=lambda f: (clans[f].sequence, f))
    for faction in order:
        ctx.scratch["cc_turn"] = ClanTurn(ctx, faction, ctx.orders[faction])
        for phase in PLAYER_TURN:
            ctx.events.phase = phase.name
            phase.run(ctx)
        if ctx.scratch.get("now"):  # when it ran: the report's due date for the next (X4)
            clans[faction].last_turn_at = ctx.scratch["now"]
    ctx.events.phase = ""
    ctx.scratch.pop("cc_turn", None)
