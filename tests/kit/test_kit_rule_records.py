"""The kit's rules (ZocRule, RegionFlood, SpreadFlood, MoveClass), its numbering, grid
and map (Numbering, HexGrid, HexMap), the map's legend and boxes (TerrainClass,
OffMapBox) and the scenario data's files, stand-ins, sets and tables (Doc, StandIn,
ScenarioSet, Table) are plain classes with their ``__init__`` in their source, not
dataclasses (issue 35: dataclasses made their methods at every import of the board facts,
of the map and of the scenario data), and behave as the frozen dataclasses they were."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from engines.hexkit.facts import RegionFlood, SpreadFlood, ZocRule
from engines.hexkit.geometry import HexGrid
from engines.hexkit.hexid import FOUR_DIGIT, Numbering
from engines.hexkit.hexmap import HexMap, OffMapBox, TerrainClass
from engines.hexkit.moveclass import MoveClass
from engines.hexkit.scenario import Doc, ScenarioSet, StandIn
from engines.hexkit.tables import Table
from pbem.errors import ScenarioError
from tests.kit.helpers import make_map


@dataclasses.dataclass(frozen=True)
class ClassZocRule:
    exerts: Any = None
    stack: Any = None
    blocking_sides: frozenset[str] = frozenset()
    blocks: Any = None
    include_own_hex: bool = False


@dataclasses.dataclass(frozen=True, eq=False)
class ClassRegionFlood:
    sources: Any
    passable: Any = None
    networks: Any = None
    max_steps: Any = None
    enterable: Any = None


@dataclasses.dataclass(frozen=True, eq=False)
class ClassSpreadFlood:
    budgets: Any
    neighbors: Any
    blocked: Any = None


@dataclasses.dataclass(frozen=True)
class ClassTerrainClass:
    name: str
    char: str
    color: str = "#d8d0b0"
    glyph: str = " "
    attrs: Any = dataclasses.field(default_factory=lambda: MappingProxyType({}))


@dataclasses.dataclass(frozen=True)
class ClassOffMapBox:
    name: str
    title: str
    entry: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class ClassNumbering:
    col_digits: int = 2
    row_digits: int = 2


@dataclasses.dataclass(frozen=True)
class ClassHexGrid:
    parity: str = "even"
    cols: tuple[int, int] = (1, 1)
    rows: tuple[int, int] = (1, 1)
    numbering: Numbering = FOUR_DIGIT


def _empty() -> Any:
    return MappingProxyType({})


@dataclasses.dataclass(frozen=True)
class ClassMoveClass:
    name: str
    enter: Any
    leave: Any = dataclasses.field(default_factory=_empty)
    hexside: Any = dataclasses.field(default_factory=_empty)
    networks: Any = dataclasses.field(default_factory=_empty)
    negated_by: Any = dataclasses.field(default_factory=_empty)
    network_crosses: bool = False
    hex_features: Any = dataclasses.field(default_factory=_empty)
    dearest: bool = False
    fills: frozenset[str] = frozenset()
    overrides: Any = ()
    leave_features: Any = dataclasses.field(default_factory=_empty)


@dataclasses.dataclass(frozen=True)
class ClassDoc:
    name: str
    text: str
    top: tuple[str, ...]
    packed: bytes = dataclasses.field(default=b"", repr=False, compare=False)


@dataclasses.dataclass(frozen=True)
class ClassStandIn:
    file: str
    key: str
    reason: str


@dataclasses.dataclass(frozen=True)
class ClassScenarioSet:
    source: str
    docs: Any
    files: tuple[Any, ...]
    map_doc: str | None
    tables: Any
    stand_ins: tuple[Any, ...]
    scenarios: Any = dataclasses.field(default_factory=_empty)


@dataclasses.dataclass(frozen=True)
class ClassTable:
    name: str
    kind: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Any, ...]], ...]
    stand_in: str | None = None
    where: str = ""
    extra: Any = dataclasses.field(default_factory=_empty)


_DOC = Doc("data/map.toml", "[map]\ntitle = 'x'\n", ("map",))
_STAND_IN = StandIn("data/tables.toml", "tables.crt", "the printed chart is not to hand")
_TABLE = Table("crt", "odds", ("1:1", "2:1"), (("1", ("AR", "DR")),))


def _nobody(*args: object) -> bool:
    return False


CASES: list[tuple[Callable[..., Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
    (ZocRule, ClassZocRule, (), {}),
    (ZocRule, ClassZocRule, (_nobody,), {"blocking_sides": frozenset({"river"})}),
    (ZocRule, ClassZocRule, (None, _nobody, frozenset({"lake"}), _nobody, True), {}),
    (RegionFlood, ClassRegionFlood, (_nobody,), {"networks": ("rail",), "max_steps": 4}),
    (RegionFlood, ClassRegionFlood, (_nobody, _nobody, None, 3, _nobody), {}),
    (SpreadFlood, ClassSpreadFlood, (_nobody, {"0101": ("0102",)}), {}),
    (SpreadFlood, ClassSpreadFlood, (_nobody, {}), {"blocked": _nobody}),
    (TerrainClass, ClassTerrainClass, ("clear", "."), {}),
    (TerrainClass, ClassTerrainClass, ("woods", "w", "#0a0", "^"),
     {"attrs": MappingProxyType({"blocks_los": True})}),
    (OffMapBox, ClassOffMapBox, ("baku", "Baku"), {}),
    (OffMapBox, ClassOffMapBox, ("baku", "Baku", ("0101", "0102")), {}),
    (MoveClass, ClassMoveClass, ("leg", {"clear": 1}), {}),
    (MoveClass, ClassMoveClass, ("mech", {"clear": 1, "swamp": None}, {"swamp": 2}),
     {"networks": {"road": 1}, "negated_by": {"river": ["bridge"]}, "dearest": True,
      "fills": frozenset({"clear"}), "overrides": ("town",), "leave_features": {"creek": 2}}),
    (Numbering, ClassNumbering, (), {}),
    (Numbering, ClassNumbering, (3,), {"row_digits": 1}),
    (HexGrid, ClassHexGrid, (), {}),
    (HexGrid, ClassHexGrid, ("odd", (1, 30), (2, 12)), {"numbering": Numbering(3, 2)}),
    (Doc, ClassDoc, ("data/a.toml", "a = 1\n", ("a",)), {}),
    (Doc, ClassDoc, ("data/a.toml", "a = 1\n", ("a",), b"\x81\xa1a\x01"), {}),
    (StandIn, ClassStandIn, ("data/tables.toml", "tables.crt", "no chart"), {}),
    (ScenarioSet, ClassScenarioSet, ("scenarios/x", MappingProxyType({"map.toml": _DOC}), (),
                                     "map.toml", MappingProxyType({}), ()), {}),
    (ScenarioSet, ClassScenarioSet, ("scenarios/x", MappingProxyType({"map.toml": _DOC}), (),
                                     None, MappingProxyType({"crt": _TABLE}), (_STAND_IN,)),
     {"scenarios": MappingProxyType({"first": "map.toml"})}),
    (Table, ClassTable, ("crt", "odds", ("1:1", "2:1"), (("1", ("AR", "DR")),)), {}),
    (Table, ClassTable, ("tec", "terrain", ("cost",), (("clear", (1,)),), "no chart",
                         "tables.toml: tables.tec"), {"extra": MappingProxyType({"die": 6})}),
]

#: the records equal to another of the same fields (a flood is equal only to itself)
EQUAL_BY_VALUE = (ZocRule, TerrainClass, OffMapBox, HexGrid, Numbering, MoveClass, Doc,
                  StandIn, ScenarioSet, Table)


@pytest.mark.parametrize(("kit", "reference", "args", "kwargs"), CASES)
def test_a_rule_is_the_dataclass_it_was(kit: Callable[..., Any], reference: Callable[..., Any],
                                        args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    value, twin = kit(*args, **kwargs), reference(*args, **kwargs)
    names = [f.name for f in dataclasses.fields(twin)]
    assert [getattr(value, n) for n in names] == [getattr(twin, n) for n in names]
    assert type(value).__match_args__ == type(twin).__match_args__
    assert repr(value) == repr(twin).removeprefix("Class")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field"):
        value.max_steps = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field"):
        del value.blocked
    assert copy.copy(value) is value and copy.deepcopy(value) is value
    again = kit(*args, **kwargs)
    assert (again == value) is (kit in EQUAL_BY_VALUE) and value == value
    fields = {n: getattr(value, n) for n in names}
    if kit is ZocRule:
        assert hash(again) == hash(value) and value != twin
        assert value != kit(**{**fields, "include_own_hex": not value.include_own_hex})
    elif kit is OffMapBox:
        assert hash(again) == hash(value) == hash(twin) and value != twin
        assert value != kit(**{**fields, "title": "elsewhere"})
    elif kit is HexGrid:
        assert hash(again) == hash(value) == hash(twin) and value != twin
        assert value != kit(**{**fields, "rows": (1, 99)})
    elif kit is Numbering:
        assert hash(again) == hash(value) == hash(twin) and value != twin
        assert value != kit(**{**fields, "row_digits": 4})
    elif kit is StandIn:
        assert hash(again) == hash(value) == hash(twin) and value != twin
        assert value != kit(**{**fields, "reason": "elsewhere"})
    elif kit is Doc:
        # the bytes the data cache kept are not compared: the same text is the same file
        assert hash(again) == hash(value) == hash(twin) and value != twin
        assert value == kit(**{**fields, "packed": b"other"}) and "packed" not in repr(value)
        assert value != kit(**{**fields, "text": "b = 2\n"})
    elif kit in (TerrainClass, MoveClass, ScenarioSet, Table):
        # its tables are mappings, which have no hash: nor has the record
        with pytest.raises(TypeError):
            hash(value)
        with pytest.raises(TypeError):
            hash(twin)
        first = "source" if kit is ScenarioSet else "name"
        assert value != kit(**{**fields, first: "other"})


@pytest.mark.parametrize("kit", [ZocRule, RegionFlood, SpreadFlood, TerrainClass, OffMapBox,
                                 Numbering, HexGrid, HexMap, MoveClass, Doc, StandIn,
                                 ScenarioSet, Table])
def test_a_rule_refuses_what_its_dataclass_refused(kit: Callable[..., Any]) -> None:
    with pytest.raises(TypeError):
        kit(*[None] * 13)
    with pytest.raises(TypeError):
        kit(unknown=1)


def test_a_grid_refuses_what_its_dataclass_refused() -> None:
    with pytest.raises(ValueError, match="digit widths must be positive"):
        Numbering(0, 2)
    with pytest.raises(ValueError, match="parity must be"):
        HexGrid("wide")
    with pytest.raises(ValueError, match="empty grid"):
        HexGrid("odd", (3, 1))
    with pytest.raises(ValueError):  # a corner whose number does not fit its digits
        HexGrid("odd", (1, 120), (1, 3))


def test_a_map_is_the_dataclass_it_was() -> None:
    m = make_map(3, 2, {"0102": "forest"}, hexsides={"river": [("0101", "0201")]})
    names = list(HexMap._fields)
    values = {n: getattr(m, n) for n in names}
    twin = dataclasses.make_dataclass("HexMap", names, frozen=True)(**values)
    assert repr(m) == repr(twin)
    assert m == HexMap(**values) and m == make_map(3, 2, {"0102": "forest"},
                                                   hexsides={"river": [("0101", "0201")]})
    assert m != make_map(3, 2) and m != twin
    with pytest.raises(TypeError):  # its tables are read-only mappings, with no hash
        hash(m)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field"):
        m.title = "elsewhere"  # type: ignore[misc]
    assert copy.copy(m) is m and copy.deepcopy(m) is m


def test_scenario_data_keeps_what_it_works_out_as_its_dataclass_did() -> None:
    doc = Doc("data/a.toml", "a = 1\n[b]\nc = 'd'\n", ("a", "b"))
    assert doc.data == {"a": 1, "b": {"c": "d"}} and "data" in vars(doc)
    assert doc.data is doc.data and doc.stand_ins == ()
    doc.__dict__["_digest"] = "ab" * 32  # what the scenario loader writes
    assert doc == Doc(doc.name, doc.text, doc.top) and doc.__dict__["_digest"] == "ab" * 32
    assert Table("t", "lookup", (), ()).extra == {}
    assert Table("t", "lookup", (), ()).extra is not Table("t", "lookup", (), ()).extra
    assert ScenarioSet("s", {}, (), None, {}, ()).scenarios == {}
    nameless = ScenarioSet("scenarios/x", {}, (), None, {}, ())
    with pytest.raises(ScenarioError, match="no file has a \\[map\\] table"):
        nameless.map  # noqa: B018
    assert _TABLE.cell("1", "2:1") == "DR" and _TABLE.replace(kind="other").kind == "other"
