"""The clan's status report as text, section by section in the book's order ([POST-TURN
STATUS REPORT]): first page, turn results, status, market, Top Clans, convoys, hexes, cities,
spotting, convoys passing the clan's hexes, clans met, Heard on the Radio, and the orders sheet for the next turn.

`sections` gives (title, lines) pairs; the text joins them under ruled headings and the HTML
page (report_html.py) puts each under a heading of its own, so both say the same.
"""

from __future__ import annotations

from typing import Any

RADIO_WORDS = {"gm": "From the GM", "battle": "Battle", "city attack": "City attacked",
               "bombing": "City bombed",
               "razing": "City razed", "message": "Message", "passing": "Passing convoy",
               "kickback": "Kickback", "hex lost": "Hex lost", "buying": "Buying chance"}

Section = tuple[str, list[str]]


def _rule(title: str) -> str:
    return f"{'-' * 8} {title} {'-' * max(4, 70 - len(title))}"


def first_page(r: dict[str, Any]) -> list[str]:
    over = r.get("game_over")   # the end-of-game report: the last game turn, not the next one
    turn = f"{over['game_turn']} (THE LAST)" if over else r["game_turn"]
    out = [f"CONTINENTAL CONQUEST  GAME {r['game']}  GAME TURN {turn}"]
    if r.get("clan") is None:
        out.append("GM REPORT")
    else:
        out.append(f"CLAN {r['clan']} {r.get('name', '')}  TURN {r.get('turn', '')}")
        if r.get("due"):
            out.append(f"Orders for your turn {r.get('turn', 0) + 1} may run from {r['due']}")
        elif r.get("turn") == 0:
            out.append("Orders for your turn 1: send them when you are ready")
    if r.get("game_over"):
        g = r["game_over"]
        won = "shared" if g["winner"] == -1 else f"won by clan {g['winner']}"
        out.append(f"THE GAME IS OVER after game turn {g['game_turn']}: {won}")
    return out


def sections(r: dict[str, Any]) -> list[Section]:
    out: list[Section] = [("", first_page(r))]
    if r.get("missing"):
        return out + [("", [r["missing"]])]
    results, phase = [], None
    for x in r["results"]:
        if x["phase"] != phase:
            phase = x["phase"]
            results.append(f"[{phase or 'turn'}]")
        results.append(f"  {x['text']}")
    out.append(("TURN RESULTS", results or ["  (nothing happened)"]))
    if r.get("problems"):
        out.append(("ORDERS NOT ACCEPTED", [f"  {p}" for p in r["problems"]]))
    if r.get("warnings"):
        out.append(("NOTES ON YOUR ORDERS", [f"  {p}" for p in r["warnings"]]))
    if r.get("clan") is None:
        out.append(("CLANS", [f"  {c['clan']:>3} {c['name']:<20} turns {c['turns']}  ${c['money']:,}"
                              f"{'  DROPPED' if c['dropped'] else ''}" for c in r["clans"]]))
        out.append(_passing(r))
        out.append(_radio(r))
        return out
    s, e = r["status"], r["income_estimate"]
    out.append(("STATUS", [
        f"Money: ${s['money']:,}  Food: {s['food']}  Fuel: {s['fuel']}  Parts: {s['parts']}  "
        f"Vaccine: {s['vaccine']}",
        f"Troops: {s['troops']}  Rifles: {s['rifles']}  Grenades: {s['grenades']}  Rockets: "
        f"{s['rockets']}  Claymores: {s['claymores']}  Bombs: {s['bombs']}  Agents: {s['agents']}",
        f"Income next turn (estimate): ${e['money']:,}, food {e['food']}, fuel {e['fuel']}, "
        f"parts {e['parts']}, vaccine {e['vaccine']}, troops {e['troops']} "
        f"({e['hexes']} hexes, {e['cities']} cities, {e['bonuses']} income bonuses)"]))
    market = ["  " + "  ".join(f"{k}: ${v:,}" for k, v in r["prices"].items())]
    if r.get("vehicle_prices"):
        market.append("  vehicles: " + "  ".join(f"{k}: ${v:,}" for k, v in r["vehicle_prices"].items()))
    out.append(("MARKET", market))
    final = "FINAL " if r.get("game_over") else ""   # the end-of-game report's standings
    for ranking, rows in r["top_clans"].items():
        out.append((f"{final}TOP CLANS: {ranking.upper()}",
                    [f"  {i:>2}. Clan {c['clan']} ({c['name']}): {c['value']:,}" for i, c in enumerate(rows, 1)]))
    out.append(("CONVOYS", _convoys(r["convoys"]) or ["  (no convoys)"]))
    out.append(("HEXES", ["  HEX   TER OWN  DF  TR  VALUE  FO  FU  PA  VA  SS  CS        ROADS"]
                + [_hex(h) for h in r["hexes"]]))
    out.append(("CITIES", ["  HEX   NAME                 OWN   VALUE     POP F  TRP  CM PRODUCES NEEDS    "
                           "EXPERT STATUS   BUILDINGS"] + [_city(c) for c in r["cities"]]))
    out.append(("SPOTTING REPORTS", [f"  {s['hex']}" + (f" ({s['owner']})" if s["owner"] is not None else "")
                                     + (f" [{s['size']}]" if s["size"] else "") for s in r["spotted"]]
                or ["  (nothing spotted)"]))
    out.append(_passing(r))
    out.append(("CLANS MET", [f"  Clan {c['clan']} ({c['name']})" + (f"  phone {c['phone']}" if c["phone"] else "")
                              + (f"  \"{c['slogan']}\"" if c["slogan"] else "") for c in r["clans_met"]]
                or ["  (none)"]))
    out.append(_radio(r))
    if r.get("orders_sheet"):
        out.append(("ORDERS SHEET FOR YOUR NEXT TURN", r["orders_sheet"].rstrip("\n").split("\n")))
    return out


