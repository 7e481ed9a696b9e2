"""Positions from data, the way python-chess builds a board from a FEN.

A rule test states the book's position in a few lines of TOML instead of poking an
engine's internals::

    state = setup(ENGINE, "short", '''
        round = 3
        phasing = "blue"
        red = "b 2"            # the engine's shorthand: force in column b, strength 2
        step = "defend"
    ''')

The text names fields of the engine's position dataclass (pbem.codec gives their data
form); each key given replaces the scenario's starting value, tables merge key by key
(``forces = {red = {strength = 2}}`` changes only the red strength).  ``step = "NAME"``
puts the game at that step, with the frames the engine says lie above it in the position
set up (:meth:`~pbem.steps.StepState.frames_for`, asked after the fields are merged: its
turn, phase and phasing side, not the scenario's); a step that does not fit that position
is refused, naming the field (the engine's :class:`~pbem.steps.Misfit`), the entry of
the sequence of play that would not run it, what failed when the step's first
question was asked of the position (a combat step with no combat open), or that a
decision or roll set up by name had nothing to ask there and play went on past it (For
the Motherland!'s ``generals`` with no general to place).  A step the engine does not
place by name (its outermost sequence) is refused as such.
``stack = [[step, pc, args], ...]`` gives the frames outright.  Keys the engine's adapter
(:meth:`~pbem.steps.StepState.setup_data`) knows are translated first: units in hexes
with their states, markers, shorthand.

:func:`describe` is the reverse (``board.fen()``): the whole position as setup text, so
``setup(engine, scenario, describe(state))`` is the same position, digest for digest; the
contract suite checks that for every engine on the step runtime.  TOML has no null:
a position field that holds ``None`` is written as nothing and keeps its starting value.
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from typing import Any

from pbem.engine import Engine, State
from pbem.errors import FormatError, UsageError
from pbem.steps import Choice, Frame, Misfit, Roll, Sequence, StepState

CONTROL = ("step", "stack")


def setup(engine: Engine, scenario: str, data: str | Mapping[str, Any],
          options: Mapping[str, str] | None = None) -> State:
    """The position ``data`` describes, on top of ``scenario``'s start (see the module)."""
    if isinstance(data, str):
        try:
            spec = tomllib.loads(data)
        except tomllib.TOMLDecodeError as exc:
            raise UsageError(f"setup: not TOML: {exc}") from None
    else:
        spec = dict(data)
    state = engine.new_state(scenario, options)
    if not isinstance(state, StepState):
        raise UsageError(f"setup: {engine.id} has no position setup (its states do not run "
                         "on pbem.steps)")
    spec = state.setup_data(spec)
    stack: Any = spec.pop("stack", None)
    step = spec.pop("step", None)
    if stack is not None and step is not None:
        top = stack[-1][0] if isinstance(stack, list) and stack and isinstance(
            stack[-1], list) and stack[-1] else None
        if top != step:
            raise UsageError(f"setup: step {step!r} is not the top of the stack given "
                             f"({top!r}): give one or the other")
    position = _merge(state.setup_position(), spec, "setup")
    snapshot = state.snapshot()
    named: str | None = None  # the step set up by name, as the engine's frames name it
    if stack is None:
        if step is None:
            stack = state.stack_data()
        else:
            # the frames above the step are those of the position given (its turn, phase,
            # phasing side), not of the scenario's start, which the fields replace
            placed = _restore(engine, snapshot, position, state.stack_data())
            frames = _frames(placed, step, position)
            named = frames[-1].step if frames else None
            try:
                stack = placed.stack_data(frames)
            except (AttributeError, TypeError, ValueError) as exc:
                raise UsageError(f"setup: step {step!r} cannot be set up from a step name: "
                                 f"its frame needs arguments ({type(exc).__name__}: {exc}); "
                                 "give the frames with stack = [...]") from None
    out = _restore(engine, snapshot, position, stack)
    if step is None:
        out._settle()  # a procedure set up as the current step runs now, as in play
        return out
    asked = out.steps.get(named) if named is not None else None
    try:
        out._settle()
        if isinstance(asked, Choice | Roll) and (
                not out.stack or out.over() or out.stack[-1].step != named):
            # a decision or roll with nothing to ask here ended itself (or took its one
            # answer) and play went on: the position given is not at that step
            now = out.stack[-1].step if out.stack and not out.over() else "the game's end"
            raise UsageError(f"setup: step {step!r} does not fit the position: it has "
                             f"nothing to {'decide' if isinstance(asked, Choice) else 'roll'}"
                             f" there ({asked.rule}), and play went on to {now!r}; set up "
                             "what the step works on")
        # the node the position is at must be one a player can be shown
        if out.is_chance():
            out.chance_request()
        elif not out.is_terminal():
            out.decision()
            out.legal_actions()
    except (AssertionError, AttributeError, LookupError, TypeError, ValueError) as exc:
        # the frames came from frames_for with the step's default arguments: a step with
        # nothing to work on in this position (a combat step and no combat open, the
        # engine's own assertion) does not fit it
        raise UsageError(f"setup: step {step!r} does not fit the position: it cannot run "
                         f"on it ({type(exc).__name__}{': ' if str(exc) else ''}{exc}); "
                         "set up what the step works on, or the frames with "
                         "stack = [...]") from None
    return out


