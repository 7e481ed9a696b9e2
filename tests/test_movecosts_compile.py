"""The hex kit's fast move-cost compile gives every engine's tables exactly what the
reference definition, ``MoveClass.step_cost``, gives, step by step (issue 35).

Every move class of every engine that prices steps by the kit's data form, on its real
map and on the map seen through an overlay (White Death's thaw and bridges, Rules 13
and 20; a made-up overlay touching terrain, features, hexsides and roads elsewhere).
A difference fails naming the engine, the class and the step.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TypeAlias

import pytest

from engines.hexkit import movement
from engines.hexkit.hexmap import HexMap
from engines.hexkit.movement import Cost, MoveClass, MoveCosts, StepCosts, reachable
from engines.hexkit.overlay import OverlaidMap, Overlay
from engines.hexkit.pricing import Pricer
from engines.hexkit.zoc import STOP_ON_ENTRY
from tests.kit.helpers import make_map

Adjust: TypeAlias = "Callable[[str, str, Cost], Cost | None] | None"


def _engine_classes() -> Iterator[tuple[str, HexMap, MoveClass, Adjust]]:
    from engines.backhand.data import WEATHERS
    from engines.backhand.data import load as backhand_data
    from engines.mortain.data import rules as mortain_rules
    from engines.panzer48.data import data as panzer48_data
    from engines.white_death import WhiteDeath
    from engines.white_death.data import MOBILITIES
    from engines.white_death.terrain import Terrain

    wd = Terrain.of(WhiteDeath().catalog())
    for mob in MOBILITIES:
        yield "white-death", wd.map, wd.move_class(mob), None
    bb = backhand_data()
    for weather, mot in itertools.product(WEATHERS, (False, True)):
        yield "backhand-blow", bb.map, bb.costs[(weather, mot)].move_class, None
    for made in panzer48_data().costs.values():
        yield "48th-panzer-korps", made.map, made.move_class, made.adjust
    mr = mortain_rules()
    yield "mortain", mr.map, mr.move_class, None


def _overlays(engine: str, hexmap: HexMap) -> list[Overlay]:
    """White Death's own (a thaw with three bridges: Rules 13, 20), and for every map one
    that changes a little of everything a step's cost reads."""
    out = []
    if engine == "white-death":
        from engines.white_death import WhiteDeath
        from engines.white_death.terrain import Terrain

        wd = Terrain.of(WhiteDeath().catalog())
        rivers = [h for h in hexmap.ids if any("river" in f for f in hexmap.features_of(h))]
        out.append(wd._move_overlay(False, tuple(rivers[:3])))
    ids, adjacency = hexmap.ids, hexmap.adjacency
    terrains = sorted(hexmap.terrain_classes)
    side_feats = sorted({f for fs in hexmap.hexsides.values() for f in fs})
    hex_feats = sorted({f for fs in hexmap.hex_features.values() for f in fs})
    pairs = [(ids[i], ids[adjacency[i][0]]) for i in range(0, len(ids), 41) if adjacency[i]]
    sides = {(min(a, b), max(a, b)) for a, b in pairs}
    out.append(Overlay.make(
        terrain={h: terrains[k % len(terrains)] for k, h in enumerate(ids[::89])},
        sides_removed={s: hexmap.hexsides[s] for s in sorted(hexmap.hexsides)[::5]},
        sides_added={s: {side_feats[k % len(side_feats)]}
                     for k, s in enumerate(sorted(sides))} if side_feats else None,
        features_added={h: {hex_feats[k % len(hex_feats)]}
                        for k, h in enumerate(ids[13::97])} if hex_feats else None,
        links_added={n: sorted(sides)[::2] for n in sorted(hexmap.networks)[:1]}))
    return out


def _reference(view: HexMap | OverlaidMap, mc: MoveClass, adjust: Adjust
               ) -> dict[tuple[str, str], Cost | None]:
    ids, adjacency = view.ids if isinstance(view, HexMap) else view.base.ids, \
        view.adjacency if isinstance(view, HexMap) else view.base.adjacency
    out: dict[tuple[str, str], Cost | None] = {}
    for i, a in enumerate(ids):
        for j in adjacency[i]:
            c = mc.step_cost(view, a, ids[j])
            if c is not None and adjust is not None:
                c = adjust(a, ids[j], c)
            out[(a, ids[j])] = c
    return out


def _differences(where: str, costs: MoveCosts, want: dict[tuple[str, str], Cost | None]
                 ) -> list[str]:
    ids = costs.map.ids
    got = {(ids[i], ids[j]): None if c < 0 else movement._unscale(c, costs.scale)
           for i, row in enumerate(costs.steps) for j, c in row}
    bad = [f"{where}: step {a}->{b}: compiled {got.get((a, b))!r}, step_cost {c!r}"
           for (a, b), c in want.items() if got.get((a, b)) != c]
    denominators = [c.denominator for c in want.values() if isinstance(c, Fraction)]
    scale = movement.math.lcm(1, *denominators)
    if costs.scale != scale:
        bad.append(f"{where}: scale {costs.scale}, the costs' denominator {scale}")
    return bad


