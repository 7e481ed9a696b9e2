"""For the Motherland!'s control flow on the step runtime (pbem.steps).

The sequence of play (3.0, 3.1) is data: :class:`AxisFirstTurn` (turns 1-11) and
:class:`SovietFirstTurn` (turns 12-22), each phase a :class:`PhaseStart` whose work the
rules queue up as frames (``MotherlandCore._push``).  Every decision the rules give a side
is one :class:`MotherlandChoice` (21 kinds, ``Engine.decision_kinds``), every die roll one
:class:`MotherlandRoll`, a chit draw :class:`DrawChits`, and the bookkeeping between them a
:class:`MotherlandProcedure`.  The rules themselves stay in the mixins (``state.py``
lists them); a step says who decides, what is offered, what the default is, and which
rule applies an answer.

Events go through ``MotherlandCore.say``; the frames a rule queues go to the runtime's
:meth:`~pbem.steps.Flow.push` when the step has acted (:meth:`MotherlandCore.flush`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from engines.motherland.actions import (
    Advance,
    Attack,
    Move,
    Overrun,
    Retreat,
    Strategic,
    Take,
    Word,
)
from engines.motherland.admin import (
    _evacuable,
    _evacuate,
    _on_production,
    _produce,
    _produce_hexes,
    _recovery,
)
from engines.motherland.args import (
    AdvanceArgs,
    ApplySideArgs,
    CountArgs,
    DrawArgs,
    GameArgs,
    HexArgs,
    KeepArgs,
    LoseArgs,
    MoveArgs,
    NArgs,
    PhaseArgs,
    PlaceArgs,
    ReplaceArgs,
    RetreatArgs,
    RoleArgs,
    RollArgs,
    SideArgs,
    StuckArgs,
    TakeArgs,
    UnitArgs,
    UnitsArgs,
)
from engines.motherland.chits import (
    _admin_chits,
    _admin_draws,
    _apply_general,
    _combat_chits,
    _generals_options,
    _keep_chit,
    _on_chits,
)
from engines.motherland.combat import (
    _apply_attack,
    _apply_side,
    _apply_take,
    _attack_options,
    _combat_end,
    _combat_resolve,
    _eliminate,
    _lose_options,
    _lose_step,
    _on_crt,
    _stuck_steps,
    _take_options,
)
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.movement import _apply_move, _move_options
from engines.motherland.optional import _apply_baku, _on_baku, _on_turkey, _turkey
from engines.motherland.overrun import _apply_overrun
from engines.motherland.partisans import (
    _base_hexes,
    _on_partisan,
    _partisan_effects,
    _partisan_moves,
    _partisan_targets,
)
from engines.motherland.reinforcements import (
    _arrivals,
    _combine,
    _combine_options,
    _convert,
    _convert_options,
    _on_returning,
    _place_reinforcement,
    _reinf_hexes,
    _reinf_leftover,
    _reinf_pool,
    _replace,
    _replace_options,
)
from engines.motherland.retreat import (
    _advance_options,
    _advance_start,
    _apply_advance,
    _apply_retreat,
    _retreat_auto,
    _retreat_left,
    _retreat_options,
)
from engines.motherland.sequence import _push_phase, next_turn, turn_sequence
from engines.motherland.stacking import _over_limit, _stacking
from engines.motherland.strategic import _apply_ship, _apply_strategic
from engines.motherland.supply import (
    _air_supply,
    _expend,
    _expendable,
    _in_air_range,
    _isolation_rolls,
    _on_isolation,
    _remove_expended,
    _supply_start,
    _supply_status,
    air_available,
    isolated,
)
from engines.motherland.victory import _on_stalin, _on_sudden_death, _on_surrender
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.errors import IllegalAction
from pbem.steps import (
    Choice,
    Entry,
    Flow,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    Sequence,
    Step,
    step_table,
)

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# ================================================================================
# the sequence of play (3.0, 3.1)
# ================================================================================


class Game(Procedure["MotherlandState"]):
    """Turn after turn from the scenario's first to its last (20.0), then victory (19.0)."""

    name = "game"
    rule = "3.0"
    Args = GameArgs

    def run(self, s: MotherlandState, args: GameArgs, flow: Flow) -> list[Event]:
        if args.started and not next_turn(s):
            flow.end()
            return []
        args.started = True
        flow.call(turn_sequence(s))
        return []


