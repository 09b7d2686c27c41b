"""Property tests of engine.topology: adjacency, directions, distance, labels."""

from __future__ import annotations

from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.topology import HexGrid, RegionGraph, SquareGrid, topology_from_dict

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE",
            "SE": "NW"}


@st.composite
def hex_grids(draw):
    orientation = draw(st.sampled_from(["flat", "pointy"]))
    wrap = orientation == "flat" and draw(st.booleans())
    width = draw(st.integers(1, 9))
    if wrap:
        width = 2 * draw(st.integers(1, 5))
    return HexGrid(width, draw(st.integers(1, 9)), orientation, wrap)


@st.composite
def square_grids(draw):
    return SquareGrid(draw(st.integers(1, 9)), draw(st.integers(1, 9)),
                      draw(st.sampled_from([4, 8])), draw(st.booleans()))


grids = st.one_of(hex_grids(), square_grids())


@st.composite
def grid_and_cells(draw, k=3):
    g = draw(grids)
    return g, [draw(st.integers(0, len(g) - 1)) for _ in range(k)]


def bfs(g, start):
    dist = {start: 0}
    q = deque([start])
    while q:
        c = q.popleft()
        for n in g.neighbours(c):
            if n not in dist:
                dist[n] = dist[c] + 1
                q.append(n)
    return dist


@FAST
@given(grids)
def test_adjacency_is_symmetric_and_within_bounds(g):
    for c in g.cells():
        ns = g.neighbours(c)
        assert c not in ns
        for n in ns:
            assert 0 <= n < len(g)
            assert c in g.neighbours(n), (g, c, n)
            assert g.are_neighbours(c, n)


@FAST
@given(grids)
def test_neighbour_counts(g):
    full = 6 if g.kind == "hex" else g.n_neighbours
    for c in g.cells():
        assert len(set(g.neighbours(c))) <= full


@FAST
@given(grids)
def test_step_and_opposite_step_are_inverse(g):
    for c in g.cells():
        for d in g.directions:
            n = g.step(c, d)
            if n is None or n == c:
                continue
            assert g.step(n, OPPOSITE[d]) == c, (g, c, d, n)
            assert g.step(c, g.direction(c, n)) == n
    assert g.step(0, "XYZ") is None


@FAST
@given(grids)
def test_neighbours_follow_directions(g):
    for c in g.cells():
        via_steps = [g.step(c, d) for d in g.directions]
        assert g.neighbours(c) == [n for n in via_steps if n is not None and n != c]


@FAST
@given(grids)
def test_distance_is_the_bfs_path_length(g):
    for a in g.cells():
        for b, d in bfs(g, a).items():
            assert g.distance(a, b) == d, (g, a, b)
    a, b = 0, len(g) - 1
    path = g.path(a, b)
    assert path is not None and path[0] == a and path[-1] == b
    assert len(path) - 1 == g.distance(a, b)
    assert all(g.are_neighbours(x, y) for x, y in zip(path, path[1:], strict=False))


@FAST
@given(grid_and_cells())
def test_distance_is_a_metric(gc):
    g, (a, b, c) = gc
    assert g.distance(a, a) == 0
    assert (g.distance(a, b) == 0) == (a == b)
    assert g.distance(a, b) == g.distance(b, a)
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@FAST
@given(grid_and_cells(k=1), st.integers(0, 4))
def test_within_is_the_distance_ball(gc, r):
    g, (a,) = gc
    assert sorted(g.within(a, r)) == [c for c in g.cells() if g.distance(a, c) <= r]


@FAST
@given(grids)
def test_labels_round_trip_in_every_notation(g):
    for c in g.cells():
        for notation in g.notations:
            label = g.label(c, notation)
            assert g.parse(label, notation) == c, (g, c, notation, label)
            assert g.parse(label) == c, (g, c, notation, label)  # notation guessed
        assert g.parse(g.label(c)) == c


@FAST
@given(hex_grids())
def test_atlantis_coordinates_have_even_sum(g):
    if g.orientation != "flat":
        return
    for c in g.cells():
        x, y = g.atlantis(c)
        assert (x + y) % 2 == 0
        assert g.from_atlantis(x, y) == c
        assert g.from_atlantis(x, y + 1) is None
        assert g.label(c, "atlantis") == f"({x},{y})"


