"""pbem.dataclass_code makes the dataclasses of pbem and its engines from a kept record of
their shape (issue 35): every class it makes is the class Python's own dataclasses makes
from the same class body (fields, parameters, methods and their code, behaviour), a
changed class is never made from a stale record, and a bad record only costs time."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pbem import dataclass_code

ROOT = Path(__file__).resolve().parents[2]

#: the record path replaces Python 3.11's dataclasses._process_class; another Python makes
#: every class by its own dataclasses (pbem.dataclass_code.install leaves it alone there)
pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                                reason="the record path is for Python 3.11's dataclasses")

#: run in a fresh process: every dataclass a kept module makes is made three times from
#: the same class body: by pbem's path (the class the module keeps), by Python's own
#: dataclasses (a copy of the body), and by pbem's path again (a second copy: from the
#: record the first made or read); the three are described and compared, and the
#: instances of each (where the class takes no arguments) compared in behaviour
PROBE = r'''
import builtins, copy, dataclasses, importlib, json, pkgutil, re, sys, types
sys.path[:0] = json.loads(sys.argv[1])
import pbem
from pbem import dataclass_code as dc
if json.loads(sys.argv[2]):
    dc.PREFIXES = tuple(json.loads(sys.argv[2]))
ours = dataclasses._process_class
assert ours is dc._process_class, "the path is not installed"
plain = dc._plain_process
SCALARS = (str, int, bool, float, bytes, type(None))
report = {"classes": 0, "differ": [], "made": [], "again": [], "behaviour": 0}


def token(value):
    if type(value) in SCALARS:
        return ["v", value]
    if type(value) is tuple and all(type(v) in SCALARS for v in value):
        return ["t", list(value)]
    return ["id", id(value)]


def code(c):
    return [c.co_name, c.co_qualname, c.co_filename, c.co_firstlineno, c.co_argcount,
            c.co_posonlyargcount, c.co_kwonlyargcount, c.co_flags, c.co_code.hex(),
            list(c.co_names), list(c.co_varnames), list(c.co_freevars),
            list(c.co_cellvars), c.co_linetable.hex(), c.co_exceptiontable.hex(),
            [code(k) if isinstance(k, types.CodeType) else token(k) for k in c.co_consts]]


def made_here(fn):
    # a function dataclasses made (its text run from '<string>', or its repr wrapper)
    return isinstance(fn, types.FunctionType) and (
        fn.__code__.co_filename == "<string>" or hasattr(fn, "__wrapped__"))


def function(fn, made):
    cells = []
    for cell in fn.__closure__ or ():
        content = cell.cell_contents
        if isinstance(content, type) and content.__qualname__ == made.__qualname__:
            cells.append(["class", content is made])
        elif made_here(content):
            cells.append(function(content, made))
        elif type(content) is set:
            cells.append(["set", sorted(map(repr, content))])
        else:
            cells.append(token(content))
    return {"name": fn.__name__, "qualname": fn.__qualname__, "module": fn.__module__,
            "doc": fn.__doc__, "code": code(fn.__code__),
            # None and an empty one told apart, and each in its order: the record path
            # makes the __init__'s and the frozen methods' from their kept code directly
            "defaults": fn.__defaults__ and [token(d) for d in fn.__defaults__],
            "kwdefaults": fn.__kwdefaults__ and [
                [k, token(v)] for k, v in fn.__kwdefaults__.items()],
            "annotations": [[k, token(v)] for k, v in fn.__annotations__.items()],
            "closure": fn.__closure__ and cells, "globals": fn.__globals__.get("__name__"),
            "dict": {k: function(v, made) if made_here(v) else token(v)
                     for k, v in fn.__dict__.items()}}


def field(f):
    return [f.name, token(f.type), token(f.default), token(f.default_factory), token(f.init),
            token(f.repr), token(f.hash), token(f.compare), token(f.kw_only),
            [type(f.metadata).__name__, sorted((repr(k), repr(v)) for k, v in f.metadata.items())],
            repr(f._field_type)]


def describe(cls):
    out = {"name": cls.__name__, "qualname": cls.__qualname__, "module": cls.__module__,
           "bases": [token(b) for b in cls.__bases__], "metaclass": token(type(cls)),
           # the order of the class's keys; a copy of the body gets its __dict__ and
           # __weakref__ descriptors at its end, the class at its making
           "keys": [k for k in cls.__dict__ if k not in ("__dict__", "__weakref__")],
           "mro": len(cls.__mro__)}
    for key, value in cls.__dict__.items():
        if key == "__dataclass_fields__":
            out[key] = {k: field(f) for k, f in value.items()}
        elif key == "__annotations__":  # the copy's own dict: compared by content
            out[key] = {k: token(v) for k, v in value.items()}
        elif key == "__abstractmethods__":
            out[key] = sorted(value)
        elif key == "_abc_impl":  # ABCMeta's own for each class
            out[key] = type(value).__name__
        elif key == "__dataclass_params__":
            out[key] = repr(value)
        elif made_here(value):
            out[key] = function(value, cls)
        elif type(value) in (types.MemberDescriptorType, types.GetSetDescriptorType):
            out[key] = [type(value).__name__, value.__name__]
        else:
            out[key] = token(value)
    out["fields()"] = [field(f) for f in dataclasses.fields(cls)]
    out["doc"] = cls.__doc__
    out["match_args"] = token(getattr(cls, "__match_args__", None))
    out["slots"] = token(cls.__dict__.get("__slots__"))
    return out


def outcome(call):
    try:
        value = call()
        # an object's default repr names its address
        return ["ok", re.sub(" at 0x[0-9a-f]+", "", value) if type(value) is str else value]
    except Exception as exc:  # noqa: BLE001: the behaviour compared is the error too
        return ["raised", type(exc).__name__, str(exc)]


def behaviour(cls):
    try:
        a, b = cls(), cls()
    except Exception:
        return None
    names = [f.name for f in dataclasses.fields(cls)]
    out = {"repr": outcome(lambda: repr(a)), "eq": outcome(lambda: a == b),
           "ne": outcome(lambda: a != b), "hash": outcome(lambda: hash(a) == hash(b)),
           "replace": outcome(lambda: dataclasses.replace(a) == a),
           "asdict": outcome(lambda: repr(dataclasses.asdict(a))),
           "astuple": outcome(lambda: repr(dataclasses.astuple(a))),
           "copy": outcome(lambda: copy.copy(a) == a),
           "deepcopy": outcome(lambda: repr(copy.deepcopy(a))),
           "dict": outcome(lambda: sorted(vars(a))),
           "lt": outcome(lambda: a < b)}
    if names:
        out["set"] = outcome(lambda: setattr(a, names[0], getattr(b, names[0])))
        out["del"] = outcome(lambda: delattr(b, names[-1]))
        out["set_other"] = outcome(lambda: setattr(a, "not_a_field", 1))
    return out


def clone(cls):
    body = dict(cls.__dict__)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    if "__annotations__" in body:
        body["__annotations__"] = dict(body["__annotations__"])
    for key, value in list(body.items()):
        if isinstance(value, dataclasses.Field):
            twin = object.__new__(type(value))
            for slot in dataclasses.Field.__slots__:
                setattr(twin, slot, getattr(value, slot))
            body[key] = twin
    return type(cls)(cls.__name__, cls.__bases__, body)


def counted(cls, *params):
    before = dict(dc.made)
    result = ours(cls, *params)
    return result, [k for k in dc.made if dc.made[k] != before[k]]


def made_by_python(cls, *params):
    # Python's own dataclasses with the builtin exec: the reference keeps nothing beside
    # the bytecode (kept, each class's method texts stayed in its module's file beside
    # its record, and every later process read them: 2.6 times the bytes, issue 35)
    routed = dataclasses.exec
    dataclasses.exec = builtins.exec
    try:
        return plain(cls, *params)
    finally:
        dataclasses.exec = routed


def comparing(cls, *params):
    module = cls.__module__
    if not module.startswith(dc.PREFIXES):
        return ours(cls, *params)
    twin, again = clone(cls), clone(cls)
    result, how = counted(cls, *params)
    expected = made_by_python(twin, *params)
    second, how_again = counted(again, *params)
    report["classes"] += 1
    report["made"] += how
    report["again"] += how_again
    first, reference, third = describe(result), describe(expected), describe(second)
    if not first == reference == third:
        diff = sorted(k for k in set(first) | set(reference) | set(third)
                      if not first.get(k) == reference.get(k) == third.get(k))
        report["differ"].append([module, cls.__qualname__, diff])
    acts = [behaviour(result), behaviour(expected), behaviour(second)]
    if acts[0] is not None:
        report["behaviour"] += 1
        if not acts[0] == acts[1] == acts[2]:
            report["differ"].append([module, cls.__qualname__, ["behaviour", acts]])
    return result


dataclasses._process_class = comparing
for name in json.loads(sys.argv[3]):
    module = importlib.import_module(name)
    if hasattr(module, "__path__"):
        for info in pkgutil.walk_packages(module.__path__, name + "."):
            importlib.import_module(info.name)
report["texts"] = sorted(m for m, used in dc._used.items()
                         if any(type(key) is str for key in used))
print(json.dumps(report))
'''


def _compare(modules: list[str], paths: list[str] | None = None,
             prefixes: tuple[str, ...] = (), write: bool = True) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(paths or []), json.dumps(list(prefixes)),
         json.dumps(modules)], capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return report


def _summary(report: dict[str, object], key: str) -> dict[str, int]:
    made = report[key]
    assert isinstance(made, list)
    return {how: made.count(how) for how in ("kept", "new", "plain")}


def test_every_dataclass_of_pbem_and_the_engines_is_the_one_dataclasses_makes() -> None:
    """Every module of pbem and the bundled engines imported, each dataclass made both
    ways from the same body: the same fields, parameters, methods (their code, defaults,
    closures, names), docstring, __match_args__, __slots__, and the same behaviour of
    their instances; every one made by pbem's path, from its record the second time."""
    first = _compare(["pbem", "engines"])
    assert first["differ"] == []
    assert isinstance(first["classes"], int) and first["classes"] >= 130
    assert isinstance(first["behaviour"], int) and first["behaviour"] >= 20
    assert _summary(first, "made")["plain"] == 0  # none left to dataclasses
    # nor a method's text kept for a later process to read beside the records
    assert first["texts"] == []
    # the copy made after each class, from the record that class made or read
    assert _summary(first, "again") == {"kept": first["classes"], "new": 0, "plain": 0}
    # a second process reads every record the first kept (or found) beside the bytecode
    second = _compare(["pbem", "engines"])
    assert second["differ"] == []
    assert _summary(second, "made") == {"kept": second["classes"], "new": 0, "plain": 0}


