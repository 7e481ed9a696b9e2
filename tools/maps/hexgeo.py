"""Geometry helpers for building maps offline: projections, fits, rasters, paths.

Pure standard library, floats allowed: these scripts run once, offline, and what they
compute is committed as data (the game never computes geography).

"Hex space" is the flat-top grid laid out with a hex's flat-to-flat width as the unit:
the centre of column ``c``, row ``r`` is ``(c * sqrt(3)/2, r + 0.5)`` for a column pushed
half a hex down and ``(c * sqrt(3)/2, r)`` otherwise; ``y`` grows downward (south on the
printed map).  Distances in hex space are in hexes.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Sequence

SQ3 = math.sqrt(3.0)
SIDE = 1.0 / SQ3  # centre-to-corner of a hex one unit wide across the flats

Point = tuple[float, float]


# --- hex space -------------------------------------------------------------------------


def shifted(col: int, parity: str) -> bool:
    """Whether column ``col`` is pushed half a hex down (even-q: even columns)."""
    return (col % 2 == 0) if parity == "even" else (col % 2 == 1)


def center(col: int, row: int, parity: str) -> Point:
    return (col * SQ3 / 2.0, row + (0.5 if shifted(col, parity) else 0.0))


def nearest(x: float, y: float, parity: str) -> tuple[int, int, float]:
    """The (col, row) whose centre is nearest to hex-space point ``(x, y)``, and the distance."""
    c0 = round(x / (SQ3 / 2.0))
    best: tuple[float, int, int] | None = None
    for c in (c0 - 1, c0, c0 + 1):
        r0 = round(y - (0.5 if shifted(c, parity) else 0.0))
        for r in (r0 - 1, r0, r0 + 1):
            cx, cy = center(c, r, parity)
            d = math.hypot(cx - x, cy - y)
            if best is None or d < best[0]:
                best = (d, c, r)
    assert best is not None
    return best[1], best[2], best[0]


def corners(col: int, row: int, parity: str) -> list[Point]:
    cx, cy = center(col, row, parity)
    return [(cx + SIDE * math.cos(math.radians(60 * k)), cy + SIDE * math.sin(math.radians(60 * k)))
            for k in range(6)]


def vkey(p: Point) -> tuple[int, int]:
    return (round(p[0] * 10000), round(p[1] * 10000))


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def sample_points(col: int, row: int, parity: str, rings: int = 3) -> list[Point]:
    """Points spread over a hex (centre plus ``rings`` rings of six), for area fractions."""
    cx, cy = center(col, row, parity)
    pts = [(cx, cy)]
    for k in range(1, rings + 1):
        rad = 0.45 * k / rings
        n = 6 * k
        for j in range(n):
            a = 2 * math.pi * j / n + 0.3
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def seg_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


# --- projections and fits ----------------------------------------------------------------


def local_km(lat: float, lon: float, lat0: float, lon0: float) -> Point:
    """Equirectangular km east and north of (lat0, lon0), scaled at the point's latitude."""
    return ((lon - lon0) * 111.32 * math.cos(math.radians(lat)), (lat - lat0) * 110.57)


def local_km_inverse(x: float, y: float, lat0: float, lon0: float) -> tuple[float, float]:
    lat = lat0 + y / 110.57
    lon = lon0 + x / (111.32 * math.cos(math.radians(lat)))
    return lat, lon


