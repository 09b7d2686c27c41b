"""The Atlantis demo: a Conquest world of six factions and scripted months of orders.

The position is the start of a game in which each faction's first unit already has a
trade (skills of earlier study, the materials of its trade), so that six months show
what a year of real play would: the demo's scenario carries this state (a scenario may
start a game mid-way, docs/scenario-file.md). The miners' and the shipwrights' leaders
start in their island's mountain and forest, where stone and wood are.

Each month is one block of scripted orders per faction (MONTHS); a month whose orders
need a part of the turn not built yet is kept apart (LATER, see docs/atlantis.md) and is
added to the script once the turn carries it out.

  1  economy: CLAIM, FORM and BUY men, GIVE silver, STUDY; faction 4 sends no orders
     (its unit WORKs)
  2  TEACH (leaders teach their new units, twice as fast), TAX, the mage studies a spell
  3  PRODUCE stone and wood, the materials GIVEn to the builders, ENTERTAIN, GUARD,
     AUTOTAX, TAX and WORK repeated with `@`
  4  the tower built, a longboat begun, DECLARE ally, SHOW SKILL
  5  ENTER the tower, the longboat goes on
  6  the longboat finished and named (NAME OBJECT), its crew ENTERs, the tower's owner
     PROMOTEs, a second skill taught, OPTION TEMPLATE SHORT
  7  (LATER) the longboat SAILs four hexes south with its crew helping; the First Cohort
     walks (MOVE) into Merlin's region; Merlin chooses Lightning Bolt as his combat spell
     (COMBAT) and stands BEHIND
  8  (LATER) the First Cohort ATTACKs Merlin's Guards: Merlin casts Lightning Bolt, the
     winner takes the spoils; the longboat lands on the central island
  9  (LATER) the Whisper STEALs from Merlin unseen
  10 (LATER) Merlin CASTs Create Staff of Light; his Invisibility (an automatic spell)
     hides him from the Iron Legion's men beside him
"""

from __future__ import annotations

from engine.rulesets.atlantis import state as st
from engine.rulesets.atlantis.world import conquest_map, initial_state, start_cell
from engine.scenario import Faction, Scenario

NAMES = {1: "Merlin the Magician", 2: "The Merry Pranksters", 3: "Northern Mining Company",
         4: "The Silent Ones", 5: "Shipwrights of the West", 6: "The Iron Legion"}
COLOURS = {1: "#7b3fbf", 2: "#e67e22", 3: "#8d6e63", 4: "#37474f", 5: "#1e88e5", 6: "#c62828"}

# The leaders' trades: (name, (whose island, terrain) they stand in, {skill: study days},
# {item: count}). 30 days a month of study: 90 days is level 2, 180 level 3
# (catalog.level_of). The Whisper has slipped onto Merlin's island unseen (Stealth 2 against
# Merlin's Observation 1), and the Iron Legion has landed in the forest next to him.
LEADERS = {
    1: ("Merlin", (1, "plain"), {"magic": 180, "observation": 30}, {}),
    2: ("Puck", (2, "plain"), {"stealth": 90, "entertainment": 90}, {}),
    3: ("Old Thrain", (3, "mountain"), {"quarrying": 90, "building": 90, "combat": 30}, {}),
    4: ("The Whisper", (1, "plain"), {"stealth": 90, "observation": 30}, {}),
    5: ("Master Aldo", (5, "forest"), {"shipbuilding": 90, "lumberjack": 90, "sailing": 90},
        {"wood": 10}),
    6: ("Captain Vex", (1, "forest"), {"combat": 90, "tactics": 30, "riding": 30},
        {"sword": 1, "horse": 1}),
}