FEATURES = '''
from __future__ import annotations

import abc
import dataclasses
import typing
from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Frozen:
    """Frozen: init, repr, eq, hash, setattr, delattr."""
    name: str = "a"
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FrozenSlots:
    """Frozen with slots: pickled through dataclasses' getstate/setstate."""
    x: int = 1
    y: str = "y"


@dataclass(slots=True, weakref_slot=True)
class Slots:
    """Slots and a weakref slot."""
    items: list[int] = field(default_factory=list)
    count: int = 0


@dataclass(eq=False)
class NoEq:
    """Compared by identity."""
    value: int = 0


@dataclass(kw_only=True)
class KwOnly:
    """Every field keyword-only."""
    a: int = 1
    b: str = "b"


@dataclass
class Marker:
    """A KW_ONLY marker, an InitVar, a ClassVar by name and through its module."""
    a: int = 0
    shared: ClassVar[int] = 3
    also: typing.ClassVar[str] = "s"
    seed: InitVar[int] = 5
    other: dataclasses.InitVar[str] = "o"
    _: KW_ONLY
    b: int = 2
    made: list[int] = field(default_factory=list)

    def __post_init__(self, seed: int, other: str) -> None:
        self.made.append(seed)


@dataclass
class Options:
    """field() with every option."""
    hidden: int = field(default=1, repr=False)
    loose: int = field(default=2, compare=False)
    hashed: int = field(default=3, hash=True)
    late: list[str] = field(default_factory=list, init=False)
    fixed: int = field(default=7, init=False)
    noted: str = field(default="n", metadata={"unit": "hex"})
    keyed: int = field(default=0, kw_only=True)


@dataclass(order=True, unsafe_hash=True)
class Ordered:
    """Ordered, hashed though mutable."""
    rank: int = 0
    name: str = ""


@dataclass(frozen=True)
class Base:
    """A base."""
    side: str = "red"
    strength: int = 4


@dataclass(frozen=True)
class Derived(Base):
    """A subclass that overrides a base field's default and adds one."""
    strength: int = 6
    morale: str = "good"


@dataclass
class Own:
    """A class with its own eq, hash and repr: dataclasses keeps them."""
    x: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Own)

    def __hash__(self) -> int:
        return 7

    def __repr__(self) -> str:
        return "own"


@dataclass
class EqOnly:
    """Its own __eq__ only: no hash."""
    x: int = 0

    def __eq__(self, other: object) -> bool:
        return True


@dataclass
class Bare:
    x: int = 0
    y: tuple[int, ...] = ()


@dataclass
class Self:
    """A field called self: the init's first argument is renamed."""
    self: int = 0


@dataclass(init=False, repr=False, eq=False, match_args=False)
class Nothing:
    """Nothing generated but the fields."""
    x: int = 0


@dataclass
class PostBase:
    """A base with a __post_init__."""
    n: int = 0

    def __post_init__(self) -> None:
        self.n += 1


@dataclass
class PostDerived(PostBase):
    """A __post_init__ inherited: the __init__ calls it."""
    m: int = 0


@dataclass
class Required:
    """No defaults: made only by the comparison of classes."""
    a: int
    b: str


class Mixin:
    """A plain base whose attribute is a subclass's field's default."""
    colour = "grey"


@dataclass
class FromMixin(Mixin):
    """A field given no default of its own: the one its base has."""
    colour: str


class Shape(abc.ABC):
    @abc.abstractmethod
    def __repr__(self) -> str: ...


@dataclass
class Square(Shape):
    """An abstract class's subclass whose abstract method dataclasses writes: its
    abstract methods worked out again once made, or it could not be made."""
    side: int = 1

    def area(self) -> int:
        return self.side * self.side
'''


