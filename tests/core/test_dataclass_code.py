"""pbem.dataclass_code: the generated methods of dataclasses kept beside the bytecode give
the same classes as compiling them afresh, and a bad file costs only time (issue 19)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pbem import dataclass_code

MODULE = '''
from __future__ import annotations
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Card:
    """A frozen class: init, repr, eq, hash, setattr, delattr."""
    name: str
    key: bytes = b""
    tags: tuple[str, ...] = ()

@dataclass
class Bag:
    """A mutable class with a factory and an ordering."""
    items: list[int] = field(default_factory=list)
    count: int = 0

@dataclass(order=True)
class Ranked:
    rank: int
    name: str = "x"
'''

PROBE = '''
import dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
import pbem  # installs the cache
from pbem import dataclass_code
dataclass_code.PREFIXES = ("probe_pkg.",) if sys.argv[2] == "on" else ()
if sys.argv[2] == "keep":  # as the registry asks for an engine's package
    dataclass_code.keep("probe_pkg")
compiled = []
real = compile
def counting(*args, **kwargs):
    compiled.append(args[0] if args else "")
    return real(*args, **kwargs)
dataclass_code.compile = counting
from probe_pkg import mod
card = mod.Card("a", b"k", ("t",))
out = {
    "compiled": len(compiled),
    "repr": [repr(card), repr(mod.Bag()), repr(mod.Ranked(1))],
    "eq": [card == mod.Card("a", b"k", ("t",)), mod.Bag() == mod.Bag([], 0)],
    "hash": hash(card) == hash(mod.Card("a", b"k", ("t",))),
    "order": mod.Ranked(1) < mod.Ranked(2),
    "fields": [f.name for f in dataclasses.fields(mod.Bag)],
    "init_annotations": {k: str(v) for k, v in mod.Bag.__init__.__annotations__.items()},
    "doc": mod.Ranked.__doc__,
}
try:
    card.name = "b"
except dataclasses.FrozenInstanceError as exc:
    out["frozen"] = type(exc).__name__
try:
    del card.name
except dataclasses.FrozenInstanceError as exc:
    out["frozen_del"] = type(exc).__name__
init = mod.Card.__init__.__code__
out["init_code"] = [init.co_filename, init.co_varnames, init.co_flags]
print(json.dumps(out, sort_keys=True))
'''


def _probe(root: Path, write: bool = True, keep: str = "on") -> dict[str, object]:
    import json

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, "-c", PROBE, str(root), keep], capture_output=True,
                          text=True, env=env, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.fixture
def package(tmp_path: Path) -> Path:
    pkg = tmp_path / "probe_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(textwrap.dedent(MODULE))
    return tmp_path


def _kept(root: Path) -> list[Path]:
    return sorted((root / "probe_pkg" / "__pycache__").glob(f"mod.*{dataclass_code.SUFFIX}"))


def test_kept_code_makes_the_same_classes(package: Path) -> None:
    first = _probe(package)
    assert first["compiled"] == 6 + 3 + 7  # every method compiled once
    (kept,) = _kept(package)
    second = _probe(package)
    assert second["compiled"] == 0  # every method from the kept file
    first.pop("compiled")
    second.pop("compiled")
    assert second == first
    assert first["frozen"] == first["frozen_del"] == "FrozenInstanceError"
    # as dataclasses makes them alone (the annotations too: compiled with this module's
    # own __future__ flags they would read '_type_items', '_return_type')
    plain = _probe(package, keep="off")
    assert plain.pop("compiled") == 16  # compiled as dataclasses would, every time
    assert plain == first
    assert first["init_annotations"] == {"items": "list[int]", "count": "int",
                                         "return": "None"}
    assert kept.read_bytes().startswith(dataclass_code.HEADER)


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "not a table", "empty"])
def test_a_bad_file_is_compiled_again_and_replaced(package: Path, damage: str) -> None:
    import marshal

    reference = _probe(package)
    (kept,) = _kept(package)
    data = bytearray(kept.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        del data[len(data) // 2:]
    elif damage == "header":
        data[0] ^= 1
    elif damage == "not a table":
        data = bytearray(dataclass_code.HEADER + marshal.dumps({"source": 1}))
    else:
        data = bytearray()
    kept.write_bytes(bytes(data))
    again = _probe(package)
    reference.pop("compiled")
    if damage != "flip":  # a flipped byte may land in a constant: then it is compiled anew
        assert again.pop("compiled") == 16
    again.pop("compiled", None)
    assert again == reference
    assert _probe(package)["compiled"] == 0  # written afresh


def test_a_changed_class_drops_its_old_entries(package: Path) -> None:
    _probe(package)
    mod = package / "probe_pkg" / "mod.py"
    # another size (the .pyc is checked by size and time: a same-size edit within the
    # second would keep the old bytecode)
    mod.write_text(mod.read_text().replace("count: int = 0", "total_items: int = 0"))
    assert _probe(package)["compiled"] == 3  # Bag's __init__, __repr__ and __eq__
    import marshal

    (kept,) = _kept(package)
    table = marshal.loads(kept.read_bytes()[len(dataclass_code.HEADER):])
    # a record a class (issue 35): its methods, in dataclasses' order; Bag's by its new
    # field's name, the old one's gone
    assert sorted(len(names) for names, _ in table.values()) == [3, 6, 7]
    assert not any("count" in str(key) for key in table)
    (bag,) = (record for key, record in table.items() if "total_items" in str(key))
    assert bag[0] == ("__init__", "__repr__", "__eq__")


def test_nothing_written_without_bytecode_and_other_modules_untouched(package: Path) -> None:
    _probe(package, write=False)
    assert _kept(package) == []
    # a module outside the prefixes compiles as dataclasses does, nothing kept
    assert dataclasses.exec is dataclass_code._exec  # type: ignore[attr-defined]

    @dataclasses.dataclass
    class Local:
        x: int = 1

    assert Local() == Local(1) and repr(Local()) == "test_nothing_written_without_bytecode_" \
        "and_other_modules_untouched.<locals>.Local(x=1)"


def test_an_engine_package_the_registry_loads_is_kept(package: Path) -> None:
    first = _probe(package, keep="keep")
    assert first["compiled"] == 16 and len(_kept(package)) == 1
    assert _probe(package, keep="keep")["compiled"] == 0


FIELD_KINDS = '''
from __future__ import annotations
import dataclasses
import typing
from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import ClassVar

@dataclass
class Kinds:
    """Every kind of field a string annotation can name, twice over."""
    a: int
    shared: ClassVar[int] = 3
    also_shared: typing.ClassVar[str] = "s"
    seed: InitVar[int] = 0
    also_seed: dataclasses.InitVar[str] = ""
    _: KW_ONLY
    b: int = 1
    made: list[int] = field(default_factory=list)

    def __post_init__(self, seed: int, also_seed: str) -> None:
        self.made.append(seed)

@dataclass(frozen=True)
class Again:
    """The same annotations in another class: their matches are kept."""
    a: int
    shared: ClassVar[int] = 4
    b: int = 2
'''


def test_annotation_matches_are_kept_and_fields_unchanged(tmp_path: Path) -> None:
    """Each string annotation is matched once (issue 35: three matches a field were 0.15 M
    instructions of a six-field class), and ClassVar, InitVar and KW_ONLY, by name or
    through their module, make the same fields as Python's own dataclasses."""
    (tmp_path / "kinds_probe.py").write_text(FIELD_KINDS)
    sys.path.insert(0, str(tmp_path))
    try:
        kept = dataclasses._MODULE_IDENTIFIER_RE  # type: ignore[attr-defined]
        assert isinstance(kept, dataclass_code.KeptMatches)
        before = kept.match.cache_info()
        import kinds_probe
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("kinds_probe", None)
    after = kept.match.cache_info()
    # 8 + 3 fields, three questions each; "int" and "ClassVar[int]" come back in Again
    assert after.hits - before.hits >= 3 * 3 + 2 * 2
    assert [f.name for f in dataclasses.fields(kinds_probe.Kinds)] == ["a", "b", "made"]
    assert [f.kw_only for f in dataclasses.fields(kinds_probe.Kinds)] == [False, True, True]
    made = kinds_probe.Kinds(1, 7, "x", b=2)
    assert (made.a, made.b, made.made, kinds_probe.Kinds.shared) == (1, 2, [7], 3)
    assert [f.name for f in dataclasses.fields(kinds_probe.Again)] == ["a", "b"]
    # what else a Python's dataclasses may ask of the pattern reads it unkept
    assert kept.fullmatch("typing.ClassVar") is not None
