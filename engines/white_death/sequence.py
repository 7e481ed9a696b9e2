"""The sequence of play (Rule 5 and "Play By Telephone") as steps on :mod:`pbem.steps`.

A turn (:class:`Turn`) and an impulse (:class:`Impulse`) are sequences in data, each entry
with its rule; every decision is a :class:`~pbem.steps.Choice` with its rule, deciding side
and default (:mod:`engines.white_death.decisions`), every die a :class:`~pbem.steps.Roll`
with its rule.  The rules themselves are plain functions of the rule modules (``turns``,
``supply``, ``movement``, ``artillery``, ``assault``...), taking the state first; the
steps only say when they apply and what comes next.  The work a rule queues up as it
goes (the dice of a barrage, a morale check after a fire, the rest of a move after the
antitank fire at its exit) goes to the runtime's frame queue (``s.queue``), which runs it
once the step has acted.

The stack of a game in progress reads, bottom to top: ``game`` (turn after turn, then the
end of the game), ``turn`` (a :class:`Turn` at one of its entries), ``impulses`` (one impulse
after another while either side has movement points), ``impulse`` (an :class:`Impulse` at
one of its entries), and the step at hand with whatever it queued.

This module makes the steps of the game, the turn, the impulse and its combat; the steps
outside an impulse's combat are made by :mod:`engines.white_death.phases` when a command
first reaches one of them (``STEPS``, a :class:`~pbem.steps.LazyStepTable`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engines.white_death.assault import (
    HexArgs,
    _assault_done,
    _on_crt,
    _open_combat,
    _resolve_next,
)
from engines.white_death.base import DieArgs
from engines.white_death.combat import _fright_checks, _on_mc
from engines.white_death.decisions import Advance, AssaultFire, DefensiveFire, Stage
from engines.white_death.supply import _vl_avoid_possible
from pbem.engine import Event
from pbem.steps import (
    Entry,
    Flow,
    Frame,
    LazyStepTable,
    NoArgs,
    Procedure,
    Roll,
    Sequence,
    Step,
    step_table,
)

if TYPE_CHECKING:
    from engines.white_death.state import WDState

# The rules of movement, of barrages (``artillery``), of reinforcements and of the turn's
# start and end (``turns``) are imported by the steps that run them, where they run: a
# command in a combat phase (a fire, an advance) runs none of them, and loading them was
# ~5 M instructions of every such turn command (issue 35).


def _release_due(s: WDState) -> bool:
    from engines.white_death.turns import release_due

    return release_due(s)


@functools.cache
def _barrage_due() -> Callable[[WDState], bool]:
    """Rule 11.B's test whether the impulse has a barrage phase, asked every impulse:
    found once (the import statement each time cost 5k instructions)."""
    from engines.white_death.artillery import barrage_phase_due

    return barrage_phase_due


# ------------------------------------------------------------------ kinds of step


class WDProcedure(Procedure["WDState"]):
    def run(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        s._changed()
        events = self.act(s, args, flow)
        s._changed()
        return events

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        raise NotImplementedError


class WDRoll(Roll["WDState"]):
    """A die (every one of the game is 1d6): its purpose, rule and hex are the frame's
    (``DieArgs``), or a turn's roll declares its purpose; told as rolled, then applied by
    its rule (``then``)."""

    Args: ClassVar[type[Any]] = DieArgs
    dice = (6,)
    purpose_template = "{purpose}"
    rule_field = "rule"
    hex_field = "hex"
    told = True

    def purpose_fields(self, s: WDState, args: Any) -> dict[str, int]:
        return {"turn": s.pos.turn}



class WDSequence(Sequence["WDState"]):
    pass


# ------------------------------------------------------------------ the game and its turns


class Game(WDProcedure):
    """Turn after turn (the stack starts with the first turn above this), and after the
    scenario's last turn the end of the game with its victory points."""

    name, rule = "game", "Rule 5"
    phase = "end"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        if s.pos.turn >= s.last_turn:
            from engines.white_death.turns import _finish

            flow.end()
            return _finish(s)
        s.pos.turn += 1
        flow.call("turn")
        return []