@pytest.fixture
def features(tmp_path: Path) -> Path:
    pkg = tmp_path / "probe_feat"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "feat.py").write_text(textwrap.dedent(FEATURES))
    return tmp_path


def test_each_feature_is_made_as_dataclasses_makes_it(features: Path) -> None:
    """Frozen, slots, weakref_slot, eq=False, kw_only, KW_ONLY, InitVar, ClassVar,
    default_factory, field() options, order, unsafe_hash, __post_init__, inheritance, a
    class with its own methods, a class without a docstring, a default a plain base
    gives, an abstract base whose abstract method dataclasses writes: each made both ways the
    same, first from dataclasses with its record kept, then from that record."""
    args = (["probe_feat"], [str(features)], ("probe_feat.",))
    first = _compare(*args)
    assert first["differ"] == []
    assert first["classes"] == 20 and first["behaviour"] == 19
    assert _summary(first, "made") == {"kept": 0, "new": 20, "plain": 0}
    assert _summary(first, "again")["kept"] == 20
    second = _compare(*args)
    assert second["differ"] == []
    assert _summary(second, "made") == {"kept": 20, "new": 0, "plain": 0}
    # without bytecode written nothing is kept: made by dataclasses, then from the
    # record the process made, the same classes
    (features / "probe_feat" / "__pycache__").rename(features / "gone")
    unwritten = _compare(*args, write=False)
    assert unwritten["differ"] == [] and _summary(unwritten, "made")["new"] == 20
    assert not (features / "probe_feat" / "__pycache__").exists()


