"""Hex ids and geometry: round trips, neighbors, distance, hexsides, lines, rings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.hexkit.geometry import (
    DIRECTIONS,
    Cube,
    HexGrid,
    cube_distance,
    cube_line,
    cube_ring,
    cube_to_evenq,
    cube_to_oddq,
    evenq_to_cube,
    hexside,
    oddq_to_cube,
)
from engines.hexkit.hexid import Numbering

coord = st.integers(-200, 200)
parity = st.sampled_from(["odd", "even"])
GRIDS = {p: HexGrid(p, (1, 12), (1, 10)) for p in ("odd", "even")}  # type: ignore[misc]


# cube_line as first written, in exact Fractions: the reference its integer form must equal
def _cube_round(q: Fraction, r: Fraction, s: Fraction) -> Cube:
    """Red Blob's cube rounding, exact.  Ties are resolved by the caller's nudge."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Cube(int(rq), int(rr), int(rs))


def _cube_line_fraction(a: Cube, b: Cube) -> list[tuple[Cube, ...]]:
    """:func:`cube_line` in exact Fractions, as first written (the tests' reference)."""
    n = cube_distance(a, b)
    if n == 0:
        return [(a,)]
    eps = Fraction(1, 1000 * n)
    out: list[tuple[Cube, ...]] = []
    for i in range(n + 1):
        t = Fraction(i, n)
        q = a.q + (b.q - a.q) * t
        r = a.r + (b.r - a.r) * t
        s = a.s + (b.s - a.s) * t
        plus = _cube_round(q + eps, r + 2 * eps, s - 3 * eps)
        minus = _cube_round(q - eps, r - 2 * eps, s + 3 * eps)
        out.append((plus,) if plus == minus else tuple(sorted((plus, minus))))
    return out



def cubes(span: int = 200) -> st.SearchStrategy[Cube]:
    c = st.integers(-span, span)
    return st.builds(lambda q, r: Cube(q, r, -q - r), c, c)


def grid_hex(p: str) -> st.SearchStrategy[str]:
    return st.sampled_from(GRIDS[p].ids())


# --- ids ---------------------------------------------------------------------------------


@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_id_round_trip(cd: int, rd: int, data: st.DataObject) -> None:
    n = Numbering(cd, rd)
    col = data.draw(st.integers(0, 10**cd - 1))
    row = data.draw(st.integers(0, 10**rd - 1))
    text = n.format(col, row)
    assert len(text) == cd + rd
    assert n.parse(text) == (col, row)


def test_id_examples_and_refusals() -> None:
    n = Numbering()
    assert n.parse("2510") == (25, 10)
    assert n.format(3, 7) == "0307"
    assert Numbering(3, 2).format(104, 5) == "10405"
    for bad in ("251", "25100", "25a0", " 2510"):
        with pytest.raises(ValueError):
            n.parse(bad)
    with pytest.raises(ValueError):
        n.format(100, 1)


def test_ranges() -> None:
    n = Numbering()
    assert n.parse_range("3201-3205") == ["3201", "3202", "3203", "3204", "3205"]
    assert n.parse_range("0105-0405") == ["0105", "0205", "0305", "0405"]
    assert n.parse_range("0303-0301") == ["0303", "0302", "0301"]
    assert n.parse_range("1227") == ["1227"]
    assert len(n.parse_range("3201-3221")) == 21
    with pytest.raises(ValueError, match="column or the row"):
        n.parse_range("0101-0202")
    with pytest.raises(ValueError):
        n.parse_range("01-02")


# --- offset and cube ------------------------------------------------------------------------


@given(coord, coord)
def test_oddq_round_trip(col: int, row: int) -> None:
    c = oddq_to_cube(col, row)
    assert c.q + c.r + c.s == 0
    assert cube_to_oddq(c) == (col, row)


@given(coord, coord)
def test_evenq_round_trip(col: int, row: int) -> None:
    c = evenq_to_cube(col, row)
    assert c.q + c.r + c.s == 0
    assert cube_to_evenq(c) == (col, row)


@given(cubes())
def test_cube_round_trip_both_parities(c: Cube) -> None:
    assert oddq_to_cube(*cube_to_oddq(c)) == c
    assert evenq_to_cube(*cube_to_evenq(c)) == c


@given(parity, st.data())
def test_grid_id_cube_round_trip(p: str, data: st.DataObject) -> None:
    g = GRIDS[p]
    h = data.draw(grid_hex(p))
    assert g.from_cube(g.to_cube(h)) == h
    assert g.hex_id(*g.coords_of(h)) == h


def test_neighbors_as_printed_maps_show_them() -> None:
    # even columns shifted down: column 5 is high, so its NE/SE are rows 4 and 5 of col 6
    even = GRIDS["even"]
    assert even.neighbors("0505") == ["0504", "0604", "0605", "0506", "0405", "0404"]
    assert even.neighbors("0405") == ["0404", "0505", "0506", "0406", "0306", "0305"]
    # odd columns shifted down: the other way round
    odd = GRIDS["odd"]
    assert odd.neighbors("0505") == ["0504", "0605", "0606", "0506", "0406", "0405"]
    assert odd.neighbors("0405") == ["0404", "0504", "0505", "0406", "0305", "0304"]
    # edges of the grid drop off-grid neighbors but keep the order
    assert even.neighbors("0101") == ["0201", "0102"]


