"""The arguments of the combat steps a retreat's listing never reads (16.5 a chit kept,
11.1 chits drawn, 8.5 a result taken, 8.5.1 steps lost, 8.7 an advance) are made when
one of their frames is first read or made, not by every command that loads the Combat
Phase's steps (issue 35: five dataclasses, about 1.2 M instructions of a legal)."""

from __future__ import annotations

import json

from engines.motherland import MotherlandEngine
from engines.motherland.state import MotherlandState
from pbem.testing import Chooser, decisions, fresh_run

LATER = ("AdvanceArgs", "ApplySideArgs", "DrawArgs", "KeepArgs", "LoseArgs", "MoveArgs",
         "StuckArgs", "TakeArgs", "UnitsArgs")

#: a retreat's listing in a fresh process: the classes of LATER any loaded module of the
#: engine holds, and whether their module was loaded
_RETREAT_LISTED = """
import json, sys
from engines.motherland import ENGINE
LATER = ("AdvanceArgs", "ApplySideArgs", "DrawArgs", "KeepArgs", "LoseArgs", "MoveArgs",
         "StuckArgs", "TakeArgs", "UnitsArgs")
s = ENGINE.restore(json.loads(sys.stdin.read()))
assert s.decision().kind == "retreat-choice" and s.legal_actions()
made = sorted({v.__name__ for name, m in list(sys.modules.items())
               if name.startswith("engines.motherland") for v in vars(m).values()
               if isinstance(v, type) and v.__name__ in LATER})
print(json.dumps([made, "engines.motherland.combat_args" in sys.modules]))
"""


def test_8_6_a_retreat_listed_makes_none_of_the_later_combat_arguments(
        engine: MotherlandEngine) -> None:
    """8.6.1: a restored retreat's listing (its frame a RetreatArgs) makes no argument
    class of a chit kept or drawn, a General assigned, a result applied or taken, a step
    lost, an advance or a move."""
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    for at in decisions(s, Chooser("zoc/4-uranus/1"), 700):
        decision = at.decision()
        if decision is not None and decision.kind == "retreat-choice":
            break
    else:
        raise AssertionError("no retreat in 700 steps")
    made, loaded = json.loads(fresh_run(_RETREAT_LISTED, json.dumps(at.snapshot()))[-1])
    assert made == [] and not loaded


def test_each_combat_step_reads_its_arguments_class_when_first_asked() -> None:
    """The step table's ``Args`` of each such step (and procedure) is the class itself
    (the runtime makes and reads the step's frames with it), the same object every time."""
    from engines.motherland import chits, combat, combat_args
    from engines.motherland.steps import STEPS

    for step, module, name in (
            ("keep", chits, "KeepArgs"), ("draw", chits, "DrawArgs"),
            ("generals", chits, "UnitsArgs"), ("combat_chits", chits, "UnitsArgs"),
            ("admin_draws", chits, "UnitsArgs"), ("apply_side", combat, "ApplySideArgs"),
            ("stuck_steps", combat, "StuckArgs"), ("take", combat, "TakeArgs"),
            ("lose", combat, "LoseArgs"), ("advance", combat_args, "AdvanceArgs")):
        assert STEPS[step].Args is getattr(module, name), step
        assert STEPS[step].Args is STEPS[step].Args
        assert isinstance(STEPS[step].Args(), getattr(module, name))


def test_8_7_an_advances_arguments_load_without_a_results_or_a_step_losss() -> None:
    """8.7: the arguments of an advance after combat (the frame a retreat's act leaves)
    load without the combat rules and the arguments they make of a result taken or a
    step lost (8.5, 8.5.1): a retreat's act that ends at an advance makes neither."""
    loaded = json.loads(fresh_run(
        "import json, sys\n"
        "from engines.motherland.combat_args import AdvanceArgs\n"
        "made = {v.__name__ for name, m in list(sys.modules.items())\n"
        "        if name.startswith('engines.motherland') for v in vars(m).values()\n"
        "        if isinstance(v, type)}\n"
        "print(json.dumps(['engines.motherland.combat' in sys.modules,\n"
        "                  sorted(made & {'LoseArgs', 'TakeArgs'})]))\n", "")[-1])
    assert loaded == [False, []]