PICKLED = '''
import copy, json, pickle, sys, dataclasses
sys.path.insert(0, sys.argv[1])
from pbem import dataclass_code
dataclass_code.keep("probe_feat")
from probe_feat import feat
out = {"post": repr(feat.PostDerived())}
out["inherited"] = [repr(feat.FromMixin()), repr(feat.Square(3)), feat.Square(3).area(),
                    sorted(feat.Square.__abstractmethods__)]
for name in ("Frozen", "FrozenSlots", "Slots", "KwOnly", "Options", "Ordered", "Derived"):
    cls = getattr(feat, name)
    a = cls()
    b = pickle.loads(pickle.dumps(a))
    out[name] = [repr(b), b == a, repr(copy.deepcopy(a)), type(b) is cls]
m = feat.Marker(1, 9, "x", b=3)
out["marker"] = [repr(m), m.made, [f.name for f in dataclasses.fields(m)],
                 feat.Marker.__match_args__]
try:
    feat.FrozenSlots().x = 2
except dataclasses.FrozenInstanceError as exc:
    out["frozen"] = str(exc)
out["made"] = dataclass_code.made
print(json.dumps(out))
'''


def test_instances_pickle_as_dataclasses_makes_them(features: Path) -> None:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def run(keep: bool) -> dict[str, object]:
        code = PICKLED if keep else PICKLED.replace('dataclass_code.keep("probe_feat")', "")
        done = subprocess.run([sys.executable, "-c", code, str(features)], env=env,
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        result: dict[str, object] = json.loads(done.stdout)
        return result

    plain = run(False)
    assert plain.pop("made") == {"kept": 0, "new": 0, "plain": 20}
    assert run(True).pop("made") == {"kept": 0, "new": 20, "plain": 0}
    kept = run(True)
    assert kept.pop("made") == {"kept": 20, "new": 0, "plain": 0}
    assert kept == plain
    assert plain["marker"] == ["Marker(a=1, b=3, made=[9])", [9], ["a", "b", "made"],
                               ["a", "seed", "other"]]
    assert plain["frozen"] == "cannot assign to field 'x'"
    assert plain["post"] == "PostDerived(n=1, m=0)"
    assert plain["inherited"] == ["FromMixin(colour='grey')", "Square(side=3)", 9, []]


def test_a_changed_class_is_made_afresh(features: Path) -> None:
    """A field added, a default changed, a base changed: each class made as dataclasses
    makes the new body, never from the record of the old one."""
    args = (["probe_feat"], [str(features)], ("probe_feat.",))
    _compare(*args)
    source = features / "probe_feat" / "feat.py"
    text = source.read_text()
    for old, new in (('    tags: tuple[str, ...] = ()\n',  # Frozen: a field added
                      '    tags: tuple[str, ...] = ()\n    extra: int = 0\n'),
                     ('    count: int = 0\n', '    count: int = 99\n'),  # a default
                     ('class Derived(Base):', 'class Derived(Frozen):')):  # a base
        assert old in text
        text = text.replace(old, new)
    source.write_text(text)
    report = _compare(*args)
    assert report["differ"] == []
    # Frozen and Derived have new shapes; Slots' shape is the same: its record is
    # used, with the new default
    assert _summary(report, "made") == {"kept": 18, "new": 2, "plain": 0}
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import pbem, dataclasses; "
             "from pbem import dataclass_code; dataclass_code.keep('probe_feat'); "
             "from probe_feat import feat; print(repr(feat.Slots()), "
             "[f.name for f in dataclasses.fields(feat.Derived)], repr(feat.Frozen()))")
    done = subprocess.run([sys.executable, "-c", probe, str(features)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "Slots(items=[],", "count=99)", "['name',", "'tags',", "'extra',", "'strength',",
        "'morale']", "Frozen(name='a',", "tags=(),", "extra=0)"]


def test_a_record_keeps_each_method_alone(features: Path) -> None:
    """A record holds each method's own code, not the __create_fn__ that made it: the
    class is made from the method's code with the defaults, annotations and closure that
    function gave it (the file a quarter smaller, issue 35), and as dataclasses makes it
    (the comparison above)."""
    args = (["probe_feat"], [str(features)], ("probe_feat.",))
    _compare(*args)
    (kept,) = (features / "probe_feat" / "__pycache__").glob(f"*{dataclass_code.SUFFIX}")
    table = marshal.loads(kept.read_bytes()[len(dataclass_code.HEADER):])
    records = [entry for key, entry in table.items() if type(key) is tuple]
    assert len(records) == 20
    for names, codes in records:
        assert [code.co_name for code in codes] == list(names)
        # what a method closes over: the frozen ones the class and FrozenInstanceError,
        # an __init__ only what _init_fn passes; no other method anything
        for name, code in zip(names, codes, strict=True):
            assert set(code.co_freevars) <= (
                {"cls", "FrozenInstanceError"} if name in ("__setattr__", "__delattr__")
                else {"MISSING", "_HAS_DEFAULT_FACTORY", "__dataclass_builtins_object__"}
                | {v for v in code.co_freevars if v.startswith("_dflt_")}
                if name == "__init__" else set()), (name, code.co_freevars)


def test_a_field_without_an_annotation_is_refused_as_dataclasses_refuses_it(
        tmp_path: Path) -> None:
    """A field(...) in a kept module's class body with no annotation: the class is left
    to dataclasses, which raises its own error, in every process (nothing kept)."""
    pkg = tmp_path / "probe_bare"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(textwrap.dedent('''
        from __future__ import annotations
        from dataclasses import dataclass, field


        @dataclass
        class Loose:
            a: int = 0
            x = field(default=1)
        '''))
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from pbem import dataclass_code\n"
             "dataclass_code.keep('probe_bare')\n"
             "try:\n    import probe_bare.mod\n"
             "except TypeError as exc:\n    print(exc, dataclass_code.made)\n")
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], env=env,
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.strip() == ("'x' is a field but has no type annotation "
                                       "{'kept': 0, 'new': 0, 'plain': 1}")


