"""What a listed action names, read for the board's buttons and the hexes a decision's
options light up, is kept by the action's form and values: a listing makes its actions
afresh for each position, and an equal action's slots are not read again (issue 35).  The
parts are those pbem.grammar reads off the action itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import grammar
from pbem.grammar import Act, hexes_of, names, units_of
from tests.render.test_board_click import opened


def test_an_equal_action_made_afresh_names_what_it_named(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    _, board = opened(tmp_path, "48th-panzer-korps", "chir")
    game = board.game()
    listed = [a for a in game.state.legal_actions() if isinstance(a, Act)]
    assert listed
    for action in listed:
        assert board._parts(action)[1:] == (units_of(action, bool), hexes_of(action, bool),
                                             names(action))
    named = [names(a) for a in listed]
    read: list[Any] = []
    real = grammar.Act._of

    def counted(action: Act, kind: str) -> tuple[str, ...]:
        read.append(action)
        return real(action, kind)

    monkeypatch.setattr(grammar.Act, "_of", counted)
    for action, said in zip(listed, named, strict=True):
        again = Act(action.form, action.values)  # the same action, another object
        assert board._parts(again)[0] is again
        assert board._parts(again)[1:] == board._parts(action)[1:]
        assert board.named_by(again) == said
    assert read == []  # no slot read again
    # another action (other values): read once
    first = listed[0]
    other = Act(first.form, tuple(f"{v}x" if isinstance(v, str) else v
                                  for v in first.values))
    board._parts(other)
    assert read and all(a is other for a in read)
