"""pbem's own records that every turn command makes are pbem.history's ``Frozen`` and
``Mutable`` classes, not dataclasses (issue 35: about 0.2 M instructions a class at every
start).  Each behaves as the dataclass it replaced: held here to a dataclass declared
with the same fields, defaults and frozenness, made with the same values (positional and
by keyword, defaults left out): equal, hashed (or unhashable) and shown the same,
refusing a change where frozen, copied and pickled to an equal record."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from pbem.dice import Roll, Step
from pbem.engine import (
    ChanceRequest,
    Commitment,
    Decision,
    Event,
    OptionSpec,
    OrderSpec,
    Result,
    ScenarioInfo,
    TextAction,
)
from pbem.envelope import Envelope, FileInfo
from pbem.history import Acted, Frozen, Ordered, Rolled
from pbem.identity import Card
from pbem.session import ReceiveReport
from pbem.steps import Entry, Frame, Refusal
from pbem.transcript import Accepted, ChainPos, RollRecord, Setup

CARD = Card("Ann", "ann@example.org", b"k" * 32)
STEP = Step(0, 1, 99, 6, 120, True, 3, "die 1 of 1 (d6)")
#: each record's class with the values its required fields are given
REQUIRED: list[tuple[type, dict[str, Any]]] = [
    (Acted, {"text": "move G01 3110"}),
    (Ordered, {"text": "pass"}),
    (Rolled, {"index": 2, "outcome": (3, 4)}),
    (TextAction, {"text": "end movement"}),
    (ChanceRequest, {"kind": "dice", "purpose": "attack", "dice": (6, 6)}),
    (Decision, {"side": "german", "kind": "move", "prompt": "the German player moves"}),
    (Event, {"text": "G01 moves to 3110"}),
    (Result, {"winner": None, "reason": "draw", "text": "drawn by agreement"}),
    (ScenarioInfo, {"id": "chir", "title": "Chir"}),
    (OptionSpec, {"key": "fog", "description": "hidden units"}),
    (OrderSpec, {"kind": "losses", "rule": "9.2", "text": "take losses"}),
    (Commitment, {"side": "soviet", "label": "plan"}),
    (Refusal, {"rule": "Skirmish 2.1", "text": "once a round"}),
    (Entry, {"rule": "3.I", "step": "player-turn"}),
    (Frame, {"step": "movement"}),
    (Step, {"j": 0, "position": 1, "word": 99, "n": 6, "limit": 120, "accepted": True,
            "result": 3}),
    (Roll, {"index": 1, "outcome": (4,), "steps": (STEP,)}),
    (Envelope, {"kind": "turn", "key": b"k", "signature": b"s", "body": b"b", "raw": b"r"}),
    (FileInfo, {"kind": "turn", "game_id": b"g", "seq": 3, "side": "german",
                "signer": b"k"}),
    (Card, {"name": "Ann", "email": "", "key": b"k" * 32}),
    (ChainPos, {}),
    (RollRecord, {"seq": 3, "index": 1, "side": "german", "purpose": "attack", "rule": "9",
                  "request": "2d6", "outcome": (3, 4), "seed": b"s", "after_action": "a"}),
    (Accepted, {"seq": 2, "kind": "turn", "side": "soviet", "hash": b"h"}),
    (Setup, {"game_id": b"g", "engine_id": "toy", "rules_version": "1", "scenario": "s",
             "scenario_digest": b"d", "scenario_files": {"a": b"x"}, "options": {},
             "sides": ("red", "blue"), "creator_side": "red", "creator": CARD,
             "dice_mode": "open", "chain_length": 8, "nonce": b"n", "anchor": b"a",
             "initial_digest": b"i"}),
    (ReceiveReport, {"game_name": "g", "seq": 2, "kind": "turn", "side": "red",
                     "text": "received"}),
]


#: the fields the dataclasses made with a default factory (their records' ``__init__``
#: takes None for them): a fresh list or dict for each record
FACTORIES: dict[tuple[type, str], type] = {
    **{(Accepted, name): list for name in ("events", "actions", "rolls", "ordered")},
    **{(ReceiveReport, name): list for name in ("events", "rolls")},
    (RollRecord, "asked"): dict,
}


def _twin(cls: type) -> type:
    """The dataclass ``cls`` stands for: its fields in order, each with the default its
    ``__init__`` gives it (or its default factory), frozen as ``cls`` is."""
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == list(cls.__match_args__)
    fields: list[Any] = []
    for p in params:
        factory = FACTORIES.get((cls, p.name))
        if factory is not None:
            fields.append((p.name, Any, dataclasses.field(default_factory=factory)))
        elif p.default is inspect.Parameter.empty:
            fields.append((p.name, Any))
        else:
            fields.append((p.name, Any, dataclasses.field(default=p.default)))
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=issubclass(cls, Frozen))


@pytest.mark.parametrize(("cls", "required"), REQUIRED, ids=[c.__name__ for c, _ in REQUIRED])
def test_each_record_behaves_as_the_dataclass_it_replaced(cls: type,
                                                         required: dict[str, Any]) -> None:
    twin = _twin(cls)
    record, same = cls(**required), twin(**required)
    assert not dataclasses.is_dataclass(cls)
    assert repr(record) == repr(same)
    assert cls(*[getattr(record, n) for n in cls.__match_args__]) == record
    assert record == copy.deepcopy(record) == pickle.loads(pickle.dumps(record))
    assert record == copy.copy(record) and record != object()
    # a field changed: the first but a request's kind, which it checks
    first = next(name for name in cls.__match_args__ if name != "kind")
    if issubclass(cls, Frozen):
        try:
            expected = hash(same)
        except TypeError:  # a field that holds a dict (a roll's request)
            with pytest.raises(TypeError):
                hash(record)
        else:
            assert hash(record) == expected
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, first, 7919)
        other = record.replace(**{first: 7919})
        assert other != record and getattr(other, first) == 7919
        assert repr(other) == repr(dataclasses.replace(same, **{first: 7919}))  # type: ignore[type-var]
    else:
        with pytest.raises(TypeError):
            hash(record)
        changed = copy.copy(record)
        setattr(changed, first, 7919)
        setattr(same, first, 7919)
        assert changed != record and repr(changed) == repr(same)


def test_a_record_refuses_a_field_it_does_not_have() -> None:
    with pytest.raises(TypeError, match="no field 'colour'"):
        Event("x").replace(colour="red")
    with pytest.raises(TypeError):
        Event("x", colour="red")  # type: ignore[call-arg]


def test_each_mutable_record_has_its_own_lists() -> None:
    one, two = Accepted(1, "turn", "red", b"h"), Accepted(2, "turn", "red", b"h")
    one.events.append(Event("x"))
    assert two.events == [] and one.rolls is not two.rolls
    assert RollRecord(1, 1, "red", "p", "r", "d6", (1,), b"", "").asked == {}