@FAST
@given(hex_grids())
def test_ccrr_is_one_based_and_padded(g):
    for c in g.cells():
        col, row = g.colrow(c)
        label = g.label(c, "ccrr")
        assert len(label) in (4, 6)
        half = len(label) // 2
        assert (int(label[:half]), int(label[half:])) == (col + 1, row + 1)
    assert g.parse("0000") is None
    assert g.parse("9999") is None or (g.width >= 99 and g.height >= 99)


@FAST
@given(grids, st.text(max_size=12))
def test_parse_never_raises_and_gives_a_cell_or_none(g, text):
    for notation in (None, *g.notations):
        c = g.parse(text, notation)
        assert c is None or 0 <= c < len(g)


@FAST
@given(grids)
def test_to_dict_round_trip(g):
    h = topology_from_dict(g.to_dict())
    assert type(h) is type(g) and h.to_dict() == g.to_dict()
    assert [h.neighbours(c) for c in h.cells()] == [g.neighbours(c) for c in g.cells()]


@FAST
@given(grids)
def test_geometry_one_centre_per_cell(g):
    arr = g.centers_array()
    assert arr.shape == (len(g), 2)
    for c in g.cells():
        assert tuple(arr[c]) == g.center(c)
        assert len(g.corners(c)) == (6 if g.kind == "hex" else 4)


# ---- region graphs ----------------------------------------------------------------------

names = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x17F,
                                       blacklist_categories=("Cc", "Cs")),
                min_size=1, max_size=10).filter(lambda s: s.replace("_", " ").strip())


@st.composite
def region_graphs(draw):
    ns = draw(st.lists(names, min_size=1, max_size=10,
                       unique_by=lambda s: " ".join(s.replace("_", " ").split()).casefold()))
    n = len(ns)
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20))
    return RegionGraph(ns, [(ns[a], ns[b]) for a, b in pairs if a != b])


@FAST
@given(region_graphs())
def test_region_adjacency_symmetric_and_distance_is_bfs(g):
    for a in g.cells():
        reach = bfs(g, a)
        for b in g.cells():
            assert g.are_neighbours(a, b) == g.are_neighbours(b, a)
            assert g.distance(a, b) == reach.get(b, 10**9)
            assert g.distance(a, b) == g.distance(b, a)
        for n in g.neighbours(a):
            assert g.step(a, g.direction(a, n)) == n


@FAST
@given(region_graphs(), st.data())
def test_region_triangle_inequality(g, data):
    a, b, c = (data.draw(st.integers(0, len(g) - 1)) for _ in range(3))
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@FAST
@given(region_graphs())
def test_region_labels_round_trip(g):
    for c in g.cells():
        label = g.label(c)
        assert g.parse(label) == c, (g.names, label)
        assert g.parse(label.casefold()) == c
        assert g.parse(label.replace(" ", "_")) == c


@FAST
@given(region_graphs())
def test_region_to_dict_round_trip(g):
    h = topology_from_dict(g.to_dict())
    assert h.names == g.names and h.edges() == g.edges()


def test_region_prefix_exact_beats_prefix_and_ambiguous_is_none():
    g = RegionGraph(["Ab", "Abc", "Abd", "North Sea"])
    assert g.parse("ab") == 0
    assert g.match("abc") == [1]
    assert g.match("a") == [0, 1, 2] and g.parse("a") is None
    assert g.parse("north_sea") == 3 and g.parse("NORTH   SEA") == 3
    assert g.parse("") is None and g.match("zz") == []


def test_region_disconnected_distance_is_large():
    g = RegionGraph(["A", "B"])
    assert g.distance(0, 1) == 10**9 and g.path(0, 1) is None


@FAST
@given(st.integers(100, 400), st.integers(1, 3), st.sampled_from(["flat", "pointy"]))
def test_wide_grids_use_three_digit_ccrr(width, height, orientation):
    g = HexGrid(width, height, orientation)
    for c in (0, width - 1, len(g) - 1, len(g) // 2):
        label = g.label(c, "ccrr")
        assert len(label) == 6 and g.parse(label) == c
    assert g.label(0, "ccrr") == "001001"


def test_thousand_wide_hex_grid_uses_four_digit_ccrr():
    g = HexGrid(1200, 2)
    assert g.label(1199, "ccrr") == "12000001" and g.parse("12000001") == 1199
    assert g.label(0, "ccrr") == "00010001"