def _row_differences(where: str, costs: StepCosts, want: dict[tuple[str, str], Cost | None]
                     ) -> list[str]:
    """:class:`StepCosts` row by row (the rows in reverse: none depends on another)."""
    ids, adjacency = costs.map.ids, costs.map.adjacency
    bad = []
    for i in reversed(range(len(ids))):
        assert [j for j, _ in costs.row(i)] == list(adjacency[i])
        for j, c in costs.row(i):
            got = None if c < 0 else movement._unscale(c, costs.scale)
            if got != want[(ids[i], ids[j])]:
                bad.append(f"{where}: step {ids[i]}->{ids[j]}: row {got!r}, step_cost "
                           f"{want[(ids[i], ids[j])]!r}")
    return bad


def _step_differences(where: str, costs: StepCosts, want: dict[tuple[str, str], Cost | None]
                      ) -> list[str]:
    """:meth:`StepCosts.step` asked of every step before any row is priced: the rows'
    costs, and no row priced for them."""
    ids, adjacency = costs.map.ids, costs.map.adjacency
    bad = []
    for i in reversed(range(len(ids))):
        for k, j in enumerate(adjacency[i]):
            c = costs.step(i, k)
            got = None if c < 0 else movement._unscale(c, costs.scale)
            if got != want[(ids[i], ids[j])]:
                bad.append(f"{where}: step {ids[i]}->{ids[j]}: alone {got!r}, step_cost "
                           f"{want[(ids[i], ids[j])]!r}")
    assert costs.rows_priced() == 0
    return bad


CLASSES = list(_engine_classes())


@pytest.mark.parametrize(("engine", "hexmap", "mc", "adjust"), CLASSES,
                         ids=[f"{e}:{mc.name}" for e, _, mc, _ in CLASSES])
def test_compiled_costs_are_step_cost_on_the_real_map_and_overlaid(
        engine: str, hexmap: HexMap, mc: MoveClass, adjust: Adjust) -> None:
    costs = MoveCosts(hexmap, mc, adjust)
    want = _reference(hexmap, mc, adjust)
    bad = _differences(f"{engine} {mc.name}", costs, want)
    if adjust is None:
        bad += _row_differences(f"{engine} {mc.name} rows", StepCosts(hexmap, mc), want)
        bad += _step_differences(f"{engine} {mc.name} steps", StepCosts(hexmap, mc), want)
    for n, overlay in enumerate(_overlays(engine, hexmap)):
        view = OverlaidMap(hexmap, overlay)
        want = _reference(view, mc, adjust)
        bad += _differences(f"{engine} {mc.name} overlay {n}", costs.overlaid(overlay), want)
        if adjust is None:
            bad += _row_differences(f"{engine} {mc.name} overlay {n} rows",
                                    StepCosts(view, mc), want)
            bad += _step_differences(f"{engine} {mc.name} overlay {n} steps",
                                     StepCosts(view, mc), want)
        # the fast pricer on the overlaid map, every step (not only those it touches)
        pricer = Pricer.of(view, mc)
        assert pricer is not None
        bad += [f"{engine} {mc.name} overlay {n}: step {a}->{b}: priced "
                f"{pricer.cost(view, a, b)!r}, step_cost {c!r}"
                for (a, b), c in want.items()
                if adjust is None and pricer.cost(view, a, b) != c]
    assert not bad, "\n".join(bad[:20])


def test_every_option_of_the_data_form_prices_as_step_cost() -> None:
    """A small map with what no one engine's map has all of: a sum of hex features, a
    leaving cost, leaving features, barred and negated hexsides, a road that crosses its
    rivers, and halves that add up to whole MP (the scale is of the costs met)."""
    half = Fraction(1, 2)
    terrain = {"0101": "forest", "0102": "swamp", "0201": "rough", "0202": "lake",
               "0302": "town", "0303": "swamp", "0203": "forest"}
    m = make_map(4, 4, terrain,
                 hexsides={"river": [("0101", "0102"), ("0202", "0203"), ("0301", "0302")],
                           "wall": [("0201", "0202")], "ford": [("0202", "0203")]},
                 networks={"road": [("0101", "0201"), ("0201", "0301"), ("0301", "0302")]},
                 features={"village": ["0102", "0303"], "mud": ["0102", "0401"],
                           "creek": ["0203", "0304"]})
    common = dict(enter={"clear": 1, "forest": 2, "rough": half, "swamp": 3, "lake": None,
                         "town": 1},
                  leave={"swamp": 1, "rough": half},
                  hexside={"river": 2, "wall": None},
                  networks={"road": half},
                  negated_by={"river": ["ford"]},
                  hex_features={"village": half, "mud": 1, "creek": half},
                  leave_features={"creek": Fraction(3, 2), "mud": half})
    classes = [MoveClass("sum", **common),  # type: ignore[arg-type]
               MoveClass("crossing", network_crosses=True, **common),  # type: ignore[arg-type]
               MoveClass("dearest", dearest=True, fills=frozenset({"clear"}),
                         overrides=("creek", "road", "town"), **common)]  # type: ignore[arg-type]
    bad: list[str] = []
    for mc in classes:
        costs = MoveCosts(m, mc)
        bad += _differences(mc.name, costs, _reference(m, mc, None))
        bad += _row_differences(f"{mc.name} rows", StepCosts(m, mc), _reference(m, mc, None))
        for n, overlay in enumerate(_overlays("kit", m)):
            view = OverlaidMap(m, overlay)
            bad += _differences(f"{mc.name} overlay {n}", costs.overlaid(overlay),
                                _reference(view, mc, None))
            bad += _row_differences(f"{mc.name} overlay {n} rows", StepCosts(view, mc),
                                    _reference(view, mc, None))
    assert not bad, "\n".join(bad[:20])