class Turn(WDSequence):
    """Rule 5's turn, "Play By Telephone": the turn's dice and supply in the file of
    whoever ended the previous turn, the German's Velikiye Luki decision, then impulses."""

    name = "turn"
    phase = "start"
    entries = (
        Entry("Rule 5", "turn-begins"),
        Entry("Rule 16", "weather"),
        Entry("Rule 22", "release", lambda s: _release_due(s)),
        Entry("Rule 15", "supply"),
        Entry("Rule 15.D.2", "vl-supply", lambda s: _vl_avoid_possible(s)),
        Entry("Rule 5", "impulses"),
    )


class Impulses(WDProcedure):
    """Rule 5: impulses alternate while both sides have movement points, then the side
    with points left goes on alone (``end-impulse`` says who is phasing next)."""

    name, rule = "impulses", "Rule 5"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        if s.pos.mps["soviet"] > 0 or s.pos.mps["german"] > 0:
            flow.call("impulse")
        else:
            flow.end()
        return []


# ------------------------------------------------------------------ an impulse


class Impulse(WDSequence):
    """Rule 5's impulse: the phasing player's decision, movement with assault
    declarations, barrage; the defender's fire, the assault fire and the advance, hex by
    hex; then the other side's impulse, or the same side's once the other is spent."""

    name = "impulse"
    entries = (
        Entry("Rule 17", "start-impulse"),
        Entry("Rule 5", "impulse-decision"),
        Entry("Rule 6", "movement"),
        Entry("Rule 11.B", "barrage", lambda s: _barrage_due()(s)),
        Entry("Rule 11.B.2.B", "barrage-end"),
        Entry("Rule 5", "combat"),
        Entry("Rule 5", "end-impulse"),
    )


class Crt(WDRoll):
    """A fire on the Combat Results Table: conventional (Rule 9) or antitank (Rules 10,
    3.A), then the target's morale check."""

    name, rule = "crt", "Rule 9"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        return _on_crt(s, args, roll)


class Morale(WDRoll):
    name, rule = "mc", "Rule 14"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        return _on_mc(s, args, roll)


class AssaultCrt(Crt):
    """A planned assault fire at RESOLVE (Rules 9, 10). Sealed dice (issue 21): these
    rolls are batch ``assault``, because the manual's RESOLVE executes the plans "after
    you have completed them": no decision of the assaulting player between the plans and
    the fire reads a result. The batch ends at the first step that reads one (the hex's
    tank fright checks, Rule 14.C.2; then the clearing of the hex and the advance, 9.D)
    or at the opponent's decision; no step lets it wait further."""

    name = "assault-crt"
    batch = "assault"


class Combat(WDProcedure):
    """Rule 5: the defensive fire against every assaulted hex, then the assault plans
    and their RESOLVE, then the advance; none when no assault was declared."""

    name, rule = "combat", "Rule 5"
    phase = "barrage"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        s.pos.combat_hexes = sorted(s.pos.assaults)
        s.pos.counts = {}
        if not s.pos.combat_hexes:
            flow.end()
            return []
        flow.goto("fire-phase", Stage("defense"))
        return [Event(f"Defensive fire against {len(s.pos.combat_hexes)} assaulted hexes",
                      "phase", rule="Rule 5")]


class FirePhase(WDProcedure):
    """Rule 5: hex by hex, the fire at each assaulted hex where attackers and defenders
    still face each other: the defender's fire, each hex resolved as it is allocated; then
    the assaulting player's plans for every hex, then RESOLVE (the manual's Assault
    menu: "Continue until you have completed assault plans on all the enemy hexes you
    selected ..., then go to RESOLVE")."""

    name, rule = "fire-phase", "Rule 5"
    Args = Stage
    phase_arg = "stage"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        opened = _open_combat(s, args.stage)
        if opened is not None:
            flow.call("defensive-fire" if args.stage == "defense" else "assault-fire", args)
            return opened
        if args.stage == "defense":
            s.pos.combat_hexes = sorted(s.pos.assaults)
            s.pos.counts = {}
            flow.goto("fire-phase", Stage("assault"))
            return [Event("The assault phase begins", "phase", rule="Rule 5")]
        flow.goto("resolve")
        return []


