"""Backhand Blow's actions in writing: a word and its arguments (``move LAH-1``,
``to 2510``, ``end``)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine import Action
from pbem.errors import ActionSyntaxError


@dataclass(frozen=True)
class Word(Action):
    """A bare word or a word with arguments: ``move LAH-1``, ``to 2510``, ``end``."""

    word: str
    args: tuple[str, ...] = ()

    def notation(self) -> str:
        return " ".join((self.word, *self.args))


def w(word: str, *args: str) -> Word:
    return Word(word, tuple(args))


WORDS = ("move", "to", "stay", "end", "attack", "with", "resolve", "cancel", "chit",
         "no-chit", "lose", "retreat", "done", "advance", "spend", "extra", "order", "front",
         "admin", "place", "admin-out", "replace", "refit", "ersatz", "rochade", "no-rochade",
         "arrive", "none")


def parse_action(text: str) -> Word:
    parts = text.split()
    if not parts or parts[0] not in WORDS:
        raise ActionSyntaxError(f"cannot read {text!r}: try 'move LAH-1', 'to 2510', "
                                "'attack 2611', 'with 12T', 'resolve', 'lose 12T', 'end'")
    return Word(parts[0], tuple(parts[1:]))
