"""Mortain Counterattack's state: the position's lookups (who is where, whose, zones of
control) and the engine's hooks; the rules are in the modules named by their area."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engines.hexkit.facts import BoardFacts, board_facts
from engines.hexkit.hexid import HexId
from engines.mortain import view
from engines.mortain.data import SIDES, Rules, other, rules
from engines.mortain.notation import act, parse
from engines.mortain.position import Combat, Phase, Position, Side, Status
from engines.mortain.victory import german_exits, mortain_captured
from pbem.engine import Action, Decision, Result
from pbem.steps import Frame, Misfit, Step, StepState

if TYPE_CHECKING:  # the picture loads when a board is drawn (issue 35)
    from engines.hexkit.overlay import Overlay
    from pbem.view import BoardView

#: the steps of an attack, called by the combat phase (S7, S8)
COMBAT_STEPS = frozenset({"combat", "attackers", "support", "def-support", "combat-roll",
                          "def-result", "att-loss", "att-result", "att-retreat", "advance",
                          "end-combat"})

#: the player turn's phases (S2) as the ``phase`` field names them
PHASE_TITLES = {"movement": "movement", "combat": "combat", "mobile": "mobile movement"}


#: the state's attribute keeping the position's facts (:meth:`MortainState.facts`)
_FACTS = "_facts"


def _occupant(f: BoardFacts) -> dict[HexId, str]:
    # one unit a hex (S5), but for an arrival moving on (11.0): then the unit with
    # the later id is the one named, as the engine always named it (same games)
    return {h: us[-1] for h, us in f.stacks().items()}


def _enemy_hexes(s: MortainState, side: str, occ: Mapping[HexId, str]) -> frozenset[HexId]:
    return frozenset(h for h, v in occ.items() if s.side_of(v) != side)


class _Kept:
    """The facts of one placement of one position (:meth:`MortainState.facts`): where
    each unit stood, the kit's facts, each hex's occupant and, by side, the hexes held
    against it."""

    __slots__ = ("enemy", "facts", "occ", "pos", "where")

    def __init__(self, pos: object, where: tuple[str, ...], facts: BoardFacts) -> None:
        self.pos, self.where, self.facts = pos, where, facts
        self.occ = _occupant(facts)
        self.enemy: dict[str, frozenset[HexId]] = {}


class MortainState(StepState[Position]):
    steps: ClassVar[Mapping[str, Step[Any]]]
    start = "game"
    Position = Position
    memo_options = True  # a decision's options are listed once, not per ask
    clone_drops = (_FACTS,)

    @functools.cached_property
    def r(self) -> Rules:
        return rules()

    def fight(self) -> Combat:
        """The combat in progress: the steps of S7 run only while there is one."""
        c = self.pos.combat
        assert c is not None
        return c

    def phasing_side(self) -> str:
        return self.pos.phasing

    def facts(self) -> BoardFacts:
        """The kit's facts of the units on the map now, kept per placement: the listing
        of a phase's moves asks the same ZOC and occupancy of one position again and
        again.

        Kept on the state with where each unit stands, and made again when that
        differs (a unit placed, moved or gone from the map, by a rule or by hand) or the
        position is another: gathering the units on the map for each question was a
        quarter of an audit's replay, and a move's check and the next one's read the
        same placement (issue 35)."""
        return self._kept_facts().facts

    def _kept_facts(self) -> _Kept:
        pos = self.pos
        where = tuple([x.hex if x.status is Status.MAP else "" for x in pos.units.values()])
        kept: _Kept | None = self.__dict__.get(_FACTS)
        # the same position object (its units in the same order) with its units where
        # they were: the same facts
        if kept is None or kept.pos is not pos or kept.where != where:
            placed = self.r.placed
            f = board_facts(self.r.map, [placed(u, x.hex) for u, x in pos.units.items()
                                         if x.status is Status.MAP])
            kept = self.__dict__[_FACTS] = _Kept(pos, where, f)
        return kept

    # ``facts``: :meth:`facts` as a caller that asks several of these of one position
    # took it once (each call gathers the units on the map again)

    def on_map(self, side: str | None = None,
               facts: BoardFacts | None = None) -> dict[str, HexId]:
        f = self.facts() if facts is None else facts
        return {p.unit: p.hex for p in f.units(side)}

    def occupant(self, facts: BoardFacts | None = None) -> dict[HexId, str]:
        """Who stands in each occupied hex: kept with the facts, so a caller reads it and
        never changes it."""
        kept: _Kept | None = self.__dict__.get(_FACTS)
        if facts is None:
            kept = self._kept_facts()
        elif kept is None or kept.facts is not facts:
            return _occupant(facts)
        return kept.occ

    def enemy_hexes(self, side: str, facts: BoardFacts | None = None) -> frozenset[HexId]:
        """The hexes whose unit (as :meth:`occupant` names it) is not ``side``'s: what a
        unit of ``side`` may not enter (S3), kept with the facts (every check of a move
        and every listing of a side's moves asks it)."""
        kept: _Kept | None = self.__dict__.get(_FACTS)
        if facts is None:
            kept = self._kept_facts()
        elif kept is None or kept.facts is not facts:
            return _enemy_hexes(self, side, _occupant(facts))
        found = kept.enemy.get(side)
        if found is None:
            found = kept.enemy[side] = _enemy_hexes(self, side, kept.occ)
        return found

    def side_of(self, unit: str) -> str:
        return self.r.units[unit].side

    def zoc_of(self, side: str, facts: BoardFacts | None = None) -> frozenset[HexId]:
        f = self.facts() if facts is None else facts
        return f.zoc(side, self.r.zoc_rule(self.pos.demolished)).hexes

    def overlay(self) -> Overlay:
        # with the movement searches that read it, not with the engine (issue 35)
        from engines.hexkit.overlay import Overlay

        if not self.pos.demolished:
            return Overlay()
        sides = {tuple(s.split("/")): {"bridge"} for s in sorted(self.pos.demolished)}
        return Overlay.make(sides_removed=sides)  # type: ignore[arg-type]

    def over(self) -> bool:
        return bool(self.pos.winner)

    def frames_for(self, step: str) -> list[Frame]:
        """Setup adapter: the frames above a step of the turn sequence.  ``move``,
        ``mobile-move``, ``combat``, the combat's steps, ``draw`` and ``begin-player`` are
        the German player's unless prefixed ``us:`` (``step = "us:mobile-move"``).

        A step the position set up does not fit is refused (:class:`Misfit`, issue 31):
        a turn outside 1 to ``last_turn``; the US set-up (13.0) after turn 1, in a phase
        other than ``setup`` or with every US unit placed; a turn's step while a US unit
        is still to set up; a player's phase step whose ``phasing`` is the other side
        (10.1: the German player turn, then the US) or whose ``phase`` is another of the
        player turn's (S2: movement, combat, mobile movement); a combat step after the
        attack is chosen with no combat open, or the combat phase's choice of an attack
        with one open (S7)."""
        side, _, name = step.rpartition(":")
        side = side or "german"
        mobile = name == "mobile-move"
        name = "move" if mobile else name
        if name not in self.steps or name in ("game", "turn") or side not in SIDES:
            raise KeyError(step)
        sided = name in ("move", "draw", "begin-player") or name in COMBAT_STEPS
        if side != "german" and not sided:
            raise KeyError(step)  # a step of both players has no "us:" form
        pos = self.pos
        if name == "us-setup":
            if pos.turn != 1:
                raise Misfit("turn", "the US player sets up before the first game turn "
                                     "(13.0, 20.0): turn = 1")
            if pos.phase != "setup":
                raise Misfit("phase", "the US set-up comes before the first player turn "
                                      "(13.0): phase = \"setup\"")
            if not any(x.status is Status.OFF for u, x in pos.units.items()
                       if self.side_of(u) == "us"):
                raise Misfit("units", "every US unit is set up already (13.0): leave one "
                                      "\"off\"")
            return [Frame("game"), Frame("us-setup")]
        if not 1 <= pos.turn <= pos.last_turn:
            raise Misfit("turn", f"the game turns are 1 to {pos.last_turn} (20.0)")
        waiting = [u for u, x in sorted(pos.units.items())
                   if x.status is Status.OFF and self.side_of(u) == "us"]
        if waiting:
            raise Misfit("units", f"{waiting[0]} is still to set up (\"off\"): the US "
                                  "player sets up every unit before turn 1 (13.0, 20.0)")
        pc = {"hill-check": 1, "allot": 2, "end-turn": 13}.get(name)
        if pc is not None:
            return [Frame("game"), Frame("turn", pc=pc), Frame(name)]
        if name == "draw":
            return [Frame("game"), Frame("turn", pc=3 if side == "german" else 4),
                    Frame("draw", Side(side))]
        base = 6 if side == "german" else 10
        if name == "begin-player":
            return [Frame("game"), Frame("turn", pc=base - 1), Frame(name, Side(side))]
        if pos.phasing != side:
            raise Misfit("phasing", f"{step!r} is a step of the {side} player turn (10.1: "
                                    f"the German player turn, then the US): phasing = "
                                    f"\"{side}\", or the step \"{other(side)}:...\"")
        phase = "mobile" if mobile else "movement" if name == "move" else "combat"
        if pos.phase != phase:
            raise Misfit("phase", f"{step!r} is a step of the {PHASE_TITLES[phase]} phase "
                                  f"(S2): phase = \"{phase}\"")
        frames = [Frame("game")]
        if name == "move":
            return [*frames, Frame("turn", pc=base + (2 if mobile else 0)),
                    Frame("move", Phase(mobile))]
        frames += [Frame("turn", pc=base + 1), Frame("combat")]
        if name == "combat":
            if pos.combat is not None:
                raise Misfit("combat", "the combat phase chooses the next attack when the "
                                       "last is over (S7), and one is open: set up its step")
            return frames
        if pos.combat is None:
            raise Misfit("combat", f"{name!r} works on the attack chosen in the combat "
                                   "phase (S7) and none is open")
        return [*frames, Frame(name)]

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """Setup adapter: ``units = {G01 = "2514", "1/33" = "2815 depleted", G02 =
        "eliminated", G03 = "exited depleted"}``; tables pass as they are."""
        units = data.get("units")
        if isinstance(units, dict):
            for uid, spec in list(units.items()):
                if not isinstance(spec, str):
                    continue
                # a status first (else on the map), then a hex, then "depleted"
                status: str
                match spec.split():
                    case [("off" | "eliminated" | "exited") as status, *rest]:
                        pass
                    case rest:
                        status = "map"
                match rest:
                    case [hx, *tail] if hx.isdigit():
                        pass
                    case tail:
                        hx = ""
                units[uid] = {"status": status, "hex": hx, "depleted": "depleted" in tail}
        return data

    def _result(self) -> Result | None:
        if self.pos.winner == "german":
            return Result("german", "rules", "German victory (19.0): five full-strength mobile "
                          "units exited west and Mortain captured", "")
        if self.pos.winner == "us":
            return Result("us", "rules", "US victory (19.2): the German player did not meet "
                          f"19.0 ({german_exits(self)} mobile units exited, Mortain "
                          f"{'captured' if mortain_captured(self) else 'not captured'})")
        return None

    def turn_number(self) -> int:
        return self.pos.turn

    def status_line(self, side: str | None) -> str:
        return view.status_line(self, side)

    def _view(self, side: str | None) -> BoardView:
        return view.board(self, side)

    def counters(self, side: str | None) -> dict[str, str]:
        return view.counters(self, side)

    def off_map_actions(self) -> list[Action]:
        """A movement phase's listing less its units' moves and exits (S3, S4, 19.1),
        listed without their searches (movement.button_options); any other decision's
        whole listing."""
        frame = self.stack[-1] if self.stack else None
        if frame is None or frame.step != "move" or self.decision_head() is None:
            return super().off_map_actions()
        from engines.mortain import movement

        assert isinstance(frame.args, Phase)
        return movement.button_options(self, frame.args.mobile)

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        options = [act(a) for a in list(decision.options) or self.legal_actions()]
        if decision.kind == "retreat-or-deplete" and policy == "deplete":
            for a in options:
                if a.kind == "deplete":
                    return a
        if decision.kind == "defensive-support" and policy == "strongest":
            chits = [a for a in options if a.kind == "support"]
            if chits:
                return max(chits, key=lambda a: a.number("value"))
        return None

    def parse_action(self, text: str) -> Action:
        return parse(text)