@given(parity, st.data())
def test_neighbor_symmetry_and_order(p: str, data: st.DataObject) -> None:
    g = GRIDS[p]
    a = data.draw(grid_hex(p))
    for b in g.neighbors(a):
        assert a in g.neighbors(b)
        assert g.distance(a, b) == 1
        assert g.adjacent(a, b)
    for d in range(6):
        b2 = g.neighbor(a, d)
        if b2 is not None:
            assert g.direction(a, b2) == d
            assert g.direction(b2, a) == (d + 3) % 6
    assert len(set(g.neighbors(a))) == len(g.neighbors(a))


@given(cubes(), cubes(), cubes())
def test_distance_is_a_metric(a: Cube, b: Cube, c: Cube) -> None:
    assert cube_distance(a, a) == 0
    assert cube_distance(a, b) == cube_distance(b, a)
    assert (cube_distance(a, b) == 0) == (a == b)
    assert cube_distance(a, c) <= cube_distance(a, b) + cube_distance(b, c)


@given(cubes(), st.integers(0, 6))
def test_distance_matches_steps(a: Cube, k: int) -> None:
    # k steps in one direction is distance k; a 120-degree turn keeps it at max
    assert cube_distance(a, a + DIRECTIONS[1].scale(k)) == k
    far = a + DIRECTIONS[0].scale(k) + DIRECTIONS[2].scale(k)
    assert cube_distance(a, far) == k


@given(parity, st.data())
def test_hexside_identity_from_both_sides(p: str, data: st.DataObject) -> None:
    g = GRIDS[p]
    a = data.draw(grid_hex(p))
    b = data.draw(st.sampled_from(g.neighbors(a)))
    assert g.hexside(a, b) == g.hexside(b, a) == hexside(b, a)
    assert g.hexside(a, b)[0] < g.hexside(a, b)[1]
    with pytest.raises(ValueError):
        hexside(a, a)


def test_hexside_of_non_adjacent_hexes_refused() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        GRIDS["even"].hexside("0101", "0103")


@given(cubes(), st.integers(0, 8))
def test_ring_and_range_sizes(c: Cube, r: int) -> None:
    ring = cube_ring(c, r)
    assert len(ring) == (6 * r if r else 1)
    assert len(set(ring)) == len(ring)
    assert all(cube_distance(c, h) == r for h in ring)
    for x, y in zip(ring, ring[1:] + ring[:1], strict=True):
        assert r == 0 or cube_distance(x, y) == 1


def test_within_and_ring_on_grid() -> None:
    g = HexGrid("even", (1, 30), (1, 30))
    assert len(g.within("1515", 3)) == 37
    assert g.within("1515", 3) == sorted(g.within("1515", 3))
    assert g.ring("1515", 1) == g.neighbors("1515")
    assert set(g.within("1515", 2)) == {"1515", *g.ring("1515", 1), *g.ring("1515", 2)}
    # clipped at the corner
    assert set(g.within("0101", 1)) == {"0101", "0201", "0102"}


@given(cubes(25), cubes(25))
def test_line_properties(a: Cube, b: Cube) -> None:
    steps = cube_line(a, b)
    n = cube_distance(a, b)
    assert len(steps) == n + 1
    assert steps[0] == (a,) and steps[-1] == (b,)
    for i, step in enumerate(steps):
        assert 1 <= len(step) <= 2
        for h in step:
            assert cube_distance(a, h) + cube_distance(h, b) == n or len(step) == 2
        if len(step) == 2:
            assert cube_distance(step[0], step[1]) == 1
        if i:
            for h in step:
                assert any(cube_distance(h, p) <= 1 for p in steps[i - 1])
    # a line has no preferred direction
    assert [tuple(sorted(s)) for s in cube_line(b, a)] == [
        tuple(sorted(s)) for s in reversed(steps)]


@given(cubes(200), cubes(200))
def test_line_in_integers_is_the_fraction_line(a: Cube, b: Cube) -> None:
    assert cube_line(a, b) == _cube_line_fraction(a, b)


def test_line_in_integers_is_the_fraction_line_near_a_hex() -> None:
    """Every line from one hex to each hex within 12 of it (the short lines a game
    draws, hexside cases included), and from odd starts."""
    hexsides = 0
    for a in (Cube(0, 0, 0), Cube(3, -7, 4), Cube(-5, 2, 3)):
        for radius in range(13):
            for b in cube_ring(a, radius):
                got = cube_line(a, b)
                assert got == _cube_line_fraction(a, b), (a, b)
                hexsides += sum(len(step) == 2 for step in got)
    assert hexsides > 100


def test_line_along_a_hexside_reports_both_hexes() -> None:
    g = GRIDS["even"]
    # same row, two columns apart with the column between shifted down: the line runs
    # along the hexside between 0601 and 0602
    steps = g.line("0502", "0702")
    assert g.distance("0502", "0702") == 2
    assert steps == [("0502",), ("0601", "0602"), ("0702",)]
    assert g.line("0702", "0502") == [("0702",), ("0601", "0602"), ("0502",)]
    # two columns east and one row down is a straight line of hexes
    assert g.line("0502", "0703") == [("0502",), ("0602",), ("0703",)]
    assert g.line("0505", "0508") == [("0505",), ("0506",), ("0507",), ("0508",)]


def test_bad_grid_parity_refused() -> None:
    with pytest.raises(ValueError):
        HexGrid("middle", (1, 2), (1, 2))  # type: ignore[arg-type]
