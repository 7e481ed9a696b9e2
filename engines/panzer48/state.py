"""48th Panzer Korps: the state: the position's lookups and the engine hooks.

Rule numbers are the article's (CounterAttack #3, 1991).  Where its lists were lost in
extraction (3.1's differences of prepared attacks, 5's effects of ZOCs, 7.6's support
restrictions, 8.1's option lists) the reading is on docs/engines/48th-panzer-korps.md
with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from itertools import compress
from math import gcd
from operator import ne
from typing import TYPE_CHECKING, Any

from engines.hexkit.facts import BoardFacts, Placed, board_facts
from engines.panzer48.data import SIDES, Data, UnitInfo, data
from engines.panzer48.notation import CHECK, COMMIT, OPEN, RETREAT, parse
from engines.panzer48.position import (
    PLACEMENT_LOG,
    Combat,
    Position,
    SideArgs,
    Unit,
    position_data,
    read_position,
)
from engines.panzer48.view import board, counters, plan_notes, status_line
from pbem import canonical
from pbem.engine import Action, Decision, Result
from pbem.errors import FormatError
from pbem.grammar import Act
from pbem.steps import Frame, Misfit, StepState

if TYPE_CHECKING:  # the picture loads when a board is drawn (issue 35)
    from pbem.view import BoardView

#: the steps of the sequence of play (3) that only the turn's sequences call, each with
#: the arguments they give it (or that run and move on without a decision): a position is
#: set up at the phase's own step instead
SEQUENCE_ONLY = ("turn", "player-turn", "prepared-phase", "movement-phase",
                 "player-turn-end", "turn-end")

#: a unit's fields its placement reads: where, hex, losses, retreated
_Fields = tuple[str, str, int, bool]
#: the units dict the facts were last asked of and a copy of it then, each unit's place
#: in it by identity, and the log of placement writes and its length then
_Seen = tuple[dict[str, Unit], dict[str, Unit], dict[int, int], list[Unit], int]
#: what the facts were last asked of; the units' ids and placed fields; the facts
_Kept = tuple[_Seen, tuple[tuple[str, ...], list[_Fields]], BoardFacts]
#: a few units written since the facts were kept (a step of a move writes the moving
#: units' hexes): each read again; more (a phase's start clears every unit's marks)
#: and every unit is read
_FEW_WRITTEN = 8


def _placed(info: UnitInfo, u: str, h: str, losses: int, retreated: bool) -> Placed:
    """Unit ``u`` in hex ``h`` as the board facts hold it: its side, and as its mark
    what 5 reads of a unit (zoc.ZOC), its steps left and whether it retreated."""
    return Placed(u, h, info.side, (info.steps - losses, retreated))


class P48State(StepState[Position]):
    Position = Position
    #: the facts are a pure function of the key kept with them and never change (a move
    #: makes a new key and new facts, assigned on the state that moved, not changed in
    #: place): a clone shares them until its position differs; a snapshot holds only the
    #: position and the frames, so never them
    clone_shares = ("_facts", "control_kept")
    _facts: _Kept | None = None
    #: tests only (tests/panzer48/test_board_facts.py): the fields of facts kept while
    #: the units written since were read alone are checked against every unit's
    check_kept_facts = False
    #: the board facts 10's control was last set from, and the control it left
    #: (victory.update_control asks again only the hexes near a unit placed otherwise
    #: since): replaced, never changed in place, so a clone shares it; not in a snapshot
    control_kept: tuple[BoardFacts, dict[str, str]] | None = None
    # a move's options (every hex in reach, every stack that may move) are the costly
    # part of a decision: listed once for its prompt, listing, check and default
    memo_options = True
    #: its counters are its view's, every unit on the map (view.counters)
    counters_off_map = False
    view_status = True  # board() writes status_line(s, side), as status_line does

    @cached_property
    def d(self) -> Data:
        # the scenario data, one for the process (Shared: a clone holds the same),
        # read by the rules thousands of times a replay: kept on the state, an attribute
        # read, not a property's call each time (issue 35)
        return data()

    def fight(self) -> Combat:
        """The combat in progress: the steps of rule 7 run only while there is one."""
        c = self.pos.combat
        assert c is not None
        return c

    def phasing_side(self) -> str:
        """3: the side whose player turn it is (the steps' ``decider = PHASING``)."""
        return self.pos.phasing

    def owner(self, unit: str) -> str:
        """The side that owns ``unit`` (the steps' ``decider_unit``: a morale result, a
        retreat and its overstacking are the owner's choices, 8.1 and 8.3)."""
        return self.d.units[unit].side

    def info(self, uid: str) -> UnitInfo:
        return self.d.units[uid]

    def steps_of(self, uid: str) -> int:
        return self.d.units[uid].steps - self.pos.units[uid].losses

    # on_map, at, owner_at, stacks and zoc run hundreds of thousands of times a game
    # (every movement option asks them): they are the kit's board facts of the placement
    # (engines/hexkit/facts.py), kept on the state with the unit fields they read so
    # that a position unchanged since the last question costs one comparison

    def facts(self) -> BoardFacts:
        """The board facts of where the units stand: occupancy, stacks and ZOCs (5)."""
        units = self.pos.units
        log = PLACEMENT_LOG[0]
        written = len(log)
        kept = self._facts
        if kept is not None:
            seen, (kept_ids, kept_fields), found = kept
            kept_units, kept_copy, index, kept_log, kept_written = seen
            # the same dict holding the same units: compared with its copy in C, each
            # unit by identity first, not by two tuples of its 46 ids and units made at
            # each question (issue 35: 6 M instructions of the first-day audit); each
            # unit's fields are read by its id, so the dict's order does not matter
            if kept_log is log and kept_units is units and kept_copy == units:
                # the same units, and only those written since (position.PLACEMENT_LOG)
                # can have moved: their fields alone are read again, not every unit's
                # (issue 35: reading all 46 units' at each of the 792 questions of the
                # first-day audit was 45 M instructions, most of it finding nothing
                # moved).  The log knows a unit by identity: a unit written that is not
                # one of those the facts were found with (another position's, or one put
                # in a unit's place, which its making wrote) has every unit read again.
                if written == kept_written:
                    if self.check_kept_facts:
                        self._check_kept_facts(kept_fields)
                    return found
                if written - kept_written <= _FEW_WRITTEN:
                    # in a loop, not comprehensions: a step of a move comes here
                    found_at: set[int] = set()
                    for x in log[kept_written:]:
                        i = index.get(id(x))
                        if i is None:
                            break
                        found_at.add(i)
                    else:
                        mine = sorted(found_at)
                        fields = kept_fields.copy()
                        for i in mine:
                            x = units[kept_ids[i]]
                            fields[i] = (x.where, x.hex, x.losses, x.retreated)
                        if self.check_kept_facts:
                            self._check_kept_facts(fields)
                        return self._moved(found, kept_ids, kept_fields, fields, mine,
                                           (units, kept_copy, index, log, written))
        # the fields of each unit its placement reads (where, hex; 5's steps and
        # retreat), read by attribute in a comprehension: an attrgetter of the four cost
        # twice as much (the interpreter's specialised attribute reads)
        ids = tuple(units)
        values = units.values()
        fields = [(x.where, x.hex, x.losses, x.retreated) for x in values]
        seen = (units, units.copy(), {id(x): i for i, x in enumerate(values)}, log, written)
        if kept is not None and kept_ids == ids:
            # the same units, a few moved, lost steps or left the map: those that did
            # are told apart from the kept fields in C
            return self._moved(found, ids, kept_fields, fields,
                               compress(range(len(ids)), map(ne, kept_fields, fields)), seen)
        info = self.d.units
        # a unit stands in no hex while 9's default set-up looks for one for it
        # (reinforcements.place_defaults puts it on the map first)
        found = board_facts(self.d.map, [
            _placed(info[u], u, h, losses, retreated)
            for u, (where, h, losses, retreated) in zip(ids, fields, strict=True)
            if where == "map" and h])
        self._facts = (seen, (ids, fields), found)
        return found

    def _moved(self, found: BoardFacts, ids: tuple[str, ...], kept_fields: list[_Fields],
               fields: list[_Fields], changed: Iterable[int], seen: _Seen) -> BoardFacts:
        """The facts ``found`` for ``kept_fields`` with the units at ``changed`` (indexes
        in id order) placed as ``fields`` now say, kept with ``seen``: only those change
        the facts, the stacks carried over (BoardFacts.changed), not found again from
        every unit after every step of a move (a step moves a unit or two of some 50:
        issue 35, 22 M instructions of the first-day audit)."""
        moved: list[Placed] = []
        gone: list[str] = []
        info = self.d.units
        for i in changed:
            now = fields[i]
            if now == kept_fields[i]:
                continue  # written, to what it was
            where, h, losses, retreated = now
            u = ids[i]
            if where != "map" or not h:
                gone.append(u)
            else:
                moved.append(_placed(info[u], u, h, losses, retreated))
        if moved or gone:
            found = found.changed(moved, gone)
        self._facts = (seen, (ids, fields), found)
        return found

    def _check_kept_facts(self, kept_fields: list[_Fields]) -> None:
        """:attr:`check_kept_facts`: the units' placed fields, as the kept ones and those
        of the units written since make them, are every unit's read again (a write not
        logged, past ``Unit.__setattr__``, leaves the facts kept for a placement gone)."""
        now = [(x.where, x.hex, x.losses, x.retreated) for x in self.pos.units.values()]
        if now != kept_fields:
            moved = [u for u, a, b in zip(self.pos.units, kept_fields, now, strict=True)
                     if a != b]
            raise AssertionError(f"board facts kept for a placement gone: {moved} changed "
                                 "and no write logged (position.PLACEMENT_LOG)")

    # on_map, at and owner_at read the units themselves, as the facts place them (on the
    # map in a hex, in id order): one pass over the 46 units is a seventh of the key that
    # finds the facts kept, and a command that asks only these (an act's fire, its
    # events' counters) never builds the facts (2 M instructions, issue 35)

    def on_map(self, side: str | None = None) -> list[str]:
        info = self.d.units
        return sorted(u for u, x in self.pos.units.items()
                      if x.where == "map" and x.hex and (side is None or info[u].side == side))

    def at(self, h: str, side: str | None = None) -> list[str]:
        if not h:
            return []
        info = self.d.units
        return sorted(u for u, x in self.pos.units.items()
                      if x.hex == h and x.where == "map"
                      and (side is None or info[u].side == side))

    def owner_at(self, h: str) -> str | None:
        here = self.at(h)
        return self.d.units[here[0]].side if here else None

    def stacks(self) -> Mapping[str, tuple[str, ...]]:
        """Every occupied hex and its units (sorted): ``at`` for many hexes at once."""
        return self.facts().stacks()

    # -- the engine hooks --------------------------------------------------------------------

    def over(self) -> bool:
        return self.pos.turn > self.pos.last_turn

    def turn_number(self) -> int:
        return min(self.pos.turn, self.pos.last_turn)

    def frames_for(self, step: str) -> list[Frame]:
        """Setup adapter: the frames above ``step`` (game, turn, player turn, phase).

        A step the position set up does not fit is refused (:class:`Misfit`, issue 31):
        the set-up (9) and the plan (9.1) on a turn after the first, in another phase or
        with nothing left to place or plan; a step of the sequence of play (3) on a turn
        outside the scenario's, with ``phase`` still the set-up or plan (the game went back
        to them at the end of the turn) or another phase of the player turn (3.1 the
        Prepared Combat Phase, 3.2 the Movement Phase; ``"turns"`` is either), an attack's
        step with no combat open (7) or another side's, the phase's own choice with one
        open, a moving unit's step with none moving (4)."""
        # the reinforcements' and the score's rules imported where first used (here and
        # below), not by every turn's command: a listing runs neither (issue 35)
        from engines.panzer48.reinforcements import plan_formations

        if step not in self.steps or step in SEQUENCE_ONLY:
            raise KeyError(step)
        pos = self.pos
        if step == "game":
            return [Frame("game")]
        first = self.engine.scenario(self.scenario).turns[0]
        if step in ("setup", "plan"):
            rule = "9" if step == "setup" else "9.1"
            if pos.turn != first:
                raise Misfit("turn", f"the {'set-up' if step == 'setup' else 'plan'} comes "
                                     f"before turn {first}, the scenario's first ({rule})")
            if pos.phase != step:
                raise Misfit("phase", f"the {'set-up' if step == 'setup' else 'plan'} is "
                                      f"made while phase = \"{step}\" ({rule})")
            if step == "setup" and pos.setup_side not in SIDES:
                raise Misfit("setup_side", f"the side setting up: {' or '.join(SIDES)} (9)")
            if step == "plan" and not [f for f in plan_formations(self)
                                       if f not in pos.plan_turns]:
                raise Misfit("plan_turns", "every reinforcing formation is planned (9.1)")
            return [Frame("game"), Frame(step)]
        if not first <= pos.turn <= pos.last_turn:
            raise Misfit("turn", f"the scenario is played on turns {first}-{pos.last_turn} "
                                 "(3)")
        side = pos.phasing
        if side not in SIDES:
            raise Misfit("phasing", f"the side whose player turn it is: {' or '.join(SIDES)}"
                                    " (3)")
        c = pos.combat
        movement = step in ("movement", "moving", "zoc-exit") or (
            step != "prepared" and c is not None and not c.prepared)
        phase = "movement" if movement else "prepared"
        if pos.phase not in ("turns", phase):
            raise Misfit("phase", f"{step!r} is a step of the "
                                  f"{'Movement' if movement else 'Prepared Combat'} Phase "
                                  f"({'3.2' if movement else '3.1'}): phase = \"{phase}\" "
                                  "(or \"turns\")")
        base = [Frame("game"), Frame("turn", SideArgs(stage=1 if side == "soviet" else 2)),
                Frame("player-turn", SideArgs(side, 2 if movement else 1))]
        if step in ("prepared", "movement"):
            if c is not None:
                raise Misfit("combat", f"the {step} step chooses the next attack or move when "
                                       "the last attack is over (7), and one is open: set up "
                                       "its step")
            return [*base, Frame(step)]
        if step in ("moving", "zoc-exit"):
            if not pos.moving:
                raise Misfit("moving", f"{step!r} is the move of the unit or stack moving, "
                                       "and none is (4)")
            return [*base, Frame("movement"), Frame("moving"), Frame(step)]
        if c is None:
            raise Misfit("combat", f"{step!r} is a step of an attack (7) and none is open")
        if c.attacker != side:
            raise Misfit("phasing", f"the attack open is the {c.attacker} player's (7), "
                                    f"in the {c.attacker} player turn")
        # a hasty attack takes the place of the move it ends (3.2): the phase goes on after
        return [*base, Frame("movement" if movement else "prepared"), Frame(step)]

    def restore_body(self, body: Mapping[str, Any]) -> None:
        """As the runtime's, and each unit's movement points spent refused unless they are
        a fraction in lowest terms with a positive denominator, as the codec's Fraction
        refused them before the position held the pair (position.MPs): one value, one
        encoding, so a save's digest names one position.  A position of exactly its types
        is read by hand (position.read_position); any other by the runtime, as before."""
        pos = (read_position(body["position"])
               if isinstance(body, Mapping) and "position" in body and "stack" in body
               else None)
        if pos is None:
            super().restore_body(body)
        else:
            self.pos = pos
            self.restore_stack(body["stack"])
        for u, x in self.pos.units.items():
            n, d = x.spent
            if d <= 0:
                raise FormatError(f"position.units[{u!r}].spent: expected [numerator, "
                                  f"denominator], got list {[n, d]!r}")
            if gcd(n, d) != 1:
                raise FormatError(f"position.units[{u!r}].spent: fraction {n}/{d} is not "
                                  "in lowest terms")

    def normal_body(self) -> bytes | None:
        """The runtime's, with the position's data made by hand (position.position_data)
        where it holds exactly its types; else the runtime's way."""
        cls = type(self)
        found = position_data(self.pos) if (
            cls._snapshot is StepState._snapshot
            and cls.setup_position is StepState.setup_position) else None
        if found is None:
            return super().normal_body()
        try:
            return self.packed_body(canonical.pack_normal(found))
        except Exception:  # the generic way raises the error it always raised
            return None

    def setup_data(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Setup shorthand: ``at = { "685/I" = "3508", "89T" = "3507 -1 flipped" }`` places
        units (optional losses as ``-N`` and state words), each taken to have begun the
        phase in that hex (``began``, 4) unless ``units`` says otherwise; every other unit
        of the scenario stays where its side set it up unless ``only = true`` removes
        them."""
        if isinstance(spec.get("combat"), dict):
            from pbem import codec
            c = spec["combat"]
            base = codec.to_data(Combat(str(c.get("hex", "")), str(c.get("attacker", "")),
                                        bool(c.get("prepared", False))))
            spec["combat"] = {**base, **c}
        at = spec.pop("at", None)
        only = spec.pop("only", False)
        if at is None:
            return spec
        units = spec.setdefault("units", {})
        if only:
            for u in self.pos.units:
                units.setdefault(u, {})["where"] = "dead"
                units[u]["hex"] = ""
        for u, text in at.items():
            words = str(text).split()
            entry = units.setdefault(u, {})
            entry.setdefault("began", words[0])
            entry.update(where="map", hex=words[0], placed=True)
            for w in words[1:]:
                if w.startswith("-"):
                    entry["losses"] = int(w[1:])
                else:
                    entry[w] = True
        return spec

    def _result(self) -> Result | None:
        from engines.panzer48.victory import score

        pts = score(self)
        s, g = pts["soviet"], pts["german"]
        margin = abs(s - g)
        text = f"Soviet {s}, German {g} victory points"
        if margin < 5:  # 10: a win needs at least 5 points more
            return Result(None, "rules", f"{text}: neither side won by 5", "draw")
        winner = "soviet" if s > g else "german"
        level = next((name for least, name in self.d.levels if margin >= least), "marginal")
        return Result(winner, "rules", f"{text}: a {level} {winner} victory", level)

    def status_line(self, side: str | None) -> str:
        return status_line(self, side)

    def _view(self, side: str | None) -> BoardView:
        return board(self, side)

    def counters(self, side: str | None) -> dict[str, str]:
        return counters(self, side)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def conceal(self, action: Action, salt: Callable[[str], bytes]) -> Action:
        """9.1 through a session: the plan's area leaves only as a commitment (a salted
        hash, pbem.engine.Commitment), and its reveal carries the salt."""
        if not isinstance(action, Act) or action.kind not in ("plan", "reveal"):
            return action
        # 9.1's rules imported for a plan or a reveal only: every act of ours passes here
        # (issue 35: with stacking and ZOCs, 1.5 M instructions of a fire's act)
        from engines.panzer48.reinforcements import digest_of

        if action.kind == "plan":
            f, area = action.text("force"), action.text("area")
            return COMMIT(f, action.number("turn"), digest_of(f, area, salt(f)))
        if action.kind == "reveal":
            f = action.text("force")
            for area, _ in self.d.formations[f].schedule:
                if digest_of(f, area, salt(f)) == self.pos.plan_digests.get(f):
                    return OPEN(f, area, salt(f).hex())
        return action

    def private_notes(self, side: str, salt: Callable[[str], bytes]) -> list[str]:
        return plan_notes(self, side, salt)

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        if decision.kind == "morale-option" and policy == "check":
            return CHECK if CHECK in decision.options else RETREAT
        return None

