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
puts the game at that step, with the frames the engine says lie above it
(:meth:`~pbem.steps.StepState.frames_for`); ``stack = [[step, pc, args], ...]`` gives the
frames outright.  Keys the engine's adapter (:meth:`~pbem.steps.StepState.setup_data`)
knows are translated first: units in hexes with their states, markers, shorthand.

:func:`describe` is the reverse (``board.fen()``): the whole position as setup text, so
``setup(engine, scenario, describe(state))`` is the same position, digest for digest; the
contract suite checks that for every engine on the step runtime.  TOML has no null:
a position field that holds ``None`` is written as nothing and keeps its starting value.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from typing import Any

from pbem.engine import Engine, State
from pbem.errors import FormatError, UsageError
from pbem.steps import StepState

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
    if stack is None:
        if step is None:
            stack = state.stack_data()
        else:
            try:
                frames = state.frames_for(str(step))
            except KeyError:
                raise UsageError(f"setup: {engine.id} has no step {step!r} to set up at "
                                 f"(steps: {', '.join(sorted(state.steps))})") from None
            stack = state.stack_data(frames)
    position = _merge(state.setup_position(), spec, "setup")
    snapshot = state.snapshot()
    snapshot["body"] = {"position": position, "stack": stack}
    try:
        out = engine.restore(snapshot)
    except FormatError as exc:
        raise UsageError(f"setup: {exc}") from None
    assert isinstance(out, StepState)
    out._settle()  # a procedure set up as the current step runs now, as in play
    return out


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
