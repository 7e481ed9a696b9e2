"""pbem.codec.type_hints reads a class's plain string annotations without compiling them
(issue 35: typing.get_type_hints makes a ForwardRef of each, which compiles it, about 25
in a Mortain ``receive``), and gives what typing.get_type_hints gives for every class."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import typing
from collections.abc import Hashable, Sequence
from typing import Annotated, Any, ClassVar, Literal

import pytest

import engines
import pbem
from pbem import codec


def _classes() -> list[type]:
    """Every class defined in a module of pbem or the engines (those the codec and the
    typed copy meet among them)."""
    found: list[type] = []
    for package in (pbem, engines):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            found.extend(value for value in vars(module).values()
                         if isinstance(value, type) and value.__module__ == module.__name__)
    return found


def test_every_class_of_pbem_and_the_engines_has_the_hints_get_type_hints_gives() -> None:
    compared = 0
    for cls in _classes():
        try:
            want = typing.get_type_hints(cls)
        except Exception as exc:  # the same error, whatever it is
            with pytest.raises(type(exc)):
                codec.type_hints(cls)
            continue
        got = codec.type_hints(cls)
        assert got == want, cls
        assert [type(hint) for hint in got.values()] == [type(hint) for hint in want.values()]
        compared += 1
    assert compared > 300


class Inner(Hashable):
    def __hash__(self) -> int:
        return 0


@dataclasses.dataclass
class Plain:
    a: int
    b: str | None
    c: tuple[int, ...]
    d: dict[str, list[Inner]]
    e: Inner | None
    f: Sequence[frozenset[str]]
    g: typing.Any
    h: None
    i: dict[str, tuple[int, str]] | None = None


@dataclasses.dataclass
class Derived(Plain):
    a: bool  # a subclass's own annotation wins, as get_type_hints keeps it
    j: Any = None


def test_plain_annotations_are_read_without_get_type_hints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    want = {cls: typing.get_type_hints(cls) for cls in (Plain, Derived)}

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("typing.get_type_hints compiled a plain annotation")

    monkeypatch.setattr(typing, "get_type_hints", refused)
    for cls, hints in want.items():
        assert codec.type_hints(cls) == hints
    assert codec.type_hints(Derived)["a"] is bool
    assert list(codec.type_hints(Derived)) == list(want[Derived])


@dataclasses.dataclass
class Quoted:
    a: list["Inner"]  # noqa: UP037 - a quoted name inside: get_type_hints evaluates it


@dataclasses.dataclass
class Special:
    a: Literal["x", "y"]
    b: Annotated[int, "note"]
    c: ClassVar[int] = 0


@dataclasses.dataclass
class Missing:
    a: NoSuchName  # type: ignore[name-defined]  # noqa: F821


@pytest.mark.parametrize("cls", [Quoted, Special])
def test_other_forms_are_get_type_hints_own(cls: type) -> None:
    assert codec.type_hints(cls) == typing.get_type_hints(cls)


def test_an_unknown_name_is_the_error_get_type_hints_raises() -> None:
    with pytest.raises(NameError, match="NoSuchName"):
        codec.type_hints(Missing)


@dataclasses.dataclass
class Asked:
    a: int
    b: list[int] | None


def test_a_class_is_read_once_for_the_codec_and_the_typed_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The codec's coders and pbem.typedcopy's copier of a position class each asked for
    its hints, and every ask resolved each annotation again (0.7 M instructions of a
    Backhand Blow act's first clone, issue 35): the second ask reads none."""
    from pbem import typedcopy

    first = codec.type_hints(Asked)

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("an annotation read again")

    monkeypatch.setattr(codec, "_resolved", refused)
    monkeypatch.setattr(typing, "get_type_hints", refused)
    assert codec.type_hints(Asked) is first
    made = Asked(1, [2])
    copied = typedcopy.copy_of(Asked, made)
    assert copied == made and copied.b is not made.b
