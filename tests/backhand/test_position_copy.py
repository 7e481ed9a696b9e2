"""A clone's copy of Backhand Blow's position and frames is the copy pbem.typedcopy
derives from their types, read off the position's field kinds and the frames' argument
classes instead (issue 35: deriving it, and loading typedcopy, was 1.9 M instructions of
every act): the same values, and new exactly where typedcopy's is new (each map, list
and unit, a segment's state), over the positions of seeded games."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.position import Position, Unit, copy_position
from engines.backhand.state import SHARED_ARGS, BBState
from pbem import typedcopy
from pbem.steps import StepState
from pbem.testing import Chooser, decisions, fresh_run


def shared(original: Position, copy: Position) -> dict[str, object]:
    """What of ``original`` the copy holds as the same object: each field, each unit,
    each list of a map of lists."""
    out: dict[str, object] = {}
    for name, v in original.__dict__.items():
        c = copy.__dict__[name]
        out[name] = c is v
        if name == "units":
            out["each unit"] = sorted(u for u in v if c[u] is v[u])
        elif type(v) is dict and any(type(x) is list for x in v.values()):
            out[f"{name} lists"] = sorted(k for k in v if c[k] is v[k])
    return out


def same_copy(pos: Position) -> None:
    mine = copy_position(pos)
    assert mine is not None
    theirs = typedcopy.copy_of(Position, pos)
    assert mine == theirs
    assert list(mine.__dict__) == list(theirs.__dict__)
    assert {u: x.__dict__ for u, x in mine.units.items()} == {
        u: x.__dict__ for u, x in theirs.units.items()}
    assert shared(pos, mine) == shared(pos, theirs)


def same_stack(st: BBState) -> None:
    mine = st.copy_stack()
    theirs = StepState.copy_stack(st)
    assert mine == theirs
    assert [m.args is f.args for m, f in zip(mine, st.stack, strict=True)] == [
        t.args is f.args for t, f in zip(theirs, st.stack, strict=True)]
    assert [type(m.args) for m in mine] == [type(t.args) for t in theirs]


def test_the_shared_argument_classes_are_those_typedcopy_shares() -> None:
    st = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    args = {step.Args for step in st.steps.values()}
    shared_by_typedcopy = {a for a in args if typedcopy._plan(a) is None}
    assert shared_by_typedcopy >= SHARED_ARGS
    # what else the steps take is copied, by typedcopy but for a segment's state
    assert {a.__name__ for a in args - SHARED_ARGS} >= {"SegState", "AttackArgs"}


@pytest.mark.parametrize(("scenario", "seed"), [("high-water-mark", "bbcopy/1"),
                                                ("backhand-blow", "bbcopy/2")])
def test_the_position_copy_is_typedcopys(scenario: str, seed: str) -> None:
    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    seen = 0
    kinds: set[str] = set()
    for i, at in enumerate(decisions(st, Chooser(seed), 1500)):
        assert isinstance(at, BBState)
        same_stack(at)
        kinds |= {type(f.args).__name__ for f in at.stack}
        if i % 25 == 0:
            same_copy(at.pos)
            twin = at.clone()
            assert isinstance(twin, BBState)
            assert twin.pos == at.pos and twin.pos is not at.pos
            seen += 1
    assert seen > 20
    # frames shared, a segment's state copied, and a battle's frames (typedcopy's)
    assert {"SegState", "PhaseArgs", "AttackArgs"} <= kinds, kinds


def test_a_position_holding_more_than_its_fields_is_copied_by_typedcopy() -> None:
    st = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    st.pos.__dict__["note"] = ["kept by hand"]
    assert copy_position(st.pos) is None
    twin = st.clone()
    assert isinstance(twin, BBState)
    # typedcopy's: the attribute beyond the fields deep-copied
    assert twin.pos.__dict__["note"] == ["kept by hand"]
    assert twin.pos.__dict__["note"] is not st.pos.__dict__["note"]
    del st.pos.__dict__["note"]

    class Marked(Unit):
        pass

    uid = sorted(st.pos.units)[0]
    marked = object.__new__(Marked)
    marked.__dict__.update(st.pos.units[uid].__dict__)
    st.pos.units[uid] = marked
    assert copy_position(st.pos) is None
    twin = st.clone()
    assert isinstance(twin, BBState)
    assert type(twin.pos.units[uid]) is Marked


_CLONE = """
import sys
from engines.backhand import ENGINE

s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
twin = s.clone()
print(twin.pos == s.pos, twin.stack == s.stack, "pbem.typedcopy" in sys.modules)
"""


def test_a_clone_outside_a_battle_loads_no_typedcopy() -> None:
    assert fresh_run(_CLONE) == ["True True False"]
