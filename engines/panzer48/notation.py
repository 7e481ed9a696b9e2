"""48th Panzer Korps' actions: its verbs and their typed arguments (pbem.grammar).

The text is what turn files sign: every form writes exactly what the engine wrote before
it had a grammar, a verb and up to three words (``attack 3508``, ``fire 685/I 12/A``,
``path 3508-3509-off``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.engine import Action
from pbem.grammar import Act, Form, Grammar, Type

GRAMMAR = Grammar(
    # 9 set-up; 9.1 the Soviet plan: written as a plan, a session signs it as a commitment
    # (a digest of the area) and reveals the area with its salt (State.conceal)
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("setup-done", "setup-done"),
    Form("plan", "plan {force:force} {turn:turn} {area:area}"),
    Form("commit", "commit {force:force} {turn:turn} {digest:word}"),
    Form("reveal", "reveal {force:force}"),
    Form("open", "open {force:force} {area:area} {salt:word}"),
    # 3.1 prepared attacks, 7.1 declaring one, 7.2 fires, 8.1 morale
    Form("attack", "attack {hex:hex}"),
    Form("end-combat", "end-combat"),
    Form("with", "with {unit:unit}"),
    Form("support", "support {unit:unit}"),
    Form("go", "go"),
    Form("cancel", "cancel"),
    Form("fire", "fire {unit:unit} {target:unit}"),
    Form("add", "add {unit:unit}"),
    Form("roll", "roll"),
    Form("end-fire", "end-fire"),
    Form("retreat", "retreat"),
    Form("check", "check"),
    # 8.3 retreats: a path hex by hex, off the map at its edge, or none (eliminated)
    Form("path-none", "path none"),
    Form("path", "path {path:route}"),
    Form("path-off", "path {path:route_off}"),
    Form("off-map", "off-map"),
    Form("eliminate", "eliminate {unit:unit}"),
    # 8.4 advance after combat
    Form("advance", "advance {unit:unit} {hex:hex}"),
    Form("end-advance", "end-advance"),
    # 3.2 / 4 movement: a stack moves by its hex, a unit by its id (a hex is four digits,
    # no unit id is); 9.1 arrivals, 4 / 6 picking up and dropping, 3.2 hasty attacks, 10
    Form("move-stack", "move {hex:hex}"),
    Form("move", "move {unit:unit}"),
    Form("enter", "enter {unit:unit} {hex:hex}"),
    Form("end-movement", "end-movement"),
    Form("to", "to {hex:hex}"),
    Form("pickup", "pickup {unit:unit}"),
    Form("drop", "drop {unit:unit}"),
    Form("hasty", "hasty {hex:hex}"),
    Form("exit", "exit"),
    Form("stop", "stop"),
    types={
        "unit": Type.token("a unit id (685/I)", r"[A-Za-z0-9/._-]+"),
        "hex": Type.hex("a hex (four digits, 3508)"),
        "force": Type("word", r"[A-Za-z0-9_-]+", "a formation id"),
        "turn": Type.number("a turn"),
        "area": Type("word", r"[A-Za-z0-9]+", "an area letter"),
        "word": Type("word", r"[^\s]+", "a word"),
        "route": Type.hex("a retreat path (3508-3509)", r"\d{4}(?:-\d{4})*", joined="-"),
        # "off" is the map edge, no hex: what picks actions by hex drops it as no cell
        "route_off": Type.hex("a retreat path off the map (3508-off)",
                              r"\d{4}(?:-\d{4})*-off", joined="-"),
    },
)

PLACE, PLAN, COMMIT, REVEAL, OPEN = (GRAMMAR[n] for n in ("place", "plan", "commit", "reveal",
                                                          "open"))
ATTACK, WITH, SUPPORT, FIRE, ADD = (GRAMMAR[n] for n in ("attack", "with", "support", "fire",
                                                         "add"))
PATH, PATH_OFF, ELIMINATE, ADVANCE = (GRAMMAR[n] for n in ("path", "path-off", "eliminate",
                                                           "advance"))
MOVE_STACK, MOVE, ENTER, TO, PICKUP, DROP, HASTY = (
    GRAMMAR[n] for n in ("move-stack", "move", "enter", "to", "pickup", "drop", "hasty"))
# the actions of a verb alone, made as the grammar makes them but with no argument to check
# and their text written when first asked: 14 checks and writings were 0.3 M instructions
# of every command that imports the engine (issue 35)
(SETUP_DONE, END_COMBAT, GO, CANCEL, ROLL, END_FIRE, RETREAT,
 CHECK, PATH_NONE, OFF_MAP, END_ADVANCE, END_MOVEMENT, EXIT, STOP) = (
    GRAMMAR[n].unchecked([()])[0] for n in (
        "setup-done", "end-combat", "go", "cancel", "roll",
        "end-fire", "retreat", "check", "path-none", "off-map",
        "end-advance", "end-movement", "exit", "stop"))


def path_action(path: Iterable[str], off: bool = False) -> Act:
    """8.3: the retreat along ``path`` (its hexes after the start), off the map at the
    last one's edge when ``off``."""
    hexes = "-".join(path)
    return PATH_OFF(hexes + "-off") if off else PATH(hexes)


def route(a: Act) -> tuple[list[str], bool]:
    """A retreat path's hexes and whether it goes on off the map (8.3)."""
    hexes = list(a.hexes())
    off = a.kind == "path-off"
    return (hexes[:-1] if off else hexes), off


def act(action: Action) -> Act:
    """``action`` as the grammar's typed action: every action a 48th Panzer Korps state
    meets is one (it lists them, and parses the rest with :data:`GRAMMAR`)."""
    if isinstance(action, Act):
        return action
    return GRAMMAR.parse(action.notation())


def parse(text: str) -> Act:
    return GRAMMAR.parse(text)
