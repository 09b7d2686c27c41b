"""Builds maps/artnes/europe1300.rsmap: Europe around 1300 AD as named realms and seas.

How: a coarse coastline (lon/lat polygons drawn by hand) gives a land mask on a 120x90
square grid; islands are kept one cell apart from other land; every realm and sea has a
seed point; cells go to the nearest seed of their kind that can reach them through cells
of the same kind (so each area is contiguous); straits the grid cannot show are
explicit adjacency edits. The script then checks the result and refuses to write a map
that fails (contiguity, plausible neighbours, island realms touching only seas...).

Run: /work/venv/bin/python maps/artnes/make_map.py
"""

from __future__ import annotations

import heapq
import sys
from collections import deque
from pathlib import Path

import numpy as np
import shapely

from engine.map import new_map
from engine.mapfile import save_map

W, H = 120, 90
LON0, LAT0, SX, SY = -12.0, 63.0, 2.2, 3.0   # x = (lon - LON0) * SX, y = (LAT0 - lat) * SY

# ---- coastline (lon, lat), roughly -------------------------------------------------------
MAINLAND = [
    (-5.6, 36.0), (-4.4, 36.7), (-3.5, 36.7), (-2.0, 36.8), (-0.8, 37.6), (-0.5, 38.3), (0.2, 38.8),
    (-0.3, 39.5), (0.0, 39.9), (0.8, 40.8), (2.2, 41.4), (3.2, 42.3), (3.1, 43.1), (4.0, 43.5),
    (5.0, 43.4), (6.2, 43.1), (7.3, 43.7), (8.0, 43.9), (8.9, 44.4), (9.8, 44.1), (10.3, 43.9),
    (10.5, 43.0), (11.1, 42.4), (12.2, 41.8), (13.0, 41.3), (14.2, 40.8), (14.8, 40.6), (15.6, 40.1),
    (15.8, 39.6), (15.6, 38.2), (16.1, 38.0), (17.1, 39.0), (16.5, 39.6), (17.2, 40.4), (18.5, 40.1),
    (17.0, 41.1), (16.0, 41.9), (14.3, 42.4), (13.6, 43.5), (12.4, 44.4), (12.3, 45.4), (13.6, 45.6),
    (13.8, 44.8), (14.5, 45.2), (15.2, 44.2), (15.9, 43.6), (17.0, 43.2), (18.5, 42.4), (19.4, 41.8),
    (19.4, 40.5), (20.0, 39.7), (20.8, 39.1), (21.1, 38.3), (21.6, 38.2), (21.2, 37.6), (21.7, 36.8),
    (22.4, 36.4), (22.9, 36.5), (23.2, 37.3), (23.1, 37.9), (23.9, 37.7), (24.0, 38.2), (22.9, 38.7),
    (23.0, 39.3), (22.6, 40.0), (23.0, 40.6), (24.4, 40.9), (26.0, 40.8), (26.2, 40.1), (26.7, 39.5),
    (26.3, 38.3), (27.5, 37.0), (29.0, 36.6), (30.5, 36.4), (31.0, 36.8), (32.8, 36.1), (34.0, 36.3),
    (35.0, 36.6), (36.2, 36.6), (35.8, 36.2), (35.9, 35.0), (35.0, 33.0), (42.6, 33.0), (42.6, 63.2),
    (21.5, 63.2), (21.4, 61.0), (22.3, 60.0), (25.0, 60.3), (28.5, 60.6), (30.0, 60.0), (28.0, 59.5),
    (24.7, 59.5), (23.5, 58.9), (24.3, 57.9), (23.9, 57.0), (22.0, 57.6), (21.0, 56.8), (21.1, 55.7),
    (19.9, 54.9), (18.6, 54.6), (16.5, 54.5), (14.0, 54.0), (12.0, 54.2), (10.9, 54.4), (9.8, 55.0),
    (10.8, 56.2), (10.3, 56.5), (10.5, 57.7), (8.3, 56.6), (8.6, 55.5), (8.6, 53.9), (7.2, 53.6),
    (6.0, 53.4), (4.8, 52.9), (4.2, 51.9), (3.2, 51.3), (1.9, 51.0), (1.6, 50.2), (0.2, 49.5),
    (-1.1, 49.4), (-1.9, 49.7), (-1.6, 48.7), (-3.5, 48.8), (-4.8, 48.4), (-4.4, 47.8), (-2.2, 47.1),
    (-1.2, 45.8), (-1.4, 44.5), (-1.8, 43.4), (-3.8, 43.45), (-5.8, 43.6), (-8.0, 43.7), (-9.3, 43.0),
    (-8.9, 42.5), (-8.9, 41.0), (-9.4, 39.4), (-8.8, 38.7), (-8.9, 37.0), (-7.4, 37.2), (-6.3, 36.8),
]
BLACK_SEA = [  # a hole in the mainland
    (29.1, 41.2), (31.5, 41.3), (33.5, 42.0), (35.2, 42.0), (36.3, 41.3), (38.4, 41.0), (40.0, 41.0),
    (41.6, 41.5), (41.6, 42.5), (40.0, 43.3), (38.4, 44.3), (37.3, 44.7), (36.6, 45.2), (35.4, 45.0),
    (34.4, 44.5), (33.4, 44.6), (32.6, 45.4), (33.6, 46.0), (32.0, 46.5), (30.7, 46.5), (29.7, 45.4),
    (28.7, 44.2), (28.0, 43.2), (27.9, 42.0), (28.4, 41.5),
]
SCANDINAVIA = [
    (19.0, 63.2), (17.5, 62.3), (17.4, 61.0), (18.5, 60.2), (18.9, 59.3), (16.8, 58.0), (16.6, 57.0),
    (16.0, 56.2), (14.3, 55.6), (12.9, 55.4), (12.6, 56.1), (12.0, 57.5), (11.2, 58.8), (10.6, 59.9),
    (10.0, 59.0), (8.0, 58.1), (6.6, 58.1), (5.6, 58.9), (5.0, 60.4), (5.0, 61.5), (6.0, 62.5),
    (7.5, 63.2),
]
AFRICA = [
    (-12.5, 32.5), (-8.6, 33.0), (-6.8, 34.0), (-5.9, 35.8), (-5.3, 35.9), (-2.9, 35.3), (-1.0, 35.7),
    (1.0, 36.5), (3.0, 36.8), (6.6, 37.1), (9.8, 37.3), (11.0, 37.0), (10.4, 36.4), (11.1, 35.2),
    (10.0, 34.2), (11.0, 33.3), (11.5, 32.5),
]
BRITAIN = [
    (-5.7, 50.0), (-4.2, 50.4), (-1.5, 50.6), (1.2, 51.1), (1.7, 52.5), (0.3, 53.5), (-0.2, 54.2),
    (-1.6, 55.6), (-2.5, 56.0), (-1.8, 57.6), (-3.2, 58.6), (-5.0, 58.6), (-5.8, 57.5), (-5.6, 56.3),
    (-5.0, 55.3), (-4.9, 54.8), (-3.3, 54.9), (-3.5, 54.3), (-3.0, 53.4), (-4.6, 53.3), (-4.1, 52.8),
    (-5.1, 51.8), (-4.1, 51.6), (-3.0, 51.5), (-4.2, 51.2), (-5.0, 50.6),
]
IRELAND = [(-6.0, 52.2), (-6.1, 53.4), (-6.0, 54.6), (-7.3, 55.3), (-8.5, 54.8), (-10.0, 54.2),
           (-9.9, 53.2), (-10.2, 52.0), (-9.8, 51.6), (-8.4, 51.6)]
