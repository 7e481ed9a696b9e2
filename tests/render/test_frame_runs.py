"""A replay page's frames walk only the counters that changed since the frame before
(:class:`pbem.web.replay.Runs`, issue 35): the frames are those a walk over every
counter makes, along seeded games of every engine and for views made to break the runs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from render_maps import small_view

from pbem.engine import Event
from pbem.view import BoardView, Piece
from pbem.web import replay
from pbem.web.replay import PieceTable, Runs, frame_data


def _both(views: list[BoardView], side: str | None) -> None:
    """Each view's frame made with the runs kept from the frame before, and walked whole
    with a table of its own: the same indices, the same rows, frame after frame."""
    runs, table, whole = Runs(), PieceTable(), PieceTable()
    for k, view in enumerate(views):
        events = [Event("moved", "move", units=tuple(p.id for p in view.pieces[:2]))]
        got = frame_data(view, events, side, table, runs=runs, file=k)
        want = frame_data(view, events, side, whole, file=k)
        assert got == want, k
        assert table.rows == whole.rows, k


@pytest.mark.parametrize(("engine", "scenario"), [
    ("white-death", "purkayev"), ("mortain", "counterattack"),
    ("48th-panzer-korps", "chir"), ("backhand-blow", "high-water-mark"),
    ("for-the-motherland", "4-uranus")])
def test_frames_with_runs_are_the_frames_walked_whole(engine: str, scenario: str) -> None:
    from pbem.registry import get as get_engine
    from pbem.testing import Chooser, decisions

    found = get_engine(engine)
    state = found.new_state(scenario, found.resolve_options({}))
    views: dict[str | None, list[BoardView]] = {s: [] for s in (None, *found.sides)}
    for _ in decisions(state, Chooser(f"runs/{engine}"), 60):
        for side, made in views.items():
            made.append(state.view(side))
    for side, made in views.items():
        _both(made, side)


def _moved(view: BoardView, pieces: list[Piece]) -> BoardView:
    return replace(view, pieces=tuple(pieces))


def test_views_made_to_break_the_runs() -> None:
    """A counter moved to a stack before or after it, a stack's top hidden, counters
    added at either end and removed, a box filled and emptied, a location's counters
    apart (walked whole) and together again: each frame as the whole walk makes it."""
    view = small_view()
    p = list(view.pieces)  # g1 g2 @0303, g3 @0404, s1 s2 s3 @0804, s4 @0705, g9 reserve
    g1, g2, g3, s1, s2, s3, s4, g9 = p
    extra = Piece("g5", "german", "2-2-6", "0909", name="5 Jg", color=g1.color)
    steps = [
        p,
        [g1, g2, replace(g3, location="0405"), s1, s2, s3, s4, g9],
        [g1, g2, s1, s2, s3, s4, g9],  # a counter gone
        [g1, g2, replace(g3, location="0804"), s1, s2, s3, s4, g9],  # 0804 apart
        [g1, g2, s1, s2, s3, replace(g3, location="0804"), s4, g9],  # together again
        [g1, g2, s1, s2, s3, replace(g3, location="0804"), s4, g9, extra],  # appended
        [extra, g1, g2, s1, s2, s3, s4, g9],  # prepended
        [extra, replace(g1, hidden=True, label="?"), g2, s1, s2, s3, s4, g9],
        [extra, g1, g2, s2, s3, s4, g9],  # 0804 topped by hidden counters only
        [extra, g1, g2, s2, s3, s4, g9, replace(s1, location="reserve")],
        [extra, g1, g2, replace(s4, location="0303"), s2, s3, g9],  # 0303 apart
        [extra, g1, g2, s2, s3, g9, replace(s4, location="0303")],
        [extra, g1, g2, s2, s3, g9],
        [],
        p,
    ]
    views = [_moved(view, s) for s in steps]
    for side in (None, "german", "soviet"):
        _both([replace(v, side=side) for v in views], side)


def test_only_the_changed_runs_are_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """One counter moved: its old and new stacks are made again, and no other (the
    page's frames walked every counter of every frame: issue 35)."""
    view = small_view()
    g1, g2, g3, s1, s2, s3, s4, g9 = view.pieces
    runs, table, whole = Runs(), PieceTable(), PieceTable()
    first = frame_data(view, [], "german", table, runs=runs)
    frame_data(view, [], "german", whole)
    walked: list[str] = []
    real = replay._run_shown

    def counting(run: list[Piece], location: str, *rest: object) -> list[int]:
        walked.append(location)
        return real(run, location, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(replay, "_run_shown", counting)
    moved = replace(view, pieces=(g1, g2, replace(g3, location="0405"), s1, s2, s3, s4, g9))
    got = frame_data(moved, [], "german", table, runs=runs)
    assert walked == ["0405"]
    assert got == frame_data(moved, [], "german", whole)
    walked.clear()
    assert frame_data(moved, [], "german", table, runs=runs)["pieces"] == got["pieces"]
    assert walked == []
    assert first["pieces"] != got["pieces"]


def test_a_page_whose_counters_are_never_in_runs_stops_looking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that lists its counters in its units' order (a stack's apart) is walked
    whole, once a frame, after a few tries: not twice."""
    view = small_view()
    g1, g2, g3, s1, s2, s3, s4, g9 = view.pieces
    apart = replace(view, pieces=(g1, g3, g2, s1, s2, s3, s4, g9))
    runs, table = Runs(), PieceTable()
    tried: list[int] = []
    real = Runs._whole

    def counting(self: Runs, *args: object) -> list[int] | None:
        tried.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Runs, "_whole", counting)
    for k in range(10):
        frame = frame_data(replace(apart, status=str(k)), [], None, table, runs=runs)
        assert frame == frame_data(replace(apart, status=str(k)), [], None, PieceTable())
    assert len(tried) == Runs.TRIES


def test_a_page_not_in_runs_walks_only_a_frame_whose_counters_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Counters in their units' order (Backhand Blow's): a frame whose counters are all
    the frame before's (a roll, a phase: most of that engine's) takes its counters from
    it; one with a counter changed is walked whole."""
    view = small_view()
    g1, g2, g3, s1, s2, s3, s4, g9 = view.pieces
    apart = (g1, g3, g2, s1, s2, s3, s4, g9)
    moved = (g1, replace(g3, location="0405"), g2, s1, s2, s3, s4, g9)
    runs, table, whole = Runs(), PieceTable(), PieceTable()
    walked: list[int] = []
    real = replay._shown

    def counting(*args: object) -> list[int]:
        walked.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(replay, "_shown", counting)
    steps = [apart] * Runs.TRIES + [apart, tuple(apart), moved, moved, apart, list(apart)]
    for k, pieces in enumerate(steps):
        shown = replace(view, pieces=pieces, status=str(k))  # type: ignore[arg-type]
        before = len(walked)
        frame = frame_data(shown, [], None, table, runs=runs)
        assert frame == frame_data(shown, [], None, whole), k
        if k >= Runs.TRIES:
            assert len(walked) - before == (0 if list(pieces) == list(steps[k - 1]) else 1) + 1, k