def solve3(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a 3x3 linear system by Gaussian elimination with pivoting."""
    m = [[*row[:], bv] for row, bv in zip(a, b, strict=True)]
    n = 3
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(i + 1, n):
            f = m[k][i] / m[i][i]
            for j in range(i, n + 1):
                m[k][j] -= f * m[i][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def fit_affine(src: Sequence[Point], dst: Sequence[Point]) -> tuple[list[float], list[float]]:
    """Least-squares affine ``dst = A * (x, y, 1)``: returns the X row and the Y row."""
    ata = [[0.0] * 3 for _ in range(3)]
    atx = [0.0] * 3
    aty = [0.0] * 3
    for (x, y), (u, v) in zip(src, dst, strict=True):
        row = (x, y, 1.0)
        for i in range(3):
            for j in range(3):
                ata[i][j] += row[i] * row[j]
            atx[i] += row[i] * u
            aty[i] += row[i] * v
    return solve3(ata, atx), solve3(ata, aty)


def apply_affine(ax: Sequence[float], ay: Sequence[float], p: Point) -> Point:
    x, y = p
    return (ax[0] * x + ax[1] * y + ax[2], ay[0] * x + ay[1] * y + ay[2])


def invert_affine(ax: Sequence[float], ay: Sequence[float]) -> tuple[list[float], list[float]]:
    a, b, c = ax
    d, e, f = ay
    det = a * e - b * d
    ia, ib = e / det, -b / det
    id_, ie = -d / det, a / det
    return [ia, ib, -(ia * c + ib * f)], [id_, ie, -(id_ * c + ie * f)]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a small dense linear system by Gaussian elimination with pivoting."""
    n = len(b)
    m = [[*row[:], bv] for row, bv in zip(a, b, strict=True)]
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(i + 1, n):
            f = m[k][i] / m[i][i]
            for j in range(i, n + 1):
                m[k][j] -= f * m[i][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


class RubberSheet:
    """A smooth local correction that moves fitted anchor positions onto their hexes.

    Gaussian radial basis functions of width ``sigma`` hexes, solved so that every anchor
    lands exactly on its printed hex; the correction fades to nothing a few ``sigma`` away.
    """

    def __init__(self, fitted: Sequence[Point], target: Sequence[Point], sigma: float) -> None:
        self.pts = list(fitted)
        self.sigma = sigma
        phi = [[self._phi(p, q) for q in self.pts] for p in self.pts]
        self.cx = solve(phi, [t[0] - f[0] for f, t in zip(fitted, target, strict=True)])
        self.cy = solve(phi, [t[1] - f[1] for f, t in zip(fitted, target, strict=True)])

    def _phi(self, p: Point, q: Point) -> float:
        d2 = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
        return math.exp(-d2 / (2 * self.sigma ** 2))

    def shift(self, p: Point) -> Point:
        ws = [self._phi(p, q) for q in self.pts]
        return (sum(w * c for w, c in zip(ws, self.cx, strict=True)),
                sum(w * c for w, c in zip(ws, self.cy, strict=True)))

    def forward(self, p: Point) -> Point:
        dx, dy = self.shift(p)
        return (p[0] + dx, p[1] + dy)

    def inverse(self, q: Point) -> Point:
        p = q
        for _ in range(30):
            dx, dy = self.shift(p)
            p = (q[0] - dx, q[1] - dy)
        return p


# --- raster masks of polygons ----------------------------------------------------------


class Raster:
    """A lon/lat grid of small integers filled from polygons by even-odd scanlines."""

    def __init__(self, lon0: float, lat0: float, lon1: float, lat1: float, step: float) -> None:
        self.lon0, self.lat0, self.step = lon0, lat0, step
        self.nx = math.ceil((lon1 - lon0) / step)
        self.ny = math.ceil((lat1 - lat0) / step)
        self.cells = [bytearray(self.nx) for _ in range(self.ny)]

    def fill(self, ring: Sequence[Sequence[float]], value: int) -> None:
        """Set every cell whose centre lies inside ``ring`` (lon, lat pairs) to ``value``."""
        edges = list(itertools.pairwise([*ring, ring[0]]))
        lats = [p[1] for p in ring]
        j0 = max(0, int((min(lats) - self.lat0) / self.step))
        j1 = min(self.ny - 1, int((max(lats) - self.lat0) / self.step) + 1)
        for j in range(j0, j1 + 1):
            y = self.lat0 + (j + 0.5) * self.step
            xs = []
            for (x1, y1), (x2, y2) in edges:
                if (y1 <= y < y2) or (y2 <= y < y1):
                    xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
            xs.sort()
            row = self.cells[j]
            for a, b in zip(xs[::2], xs[1::2], strict=False):
                i0 = max(0, math.ceil((a - self.lon0) / self.step - 0.5))
                i1 = min(self.nx - 1, math.floor((b - self.lon0) / self.step - 0.5))
                for i in range(i0, i1 + 1):
                    row[i] = value

    def at(self, lat: float, lon: float) -> int:
        i = int((lon - self.lon0) / self.step)
        j = int((lat - self.lat0) / self.step)
        if 0 <= i < self.nx and 0 <= j < self.ny:
            return self.cells[j][i]
        return 0


def point_in_ring(lat: float, lon: float, ring: Sequence[Sequence[float]]) -> bool:
    """Even-odd test for a (lon, lat) ring."""
    inside = False
    for (x1, y1), (x2, y2) in itertools.pairwise([*ring, ring[0]]):
        if (y1 <= lat < y2) or (y2 <= lat < y1):
            x = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
            if x > lon:
                inside = not inside
    return inside


# --- graphs: hexside chains for rivers, hex paths for rails and roads --------------------


class VertexGraph:
    """The corners and sides of every hex in ``cells`` (a set of (col, row))."""

    def __init__(self, cells: Iterable[tuple[int, int]], parity: str) -> None:
        self.pos: dict[tuple[int, int], Point] = {}
        self.adj: dict[tuple[int, int], set[tuple[int, int]]] = {}
        self.side_hexes: dict[frozenset[tuple[int, int]], list[tuple[int, int]]] = {}
        for col, row in cells:
            cs = corners(col, row, parity)
            keys = [vkey(p) for p in cs]
            for k, p in zip(keys, cs, strict=True):
                self.pos.setdefault(k, p)
            for i in range(6):
                a, b = keys[i], keys[(i + 1) % 6]
                self.adj.setdefault(a, set()).add(b)
                self.adj.setdefault(b, set()).add(a)
                self.side_hexes.setdefault(frozenset((a, b)), []).append((col, row))

    def nearest_vertex(self, p: Point) -> tuple[int, int]:
        return min(self.pos, key=lambda k: math.dist(self.pos[k], p))

    def path(self, a: tuple[int, int], b: tuple[int, int], guide: tuple[Point, Point],
             avoid: Callable[[frozenset[tuple[int, int]]], bool] | None = None,
             ) -> list[tuple[int, int]]:
        """Cheapest vertex path from ``a`` to ``b`` hugging the segment ``guide``."""
        ga, gb = guide
        dist = {a: 0.0}
        prev: dict[tuple[int, int], tuple[int, int]] = {}
        heap = [(0.0, a)]
        while heap:
            d, v = heapq.heappop(heap)
            if v == b:
                break
            if d > dist[v]:
                continue
            for w in sorted(self.adj[v]):
                side = frozenset((v, w))
                if avoid is not None and avoid(side):
                    continue
                pv, pw = self.pos[v], self.pos[w]
                mid = ((pv[0] + pw[0]) / 2, (pv[1] + pw[1]) / 2)
                cost = SIDE * (1.0 + 6.0 * seg_dist(mid, ga, gb))
                nd = d + cost
                if nd < dist.get(w, math.inf):
                    dist[w] = nd
                    prev[w] = v
                    heapq.heappush(heap, (nd, w))
        if b not in dist:
            return [a]
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        return out[::-1]

    def chain(self, points: Sequence[Point],
              avoid: Callable[[frozenset[tuple[int, int]]], bool] | None = None,
              ) -> list[tuple[int, int]]:
        """A vertex walk following the polyline ``points`` (hex space), loops removed."""
        verts = [self.nearest_vertex(p) for p in points]
        walk: list[tuple[int, int]] = [verts[0]]
        for i in range(1, len(points)):
            if verts[i] == walk[-1]:
                continue
            seg = self.path(walk[-1], verts[i], (points[i - 1], points[i]), avoid)
            walk.extend(seg[1:])
        # cut loops: when a vertex comes back, drop what lay between
        out: list[tuple[int, int]] = []
        seen: dict[tuple[int, int], int] = {}
        for v in walk:
            if v in seen:
                cut = seen[v]
                for u in out[cut + 1:]:
                    seen.pop(u, None)
                out = out[: cut + 1]
            else:
                seen[v] = len(out)
                out.append(v)
        return out


def hex_path(start: tuple[int, int], goal: tuple[int, int], parity: str,
             passable: Callable[[tuple[int, int]], bool],
             neighbors: Callable[[tuple[int, int]], list[tuple[int, int]]],
             penalty: Callable[[tuple[int, int]], float] | None = None,
             ) -> list[tuple[int, int]]:
    """Cheapest chain of adjacent hexes from ``start`` to ``goal`` hugging the straight line."""
    ga, gb = center(*start, parity), center(*goal, parity)
    dist = {start: 0.0}
    prev: dict[tuple[int, int], tuple[int, int]] = {}
    heap = [(0.0, start)]
    while heap:
        d, v = heapq.heappop(heap)
        if v == goal:
            break
        if d > dist[v]:
            continue
        for w in neighbors(v):
            if w != goal and not passable(w):
                continue
            cost = 1.0 + 3.0 * seg_dist(center(*w, parity), ga, gb)
            if penalty is not None:
                cost += penalty(w)
            nd = d + cost
            if nd < dist.get(w, math.inf):
                dist[w] = nd
                prev[w] = v
                heapq.heappush(heap, (nd, w))
    if goal not in dist:
        raise ValueError(f"no path from {start} to {goal}")
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    return out[::-1]
