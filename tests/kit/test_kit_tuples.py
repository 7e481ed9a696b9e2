"""The kit's two named tuples (Cube, Placed) are made without typing.NamedTuple's class
form, which compiles each string annotation into a ForwardRef (issue 35: 1.28 M
instructions a class against 0.40 M, on every command that loads a game), and behave as
the class form's tuples did."""

from __future__ import annotations

import pickle
from collections.abc import Hashable
from typing import NamedTuple

import pytest

from engines.hexkit.facts import Placed
from engines.hexkit.geometry import DIRECTIONS, Cube, cube_of
from engines.hexkit.hexid import HexId
from pbem.testing import compiled_at_import


class ClassCube(NamedTuple):
    q: int
    r: int
    s: int


class ClassPlaced(NamedTuple):
    unit: str
    hex: HexId
    side: str
    mark: Hashable = None


@pytest.mark.parametrize(("kit", "reference", "args"), [
    (Cube, ClassCube, (1, -2, 1)),
    (Placed, ClassPlaced, ("u1", "0101", "german")),
    (Placed, ClassPlaced, ("u1", "0101", "german", (2, False))),
])
def test_a_kit_tuple_is_the_class_forms_tuple(kit: type, reference: type,
                                              args: tuple[object, ...]) -> None:
    value, twin = kit(*args), reference(*args)
    assert kit._fields == reference._fields  # type: ignore[attr-defined]
    assert kit._field_defaults == reference._field_defaults  # type: ignore[attr-defined]
    assert kit.__match_args__ == reference.__match_args__  # type: ignore[attr-defined]
    assert repr(value) == repr(twin).replace("Class", "")
    assert value == twin and hash(value) == hash(twin) and tuple(value) == tuple(twin)
    assert isinstance(value, tuple)
    back = pickle.loads(pickle.dumps(value))
    assert back == value and type(back) is kit
    changed = value._replace(**{kit._fields[0]: args[0] * 2})  # type: ignore[attr-defined]
    assert type(changed) is kit and changed == twin._replace(  # type: ignore[attr-defined]
        **{kit._fields[0]: args[0] * 2})
    assert type(kit._make(tuple(value))) is kit  # type: ignore[attr-defined]
    assert value._asdict() == twin._asdict()  # type: ignore[attr-defined]
    assert not hasattr(value, "__dict__")  # a tuple's slots, as the class form's


def test_the_cube_keeps_its_arithmetic() -> None:
    a, b = Cube(1, -2, 1), Cube(0, 1, -1)
    assert a + b == Cube(1, -1, 0) and type(a + b) is Cube
    assert a - b == Cube(1, -3, 2) and a.scale(3) == Cube(3, -6, 3)
    assert a.__add__((0, 1, -1)) is NotImplemented
    assert type(cube_of((0, -1, 1))) is Cube and cube_of((0, -1, 1)) == DIRECTIONS[0]


def test_loading_the_kit_tuples_compiles_no_annotation() -> None:
    assert compiled_at_import(
        "import engines.hexkit.geometry, engines.hexkit.facts",
        first="import typing, pbem.memo, engines.hexkit.hexid, engines.hexkit.shared\n"
              "import engines.hexkit.hexmap") == []


def test_loading_the_kits_movement_compiles_no_annotation() -> None:
    """Its cost TypeVar's bound is mypy's alone (issue 35: typing compiled it at import)."""
    assert compiled_at_import(
        "import engines.hexkit.movement",
        first="import sys, typing, fractions\n"
              "import engines.hexkit.graph, engines.hexkit.hexmap, engines.hexkit.odds\n"
              "import engines.hexkit.tables, engines.hexkit.zoc, engines.hexkit.geometry\n"
              "assert 'engines.hexkit.movement' not in sys.modules") == []
