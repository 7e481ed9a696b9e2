"""The counters (2.3), Strength Chits (11.0) and Turn Record Track (17.0) are made with
their fields put in at once (``data._made``), not through their frozen records'
``__init__``, which sets each field through ``object.__setattr__``: 17 K instructions a
counter, and every command's load makes the 171 counters (issue 35).  Each is the very
record the class's own constructor makes, and behaves as the frozen dataclass it was."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from engines.motherland.data import Chit, Counter, TurnInfo, load


def test_each_record_is_the_one_its_class_makes() -> None:
    data = load()
    records: list[Any] = [*data.counters.values(), *data.chits.values(),
                          *data.turns.values()]
    assert len(data.counters) >= 150 and data.chits and data.turns
    for record in records:
        cls = type(record)
        names = cls.__match_args__
        own = cls(**{name: getattr(record, name) for name in names})
        assert record == own and repr(record) == repr(own) and hash(record) == hash(own)
        assert list(vars(record)) == list(names), repr(record)
        shown = ", ".join(f"{name}={getattr(record, name)!r}" for name in names)
        assert repr(record) == f"{cls.__name__}({shown})"
        assert copy.deepcopy(record) == record == pickle.loads(pickle.dumps(record))
        with pytest.raises(FrozenInstanceError):  # frozen as ever
            record.id = "x"


def test_a_load_runs_no_frozen_init(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    for cls in (Counter, Chit, TurnInfo):
        real = cls.__init__

        def counted(self: Any, *args: Any, _real: Any = real, **kwargs: Any) -> None:
            made.append(type(self).__name__)
            _real(self, *args, **kwargs)
        monkeypatch.setattr(cls, "__init__", counted)
    data = load()
    assert data.counters and made == []