def test_a_record_that_does_not_fit_is_not_used(features: Path) -> None:
    """Each record swapped for another class's: a record whose methods do not fit the
    class (its __init__ takes other arguments) goes to dataclasses, which makes the
    class as ever and keeps its own record again."""
    args = (["probe_feat"], [str(features)], ("probe_feat.",))
    _compare(*args)
    (kept,) = (features / "probe_feat" / "__pycache__").glob(f"*{dataclass_code.SUFFIX}")
    table = marshal.loads(kept.read_bytes()[len(dataclass_code.HEADER):])
    # Options' record (an __init__ of eight arguments, a repr, an eq) for every class
    # but Options, which gets Frozen's (the same methods but a hash, fewer arguments)
    (options,) = (key for key in table if type(key) is tuple and "noted" in str(key))
    (frozen,) = (key for key in table if type(key) is tuple and "tags" in str(key))
    records = {options: table[frozen], frozen: table[options]}
    for key in table:
        if type(key) is tuple:
            table[key] = records[options if key == options else frozen]
    kept.write_bytes(dataclass_code.HEADER + marshal.dumps(table))
    report = _compare(*args)
    assert report["differ"] == []
    # none fits: each class made by dataclasses, its own record kept again
    assert _summary(report, "made") == {"kept": 0, "new": 20, "plain": 0}
    assert _summary(_compare(*args), "made") == {"kept": 20, "new": 0, "plain": 0}


