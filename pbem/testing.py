"""The standard engine suite every game passes (OpenSpiel's ``games_sim_test`` idea).

A random playout chooses among ``legal_actions()`` and resolves chance requests, and at
many points checks what the protocol relies on: the snapshot is canonical data, restoring
it gives the same digest and the same legal actions, and replaying the whole history from
the initial state reproduces the live state exactly.

The "random" choices come from SHA-256 over a seed and a counter, never Python's
``random``, so a failing playout is reproduced by its seed alone on any machine.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.engine import Action, ChanceRequest, Engine, Outcome, State
from pbem.errors import IllegalAction, PbemError
from pbem.steps import Choice, StepState

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from pbem.session import Game


class Chooser:
    """Deterministic pseudo-random choices from a seed (for bots and tests only)."""

    def __init__(self, seed: int | bytes | str) -> None:
        self._seed = seed if isinstance(seed, bytes) else str(seed).encode()
        self._counter = 0

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("nothing to choose from")
        self._counter += 1
        word = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        return int.from_bytes(word[:8], "big") % n

    def pick(self, items: list[Action]) -> Action:
        return items[self.below(len(items))]

    def outcome(self, request: ChanceRequest) -> Outcome:
        if request.kind == "dice":
            return tuple(self.below(s) + 1 for s in request.dice)
        pool = sorted(request.contents)
        drawn: list[str] = []
        for _ in range(request.count):
            drawn.append(pool.pop(self.below(len(pool))))
        return tuple(drawn)


def turns(state: State, chooser: Chooser, steps: int) -> Iterator[State]:
    """Play ``state`` on for at most ``steps`` steps (a roll or a decision each), with
    ``chooser``'s rolls, until the game ends: ``state`` is yielded at each decision, and
    the caller applies an action of its own choosing before asking for the next (where
    :func:`decisions` chooses for it)."""
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
            continue
        yield state


def decisions(state: State, chooser: Chooser, steps: int) -> Iterator[State]:
    """Play ``state`` on for at most ``steps`` steps (a roll or a decision each), with
    ``chooser``'s rolls and choices, until the game ends: ``state`` is yielded at each
    decision before its choice is made, for the caller to look at, not change."""
    for _ in turns(state, chooser, steps):
        yield state
        state.apply(chooser.pick(state.legal_actions()))


@dataclass
class PlayoutReport:
    """What a seeded playout did: its steps, actions and rolls, how it ended, and its
    history."""

    steps: int = 0
    actions: int = 0
    rolls: int = 0
    terminal: bool = False
    result: str = ""
    digest: str = ""
    history: list[tuple[str, object]] = field(default_factory=list)


def settle(state: State) -> None:
    """Answer every roll ``state`` waits for with ones, and a draw with the cup's first
    counters: the plainest way past chance to the next decision, for a test that walks a
    game to a position (what a turn there imports, for one) rather than plays it."""
    while state.is_chance():
        r = state.chance_request()
        state.apply_outcome(tuple(1 for _ in r.dice) if r.kind == "dice"
                            else tuple(r.contents[:r.count]))


def check_step_table(engine: Engine, steps: Mapping[str, Any], order: list[str]) -> None:
    """An engine's step table names ``order``'s steps, in that order, each the step of its
    name, and refuses any other name; the engine's decision kinds and standing orders come
    out of its steps: a table that makes a phase's steps when first asked for
    (:class:`pbem.steps.LazyStepTable`) must be the table it stands for, name for name."""
    assert list(steps) == order
    assert len(steps) == len(order)
    assert all(name in steps for name in order) and "no-such-step" not in steps
    assert [steps[name].name for name in order] == order
    try:
        steps["no-such-step"]
    except KeyError:
        pass
    else:
        raise AssertionError("the step table gave a step for a name it does not have")
    choices = [steps[n] for n in order if isinstance(steps[n], Choice)]
    assert engine.decision_kinds() == tuple(sorted({c.kind for c in choices}))
    assert [spec.kind for spec in engine.standing_orders()] == list(dict.fromkeys(
        c.kind for c in choices if c.order))


def fresh_run(code: str, given: str | None = None) -> list[str]:
    """What a fresh interpreter prints, line by line, running ``code`` with ``given`` on
    its standard input: what a command in a new process imports or builds, which the
    test's own process (every module already loaded) cannot show.  A run that fails
    fails the test with its error."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], input=given, capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    return out.stdout.splitlines()


