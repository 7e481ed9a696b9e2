"""pbem.choices finds an action's unit by the grammar's typed arguments where the engine
has a grammar (issue 34): a word of another argument that happens to spell a unit of ours
(Mortain's US battery is unit ``105``) no longer files the action under that unit; an
engine without a grammar keeps the words rule."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pbem.choices import Placement, group, placement_action, placement_order
from pbem.engine import Action, TextAction
from pbem.errors import UsageError
from pbem.grammar import Form, Grammar, Type

GRAMMAR = Grammar(
    # the marker's value comes before the unit: "105" is a value here, not the battery
    Form("fire", "fire {value:value} with {unit:unit}"),
    Form("place", "place {unit:unit} {to:hex}"),
    types={"unit": Type.token(), "hex": Type.hex(), "value": Type.number()},
)
FIRE, PLACE = GRAMMAR["fire"], GRAMMAR["place"]
CELLS = ("0101", "0102", "0105")


class Board:
    """As much of a state as pbem.choices reads: counters, the view, parsing, listing."""

    def __init__(self, legal: list[Action], *, grammar: bool = True) -> None:
        self.legal, self.grammar = legal, grammar

    def counters(self, side: str) -> dict[str, str]:
        return {"105": "105 2-4-6", "G01": "G01 3-3-10"}

    def view(self, side: str) -> Any:
        return SimpleNamespace(pieces=[], cells=[SimpleNamespace(hex=h) for h in CELLS],
                               hexes=lambda: frozenset(CELLS))

    def parse_action(self, text: str) -> Action:
        if not self.grammar:
            return TextAction(text)
        return GRAMMAR.parse(text)

    def legal_actions(self) -> list[Action]:
        return self.legal

    def current_player(self) -> str:
        return "us"


def test_an_action_goes_under_the_unit_its_typed_argument_names() -> None:
    texts = ["fire 105 with G01", "fire 2 with 105"]
    grouped = group(Board([]), "us", texts)  # type: ignore[arg-type]
    assert {u.unit: u.actions for u in grouped.units} == {
        "105": ("fire 2 with 105",), "G01": ("fire 105 with G01",)}
    # without a grammar the first word naming a unit counts, as before
    words = group(Board([], grammar=False), "us", texts)  # type: ignore[arg-type]
    assert {u.unit: u.actions for u in words.units} == {
        "105": ("fire 105 with G01", "fire 2 with 105")}


def test_a_placement_finds_its_unit_by_the_typed_arguments() -> None:
    # the battery 105 has no set-up action now; G01's fire of a 105 marker does not name it
    board = Board([FIRE(105, "G01"), PLACE("G01", "0105")])
    pending = [Placement(1, "105", "0102"), Placement(2, "G01", "0105")]
    assert placement_order(board, pending) == pending[1]  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"setup\.txt, line 1: no set-up action places 105"):
        placement_action(board, pending[0], "setup.txt")  # type: ignore[arg-type]
    assert placement_action(board, pending[1], "setup.txt") == "place G01 0105"  # type: ignore[arg-type]
