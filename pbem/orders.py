"""Standing orders: a side answers some of its decisions in advance (ARCHITECTURE 9).

By email, every decision the rules give the defender inside the attacker's turn (how to
take a combat result, its defensive fire, ...) costs a round trip. A side may instead
publish standing orders in a signed turn file: for each decision kind its engine allows
(:meth:`pbem.engine.Engine.standing_orders`), a policy: ``default`` (the rulebook's
default) or one the engine names (For the Motherland!'s ``losses``: step losses rather
than retreats). From the end of that file on, the opponent's program answers such a
decision on its behalf, writing the answer into its own file as an order record
``["o", action]``, and plays on.

Nobody chooses anything: the answer is what the engine's :meth:`State.order_answer` gives
for the position and the policy, which the receiver's verifier computes again and
compares. The acting side may
not skip an order either: a file that stops at a decision the opponent's orders answer is
refused as incomplete, so the order cannot be applied or withheld as the dice suit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pbem.errors import FormatError, UsageError, quote

if TYPE_CHECKING:
    # pbem.session imports this module for its types: the engine module (and what it
    # imports) loads with the first game, not with 'pbem status' (issue 19)
    from pbem.engine import Decision, Engine, State

#: the policy every kind has: the default the rulebook names for that decision
DEFAULT = "default"

Orders = dict[str, str]


def kinds(engine: Engine) -> dict[str, tuple[str, ...]]:
    """Decision kind -> its policies, for the kinds the engine allows."""
    return {spec.kind: (DEFAULT, *(name for name, _ in spec.policies))
            for spec in engine.standing_orders()}


def parse(engine: Engine, value: Any, what: str) -> Orders:
    """The ``orders`` field of a turn body, checked: known kinds, known policies."""
    if not isinstance(value, dict):
        raise FormatError(f"{what}: orders must be a map of decision kind to policy")
    allowed = kinds(engine)
    out: Orders = {}
    for kind, policy in value.items():
        if kind not in allowed:
            raise FormatError(f"{what}: {engine.id} allows no standing order for decision "
                              f"kind {quote(kind)} (it allows: "
                              f"{', '.join(sorted(allowed)) or 'none'})")
        if policy not in allowed[kind]:
            raise FormatError(f"{what}: unknown standing-order policy {quote(policy)} for {kind} "
                              f"(policies: {', '.join(allowed[kind])})")
        out[kind] = policy
    return dict(sorted(out.items()))


def answer(state: State, acting: str, orders: Mapping[str, Orders],
           decide: Callable[[], Decision | None] | None = None) -> str | None:
    """The action a standing order gives now, or ``None``.

    Only a decision of the side *not* writing the file (``acting`` writes it) is answered,
    only for a kind that side ordered, and only when its policy gives an answer there.
    """
    from pbem.engine import CHANCE

    player = state.current_player()
    if player is None or player in (CHANCE, acting):
        return None
    mine = orders.get(player, {})
    if not mine:
        return None
    # ``decide``: the caller's memo of state.decision() (an engine may build a decision's
    # options from its legal actions, so asking twice per position costs)
    decision = decide() if decide is not None else state.decision()
    if decision is None or decision.kind not in mine:
        return None
    action = state.order_answer(decision, mine[decision.kind])
    return None if action is None else action.notation()


def text(orders: Mapping[str, str]) -> str:
    """A side's orders in one line, as every command shows them."""
    return ", ".join(f"{k}={v}" for k, v in orders.items()) or "none"


def listing(engine: Engine, mine: Mapping[str, str], theirs: Mapping[str, str]) -> list[str]:
    """The decisions ``engine`` lets a side answer in advance, with their policies and
    which side has ordered them (``pbem orders`` and the play prompt)."""
    out = []
    for spec in engine.standing_orders():
        flags = [who for who, held in (("yours", spec.kind in mine),
                                       ("opponent's", spec.kind in theirs)) if held]
        out.append(f"{spec.kind} ({spec.rule}): {spec.text}"
                   + (f"  [in force: {', '.join(flags)}]" if flags else ""))
        out += [f"    or {spec.kind}={name}: {what}" for name, what in spec.policies]
    return out or [f"{engine.id} has no decisions that can be answered in advance"]


def edit(engine: Engine, current: Mapping[str, str], *, set_kinds: tuple[str, ...] = (),
         clear_kinds: tuple[str, ...] = (), all_kinds: bool = False,
         none: bool = False) -> Orders:
    """A side's orders after a change asked on the command line (refusing unknown kinds)."""
    allowed = kinds(engine)
    out = {} if none else dict(current)
    if all_kinds:
        out.update({k: DEFAULT for k in allowed})
    for given in set_kinds:
        kind, _, policy = given.partition("=")
        policy = policy or DEFAULT
        if kind not in allowed:
            raise UsageError(f"{engine.id} allows no standing order for {kind!r} "
                             f"(it allows: {', '.join(sorted(allowed)) or 'none'})")
        if policy not in allowed[kind]:
            raise UsageError(f"{kind} has no policy {policy!r} (policies: "
                             f"{', '.join(allowed[kind])})")
        out[kind] = policy
    for kind in clear_kinds:
        if kind not in allowed:
            raise UsageError(f"{engine.id} allows no standing order for {kind!r}")
        out.pop(kind, None)
    return dict(sorted(out.items()))
