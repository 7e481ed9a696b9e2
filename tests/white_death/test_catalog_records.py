"""The catalog's unit types and order of battle, its movement costs, reinforcements,
groups, objectives and scenarios are made without their frozen classes' ``__init__``
(issue 35: 13 k instructions a unit, and every command that loads a game made all of
them, the battalions' companies twice), each record equal to the one the class's own
``__init__`` makes from the same fields: hash and repr too, every field set, still
frozen, and a company's battalion size counted as before (Rule 4.A)."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.data import (
    Catalog,
    Cost,
    Group,
    Objective,
    Reinforcement,
    ScenarioDef,
    UnitDef,
    UnitType,
    load_catalog,
)


def test_the_types_and_units_are_made_without_their_classes_init(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = WhiteDeath()
    data = engine._data()
    made = 0

    def counted(self: object, *args: object, **kwargs: object) -> None:
        nonlocal made
        made += 1

    for cls in (UnitType, UnitDef, Cost, Group, Objective, Reinforcement, ScenarioDef):
        monkeypatch.setattr(cls, "__init__", counted)
    cat = load_catalog(data)
    assert made == 0
    monkeypatch.undo()
    tables = cat.tables
    records = [*cat.types.values(), *cat.units.values(), *cat.reinforcements, *cat.opening,
               *(c for row in tables.movement.values() for c in row.values()),
               *(sc for sc in cat.scenarios.values()),
               *(g for sc in cat.scenarios.values() for g in sc.groups),
               *(o for sc in cat.scenarios.values() for o in sc.objectives)]
    assert len(cat.types) > 30 and len(cat.units) > 100
    for r in records:
        cls = type(r)
        fields = {name: getattr(r, name) for name in r.__match_args__}
        assert set(vars(r)) == set(fields)
        own = cls(**fields)
        assert r == own and repr(r) == repr(own)
        # as the frozen dataclass of the same fields, which each record class was
        plain = dataclasses.make_dataclass(cls.__name__, list(fields), frozen=True)(**fields)
        assert repr(r) == repr(plain) and r != plain
        try:
            assert hash(r) == hash(plain)
        except TypeError:
            with pytest.raises(TypeError):
                hash(plain)
        try:
            assert hash(r) == hash(own)
        except TypeError:  # a record holding a dict (an objective's points) has no hash
            with pytest.raises(TypeError):
                hash(own)
        with pytest.raises(dataclasses.FrozenInstanceError):
            object.__getattribute__(r, "__setattr__")("side", "x")
        with pytest.raises(dataclasses.FrozenInstanceError):
            del r.side  # type: ignore[attr-defined]
    # the catalog likewise, but for what is worked out from it (its map's facts, its memo)
    fields = {name: getattr(cat, name) for name in cat.__match_args__}
    again = Catalog(**fields)
    assert cat == again and repr(cat) == repr(again) and again.static is not cat.static
    plain = dataclasses.make_dataclass("Catalog", list(fields), frozen=True)(**fields)
    assert repr(cat) == repr(plain) and copy.copy(cat) is cat
    # Rule 4.A: every company names its battalion and how many companies it has
    companies = [d for d in cat.units.values() if d.battalion]
    for d in cat.units.values():
        assert d.companies == sum(1 for c in companies if c.battalion == d.battalion) \
            if d.battalion else d.companies == 0
        assert d.type is cat.types[d.type.key]


def test_the_catalog_finds_its_files_by_their_top_level_keys(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The charts, the order of battle and the common schedule are found by each file's
    top-level keys, without decoding the tables of the files before them (the map's and
    the scenarios', issue 35): the same file as asking each one's tables."""
    from engines.hexkit.scenario import Doc
    from engines.white_death.data import _find

    data = WhiteDeath()._data()
    keys = ("conventional_crt", "types", "common", "map", "scenario")
    want = {k: next(d for d in data.docs.values() if k in d.data) for k in keys}

    def unread(self: Doc) -> object:
        raise AssertionError(f"{self.name}'s tables were decoded")

    monkeypatch.setattr(Doc, "data", property(unread))
    for k in keys:
        assert _find(data, k) is want[k]
