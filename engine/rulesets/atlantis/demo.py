"""The Atlantis demo: a Conquest world of four factions and a first month of orders that
uses the steps built so far (FORM and recruits, CLAIM, GIVE, STUDY, WORK, TAX, BUILD...).
Faction 4 sends none: its unit WORKs (option `nmr_work`)."""

from __future__ import annotations

from engine.rulesets.atlantis.world import conquest_map
from engine.scenario import Faction, Scenario

NAMES = {1: "Merlin the Magician", 2: "The Merry Pranksters", 3: "Northern Mining Company",
         4: "The Silent Ones"}

TURN_1 = {
    1: '''#atlantis 1
unit 1
NAME UNIT "Merlin"
CLAIM 2500
FORM 1
  NAME UNIT "Merlin's Guards"
  BUY 5 men
  STUDY combat
END
FORM 2
  NAME UNIT "Merlin's Workers"
  BUY 15 men
END
GIVE NEW 1 1000 silver
GIVE NEW 2 1000 silver
STUDY magic
#end
''',
    2: '''#atlantis 2
unit 2
NAME FACTION "The Merry Pranksters"
CLAIM 600
FORM 1
  BUY 4 men
  STUDY entertainment
END
GIVE NEW 1 400 silver
DECLARE 1 friendly
WORK
#end
''',
    3: '''#atlantis 3
unit 3
CLAIM 1200
FORM 1
  NAME UNIT "Quarrymen"
  BUY 10 men
  STUDY quarrying
END
GIVE NEW 1 800 silver
STUDY building
#end
''',
}


def demo() -> tuple[Scenario, dict[int, dict[int, str]]]:
    from engine import registry

    rs = registry.get("atlantis")
    factions = [Faction(n, NAMES[n], f"player{n}@example.org") for n in sorted(NAMES)]
    scen = Scenario("atlantis", "Atlantis Conquest demo", conquest_map(len(factions), seed=1),
                    rs.default_catalogs(), rs.default_options(), factions, seed=1)
    return scen, {1: dict(TURN_1)}
