"""A game's history as typed records, with their one wire form.

A turn file's body lists what its sender played as records (docs/protocol.md 5):

- ``["a", text]``: an action of the sender, in canonical notation (:class:`Acted`);
- ``["o", text]``: an answer of the opponent's standing orders (:class:`Ordered`);
- ``["r", index, outcome]``, from file format 2 on ``["r", index, outcome, request]``: a
  die roll or draw, the ``index``-th of its file, with what was asked (:class:`Rolled`).

:func:`read` is the one reader of that form (it refuses any other shape, naming the
record; :func:`read_all` reads a list) and :func:`wire` the one writer;
:attr:`pbem.engine.State.history` holds the records of everything applied to a state since
it was made or restored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import FrozenInstanceError
from typing import Any, Self

from pbem.errors import FormatError

#: sets a field of a frozen record, as a frozen dataclass's __init__ does (the records'
#: own __init__ in pbem's modules call it)
set_field = object.__setattr__


class Frozen:
    """A frozen dataclass's instances, without making one: made from its fields' values
    (the fields named in ``__match_args__``, in order), equal and hashed by them, shown
    by them, refusing a change (FrozenInstanceError), deep-copied and pickled as made
    from them.  Even from its kept record a dataclass is about 0.2 M instructions to
    make at every start (issue 35), 0.4 M with ``slots=True`` (dataclasses makes the
    class twice); this is for a class nothing asks dataclasses about (``fields``,
    ``replace``, :mod:`pbem.codec`, :mod:`pbem.typedcopy`): pbem's own records that
    every turn command makes (these, :mod:`pbem.engine`'s), the grammar's types and
    parts, an engine's data records.  Kept here, in the module of pbem's records that
    every turn command's engine loads first, not in one every pbem command loads
    (``--help``).  A subclass may keep its fields in ``__slots__``: its deep copy and
    pickle remake it from its values (``object``'s would set each slot, which a frozen
    record refuses)."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def __init__(self, *values: Any) -> None:
        for name, value in zip(self.__match_args__, values, strict=True):
            set_field(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Frozen)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Frozen], tuple[Any, ...]]:
        return self.__class__, self._values()

    def replace(self, **changes: Any) -> Self:
        """A copy with the fields ``changes`` names given new values, as
        ``dataclasses.replace`` makes of a frozen dataclass."""
        values = [changes.pop(name, value)
                  for name, value in zip(self.__match_args__, self._values(), strict=True)]
        if changes:
            raise TypeError(f"{self.__class__.__name__} has no field {next(iter(changes))!r}")
        return self.__class__(*values)


class Mutable:
    """A (mutable) dataclass's instances, without making one, for the same reason as
    :class:`Frozen`: the fields named in ``__match_args__``, kept in the subclass's
    ``__slots__`` and set by its ``__init__``, equal by them and shown by them; unhashable
    as a dataclass that compares its fields.  Deep copy and pickle are ``object``'s: they
    set each slot, which a mutable record allows."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            names = self.__match_args__
            return [getattr(self, n) for n in names] == [getattr(other, n) for n in names]
        return NotImplemented

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{self.__class__.__qualname__}({shown})"


class Acted(Frozen):
    """An action of the side to act."""

    __slots__ = __match_args__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        set_field(self, "text", text)


class Ordered(Frozen):
    """An action taken for a side by its standing orders (pbem.orders)."""

    __slots__ = __match_args__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        set_field(self, "text", text)


class Rolled(Frozen):
    """A chance outcome: the ``index``-th roll of its file, and what was asked for
    (``pbem.dice.request_data``; ``None`` in format-1 files and in a state's own history,
    which keeps no request)."""

    __slots__ = __match_args__ = ("index", "outcome", "request")
    index: int
    outcome: tuple[Any, ...]
    request: Any

    def __init__(self, index: int, outcome: tuple[Any, ...], request: Any = None) -> None:
        set_field(self, "index", index)
        set_field(self, "outcome", outcome)
        set_field(self, "request", request)


Record = Acted | Ordered | Rolled
#: a record a side decided (by hand or by its standing orders), as against a roll
Played = Acted | Ordered


def wire(record: Record) -> list[Any]:
    """The record as a turn file holds it."""
    if isinstance(record, Acted):
        return ["a", record.text]
    if isinstance(record, Ordered):
        return ["o", record.text]
    out: list[Any] = ["r", record.index, list(record.outcome)]
    if record.request is not None:
        out.append(record.request)
    return out


def read(data: Any, where: str = "record", *, request: bool | None = None,
         index: int | None = None) -> Record:
    """The record ``data`` stands for; :class:`~pbem.errors.FormatError` naming ``where``
    if it has any other shape.  ``request`` says whether a roll must carry what was asked
    (file format 2 and later) or must not (format 1), ``index`` which number a roll must
    carry (its place in its file); ``None`` takes either."""
    if type(data) is not list or not data or data[0] not in ("a", "o", "r"):
        raise FormatError(f"{where} is neither an action, a roll nor an order")
    kind = data[0]
    if kind in ("a", "o"):
        if len(data) != 2 or type(data[1]) is not str:
            name = "an action" if kind == "a" else "an order"
            raise FormatError(f"{where}: {name} record is ['{kind}', text]")
        return Acted(data[1]) if kind == "a" else Ordered(data[1])
    sizes = (3, 4) if request is None else (4,) if request else (3,)
    if len(data) not in sizes or type(data[1]) is not int or type(data[2]) is not list \
            or (index is not None and data[1] != index):
        n = "index" if index is None else str(index)
        shape = (f"['r', {n}, outcome, request]" if request
                 else f"['r', {n}, outcome]" if request is not None
                 else f"['r', {n}, outcome(, request)]")
        raise FormatError(f"{where}: a roll record is {shape}")
    return Rolled(data[1], tuple(data[2]), data[3] if len(data) == 4 else None)


def read_all(data: Iterable[Any], where: str = "record") -> list[Record]:
    """The records of a list in the wire form (a file's body, a save's pending records),
    the ``n``-th named ``where n`` if it has another shape.  Unlike the verifier, it takes
    a roll with or without its request and any index: it reads records already checked
    (signed by this home, or accepted by the verifier)."""
    return [read(item, f"{where} {n}") for n, item in enumerate(data)]
