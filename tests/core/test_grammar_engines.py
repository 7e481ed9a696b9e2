"""The action grammar expresses every engine's notation byte for byte (issue 34): draft
tables for the engines not yet ported, checked against the actions each engine lists in a
played game.  An engine's port lifts its table from here into its ``notation.py``."""

from __future__ import annotations

import pytest

from engines.motherland.notation import GRAMMAR as MOTHERLAND
from engines.panzer48.notation import GRAMMAR as PANZER48
from engines.white_death.notation import GRAMMAR as WHITE_DEATH
from pbem.grammar import Form, Grammar, Type
from pbem.registry import get

UNIT = Type.token("a unit id", r"[A-Za-z0-9/._-]+")
HEX = Type.hex()
WORD = Type("word", r"[^\s]+", "a word")

#: Backhand Blow: its ``w(...)`` words (engines/backhand/game.py), each typed; a
#: formation moves (or leaves administrative movement) with the hex it goes to
BACKHAND = Grammar(
    Form("admin", "admin {unit:unit}"),
    Form("admin-out", "admin-out {unit:unit} [{hex:hex}]"),
    Form("advance", "advance {unit:unit} [{n:word}]"),
    Form("arrive", "arrive {where:where}"),
    Form("attack", "attack {hex:hex}"),
    Form("cancel", "cancel"),
    Form("chit", "chit {chit:word}"),
    Form("done", "done"),
    Form("end", "end"),
    Form("ersatz", "ersatz {unit:unit} {value:word}"),
    Form("extra", "extra {front:word}"),
    Form("front", "front {front:word} {hex:hex}"),
    Form("lose", "lose {unit:unit}"),
    Form("move", "move {unit:unit} [{hex:hex}]"),
    Form("no-chit", "no-chit"),
    Form("no-rochade", "no-rochade"),
    Form("none", "none"),
    Form("order", "order {order:order}"),
    Form("place", "place {hex:hex}"),
    Form("refit", "refit {unit:unit} {to:refit}"),
    Form("replace", "replace {unit:unit}"),
    Form("resolve", "resolve"),
    Form("retreat", "retreat {hex:hex}"),
    Form("rochade", "rochade"),
    Form("spend", "spend {n:int}"),
    Form("stay", "stay"),
    Form("to", "to {hex:hex}"),
    Form("with", "with {unit:unit}"),
    types={"unit": Type.token("a unit id", r"[\w/.-]+"), "hex": HEX, "word": WORD,
           "int": Type.number("a number of C3I"),
           # 13.1: a formation refits in a hex or in a box off the map
           "refit": Type.hex("a hex or a refit box (box1, box2)", r"[0-9]{4}|box1|box2"),
           "where": Type.one_of("box", "map"),
           "order": Type.one_of("combat-first", "move-first")},
)

def played(engine_id: str, steps: int) -> list[str]:
    """Every action an engine lists over ``steps`` decisions of its first scenario, the
    choices spread over each list, dice and draws from the step number."""
    engine = get(engine_id)
    s = engine.new_state(engine.scenarios()[0].id)
    seen: dict[str, None] = {}
    for step in range(steps * 3):
        if s.is_terminal() or len(seen) > 20_000:
            break
        if s.is_chance():
            req = s.chance_request()
            s.apply_outcome(tuple(req.contents[:req.count]) if req.kind == "draw"
                            else tuple(1 + (step + i) % d for i, d in enumerate(req.dice)))
            continue
        legal = s.legal_actions()
        if not legal:
            break
        seen.update((a.notation(), None) for a in legal)
        s.apply(legal[(step * 7) % len(legal)])
    return list(seen)


@pytest.mark.parametrize(("engine_id", "grammar"), [
    ("white-death", WHITE_DEATH), ("48th-panzer-korps", PANZER48),
    ("backhand-blow", BACKHAND), ("for-the-motherland", MOTHERLAND)])
def test_a_table_writes_every_listed_action_byte_for_byte(engine_id: str,
                                                          grammar: Grammar) -> None:
    texts = played(engine_id, 200)
    assert len(texts) > 100
    for text in texts:
        assert grammar.canonical(text).notation() == text
