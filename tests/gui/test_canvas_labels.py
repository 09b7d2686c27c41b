"""Site names placed so that none overlaps another name or a marker (app/canvas/labels.py),
on a toy layout and on the crowded east of the North America map as the PNG export and the
canvas draw it (both through SitesLayer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.canvas.labels import importance, place_labels

ROOT = Path(__file__).resolve().parents[2]


def test_the_bigger_city_keeps_the_place_below_and_the_other_moves_or_goes():
    points = [(0.0, 0.0), (0.0, 20.0), (300.0, 0.0)]
    sizes = [(60.0, 13.0), (60.0, 13.0), (40.0, 13.0)]
    attrs = [{"population": 20_000}, {"population": 90_000}, {}]
    order = sorted(range(3), key=lambda k: (importance("city", attrs[k]), k))
    assert order == [1, 0, 2]
    placed = place_labels(points, sizes, order, marker=5.0)
    assert placed[1] == (0.0, 12.0)            # the big city: below its marker
    assert placed[0][1] < 0 or placed[0][0] != 0  # the small one: above or to a side
    assert placed[2] == (0.0, 12.0)            # alone: where it always was
    # no room anywhere (markers all around): the name is left out
    ring = [(0.0, 0.0)] + [(dx, dy) for dx in (-40.0, 0.0, 40.0) for dy in (-12.0, 12.0)] + [(-40.0, 0), (40.0, 0)]
    placed = place_labels(ring, [(60.0, 13.0)] + [(0.0, 0.0)] * (len(ring) - 1), [0], marker=5.0)
    assert placed == {}
    assert importance("city", {"major": True, "population": 1}) < importance("city", {"population": 10**6})


@pytest.mark.gui
def test_no_two_names_overlap_on_the_north_america_political_map():
    from PySide6.QtGui import QFont, QFontMetrics

    from app.canvas.overlays import NAME_PX
    from app.canvas.scene import MapScene
    from app.render import ensure_app
    from engine.mapfile import load_map

    ensure_app()
    gmap = load_map(ROOT / "maps" / "cc" / "north-america.rsmap")
    scene = MapScene(gmap)
    layer = scene.sites
    layer._index()
    ppu = 20.0  # about the export's scale: names shown, the east crowded
    size = 5.0 / ppu
    placed = layer.name_offsets(ppu, size)
    font = QFont()
    font.setPixelSize(NAME_PX)
    fm = QFontMetrics(font)
    boxes = []
    for i, (dx, dy) in placed.items():
        site = gmap.sites[layer._ids[i]]
        x, y = layer._pos[i] * ppu
        w, h = fm.horizontalAdvance(site.name) + 2, fm.height()
        boxes.append((x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2))
    for k, a in enumerate(boxes):
        for b in boxes[k + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    named = [i for i, sid in enumerate(layer._ids) if gmap.sites[sid].name]
    majors = [i for i in named if gmap.sites[layer._ids[i]].attrs.get("major")]
    assert set(majors) <= set(placed)  # every major city keeps its name
    assert len(placed) < len(named)    # and some small ones in the crowd give way
    assert layer.name_offsets(ppu, size) is placed  # once a zoom, the same for every tile
    scene.detach()


def test_the_legend_counts_troops_only_on_a_map_that_shows_them():
    from app.canvas.political import legend_entries
    from engine.political import PoliticalMap, Side, Stack

    sides = [Side(1, "Reds", "#ff0000"), Side(2, "Blues", "#0000ff")]
    held = PoliticalMap(owners={1: 1, 2: 1, 3: 2}, sides=sides)
    # Continental Conquest keeps convoys off the political map: no "0 troops" for everyone
    assert [t for _c, t in legend_entries(held)] == ["Reds (2 held)", "Blues (1 held)"]
    held.stacks = [Stack(1, 1, "F", 5)]
    assert [t for _c, t in legend_entries(held)] == ["Reds (2 held, 5 troops)", "Blues (1 held, 0 troops)"]
