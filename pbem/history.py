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
from dataclasses import dataclass
from typing import Any

from pbem.errors import FormatError


@dataclass(frozen=True, slots=True)
class Acted:
    """An action of the side to act."""

    text: str


@dataclass(frozen=True, slots=True)
class Ordered:
    """An action taken for a side by its standing orders (pbem.orders)."""

    text: str


@dataclass(frozen=True, slots=True)
class Rolled:
    """A chance outcome: the ``index``-th roll of its file, and what was asked for
    (``pbem.dice.request_data``; ``None`` in format-1 files and in a state's own history,
    which keeps no request)."""

    index: int
    outcome: tuple[Any, ...]
    request: Any = None


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
