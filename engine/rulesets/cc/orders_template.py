"""The orders sheet a clan fills in by mail, laid out as the book's `[CONVOY ORDERS]` and
`[CLAN ORDERS]` show it: pre-turn block with the stockpiles, a block per convoy headed with
its statistics and its numbered pulse lines, post-turn block, agents, and room for long texts.
orders_sheet.py reads it back: every heading and statistics line here is one it skips.
"""

from __future__ import annotations

from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.sheet_stats import clan_of, convoy_sheets, next_turn, order_lines
from engine.scenario import Scenario
from engine.state import State

RULE = "-" * 32


def _game(scenario: Scenario) -> str:
    for key in ("game", "game_code", "code"):  # the code the intake compares
        if scenario.meta.get(key) not in (None, ""):
            return str(scenario.meta[key]).replace(" ", "_")
    return scenario.name.replace(" ", "_")


def _lines(n: int) -> list[str]:
    return [f"{k:2d}:" for k in range(1, n + 1)]


def _count(book: Book, vid: str, n: int) -> str:
    v = book.vehicles[vid]
    return f"{n} {(v['plural'] or v['name'] + 's') if n != 1 else v['name']}".lower()


def orders_template(state: State, faction: int, scenario: Scenario) -> str:
    clan = clan_of(state, faction)
    if clan is None:
        return ""
    book = Book(scenario.catalogs)
    grid = scenario.map.grid
    turn = next_turn(clan)
    pre, post = order_lines(scenario, clan)
    out = [f"CONTINENTAL CONQUEST  GAME {_game(scenario)}",
           f"CLAN {clan.number}  ACCOUNT {clan.account}  TURN {turn}  ; {clan.name}",
           "; Write one order after each number; leave a line blank to do nothing there.",
           "; Clan orders go in the PRE-TURN and POST-TURN blocks, convoy orders in the convoy",
           "; blocks (one a pulse). Hexes are CCRR (0825), convoys #1. Comments start with ';'.",
           "; A long message or slogan: write SEE BELOW in the order and the text under BELOW.",
           "", f"{RULE} PRE-TURN CLAN ORDERS {RULE}",
           f"Money: ${clan.money:,}  Food: {clan.food_tenths // 10}  Fuel: {clan.fuel}  "
           f"Parts: {clan.parts}  Vaccine: {clan.vaccine}",
           f"Troops: {clan.troops}  Rifles: {clan.rifles}  Grenades: {clan.grenades}  "
           f"Rockets: {clan.rockets}  Claymores: {clan.claymores}  Bombs: {clan.bombs}",
           *_lines(pre), ""]
    experts = {e["code"]: e["name"] for e in scenario.catalogs["experts"]}
    for s in convoy_sheets(state, faction, scenario):
        c = s.convoy
        name = c.name or f"{clan.name} #{c.number}"
        status = c.mode.upper() + (", HIDDEN" if c.hidden else "")
        out.append(f"ORDERS FOR {c.type.upper()} CONVOY #{c.number} ({name}) IN HEX "
                   f"{grid.label(c.cell, 'ccrr')} [{status}]:")
        vehicles = sorted(s.fleet.items(), key=lambda kv: (-book.vehicles[kv[0]]["size"], kv[0]))
        out.append("Vehicles: " + (", ".join(_count(book, v, n) for v, n in vehicles) or "none"))
        out.append(f"Troops: {c.troops} of {s.troop_cap}  Rifles: {c.rifles} of {s.rifle_cap}  "
                   f"Grenades: {c.grenades} of {s.grenade_cap}  Rockets: {c.rockets} of {s.rocket_cap}"
                   + (f"  Bombs: {c.bombs} of {s.bomb_cap}" if c.type == "air" else ""))
        out.append(f"Combat Strength: {s.strength}  Morale: {c.morale}  Training: {c.training}  "
                   f"Health: {c.health}")
        cargo = f"{c.cargo} {c.cargo_type}".strip() if c.cargo else "0"
        out.append(f"Fuel Cost: {s.fuel_cost}" + (f"  Kill: {c.kill_mode}" if "GUN" in s.experts else "")
                   + (f"  Aid: {'ON' if c.aid else 'OFF'}" if "DOC" in s.experts else "")
                   + f"  Cargo: {cargo} (max {s.cargo_cap})")
        out.append("Experts: " + (", ".join(experts.get(e, e) for e in s.experts) or "none"))
        out.append(f"Convoy Orders: {s.pulses} pulses")
        out += _lines(s.pulses)
        out.append("")
    out += [f"{RULE} POST-TURN CLAN ORDERS {RULE}", *_lines(post), ""]
    if clan.agents:
        out += [f"AGENTS ({clan.agents}): the hex each agent reports on this turn", *_lines(clan.agents), ""]
    out += ["BELOW", ""]
    return "\n".join(out)
