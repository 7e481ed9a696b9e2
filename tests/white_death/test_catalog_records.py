"""The catalog's unit types and order of battle are made without their frozen classes'
``__init__`` (issue 35: 13 k instructions a unit, and every command that loads a game
made all of them, the battalions' companies twice), each record equal to the one the
class's own ``__init__`` makes from the same fields: hash and repr too, every field set,
still frozen, and a company's battalion size counted as before (Rule 4.A)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.data import UnitDef, UnitType, load_catalog


def test_the_types_and_units_are_made_without_their_classes_init(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = WhiteDeath()
    data = engine._data()
    made = 0

    def counted(self: object, *args: object, **kwargs: object) -> None:
        nonlocal made
        made += 1

    for cls in (UnitType, UnitDef):
        monkeypatch.setattr(cls, "__init__", counted)
    cat = load_catalog(data)
    assert made == 0
    monkeypatch.undo()
    records = [*cat.types.values(), *cat.units.values()]
    assert len(cat.types) > 30 and len(cat.units) > 100
    for r in records:
        cls = type(r)
        fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
        assert set(vars(r)) == set(fields)
        own = cls(**fields)
        assert r == own and hash(r) == hash(own) and repr(r) == repr(own)
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.key = "x"  # type: ignore[union-attr]
    # Rule 4.A: every company names its battalion and how many companies it has
    companies = [d for d in cat.units.values() if d.battalion]
    for d in cat.units.values():
        assert d.companies == sum(1 for c in companies if c.battalion == d.battalion) \
            if d.battalion else d.companies == 0
        assert d.type is cat.types[d.type.key]
