"""For the Motherland! on the kit's board facts: who is where, the stacks and the ZOCs
(4.1) answer for the position as it is after every change, a clone's moves never reach
its original, and a snapshot holds none of it (on the rules test map, conftest)."""

from __future__ import annotations

from engines.motherland import MotherlandEngine
from engines.motherland.state import MotherlandState

from .conftest import position


def board(s: MotherlandState) -> tuple[object, ...]:
    return (s.on_map(), s.units_at("1413"), dict(s.stacks()), s.occupied("axis"),
            s.zoc("axis"), s.zoc("soviet"))


def test_4_1_a_move_is_answered_where_the_unit_went(rules_engine: MotherlandEngine) -> None:
    """A unit that moves leaves its hex and its ZOC (4.1) with it at once: the listing of
    the next move reads the new placement, never the last one's."""
    s = position(rules_engine, 3, "move", "axis", {"9K": "1413", "5A": "1220"})
    assert "1314" in s.zoc("axis") and s.units_at("1413") == ["9K"]
    move = next(a for a in s.legal_actions() if a.notation().startswith("move 9K 1413 1414"))
    s.apply(move)
    dest = move.notation().split()[-1]
    assert s.units_at("1413") == [] and s.units_at(dest) == ["9K"]
    assert s.stacks("axis") == {dest: ("9K",)} and s.occupied("axis") == {dest}
    assert "1413" in s.zoc("axis")
    assert all(h in s.zoc("axis") for h in s.data.neighbors[dest])


def test_a_clone_moved_leaves_its_originals_board_as_it_was(
        rules_engine: MotherlandEngine) -> None:
    s = position(rules_engine, 3, "move", "axis", {"9K": "1413", "SB1": "1413", "5A": "1220"})
    before = board(s)
    assert s.units_at("1413") == ["9K", "SB1"] and s.units_at("1413", "soviet") == []
    c = s.clone()
    assert isinstance(c, MotherlandState)
    c.pos.units["9K"].hex = "1420"
    c._touch()
    assert c.units_at("1413") == ["SB1"] and c.units_at("1420") == ["9K"]
    # a Supply Base exerts no ZOC (4.1): what stays in 1413 reaches nothing
    assert "1314" not in c.zoc("axis")
    assert board(s) == before
    # and the original's moves do not reach the clone either
    s.pos.units["SB1"].hex = "1425"
    s._touch()
    assert c.units_at("1413") == ["SB1"] and s.units_at("1425") == ["SB1"]


def test_the_snapshot_holds_the_position_not_the_board_facts(
        rules_engine: MotherlandEngine) -> None:
    s = position(rules_engine, 3, "move", "axis", {"9K": "1413", "5A": "1220"})
    fresh = s.snapshot()
    board(s)
    assert s.snapshot() == fresh
    assert "Placed" not in repr(fresh)
    back = rules_engine.restore(fresh)
    assert isinstance(back, MotherlandState)
    assert board(back) == board(s)


def test_a_twin_making_the_same_move_reuses_the_facts_found(
        rules_engine: MotherlandEngine, monkeypatch: object) -> None:
    """An act makes its move on the player's state and then on the verifier's twin (issue
    35): the twin's facts of each placement, before and after the move, are the ones
    already found, not made again through the kit (0.46 M instructions each); and a
    placement neither has met is made."""
    import pytest

    from engines.hexkit import facts as facts_module  # state.facts() imports it there

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    made: list[int] = []
    real = facts_module.board_facts

    def counting(hexmap: object, placement: list[object]) -> object:
        made.append(len(placement))
        return real(hexmap, placement)  # type: ignore[arg-type]

    s = position(rules_engine, 3, "move", "axis", {"9K": "1413", "5A": "1220"})
    twin = s.clone()
    assert isinstance(twin, MotherlandState)
    monkeypatch.setattr(facts_module, "board_facts", counting)
    before = s.facts()
    found = len(made)  # none, or one: the position's own first
    move = next(a for a in s.legal_actions() if a.notation().startswith("move 9K 1413 1414"))
    s.apply(move)
    after = s.facts()
    assert len(made) == found + 1 and before is not after
    assert twin.facts() is before
    twin.apply(move)
    assert twin.facts() is after and len(made) == found + 1
    assert board(twin) == board(s)
    twin.pos.units["9K"].hex = "1420"
    twin._touch()
    assert twin.facts() is not after and len(made) == found + 2
    assert s.facts() is after  # the original's placement is its own
