"""48th Panzer Korps: the actions' words (``attack 3508``) and reading them."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine import Action
from pbem.errors import ActionSyntaxError


@dataclass(frozen=True)
class Say(Action):
    """An action that is its words and up to three parameters (``attack 3508``)."""

    verb: str
    a: str = ""
    b: str = ""
    c: str = ""

    def notation(self) -> str:
        return " ".join(x for x in (self.verb, self.a, self.b, self.c) if x)


VERBS = {
    # verb: number of parameters
    "place": 2, "setup-done": 0, "plan": 3, "commit": 3, "reveal": 1, "open": 3,
    "attack": 1, "end-combat": 0, "with": 1, "support": 1, "go": 0, "cancel": 0,
    "fire": 2, "add": 1, "roll": 0, "end-fire": 0,
    "retreat": 0, "check": 0, "path": 1, "off-map": 0, "eliminate": 1,
    "advance": 2, "end-advance": 0,
    "move": 1, "enter": 2, "end-movement": 0,
    "to": 1, "pickup": 1, "drop": 1, "hasty": 1, "exit": 0, "stop": 0,
}


def parse(text: str) -> Action:
    parts = text.split(" ")
    if not parts or parts[0] not in VERBS or len(parts) != 1 + VERBS[parts[0]] or "" in parts:
        raise ActionSyntaxError(
            f"cannot read {text!r}: try 'move 685/I', 'to 3509', 'attack 3508', 'end-movement'")
    return Say(*parts)