CORSICA = [(9.4, 43.0), (9.6, 42.1), (9.2, 41.4), (8.6, 41.8), (8.6, 42.6)]
SARDINIA = [(9.5, 41.2), (9.8, 40.0), (9.6, 39.1), (8.5, 38.9), (8.4, 39.8), (8.2, 40.9), (9.0, 41.1)]
SICILY = [(12.4, 38.1), (13.3, 38.2), (15.6, 38.3), (15.1, 37.3), (15.1, 36.7), (14.3, 37.0), (12.4, 37.6)]
CRETE = [(23.5, 35.7), (24.5, 35.5), (26.3, 35.3), (26.2, 34.9), (24.7, 34.9), (23.5, 35.2)]
CYPRUS = [(32.3, 35.1), (33.0, 35.5), (34.6, 35.8), (34.0, 34.9), (33.0, 34.5), (32.4, 34.6)]
LANDS = [MAINLAND, SCANDINAVIA, AFRICA, BRITAIN, IRELAND, CORSICA, SARDINIA, SICILY, CRETE, CYPRUS]

# ---- realms: name, lon, lat, terrain, population, gold, starting nation ----------------------
REALMS = [
    ("Galicia", -8.0, 42.8, 1, 2, 1, ""), ("Portugal", -8.2, 40.0, 0, 2, 2, ""),
    ("Algarve", -8.0, 37.6, 0, 1, 2, ""), ("Leon", -5.6, 42.3, 1, 2, 2, "Castile"),
    ("Castile", -3.7, 41.3, 1, 3, 2, "Castile"), ("Toledo", -4.0, 39.5, 1, 3, 3, "Castile"),
    ("Andalusia", -5.6, 37.7, 0, 3, 3, ""), ("Granada", -3.4, 37.2, 2, 3, 3, ""),
    ("Murcia", -1.4, 38.1, 1, 2, 2, ""), ("Valencia", -0.7, 39.6, 0, 3, 3, "Aragon"),
    ("Aragon", -0.8, 41.6, 1, 2, 2, "Aragon"), ("Catalonia", 1.8, 41.9, 1, 3, 3, "Aragon"),
    ("Navarre", -1.7, 42.8, 2, 1, 2, ""), ("Asturias", -5.5, 43.3, 2, 1, 1, ""),
    ("Gascony", -0.6, 44.0, 0, 2, 3, "England"), ("Toulouse", 1.6, 43.6, 0, 3, 2, ""),
    ("Provence", 5.8, 43.7, 1, 2, 3, ""), ("Poitou", -0.3, 46.3, 0, 3, 2, ""),
    ("Brittany", -3.0, 48.0, 1, 2, 2, ""), ("Normandy", 0.0, 49.1, 0, 3, 3, "France"),
    ("Paris", 2.4, 48.6, 0, 4, 4, "France"), ("Champagne", 4.2, 49.0, 0, 3, 3, "France"),
    ("Burgundy", 4.8, 47.0, 1, 3, 3, ""), ("Auvergne", 2.9, 45.4, 2, 2, 1, ""),
    ("Dauphine", 5.6, 45.0, 2, 2, 2, ""), ("Flanders", 3.0, 50.8, 0, 4, 4, ""),
    ("Lorraine", 6.2, 48.7, 1, 2, 2, ""), ("Berry", 2.2, 46.9, 0, 2, 2, ""),
    ("Anjou", -0.6, 47.5, 0, 3, 2, ""),
    ("Cornwall", -4.8, 50.4, 1, 1, 2, ""), ("London", -0.2, 51.7, 0, 4, 4, "England"),
    ("Wessex", -2.4, 51.0, 0, 3, 2, "England"), ("Mercia", -1.6, 52.7, 0, 3, 3, ""),
    ("Wales", -3.8, 52.3, 2, 2, 1, ""), ("York", -1.2, 54.0, 1, 3, 2, ""),
    ("Northumbria", -2.3, 55.1, 1, 2, 1, ""), ("Lothian", -3.3, 56.1, 1, 2, 2, ""),
    ("Highlands", -4.5, 57.5, 2, 1, 1, ""),
    ("Leinster", -6.7, 53.0, 1, 2, 2, ""), ("Munster", -8.6, 52.3, 1, 2, 1, ""),
    ("Ulster", -7.0, 54.6, 1, 2, 1, ""), ("Connacht", -9.0, 53.7, 2, 1, 1, ""),
    ("Holland", 5.2, 52.3, 0, 3, 3, ""), ("Brabant", 5.0, 50.9, 0, 3, 4, ""),
    ("Westphalia", 8.0, 51.9, 1, 3, 2, ""), ("Rhineland", 7.0, 50.2, 1, 3, 3, "Empire"),
    ("Saxony", 11.3, 52.0, 0, 3, 2, ""), ("Franconia", 10.5, 49.8, 1, 3, 3, "Empire"),
    ("Swabia", 9.2, 48.3, 1, 3, 2, "Empire"), ("Bavaria", 12.2, 48.4, 1, 3, 2, ""),
    ("Bohemia", 14.6, 49.9, 1, 3, 3, ""), ("Austria", 15.6, 48.0, 1, 3, 2, ""),
    ("Brandenburg", 13.3, 52.6, 0, 2, 2, ""), ("Holstein", 9.8, 54.0, 0, 2, 3, ""),
    ("Pomerania", 15.6, 53.7, 0, 2, 2, ""), ("Helvetia", 8.2, 46.8, 2, 1, 1, ""),
    ("Tyrol", 11.4, 46.9, 2, 1, 2, ""), ("Carinthia", 14.2, 46.7, 2, 2, 1, ""),
    ("Savoy", 6.9, 45.5, 2, 2, 2, ""), ("Lombardy", 9.6, 45.4, 0, 4, 4, ""),
    ("Genoa", 8.9, 44.4, 1, 2, 4, ""), ("Venice", 12.2, 45.5, 0, 3, 4, "Venice"),
    ("Friuli", 13.3, 46.1, 1, 2, 2, "Venice"), ("Tuscany", 11.2, 43.5, 1, 3, 3, ""),
    ("Romagna", 12.1, 44.2, 0, 2, 3, ""), ("Rome", 12.7, 42.1, 1, 3, 3, ""),
    ("Abruzzo", 14.0, 42.0, 2, 2, 1, ""), ("Naples", 14.8, 41.0, 1, 3, 3, "Naples"),
    ("Apulia", 16.6, 40.9, 0, 2, 2, "Naples"), ("Calabria", 16.3, 39.0, 2, 2, 1, "Naples"),
    ("Sicily", 14.2, 37.6, 1, 3, 3, "Aragon"), ("Sardinia", 9.0, 40.0, 1, 1, 2, ""),
    ("Corsica", 9.1, 42.2, 2, 1, 1, ""),
    ("Croatia", 15.7, 45.3, 2, 2, 2, "Hungary"), ("Dalmatia", 16.6, 43.6, 2, 1, 3, "Venice"),
    ("Hungary", 19.0, 47.3, 0, 4, 3, "Hungary"), ("Transylvania", 24.0, 46.5, 2, 2, 2, "Hungary"),
    ("Upper Hungary", 20.5, 48.7, 2, 2, 2, ""), ("Serbia", 20.8, 43.8, 2, 2, 2, ""),
    ("Bosnia", 18.0, 44.2, 2, 2, 1, ""), ("Albania", 20.0, 41.2, 2, 1, 1, ""),
    ("Bulgaria", 25.0, 42.9, 1, 3, 2, ""), ("Wallachia", 25.5, 44.6, 0, 2, 2, ""),
    ("Moldavia", 27.0, 47.0, 1, 2, 1, ""), ("Macedonia", 22.2, 41.1, 2, 2, 2, "Byzantium"),
    ("Thessaly", 22.2, 39.5, 1, 2, 2, ""), ("Epirus", 20.8, 39.6, 2, 1, 1, ""),
    ("Athens", 23.3, 38.4, 1, 2, 3, ""), ("Morea", 22.2, 37.4, 2, 2, 2, ""),
    ("Thrace", 26.0, 41.6, 0, 2, 2, "Byzantium"), ("Constantinople", 28.6, 41.1, 1, 4, 4, "Byzantium"),
    ("Crete", 24.8, 35.2, 2, 2, 2, "Venice"), ("Cyprus", 33.2, 35.1, 1, 2, 3, ""),
    ("Bithynia", 30.3, 40.2, 1, 2, 2, ""), ("Ionia", 27.9, 38.3, 1, 2, 3, ""),
    ("Pamphylia", 30.8, 37.3, 2, 1, 2, ""), ("Rum", 32.7, 38.6, 1, 2, 2, ""),
    ("Paphlagonia", 33.6, 41.2, 2, 1, 1, ""), ("Cappadocia", 35.6, 39.0, 2, 2, 1, ""),
    ("Trebizond", 39.7, 40.7, 2, 1, 3, ""), ("Cilicia", 35.3, 37.2, 1, 2, 3, ""),
    ("Armenia", 41.2, 39.3, 2, 2, 1, ""), ("Syria", 37.2, 35.2, 0, 3, 3, ""),
    ("Palestine", 35.8, 33.6, 1, 2, 2, ""), ("Jazira", 40.5, 35.8, 0, 2, 2, ""),
    ("Georgia", 42.0, 42.2, 2, 2, 2, ""), ("Circassia", 39.5, 44.6, 2, 1, 1, ""),
    ("Morocco", -6.0, 34.2, 1, 3, 2, ""), ("Tlemcen", -1.3, 34.7, 1, 2, 2, ""),
    ("Algiers", 3.0, 35.9, 1, 2, 2, ""), ("Tunis", 9.6, 35.4, 0, 3, 3, ""),
    ("Greater Poland", 17.0, 52.3, 0, 3, 2, "Poland"), ("Cracow", 20.0, 50.2, 1, 3, 2, "Poland"),
    ("Silesia", 17.0, 50.8, 1, 3, 3, ""), ("Masovia", 21.0, 52.4, 0, 2, 1, ""),
    ("Prussia", 20.5, 54.0, 0, 2, 2, ""), ("Lithuania", 24.5, 55.0, 1, 2, 1, ""),
    ("Livonia", 25.0, 57.3, 1, 2, 2, ""), ("Estonia", 25.5, 58.8, 1, 1, 2, ""),
    ("Novgorod", 31.5, 58.5, 1, 3, 3, ""), ("Smolensk", 32.0, 54.8, 1, 2, 2, ""),
    ("Halych", 24.5, 49.6, 1, 2, 2, ""), ("Volhynia", 26.0, 51.5, 1, 2, 1, ""),
    ("Kiev", 30.5, 50.3, 0, 3, 2, ""), ("Crimea", 34.2, 45.2, 1, 2, 3, ""),
    ("Pontic Steppe", 35.5, 47.8, 0, 2, 1, ""), ("Don", 40.5, 48.5, 0, 1, 1, ""),
    ("Moscow", 37.6, 55.8, 1, 2, 1, ""), ("Ryazan", 40.5, 53.5, 1, 2, 1, ""),
    ("Finland", 25.0, 61.5, 1, 1, 1, ""), ("Karelia", 32.0, 61.7, 2, 1, 1, ""),
    ("Norway", 8.5, 61.2, 2, 1, 2, ""), ("Viken", 10.3, 59.3, 1, 2, 2, ""),
    ("Svealand", 16.5, 59.8, 1, 2, 2, ""), ("Gotaland", 14.3, 57.6, 1, 2, 2, ""),
    ("Scania", 13.6, 56.0, 0, 2, 2, "Denmark"), ("Jutland", 9.2, 56.2, 0, 2, 2, "Denmark"),
    ("Norrland", 15.5, 62.4, 2, 1, 1, ""),
]
SEAS = [
    ("Norwegian Sea", 2.0, 62.0), ("North Sea", 3.0, 55.5), ("Kattegat", 11.3, 57.3),
    ("Baltic Sea", 16.5, 55.3), ("Gulf of Bothnia", 20.0, 61.5), ("Eastern Baltic", 20.8, 58.0),
    ("Channel", -2.5, 50.0), ("Irish Sea", -5.0, 53.8), ("Western Ocean", -11.0, 56.0),
    ("Bay of Biscay", -5.0, 45.5), ("Atlantic", -11.0, 39.0), ("Alboran Sea", -3.5, 36.1),
    ("Balearic Sea", 2.5, 40.2), ("Gulf of Lion", 5.5, 42.2), ("Tyrrhenian Sea", 12.0, 39.8),
    ("Adriatic Sea", 15.5, 42.8), ("Ionian Sea", 18.5, 37.5), ("Sicilian Strait", 11.5, 36.6),
    ("Libyan Sea", 20.0, 34.5), ("Aegean Sea", 25.0, 38.6), ("Levantine Sea", 31.0, 34.3),
    ("Black Sea", 31.0, 43.4), ("Eastern Black Sea", 37.5, 43.0), ("Caledonian Sea", -5.0, 60.0),
]
NATIONS = ["England", "France", "Castile", "Aragon", "Empire", "Venice", "Hungary", "Byzantium",
           "Poland", "Denmark", "Naples"]