THREADS = '''
import sys, threading
sys.path.insert(0, sys.argv[1])
from pbem import dataclass_code
dataclass_code.keep("probe_threads")
done = threading.Event()
real = dataclass_code._compile


def compiling(source):
    # the first thread's class waits, half made, until the second's is made
    if "alpha" in source and threading.current_thread().name == "first":
        done.wait(30)
    return real(source)


dataclass_code._compile = compiling


def second():
    from probe_threads import two  # noqa: F401
    done.set()


first = threading.Thread(target=lambda: __import__("probe_threads.one"), name="first")
first.start()
threading.Thread(target=second, name="second").start()
first.join()
print(dataclass_code.made)
'''


def test_records_made_in_two_threads_at_once_are_each_their_own(tmp_path: Path) -> None:
    """Two threads importing kept modules at once, one class made while the other is
    half made: each record holds its own class's methods (the capture is per thread)."""
    pkg = tmp_path / "probe_threads"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    body = '''
from __future__ import annotations
from dataclasses import dataclass


@dataclass(frozen=True)
class {name}:
    """A class."""
    {field}: int = 0
    other_{field}: str = ""
'''
    (pkg / "one.py").write_text(body.format(name="One", field="alpha"))
    (pkg / "two.py").write_text(body.format(name="Two", field="beta"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", THREADS, str(tmp_path)], env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'new': 2" in done.stdout
    report = _compare(["probe_threads.one", "probe_threads.two"], [str(tmp_path)],
                      ("probe_threads.",))
    assert report["differ"] == []
    assert _summary(report, "made") == {"kept": 2, "new": 0, "plain": 0}
