"""The ARTNES demo: eight nations on the Europe 1300 map, scripted orders for 1300-1302."""

from __future__ import annotations

from pathlib import Path

from engine.mapfile import load_map
from engine.ruleset import Ruleset
from engine.scenario import Faction, Scenario

MAP = Path(__file__).resolve().parents[3] / "maps" / "artnes" / "europe1300.rsmap"

NATIONS = [  # number, name, colour, realms (capital first), extra starting units
    (1, "England", "#c0392b", ["London", "Wessex", "Gascony"], []),
    (2, "France", "#2e4fd1", ["Paris", "Champagne", "Normandy"], []),
    (3, "Castile", "#e1b12c", ["Castile", "Toledo", "Leon"], []),
    (4, "Aragon", "#d35400", ["Aragon", "Catalonia", "Valencia", "Sicily"], []),
    (5, "Empire", "#2c2c2c", ["Rhineland", "Franconia", "Swabia"], []),
    (6, "Venice", "#16a085", ["Venice", "Friuli", "Dalmatia", "Crete"], [["galley", "Adriatic Sea", 1]]),
    (7, "Hungary", "#27ae60", ["Hungary", "Croatia", "Transylvania"], []),
    (8, "Byzantium", "#8e44ad", ["Constantinople", "Thrace", "Macedonia"], [["galley", "Aegean Sea", 1]]),
]


def scenario(ruleset: Ruleset) -> Scenario:
    factions = []
    for number, name, colour, realms, extra in NATIONS:
        units = [["knight", realms[0], 1], ["spearman", realms[0], 1], *extra]
        factions.append(Faction(number, name, f"{name.lower()}@artnes.example", colour=colour,
                                attrs={"realms": realms, "units": units}))
    scen = Scenario(ruleset.name, "Europe 1300", load_map(MAP), ruleset.default_catalogs(),
                    ruleset.default_options(), factions, seed=1300)
    scen.meta["game"] = "ARTNES2"
    return scen