EXTRA_ADJACENT = [("Black Sea", "Aegean Sea"),   # the Bosporus and Dardanelles
                  ("Aegean Sea", "Ionian Sea")]  # round Cape Malea
ISLANDS = {"Cornwall", "London", "Wessex", "Mercia", "Wales", "York", "Northumbria", "Lothian",
           "Highlands", "Leinster", "Munster", "Ulster", "Connacht", "Sicily", "Sardinia",
           "Corsica", "Crete", "Cyprus"}


def to_xy(lon: float, lat: float) -> tuple[float, float]:
    return (lon - LON0) * SX, (LAT0 - lat) * SY


def land_mask() -> tuple[np.ndarray, np.ndarray]:
    """(land bool grid, polygon index per cell or -1)."""
    ys, xs = np.mgrid[0:H, 0:W]
    lon = (xs + 0.5) / SX + LON0
    lat = LAT0 - (ys + 0.5) / SY
    owner = np.full((H, W), -1)
    for i, ring in enumerate(LANDS):
        poly = shapely.Polygon(ring, [BLACK_SEA] if ring is MAINLAND else None)
        inside = shapely.contains_xy(poly, lon, lat)
        owner[inside & (owner < 0)] = i
    # keep different land masses at least one cell apart (islands stay islands)
    gap = np.zeros((H, W), bool)
    for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
        a = owner[max(0, -dy):H - max(0, dy), max(0, -dx):W - max(0, dx)]
        b = owner[max(0, dy):, max(0, dx):W + min(0, dx) if dx < 0 else W][:a.shape[0], :a.shape[1]]
        clash = (a >= 0) & (b >= 0) & (a != b)
        small = np.where(a > b, a, b)  # remove the cell of the smaller mass (higher index)
        sub = gap[max(0, -dy):H - max(0, dy), max(0, -dx):W - max(0, dx)]
        sub |= clash & (a == small) & (a > 0)
        sub2 = gap[max(0, dy):, max(0, dx):W + min(0, dx) if dx < 0 else W][:a.shape[0], :a.shape[1]]
        sub2 |= clash & (b == small) & (b > 0)
    owner[gap] = -1
    return owner >= 0, owner