MONTHS: dict[int, dict[int, str]] = {
    1: {
        1: '''#atlantis 1
unit 1
CLAIM 3000
FORM 1
  NAME UNIT "Apprentice"
  BUY 1 man
  STUDY magic
END
FORM 2
  NAME UNIT "Merlin's Guards"
  BUY 6 men
  STUDY combat
END
GIVE NEW 1 700 silver
GIVE NEW 2 600 silver
STUDY lightning_bolt
#end
''',
        2: '''#atlantis 2
unit 2
NAME FACTION "The Merry Pranksters"
CLAIM 2500
FORM 1
  NAME UNIT "Jesters"
  BUY 5 men
  STUDY entertainment
END
FORM 2
  NAME UNIT "Shadows"
  BUY 2 men
  STUDY stealth
END
GIVE NEW 1 800 silver
GIVE NEW 2 1000 silver
DECLARE 1 friendly
ENTERTAIN
#end
''',
        3: '''#atlantis 3
unit 3
CLAIM 3000
FORM 1
  NAME UNIT "Quarrymen"
  BUY 10 men
  STUDY quarrying
END
FORM 2
  NAME UNIT "Masons"
  BUY 10 men
  STUDY building
END
GIVE NEW 1 1300 silver
GIVE NEW 2 1300 silver
PRODUCE stone
#end
''',
        5: '''#atlantis 5
unit 5
CLAIM 3000
FORM 1
  NAME UNIT "Woodcutters"
  BUY 10 men
  STUDY lumberjack
END
FORM 2
  NAME UNIT "Shipwrights"
  BUY 10 men
  STUDY shipbuilding
END
GIVE NEW 1 1300 silver
GIVE NEW 2 1300 silver
PRODUCE wood
#end
''',
        6: '''#atlantis 6
unit 6
CLAIM 3000
FORM 1
  NAME UNIT "First Cohort"
  BUY 15 men
  STUDY combat
END
FORM 2
  NAME UNIT "Smiths"
  BUY 5 men
  STUDY weaponsmith
END
GIVE NEW 1 1300 silver
GIVE NEW 2 900 silver
TAX
#end
''',
    },
    2: {
        1: '''#atlantis 1
unit 1
STUDY create_staff_of_light
unit 7
STUDY magic
unit 8
TAX
WORK
#end
''',
        2: '''#atlantis 2
unit 2
TEACH 9 10
unit 9
STUDY entertainment
unit 10
STUDY stealth
#end
''',
        3: '''#atlantis 3
unit 3
TEACH 11 12
unit 11
STUDY quarrying
unit 12
STUDY building
#end
''',
        4: '''#atlantis 4
unit 4
CLAIM 1000
FORM 1
  NAME UNIT "Watchers"
  BUY 3 men
  STUDY observation
END
GIVE NEW 1 800 silver
STUDY stealth
#end
''',
        5: '''#atlantis 5
unit 5
TEACH 13 14
unit 13
STUDY lumberjack
unit 14
STUDY shipbuilding
#end
''',
        6: '''#atlantis 6
unit 6
TEACH 15
unit 15
TAX
STUDY combat
unit 16
STUDY weaponsmith
#end
''',
    },
    3: {
        1: '''#atlantis 1
unit 1
STUDY invisibility
unit 7
STUDY magic
unit 8
@TAX
@WORK
#end
''',
        2: '''#atlantis 2
unit 2
ENTERTAIN
unit 9
ENTERTAIN
unit 10
STUDY stealth
#end
''',
        3: '''#atlantis 3
unit 3
GIVE 12 2 stone
PRODUCE stone
unit 11
PRODUCE stone
unit 12
WORK
#end
''',
        5: '''#atlantis 5
unit 5
GIVE 14 12 wood
STUDY sailing
unit 13
PRODUCE wood
unit 14
WORK
#end
''',
        6: '''#atlantis 6
unit 6
GUARD 1
unit 15
AUTOTAX 1
WORK
unit 16
WORK
#end
''',
    },
    4: {
        1: '''#atlantis 1
unit 1
TEACH 7
unit 7
STUDY magic
#end
''',
        2: '''#atlantis 2
unit 2
ENTERTAIN
unit 9
ENTERTAIN
unit 10
STUDY observation
#end
''',
        3: '''#atlantis 3
unit 11
GIVE 12 8 stone
WORK
unit 3
GIVE 12 2 stone
WORK
unit 12
BUILD tower
#end
''',
        5: '''#atlantis 5
unit 13
GIVE 14 10 wood
PRODUCE wood
unit 5
PRODUCE wood
unit 14
BUILD longboat
#end
''',
        6: '''#atlantis 6
unit 6
DECLARE 3 ally
SHOW SKILL tactics 1
WORK
#end
''',
    },
    5: {
        3: '''#atlantis 3
unit 3
ENTER 2
WORK
unit 11
PRODUCE stone
#end
''',
        5: '''#atlantis 5
unit 13
GIVE 14 10 wood
PRODUCE wood
unit 14
BUILD
#end
''',
    },
    6: {
        1: '''#atlantis 1
unit 1
TEACH 7
unit 7
STUDY magic
#end
''',
        5: '''#atlantis 5
unit 14
NAME OBJECT "Sea Sparrow"
BUILD
unit 5
ENTER 1
unit 13
ENTER 1
STUDY sailing
#end
''',
        2: '''#atlantis 2
unit 2
OPTION TEMPLATE SHORT
ENTERTAIN
unit 9
ENTERTAIN
#end
''',
        3: '''#atlantis 3
unit 12
PROMOTE 3
#end
''',
        6: '''#atlantis 6
unit 16
STUDY riding
unit 15
STUDY riding
unit 6
TEACH 15 16
#end
''',
    },
}