class Resolve(WDProcedure):
    """RESOLVE (the manual's Assault menu): "This executes the assault plans after you
    have completed them. The battle commences against each hex and each unit targeted
    within it, one at a time. Losses are calculated, retreats are carried out, morale
    checks are taken, and the results are reported. If any hex has been vacated, you
    are given the opportunity to move in": one plan at a time, in hex order, its fire
    (``assault-crt``, Rules 9, 10) with their morale checks (Rule 14), the tank fright
    checks (14.C.2) and the hex's clearing (9.D); then the advance (9.D, 10.E)."""

    name, rule = "resolve", "RESOLVE"
    phase = "assault"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        if s.pos.plans:
            flow.goto("resolve")
            return _resolve_next(s)
        s.pos.combat = None
        if s.pos.advance:
            flow.goto("advance")
        else:
            flow.end()
        return []


class Fright(WDProcedure):
    name, rule = "fright", "Rule 14.C.2"
    Args = HexArgs

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        flow.end()
        _fright_checks(s, args.hex)
        return []


class AssaultDone(WDProcedure):
    name, rule = "assault-done", "Rule 9.D"
    Args = HexArgs

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        flow.end()
        return _assault_done(s, args.hex)


class EndImpulse(WDProcedure):
    name, rule = "end-impulse", "Rule 5"
    phase = "end"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.turns import _end_impulse

        flow.end()
        _end_impulse(s)
        return []


HERE = step_table(
    Game(), Turn(), Impulses(), Impulse(), Crt(), Morale(), AssaultCrt(), Resolve(), Combat(),
    FirePhase(), DefensiveFire(), AssaultFire(), Fright(), AssaultDone(), Advance(),
    EndImpulse())

#: the steps outside an impulse's combat, made by :mod:`engines.white_death.phases` with
#: the first of them asked for: the turn's start, an impulse's start and movement,
#: barrages, the campaign's setup.  A command at a combat step (a fire, an advance: the
#: Combat Phase's decisions and dice) makes none of their classes (issue 35)
ELSEWHERE = dict.fromkeys((
    "setup", "turn-begins", "weather", "release", "supply", "airdrop", "vl-supply",
    "start-impulse", "flieger", "answer", "impulse-decision", "movement", "finish-move",
    "ice", "brandenburg", "barrage", "barrage-roll", "barrage-done", "barrage-end"), "phases")

#: every step by name: "game", then ELSEWHERE's, then the rest of HERE's; the decisions
#: keep the order they had when all were made at once (setup, vl-supply,
#: impulse-decision, movement, barrage, defensive-fire, assault-fire, advance), the
#: order a refusal asks them in (decisions.WDChoice.not_now)
STEPS: Mapping[str, Step[Any]] = LazyStepTable(HERE, ELSEWHERE, "engines.white_death",
                                               before=("game",))


def frames_for(step: str) -> list[Frame]:
    """The frames of a position at ``step`` (the setup API's ``step = "..."``, and the
    tests' hand-built positions): the steps above it as the sequence of play has them."""
    turn_at = [e.step for e in Turn.entries]
    impulse_at = [e.step for e in Impulse.entries]
    game = [Frame("game")]
    if step in ("setup", "turn"):
        return [*game, Frame(step)]
    if step in turn_at:
        return [*game, Frame("turn", NoArgs(), turn_at.index(step) + 1), _frame(step)]
    impulse = [*game, Frame("turn", NoArgs(), len(turn_at)), Frame("impulses")]
    if step in impulse_at:
        return [*impulse, Frame("impulse", NoArgs(), impulse_at.index(step) + 1), _frame(step)]
    in_combat = [*impulse, Frame("impulse", NoArgs(), impulse_at.index("combat") + 1)]
    if step in ("defensive-fire", "assault-fire"):
        stage = Stage("defense" if step == "defensive-fire" else "assault")
        return [*in_combat, Frame("fire-phase", stage), Frame(step, stage)]
    if step == "advance":
        return [*in_combat, Frame(step)]
    raise KeyError(step)


def _frame(step: str) -> Frame:
    return Frame(step, STEPS[step].Args())