def _passing(r: dict[str, Any]) -> Section:
    """Convoys the clan's hexes saw pass (not in recon mode) since its last turn, by hex."""
    rows = sorted(r.get("passing", []), key=lambda x: x["hex"])
    return ("CONVOYS PASSING YOUR HEXES", [f"  {x['hex']}: {x['text']}" for x in rows] or ["  (none seen)"])


def _radio(r: dict[str, Any]) -> Section:
    lines = []
    for x in r.get("radio", []):
        word = RADIO_WORDS.get(x["kind"], x["kind"].capitalize() if x["kind"] else "")
        lines.append(f"  {word + ': ' if word else ''}{x['hex'] + ': ' if x['hex'] else ''}{x['text']}")
    return ("HEARD ON THE RADIO", lines or ["  (nothing heard)"])


def _convoys(convoys: list[dict[str, Any]]) -> list[str]:
    out = []
    for c in convoys:
        flags = ", ".join(x for x in (c["mode"].upper(), "HIDDEN" if c["hidden"] else "",
                                      "GUARD" if c["guarding"] else "", "PATROL" if c["patrolling"] else "") if x)
        veh = ", ".join(f"{n} {v}" for v, n in c["vehicles"].items()) or "none"
        out += [f"{c['type'].upper()} CONVOY #{c['number']} ({c['name']}) IN HEX {c['hex']} [{flags}]",
                f"  Vehicles: {veh}  Size: {c['size']}",
                f"  Troops: {c['troops']} of {c['troop_capacity']}  Rifles: {c['rifles']}  Grenades: "
                f"{c['grenades']}  Rockets: {c['rockets']}  Bombs: {c['bombs']}",
                f"  Combat Strength: {c['strength']}  Morale: {c['morale']}  Training: {c['training']}  "
                f"Health: {c['health']}  Fuel Cost: {c['fuel_cost']}  Kill: {c['kill']}",
                f"  Cargo: {c['cargo']} {c['cargo_type']} (max {c['cargo_capacity']})  Experts: "
                f"{', '.join(c['experts']) or 'none'}"]
    return out


def _hex(h: dict[str, Any]) -> str:
    return (f" {'*' if h['new'] else ' '}{h['hex']}  {h['terrain']} {h['owner']:>3} {h['defense']:>3} "
            f"{h['troops']:>3} {h['value']:>6} {h['food']:>3} {h['fuel']:>3} {h['parts']:>3} "
            f"{h['vaccine']:>3}  {h['special'] or '-':<3} {h['custom'] or '-':<9} {h['roads']}")


def _city(c: dict[str, Any]) -> str:
    return (f" {'*' if c['new'] else ' '}{c['hex']}  {c['name'][:20]:<20} {c['owner']:>3} {c['value']:>7} "
            f"{c['population']:>7} {c['fortification']} {c['troops']:>4} {c['claymores']:>3} "
            f"{c['produces']:<8} {c['needs']:<8} {c['expert']:<6} {c['status']:<8} {c['buildings']}"
            + ("  PLAGUE" if c.get("plague") else ""))


def render_text(r: dict[str, Any]) -> str:
    out: list[str] = []
    for title, lines in sections(r):
        if title:
            out += ["", _rule(title)]
        out += lines
    return "\n".join(out) + "\n"