class PhaseStart(Procedure["MotherlandState"]):
    """A phase begins (3.1): its marks cleared and its work queued, stacking checked last."""

    name = "phase"
    rule = "3.1"
    Args = PhaseArgs

    def run(self, s: MotherlandState, args: PhaseArgs, flow: Flow) -> list[Event]:
        s.pos.phase = args.index
        _push_phase(s)
        s.flush(flow)
        flow.end()
        return []


class AxisFirstTurn(Sequence["MotherlandState"]):
    """3.0: on turns 1-11 the Axis moves first."""

    name = "axis-first-turn"
    entries = (
        Entry("3.1 A", "phase", args=PhaseArgs(0)),  # Mutual Supply Phase (9.0, 10.0)
        Entry("3.1 B", "phase", args=PhaseArgs(1)),  # Axis Movement Phase (5.0, 17.0)
        Entry("3.1 C", "phase", args=PhaseArgs(2)),  # Axis Combat Phase (8.0)
        Entry("3.1 D", "phase", args=PhaseArgs(3)),  # Axis Exploitation Movement (5.4)
        Entry("3.1 E", "phase", args=PhaseArgs(4)),  # Soviet Movement Phase
        Entry("3.1 F", "phase", args=PhaseArgs(5)),  # Soviet Combat Phase
        Entry("3.1 G", "phase", args=PhaseArgs(6)),  # Administrative Phase (12.0)
    )


class SovietFirstTurn(Sequence["MotherlandState"]):
    """3.0: on turns 12-22 the Soviets move first (and take no Exploitation Phase)."""

    name = "soviet-first-turn"
    entries = (
        Entry("3.1 A", "phase", args=PhaseArgs(0)),  # Mutual Supply Phase
        Entry("3.1 B", "phase", args=PhaseArgs(1)),  # Soviet Movement Phase
        Entry("3.1 C", "phase", args=PhaseArgs(2)),  # Soviet Combat Phase
        Entry("3.1 D", "phase", args=PhaseArgs(3)),  # Soviet Exploitation (none, 5.4)
        Entry("3.1 E", "phase", args=PhaseArgs(4)),  # Axis Movement Phase
        Entry("3.1 F", "phase", args=PhaseArgs(5)),  # Axis Combat Phase
        Entry("3.1 G", "phase", args=PhaseArgs(6)),  # Administrative Phase
    )


# ================================================================================
# decisions
# ================================================================================


class MotherlandChoice(Choice["MotherlandState"]):
    """What every decision of the game shares: its events are said, the frames its rules
    queue are pushed, and the position's cached facts dropped after an answer."""

    #: the word that ends it (const.DONE), if a side may end it
    done: ClassVar[str] = ""
    #: what ``settle`` does before asking: "" nothing; "drop" end when nothing is offered;
    #: "forced" also take a sole option; "once" end when nothing is offered, take a sole
    #: option unless it is the ending word (then end)
    forced: ClassVar[str] = ""
    #: options listed with the decision up to this many (a movement phase offers thousands)
    show_at_most: ClassVar[int] = 40
    prompt_text: ClassVar[str] = ""
    def side(self, s: MotherlandState, args: Any) -> str:
        return self.decider or str(args.side)  # "": the frame's side

    def prompt(self, s: MotherlandState, args: Any) -> str:
        return self.prompt_text.format(side=self.side(s, args), a=args)

    def ending(self, s: MotherlandState, args: Any) -> str:
        return self.done

    def default_of(self, s: MotherlandState, args: Any, opts: list[Action]) -> Action | None:
        """The rulebook's default from the options already listed."""
        end = self.ending(s, args)
        if end and Word(end) in opts:  # not when the task must be done first (10.2)
            return Word(end)
        return opts[0] if opts else None

    def default(self, s: MotherlandState, args: Any) -> Action | None:
        return self.default_of(s, args, self.options(s, args))

    def why_not(self, s: MotherlandState, args: Any, action: Action) -> str | Refusal:
        if not isinstance(action, Word):
            return f"{action.notation()!r} does not answer {self.prompt(s, args)}"
        return f"{action.text!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MotherlandState, args: Any, action: Action, flow: Flow) -> list[Event]:
        self.answer(s, args, action, flow)
        s._touch()
        s.flush(flow)
        return []

    def answer(self, s: MotherlandState, args: Any, action: Action, flow: Flow) -> None:
        """Apply an answer (an action ``check`` let through)."""
        if isinstance(action, Word) and action.text.startswith("end "):
            self.end(s, args, flow)
            return
        self.word(s, args, action.notation(), flow)

    def end(self, s: MotherlandState, args: Any, flow: Flow) -> None:
        flow.end()

    def word(self, s: MotherlandState, args: Any, text: str, flow: Flow) -> None:
        raise NotImplementedError

    def settle(self, s: MotherlandState, args: Any, flow: Flow) -> list[Event] | None:
        if not self.forced:
            return None
        opts = self.options(s, args)
        if not opts:
            flow.end()
        elif len(opts) != 1 or self.forced == "drop":
            return None
        elif self.forced == "forced":
            self.answer(s, args, opts[0], flow)
        elif isinstance(opts[0], Word) and opts[0].text.startswith("end "):
            self.end(s, args, flow)
        else:  # a forced choice (10.2 a marker with one Supply Base to go to)
            self.word(s, args, opts[0].notation(), flow)
        s.flush(flow)
        return []