# Months that need parts of the turn still being built: (the phases they need, orders).
# The demo plays them in order for as long as the turn carries out every phase they need
# (built_phases); the first one it cannot play ends the script.
LATER: dict[int, tuple[frozenset[str], dict[int, str]]] = {
    7: (frozenset({"movement"}), {
        1: '''#atlantis 1
unit 1
COMBAT lightning_bolt
BEHIND 1
GIVE 7 200 silver
STUDY magic
unit 7
BEHIND 1
STUDY magic
#end
''',
        5: '''#atlantis 5
unit 14
LEAVE
WORK
unit 5
SAIL S S S S
unit 13
SAIL
#end
''',
        6: '''#atlantis 6
unit 6
AVOID 1
WORK
unit 15
MOVE S
unit 16
AVOID 1
WORK
#end
''',
    }),
    8: (frozenset({"combat"}), {
        5: '''#atlantis 5
unit 5
SAIL S S
unit 13
SAIL
#end
''',
        6: '''#atlantis 6
unit 15
ATTACK 8
#end
''',
    }),
    9: (frozenset({"steal"}), {
        4: '''#atlantis 4
unit 4
STEAL 1 silver
#end
''',
        6: '''#atlantis 6
unit 15
TAX
WORK
#end
''',
    }),
    10: (frozenset({"instant magic"}), {
        1: '''#atlantis 1
unit 1
CAST create_staff_of_light
unit 7
STUDY magic
#end
''',
    }),
}


def built_phases() -> set[str]:
    """The phases of the turn that carry out their orders (not `not_built` stand-ins)."""
    from engine.rulesets.atlantis.turn import phases

    return {p.name for p in phases() if "not_built" not in getattr(p.run, "__qualname__", "")}


def script() -> dict[int, dict[int, str]]:
    """MONTHS, then each LATER month the turn can play, in order."""
    out = {m: dict(orders) for m, orders in sorted(MONTHS.items())}
    built = built_phases()
    for m, (needs, orders) in sorted(LATER.items()):
        if not needs <= built:
            break
        out[m] = dict(orders)
    return out


def leader_cell(scenario: Scenario, number: int, terrain: str) -> int:
    """Faction `number`'s starting region, or the region of `terrain` nearest to it on its
    island."""
    start = start_cell(scenario, number)
    gmap = scenario.map
    if start is None or gmap.terrain_at(start) == terrain:
        return start
    grid = gmap.grid
    near = sorted((c for c in range(len(grid)) if gmap.terrain_at(c) == terrain
                   and grid.distance(start, c) <= 2), key=lambda c: (grid.distance(start, c), c))
    return near[0] if near else start


def demo_state(scenario: Scenario):
    """The world's first state with the leaders' trades (the demo's prepared position)."""
    state = initial_state(st.SCHEMA, scenario)
    for u in state["units"]:
        name, (island, terrain), skills, items = LEADERS[u.faction]
        u.name = name
        u.cell = leader_cell(scenario, island, terrain)
        state["unit_skills"].extend([st.UnitSkill(u.number, s, d) for s, d in sorted(skills.items())])
        state["unit_items"].extend([st.UnitItem(u.number, i, n) for i, n in sorted(items.items())])
    return state


def demo() -> tuple[Scenario, dict[int, dict[int, str]]]:
    from engine import registry

    rs = registry.get("atlantis")
    factions = [Faction(n, NAMES[n], f"player{n}@example.org", colour=COLOURS[n]) for n in sorted(NAMES)]
    scen = Scenario("atlantis", "Atlantis Conquest demo", conquest_map(len(factions), seed=1),
                    rs.default_catalogs(), rs.default_options(), factions, seed=1)
    scen.initial = demo_state(scen)
    return scen, script()
