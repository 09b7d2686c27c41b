"""Europe for Continental Conquest (the book's most used map): coastlines, terrain zones,
cities, rivers and highways as (longitude, latitude) data, and the grid they are drawn on.

The coastlines of the ARTNES Europe map (maps/artnes/make_map.py) are reused and extended
north (Lapland), east (the Volga, the Caucasus) and south (the Sahara, Libya, Egypt). The
book's sample city and hex lists are of Ireland on this map: Limerick 0825, Cork 0927,
Londonderry 1022, DUBLIN 1125 (a major city), Belfast 1222; the projection is fitted to
them (Belfast is pinned, the others fall on their hexes), and the Irish hexes take the
terrain and roads of the book's sample hex list. A hex is about 70 km across.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

Ring = list[tuple[float, float]]


def _artnes():
    path = Path(__file__).resolve().parents[1] / "artnes" / "make_map.py"
    spec = importlib.util.spec_from_file_location("artnes_europe_map", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_A = _artnes()

NAME = "Europe (Continental Conquest)"
FILE = "europe.rsmap"
SEED = "continental-conquest-europe"
WIDTH, HEIGHT = 76, 58
PROJECTION = {"lon0": 0.0, "lat1": 40.0, "lat2": 60.0, "latc": 50.0, "km_per_unit": 41.0}
ANCHOR = ("Dublin", -6.26, 53.35, 10, 24)     # the book's DUBLIN is hex 1125
HUB = "paris"
MIN_CITIES = 200
MAINLAND_SHARE = 0.6          # Britain, Ireland, Scandinavia's islands and Africa lie apart
SEA_LANES = [(0, 20, 50)]                      # the Atlantic lane to North America
LABELS = [("Atlantic Ocean", -16, 47, 2.0), ("North Sea", 3.5, 56, 1.5), ("Mediterranean Sea", 17, 35, 1.8),
          ("Black Sea", 34, 43.3, 1.3), ("Baltic Sea", 18.5, 57.5, 1.2), ("Caspian Sea", 50.5, 42, 1.0)]
META = {"sea_lanes": "Atlantic lane on the west edge",
        "book": "Irish hexes, cities and roads follow the book's sample city and hex lists"}
FORCE_ISLANDS: tuple[str, ...] = ()
MAJOR_COUNT = 30
MAJOR_EXTRA = {"Dublin"}                       # major in the book's sample city list
CITY_HEXES = {"Belfast": "1222"}               # the book's hex where the projection is a hex off

MAINLAND: Ring = [p for p in _A.MAINLAND]
NORTH: Ring = [
    (5.0, 62.2), (6.5, 62.8), (8.5, 63.5), (10.5, 64.5), (12.5, 65.9), (14.0, 67.3), (15.5, 68.3),
    (18.5, 69.8), (22.0, 70.4), (25.8, 71.1), (28.5, 70.9), (31.0, 70.3), (33.5, 69.4), (36.5, 69.0),
    (40.5, 67.8), (41.5, 66.5), (40.0, 66.1), (36.5, 66.3), (34.8, 65.9), (34.6, 64.4), (36.5, 64.0),
    (38.5, 64.6), (40.5, 64.5), (42.6, 65.5), (42.6, 62.5), (21.3, 62.5), (21.6, 63.3), (22.8, 63.9),
    (24.3, 64.6), (25.3, 65.1), (24.6, 65.8), (23.5, 65.9), (22.2, 65.6), (21.2, 64.8), (20.3, 63.8),
    (18.5, 63.0), (17.3, 62.2),
]
EAST: Ring = [(42.0, 68.0), (62.0, 68.0), (62.0, 28.0), (42.0, 28.0)]
SOUTH: Ring = [
    (11.0, 33.3), (12.5, 32.8), (15.2, 32.4), (15.8, 31.3), (17.5, 30.8), (19.0, 30.3), (20.1, 31.0),
    (20.0, 32.2), (21.5, 32.9), (23.2, 32.2), (25.0, 31.7), (27.5, 31.3), (29.9, 31.2), (31.5, 31.5),
    (32.3, 31.2), (34.2, 31.3), (34.6, 31.8), (35.0, 33.1), (36.0, 33.1), (45.0, 33.0), (45.0, 24.0),
    (11.0, 24.0),
]
SAHARA: Ring = [(-12.5, 32.6), (12.0, 32.6), (12.0, 24.0), (-16.0, 24.0), (-13.0, 28.0), (-10.0, 30.0)]

LAKES: list[Ring] = [
    _A.BLACK_SEA,
    [(47.0, 46.5), (48.0, 46.0), (47.5, 44.0), (49.5, 40.5), (49.0, 38.5), (50.5, 37.0), (54.0, 37.0),
     (54.0, 40.0), (52.5, 41.8), (53.0, 45.0), (51.0, 47.0), (49.0, 46.7)],          # Caspian
    [(29.5, 61.7), (31.0, 61.4), (32.8, 60.8), (32.6, 60.2), (31.0, 59.9), (29.9, 60.6)],  # Ladoga
    [(34.3, 62.8), (36.0, 62.4), (36.1, 61.3), (35.0, 61.1), (34.3, 61.8)],        # Onega
    [(12.4, 59.4), (13.5, 59.3), (14.2, 58.9), (13.2, 58.5), (12.3, 58.8)],          # Vanern
    [(35.0, 47.1), (36.5, 46.8), (38.5, 47.2), (39.2, 46.9), (37.5, 45.7), (35.4, 45.3)],  # Azov
    [(26.7, 40.45), (27.5, 40.95), (28.9, 41.0), (29.9, 40.75), (29.0, 40.35), (27.5, 40.3)],  # Marmara
]
GULFS: list[Ring] = []

LAND_SPINES: list[Ring] = [
    [(-5.5, 50.1), (-3.5, 50.6), (-1.2, 50.9), (1.2, 51.2)],                       # southern England
    [(9.8, 55.2), (9.5, 56.2), (9.9, 57.4)],                                        # Jutland
    [(15.7, 40.6), (16.2, 39.4), (16.3, 38.3)],                                     # Calabria
    [(21.8, 37.4), (22.4, 37.8), (22.9, 37.9)],                                     # the Peloponnese
    [(28.7, 41.1), (29.3, 41.0), (29.9, 40.85)],                                    # Bosporus bridges
    [(8.9, 44.45), (9.8, 44.15), (10.2, 43.9), (10.4, 43.55)],                      # the Ligurian coast
]
WATER_AXES: list[Ring] = [
    [(26.7, 40.45), (26.2, 40.05), (25.9, 39.9)],                                   # Dardanelles
    [(-7.5, 35.95), (-5.6, 35.95), (-4.3, 36.1)],                                   # Gibraltar
    [(-1.6, 50.0), (0.9, 50.7), (2.0, 51.4)],                                        # the Channel
    [(15.3, 38.7), (15.63, 38.2), (15.55, 37.6)],                                    # Messina
    [(11.2, 56.9), (12.0, 56.0), (12.6, 55.6), (13.2, 55.0)],                       # the Sound
    [(-5.0, 55.7), (-4.6, 55.0), (-4.6, 54.4), (-5.0, 53.7), (-5.4, 52.8), (-5.9, 51.8)],  # Irish Sea
]

ISLANDS: dict[str, Ring] = {
    **{name: ring for name, ring in zip(
        ("Scandinavia", "Africa", "Britain", "Ireland", "Corsica", "Sardinia", "Sicily", "Crete", "Cyprus"),
        (_A.SCANDINAVIA, _A.AFRICA, _A.BRITAIN, _A.IRELAND, _A.CORSICA, _A.SARDINIA, _A.SICILY,
         _A.CRETE, _A.CYPRUS), strict=True)},
    "North": NORTH, "East": EAST, "South": SOUTH, "Sahara": SAHARA,
    "Zealand": [(10.9, 55.7), (12.6, 56.05), (12.6, 55.3), (11.3, 55.2)],
    "Funen": [(9.8, 55.5), (10.8, 55.6), (10.7, 55.05), (9.9, 55.1)],
    "Gotland": [(18.1, 57.95), (19.2, 57.9), (18.6, 57.0), (18.2, 57.2)],
    "Euboea": [(22.8, 39.0), (24.6, 38.15), (24.1, 37.95), (22.9, 38.7)],
}

SMALL_ISLANDS: list[tuple[str, float, float]] = [
    ("Mallorca", 2.9, 39.6), ("Menorca", 4.1, 39.95), ("Ibiza", 1.4, 38.95), ("Malta", 14.4, 35.9),
    ("Elba", 10.3, 42.78), ("Capri", 14.2, 40.55), ("Lipari", 14.95, 38.5), ("Corfu", 19.85, 39.6),
    ("Kefalonia", 20.55, 38.2), ("Zakynthos", 20.85, 37.8), ("Rhodes", 28.0, 36.25), ("Lesbos", 26.3, 39.2),
    ("Chios", 26.0, 38.4), ("Samos", 26.8, 37.75), ("Naxos", 25.45, 37.05), ("Santorini", 25.4, 36.4),
    ("Mykonos", 25.35, 37.45), ("Kos", 27.15, 36.85), ("Karpathos", 27.15, 35.6), ("Lemnos", 25.25, 39.9),
    ("Thasos", 24.7, 40.7), ("Hvar", 16.7, 43.15), ("Krk", 14.6, 45.05), ("Bornholm", 14.9, 55.1),
    ("Oland", 16.6, 56.7), ("Saaremaa", 22.5, 58.4), ("Hiiumaa", 22.6, 58.9), ("Aland", 19.95, 60.2),
    ("Isle of Man", -4.5, 54.2), ("Anglesey", -4.35, 53.25), ("Isle of Wight", -1.3, 50.68),
    ("Jersey", -2.13, 49.2), ("Guernsey", -2.58, 49.45), ("Scilly", -6.3, 49.93), ("Lewis", -6.6, 58.2),
    ("Skye", -6.2, 57.3), ("Islay", -6.2, 55.8), ("Orkney", -3.0, 59.0), ("Shetland", -1.2, 60.3),
    ("Faroe", -6.9, 62.0), ("Frisian Islands", 6.0, 53.5), ("Texel", 4.8, 53.08), ("Sylt", 8.3, 54.9),
    ("Rugen", 13.4, 54.45), ("Djerba", 10.9, 33.8), ("Lofoten", 13.9, 68.15), ("Achill", -10.0, 53.95),
    ("Aran Islands", -9.7, 53.1),
]

ZONES: list[tuple[str, Ring]] = [
    ("forest", [(-2.0, 44.0), (7.5, 43.5), (15.0, 45.0), (25.0, 43.0), (30.0, 45.0), (42.0, 48.0),
                (44.0, 60.0), (30.0, 62.5), (5.0, 62.5), (-2.0, 50.0)]),                # temperate belt
    ("forest", [(-9.5, 43.8), (-2.0, 43.5), (-1.5, 42.6), (-9.0, 41.8)]),               # Galicia, Basques
    ("forest", [(26.5, 42.2), (42.0, 41.5), (42.0, 40.5), (26.5, 41.0)]),                # Pontic forest
    ("wilderness", [(5.0, 62.2), (25.0, 62.0), (32.0, 61.8), (44.0, 62.0), (44.0, 68.0), (5.0, 68.0)]),  # taiga
    ("wilderness", [(-6.8, 58.7), (-3.5, 58.6), (-3.0, 57.0), (-4.5, 56.3), (-6.0, 56.5)]),  # Highlands
    ("wilderness", [(27.5, 61.9), (31.0, 61.6), (32.0, 64.5), (29.5, 65.5), (26.0, 63.5)]),  # Karelia
    ("barren", [(12.0, 66.0), (22.0, 67.5), (34.0, 67.0), (42.0, 66.2), (42.0, 72.0), (12.0, 72.0)]),  # Lapland
    ("barren", [(6.5, 61.0), (9.5, 60.5), (10.0, 62.5), (7.5, 62.5)]),                    # Jotunheimen
    ("agricultural", [(-1.8, 49.4), (4.5, 50.0), (4.8, 48.2), (1.0, 47.2), (-1.0, 48.0)]),  # Paris basin
    ("agricultural", [(2.5, 51.2), (6.9, 53.4), (7.2, 52.2), (5.5, 50.6), (3.0, 50.6)]),   # the Low Countries
    ("agricultural", [(-3.0, 53.9), (0.3, 53.6), (1.7, 52.7), (1.2, 51.5), (-2.5, 51.7)]),  # English lowlands
    ("agricultural", [(7.0, 45.6), (12.5, 45.3), (12.3, 44.5), (9.0, 44.7), (7.5, 44.9)]),  # Po valley
    ("agricultural", [(17.0, 48.3), (22.0, 48.4), (22.0, 45.8), (19.0, 45.2), (17.2, 46.3)]),  # Hungarian plain
    ("agricultural", [(22.5, 44.6), (28.0, 44.6), (28.0, 43.6), (22.5, 43.7)]),           # Danube plain
    ("agricultural", [(26.0, 50.5), (40.0, 51.5), (40.0, 47.3), (33.0, 46.8), (28.0, 47.5)]),  # black earth
    ("agricultural", [(-6.8, 37.9), (-3.6, 37.9), (-4.5, 37.0), (-6.5, 37.0)]),           # Guadalquivir
    ("agricultural", [(8.3, 57.3), (10.6, 57.6), (12.4, 55.9), (11.0, 54.6), (8.6, 54.9)]),  # Denmark
    ("agricultural", [(-9.8, 53.0), (-6.0, 52.2), (-6.0, 54.2), (-8.0, 54.4), (-9.5, 53.8)]),  # Ireland
    ("agricultural", [(10.0, 52.4), (13.0, 52.3), (12.8, 51.0), (10.0, 51.3)]),            # Magdeburg Borde
    ("desert", [(-16.0, 31.0), (45.0, 31.5), (45.0, 24.0), (-16.0, 24.0)]),               # Sahara
    ("desert", [(-9.5, 31.5), (-1.0, 33.2), (8.0, 33.8), (11.0, 33.5), (10.0, 31.5), (-9.5, 30.5)]),  # Sahara edge
    ("desert", [(36.5, 35.5), (42.5, 37.0), (45.0, 36.5), (45.0, 31.0), (36.5, 31.5)]),   # Syrian desert
    ("desert", [(-2.9, 37.6), (-1.2, 37.5), (-1.7, 36.7), (-2.9, 36.7)]),                 # Almeria
    ("desert", [(46.0, 47.5), (53.0, 48.5), (53.0, 44.5), (47.0, 45.0)]),                 # Caspian steppe desert
    ("mountains", [(-1.9, 43.3), (0.5, 42.9), (3.1, 42.5), (1.5, 42.2), (-1.0, 42.6)]),   # Pyrenees
    ("mountains", [(-7.0, 43.2), (-3.5, 43.2), (-3.5, 42.8), (-7.0, 42.7)]),              # Cantabrian
    ("mountains", [(-4.0, 37.3), (-2.5, 37.3), (-2.6, 36.8), (-4.0, 36.8)]),              # Sierra Nevada
    ("mountains", [(-5.5, 40.6), (-3.0, 41.0), (-3.3, 40.5), (-5.5, 40.2)]),              # Sierra de Gredos
    ("mountains", [(5.5, 44.0), (7.0, 43.9), (8.0, 46.0), (10.5, 46.6), (13.8, 46.4), (16.0, 47.5),
                   (14.5, 47.8), (12.0, 47.6), (9.5, 47.4), (7.5, 46.7), (6.5, 46.2), (5.7, 45.2)]),  # Alps
    ("mountains", [(8.8, 44.4), (10.5, 44.1), (13.5, 42.5), (15.8, 40.5), (16.1, 39.2), (15.5, 39.5),
                   (14.6, 41.2), (12.8, 42.6), (11.0, 43.7), (9.2, 44.6)]),           # Apennines
    ("mountains", [(14.5, 45.9), (16.5, 45.0), (19.5, 42.5), (20.5, 40.0), (21.6, 38.9), (22.5, 39.5),
                   (21.0, 41.2), (20.0, 42.8), (17.5, 44.5), (15.5, 45.8)]),            # Dinaric, Pindus
    ("mountains", [(22.5, 43.6), (26.5, 42.9), (26.5, 42.3), (22.5, 42.0)]),              # Balkan, Rhodope
    ("mountains", [(17.5, 49.6), (22.5, 49.5), (25.0, 48.0), (26.3, 46.0), (25.5, 45.2), (22.5, 45.4),
                   (24.5, 46.0), (24.0, 47.5), (21.5, 48.7), (18.0, 49.0)]),            # Carpathians
    ("mountains", [(5.5, 59.0), (8.5, 58.6), (9.5, 61.0), (12.5, 63.5), (15.0, 66.5), (18.5, 68.5),
                   (17.5, 69.3), (14.0, 67.6), (11.0, 65.0), (7.0, 62.5), (5.5, 61.0)]),  # Scandinavian mountains
    ("mountains", [(37.5, 44.6), (40.0, 43.6), (44.5, 42.8), (47.5, 41.6), (48.5, 41.2), (46.5, 40.9),
                   (44.0, 41.7), (41.0, 42.6), (38.5, 43.6)]),                          # Caucasus
    ("mountains", [(29.0, 37.0), (33.0, 36.8), (37.0, 37.8), (42.0, 38.8), (44.5, 38.5), (42.0, 37.5),
                   (36.5, 36.9), (33.0, 36.3), (30.0, 36.5)]),                          # Taurus
    ("mountains", [(-9.5, 30.8), (-5.0, 32.0), (-1.5, 33.6), (3.0, 35.2), (8.0, 35.6), (8.0, 35.0),
                   (2.0, 34.5), (-3.0, 32.5), (-8.5, 30.3)]),                             # Atlas
    ("mountains", [(2.3, 45.8), (3.8, 45.8), (3.9, 44.6), (2.6, 44.6)]),                  # Massif Central
    ("mountains", [(-3.5, 52.9), (-3.0, 52.5), (-3.5, 51.9), (-4.3, 52.3)]),              # Wales
    ("swamp", [(24.0, 52.3), (30.5, 52.5), (30.5, 51.3), (24.5, 51.4)]),                  # Pripet Marshes
    ("swamp", [(28.7, 45.5), (29.8, 45.4), (29.7, 44.8), (28.8, 44.9)]),                  # Danube delta
    ("swamp", [(4.2, 43.7), (4.9, 43.7), (4.9, 43.35), (4.2, 43.4)]),                     # Camargue
    ("swamp", [(-6.5, 37.1), (-6.0, 37.1), (-6.0, 36.8), (-6.5, 36.8)]),                   # Donana
]

# country|name|lat|lon|metro population in thousands
CITIES = """
IE|Dublin|53.35|-6.26|1400 IE|Cork|51.9|-8.47|300 IE|Limerick|52.66|-8.63|160
IE|Londonderry|55.0|-7.31|110 GB|Belfast|54.6|-5.93|700
GB|London|51.51|-0.13|9500 GB|Birmingham|52.48|-1.9|2900 GB|Manchester|53.48|-2.24|2800
GB|Leeds|53.8|-1.55|1900 GB|Glasgow|55.86|-4.25|1800 GB|Liverpool|53.41|-2.98|900
GB|Newcastle|54.98|-1.61|800 GB|Edinburgh|55.95|-3.19|900 GB|Bristol|51.45|-2.59|700
GB|Cardiff|51.48|-3.18|500 GB|Plymouth|50.38|-4.14|260 GB|Southampton|50.9|-1.4|850
GB|Norwich|52.63|1.3|400 GB|Aberdeen|57.15|-2.09|230 GB|Inverness|57.48|-4.22|65
GB|Carlisle|54.89|-2.93|110 GB|Cambridge|52.2|0.12|290 GB|Hull|53.74|-0.33|300
GB|Nottingham|52.95|-1.15|750 GB|Dover|51.13|1.31|30 GB|Exeter|50.72|-3.53|130
GB|Swansea|51.62|-3.94|300 GB|Aberystwyth|52.41|-4.08|20 GB|Dundee|56.46|-2.97|150
GB|Stornoway|58.21|-6.39|8 GB|Kirkwall|58.98|-2.96|10 GB|Lerwick|60.15|-1.15|7 GB|Fort William|56.82|-5.11|10
FR|Paris|48.86|2.35|11000 FR|Lyon|45.76|4.84|2300 FR|Marseille|43.3|5.37|1900 FR|Toulouse|43.6|1.44|1400
FR|Bordeaux|44.84|-0.58|1300 FR|Lille|50.63|3.06|1200 FR|Nice|43.7|7.27|1000 FR|Nantes|47.22|-1.55|1000
FR|Strasbourg|48.57|7.75|800 FR|Rennes|48.11|-1.68|750 FR|Montpellier|43.61|3.88|800 FR|Rouen|49.44|1.1|700
FR|Grenoble|45.19|5.72|700 FR|Brest|48.39|-4.49|320 FR|Le Havre|49.49|0.11|330 FR|Reims|49.26|4.03|330
FR|Dijon|47.32|5.04|390 FR|Clermont-Ferrand|45.78|3.08|490 FR|Limoges|45.83|1.26|280 FR|Tours|47.39|0.69|500
FR|Orleans|47.9|1.9|440 FR|Poitiers|46.58|0.34|260 FR|Metz|49.12|6.18|390 FR|Caen|49.18|-0.37|420
FR|Perpignan|42.7|2.9|320 FR|Bayonne|43.49|-1.47|300 FR|Besancon|47.24|6.02|280 FR|Ajaccio|41.92|8.74|90
FR|Bastia|42.7|9.45|60 FR|La Rochelle|46.16|-1.15|210 FR|Calais|50.95|1.86|130 FR|Avignon|43.95|4.81|340
ES|Madrid|40.42|-3.7|6700 ES|Barcelona|41.39|2.17|5600 ES|Valencia|39.47|-0.38|1700 ES|Seville|37.39|-5.98|1500
ES|Bilbao|43.26|-2.93|1000 ES|Malaga|36.72|-4.42|1000 ES|Zaragoza|41.65|-0.88|750 ES|Murcia|37.98|-1.13|650
ES|Palma|39.57|2.65|650 ES|Valladolid|41.65|-4.72|420 ES|Vigo|42.24|-8.72|480 ES|A Coruna|43.36|-8.41|400
ES|Oviedo|43.36|-5.85|300 ES|Granada|37.18|-3.6|500 ES|Cordoba|37.89|-4.78|330 ES|Alicante|38.35|-0.48|750
ES|Salamanca|40.97|-5.66|200 ES|Badajoz|38.88|-6.97|150 ES|Toledo|39.86|-4.02|85 ES|Pamplona|42.81|-1.64|350
ES|Santander|43.46|-3.8|270 ES|Almeria|36.84|-2.46|200 ES|Cadiz|36.53|-6.29|630 ES|Albacete|38.99|-1.86|170
ES|Burgos|42.34|-3.7|180 ES|Leon|42.6|-5.57|200 ES|Teruel|40.34|-1.1|35 ES|Caceres|39.47|-6.37|95
PT|Lisbon|38.72|-9.14|2900 PT|Porto|41.15|-8.61|1700 PT|Faro|37.02|-7.93|120 PT|Coimbra|40.21|-8.43|140
PT|Braganca|41.81|-6.76|35 PT|Evora|38.57|-7.91|55
IT|Rome|41.9|12.5|4300 IT|Milan|45.46|9.19|7400 IT|Naples|40.85|14.27|3100 IT|Turin|45.07|7.69|2200
IT|Palermo|38.12|13.36|1200 IT|Bari|41.12|16.87|1200 IT|Catania|37.5|15.09|1100 IT|Genoa|44.41|8.93|850
IT|Bologna|44.49|11.34|1000 IT|Florence|43.77|11.26|1500 IT|Venice|45.44|12.32|850 IT|Verona|45.44|10.99|700
IT|Cagliari|39.22|9.12|430 IT|Sassari|40.73|8.56|200 IT|Pescara|42.46|14.21|450 IT|Ancona|43.62|13.52|300
IT|Reggio Calabria|38.11|15.65|250 IT|Taranto|40.47|17.24|400 IT|Trieste|45.65|13.78|230 IT|Perugia|43.11|12.39|200
IT|Salerno|40.68|14.77|400 IT|Cosenza|39.3|16.25|250 IT|Messina|38.19|15.55|230 IT|Brindisi|40.63|17.94|90
IT|Bolzano|46.5|11.35|110 IT|Livorno|43.55|10.31|160 IT|Syracuse|37.08|15.29|120 IT|Foggia|41.46|15.54|150
MT|Valletta|35.9|14.51|400
DE|Berlin|52.52|13.4|4500 DE|Hamburg|53.55|9.99|3100 DE|Munich|48.14|11.58|2900 DE|Cologne|50.94|6.96|2100
DE|Frankfurt|50.11|8.68|2300 DE|Stuttgart|48.78|9.18|2800 DE|Essen|51.46|7.01|5100 DE|Leipzig|51.34|12.37|1000
DE|Dresden|51.05|13.74|1300 DE|Hanover|52.37|9.74|1100 DE|Nuremberg|49.45|11.08|1300 DE|Bremen|53.08|8.8|1000
DE|Kiel|54.32|10.14|250 DE|Rostock|54.09|12.1|210 DE|Munster|51.96|7.63|310 DE|Kassel|51.31|9.48|400
DE|Erfurt|50.98|11.03|220 DE|Magdeburg|52.13|11.63|240 DE|Freiburg|47.99|7.85|230 DE|Regensburg|49.01|12.1|160
DE|Saarbrucken|49.24|6.99|330 DE|Mannheim|49.49|8.47|2400 DE|Augsburg|48.37|10.9|300 DE|Wurzburg|49.79|9.95|130
DE|Chemnitz|50.83|12.92|250 DE|Lubeck|53.87|10.69|220 DE|Bielefeld|52.02|8.53|330 DE|Passau|48.57|13.43|50
DE|Flensburg|54.79|9.44|90 DE|Emden|53.37|7.21|50
NL|Amsterdam|52.37|4.9|2400 NL|Rotterdam|51.92|4.48|1800 NL|Groningen|53.22|6.57|230 NL|Eindhoven|51.44|5.47|750
BE|Brussels|50.85|4.35|2100 BE|Antwerp|51.22|4.4|1100 BE|Liege|50.63|5.57|750 BE|Ghent|51.05|3.72|550
LU|Luxembourg|49.61|6.13|600
CH|Zurich|47.38|8.54|1400 CH|Geneva|46.2|6.14|600 CH|Bern|46.95|7.45|420 CH|Basel|47.56|7.59|550 CH|Lugano|46.0|8.95|150
AT|Vienna|48.21|16.37|2900 AT|Graz|47.07|15.44|640 AT|Linz|48.31|14.29|500 AT|Salzburg|47.8|13.04|350
AT|Innsbruck|47.27|11.4|300 AT|Klagenfurt|46.62|14.31|150
DK|Copenhagen|55.68|12.57|2100 DK|Aarhus|56.16|10.2|360 DK|Aalborg|57.05|9.92|220 DK|Odense|55.4|10.39|210
DK|Esbjerg|55.48|8.45|120 DK|Torshavn|62.01|-6.77|20
NO|Oslo|59.91|10.75|1600 NO|Bergen|60.39|5.32|420 NO|Trondheim|63.43|10.4|200 NO|Stavanger|58.97|5.73|340
NO|Kristiansand|58.15|8.0|120 NO|Alesund|62.47|6.15|65 NO|Bodo|67.28|14.4|50 NO|Tromso|69.65|18.96|75
NO|Lillehammer|61.12|10.47|28
SE|Stockholm|59.33|18.07|2400 SE|Gothenburg|57.71|11.97|1050 SE|Malmo|55.6|13.0|750 SE|Uppsala|59.86|17.64|230
SE|Norrkoping|58.59|16.18|140 SE|Jonkoping|57.78|14.16|140 SE|Sundsvall|62.39|17.31|100 SE|Umea|63.83|20.26|130
SE|Lulea|65.58|22.15|80 SE|Ostersund|63.18|14.64|65 SE|Karlstad|59.38|13.5|95 SE|Kalmar|56.66|16.36|70
SE|Visby|57.64|18.3|25 SE|Kiruna|67.86|20.23|23 SE|Falun|60.61|15.63|60
FI|Helsinki|60.17|24.94|1500 FI|Tampere|61.5|23.76|400 FI|Turku|60.45|22.27|330 FI|Oulu|65.01|25.47|250
FI|Kuopio|62.89|27.68|120 FI|Vaasa|63.1|21.62|70 FI|Joensuu|62.6|29.76|80 FI|Rovaniemi|66.5|25.73|60
FI|Lahti|60.98|25.66|200 FI|Mariehamn|60.1|19.94|12
EE|Tallinn|59.44|24.75|600 EE|Tartu|58.38|26.72|150 LV|Riga|56.95|24.11|1000 LV|Liepaja|56.51|21.01|70
LV|Daugavpils|55.87|26.54|80 LT|Vilnius|54.69|25.28|800 LT|Kaunas|54.9|23.89|400 LT|Klaipeda|55.7|21.14|160
PL|Warsaw|52.23|21.01|3100 PL|Krakow|50.06|19.94|1400 PL|Lodz|51.76|19.46|1100 PL|Wroclaw|51.11|17.04|1100
PL|Poznan|52.41|16.93|1000 PL|Gdansk|54.35|18.65|1100 PL|Szczecin|53.43|14.55|750 PL|Katowice|50.26|19.02|2700
PL|Lublin|51.25|22.57|650 PL|Bialystok|53.13|23.16|450 PL|Rzeszow|50.04|22.0|400 PL|Olsztyn|53.78|20.49|250
PL|Bydgoszcz|53.12|18.0|600
CZ|Prague|50.08|14.44|2700 CZ|Brno|49.2|16.61|700 CZ|Ostrava|49.83|18.28|1100 CZ|Plzen|49.74|13.38|320
SK|Bratislava|48.15|17.11|650 SK|Kosice|48.72|21.26|350 SK|Banska Bystrica|48.74|19.15|80
HU|Budapest|47.5|19.04|3000 HU|Debrecen|47.53|21.63|330 HU|Szeged|46.25|20.15|250 HU|Pecs|46.07|18.23|240
HU|Gyor|47.69|17.63|200
SI|Ljubljana|46.06|14.51|550 HR|Zagreb|45.81|15.98|1100 HR|Split|43.51|16.44|350 HR|Rijeka|45.33|14.44|220
HR|Dubrovnik|42.65|18.09|60 HR|Osijek|45.55|18.69|130 BA|Sarajevo|43.86|18.41|550 BA|Banja Luka|44.77|17.19|230
BA|Mostar|43.34|17.81|110 RS|Belgrade|44.79|20.45|1700 RS|Novi Sad|45.27|19.83|400 RS|Nis|43.32|21.9|260
ME|Podgorica|42.44|19.26|200 XK|Pristina|42.66|21.17|300 MK|Skopje|42.0|21.43|600 AL|Tirana|41.33|19.82|900
AL|Vlore|40.47|19.49|130
RO|Bucharest|44.43|26.1|2300 RO|Cluj|46.77|23.6|400 RO|Timisoara|45.75|21.23|400 RO|Iasi|47.16|27.59|400
RO|Constanta|44.18|28.63|420 RO|Craiova|44.32|23.8|350 RO|Brasov|45.66|25.61|400 RO|Galati|45.44|28.05|300
RO|Oradea|47.07|21.93|250 MD|Chisinau|47.01|28.86|800
BG|Sofia|42.7|23.32|1500 BG|Plovdiv|42.14|24.75|550 BG|Varna|43.21|27.91|450 BG|Burgas|42.5|27.47|300
BG|Ruse|43.85|25.97|200 BG|Vidin|43.99|22.88|50
GR|Athens|37.98|23.73|3700 GR|Thessaloniki|40.64|22.94|1100 GR|Patras|38.25|21.73|260 GR|Heraklion|35.34|25.13|250
GR|Larissa|39.64|22.42|230 GR|Ioannina|39.66|20.85|170 GR|Kavala|40.94|24.41|130 GR|Chania|35.51|24.02|110
GR|Kalamata|37.04|22.11|80 GR|Rhodes|36.43|28.22|90 GR|Alexandroupoli|40.85|25.87|70 GR|Corfu|39.62|19.92|100
GR|Mytilene|39.1|26.55|40 GR|Chios|38.37|26.14|30
CY|Nicosia|35.17|33.36|700 CY|Limassol|34.68|33.04|240
TR|Istanbul|41.01|28.98|15000 TR|Ankara|39.93|32.86|5500 TR|Izmir|38.42|27.14|4300 TR|Bursa|40.19|29.06|2000
TR|Antalya|36.9|30.71|1300 TR|Adana|37.0|35.32|1800 TR|Konya|37.87|32.48|1300 TR|Samsun|41.29|36.33|700
TR|Trabzon|41.0|39.72|400 TR|Erzurum|39.9|41.27|400 TR|Kayseri|38.72|35.49|1000 TR|Eskisehir|39.78|30.52|800
TR|Sivas|39.75|37.02|350 TR|Diyarbakir|37.91|40.24|1000 TR|Gaziantep|37.07|37.38|1700 TR|Edirne|41.68|26.56|180
TR|Canakkale|40.15|26.41|120 TR|Sinop|42.03|35.15|40 TR|Van|38.5|43.38|500 TR|Mersin|36.8|34.64|1000
TR|Zonguldak|41.45|31.79|100 TR|Malatya|38.35|38.31|450
SY|Aleppo|36.2|37.16|2000 SY|Damascus|33.51|36.28|2500 SY|Latakia|35.52|35.78|400 SY|Homs|34.73|36.72|800
LB|Beirut|33.89|35.5|2200 IQ|Mosul|36.34|43.13|1500 IL|Haifa|32.79|34.99|600 IL|Tel Aviv|32.08|34.78|4000
IL|Jerusalem|31.77|35.21|1000 JO|Amman|31.95|35.93|2500 EG|Cairo|30.04|31.24|20000 EG|Alexandria|31.2|29.92|5000
EG|Port Said|31.26|32.3|700 EG|Mersa Matruh|31.35|27.24|80 LY|Tripoli|32.89|13.19|1100 LY|Benghazi|32.12|20.07|800
LY|Misrata|32.38|15.09|300 LY|Tobruk|32.08|23.96|120 LY|Sirte|31.2|16.59|80
TN|Tunis|36.81|10.18|2300 TN|Sfax|34.74|10.76|600 TN|Sousse|35.83|10.64|500 TN|Bizerte|37.27|9.87|140
DZ|Algiers|36.75|3.06|3500 DZ|Oran|35.7|-0.63|1500 DZ|Constantine|36.37|6.61|900 DZ|Annaba|36.9|7.77|500
DZ|Setif|36.19|5.41|300 DZ|Tlemcen|34.88|-1.31|300 DZ|Biskra|34.85|5.73|250 DZ|Bechar|31.62|-2.22|150
MA|Casablanca|33.57|-7.59|4300 MA|Rabat|34.02|-6.84|1900 MA|Fez|34.03|-5.0|1200 MA|Tangier|35.76|-5.83|1100
MA|Marrakesh|31.63|-7.99|1000 MA|Oujda|34.68|-1.91|500 MA|Meknes|33.9|-5.55|650
RU|Moscow|55.76|37.62|17000 RU|St Petersburg|59.94|30.31|5400 RU|Nizhny Novgorod|56.33|44.0|1200
RU|Kazan|55.8|49.11|1300 RU|Samara|53.2|50.15|1200 RU|Volgograd|48.71|44.51|1000 RU|Rostov|47.24|39.71|1100
RU|Voronezh|51.67|39.18|1000 RU|Yaroslavl|57.63|39.87|600 RU|Smolensk|54.78|32.05|330 RU|Tver|56.86|35.9|400
RU|Kaliningrad|54.71|20.51|500 RU|Murmansk|68.97|33.08|280 RU|Arkhangelsk|64.54|40.54|350 RU|Petrozavodsk|61.79|34.36|280
RU|Vologda|59.22|39.89|310 RU|Pskov|57.82|28.33|200 RU|Novgorod|58.52|31.27|220 RU|Bryansk|53.24|34.36|400
RU|Kursk|51.73|36.19|450 RU|Tula|54.19|37.62|470 RU|Ryazan|54.63|39.74|530 RU|Kirov|58.6|49.66|500
RU|Saratov|51.53|46.03|840 RU|Penza|53.2|45.02|520 RU|Astrakhan|46.35|48.04|530 RU|Krasnodar|45.04|38.98|1000
RU|Sochi|43.6|39.73|450 RU|Stavropol|45.04|41.97|450 RU|Makhachkala|42.98|47.5|600 RU|Kostroma|57.77|40.93|270
RU|Syktyvkar|61.67|50.81|250 RU|Ukhta|63.56|53.7|100 RU|Vyatka|58.0|51.0|60 RU|Elista|46.31|44.26|100
RU|Orel|52.97|36.07|300 RU|Lipetsk|52.6|39.6|500 RU|Tambov|52.72|41.45|280 RU|Kotlas|61.25|46.63|60
BY|Minsk|53.9|27.56|2000 BY|Gomel|52.44|30.98|500 BY|Brest BY|52.1|23.69|350 BY|Grodno|53.68|23.83|360
BY|Vitebsk|55.19|30.2|370 BY|Mogilev|53.9|30.33|380 BY|Pinsk|52.12|26.1|130
UA|Kiev|50.45|30.52|3000 UA|Kharkiv|49.99|36.23|1400 UA|Odessa|46.48|30.72|1000 UA|Dnipro|48.46|35.05|1000
UA|Donetsk|48.0|37.8|1000 UA|Lviv|49.84|24.03|750 UA|Zaporizhzhia|47.84|35.14|700 UA|Sevastopol|44.62|33.52|450
UA|Simferopol|44.95|34.1|350 UA|Mykolaiv|46.97|31.99|480 UA|Vinnytsia|49.23|28.48|370 UA|Poltava|49.59|34.55|280
UA|Chernihiv|51.49|31.29|280 UA|Zhytomyr|50.25|28.66|260 UA|Kherson|46.64|32.61|280 UA|Chernivtsi|48.29|25.94|260
UA|Rivne|50.62|26.25|250 UA|Uzhhorod|48.62|22.3|110 UA|Luhansk|48.57|39.31|400 UA|Mariupol|47.1|37.55|430
GE|Tbilisi|41.72|44.79|1200 GE|Batumi|41.64|41.64|170 GE|Kutaisi|42.27|42.7|140 AM|Yerevan|40.18|44.51|1100
AZ|Baku|40.41|49.87|2300 AZ|Ganja|40.68|46.36|330 IS|Reykjavik|64.15|-21.94|230
"""
METROPOLIS = ("London", "Paris", "Moscow", "Istanbul", "Madrid", "Berlin", "Milan", "Essen", "Rome",
              "Barcelona", "St Petersburg", "Athens", "Naples", "Vienna", "Budapest", "Warsaw", "Kiev",
              "Brussels", "Amsterdam", "Hamburg", "Munich", "Cairo")

RIVERS: dict[str, Ring] = {
    "Rhine": [(9.2, 47.6), (8.0, 47.58), (7.6, 47.6), (7.8, 48.5), (8.2, 49.0), (8.45, 49.5), (8.3, 50.0),
              (7.6, 50.35), (7.1, 50.75), (6.8, 51.3), (6.2, 51.85), (5.0, 51.85), (4.1, 51.95)],
    "Danube": [(8.5, 47.95), (10.0, 48.4), (12.1, 49.0), (13.4, 48.57), (14.3, 48.3), (16.4, 48.2),
               (17.1, 48.1), (18.9, 47.8), (19.0, 47.0), (18.9, 45.9), (19.9, 45.25), (20.5, 44.8),
               (22.0, 44.6), (22.9, 43.9), (24.5, 43.7), (26.0, 43.9), (27.3, 44.1), (28.0, 45.2),
               (28.8, 45.3), (29.7, 45.2)],
    "Elbe": [(15.5, 50.6), (14.4, 50.4), (14.0, 50.9), (13.7, 51.05), (12.6, 51.9), (11.7, 52.2),
             (11.2, 52.9), (10.0, 53.5), (8.9, 53.85)],
    "Oder": [(17.9, 49.7), (18.2, 50.1), (17.0, 51.1), (15.5, 51.9), (14.6, 52.6), (14.5, 53.4), (14.3, 53.9)],
    "Vistula": [(18.9, 49.7), (19.9, 50.0), (21.6, 50.6), (21.0, 52.2), (19.4, 52.6), (18.5, 53.1),
                (18.8, 54.35)],
    "Seine": [(4.7, 47.6), (4.0, 48.3), (2.4, 48.8), (1.7, 49.0), (1.1, 49.4), (0.2, 49.45)],
    "Loire": [(4.1, 44.85), (4.1, 45.9), (3.1, 46.9), (2.4, 47.5), (1.9, 47.9), (0.7, 47.4),
              (-0.55, 47.45), (-1.55, 47.2), (-2.15, 47.3)],
    "Rhone": [(8.3, 46.5), (6.9, 46.3), (6.15, 46.2), (5.7, 45.9), (4.85, 45.75), (4.8, 44.9),
              (4.8, 43.9), (4.6, 43.5)],
    "Garonne": [(1.4, 43.6), (0.6, 44.1), (-0.5, 44.85), (-1.0, 45.5)],
    "Po": [(7.1, 44.7), (7.7, 45.1), (9.1, 45.1), (10.3, 45.0), (11.6, 44.95), (12.4, 44.95)],
    "Tagus": [(-1.7, 40.4), (-3.6, 40.0), (-4.0, 39.85), (-6.0, 39.6), (-7.5, 39.4), (-8.7, 39.0), (-9.2, 38.7)],
    "Ebro": [(-4.0, 43.0), (-2.5, 42.5), (-1.6, 42.1), (-0.9, 41.65), (0.4, 41.1), (0.85, 40.7)],
    "Guadalquivir": [(-3.0, 38.0), (-4.8, 37.9), (-6.0, 37.4), (-6.35, 36.8)],
    "Thames": [(-2.0, 51.7), (-1.25, 51.75), (-0.9, 51.5), (-0.13, 51.5), (0.7, 51.5)],
    "Dnieper": [(32.0, 55.5), (32.05, 54.8), (30.4, 53.9), (30.5, 52.2), (30.5, 50.45), (32.0, 49.4),
                (34.0, 48.9), (35.05, 48.45), (35.1, 47.8), (34.0, 47.3), (32.6, 46.6), (31.8, 46.55)],
    "Dniester": [(23.4, 49.3), (25.0, 49.0), (26.6, 48.5), (28.0, 47.7), (29.5, 46.9), (30.2, 46.3)],
    "Volga": [(33.0, 57.2), (34.9, 57.0), (37.3, 56.8), (39.9, 57.6), (43.0, 56.6), (44.0, 56.3),
              (46.0, 56.1), (49.1, 55.8), (49.3, 54.5), (50.1, 53.2), (48.5, 52.5), (46.0, 51.5),
              (45.4, 50.0), (44.5, 48.7), (46.5, 47.5), (48.0, 46.4), (48.9, 45.9)],
    "Don": [(38.2, 53.9), (39.0, 52.5), (39.2, 51.7), (40.5, 50.5), (41.5, 49.6), (43.0, 48.9),
            (42.0, 47.6), (40.5, 47.4), (39.7, 47.2), (39.3, 47.1)],
    "Western Dvina": [(32.6, 56.9), (30.2, 55.2), (28.3, 55.6), (26.5, 55.85), (25.0, 56.5), (24.0, 57.05)],
    "Neva-Volkhov": [(31.6, 58.0), (31.9, 59.2), (32.3, 60.1), (31.0, 59.9), (30.3, 59.95)],
    "Northern Dvina": [(46.6, 61.2), (44.5, 62.5), (42.5, 63.8), (40.5, 64.55)],
    "Shannon": [(-8.0, 54.1), (-8.0, 53.2), (-8.3, 52.8), (-8.63, 52.66), (-9.5, 52.57)],
    "Tiber": [(12.0, 43.5), (12.4, 43.0), (12.6, 42.3), (12.47, 41.9), (12.25, 41.75)],
    "Ems-Weser": [(9.7, 51.6), (9.5, 52.2), (9.2, 52.7), (8.8, 53.1), (8.5, 53.55)],
    "Maritsa": [(23.9, 42.3), (24.75, 42.15), (26.3, 41.9), (26.6, 41.2), (26.1, 40.8)],
    "Kizilirmak": [(38.0, 39.7), (36.8, 39.3), (35.0, 39.6), (34.0, 40.7), (35.5, 41.5), (36.0, 41.7)],
    "Nile": [(31.2, 28.0), (31.2, 29.5), (31.24, 30.04), (31.0, 30.8), (30.4, 31.4)],
}

HIGHWAYS: dict[str, list[str]] = {
    "Ireland": ["Limerick", "Cork", "Dublin", "Belfast", "Londonderry"],
    "M6": ["London", "Birmingham", "Manchester", "Carlisle", "Glasgow", "Inverness"],
    "A1": ["London", "Cambridge", "Nottingham", "Leeds", "Newcastle", "Edinburgh", "Dundee", "Aberdeen", "Inverness"],
    "M4": ["London", "Bristol", "Cardiff", "Swansea"],
    "M5": ["Birmingham", "Bristol", "Exeter", "Plymouth"],
    "M62": ["Liverpool", "Manchester", "Leeds", "Hull"],
    "A3": ["London", "Southampton"], "A2": ["London", "Dover"], "A11": ["London", "Norwich"],
    "E15": ["Calais", "Paris", "Lyon", "Avignon", "Marseille", "Nice"],
    "E05": ["Le Havre", "Paris", "Orleans", "Tours", "Poitiers", "Bordeaux", "Bayonne", "Bilbao",
            "Burgos", "Valladolid", "Madrid", "Cordoba", "Seville", "Cadiz"],
    "A4": ["Paris", "Reims", "Metz", "Strasbourg"],
    "A84": ["Paris", "Caen", "Rennes", "Brest"],
    "A61": ["Bordeaux", "Toulouse", "Montpellier", "Avignon"],
    "A9": ["Lyon", "Montpellier", "Perpignan", "Barcelona", "Valencia", "Alicante", "Murcia", "Almeria",
           "Granada", "Malaga", "Cadiz"],
    "Spain": ["Madrid", "Zaragoza", "Barcelona"],
    "Spain 2": ["Madrid", "Albacete", "Valencia"],
    "Iberia": ["Lisbon", "Evora", "Badajoz", "Madrid"],
    "Portugal": ["Faro", "Lisbon", "Coimbra", "Porto", "Vigo", "A Coruna", "Oviedo", "Santander", "Bilbao",
                 "Pamplona", "Zaragoza"],
    "Leon": ["Madrid", "Salamanca", "Leon", "Oviedo"],
    "A1 Italy": ["Milan", "Bologna", "Florence", "Rome", "Naples", "Salerno", "Cosenza", "Reggio Calabria"],
    "A4 Italy": ["Turin", "Milan", "Verona", "Venice", "Trieste", "Ljubljana", "Zagreb", "Belgrade", "Nis",
                 "Sofia", "Plovdiv", "Edirne", "Istanbul"],
    "A14": ["Bologna", "Ancona", "Pescara", "Foggia", "Bari", "Brindisi"],
    "A12": ["Genoa", "Livorno", "Rome"], "A10": ["Nice", "Genoa", "Milan"],
    "Sicily": ["Messina", "Catania", "Syracuse"], "Sicily 2": ["Messina", "Palermo"],
    "Sardinia": ["Sassari", "Cagliari"],
    "Brenner": ["Verona", "Bolzano", "Innsbruck", "Munich", "Nuremberg", "Leipzig", "Berlin"],
    "E35": ["Milan", "Lugano", "Zurich", "Basel", "Frankfurt", "Cologne", "Essen", "Amsterdam"],
    "E40": ["Calais", "Ghent", "Brussels", "Liege", "Cologne", "Kassel", "Erfurt", "Dresden", "Wroclaw",
            "Katowice", "Krakow", "Rzeszow", "Lviv", "Rivne", "Zhytomyr", "Kiev", "Poltava", "Kharkiv", "Luhansk",
            "Volgograd"],
    "E30": ["Amsterdam", "Hanover", "Berlin", "Poznan", "Warsaw", "Brest BY", "Minsk", "Smolensk", "Moscow",
            "Ryazan", "Penza", "Samara"],
    "E19": ["Brussels", "Antwerp", "Rotterdam", "Amsterdam", "Groningen", "Bremen", "Hamburg", "Kiel", "Flensburg",
            "Aarhus", "Aalborg"],
    "E45 Germany": ["Munich", "Wurzburg", "Kassel", "Hanover", "Hamburg", "Lubeck", "Rostock"],
    "A8": ["Stuttgart", "Munich", "Salzburg", "Linz", "Vienna", "Bratislava", "Gyor", "Budapest", "Szeged",
           "Belgrade"],
    "Stuttgart": ["Strasbourg", "Stuttgart", "Augsburg"],
    "A6": ["Paris", "Dijon", "Besancon", "Basel", "Bern", "Geneva", "Lyon"],
    "Prague": ["Nuremberg", "Plzen", "Prague", "Brno", "Vienna", "Graz", "Ljubljana"],
    "Prague 2": ["Dresden", "Prague"], "Ostrava": ["Brno", "Ostrava", "Katowice"],
    "Hungary": ["Budapest", "Debrecen", "Oradea", "Cluj", "Brasov", "Bucharest", "Constanta"],
    "Romania": ["Timisoara", "Craiova", "Bucharest", "Ruse", "Varna"],
    "Balkans": ["Belgrade", "Novi Sad", "Osijek", "Zagreb", "Rijeka", "Split", "Dubrovnik", "Podgorica",
                "Tirana", "Vlore", "Ioannina", "Patras", "Athens"],
    "E75": ["Nis", "Skopje", "Thessaloniki", "Larissa", "Athens", "Kalamata"],
    "Egnatia": ["Ioannina", "Thessaloniki", "Kavala", "Alexandroupoli", "Istanbul"],
    "Bosnia": ["Zagreb", "Banja Luka", "Sarajevo", "Mostar", "Split"],
    "E80": ["Istanbul", "Ankara", "Sivas", "Erzurum", "Tbilisi", "Baku"],
    "Turkey": ["Istanbul", "Bursa", "Izmir", "Antalya", "Mersin", "Adana", "Gaziantep", "Aleppo", "Homs",
               "Damascus", "Amman", "Jerusalem", "Tel Aviv", "Haifa", "Beirut"],
    "Anatolia": ["Ankara", "Konya", "Adana"], "Anatolia 2": ["Eskisehir", "Ankara", "Kayseri", "Malatya",
                                                              "Diyarbakir", "Mosul"],
    "Black Sea coast": ["Samsun", "Trabzon", "Batumi", "Kutaisi", "Tbilisi", "Yerevan"],
    "Egypt": ["Tel Aviv", "Port Said", "Cairo", "Alexandria", "Mersa Matruh", "Tobruk", "Benghazi", "Sirte",
              "Misrata", "Tripoli", "Sfax", "Sousse", "Tunis", "Bizerte", "Annaba", "Constantine", "Setif",
              "Algiers", "Oran", "Tlemcen", "Oujda", "Fez", "Rabat", "Casablanca", "Marrakesh"],
    "Morocco": ["Tangier", "Rabat"], "Meknes": ["Fez", "Meknes"],
    "Scandinavia": ["Copenhagen", "Malmo", "Gothenburg", "Oslo", "Lillehammer", "Trondheim", "Bodo", "Tromso"],
    "E4": ["Malmo", "Jonkoping", "Norrkoping", "Stockholm", "Uppsala", "Sundsvall", "Umea", "Lulea", "Kiruna"],
    "Norway": ["Oslo", "Kristiansand", "Stavanger", "Bergen", "Alesund", "Trondheim", "Ostersund", "Sundsvall"],
    "Sweden": ["Oslo", "Karlstad", "Stockholm"],
    "Denmark": ["Esbjerg", "Odense", "Copenhagen"],
    "Finland": ["Turku", "Helsinki", "Lahti", "Kuopio", "Oulu", "Rovaniemi"], "Finland 2": ["Helsinki", "Tampere",
                                                                                            "Vaasa"],
    "Via Baltica": ["Warsaw", "Bialystok", "Kaunas", "Riga", "Tallinn"], "Baltic": ["Vilnius", "Kaunas",
                                                                                   "Klaipeda"],
    "Gdansk": ["Warsaw", "Olsztyn", "Gdansk", "Bydgoszcz", "Poznan", "Wroclaw"],
    "Szczecin": ["Berlin", "Szczecin", "Gdansk", "Kaliningrad", "Klaipeda"],
    "Russia": ["St Petersburg", "Novgorod", "Tver", "Moscow", "Tula", "Orel", "Kursk", "Kharkiv", "Dnipro",
               "Zaporizhzhia", "Simferopol", "Sevastopol"],
    "Russia 2": ["Moscow", "Yaroslavl", "Vologda", "Arkhangelsk"], "Murmansk": ["St Petersburg", "Petrozavodsk",
                                                                                "Murmansk"],
    "Volga road": ["Moscow", "Nizhny Novgorod", "Kazan"], "M4 Russia": ["Moscow", "Voronezh", "Rostov", "Krasnodar",
                                                                        "Sochi"],
    "Ukraine": ["Lviv", "Chernivtsi", "Chisinau", "Odessa", "Mykolaiv", "Kherson", "Simferopol"],
    "Kiev-Odessa": ["Kiev", "Vinnytsia", "Odessa"], "Donbas": ["Dnipro", "Donetsk", "Rostov"],
    "Belarus": ["Vilnius", "Minsk", "Gomel", "Kiev"], "Estonia": ["Tallinn", "Tartu", "Pskov", "St Petersburg"],
}


def book_checks(m, by_name: dict) -> list[str]:
    """The book's sample city list: Irish cities on their hexes, Dublin major."""
    problems = []
    for name, label in (("limerick", "0825"), ("cork", "0927"), ("londonderry", "1022"),
                        ("dublin", "1125"), ("belfast", "1222")):
        s = by_name.get(name)
        if s is None or m.grid.label(s.cell, "ccrr") != label:
            problems.append(f"{name} should be on hex {label}")
    if by_name.get("dublin") is None or not by_name["dublin"].attrs.get("major"):
        problems.append("DUBLIN should be a major city")
    return problems


# The book's sample hex list (Ireland): terrain and the roads leaving each hex.
BOOK_HEXES: dict[str, tuple[str, str]] = {
    "0726": ("plains", ""), "0727": ("plains", ""), "0824": ("forest", ""), "0825": ("plains", "NE S"),
    "0826": ("plains", "N NW"), "0924": ("forest", ""), "0925": ("agricultural", "NW SW"),
    "0926": ("agricultural", ""), "0927": ("agricultural", "NE SE"), "1022": ("forest", "NE S"),
    "1023": ("agricultural", "N S"), "1024": ("forest", "N NW"), "1025": ("agricultural", "NE SE"),
    "1026": ("agricultural", "NE SW"), "1125": ("agricultural", "N S SW SE"), "1126": ("agricultural", "N SW"),
    "1222": ("agricultural", "SW SE"),
}