ORDERS: dict[int, dict[int, str]] = {
    1: {
        1: """Nation: England
Year 1300
Gold 5, PP 9, left 6
Buy spearman in Wessex
Move knight London - Mercia
Move spearman London - York
""",
        2: """Nation: France
Year 1300
Gold 5, PP 10, left 7
Buy spearman in Normandy
Move knight Paris - Berry
Move spearman Paris - Flanders
""",
        3: """Nation: Castile
Year 1300
Gold 5, PP 8, left 5
Buy spearman in Leon
Move knight Castile - Toledo - Andalusia
Move spearman Castile - Navarre
""",
        4: """Nation: Aragon
Year 1300
Gold 5, PP 11, left 8
Buy spearman in Catalonia
Move knight Aragon - Navarre
""",
        5: """Nation: Empire
Year 1300
Gold 5, PP 9, left 6
Buy spearman in Swabia
Move knight Rhineland - Brabant
Move spearman Rhineland - Westphalia
""",
        6: """Nation: Venice
Year 1300
Gold 5, PP 8, left 3
Buy spearman in Friuli
Move knight Venice - Lombardy
Move spearman Venice - Tyrol
""",
        7: """Nation: Hungary
Year 1300
Gold 5, PP 8, left 5
Buy spearman in Croatia
Move knight Hungary - Upper Hungary
Move spearman Hungary - Serbia
""",
        8: """Nation: Byzantium
Year 1300
Gold 5, PP 8, left 3
Buy spearman in Thrace
Move knight Constantinople - Bulgaria
Move spearman Constantinople - Bithynia
""",
    },
    2: {
        1: """Nation: England
Year 1301
Gold 17, PP 15, left 11
Declare war on France
Buy galley in London
Buy knight in London
Move spearman Wessex - Cornwall
Move knight Mercia - Wales
Move spearman York - Northumbria
""",
        2: """Nation: France
Year 1301
Gold 19, PP 16, left 12
Declare war on England
Buy knight in Paris
Buy knight in Normandy
Buy spearman in Champagne
Move knight Berry - Poitou
Move spearman Normandy - Brittany
""",
        3: """Nation: Castile
Year 1301
Gold 13, PP 11, left 7
Declare war on Aragon
Buy knight in Castile
Buy spearman in Toledo
Move knight Andalusia - Granada
Move spearman Castile - Valencia
Move spearman Leon - Asturias
""",
        4: """Nation: Aragon
Year 1301
Gold 16, PP 12, left 8
Buy galley in Catalonia
Buy knight in Aragon
Move knight Navarre - Gascony
Move spearman Aragon - Castile
Move spearman Catalonia - Toulouse
""",
        5: """Nation: Empire
Year 1301
Gold 17, PP 15, left 11
Buy 2 knights in Rhineland
Move knight Brabant - Holland
Move spearman Westphalia - Saxony
Move spearman Swabia - Bavaria
""",
        6: """Nation: Venice
Year 1301
Gold 20, PP 13, left 7
Declare war on Byzantium
Buy galley in Venice
Buy castle in Venice
Move knight Lombardy - Genoa
Move galley Adriatic Sea - Ionian Sea
Move spearman Friuli - Carinthia
""",
        7: """Nation: Hungary
Year 1301
Gold 14, PP 12, left 8
Buy knight in Hungary
Buy spearman in Transylvania
Move knight Upper Hungary - Austria
Move spearman Serbia - Bosnia
Move spearman Croatia - Dalmatia
""",
        8: """Nation: Byzantium
Year 1301
Gold 15, PP 13, left 7
Declare war on Venice
Buy galley in Constantinople
Buy spearman in Macedonia
Move galley Aegean Sea - Ionian Sea
Move knight Bulgaria - Wallachia
Move spearman Bithynia - Ionia
""",
    },
    3: {
        1: """Nation: England
Year 1302
Gold 24, PP 18, left 10
Buy knight in Wessex
Buy spearman in London
Move galley London - Channel
Convoy knight London to Normandy via Channel
Move spearman Cornwall - Wessex
Move knight Wales - Mercia
""",
        2: """Nation: France
Year 1302
Gold 29, PP 21, left 12
Buy castle in Paris
Buy 2 knights in Paris
Move knight Poitou - Gascony
""",
        3: """Nation: Castile
Year 1302
Gold 24, PP 18, left 11
Buy knight in Castile
Buy spearman in Valencia
Move knight Castile - Aragon
Move knight Granada - Murcia
""",
        4: """Nation: Aragon
Year 1302
Gold 23, PP 14, left 7
Make peace with Castile
Buy 2 spearmen in Aragon
Move galley Catalonia - Balearic Sea
Move spearman Toulouse - Auvergne
""",
        5: """Nation: Empire
Year 1302
Gold 30, PP 24, left 16
Declare war on France
Buy 3 knights in Franconia
Move 2 knights Rhineland - Lorraine - Burgundy
Move spearman Saxony - Brandenburg
""",
        6: """Nation: Venice
Year 1302
Gold 29, PP 17, left 11
Declare war on Hungary
Buy galley in Venice
Buy knight in Friuli
Move galley Venice - Adriatic Sea
Move knight Genoa - Provence
Move spearman Carinthia - Croatia
""",
        7: """Nation: Hungary
Year 1302
Gold 25, PP 18, left 11
Buy 2 knights in Hungary
Move knight Austria - Carinthia
""",
        8: """Nation: Byzantium
Year 1302
Gold 26, PP 17, left 8
Buy galley in Constantinople
Buy knight in Thrace
Move galley Ionian Sea - Adriatic Sea
Move knight Wallachia - Transylvania
""",
    },
}


def demo(ruleset: Ruleset) -> tuple[Scenario, dict[int, dict[int, str]]]:
    return scenario(ruleset), {t: dict(o) for t, o in ORDERS.items()}
