"""A small map with every kind of content, for the map file round-trip tests."""

from __future__ import annotations

from engine.map import GameMap, Label, new_map

GRIDS = [("hex", {"orientation": "flat"}), ("hex", {"orientation": "pointy"}), ("square", {}),
         ("regions", {}), ("square", {"neighbours": 8}), ("hex", {"orientation": "flat", "wrap_x": True})]
GRID_IDS = ["hex-flat", "hex-pointy", "square", "regions", "square8", "hex-wrap"]


def sample_map(kind: str = "hex", **grid_opts) -> GameMap:
    # tests/data/maps/tiled182_* are this map exported and re-saved by Tiled 1.8.2
    # (tiled --export-map); change the map and those files must be made again.
    m = new_map(kind, 8, 6, "ocean", **grid_opts)
    m.name = "Sample — ünïcode"
    m.set_terrain([1, 2, 3, 9, 10], "forest")
    m.set_terrain([11, 12, 20], "hills")
    m.terrain_code("unused terrain")  # palette entries without cells survive too
    g = m.grid
    river = [9]
    for _ in range(4):
        river.append(max(n for n in g.neighbours(river[-1]) if n not in river))
    for a, b in zip(river, river[1:], strict=False):
        m.add_link("river", a, b)
    m.add_link("river", 9, min(g.neighbours(9)))  # a fork
    m.add_link("road", 1, g.neighbours(1)[0])
    m.add_link("canal", 30, g.neighbours(30)[0])  # any link kind, not just rivers and roads
    turia = m.add_site(10, "city", "Turia", population=800, capital=True, ratio=0.5, tags=["port", "walls"],
                       none=None)
    turia.attrs.update({"id": "clash", "cell": "clash too", "cells": "a", "size@json": 1})
    m.add_site(13, "port", "")
    m.add_site(40, "ruin", "Old <Keep> & \"Co\"", site_id=17)
    m.add_area("North", "realm", [0, 1, 2, 8, 9], owner="red", nested={"a": [1, 2]})
    m.add_area("Empty", "sea")
    m.add_area("Split", "realm", [22, 46]).attrs.update(cells="x", id=4)
    m.labels.append(Label("Mare Nostrum", 3.3, 2.7, 1.5))
    m.labels.append(Label("second\nline", 0.1, 0.2))
    m.meta = {"notation": "atlantis", "turn": 3, "nothing": None, "name": "meta-name", "f": 2.0}
    m.cell_attrs = {4: {"gold": 5}, 7: {"note": "x"}}
    m.adjacency_added = {("Empty", "North")}
    m.adjacency_removed = {("North", "Split")}
    return m
