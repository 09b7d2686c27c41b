"""Continental Conquest options: the book's fixed numbers a GM may vary, and one switch for
each unclear or contradictory passage (docs/cc-checklist.md, section "Readings", names the
passage behind each `X..` reference). Defaults follow the reading the checklist chose.
"""

from __future__ import annotations

from engine.tables import OptionSpec


def _int(name: str, default: int, label: str, lo: int = 0, hi: int | None = None, help: str = "") -> OptionSpec:
    return OptionSpec(name, "int", default, label, help, min=lo, max=hi)


def _pick(name: str, choices: tuple[str, ...], label: str, help: str = "") -> OptionSpec:
    return OptionSpec(name, "str", choices[0], label, help, choices=choices)


def _flag(name: str, default: bool, label: str, help: str = "") -> OptionSpec:
    return OptionSpec(name, "bool", default, label, help)


OPTIONS: tuple[OptionSpec, ...] = (
    # ---- turns and clans -------------------------------------------------------------
    _pick("turn_order", ("sequence", "arrival"), "Order of clan turns",
          "X1: by hidden sequence number, late turns after the others (book), or by arrival"),
    _pick("close_game_turn", ("due", "auto", "gm"), "When a game turn ends",
          "X2, X230: when every clan has had its turn or at the latest days_per_turn days after "
          "it began, without the late clans (due: the book); only when every clan has had "
          "its turn (auto); or when the GM closes it (gm)"),
    _int("days_per_turn", 14, "Days per game turn (its due date, with close_game_turn = due)", 1, 365),
    _int("min_days_between_turns", 7, "Least days between two turns of one clan", 0, 365, "X4 (0 = off)"),
    _int("drop_when_behind", 2, "Drop a clan this many turns behind", 0, 99, "X3 (0 = never)"),
    _int("sequence_min", 1000, "Lowest hidden sequence number", 1),
    _int("pre_turn_orders", 5, "Pre-turn clan order lines", 0, 50),
    _int("post_turn_orders", 10, "Post-turn clan order lines", 0, 50),
    _int("pulses", 10, "Convoy pulses a turn", 1, 20),
    _int("engineer_pulses", 12, "Pulses of a sea convoy with an Engineer", 1, 24),
    _int("extra_orders_max", 10, "Most extra clan order lines one ORDER buys", 0, 50),
    _flag("extra_orders_permanent", False, "Bought order lines last for good", "X72"),
    # ---- starting position (not in the book unless said) ------------------------------
    _int("start_money", 50000, "Starting money (not in the book)"),
    _int("start_food", 200, "Starting food (not in the book)"),
    _int("start_fuel", 500, "Starting fuel (not in the book)"),
    _int("start_parts", 100, "Starting parts (not in the book)"),
    _int("start_vaccine", 20, "Starting vaccine (not in the book)"),
    _int("start_troops", 20, "Starting unallocated troops (not in the book)"),
    _int("start_population_min", 50000, "Starting city population, least", 10000, help="X7"),
    _int("start_population_max", 60000, "Starting city population, most", 10000, help="X7"),
    _int("start_fortification", 2, "Starting city fortification", 1, 6),
    _int("start_popularity", 100, "Starting popularity", 0),
    _int("start_city_troops", 50, "Garrison of a clan's start city (not in the book)", 0),
    _int("neutral_garrison_min_pct", 20, "Uncontrolled city garrison at start, least (% of capacity; not in the book)", 0, 100),
    _int("neutral_garrison_max_pct", 50, "Uncontrolled city garrison at start, most (% of capacity; not in the book)", 0, 100),
    _int("island_land_hexes", 10, "A start whose land mass has fewer hexes is an island: its convoy is a sea convoy", 0),
    _int("hex_defense_start_min", 1, "Starting hex defence, least", 1, 10),
    _int("hex_defense_start_max", 5, "Starting hex defence, most", 1, 10),
    _pick("hex_production", ("fixed", "reroll"), "Hex production", "X15, X212: rolled once at setup, or again at the end of every game turn"),
    _int("special_structure_pct", 17, "Share of hexes with a special structure (%)", 0, 100, "book: 15-20%"),
    # ---- economy ------------------------------------------------------------------------
    _int("building_cost", 10000, "Building cost"), _int("custom_structure_cost", 10000, "Custom structure cost"),
    _int("expert_cost", 10000, "Expert cost"), _int("gamble_stake", 10000, "Casino stake"),
    _int("order_line_cost", 7500, "Extra order line cost"), _int("pave_cost", 2500, "Paving cost per parts factor", help="X75"),
    _int("sell_pct", 50, "Selling returns this share of the price (%)", 0, 100, "X63"),
    _int("kickback_pct", 10, "Owner's kickback on cargo sold (%)", 0, 100),
    _int("kickback_marketplace_pct", 20, "Kickback with a Marketplace (%)", 0, 100),
    _int("income_bonus_pct", 50, "Income bonus of a city whose need is met (%)", 0, 1000),
    _int("dealer_price_pct", 200, "Dealer's price (%)", 100, 1000),
    _pick("market", ("random_walk", "fixed"), "Market prices", "X57"),
    _int("market_volatility_pct", 10, "Largest price move a game turn (%)", 0, 100),
    _int("growth_min_pct", 8, "Population growth, least (%)", 0, 100),
    _int("growth_max_pct", 12, "Population growth, most (%)", 0, 100),
    _int("min_population", 1000, "A city never falls below (not in the book)", 0, help="X62"),
    _int("no_production_below", 10000, "Cities below this produce nothing", 0),
    # ---- combat ----------------------------------------------------------------------------
    _int("attacker_to_hit", 50, "City attacker's base to-hit (%)", 0, 200),
    _int("troop_hit_pct", 20, "Chance a damage point hits a troop (%)", 0, 100, "X34"),
    _int("troop_hit_pct_kill_troops", 50, "The same with kill mode T (%)", 0, 100),
    _int("kill_mode_penalty_pct", 20, "Damage lost in kill mode T or V (%)", 0, 100),
    _int("troop_damage_pct", 50, "Chance a troop deals its 1 point in convoy combat (%)", 0, 100, "X36"),
    _int("stat_step", 5, "Morale/training points per 1% (also below 30)", 1, 100, "X35"),
    _int("capture_garrison_min", 5, "Garrison left in a captured city, least", 0, help="X45"),
    _int("capture_garrison_max", 10, "Garrison left in a captured city, most", 0, help="X45"),
    _int("vigilance_max", 50, "Most vigilance (%)", 0, 100),
    _int("grenade_miss_kills", 1, "Defenders a missed grenade kills", 0, 8, "X41"),
    _pick("tinkerer_repair", ("10hp", "15pct"), "Tinkerer's battle repairs", "X38"),
    _pick("engage_rule", ("strength", "always"), "When a convoy starts a fight", "X32"),
    _int("engage_ratio_pct", 100, "Attack when own strength is at least this share of the enemy's (%)", 0, 1000, "X32"),
    _pick("flee_rule", ("strength", "never"), "When a side flees", "X33"),
    _int("morale_win", 5, "Morale a convoy gains for winning a convoy battle (not in the book)", 0, 100, "X55"),
    _int("morale_capture", 10, "Morale a convoy gains for taking a city (not in the book)", 0, 100, "X55"),
    _flag("gourmet_morale", True, "A Gourmet's convoy gains his share (15%, 30% with a Priest) more morale from "
          "celebrations, Rec Centers, battles won and cities taken, rounded up (the book gives no figure)", "X251"),
    _int("training_combat", 1, "Training a convoy gains from each battle it survives (not in the book)", 0, 100, "X55"),
    # cc-house: morale's decay and the experts' slow work (X206-X210; the book gives no figures)
    _int("morale_decay", 1, "Morale every convoy loses at the end of its clan's turn (not in the book)", 0, 100, "X206"),
    _int("trainer_training", 2, "Training a Trainer adds each turn (not in the book)", 0, 100, "X207"),
    _int("sergeant_training", 1, "Training a Sergeant adds each turn (not in the book)", 0, 100, "X207"),
    _int("armsmaster_rifles", 1, "Rifles an Armsmaster makes for his convoy each turn (not in the book)", 0, 100, "X208"),
    _int("chemist_find_pct", 10, "Chance a Chemist finds fuel on each road move (not in the book)", 0, 100, "X209"),
    _int("chemist_fuel_min", 5, "Fuel a Chemist finds, least (not in the book)", 0, help="X209"),
    _int("chemist_fuel_max", 20, "Fuel a Chemist finds, most (not in the book)", 0, help="X209"),
    _int("desertion_vehicle_pct", 10, "Chance deserters drive off in a vehicle when half a convoy's troops desert at once (not in the book)", 0, 100, "X210"),
    _int("flee_ratio_pct", 50, "Flee when own strength is below this share of the enemy's (%)", 0, 100),
    _flag("recon_engages", True, "Recon convoys fight convoys they meet", "X32"),
    _int("desertion_morale", 5, "Morale a convoy loses when its troops desert (not in the book)", 0, 100, "X55"),
    _pick("guard_patrol_lasts", ("until_next_move", "one_turn"), "GUARD and PATROL last", "X51"),
    _flag("bomb_hostile", True, "A bombed city turns hostile to the bomber (not in the book)", "X182"),
    # ---- plague and orders -----------------------------------------------------------------
    _int("plague_chance_pct", 5, "Chance an owned city catches the Plague each game turn (not in the book)", 0, 100),
    _int("plague_decline_pct", 10, "Population lost each game turn to the Plague (not in the book)", 0, 100),
    # cc-cycle: the Plague's other house figures (X68; docs/cc-checklist.md M1-M4)
    _int("plague_income_loss_pct", 50, "Income an afflicted city loses (not in the book)", 0, 100, "X68"),
    _int("plague_convoy_chance_pct", 50, "Chance a convoy entering an afflicted city catches the Plague (not in the book)", 0, 100, "X68"),
    _int("plague_health_per_pulse", 3, "Health an infected convoy loses each pulse (not in the book)", 0, 100, "X68"),
    _int("plague_heal_points", 100, "Size x health points one vaccine restores (not in the book)", 1, help="X68"),
    _int("plague_troop_death_pct", 10, "Chance each troop of an infected convoy left unhealed dies (not in the book)", 0, 100, "X68"),
    _int("event_chance_pct", 50, "Chance of a random event each turn (%)", 0, 100, "X200: EVENT makes it sure"),
    _int("espionage_from_turn", 5, "ESPIONAGE allowed from game turn", 0),
    _int("spy_wrong_pct", 50, "Chance each figure of a spy's city report is wrong beside a counter-spy", 0, 100, "X211"),
    _int("sabotage_countered_pct", 50, "Chance a counter-spy spoils a sabotage that was not caught (not in the book)", 0, 100),
    _int("clan_name_until_turn", 3, "Clan may rename itself until game turn", 0),
    _int("message_length", 100, "Message length", 1, 1000),
    _int("slogan_length", 100, "Slogan length", 1, 1000, "X74: 100 in the text, 120 in the summary"),
    _int("name_length", 20, "Clan and convoy name length", 1, 100),
    _int("messages_per_turn", 3, "Messages a turn", 0, 100),
    _pick("popularity", ("recompute", "accumulate"), "Popularity", "X8"),
    _int("top_lists_from_turn", 5, "Extra Top Clans lists from game turn", 0, help="X9"),
    _int("victory_popularity", 500, "Popularity needed to win", 0, help="X11: set per game"),
)
