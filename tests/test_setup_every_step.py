"""The setup API at every step of every engine (issue 31): ``setup`` with ``step = NAME``,
for each step of an engine's table, either builds the position at that step or refuses
the text with an error naming the step, never crashes and never returns a position at
another step.

A decision (a Choice) or a roll (a Roll) set up by name is what the position asks: its
frame is on top, a side of the game decides it or the dice roll it.  A procedure or a
sequence asks nothing: it runs at once, as in play, so the frames the engine gave for it
(``frames_for``) have it on top and the position it ran to can be asked (a decision, a
roll or the end).  Each step is tried on a few positions per engine (the fields its
sequence of play reads: phasing side, phase, US set-up done), so that most steps are
built on one of them and refused on another.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine import CHANCE
from pbem.errors import UsageError
from pbem.registry import engines
from pbem.setup import setup
from pbem.steps import Choice, Frame, Roll, StepState


def _mortain_set_up(**moved: str) -> str:
    """Every US unit placed in a harmless hex (13.0 done), as the Mortain rule tests, and
    the units ``moved`` names in theirs."""
    from engines.mortain.data import rules

    r = rules()
    us = [u for u in r.order if r.units[u].side == "us"]
    spots = [f"{c:02d}{row:02d}" for row in (19, 21) for c in range(2, 30, 2)]
    where = {**{u: spots[i] for i, u in enumerate(us)}, **moved}
    return "[units]\n" + "\n".join(f'"{u}" = "{h}"' for u, h in where.items()) + "\n"


#: 48th Panzer Korps: 89T attacks Adam (7), prepared or hasty, fire being allocated
P48_COMBAT = ('only = true\nphase = "turns"\nphasing = "soviet"\n'
              'at = {{ "Adam" = "1021", "89T" = "1020" }}\n'
              'combat = {{ hex = "1021", attacker = "soviet", prepared = {prepared}, '
              'stage = "defense", attackers = ["89T"], defenders = ["Adam"] }}')


def _variants(engine_id: str) -> list[str]:
    """Positions (setup text without the step) that the engine's steps are tried on."""
    if engine_id == "48th-panzer-korps":
        return ["", 'phase = "plan"',
                *(f'phase = "turns"\nphasing = "{side}"' for side in ("soviet", "german")),
                P48_COMBAT.format(prepared="true"), P48_COMBAT.format(prepared="false")]
    if engine_id == "for-the-motherland":
        return ["", *(f"turn = 2\nphase = {n}" for n in range(7))]
    if engine_id == "mortain":
        units = _mortain_set_up()
        # G07 attacks 2/119 in a hedgerow hex (S7), before the roll and after it
        fight = 'turn = 2\nphasing = "german"\nphase = "combat"\n' \
            'combat = {{ target = "2010", bombard = false, attackers = ["G07"], att_chits = [], ' \
            'def_chits = [], result = "{result}", retreating = [] }}\n' + \
            _mortain_set_up(G07="2110", **{"2/119": "2010"})
        return ["", f"turn = 2\n{units}", *(
            f'turn = 2\nphasing = "{side}"\nphase = "{phase}"\n{units}'
            for side in ("german", "us") for phase in ("movement", "combat", "mobile")),
            *(fight.format(result=result) for result in ("", "D2", "A1", "Ex"))]
    if engine_id == "backhand-blow":
        # turn 1 starts with the 1st Soviet Schwerpunkt Segment (18.0); turn 3 has them all
        return ["", 'phasing = "german"', "turn = 3", 'turn = 3\nphasing = "german"',
                'turn = 3\nweather = "deep"']
    return [""]


def _aliases(engine_id: str) -> list[tuple[str, str]]:
    """Step names an engine's setup adapter reads besides its table's: (given, step)."""
    if engine_id != "mortain":
        return []
    from engines.mortain.state import COMBAT_STEPS

    sided = ["move", "draw", "begin-player", *sorted(COMBAT_STEPS)]
    return [("mobile-move", "move"), ("us:mobile-move", "move"),
            *((f"us:{n}", n) for n in sided)]


CASES = [pytest.param(eid, e.scenarios()[0].id, text, id=f"{eid}-{n}")
         for eid, e in sorted(engines().items()) for n, text in enumerate(_variants(eid))]


def test_the_five_engines_are_tried() -> None:
    assert {"white-death", "48th-panzer-korps", "for-the-motherland", "mortain",
            "backhand-blow"} <= {case.values[0] for case in CASES}


@pytest.mark.parametrize(("engine_id", "scenario", "fields"), CASES)
def test_every_step_is_set_up_or_refused_naming_it(engine_id: str, scenario: str,
                                                   fields: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engines()[engine_id]
    start = engine.new_state(scenario)
    assert isinstance(start, StepState)
    asked: list[list[Frame]] = []
    original = type(start).frames_for

    def frames_for(self: Any, step: str) -> list[Frame]:
        frames: list[Frame] = original(self, step)
        asked.append(frames)
        return frames

    monkeypatch.setattr(type(start), "frames_for", frames_for)
    built, wrong = [], []
    for given, name in [*((n, n) for n in sorted(start.steps)), *_aliases(engine_id)]:
        step = start.steps[name]
        asked.clear()
        try:
            state = setup(engine, scenario, f'step = "{given}"\n{fields}')
        except UsageError as exc:
            # refused: the message names the step (and why: a field, a rule, no frames)
            assert repr(given) in str(exc), f"{given}: {exc}"
            continue
        assert isinstance(state, StepState)
        assert asked and asked[-1][-1].step == name, \
            f"{given}: frames_for gave {[f.step for f in asked[-1]] if asked else None}"
        if isinstance(step, Choice | Roll):
            top = state.stack[-1].step if state.stack else None
            if top != name:
                wrong.append(f"{given}: the position is at {top!r}")
                continue
            if isinstance(step, Roll):
                assert state.current_player() == CHANCE and state.chance_request()
            else:
                decision = state.decision()
                assert decision is not None and decision.side in engine.sides, \
                    f"{given}: decided by {decision.side if decision else None!r}"
                assert state.legal_actions(), f"{given}: a decision with no answer"
        elif state.is_chance():
            assert state.chance_request()
        elif not state.is_terminal():
            assert state.decision() is not None
            assert state.legal_actions()
        built.append(given)
    assert not wrong, wrong
    assert built or fields == "", f"no step of {engine_id} fits {fields!r}"