def returns_of(patch: Any, owner: object, name: str) -> list[Any]:
    """Every value ``owner.name`` (a function, or a plain method of a class) returns
    from now on, in order: it is wrapped through ``patch`` (a pytest ``MonkeyPatch``),
    which puts it back.  A test that asks whether a result was carried over or made
    anew looks for it here."""
    made: list[Any] = []
    real = getattr(owner, name)

    def recording(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        made.append(out)
        return out

    patch.setattr(owner, name, recording)
    return made


_COUNT_COMPILES = """
import builtins, json
{first}
real, seen = builtins.compile, []
def counting(source, *args, **kwargs):
    if isinstance(source, str):
        seen.append(source)
    return real(source, *args, **kwargs)
builtins.compile = counting
{then}
print(json.dumps(seen))
"""


def compiled_at_import(then: str, first: str = "") -> list[str]:
    """The texts a fresh interpreter compiles while it runs ``then`` (imports, mostly),
    after ``first`` ran uncounted: a ``typing.NamedTuple``'s or a TypeVar bound's string
    annotation shows here, compiled into a ForwardRef on every command that loads the
    module (issue 35: about 0.15 M instructions each)."""
    import json

    # run once uncounted: a tree's first import of a module compiles its dataclasses'
    # methods and keeps their code (pbem.dataclass_code), which every later command
    # reuses; without this the answer would depend on whether an earlier test (or
    # command) of this checkout had loaded the module yet
    fresh_run(f"{first}\n{then}")
    seen: list[str] = json.loads(fresh_run(_COUNT_COMPILES.format(first=first, then=then))[-1])
    return seen


def check_snapshot(engine: Engine, state: State) -> None:
    """The snapshot is canonical, restores to the same digest and the same choices."""
    snap = state.snapshot()
    data = canonical.encode(snap)
    assert canonical.decode(data) == canonical.decode(canonical.encode(canonical.decode(data)))
    restored = engine.restore(canonical.decode(data))
    assert restored.digest() == state.digest(), "restore changed the digest"
    assert restored.current_player() == state.current_player()
    assert [a.notation() for a in restored.legal_actions()] == [
        a.notation() for a in state.legal_actions()
    ], "restore changed the legal actions"
    if isinstance(state, StepState):
        # the setup API's text is the whole position (python-chess's FEN round trip)
        from pbem.setup import describe, setup

        again = setup(engine, state.scenario, describe(state), state.options)
        assert again.digest() == state.digest(), "setup(describe(state)) is another position"


def check_decision(state: State, legal: list[Action], where: str, *,
                   default: bool = True) -> None:
    """The decision and the legal actions agree, and every listed action has a notation
    that reads back to itself (turn files carry the text, never the object)."""
    decision = state.decision()
    side = state.current_player()
    assert decision is not None and decision.side == side, \
        f"{where}: the decision is the {decision and decision.side} side's, not the {side}'s"
    # what a game's summary keeps, asked without the options: the same side and prompt
    assert state.decision_head() == (decision.side, decision.prompt), \
        f"{where}: decision_head() {state.decision_head()} is not the decision's"
    texts = [a.notation() for a in legal]
    assert len(set(texts)) == len(texts), \
        f"{where}: an action is listed twice: {sorted(t for t in texts if texts.count(t) > 1)}"
    for action, text in zip(legal, texts, strict=True):
        assert state.parse_canonical(text) == action, \
            f"{where}: notation does not round-trip: {text!r}"
    listed = set(texts)
    if default and decision.default is not None:
        assert decision.default.notation() in listed, (
            f"{where}: the default {decision.default.notation()!r} of {decision.kind} "
            "is not among the legal actions")
    stray = [a.notation() for a in decision.options if a.notation() not in listed]
    assert not stray, f"{where}: {decision.kind} offers options that are not legal: {stray}"


def check_default_accepted(state: State, where: str) -> None:
    """The decision's default, applied to a copy, is accepted (a standing order plays it)."""
    decision = state.decision()
    if decision is not None and decision.default is not None:
        try:
            state.clone().apply(decision.default, side=decision.side)
        except PbemError as exc:
            raise AssertionError(f"{where}: the default {decision.default.notation()!r} of "
                                 f"{decision.kind} is refused: {exc}") from None


def check_refusal(state: State, listed: set[str], stale: list[str], where: str) -> None:
    """An action of an earlier decision that is not listed now is refused with a rule
    named, and the refusal changes nothing (the contract: validate, then mutate)."""
    text = next((t for t in stale if t not in listed), None)
    if text is None:
        return
    copy = state.clone()
    before = copy.digest()
    try:
        copy.apply(text)
    except IllegalAction as exc:
        assert exc.rule, f"{where}: the refusal of {text!r} names no rule: {exc}"
    except PbemError:
        pass  # a syntax or turn refusal: no rule to name
    else:
        return  # an unlisted variant the engine accepts (the contract allows it)
    assert copy.digest() == before, f"{where}: refusing {text!r} changed the state"
    assert copy.encoded() == canonical.encode(copy.snapshot()), \
        f"{where}: refusing {text!r} changed the state behind the cached digest"


def replay(engine: Engine, scenario: str, options: dict[str, str],
           history: list[tuple[str, object]], *, sealed_dice: bool = False) -> State:
    """Rebuild a state from its history: ("action", text) and ("outcome", tuple) records."""
    state = engine.new_state(scenario, options)
    state.sealed_dice = sealed_dice
    for kind, value in history:
        if kind == "action":
            assert isinstance(value, str)
            state.apply(value)
        else:
            assert isinstance(value, tuple)
            state.apply_outcome(value)
    return state


def random_playout(engine: Engine, scenario: str, seed: int, *, max_steps: int = 2000,
                   options: dict[str, str] | None = None, check_every: int = 50,
                   check_replay: bool = True,
                   known: frozenset[str] = frozenset(),
                   sealed_dice: bool = False) -> PlayoutReport:
    """Play ``scenario`` with random legal choices, checking the contract as it goes.

    ``known`` names checks an engine is known to fail (``"default"``: a decision's default
    is not a legal action; ``"refusal"``: a refused action names no rule or changes the
    state), so the rest of the contract is still checked for it.  ``sealed_dice``: play as
    in a sealed game, where the rolls an engine's rules let wait do (pbem.steps).
    """
    options = engine.resolve_options(options or {})
    state = engine.new_state(scenario, options)
    state.sealed_dice = sealed_dice
    choose = Chooser(f"{engine.id}/{scenario}/{seed}")
    report = PlayoutReport()
    #: actions listed at the previous decision: mostly illegal now, the refusal probe
    stale: list[str] = []
    while not state.is_terminal() and report.steps < max_steps:
        if report.steps % check_every == 0:
            check_snapshot(engine, state)
        if state.is_chance():
            outcome = choose.outcome(state.chance_request())
            state.apply_outcome(outcome)
            report.history.append(("outcome", outcome))
            report.rolls += 1
        else:
            legal = state.legal_actions()
            side = state.current_player()
            where = f"{engine.id}/{scenario} seed {seed} step {report.steps}"
            assert legal, f"{where}: no legal action for {side}"
            check_decision(state, legal, where, default="default" not in known)
            if report.steps % check_every == 0:
                if "default" not in known:
                    check_default_accepted(state, where)
                if "refusal" not in known:
                    check_refusal(state, {a.notation() for a in legal}, stale, where)
            stale = [a.notation() for a in legal[:8]]
            action = choose.pick(legal)
            text = action.notation()
            state.apply(action, side=side)
            report.history.append(("action", text))
            report.actions += 1
        report.steps += 1
    check_snapshot(engine, state)
    report.terminal = state.is_terminal()
    result = state.result()
    report.result = result.text if result else ""
    report.digest = state.digest().hex()
    if check_replay:
        again = replay(engine, scenario, options, report.history, sealed_dice=sealed_dice)
        assert again.digest() == state.digest(), "replaying the history gave another digest"
    return report


def play_file(game: Game, chooser: Chooser) -> int:
    """Random legal actions of ``game``'s side until its file seals; that file's number."""
    sealed = None
    while sealed is None:
        _, _, sealed = game.act(chooser.pick(game.state.legal_actions()).notation())
    return sealed