def neighbours4(c: int) -> list[int]:
    x, y = c % W, c // W
    out = []
    if x > 0:
        out.append(c - 1)
    if x < W - 1:
        out.append(c + 1)
    if y > 0:
        out.append(c - W)
    if y < H - 1:
        out.append(c + W)
    return out


def components(mask: np.ndarray) -> np.ndarray:
    comp = np.full(W * H, -1)
    flat = mask.ravel()
    k = 0
    for c in range(W * H):
        if flat[c] and comp[c] < 0:
            comp[c] = k
            q = deque([c])
            while q:
                u = q.popleft()
                for v in neighbours4(u):
                    if flat[v] and comp[v] < 0:
                        comp[v] = k
                        q.append(v)
            k += 1
    return comp


def snap(x: float, y: float, mask: np.ndarray) -> int:
    c = int(y) * W + int(x)
    if mask.ravel()[c]:
        return c
    cells = np.flatnonzero(mask.ravel())
    cx, cy = cells % W + 0.5, cells // W + 0.5
    best = int(cells[np.argmin((cx - x) ** 2 + (cy - y) ** 2)])
    return best


def grow(seeds: list[tuple[str, int]], mask: np.ndarray, label: dict[int, str]) -> None:
    """Nearest-seed fill through cells of the mask: every area stays contiguous."""
    heap = []
    pos = {name: (c % W + 0.5, c // W + 0.5) for name, c in seeds}
    for i, (name, c) in enumerate(seeds):
        heapq.heappush(heap, (0.0, i, c, name))
    flat = mask.ravel()
    while heap:
        d, i, c, name = heapq.heappop(heap)
        if c in label:
            continue
        label[c] = name
        sx, sy = pos[name]
        for v in neighbours4(c):
            if flat[v] and v not in label:
                vx, vy = v % W + 0.5, v // W + 0.5
                heapq.heappush(heap, (((vx - sx) ** 2 + (vy - sy) ** 2) ** 0.5, i, v, name))


def build():
    land, _ = land_mask()
    problems: list[str] = []
    realm_seeds = [(n, snap(*to_xy(lon, lat), land)) for n, lon, lat, *_ in REALMS]
    sea_seeds = [(n, snap(*to_xy(lon, lat), ~land)) for n, lon, lat in SEAS]
    # land masses without a realm become sea; waters without a sea become land
    comp = components(land)
    seeded = {comp[c] for _, c in realm_seeds}
    land = land & np.isin(comp, list(seeded)).reshape(H, W)
    scomp = components(~land)
    sseeded = {scomp[c] for _, c in sea_seeds}
    land = land | ~np.isin(scomp, list(sseeded)).reshape(H, W)
    label: dict[int, str] = {}
    grow(realm_seeds, land, label)
    grow(sea_seeds, ~land, label)
    m = new_map("regions", W, H)
    m.name = "Europe 1300 (ARTNES 2)"
    m.meta.update({"ruleset": "artnes", "nations": NATIONS,
                   "projection": {"lon0": LON0, "lat0": LAT0, "cells_per_degree": [SX, SY]}})
    cells: dict[str, list[int]] = {}
    for c, name in label.items():
        cells.setdefault(name, []).append(c)
    m.set_terrain(np.flatnonzero(land.ravel()).tolist(), "land")
    m.set_terrain(np.flatnonzero(~land.ravel()).tolist(), "sea")
    seed_cell = dict(realm_seeds + sea_seeds)
    for n, _lon, _lat, t, p, g, home in REALMS:
        attrs = {"terrain": t, "population": p, "gold": g}
        if home:
            attrs["home"] = home
        if n not in cells:
            problems.append(f"{n}: no cells (seed swallowed)")
            continue
        m.add_area(n, "realm", cells[n], **attrs)
    for n, *_ in SEAS:
        if n not in cells:
            problems.append(f"{n}: no cells")
            continue
        m.add_area(n, "sea", cells[n])
    for a, b in EXTRA_ADJACENT:
        m.set_adjacent(a, b, True)
    for name, area in m.areas.items():
        c = seed_cell[name]
        area.attrs["label_x"], area.attrs["label_y"] = c % W + 0.5, c // W + 0.5
    return m, problems + check(m)


def check(m) -> list[str]:
    problems = []
    g = m.regions()
    kind = {n: a.kind for n, a in m.areas.items()}
    for name, area in m.areas.items():
        cells = set(area.cells)
        start = next(iter(cells))
        seen, q = {start}, deque([start])
        while q:
            u = q.popleft()
            for v in neighbours4(u):
                if v in cells and v not in seen:
                    seen.add(v)
                    q.append(v)
        if seen != cells:
            problems.append(f"{name}: not contiguous")
        nbrs = [g.names[j] for j in g.neighbours(g.parse(name))]
        if not nbrs:
            problems.append(f"{name}: no neighbours")
        if name in ISLANDS and any(kind[x] == "realm" and x not in ISLANDS for x in nbrs):
            problems.append(f"{name} (island) touches mainland realms {sorted(x for x in nbrs if x not in ISLANDS)}")
        if len(area.cells) < 3:
            problems.append(f"{name}: only {len(area.cells)} cells")
    realms = [n for n in kind if kind[n] == "realm"]
    seas = [n for n in kind if kind[n] == "sea"]
    if len(realms) < 60 or len(seas) < 15:
        problems.append(f"{len(realms)} realms and {len(seas)} seas; want 60 and 15")
    for a, b in [("London", "Flanders"), ("Sicily", "Calabria"), ("Leinster", "Wales"),
                 ("Cornwall", "Brittany")]:
        if g.are_neighbours(g.parse(a), g.parse(b)):
            problems.append(f"{a} touches {b} by land")
    for a, b in [("Paris", "Champagne"), ("Castile", "Aragon"), ("Hungary", "Austria"),
                 ("Constantinople", "Thrace"), ("Channel", "North Sea"), ("Jutland", "Holstein"),
                 ("Alboran Sea", "Atlantic")]:
        if not g.are_neighbours(g.parse(a), g.parse(b)):
            problems.append(f"{a} and {b} should be neighbours")
    return problems


if __name__ == "__main__":
    gmap, problems = build()
    if "--show" in sys.argv:
        g = gmap.regions()
        for i, n in enumerate(g.names):
            print(f"{n:20} {len(gmap.areas[n].cells):4}  {', '.join(g.names[j] for j in g.neighbours(i))}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    save_map(gmap, Path(__file__).with_name("europe1300.rsmap"))
    print(f"wrote europe1300.rsmap: {len(gmap.areas)} areas")