class MoveChoice(MotherlandChoice):
    """5.0, 5.4: the phasing side moves (its units, overruns, Strategic Movement, Sea
    Transport, the Baku raid) until it ends the phase.  Each kind of move is checked by its
    own rule, so a move along any legal path is taken, not only the one listed."""

    name = "move"
    kind = "movement"
    rule = "5.0"
    Args = MoveArgs
    prompt_text = "the {side} player moves (or ends the phase)"

    def ending(self, s: MotherlandState, args: MoveArgs) -> str:
        return DONE["exploit" if args.exploit else "move"]

    def options(self, s: MotherlandState, args: MoveArgs) -> list[Action]:
        return _move_options(s, args)

    def check(self, s: MotherlandState, args: MoveArgs, action: Action) -> None:
        pass  # each kind of move refuses with its own rule (answer)

    def answer(self, s: MotherlandState, args: MoveArgs, action: Action, flow: Flow) -> None:
        exploit = args.exploit
        if isinstance(action, Move):
            _apply_move(s, action, exploit)
        elif isinstance(action, Strategic):
            if exploit:
                raise IllegalAction("no Strategic Movement in the Exploitation Movement "
                                    "Phase", rule="5.4.3")
            _apply_strategic(s, action)
        elif isinstance(action, Overrun):
            _apply_overrun(s, action, exploit)
        elif isinstance(action, Word) and action.text.startswith("ship "):
            if exploit:
                raise IllegalAction("no Sea Transport in the Exploitation Movement Phase",
                                    rule="5.4.3")
            _apply_ship(s, action.text)
        elif isinstance(action, Word) and action.text.startswith("baku "):
            _apply_baku(s, args, action.text)
        elif action == Word(self.ending(s, args)):
            flow.end()
        else:
            raise IllegalAction(f"{action.notation()!r} is not a movement-phase action",
                                rule="5.0")


class CombatChoice(MotherlandChoice):
    """8.0: the phasing side declares attacks, one at a time, until it ends the phase."""

    name = "combat"
    kind = "combat"
    rule = "8.0"
    done = DONE["combat"]
    Args = SideArgs
    prompt_text = "the {side} player declares attacks"

    def options(self, s: MotherlandState, args: SideArgs) -> list[Action]:
        return [*_attack_options(s), Word(self.done)]

    def check(self, s: MotherlandState, args: SideArgs, action: Action) -> None:
        pass  # an attack is checked rule by rule as it is applied

    def only_option(self, s: MotherlandState, args: SideArgs) -> Action | None:
        # the attacks listed leave out only other groupings of units that can attack a
        # hex (8.0); with none listed no hex can be attacked, and ending the phase is the
        # one option (sealed rules 2, issue 32)
        options = self.options(s, args)
        return options[0] if options == [Word(self.done)] else None

    def answer(self, s: MotherlandState, args: SideArgs, action: Action, flow: Flow) -> None:
        if isinstance(action, Attack):
            _apply_attack(s, action)
        elif action == Word(self.done):
            flow.end()
        else:
            raise IllegalAction(f"{action.notation()!r} is not a combat-phase action",
                                rule="8.0")