def _restore(engine: Engine, snapshot: dict[str, Any], position: Any,
             stack: Any) -> StepState[Any]:
    try:
        out = engine.restore({**snapshot, "body": {"position": position, "stack": stack}})
    except FormatError as exc:
        raise UsageError(f"setup: {exc}") from None
    assert isinstance(out, StepState)
    return out


def _frames(state: StepState[Any], step: Any, position: Any) -> list[Frame]:
    """The frames of ``state``'s position at ``step``, refused when the step does not fit
    the position: the engine says so (:class:`~pbem.steps.Misfit`), or an entry of the
    sequence of play that calls the step does not apply to it."""
    if not isinstance(step, str):
        raise UsageError(f"setup: step: expected a step name, got {type(step).__name__}")
    engine_id = state.engine.id
    try:
        frames = state.frames_for(step)
    except KeyError:
        if step in state.steps:
            # a step of the engine's table the engine does not place by name (the game's
            # outermost sequence, a step called only with arguments from inside another)
            raise UsageError(f"setup: {engine_id} does not set up a position at its step "
                             f"{step!r} by name; set up the step that calls it, or give "
                             "the frames with stack = [...]") from None
        raise UsageError(f"setup: {engine_id} has no step {step!r} to set up at "
                         f"(steps: {', '.join(sorted(state.steps))})") from None
    except Misfit as exc:
        value = position.get(exc.field) if isinstance(position, dict) else None
        shown = "" if value is None or isinstance(value, dict | list) else f" = {value!r}"
        raise UsageError(f"setup: step {step!r} does not fit the position: field "
                         f"{exc.field!r}{shown}: {exc.why}") from None
    for below, above in itertools.pairwise(frames):
        sequence = state.steps[below.step]
        if not isinstance(sequence, Sequence):
            continue
        try:
            # counted in the frame's pc or in its arguments (Sequence.counter)
            done = sequence.done(below)
        except RuntimeError:
            continue
        if not done:
            continue
        entry = sequence.entries[done - 1]
        if entry.step == above.step and entry.when is not None and not entry.when(state):
            raise UsageError(f"setup: step {step!r} does not fit the position: the "
                             f"sequence of play ({below.step}) runs {entry.step!r} under "
                             f"{entry.rule} only when it applies, and it does not apply "
                             "to the position given")
    return frames


def _merge(base: Any, given: Any, where: str) -> Any:
    if isinstance(base, dict) and isinstance(given, Mapping):
        merged = dict(base)
        for key, value in given.items():
            if key not in base and where == "setup":
                raise UsageError(f"setup: the position has no field {key!r} (fields: "
                                 f"{', '.join(sorted(base))}, and {', '.join(CONTROL)})")
            merged[key] = _merge(base[key], value, f"{where}.{key}") if key in base else value
        return merged
    return given


def describe(state: State) -> str:
    """The position as setup text (every field, and the frame stack)."""
    if not isinstance(state, StepState):
        raise UsageError(f"{state.engine.id} has no position setup (not on pbem.steps)")
    body = state.snapshot()["body"]
    lines = [f"{_key(k)} = {_value(v)}" for k, v in sorted(body["position"].items())
             if v is not None]
    lines.append(f"stack = {_value(body['stack'])}")
    return "\n".join(lines) + "\n"


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are TOML basic-string escapes
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in sorted(value.items())
                          if v is not None)
        return "{" + (f" {inner} " if inner else "") + "}"
    raise ValueError(f"no setup text for {value!r}")