def test_compiling_prices_shared_parts_once_not_each_step(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The reference definition is not called per step: a table of 10,000 steps (White
    Death's map) cost ~170 ms a class that way (issue 35)."""
    calls: list[tuple[str, str]] = []
    reference = MoveClass.step_cost

    def counted(self: MoveClass, hexmap: HexMap | OverlaidMap, a: str, b: str) -> Cost | None:
        calls.append((a, b))
        return reference(self, hexmap, a, b)

    monkeypatch.setattr(MoveClass, "step_cost", counted)
    m = make_map(6, 6, {"0303": "forest"})
    costs = MoveCosts(m, MoveClass("leg", enter={"clear": 1, "forest": 2}))
    assert costs.cost("0302", "0303") == 2
    assert calls == []


def test_a_class_pricing_steps_its_own_way_is_asked_for_each_step() -> None:
    """A subclass's own ``step_cost`` (For the Motherland!'s 5.1.7 ice) is the price."""

    class Odd(MoveClass):
        def step_cost(self, hexmap: HexMap | OverlaidMap, a: str, b: str) -> Cost | None:
            return 7 if b == "0202" else 1

    costs = MoveCosts(make_map(3, 3), Odd("odd", enter={"clear": 1}))
    assert (costs.cost("0201", "0202"), costs.cost("0202", "0201")) == (7, 1)


def test_an_adjusted_cost_is_priced_as_step_cost_then_adjust() -> None:
    """``adjust`` (48th Panzer Korps' slopes, 4.0) sees each step's cost and may make it
    finer than any cost of the class, forbid it, or leave it: the table is the same as
    the reference's; a negative cost is refused naming the step."""
    m = make_map(5, 5, {"0303": "forest", "0203": "swamp"},
                 networks={"road": [("0101", "0201"), ("0201", "0301")]})
    mc = MoveClass("leg", enter={"clear": 1, "forest": 2, "swamp": 3},
                   networks={"road": Fraction(1, 2)})

    def adjust(a: str, b: str, c: Cost) -> Cost | None:
        if b == "0303":
            return c + Fraction(1, 3)
        if a == "0203":
            return None
        return c

    assert not _differences("adjusted", MoveCosts(m, mc, adjust), _reference(m, mc, adjust))
    with pytest.raises(ValueError, match="leg: negative cost -1 from 0101 to 0102"):
        MoveCosts(m, mc, lambda a, b, c: -1 if (a, b) == ("0101", "0102") else c)


def test_step_costs_refuse_a_class_that_prices_steps_its_own_way() -> None:
    class Odd(MoveClass):
        def step_cost(self, hexmap: HexMap | OverlaidMap, a: str, b: str) -> Cost | None:
            return 1

    with pytest.raises(ValueError, match="odd: priced by its own step_cost"):
        StepCosts(make_map(2, 2), Odd("odd", enter={"clear": 1}))


@pytest.mark.parametrize(("engine", "hexmap", "mc", "adjust"),
                         [c for c in CLASSES if c[3] is None],
                         ids=[f"{e}:{mc.name}" for e, _, mc, a in CLASSES if a is None])
def test_a_search_over_rows_priced_as_read_is_the_search_over_the_table(
        engine: str, hexmap: HexMap, mc: MoveClass, adjust: Adjust) -> None:
    """:func:`reachable` over :class:`StepCosts` (Backhand Blow's moves) finds what it
    finds over the compiled table: every hex's cost, path, end and stop, with a ZOC."""
    table, rows = MoveCosts(hexmap, mc), StepCosts(hexmap, mc)
    ids = hexmap.ids
    zoc = frozenset(ids[7::23])
    for start in ids[::97]:
        for allowance in (1, Fraction(5, 2), 6):
            want = reachable(table, start, allowance, zoc=zoc, policy=STOP_ON_ENTRY)
            got = reachable(rows, start, allowance, zoc=zoc, policy=STOP_ON_ENTRY)
            assert got == want, (engine, mc.name, start, allowance)
    assert rows.rows_priced() < len(ids)