class Reinforcements(MotherlandChoice):
    """17.0: the phasing side places its reinforcements; those left wait a turn."""

    name = "reinf"
    kind = "reinforcements"
    rule = "17.0"
    done = DONE["reinf"]
    forced = "once"
    Args = SideArgs
    prompt_text = "the {side} player places reinforcements"

    def options(self, s: MotherlandState, args: SideArgs) -> list[Action]:
        opts: list[Action] = []
        for uid in _reinf_pool(s, args.side):
            opts += [Word(f"place {uid} {h}") for h in _reinf_hexes(s, uid)]
        return [*opts, Word(self.done)]

    def end(self, s: MotherlandState, args: SideArgs, flow: Flow) -> None:
        flow.end()
        _reinf_leftover(s, args.side)

    def word(self, s: MotherlandState, args: SideArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        _place_reinforcement(s, parts[1], parts[2])


class TakeResult(MotherlandChoice):
    """8.5: the side hit takes a result as step losses and hexes of retreat (by default
    retreating where possible)."""

    name = "take"
    kind = "result-choice"
    rule = "8.5"
    Args = TakeArgs
    prompt_text = ("the {side} player takes {a.code} on {units} as step losses and hexes "
                   "of retreat")

    def prompt(self, s: MotherlandState, args: TakeArgs) -> str:
        return self.prompt_text.format(side=args.side, a=args, units=" ".join(args.units))

    def options(self, s: MotherlandState, args: TakeArgs) -> list[Action]:
        return _take_options(s, args)

    def default_of(self, s: MotherlandState, args: TakeArgs,
                   opts: list[Action]) -> Action | None:
        return opts[-1] if opts else None  # retreats where possible (8.5)

    def check(self, s: MotherlandState, args: TakeArgs, action: Action) -> None:
        if not isinstance(action, Take):
            raise IllegalAction("the result must be taken first: take ... as ...", rule="8.5")

    def answer(self, s: MotherlandState, args: TakeArgs, action: Action, flow: Flow) -> None:
        assert isinstance(action, Take)
        _apply_take(s, args, action, flow)

    def settle(self, s: MotherlandState, args: TakeArgs, flow: Flow) -> list[Event] | None:
        opts = self.options(s, args)
        if len(opts) != 1:
            return None
        self.answer(s, args, opts[0], flow)
        s.flush(flow)
        return []


class LoseSteps(MotherlandChoice):
    """8.5.1: the owner allocates step losses, each unit losing one before any loses two."""

    name = "lose"
    kind = "step-loss"
    rule = "8.5.1"
    forced = "forced"
    Args = LoseArgs
    prompt_text = "the {side} player allocates {a.n} step loss(es) among {units}"

    def prompt(self, s: MotherlandState, args: LoseArgs) -> str:
        return self.prompt_text.format(side=args.side, a=args, units=" ".join(args.units))

    def options(self, s: MotherlandState, args: LoseArgs) -> list[Action]:
        return list(_lose_options(s, args))

    def word(self, s: MotherlandState, args: LoseArgs, text: str, flow: Flow) -> None:
        uid = text.split()[1]
        args.taken[uid] = args.taken.get(uid, 0) + 1
        args.n -= 1
        _lose_step(s, uid, args.why)
        if args.n <= 0:
            flow.end()


class RetreatChoice(MotherlandChoice):
    """8.6.1: among retreat hexes of equal priority the owner chooses; a unit with none
    takes its retreat as steps (8.5.1), a sole hex is taken without asking."""

    name = "retreat"
    kind = "retreat-choice"
    rule = "8.6.1"
    Args = RetreatArgs

    def prompt(self, s: MotherlandState, args: RetreatArgs) -> str:
        return (f"the {args.side} player retreats {_retreat_left(s, args)} away from "
                f"{args.center} (equal-priority hexes only)")

    def options(self, s: MotherlandState, args: RetreatArgs) -> list[Action]:
        return _retreat_options(s, args)

    def check(self, s: MotherlandState, args: RetreatArgs, action: Action) -> None:
        if not isinstance(action, Retreat):
            raise IllegalAction("a retreat is pending: retreat UNITS to HEX", rule="8.6")

    def answer(self, s: MotherlandState, args: RetreatArgs, action: Action,
               flow: Flow) -> None:
        assert isinstance(action, Retreat)
        _apply_retreat(s, args, action)

    def settle(self, s: MotherlandState, args: RetreatArgs,
               flow: Flow) -> list[Event] | None:
        if not _retreat_auto(s, args, flow):
            return None
        s.flush(flow)
        return []


class AdvanceChoice(MotherlandChoice):
    """8.7: the winner may advance into the vacated hex (armor a second hex, 8.7.1)."""

    name = "advance"
    kind = "advance"
    rule = "8.7"
    done = DONE["advance"]
    forced = "once"
    Args = AdvanceArgs
    prompt_text = "the {side} player may advance up to {a.n} hex(es) into {first}"

    def prompt(self, s: MotherlandState, args: AdvanceArgs) -> str:
        return self.prompt_text.format(side=args.side, a=args, first=" ".join(args.first))

    def options(self, s: MotherlandState, args: AdvanceArgs) -> list[Action]:
        return [*_advance_options(s, args), Word(self.done)]

    def check(self, s: MotherlandState, args: AdvanceArgs, action: Action) -> None:
        if not isinstance(action, Advance) and action != Word(self.done):
            raise IllegalAction("advance after combat: advance UNIT HEX or end advance",
                                rule="8.7")

    def answer(self, s: MotherlandState, args: AdvanceArgs, action: Action,
               flow: Flow) -> None:
        if isinstance(action, Advance):
            _apply_advance(s, args, action)
        else:
            flow.end()


class Generals(MotherlandChoice):
    """16.5: before chits are drawn the Soviet player may use a General."""

    name = "generals"
    kind = "generals"
    rule = "16.5"
    done = DONE["generals"]
    forced = "once"
    Args = UnitsArgs
    #: 16.5: the Soviet player declares a General "when drawing" a unit's chit, before the
    #: draw; a General's draw tells nothing about the other units, so the draws of the
    #: Generals declared may wait until the Soviet player has declared them all
    lets_wait = frozenset({"chits"})
    prompt_text = "the Soviet player may use a General before the chits are drawn"

    decider = SOVIET

    def may_wait(self, s: MotherlandState, args: UnitsArgs, batches: frozenset[str]) -> bool:
        # only while every cup holds more than the waiting draws take: the options (a
        # General only where the cup has a chit) are then those of the cups as drawn
        taken: dict[str, int] = {}
        for f in s.parked:
            taken[f.args.letter] = taken.get(f.args.letter, 0) + f.args.count
        return batches <= self.lets_wait and all(
            len(s.pos.cups[letter]) > n for letter, n in taken.items())

    def options(self, s: MotherlandState, args: UnitsArgs) -> list[Action]:
        return [*_generals_options(s, args), Word(self.done)]

    def word(self, s: MotherlandState, args: UnitsArgs, text: str, flow: Flow) -> None:
        _apply_general(s, args, text)


class KeepChit(MotherlandChoice):
    """16.5: of a General's two chits the Soviet player keeps one."""

    name = "keep"
    kind = "chit-choice"
    rule = "16.5"
    forced = "drop"
    Args = KeepArgs
    prompt_text = "the Soviet player keeps one of two chits for {a.unit}"

    decider = SOVIET

    def options(self, s: MotherlandState, args: KeepArgs) -> list[Action]:
        return [Word(f"keep {cid} for {args.unit}") for cid in sorted(set(args.drawn))]

    def word(self, s: MotherlandState, args: KeepArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        flow.end()
        _keep_chit(s, parts[3], parts[1], args.drawn)


class Overstacked(MotherlandChoice):
    """6.0: the opponent eliminates the units over the stacking limit."""

    name = "stack"
    kind = "stacking"
    rule = "6.0"
    forced = "forced"
    Args = HexArgs
    prompt_text = "the {side} player eliminates the opponent's excess units at {a.hex}"

    def options(self, s: MotherlandState, args: HexArgs) -> list[Action]:
        return [Word(f"eliminate {x}") for x in _over_limit(s, args.hex)]

    def word(self, s: MotherlandState, args: HexArgs, text: str, flow: Flow) -> None:
        _eliminate(s, text.split()[1], "over the stacking limit, chosen by the opponent (6.0)")
        if not _over_limit(s, args.hex):
            flow.end()


class ExpendBases(MotherlandChoice):
    """9.3.4: the Axis may expend Supply Bases off the railroad net."""

    name = "expend"
    kind = "expend-base"
    rule = "9.3.4"
    done = DONE["expend"]
    forced = "once"
    Args = NoArgs
    prompt_text = "the Axis player may expend Supply Bases"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*(Word(f"expend {x}") for x in _expendable(s)), Word(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, text: str, flow: Flow) -> None:
        _expend(s, text.split()[1])


class AirSupply(MotherlandChoice):
    """14.2: the Axis may fly Air Supply to German units Out of Supply in range."""

    name = "airsupply"
    kind = "air-supply"
    rule = "14.2"
    done = DONE["airsupply"]
    forced = "once"
    Args = NoArgs
    prompt_text = "the Axis player may fly Air Supply"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        done = [Word(self.done)]
        if s.mud or air_available(s) <= 0:
            return list(done)
        return [*(Word(f"air supply {x}") for x in sorted(s.on_map(AXIS))
                  if s.german(x) and s.u(x).supply == "out"
                  and _in_air_range(s, s.u(x).hex)), *done]

    def word(self, s: MotherlandState, args: NoArgs, text: str, flow: Flow) -> None:
        _air_supply(s, text.split()[2])


class PartisanMarkers(MotherlandChoice):
    """10.1: the Soviet player marks German units Out of Supply, nearest first."""

    name = "partisan_oos"
    kind = "partisan-markers"
    rule = "10.1"
    forced = "forced"
    Args = CountArgs
    prompt_text = "the Soviet player marks German units Out of Supply, nearest first"

    decider = SOVIET

    def options(self, s: MotherlandState, args: CountArgs) -> list[Action]:
        return [Word(f"out of supply {x}") for x in _partisan_targets(s, args.hex)]

    def word(self, s: MotherlandState, args: CountArgs, text: str, flow: Flow) -> None:
        uid = text.split()[3]
        s.u(uid).supply = "out"
        args.n -= 1
        s.say(f"Partisans: {uid} is Out of Supply (10.1)", rule="10.1")
        if args.n <= 0:
            flow.end()


class PartisanPlacement(MotherlandChoice):
    """10.2: the Soviet player places Partisan markers on Supply Bases (those not on one
    must be placed when they can)."""

    name = "partisan_place"
    kind = "partisan-placement"
    rule = "10.2"
    done = DONE["partisan_place"]
    forced = "once"
    Args = PlaceArgs
    prompt_text = "the Soviet player places Partisan markers"

    decider = SOVIET

    def options(self, s: MotherlandState, args: PlaceArgs) -> list[Action]:
        moves = _partisan_moves(s, args)
        bases = _base_hexes(s)
        loose = {p for p, h in s.pos.partisans.items() if h not in bases}
        must = any(p in loose for p, _ in moves)
        return [*(Word(f"partisan {p} to {b}") for p, b in moves),
                *([] if must else [Word(self.done)])]

    def word(self, s: MotherlandState, args: PlaceArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        p, base = parts[1], parts[3]
        s.pos.partisans[p] = s.u(base).hex
        args.moved = sorted([*args.moved, p])
        s.say(f"Partisan marker {p} goes to {base} at {s.u(base).hex} (10.2)", rule="10.2")


class IsolationLosses(MotherlandChoice):
    """9.1.3: the owner takes isolation attrition among the isolated units of a hex."""

    name = "isolation"
    kind = "isolation-losses"
    rule = "9.1.3"
    forced = "forced"
    Args = CountArgs
    prompt_text = "the {side} player takes {a.n} isolation loss(es) at {a.hex}"

    def options(self, s: MotherlandState, args: CountArgs) -> list[Action]:
        return [Word(f"isolation loss {x}") for x in sorted(s.units_at(args.hex, args.side))
                if isolated(s, x)]

    def word(self, s: MotherlandState, args: CountArgs, text: str, flow: Flow) -> None:
        args.n -= 1
        _lose_step(s, text.split()[2], "isolation attrition (9.1.3)")
        if args.n <= 0:
            flow.end()


class Conversions(MotherlandChoice):
    """17.2: the Soviet player may convert armies to Guards or Shock armies."""

    name = "convert"
    kind = "conversion"
    rule = "17.2"
    done = DONE["convert"]
    forced = "once"
    Args = NoArgs
    #: 17.2.1: a converted unit's new B chit bears on no other conversion (17.2.2 asks for
    #: supply and ZOC only), so the draws may wait until the Soviet player is done
    lets_wait = frozenset({"chits"})
    prompt_text = "the Soviet player may convert armies"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*_convert_options(s), Word(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        _convert(s, parts[1], parts[3])


class Kampfgruppen(MotherlandChoice):
    """15.2: the Axis may combine two Kampfgruppen into a full corps."""

    name = "combine"
    kind = "kampfgruppe"
    rule = "15.2"
    done = DONE["combine"]
    forced = "once"
    Args = NoArgs
    prompt_text = "the Axis player may combine Kampfgruppen"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*_combine_options(s), Word(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        _combine(s, parts[1], parts[2])


class Replacements(MotherlandChoice):
    """15.1: in a Mud turn the Axis spends its replacement points."""

    name = "replace"
    kind = "replacements"
    rule = "15.1"
    done = DONE["replace"]
    forced = "once"
    Args = ReplaceArgs
    prompt_text = "the Axis player spends replacements (i{a.i}/p{a.p})"

    decider = AXIS

    def options(self, s: MotherlandState, args: ReplaceArgs) -> list[Action]:
        return [*_replace_options(s, args), Word(self.done)]

    def word(self, s: MotherlandState, args: ReplaceArgs, text: str, flow: Flow) -> None:
        _replace(s, args, text.split()[1])


class Production(MotherlandChoice):
    """12.1: the Soviet player places the Offensive Support unit produced."""

    name = "produce"
    kind = "production"
    rule = "12.1"
    forced = "drop"
    Args = UnitArgs
    prompt_text = "the Soviet player places the produced unit"

    decider = SOVIET

    def options(self, s: MotherlandState, args: UnitArgs) -> list[Action]:
        return [Word(f"produce {args.unit} at {h}") for h in _produce_hexes(s)]

    def word(self, s: MotherlandState, args: UnitArgs, text: str, flow: Flow) -> None:
        parts = text.split()
        flow.end()
        _produce(s, parts[1], parts[3])


class Evacuation(MotherlandChoice):
    """12.2: the Soviet player may evacuate one factory."""

    name = "evacuate"
    kind = "evacuation"
    rule = "12.2"
    done = DONE["evacuate"]
    forced = "once"
    Args = NoArgs
    prompt_text = "the Soviet player may evacuate one factory"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*(Word(f"evacuate {x}") for x in _evacuable(s)), Word(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, text: str, flow: Flow) -> None:
        flow.end()
        _evacuate(s, text.split()[1])


class BakuFactories(MotherlandChoice):
    """21.1.2: the Axis picks the factories the Baku raid destroys."""

    name = "baku_factories"
    kind = "baku-factories"
    rule = "21.1.2"
    forced = "forced"
    Args = NArgs
    prompt_text = "the Axis player picks factories destroyed"

    decider = AXIS

    def options(self, s: MotherlandState, args: NArgs) -> list[Action]:
        return [Word(f"baku factory {x}") for x in sorted(s.on_map(SOVIET))
                if s.c(x).asset == "factory"]

    def word(self, s: MotherlandState, args: NArgs, text: str, flow: Flow) -> None:
        _eliminate(s, text.split()[2], "destroyed by the Baku raid (21.1.2)")
        args.n -= 1
        if args.n <= 0:
            flow.end()


# ================================================================================
# chance
# ================================================================================


class MotherlandRoll(Roll["MotherlandState"]):
    """One die (every roll of the game is 1d6); ``then`` names the rule's handler."""

    Args = RollArgs

    def request(self, s: MotherlandState, args: RollArgs) -> ChanceRequest:
        return ChanceRequest.roll(args.purpose, 6, rule=self.rule)

    def resolve(self, s: MotherlandState, args: RollArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        self.then(s, args, int(outcome[0]))
        s._touch()
        s.flush(flow)
        return []

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        raise NotImplementedError


class CrtRoll(MotherlandRoll):
    name, rule = "roll-crt", "8.2"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_crt(s, roll)


class ReturningRoll(MotherlandRoll):
    name, rule = "roll-returning", "17.1.4"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_returning(s, args, roll)


class PartisanRoll(MotherlandRoll):
    name, rule = "roll-partisan", "10.1"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_partisan(s, args, roll)


class IsolationRoll(MotherlandRoll):
    name, rule = "roll-isolation", "9.1.3"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_isolation(s, args, roll)


class ProductionRoll(MotherlandRoll):
    name, rule = "roll-production", "12.1"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_production(s, roll)


class SuddenDeathRoll(MotherlandRoll):
    name, rule = "roll-sudden-death", "20.2"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_sudden_death(s, roll)


class StalinRoll(MotherlandRoll):
    name, rule = "roll-stalin", "16.6"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_stalin(s, roll)


class SurrenderRoll(MotherlandRoll):
    name, rule = "roll-surrender", "20.2 rule 4"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_surrender(s, roll)


class BakuRoll(MotherlandRoll):
    name, rule = "roll-baku", "21.1.2"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_baku(s, roll)


class BakuFactoriesRoll(MotherlandRoll):
    name, rule = "roll-baku-factories", "21.1.2"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        s._push_frame("baku_factories", NArgs(roll))


class TurkeyRoll(MotherlandRoll):
    name, rule = "roll-turkey", "21.2.1"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        _on_turkey(s, args, roll)


class DrawChits(Roll["MotherlandState"]):
    """11.1, 16.5: Strength Chits drawn from a cup as it is when the draw comes up
    (earlier draws may have emptied it; an empty cup gives the stand-in chit)."""

    name = "draw"
    rule = "11.1"
    Args = DrawArgs
    #: sealed dice (issue 21): a draw may wait where the steps below say the rules let it
    #: (Conversions 17.2.1, Generals 16.5); anywhere else it is drawn before play goes on
    batch = "chits"

    def request(self, s: MotherlandState, args: DrawArgs) -> ChanceRequest:
        return ChanceRequest.draw(
            f"strength chit for {args.unit} at {s.u(args.unit).hex}", cup=args.letter,
            contents=tuple(s.pos.cups[args.letter]), count=args.count, rule=args.rule)

    def resolve(self, s: MotherlandState, args: DrawArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        _on_chits(s, args, tuple(str(x) for x in outcome))
        s._touch()
        s.flush(flow)
        return []

    def settle(self, s: MotherlandState, args: DrawArgs, flow: Flow) -> list[Event] | None:
        uid, cup = args.unit, s.pos.cups[args.letter]
        if not s.u(uid).hex or (s.u(uid).chit and args.rule != "16.5"):
            flow.end()
            return []
        if not cup:
            flow.end()
            fallback = s.data.empty_cup[args.letter]
            unit = s.u(uid)
            unit.chit = fallback
            unit.steps = 2
            s.say(f"Cup {args.letter} is empty: {uid} takes the stand-in chit {fallback}",
                  rule="11.1")
            s._touch()
            return []
        args.count = min(args.count, len(cup))
        return None


# ================================================================================
# bookkeeping
# ================================================================================


class MotherlandProcedure(Procedure["MotherlandState"]):
    """Bookkeeping: the rule runs, the frames it queues are pushed, the frame ends."""

    def run(self, s: MotherlandState, args: Any, flow: Flow) -> list[Event]:
        self.do(s, args)
        flow.end()
        s.flush(flow)
        return []

    def do(self, s: MotherlandState, args: Any) -> None:
        raise NotImplementedError


def _procedure(step: str, rule: str, do: Callable[[MotherlandState, Any], None],
               args: type[Any] = NoArgs) -> MotherlandProcedure:
    """A procedure that runs one rule of the state with the frame's arguments."""
    cls = type(f"Procedure_{step}", (MotherlandProcedure,),
               {"name": step, "rule": rule, "Args": args,
                "do": lambda self, s, a: do(s, a)})
    procedure: MotherlandProcedure = cls()
    return procedure


PROCEDURES: tuple[MotherlandProcedure, ...] = (
    _procedure("supply_start", "9.0", lambda s, a: _supply_start(s)),  # 14.0, 16.5, 17.3
    _procedure("supply_status", "9.1", lambda s, a: _supply_status(s)),
    _procedure("partisan_effects", "10.1", lambda s, a: _partisan_effects(s)),
    _procedure("isolation_rolls", "9.1.3", lambda s, a: _isolation_rolls(s)),
    _procedure("remove_expended", "9.3.4", lambda s, a: _remove_expended(s)),
    _procedure("arrivals", "17.0", lambda s, a: _arrivals(s, a), SideArgs),
    _procedure("stacking", "6.0", lambda s, a: _stacking(s)),
    _procedure("turkey", "21.2", lambda s, a: _turkey(s)),
    _procedure("admin_chits", "11.1.2", lambda s, a: _admin_chits(s)),
    _procedure("admin_draws", "11.1.2", lambda s, a: _admin_draws(s, a), UnitsArgs),
    _procedure("recovery", "14.0", lambda s, a: _recovery(s)),
    _procedure("combat_chits", "11.1.1", lambda s, a: _combat_chits(s, a), UnitsArgs),
    _procedure("combat_resolve", "8.2", lambda s, a: _combat_resolve(s)),
    _procedure("apply_side", "8.5", lambda s, a: _apply_side(s, a), ApplySideArgs),
    _procedure("advance_start", "8.7", lambda s, a: _advance_start(s, a), RoleArgs),
    _procedure("stuck_steps", "8.5.1", lambda s, a: _stuck_steps(s, a), StuckArgs),
    _procedure("combat_end", "8.0", lambda s, a: _combat_end(s)),
)

STEPS: dict[str, Step[Any]] = step_table(
    Game(), PhaseStart(), AxisFirstTurn(), SovietFirstTurn(),
    MoveChoice(), CombatChoice(), Reinforcements(), TakeResult(), LoseSteps(),
    RetreatChoice(), AdvanceChoice(), Generals(), KeepChit(), Overstacked(), ExpendBases(),
    AirSupply(), PartisanMarkers(), PartisanPlacement(), IsolationLosses(), Conversions(),
    Kampfgruppen(), Replacements(), Production(), Evacuation(), BakuFactories(),
    CrtRoll(), ReturningRoll(), PartisanRoll(), IsolationRoll(), ProductionRoll(),
    SuddenDeathRoll(), StalinRoll(), SurrenderRoll(), BakuRoll(), BakuFactoriesRoll(),
    TurkeyRoll(), DrawChits(), *PROCEDURES)
