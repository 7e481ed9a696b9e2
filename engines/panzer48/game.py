"""48th Panzer Korps: the position and the steps (the article's sections 3 to 10).

Rule numbers are the article's (CounterAttack #3, 1991).  Where its lists were lost in
extraction (3.1's differences of prepared attacks, 5's effects of ZOCs, 7.6's support
restrictions, 8.1's option lists) the reading is on docs/engines/48th-panzer-korps.md
with the reason.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engines.hexkit import HexMap
from engines.hexkit.board import board_view
from engines.hexkit.retreat import retreat_options
from engines.hexkit.zoc import zoc_map
from engines.panzer48.data import SIDES, TARGET_ORDER, Data, UnitInfo, data, other
from pbem.engine import Action, ChanceRequest, Commitment, Decision, Event, Outcome, Result
from pbem.errors import ActionSyntaxError
from pbem.memo import Memo
from pbem.steps import (
    Choice,
    Flow,
    Frame,
    Misfit,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    StepState,
    step_table,
)
from pbem.view import BoardView, Piece

# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Say(Action):
    """An action that is its words and up to three parameters (``attack 3508``)."""

    verb: str
    a: str = ""
    b: str = ""
    c: str = ""

    def notation(self) -> str:
        return " ".join(x for x in (self.verb, self.a, self.b, self.c) if x)


VERBS = {
    # verb: number of parameters
    "place": 2, "setup-done": 0, "plan": 3, "commit": 3, "reveal": 1, "open": 3,
    "attack": 1, "end-combat": 0, "with": 1, "support": 1, "go": 0, "cancel": 0,
    "fire": 2, "add": 1, "roll": 0, "end-fire": 0,
    "retreat": 0, "check": 0, "path": 1, "off-map": 0, "eliminate": 1,
    "advance": 2, "end-advance": 0,
    "move": 1, "enter": 2, "end-movement": 0,
    "to": 1, "pickup": 1, "drop": 1, "hasty": 1, "exit": 0, "stop": 0,
}


def parse(text: str) -> Action:
    parts = text.split(" ")
    if not parts or parts[0] not in VERBS or len(parts) != 1 + VERBS[parts[0]] or "" in parts:
        raise ActionSyntaxError(
            f"cannot read {text!r}: try 'move 685/I', 'to 3509', 'attack 3508', 'end-movement'")
    return Say(*parts)


# -- the position ----------------------------------------------------------------------------


@dataclass
class Unit:
    #: "map", "setup" (not yet placed), "due" (reinforcement), "dead", "exited", "off" (8.3)
    where: str
    hex: str = ""
    losses: int = 0
    #: made a prepared attack this turn (3.1: flipped, half movement after)
    flipped: bool = False
    #: its move is finished this phase (3.2)
    moved: bool = False
    #: attacked this phase (one attack per unit per phase, 3.1/3.2)
    attacked: bool = False
    #: retreated this phase: no ZOC (5), no movement (4)
    retreated: bool = False
    #: tried to leave an enemy ZOC and failed, or failed a morale check (4, 5)
    failed: bool = False
    #: entered an enemy-controlled hex this phase: its move is over (5, stand-in), even
    #: if a hasty attack by its stack then removes the ZOC
    halted: bool = False
    #: the hex it began the Movement Phase in ("" if it was off the map): 4's "units
    #: which began the phase stacked together"
    began: str = ""
    spent: Fraction = Fraction(0)
    placed: bool = False


@dataclass
class Fire:
    target: str
    units: list[str]
    support: list[str]


@dataclass
class Combat:
    hex: str
    attacker: str
    prepared: bool
    attackers: list[str] = field(default_factory=list)
    support: list[str] = field(default_factory=list)
    defenders: list[str] = field(default_factory=list)
    stage: str = "declare"  # declare, defense, attack, advance
    fired: list[str] = field(default_factory=list)
    targeted: list[str] = field(default_factory=list)
    #: per stack hex: steps fired at its last target (7.3: non-increasing)
    caps: dict[str, int] = field(default_factory=dict)
    fire: Fire | None = None
    required: int = 0  # the retreat the defenders were required to make (8.4)
    largest: int = 0  # the largest morale result achieved in the attack (8.4)
    path: list[str] = field(default_factory=list)  # the defenders' retreat path
    advance: dict[str, int] = field(default_factory=dict)  # unit -> hexes of advance left
    #: advancing units that left the defenders' path (8.4: ZOCs stop them again)
    strayed: list[str] = field(default_factory=list)


@dataclass
class Position:
    turn: int
    last_turn: int
    phasing: str
    phase: str  # setup, plan, prepared, movement
    units: dict[str, Unit]
    control: dict[str, str]
    released: bool = False
    setup_side: str = "german"
    #: 9.1: per Soviet reinforcing formation, the announced turn and the commitment
    plan_turns: dict[str, int] = field(default_factory=dict)
    plan_digests: dict[str, str] = field(default_factory=dict)
    plan_areas: dict[str, str] = field(default_factory=dict)
    began_adjacent: list[str] = field(default_factory=list)
    moving: list[str] = field(default_factory=list)
    moved_hexes: int = 0
    combat: Combat | None = None
    exits: dict[str, int] = field(default_factory=dict)  # exit hex -> steps (10)
    kills: dict[str, int] = field(default_factory=dict)  # side -> points for enemy losses


@dataclass
class MoraleArgs:
    unit: str
    morale: int
    loss: int
    steps_before: int
    attacker: bool


@dataclass
class RetreatArgs:
    units: list[str]
    start: str
    length: int
    defender: bool


@dataclass
class SideArgs:
    side: str = ""
    stage: int = 0


@dataclass
class ExitArgs:
    to: str = ""


# -- helpers on the state --------------------------------------------------------------------

#: zoc() by the units that can exert one (side; id, hex, losses of each in unit order): a
#: pure function of those, kept because one position asks it again for every option
_ZOCS: Memo[tuple[str, tuple[tuple[str, str, int], ...]], dict[str, bool]] = Memo(512)


class P48State(StepState[Position]):
    Position = Position

    @property
    def d(self) -> Data:
        return data()

    def fight(self) -> Combat:
        """The combat in progress: the steps of rule 7 run only while there is one."""
        c = self.pos.combat
        assert c is not None
        return c

    def info(self, uid: str) -> UnitInfo:
        return self.d.units[uid]

    def steps_of(self, uid: str) -> int:
        return self.d.units[uid].steps - self.pos.units[uid].losses

    # on_map, at, owner_at and zoc run hundreds of thousands of times a game (every
    # movement option asks them): they read the units once, without the helpers above

    def on_map(self, side: str | None = None) -> list[str]:
        info = self.d.units
        return [u for u, x in self.pos.units.items() if x.where == "map"
                and (side is None or info[u].side == side)]

    def at(self, h: str, side: str | None = None) -> list[str]:
        info = self.d.units
        return sorted(u for u, x in self.pos.units.items() if x.hex == h and x.where == "map"
                      and (side is None or info[u].side == side))

    def owner_at(self, h: str) -> str | None:
        first = min((u for u, x in self.pos.units.items() if x.hex == h and x.where == "map"),
                    default=None)
        return None if first is None else self.d.units[first].side

    def zoc(self, side: str) -> dict[str, bool]:
        """5: hexes controlled by ``side``'s stacks of 3 or more steps (retreated units
        contribute nothing); value: an armor unit is in a stack exerting it (8.3)."""
        d = self.d
        key = (side, tuple((u, x.hex, x.losses) for u, x in self.pos.units.items()
                           if x.where == "map" and not x.retreated and d.units[u].side == side))
        return _ZOCS.get(key, lambda: self._zoc(side))  # shared: callers only read it

    def _zoc(self, side: str) -> dict[str, bool]:
        stacks: dict[str, list[str]] = {}
        for u in self.on_map(side):
            if not self.pos.units[u].retreated:
                stacks.setdefault(self.pos.units[u].hex, []).append(u)
        exerting = {h: us for h, us in sorted(stacks.items())
                    if sum(self.steps_of(u) for u in us) >= 3}
        zm = zoc_map(self.d.map, [(h, h) for h in exerting])
        return {h: any(self.d.units[u].target == "A" for s in zm.exerted_by(h)
                       for u in exerting[s]) for h in zm.hexes}

    def stacks(self) -> dict[str, list[str]]:
        """Every occupied hex and its units (sorted): ``at`` for many hexes at once."""
        out: dict[str, list[str]] = {}
        for u, x in sorted(self.pos.units.items()):
            if x.where == "map":
                out.setdefault(x.hex, []).append(u)
        return out

    def stack_size(self, h: str, side: str, extra: Iterable[str] = (),
                   stacks: dict[str, list[str]] | None = None) -> int:
        here = self.at(h, side) if stacks is None else [
            u for u in stacks.get(h, ()) if self.d.units[u].side == side]
        us = set(here) | set(extra)
        return sum(self.d.units[u].size for u in us)

    def fits(self, h: str, side: str, extra: Iterable[str] = (),
             stacks: dict[str, list[str]] | None = None) -> bool:
        """6: stacking limits (in thirds of a battalion); ``stacks``: from ``stacks()``
        when the caller asks for many hexes of one position."""
        return self.stack_size(h, side, extra, stacks) <= self.d.stack_limit[side]

    def movable(self, u: str) -> bool:
        x, info = self.pos.units[u], self.d.units[u]
        if x.where != "map" or x.moved or x.failed or x.retreated or x.attacked or x.halted:
            return False
        if info.formation == "7lw" and not self.pos.released:
            return False  # 9: not until released
        return self.allowance(u) > x.spent

    def allowance(self, u: str) -> Fraction:
        ma = Fraction(self.d.units[u].ma)
        return ma / 2 if self.pos.units[u].flipped else ma  # 3.1 / 4

    def step_cost(self, u: str, a: str, b: str) -> Fraction | None:
        mode = "leg" if self.d.units[u].leg else "mech"
        c = self.d.costs[mode].cost(a, b)
        return None if c is None else Fraction(c)

    def may_pass(self, group: list[str], h: str, spent: dict[str, Fraction],
                 stacks: dict[str, list[str]], seen: frozenset[str] = frozenset()) -> bool:
        """6: "Stacking limits must be satisfied at the end of each unit's movement", so
        ``group`` (standing elsewhere, ``spent`` MPs each) may enter ``h``, where it would
        overstack, only if it can go on from there, within its allowances, to a hex where
        it fits; not where an enemy ZOC would halt it (5, stand-in)."""
        side = self.d.units[group[0]].side
        if h in self.zoc(other(side)):
            return False
        for n in self.d.map.neighbors(h):
            if n in seen or (n in stacks and self.d.units[stacks[n][0]].side != side):
                continue
            costs = {u: self.step_cost(u, h, n) for u in group}
            after: dict[str, Fraction] = {}
            for u, c in costs.items():
                if c is None or spent[u] + c > self.allowance(u):
                    break
                after[u] = spent[u] + c
            else:
                if self.fits(n, side, group, stacks) or self.may_pass(
                        group, n, after, stacks, seen | {h}):
                    return True
        return False

    def kill(self, u: str) -> list[Event]:
        x, info = self.pos.units[u], self.d.units[u]
        x.losses = info.steps
        x.where, x.hex = "dead", ""
        enemy = other(info.side)
        self.pos.kills[enemy] = self.pos.kills.get(enemy, 0) + info.steps  # 10
        return [Event(f"{u} is eliminated", "loss", units=(u,), rule="2.1")]

    def lose(self, u: str, n: int, rule: str) -> list[Event]:
        if n <= 0 or self.pos.units[u].where != "map":
            return []
        x = self.pos.units[u]
        x.losses += n
        if x.losses >= self.d.units[u].steps:  # 2.1: excess losses are ignored
            return self.kill(u)
        return [Event(f"{u} loses {n} step{'s' if n > 1 else ''}", "loss", units=(u,),
                      rule=rule)]

    def update_control(self) -> None:
        """10: a side controls a hex its unit most recently entered, or on which it
        exerted a ZOC while the hex was neither enemy-occupied nor in an enemy ZOC."""
        zs = {s: self.zoc(s) for s in SIDES}
        stacks = self.stacks()
        for h in sorted(self.pos.control):
            if h in stacks:
                self.pos.control[h] = self.d.units[stacks[h][0]].side
                continue
            for s in SIDES:
                if h in zs[s] and h not in zs[other(s)]:
                    self.pos.control[h] = s

    def check_release(self, moved: Iterable[str] = ()) -> list[Event]:
        """9: the 7th Luftwaffe Field Division is released on turn 7 or "whenever a
        Soviet unit moves within two hexes" of any of its units: ``moved`` are the units
        that just entered a hex; a Soviet unit standing that near releases nothing."""
        if self.pos.released:
            return []
        lw = [u for u in self.on_map("german") if self.d.units[u].formation == "7lw"]
        near = any(self.d.map.distance(self.pos.units[s].hex, self.pos.units[g].hex) <= 2
                   for s in moved if self.d.units[s].side == "soviet"
                   and self.pos.units[s].where == "map" for g in lw)
        if self.pos.turn >= 7 or near:
            self.pos.released = True
            return [Event("the 7th Luftwaffe Field Division is released", "info", rule="9")]
        return []

    def after_move(self, moved: Iterable[str] = ()) -> list[Event]:
        """After units entered a hex (``moved``) or left the map: control (10), and the
        7th Luftwaffe's release (9)."""
        self.update_control()
        return self.check_release(moved)

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
        if step not in self.steps or step in ("turn", "player-turn"):
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
        score = self.score()
        s, g = score["soviet"], score["german"]
        margin = abs(s - g)
        text = f"Soviet {s}, German {g} victory points"
        if margin < 5:  # 10: a win needs at least 5 points more
            return Result(None, "rules", f"{text}: neither side won by 5", "draw")
        winner = "soviet" if s > g else "german"
        level = next((name for least, name in self.d.levels if margin >= least), "marginal")
        return Result(winner, "rules", f"{text}: a {level} {winner} victory", level)

    def score(self) -> dict[str, int]:
        """10: enemy steps eliminated, towns and Don bridges controlled, Soviet exits."""
        pts = {s: self.pos.kills.get(s, 0) for s in SIDES}
        for h, vp in self.d.towns.items():
            pts[self.pos.control.get(h, "german")] += vp
        for a, b in self.d.don_bridges:
            for s in SIDES:
                if self.pos.control.get(a) == s and self.pos.control.get(b) == s:
                    pts[s] += self.d.bridge_vp
        german_zoc = self.zoc("german")
        areas = {h for hs in self.d.entry.values() for h in hs if h not in self.d.entry["G"]}
        for h, steps in sorted(self.pos.exits.items()):
            ok = self._road_path(h, areas, german_zoc)
            if ok:
                pts["soviet"] += steps
        return pts

    def _road_path(self, h: str, areas: set[str], gz: dict[str, bool]) -> bool:
        """10: a continuous path of roads from the exit hex to a Soviet reinforcement
        area, through no German-occupied or German-controlled hex."""
        from engines.hexkit.movement import trace
        def passable(x: str) -> bool:
            return self.owner_at(x) != "german" and x not in gz
        if not passable(h):
            return False
        return trace(self.d.map, h, lambda x: x in areas, network="road",
                     passable=passable) is not None

    def status_line(self, side: str | None) -> str:
        # the phase is the rulebook's; the runtime's step name is no word of it
        sc = self.score()
        return (f"turn {self.turn_number()}/{self.pos.last_turn}, {self.pos.phasing} "
                f"{self.pos.phase}; VP soviet {sc['soviet']} german {sc['german']}")

    def _view(self, side: str | None) -> BoardView:
        pieces = []
        for u in self.on_map():
            info, x = self.d.units[u], self.pos.units[u]
            marks = tuple(m for m, on in (("flipped", x.flipped), ("retreated", x.retreated))
                          if on)
            pieces.append(Piece(u, info.side, f"{self.steps_of(u)}{info.target}{info.fire}",
                                x.hex, name=info.name, markers=marks,
                                color="#c04040" if info.side == "soviet" else "#6080a0"))
        return board_view(self.d.map, pieces, side=side, status=self.status_line(side))

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def conceal(self, action: Action, salt: Callable[[str], bytes]) -> Action:
        """9.1 through a session: the plan's area leaves only as a commitment (a salted
        hash, pbem.engine.Commitment), and its reveal carries the salt."""
        if not isinstance(action, Say):
            return action
        if action.verb == "plan":
            f, turn, area = action.a, action.b, action.c
            return Say("commit", f, turn, digest_of(f, area, salt(f)))
        if action.verb == "reveal":
            f = action.a
            for area, _ in self.d.formations[f].schedule:
                if digest_of(f, area, salt(f)) == self.pos.plan_digests.get(f):
                    return Say("open", f, area, salt(f).hex())
        return action

    def private_notes(self, side: str, salt: Callable[[str], bytes]) -> list[str]:
        """9.1: the Soviet player's own plan, which no file holds until each area is
        revealed: the position keeps only the digests, so the areas are found again by
        trying the scheduled ones with his salt (only he can make it)."""
        secret = [f for f in sorted(self.pos.plan_digests) if f not in self.pos.plan_areas]
        if side != "soviet" or not secret:
            return []
        plans = []
        for f in secret:
            dig = self.pos.plan_digests[f]
            areas = [a for a, _ in self.d.formations[f].schedule
                     if dig in (digest_of(f, a, salt(f)), digest_of(f, a, open_salt(f)))]
            area = f"area {areas[0]}" if areas else "area unknown (not committed with your key)"
            plans.append(f"{f} turn {self.pos.plan_turns[f]} {area}")
        return ["your plan (9.1, secret): " + ", ".join(plans)]

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        if decision.kind == "morale-option" and policy == "check":
            return Say("check") if Say("check") in decision.options else Say("retreat")
        return None


# -- salts for the plan (9.1) ------------------------------------------------------------------

#: the salt used when a plan is applied directly to a state, with no session (tests, bots
#: playing on one state): it is public, so such a plan is not secret; a session always
#: commits with the salt from the side's own secret (State.conceal)
def open_salt(formation: str) -> bytes:
    return hashlib.sha256(b"pbem/48th-panzer-korps/open-salt\0" + formation.encode()).digest()


def plan_value(formation: str, area: str) -> list[str]:
    return [formation, area]


def digest_of(formation: str, area: str, salt: bytes) -> str:
    return Commitment.make("soviet", formation, plan_value(formation, area), salt).hex()


# -- steps ----------------------------------------------------------------------------------


class Game(Procedure[P48State]):
    name = "game"
    rule = "3"

    def run(self, s: P48State, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.phase == "setup":
            flow.call("setup")
        elif s.pos.phase == "plan":
            flow.call("plan")
        else:
            flow.call("turn")
        return []


class Turn(Procedure[P48State]):
    """3: I. Soviet player turn, II. German player turn, III. advance the turn marker."""

    name = "turn"
    rule = "3"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        if args.stage == 0:
            args.stage = 1
            flow.call("player-turn", SideArgs("soviet"))
        elif args.stage == 1:
            args.stage = 2
            flow.call("player-turn", SideArgs("german"))
        else:
            s.pos.turn += 1
            for x in s.pos.units.values():
                x.flipped = False
            flow.end()
            ev = [Event(f"turn {s.pos.turn}", "phase", rule="3.III")]
            if not s.over():
                ev += s.check_release()
            else:
                score = s.score()
                ev.append(Event(f"the game ends: Soviet {score['soviet']}, German "
                                f"{score['german']} victory points", "phase", rule="10"))
            return ev
        return []


class PlayerTurn(Procedure[P48State]):
    """A player turn: A. Prepared Combat Phase, B. Movement Phase (3)."""

    name = "player-turn"
    rule = "3"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        if args.stage == 0:
            args.stage = 1
            pos.phasing, pos.phase = args.side, "prepared"
            for x in pos.units.values():
                x.moved = x.attacked = x.retreated = x.failed = x.halted = False
                x.spent = Fraction(0)
            enemy = [pos.units[u].hex for u in s.on_map(other(args.side))]
            pos.began_adjacent = sorted(
                u for u in s.on_map(args.side)
                if any(s.d.map.distance(pos.units[u].hex, h) == 1 for h in enemy))
            flow.call("prepared")
            return [Event(f"turn {pos.turn}: {args.side} prepared combat phase", "phase",
                          rule="3.1")]
        if args.stage == 1:
            args.stage = 2
            pos.phase = "movement"
            for x in pos.units.values():
                # 4: units that retreated in the Prepared Combat Phase do not move; 5:
                # their ZOC returns with the new phase
                x.failed = x.failed or x.retreated
                x.retreated = x.attacked = False
                x.began = x.hex if x.where == "map" else ""
            self._arrivals(s, args.side)
            flow.call("movement")
            return [Event(f"turn {pos.turn}: {args.side} movement phase", "phase", rule="3.2")]
        for x in pos.units.values():
            x.retreated = False
        flow.end()
        return []

    def _arrivals(self, s: P48State, side: str) -> None:
        """9.1: the reinforcements due this turn become able to enter."""
        for u, x in s.pos.units.items():
            info = s.d.units[u]
            if info.side != side or x.where != "setup":
                continue
            f = s.d.formations[info.formation]
            if side == "german" and f.enters_turn and f.enters_turn <= s.pos.turn:
                x.where = "due"
            if (side == "soviet" and f.id in s.pos.plan_areas
                    and s.pos.plan_turns.get(f.id, 0) == s.pos.turn):
                x.where = "due"


class Setup(Choice[P48State]):
    """9: the German player sets up first, then the Soviet player; each unit may be
    placed anywhere its set-up rule allows (its scenario hex is kept otherwise)."""

    name = "setup"
    kind = "setup"
    rule = "9"
    show = False

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.setup_side

    def prompt(self, s: P48State, args: NoArgs) -> str:
        return f"the {s.pos.setup_side} player sets up (place units, then setup-done)"

    def legal_hexes(self, s: P48State, u: str) -> list[str]:
        info, d = s.d.units[u], s.d
        f = d.formations[info.formation]
        side = info.side
        if f.hexes:
            cands = list(f.hexes)
        elif f.assigned:
            return []  # 9: the 26th Tank group sets up directly in its hexes
        elif info.target == "P":
            cands = sorted(d.areas["front_german" if side == "german" else "front_soviet"])
        else:
            cands = [h for h in d.map.within(f.area, 3) if d.side_of_hex(h) == side]
        out = []
        enemy_zoc = s.zoc(other(side))
        stacks = s.stacks()
        for h in sorted(cands):
            if h == s.pos.units[u].hex or not s.fits(h, side, [u], stacks):
                continue
            if info.target == "W" and h in enemy_zoc:
                continue  # 9: weapons never in enemy ZOC
            out.append(h)
        return out

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        out: list[Action] = []
        for u in sorted(s.pos.units):
            x = s.pos.units[u]
            if s.d.units[u].side == s.pos.setup_side and x.where == "map" and not x.placed:
                out += [Say("place", u, h) for h in self.legal_hexes(s, u)]
        return [*out, Say("setup-done")]

    def default(self, s: P48State, args: NoArgs) -> Action:
        return Say("setup-done")

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb == "place":
            return Refusal("9", f"{action.a} may not set up in {action.b} (personnel on the "
                           "starting front, others within three hexes of their area on "
                           "their own side, weapons never in an enemy ZOC, stacking 6)")
        return f"{action.notation()!r} is not a set-up action"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        if action.verb == "place":
            x = s.pos.units[action.a]
            x.hex, x.placed = action.b, True
            return [Event(f"{action.a} sets up in {action.b}", "move", hexes=(action.b,),
                          rule="9")]
        if s.pos.setup_side == "german":
            s.pos.setup_side = "soviet"
            # 9: the Soviet units default to their hexes only now, clear of the German ZOC
            place_defaults(s, "soviet")
            return [Event("the German set-up is done", "phase", rule="9")]
        s.pos.phase = "plan" if plan_formations(s) else "turns"
        s.update_control()
        flow.end()
        return [Event("the Soviet set-up is done", "phase", rule="9")]


class Plan(Choice[P48State]):
    """9.1: the Soviet player writes down a turn and an area for each reinforcing
    formation before play; the turn is announced, the area committed (Commitment)."""

    name = "plan"
    kind = "reinforcement-plan"
    rule = "9.1"
    decider = "soviet"

    def next(self, s: P48State) -> str:
        return next(f for f in plan_formations(s) if f not in s.pos.plan_turns)

    def prompt(self, s: P48State, args: NoArgs) -> str:
        f = self.next(s)
        return (f"the Soviet player plans the {s.d.formations[f].name}: a turn and an "
                "area (the area stays secret until that turn)")

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        f = self.next(s)
        return [Say("plan", f, str(t), area)
                for area, earliest in s.d.formations[f].schedule
                for t in range(earliest, s.pos.last_turn + 1)]

    def default(self, s: P48State, args: NoArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb in ("plan", "commit"):
            if action.a in s.pos.plan_turns:
                return Refusal("9.1", f"the {action.a} plan is already committed: a plan "
                               "may not be changed")
            return Refusal("9.1", f"{action.notation()!r}: plan the formations in order, "
                           "each for an area on the schedule, no earlier than its turn")
        return "plan the reinforcements"

    def accepts(self, s: P48State, args: NoArgs, action: Action) -> bool:
        """The committed form (what a session writes): ``commit F TURN DIGEST``."""
        if not (isinstance(action, Say) and action.verb == "commit"):
            return False
        if action.a in s.pos.plan_turns or action.a != self.next(s):
            return False
        turns = {str(t) for _, e in s.d.formations[action.a].schedule
                 for t in range(e, s.pos.last_turn + 1)}
        return action.b in turns and len(action.c) == 64 and all(
            ch in "0123456789abcdef" for ch in action.c)

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        f = action.a
        dig = action.c if action.verb == "commit" else digest_of(f, action.c, open_salt(f))
        s.pos.plan_turns[f] = int(action.b)
        s.pos.plan_digests[f] = dig
        if set(s.pos.plan_turns) >= set(plan_formations(s)):
            s.pos.phase = "turns"
            flow.end()
        return [Event(f"the {s.d.formations[f].name} will arrive on turn {action.b} "
                      f"(area committed: {dig[:16]}...)", "commit", rule="9.1")]


def plan_formations(s: P48State) -> list[str]:
    """9.1: the formations to plan (those that can arrive before the scenario ends)."""
    return sorted(f.id for f in s.d.formations.values()
                  if f.schedule and min(t for _, t in f.schedule) <= s.pos.last_turn)


class Prepared(Choice[P48State]):
    """3.1: units that began the phase adjacent to the enemy may make prepared attacks."""

    name = "prepared"
    kind = "prepared-combat"
    rule = "3.1"

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: P48State, args: NoArgs) -> str:
        return f"the {s.pos.phasing} player may make prepared attacks"

    def candidates(self, s: P48State) -> list[str]:
        return [u for u in s.pos.began_adjacent if s.pos.units[u].where == "map"
                and not s.pos.units[u].attacked and not s.pos.units[u].retreated
                and not (s.d.units[u].formation == "7lw" and not s.pos.released)]

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        targets = sorted({n for u in self.candidates(s)
                          for n in s.d.map.neighbors(s.pos.units[u].hex)
                          if s.owner_at(n) == other(s.pos.phasing)})
        return [*(Say("attack", h) for h in targets), Say("end-combat")]

    def default(self, s: P48State, args: NoArgs) -> Action:
        return Say("end-combat")

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb == "attack":
            return Refusal("7", f"no unit that began the phase adjacent to {action.a} "
                           "can attack it (3.1: adjacent at the start, one attack each)")
        return f"{action.notation()!r} is not allowed in the Prepared Combat Phase"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        if action.verb == "end-combat":
            flow.end()
            return []
        s.pos.combat = Combat(action.a, s.pos.phasing, True,
                              defenders=s.at(action.a))
        flow.call("declare")
        return [Event(f"{s.pos.phasing} prepares an attack on {action.a}", "attack",
                      hexes=(action.a,), rule="3.1")]


def attack_pool(s: P48State) -> list[str]:
    """Who may join the declared attack: prepared, units that began the phase adjacent
    (3.1); hasty, the moving units, all of one hasty attack having begun the phase
    stacked together (4): once one is in, only those that began the phase with it."""
    c = s.fight()
    if c.prepared:
        pool = [u for u in s.pos.began_adjacent if s.pos.units[u].where == "map"
                and not s.pos.units[u].attacked and not s.pos.units[u].retreated
                and not (s.d.units[u].formation == "7lw" and not s.pos.released)]
    else:
        pool = [u for u in s.pos.moving
                if not s.pos.units[u].attacked and not s.pos.units[u].flipped]
        if c.attackers:
            pool = [u for u in pool if began_with(s, u, c.attackers[0])]
    return [u for u in pool if s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]


def began_with(s: P48State, u: str, v: str) -> bool:
    """4: ``u`` and ``v`` began the Movement Phase stacked together (a unit that entered
    the map this phase began it with no other)."""
    a, b = s.pos.units[u].began, s.pos.units[v].began
    return u == v or (a != "" and a == b)


def artillery_pool(s: P48State, side: str, target_hexes: Iterable[str],
                   used: Iterable[str]) -> list[str]:
    """7.6: artillery-class units in range, not adjacent (they fire support), not yet used."""
    c = s.fight()
    hexes = list(target_hexes)
    out = []
    for u in s.on_map(side):
        info, x = s.d.units[u], s.pos.units[u]
        if info.fire != "art" or u in used or x.retreated or u in c.fired:
            continue
        if info.formation == "7lw" and not s.pos.released:
            continue
        ds = [s.d.map.distance(x.hex, h) for h in hexes]
        if ds and min(ds) > 1 and min(ds) <= info.range:
            out.append(u)
    return sorted(out)


class Declare(Choice[P48State]):
    """7.1.A: the attacker states the attacking units and the supporting artillery."""

    name = "declare"
    kind = "declare-attack"
    rule = "7.1"

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return (f"attack on {c.hex}: add attackers and artillery, then go "
                f"(attackers: {', '.join(c.attackers) or 'none'})")

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        out: list[Action] = [Say("with", u) for u in attack_pool(s) if u not in c.attackers]
        out += [Say("support", u) for u in artillery_pool(s, c.attacker, [c.hex], c.support)
                if u not in c.attackers]
        if c.attackers:
            out.append(Say("go"))
        out.append(Say("cancel"))
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        c = s.fight()
        return Say("go") if c.attackers else Say("cancel")

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb == "with":
            c = s.fight()
            u = action.a
            if (not c.prepared and c.attackers and u in s.pos.moving
                    and not began_with(s, u, c.attackers[0])):
                return Refusal("4", f"{u} did not begin the phase stacked with "
                               f"{c.attackers[0]}: only units which began the phase stacked "
                               "together may participate in the same hasty attack")
            return Refusal("7", f"{action.a} may not join this attack (adjacent units only; "
                           "one attack per unit per phase; 4: hasty attacks only by units "
                           "that began the phase stacked together)")
        if isinstance(action, Say) and action.verb == "support":
            return Refusal("7.6", f"{action.a} cannot support: artillery in range and not "
                           "adjacent only")
        if isinstance(action, Say) and action.verb == "go":
            return Refusal("7", "every attack must involve at least one adjacent unit")
        return f"{action.notation()!r} is not part of declaring an attack"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        c = s.fight()
        if action.verb == "with":
            c.attackers.append(action.a)
            return []
        if action.verb == "support":
            c.support.append(action.a)
            return []
        if action.verb == "cancel":
            s.pos.combat = None
            for u in s.pos.moving:  # a hasty attack called off ends the move (3.2)
                s.pos.units[u].moved = True
            s.pos.moving = []
            flow.end()
            return [Event(f"the attack on {c.hex} is called off", "attack", rule="7")]
        for u in c.attackers:
            s.pos.units[u].attacked = True
            if c.prepared:
                s.pos.units[u].flipped = True  # 3.1
        c.stage = "defense"
        flow.goto("fire")
        return [Event(f"{', '.join(c.attackers)} attack {c.hex}"
                      + (f" supported by {', '.join(c.support)}" if c.support else ""),
                      "attack", hexes=(c.hex,), units=tuple(c.attackers), rule="7.1")]


def next_targets(s: P48State, firing_side: str) -> list[str]:
    """7.2 / 7.3: the enemy units that may be the next target: in each enemy stack,
    armor, then personnel, then weapons, strongest first (equals: the firer's choice);
    never a unit already fired on in this combat."""
    c = s.fight()
    pool = c.attackers if firing_side != c.attacker else c.defenders
    alive = [u for u in pool if s.pos.units[u].where == "map"
             and (firing_side == c.attacker or not s.pos.units[u].retreated)]
    if firing_side != c.attacker:
        alive = [u for u in alive if s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]
    else:
        alive = [u for u in alive if s.pos.units[u].hex == c.hex]
    stacks: dict[str, list[str]] = {}
    for u in alive:
        stacks.setdefault(s.pos.units[u].hex, []).append(u)
    out = []
    for _h, us in sorted(stacks.items()):
        left = [u for u in us if u not in c.targeted]
        if not left:
            continue
        def key(u: str) -> tuple[int, int]:
            return (TARGET_ORDER.index(s.d.units[u].target), -s.steps_of(u))
        best = min(key(u) for u in left)
        out += sorted(u for u in left if key(u) == best)
    return out


def firers(s: P48State, side: str) -> list[str]:
    """7.1/7.2: the units of ``side`` that may still fire in this combat."""
    c = s.fight()
    if side == c.attacker:
        us = [u for u in c.attackers if s.pos.units[u].where == "map"
              and not s.pos.units[u].retreated and s.pos.units[u].hex != ""
              and s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]
    else:
        us = [u for u in c.defenders if s.pos.units[u].where == "map"
              and s.pos.units[u].hex == c.hex]
    return sorted(u for u in us if u not in c.fired)


class FireStep(Choice[P48State]):
    """7.1.B/C, 7.2: fires announced one at a time by the defender, then the attacker:
    a target, the firing units (combined fire), the supporting artillery, then roll."""

    name = "fire"
    kind = "defensive-fire"
    rule = "7.2"
    auto = True

    def side(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return other(c.attacker) if c.stage == "defense" else c.attacker

    def prompt(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        who = "defender" if c.stage == "defense" else "attacker"
        if c.fire:
            return (f"the {who} fires at {c.fire.target} with {', '.join(c.fire.units)}"
                    f"{' + ' + ', '.join(c.fire.support) if c.fire.support else ''}: add "
                    "units or artillery, or roll")
        return f"the {who} ({self.side(s, args)}) announces a fire in the attack on {c.hex}"

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        side = self.side(s, args)
        if c.fire is None:
            out: list[Action] = [Say("fire", u, t) for u in firers(s, side)
                                 for t in next_targets(s, side)
                                 if s.d.map.distance(s.pos.units[u].hex,
                                                     s.pos.units[t].hex) == 1]
            return [*out, Say("end-fire")]
        target = c.fire.target
        out = [Say("add", u) for u in firers(s, side) if u not in c.fire.units
               and s.d.map.distance(s.pos.units[u].hex, s.pos.units[target].hex) == 1]
        used = c.fired + c.fire.support
        pool = c.support if side == c.attacker else None
        for u in artillery_pool(s, side, [s.pos.units[target].hex], used):
            if pool is None or u in pool:
                out.append(Say("support", u))
        return [*out, Say("roll")]

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = self.options(s, args)
        c = s.fight()
        return Say("roll") if c.fire is not None else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb == "fire":
            c = s.fight()
            if action.a in c.fired:
                return Refusal("7.2", f"{action.a} has fired in this combat: each unit fires "
                               "once")
            if action.b in c.targeted:
                return Refusal("7.2", f"{action.b} has been fired on in this combat: each "
                               "unit is fired at only once per combat")
            return Refusal("7.3", f"{action.b} may not be fired at now: armor, then "
                           "personnel, then weapons in each stack, strongest first")
        if isinstance(action, Say) and action.verb == "support":
            return Refusal("7.6", f"{action.a} cannot support this fire")
        return f"{action.notation()!r} is not a fire now"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        c = s.fight()
        if action.verb == "fire":
            c.fire = Fire(action.b, [action.a], [])
            return []
        if action.verb == "add":
            assert c.fire is not None
            c.fire.units.append(action.a)
            return []
        if action.verb == "support":
            assert c.fire is not None
            c.fire.support.append(action.a)
            return []
        if action.verb == "roll":
            flow.call("fire-roll")
            return []
        # end-fire: the defender's fire is over, the attacker fires; then advance
        return end_fire(s, flow)


def end_fire(s: P48State, flow: Flow) -> list[Event]:
    c = s.fight()
    if c.stage == "defense":
        c.stage = "attack"
        flow.goto("attack-fire")
        return [Event("the attacker fires", "attack", rule="7.1")]
    flow.goto("advance-start")
    return []


def fire_value(s: P48State, fire: Fire, cap: int | None) -> tuple[int, list[str]]:
    """7.4: steps times the weapons effectiveness modifier, same-class strengths summed
    before the modifier, each class's value rounded to nearest with one half down; 7.3:
    the steps firing at a second target in a stack are capped at the first's."""
    target = s.d.units[fire.target].target
    by_class: dict[str, int] = {}
    left = cap
    notes = []
    for u in fire.units:
        n = s.steps_of(u)
        if left is not None:
            n = min(n, left)
            left -= n
            if n < s.steps_of(u):
                notes.append(f"{u} fires with {n} (7.3)")
        fc = s.d.units[u].fire
        by_class[fc] = by_class.get(fc, 0) + n
    for u in fire.support:
        fc = s.d.units[u].fire
        by_class[fc] = by_class.get(fc, 0) + s.steps_of(u)
    total = 0
    for fc, n in sorted(by_class.items()):
        total += round_half_down(n * s.d.weapons[fc][target])
    return total, notes


def round_half_down(x: Fraction) -> int:
    """7.4: round to the nearest whole number, one half down."""
    whole = x.numerator // x.denominator
    return whole + 1 if x - whole > Fraction(1, 2) else whole


def fire_shift(s: P48State, fire: Fire, prepared_attack: bool) -> int:
    """7.5 (stand-in list): broken terrain, river/stream and slope hexsides, the target's
    armor modifier, the attacker in a prepared attack."""
    d = s.d
    th = s.pos.units[fire.target].hex
    shift = -d.units[fire.target].armor
    if d.map.terrain_of(th) == "broken":
        shift += d.shifts["broken"]
    hexes = {s.pos.units[u].hex for u in fire.units}
    if any(d.map.has_side(h, th, "river") or d.map.has_side(h, th, "stream") for h in hexes
           if d.map.distance(h, th) == 1):
        shift += d.shifts["river"]
    if any(d.map.faces_toward("slope", h, th) == th for h in hexes
           if d.map.distance(h, th) == 1):
        shift += d.shifts["slope"]
    if prepared_attack:
        shift += d.shifts["prepared"]
    return shift


def crt_column(s: P48State, value: int, shift: int) -> int | None:
    """7.2.4 / 7.5: the highest column not exceeding the fire value, shifted; past the
    right edge use the last, past the left edge no effect."""
    cols = s.d.crt_columns
    idx = max((i for i, c in enumerate(cols) if c <= value), default=-1)
    if idx < 0:
        return None
    idx += shift
    if idx < 0:
        return None
    return min(idx, len(cols) - 1)


class AttackFire(FireStep):
    """7.1.C: the attacker's fires, after the defender's."""

    name = "attack-fire"
    kind = "attack-fire"
    rule = "7.2"


class FireRoll(Roll[P48State]):
    name = "fire-roll"
    rule = "7.2"

    def request(self, s: P48State, args: NoArgs) -> ChanceRequest:
        c = s.pos.combat
        assert c is not None and c.fire is not None
        return ChanceRequest.roll(f"fire at {c.fire.target}", 6, rule=self.rule)

    def resolve(self, s: P48State, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        c = s.pos.combat
        assert c is not None and c.fire is not None
        fire = c.fire
        th = s.pos.units[fire.target].hex
        cap = c.caps.get(th)
        value, notes = fire_value(s, fire, cap)
        fired_steps = sum(s.steps_of(u) for u in fire.units)
        c.caps[th] = min(fired_steps, cap) if cap is not None else fired_steps
        attacker_fire = (s.d.units[fire.units[0]].side == c.attacker)
        shift = fire_shift(s, fire, c.prepared and attacker_fire)
        col = crt_column(s, value, shift)
        c.fired += fire.units + fire.support
        c.targeted.append(fire.target)
        c.fire = None
        roll = int(outcome[0])
        text = f"{', '.join(fire.units + fire.support)} fire at {fire.target}: value {value}"
        ev = [Event(t, "info", rule="7.3") for t in notes]
        ev.append(Event(f"fire value {value} against {s.d.units[fire.target].target}-class "
                        f"{fire.target}", "info", rule="7.4"))
        if fire.support:
            ev.append(Event(f"{', '.join(fire.support)} support the fire", "info", rule="7.6"))
        if col is None:
            return [*ev, Event(f"{text}, shifted off the table: no effect", "roll", rule="7.5")]
        result = s.d.crt[roll][col]
        ev.append(Event(f"{text}, column {s.d.crt_columns[col]}, roll {roll}: {result}",
                        "roll", units=(fire.target,), rule="7.2"))
        if result == "-":
            return ev
        morale, loss = (int(x) for x in result.split("-"))
        before = s.steps_of(fire.target)
        ev += s.lose(fire.target, loss, "8")
        if attacker_fire:
            c.largest = max(c.largest, morale)
        if morale and s.pos.units[fire.target].where == "map":
            flow.goto("morale-option", MoraleArgs(fire.target, morale, loss, before,
                                                  s.d.units[fire.target].side == c.attacker))
        elif s.pos.units[fire.target].where != "map":
            s.after_move()
        return ev


class MoraleOption(Choice[P48State]):
    """8.1: the player suffering a morale result retreats, or elects a morale check if
    the unit can absorb both numbers."""

    name = "morale-option"
    kind = "morale-option"
    rule = "8.1"
    Args = MoraleArgs

    def side(self, s: P48State, args: MoraleArgs) -> str:
        return s.d.units[args.unit].side

    def prompt(self, s: P48State, args: MoraleArgs) -> str:
        return (f"{args.unit} suffers a morale result of {args.morale}: retreat, or take "
                "a morale check")

    def options(self, s: P48State, args: MoraleArgs) -> list[Action]:
        out: list[Action] = [Say("retreat")]
        if args.morale + args.loss <= args.steps_before:
            out.append(Say("check"))
        return out

    def default(self, s: P48State, args: MoraleArgs) -> Action:
        return Say("retreat")

    def why_not(self, s: P48State, args: MoraleArgs, action: Action) -> str | Refusal:
        if action == Say("check"):
            return Refusal("8.1", f"{args.unit} cannot absorb {args.morale} + {args.loss} "
                           f"steps with {args.steps_before}: it must retreat")
        return "retreat or check"

    def apply(self, s: P48State, args: MoraleArgs, action: Action, flow: Flow) -> list[Event]:
        if action == Say("check"):
            flow.goto("morale-roll", args)
            return [Event(f"{args.unit} takes a morale check", "morale", rule="8.1")]
        flow.goto("retreat-start", args)
        return [Event(f"{args.unit} retreats", "morale", rule="8.1")]


class MoraleRoll(Roll[P48State]):
    """8.2: pass on a roll at or under the formation's morale value.  Either way the unit
    absorbs the morale number in steps (8.1's example); a failure also retreats."""

    name = "morale-roll"
    rule = "8.2"
    Args = MoraleArgs

    def request(self, s: P48State, args: MoraleArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"morale check of {args.unit}", 6, rule=self.rule)

    def resolve(self, s: P48State, args: MoraleArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        value = s.d.morale[s.d.units[args.unit].formation]
        roll = int(outcome[0])
        passed = roll <= value
        ev = [Event(f"{args.unit} morale {value}, roll {roll}: "
                    f"{'passed' if passed else 'failed'}", "morale", units=(args.unit,),
                    rule="8.2")]
        ev += s.lose(args.unit, args.morale, "8.1")
        if not passed:
            s.pos.units[args.unit].failed = True
            flow.goto("retreat-start", args)
        else:
            s.after_move()
        return ev


class RetreatStart(Procedure[P48State]):
    """8.3: the defenders retreat as a stack; an attacking unit retreats alone."""

    name = "retreat-start"
    rule = "8.3"
    Args = MoraleArgs

    def run(self, s: P48State, args: MoraleArgs, flow: Flow) -> list[Event]:
        c = s.fight()
        if args.attacker:
            units = [args.unit] if s.pos.units[args.unit].where == "map" else []
            start = s.pos.units[args.unit].hex
        else:
            start = c.hex
            units = s.at(c.hex)
            c.required = max(c.required, args.morale)
        if not units:
            flow.end()
            s.after_move()
            return []
        flow.goto("retreat", RetreatArgs(units, start, args.morale, not args.attacker))
        return []


def firing_units(s: P48State, args: RetreatArgs) -> list[str]:
    """8.3 priority 3's "adjacent firing units": the enemy units that have fired in this
    combat and stand, on the map, adjacent to the hex the retreat starts from (supporting
    artillery at range is not adjacent, 7.6)."""
    c = s.pos.combat
    if c is None:
        return []
    side = s.d.units[args.units[0]].side
    return [u for u in c.fired
            if s.d.units[u].side != side and s.pos.units[u].where == "map"
            and s.d.map.distance(s.pos.units[u].hex, args.start) == 1]


def first_stop(m: HexMap, start: str, length: int, step_ok: Callable[[str, str], bool],
               may_end: Callable[[str], bool]) -> int | None:
    """The fewest hexes, at least ``length``, after which a retreat from ``start`` may
    stop, each hex one farther from ``start`` than the last (so the hexes reachable after
    n steps are a ring's subset, found without listing paths); None if it never can.
    8.3 sets no limit ("it must continue retreating until it reaches a noncontrolled
    hex"): the map's edge is the only one."""
    frontier = {start}
    n = 0
    while frontier:
        if n >= length and any(may_end(h) for h in frontier):
            return n
        n += 1
        frontier = {nb for h in sorted(frontier) for nb in m.neighbors(h)
                    if m.distance(nb, start) == n and step_ok(h, nb)}
    return None


@dataclass(frozen=True)
class RetreatPlan:
    """What 8.3 leaves the owner: ``kind`` "fit" (paths ending where the stack may
    stop), "overstacked" (no such hex can be reached: paths ending out of enemy ZOC,
    then the owner eliminates retreating units of his choice until the stack fits),
    "edge" (no path on the map: paths to an edge hex, then off the map; no hexes when
    the retreat starts on the edge) or "none" (eliminated)."""

    kind: str
    paths: tuple[tuple[str, ...], ...] = ()


def retreat_plan(s: P48State, args: RetreatArgs) -> RetreatPlan:
    """8.3: the best paths under the book's priorities, in its order: (1) the stack
    retreats together (one path for all of ``args.units``); (2) avoid enemy-controlled
    hexes if possible (fewest entered); (3) as far from the adjacent firing units as
    possible (the retreat's last hex, by its distance to the nearest of them); (4) into
    an enemy-controlled hex, the hex closest to a friendly unit.  Each hex is farther
    from the start than the last (the engine's reading of "the required number of
    hexes"), never across an unbridged river, never into an enemy-occupied hex; a path
    runs on past its length, as far as it must, to leave an enemy ZOC ("until it
    reaches a noncontrolled hex") or an overstacked hex ("until it reaches a hex in
    which it can legally stack")."""
    side = s.d.units[args.units[0]].side
    ez = s.zoc(other(side))
    weapons = any(s.d.units[u].target == "W" for u in args.units)
    friends = [s.pos.units[u].hex for u in s.on_map(side) if u not in args.units]
    enemy = {s.pos.units[u].hex for u in s.on_map(other(side))}
    firers = sorted({s.pos.units[u].hex for u in firing_units(s, args)})
    m = s.d.map

    def rank(path: tuple[str, ...], h: str) -> int | None:
        if h in enemy:
            return None
        if h not in ez:
            return 0
        if weapons and all(s.d.units[u].target == "W" for u in args.units):
            return None  # weapons never retreat into an enemy ZOC
        near = min((m.distance(h, f) for f in friends), default=99)
        return 1 + min(near, 50)  # priority 4: the hex closest to a friend

    def whole(path: tuple[str, ...]) -> list[int]:
        # lower is better, the book's priorities in its order
        zoc_hexes = sum(1 for h in path if h in ez)  # priority 2
        away = min((m.distance(path[-1], f) for f in firers), default=0)  # priority 3
        return [zoc_hexes, -away, *(rank(path[:i], h) or 0 for i, h in enumerate(path))]

    def cross(a: str, b: str) -> bool:
        return not (m.has_side(a, b, "river") and not (
            m.has_side(a, b, "river_bridge") or m.has_side(a, b, "bridge")))

    def step_ok(a: str, b: str) -> bool:
        return cross(a, b) and rank((), b) is not None

    def best(length: int, may_end: Callable[[str], bool]) -> tuple[tuple[str, ...], ...]:
        top = first_stop(m, args.start, length, step_ok, may_end)
        if top is None or top == 0:
            return ()
        opts = retreat_options(m, args.start, length, rank, may_cross=cross,
                               may_end=may_end, max_length=top, path_rank=whole)
        return tuple(sorted(opts.paths)) if opts.complete and all(opts.paths) else ()

    stacks = s.stacks()
    # stacking satisfied at the end of the retreat, and never ending in an enemy ZOC
    paths = best(args.length, lambda h: h not in ez and s.fits(h, side, args.units, stacks))
    if paths:
        return RetreatPlan("fit", paths)
    paths = best(args.length, lambda h: h not in ez)
    if paths:
        return RetreatPlan("overstacked", paths)
    # Map-Edge: "only if they would be eliminated otherwise", by the nearest edge hex
    if args.start in s.d.edge:
        return RetreatPlan("edge")
    paths = best(1, lambda h: h in s.d.edge)
    if paths:
        return RetreatPlan("edge", paths)
    return RetreatPlan("none")


def retreat_paths(s: P48State, args: RetreatArgs) -> tuple[list[tuple[str, ...]], bool]:
    """8.3: the best paths ending where the stack may stop (``retreat_plan``'s "fit"),
    and whether there are any."""
    plan = retreat_plan(s, args)
    return (list(plan.paths), True) if plan.kind == "fit" else ([], False)


def path_text(p: Iterable[str]) -> str:
    return "-".join(p)


class Retreat(Choice[P48State]):
    """8.3: the owner retreats his units along any best path."""

    name = "retreat"
    kind = "retreat-path"
    rule = "8.3"
    Args = RetreatArgs
    auto = True

    def side(self, s: P48State, args: RetreatArgs) -> str:
        return s.d.units[args.units[0]].side

    def prompt(self, s: P48State, args: RetreatArgs) -> str:
        return f"retreat {', '.join(args.units)} {args.length} hexes from {args.start}"

    def options(self, s: P48State, args: RetreatArgs) -> list[Action]:
        plan = retreat_plan(s, args)
        if plan.kind in ("fit", "overstacked"):
            return [Say("path", path_text(p)) for p in plan.paths]
        if plan.kind == "edge" and not plan.paths:
            return [Say("off-map")]  # 8.3: off the map only when it would be eliminated
        if plan.kind == "edge":
            return [Say("path", path_text([*p, "off"])) for p in plan.paths]
        return [Say("path", "none")]

    def default(self, s: P48State, args: RetreatArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: P48State, args: RetreatArgs, action: Action) -> str | Refusal:
        return Refusal("8.3", f"{action.notation()!r} is not a best retreat path: by 8.3's "
                       "priorities the stack retreats together, avoiding enemy-controlled "
                       "hexes, then as far from the adjacent firing units as possible, then "
                       "into enemy ZOC only toward friends; no unbridged river; it ends "
                       "outside enemy ZOC and within stacking")

    def apply(self, s: P48State, args: RetreatArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        c = s.pos.combat
        ev: list[Event] = []
        if action.verb != "path" or action.a == "none" or action.a.endswith("-off"):
            flow.end()
        if action.verb == "off-map":
            for u in args.units:
                x = s.pos.units[u]
                x.where, x.retreated = "off", True
            s.after_move()
            return [Event(f"{', '.join(args.units)} retreat off the map at {args.start}",
                          "retreat", rule="8.3")]
        if action.a == "none":
            for u in args.units:
                ev += s.kill(u)
            s.after_move()
            return [Event("no legal retreat path", "retreat", rule="8.3"), *ev]
        path = action.a.split("-")
        off = path[-1] == "off"
        if off:
            path.pop()
        side = s.d.units[args.units[0]].side
        ez = s.zoc(other(side))
        for u in args.units:
            x = s.pos.units[u]
            for h in path:
                if h in ez:
                    if s.d.units[u].target == "W":
                        ev += s.kill(u)  # 8.3: weapons never into an enemy ZOC
                        break
                    two = s.d.units[u].target == "P" and ez[h]
                    ev += s.lose(u, 2 if two else 1, "8.3")
                    if x.where != "map":
                        break
            if x.where == "map":
                x.hex, x.retreated = path[-1], True
                if off:
                    x.where = "off"  # 8.3: to re-enter by path[-1], its edge hex
        if c is not None and args.defender:
            c.path = path
        ev.insert(0, Event(f"{', '.join(args.units)} retreat {'-'.join([args.start, *path])}"
                           + (" and off the map" if off else ""),
                           "retreat", hexes=(path[-1],), rule="8.3"))
        ev += s.after_move(args.units)
        if not off:
            left = [u for u in args.units if s.pos.units[u].where == "map"]
            if left and not s.fits(path[-1], side):
                # 8.3 Stacking: no hex it can legally stack in was in reach
                flow.goto("overstacked", RetreatArgs(left, path[-1], 0, args.defender))
            else:
                flow.end()
        return ev


class Overstacked(Choice[P48State]):
    """8.3 Stacking: "If the unit cannot reach such a hex, the owning player must
    eliminate retreating units of his choice to relieve the overstacking": one at a
    time until the hex is within the limit (6)."""

    name = "overstacked"
    kind = "retreat-path"
    rule = "8.3"
    Args = RetreatArgs
    auto = True

    def side(self, s: P48State, args: RetreatArgs) -> str:
        return s.d.units[args.units[0]].side

    def prompt(self, s: P48State, args: RetreatArgs) -> str:
        return (f"{args.start} is over the stacking limit: eliminate retreating units "
                f"({', '.join(args.units)}) until it is not")

    def options(self, s: P48State, args: RetreatArgs) -> list[Action]:
        return [Say("eliminate", u) for u in args.units if s.pos.units[u].where == "map"]

    def default(self, s: P48State, args: RetreatArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: P48State, args: RetreatArgs, action: Action) -> str | Refusal:
        return Refusal("8.3", f"{action.notation()!r}: the owner eliminates retreating units "
                       f"of his choice ({', '.join(args.units)}) until {args.start} is within "
                       "the stacking limit")

    def apply(self, s: P48State, args: RetreatArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        ev = s.kill(action.a)
        ev[0] = Event(f"{action.a} is eliminated to relieve the overstacking in "
                      f"{args.start}", "loss", units=(action.a,), rule="8.3")
        s.after_move()
        left = [u for u in args.units if s.pos.units[u].where == "map"]
        if not left or s.fits(args.start, s.d.units[args.units[0]].side):
            flow.end()
        else:
            args.units = left
        return ev


class Advance(Choice[P48State]):
    """8.4: if all defenders retreated or were eliminated, the non-weapon attackers
    that fired may advance, hex by hex."""

    name = "advance"
    kind = "advance"
    rule = "8.4"
    auto = True

    def side(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return c.attacker

    def prompt(self, s: P48State, args: NoArgs) -> str:
        return "the attacker may advance after combat"

    def setup_advance(self, s: P48State) -> None:
        c = s.fight()
        if c.advance or s.at(c.hex, other(c.attacker)):
            return
        length = c.required if c.path else c.largest
        for u in c.fired:
            if (u in c.attackers and s.pos.units[u].where == "map"
                    and s.d.units[u].target != "W" and not s.pos.units[u].retreated):
                c.advance[u] = length

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        if s.at(c.hex, other(c.attacker)):
            return [Say("end-advance")]
        out: list[Action] = []
        for u, left in sorted(c.advance.items()):
            x = s.pos.units[u]
            if left <= 0 or x.where != "map":
                continue
            mine: list[Action] = [Say("advance", u, n) for n in self.steps(s, u, x.hex, left)]
            if mine and not s.fits(x.hex, c.attacker):
                return mine  # 6: "after each ... advance": passing a full hex, it goes on
            out += mine
        return [*out, Say("end-advance")]

    def steps(self, s: P48State, u: str, here: str, left: int,
              seen: frozenset[str] = frozenset()) -> list[str]:
        """The hexes ``u`` may advance into from ``here`` with ``left`` hexes to go: not
        enemy-occupied, never across unbridged major rivers (8.4), and a full hex only
        when the advance can go on from it to a hex within the limit (6)."""
        c = s.fight()
        m = s.d.map
        ez = s.zoc(other(c.attacker))
        out = []
        for n in m.neighbors(here):
            if n in seen or s.owner_at(n) == other(c.attacker):
                continue
            if m.has_side(here, n, "river") and not (
                    m.has_side(here, n, "river_bridge") or m.has_side(here, n, "bridge")):
                continue  # 8.4: never across unbridged major rivers
            if not s.fits(n, c.attacker, [u]):
                stops = n in ez and not on_path(c, u, here, n)
                if left <= 1 or stops or not self.steps(s, u, n, left - 1,
                                                         seen | {here, n}):
                    continue
            out.append(n)
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = self.options(s, args)
        return Say("end-advance") if Say("end-advance") in opts else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("8.4", f"{action.notation()!r}: only the non-weapon attackers that "
                       "fired advance, as far as the required retreat (or the largest "
                       "morale result), not across unbridged rivers")

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        c = s.fight()
        if action.verb == "end-advance":
            s.pos.combat = None
            # 4: after a hasty attack "any other units may continue ordinary movement":
            # the rest of the moving group goes on from where the attack was made
            rest = [u for u in s.pos.moving if not s.pos.units[u].attacked
                    and s.pos.units[u].where == "map" and not s.pos.units[u].retreated]
            s.pos.moving = rest
            if rest and not c.prepared:
                flow.goto("moving")
                return [Event(f"{', '.join(rest)} may go on moving", "move", rule="4")]
            s.pos.moving = []
            flow.end()
            return []
        u, n = action.a, action.b
        x = s.pos.units[u]
        ez = s.zoc(other(c.attacker))
        here = x.hex
        x.hex = n
        # 8.4: ZOCs ignored "when following the exact path along which defending units
        # retreated": the vacated hex first, then each hex of the retreat in turn; a unit
        # that left that path once is not following it any more
        follows = on_path(c, u, here, n)
        if not follows:
            c.strayed.append(u)
        c.advance[u] -= 1
        if n in ez and not follows:
            c.advance[u] = 0
        return [Event(f"{u} advances to {n}", "move", hexes=(n,), rule="8.4"),
                *s.after_move([u])]


def on_path(c: Combat, u: str, here: str, n: str) -> bool:
    """8.4: the step ``here`` to ``n`` follows "the exact path along which defending
    units retreated": the vacated hex first, then each hex of the retreat in turn, by a
    unit that has not left that path."""
    trail = [c.hex, *c.path] if c.path else []
    if u in c.strayed or not trail:
        return False
    if n == trail[0]:
        return here != trail[0]
    return here in trail and trail.index(here) + 1 < len(trail) and trail[
        trail.index(here) + 1] == n


class AdvanceStart(Procedure[P48State]):
    name = "advance-start"
    rule = "8.4"

    def run(self, s: P48State, args: NoArgs, flow: Flow) -> list[Event]:
        Advance().setup_advance(s)
        flow.goto("advance")
        return []


class Movement(Choice[P48State]):
    """3.2 / 4: move units singly or in stacks, one after another; reinforcements enter
    (9.1); the Soviet plan's areas are revealed on their turn."""

    name = "movement"
    kind = "movement"
    rule = "3.2"
    show = False

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: P48State, args: NoArgs) -> str:
        return f"the {s.pos.phasing} player moves (move a unit or a hex's stack, enter, end)"

    def to_reveal(self, s: P48State) -> list[str]:
        if s.pos.phasing != "soviet":
            return []
        return [f for f, t in sorted(s.pos.plan_turns.items())
                if t == s.pos.turn and f not in s.pos.plan_areas]

    def entries(self, s: P48State, u: str, stacking: bool = True) -> list[str]:
        """9.1 / 8.3: the hexes where a due or off-map unit may enter (``stacking``:
        only those where it fits, or from which it can move on to a hex where it fits:
        entering is movement, and 6 binds its end)."""
        x, info = s.pos.units[u], s.d.units[u]
        if x.where == "off":
            cands = [x.hex] if s.owner_at(x.hex) != other(info.side) else sorted(
                (h for h in s.d.edge if s.owner_at(h) is None
                 and h not in s.zoc(other(info.side))),
                key=lambda h: (s.d.map.distance(h, x.hex), h))[:1]
        else:
            f = s.d.formations[info.formation]
            area = f.enters_area if info.side == "german" else s.pos.plan_areas.get(f.id, "")
            cands = list(s.d.entry.get(area, ()))
        enemy = {s.pos.units[e].hex for e in s.on_map(other(info.side))}
        ez = s.zoc(other(info.side)) if info.target == "W" else {}
        stacks = s.stacks()
        return [h for h in cands if h not in enemy and h not in ez
                and (not stacking or s.fits(h, info.side, [u], stacks)
                     or s.may_pass([u], h, {u: s.d.entry_cost(u, h)}, stacks))]

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        side = s.pos.phasing
        reveal = self.to_reveal(s)
        if reveal:
            return [Say("reveal", reveal[0])]
        out: list[Action] = []
        for u in sorted(s.pos.units):
            x = s.pos.units[u]
            # 8.3: units that went off the map re-enter in their owner's next Movement
            # Phase (not the one they retreated in)
            if s.d.units[u].side == side and (x.where == "due" or (
                    x.where == "off" and not x.retreated)):
                out += [Say("enter", u, h) for h in self.entries(s, u)]
        movable = [u for u in s.on_map(side) if s.movable(u)]
        out += [Say("move", u) for u in movable]
        hexes: dict[str, int] = {}
        for u in movable:
            hexes[s.pos.units[u].hex] = hexes.get(s.pos.units[u].hex, 0) + 1
        out += [Say("move", h) for h, n in sorted(hexes.items()) if n > 1]
        # 9.1: as many arrivals as possible enter; 8.3: units off the map re-enter now
        if not any(a.verb == "enter" for a in out if isinstance(a, Say)):
            out.append(Say("end-movement"))
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = self.options(s, args)
        return Say("end-movement") if Say("end-movement") in opts else opts[0]

    def accepts(self, s: P48State, args: NoArgs, action: Action) -> bool:
        """The revealed form a session writes: ``open F AREA SALT`` (9.1)."""
        reveal = self.to_reveal(s)
        return (isinstance(action, Say) and action.verb == "open" and bool(reveal)
                and action.a == reveal[0])

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if action == Say("end-movement"):
            if any(isinstance(a, Say) and a.verb == "enter" and s.pos.units[a.a].where == "off"
                   for a in self.options(s, args)):
                return Refusal("8.3", "units that retreated off the map re-enter during "
                               "their owner's next Movement Phase: enter them first")
            return Refusal("9.1", "as many units of an arriving formation as possible must "
                           "enter this turn")
        if isinstance(action, Say) and action.verb == "move":
            return Refusal("4", f"{action.a} cannot move now (moved, attacked, retreated, "
                           "failed, unreleased or out of movement points)")
        if isinstance(action, Say) and action.verb == "enter":
            u, h = action.a, action.b
            if (u in s.pos.units and s.pos.units[u].where in ("due", "off")
                    and h in self.entries(s, u, stacking=False)
                    and h not in self.entries(s, u)):
                return Refusal("6", f"{u} may not enter {h}: over the stacking limit of "
                               f"{s.d.stack_limit[s.d.units[u].side] // 3} battalions, with "
                               "no hex within it to move on to")
            return Refusal("9.1", f"{action.a} cannot enter at {action.b}")
        if self.to_reveal(s):
            return Refusal("9.1", f"the {self.to_reveal(s)[0]} area must be revealed first")
        return f"{action.notation()!r} is not a movement action"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        pos = s.pos
        if action.verb in ("reveal", "open"):
            return reveal(s, action)
        if action.verb == "end-movement":
            for u, x in pos.units.items():
                if x.where == "due":  # 9.1: a unit that cannot be placed waits a turn
                    x.where = "setup"
                    f = s.d.formations[s.d.units[u].formation]
                    if f.side == "soviet":
                        pos.plan_turns[f.id] = pos.turn + 1
            flow.end()
            return []
        if action.verb == "enter":
            x = pos.units[action.a]
            x.where, x.hex = "map", action.b
            x.spent = s.d.entry_cost(action.a, action.b)  # 9.1: the first hex's cost
            x.halted = action.b in s.zoc(other(pos.phasing))  # 5 (stand-in)
            pos.moving, pos.moved_hexes = [action.a], 1
            flow.call("moving")
            return [Event(f"{action.a} enters at {action.b}", "move", hexes=(action.b,),
                          rule="9.1"), *s.after_move([action.a])]
        if action.a in pos.units:
            group = [action.a]
        else:
            group = [u for u in s.at(action.a, pos.phasing) if s.movable(u)]
        h = pos.units[group[0]].hex
        pos.moving = group
        pos.moved_hexes = 0
        flow.call("moving")
        return [Event(f"{', '.join(group)} start moving from {h}", "move", rule="3.2")]


def reveal(s: P48State, action: Say) -> list[Event]:
    """9.1: the area revealed on the planned turn, checked against the commitment."""
    f = action.a
    com = Commitment("soviet", f, bytes.fromhex(s.pos.plan_digests[f]))
    if action.verb == "open":
        area, salt = action.b, bytes.fromhex(action.c) if _is_hex(action.c) else b""
        com.check(plan_value(f, area), salt, rule="9.1")
    else:
        found = [a for a, _ in s.d.formations[f].schedule
                 if digest_of(f, a, open_salt(f)) == s.pos.plan_digests[f]]
        if not found:
            com.check(plan_value(f, "?"), open_salt(f), rule="9.1")
        area = found[0]
    if area not in dict(s.d.formations[f].schedule):
        from pbem.errors import IllegalAction
        raise IllegalAction(f"{area} is not on the schedule for {f}", rule="9.1")
    s.pos.plan_areas[f] = area
    for u, x in s.pos.units.items():
        if s.d.units[u].formation == f and x.where == "setup":
            x.where = "due"
    return [Event(f"the {s.d.formations[f].name} enters at area {area} (revealed, matches "
                  "the commitment)", "reveal", rule="9.1")]


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(ch in "0123456789abcdef" for ch in text)


class Moving(Choice[P48State]):
    """4 / 5 / 6: the moving unit or stack goes hex by hex; it may pick up units, drop
    units, make a hasty attack at the end of its move, exit the map (10), or stop."""

    name = "moving"
    kind = "move"
    rule = "4"
    auto = True

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: P48State, args: NoArgs) -> str:
        x = s.pos.units[s.pos.moving[0]]
        return f"moving {', '.join(s.pos.moving)} at {x.hex}"

    def here(self, s: P48State) -> str:
        return s.pos.units[s.pos.moving[0]].hex

    def steps_to(self, s: P48State) -> list[str]:
        pos, side = s.pos, s.pos.phasing
        h = self.here(s)
        if any(pos.units[u].halted for u in pos.moving):
            return []  # 5 (stand-in): entering an enemy-controlled hex ends the move
        out = []
        stacks = s.stacks()
        for n in s.d.map.neighbors(h):
            if n in stacks and s.d.units[stacks[n][0]].side == other(side):
                continue
            costs = [s.step_cost(u, h, n) for u in pos.moving]
            if any(c is None or pos.units[u].spent + c > s.allowance(u)
                   for u, c in zip(pos.moving, costs, strict=True)):
                continue
            if not s.fits(n, side, pos.moving, stacks) and not s.may_pass(
                    pos.moving, n, {u: pos.units[u].spent + c for u, c in
                                    zip(pos.moving, costs, strict=True) if c is not None},
                    stacks, frozenset([h])):
                continue  # 6: through a full hex only if the move can end beyond it
            out.append(n)
        return out

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        pos, side = s.pos, s.pos.phasing
        if any(pos.units[u].failed for u in pos.moving):
            return [Say("stop")]  # 5: the roll failed, nobody moves
        h = self.here(s)
        out: list[Action] = [Say("to", n) for n in self.steps_to(s)]
        out += [Say("pickup", u) for u in s.at(h, side) if u not in pos.moving
                and s.movable(u) and pos.moved_hexes > 0]
        if len(pos.moving) > 1:
            # 6: a dropped unit's move ends here, so it must fit with those staying
            staying = [u for u in s.at(h, side) if u not in pos.moving]
            room = s.d.stack_limit[side] - sum(s.d.units[v].size for v in staying)
            out += [Say("drop", u) for u in pos.moving if s.d.units[u].size <= room]
        # 6: stacking is satisfied "prior to hasty combat"
        if s.fits(h, side) and any(not pos.units[u].attacked and not pos.units[u].flipped
                                   for u in pos.moving):
            stacks = s.stacks()
            out += [Say("hasty", n) for n in s.d.map.neighbors(h)
                    if n in stacks and s.d.units[stacks[n][0]].side == other(side)]
        if (side == "soviet" and h in s.d.areas["south_exit"]
                and all(pos.units[u].spent + s.d.exit_cost <= s.allowance(u)
                        for u in pos.moving)):
            out.append(Say("exit"))
        if s.fits(h, side):
            out.append(Say("stop"))
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = self.options(s, args)
        return Say("stop") if Say("stop") in opts else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Say) and action.verb == "to":
            if any(s.pos.units[u].halted for u in s.pos.moving):
                return Refusal("5", "the move ended on entering an enemy-controlled hex")
            h, n, side = self.here(s), action.a, s.pos.phasing
            if (n in s.d.map.neighbors(h) and s.owner_at(n) != other(side)
                    and not s.fits(n, side, s.pos.moving)):
                return Refusal("6", f"{n} would be over the stacking limit of "
                               f"{s.d.stack_limit[side] // 3} battalions, and the move "
                               "could not go on from it to a hex within the limit")
            return Refusal("4", f"cannot move to {action.a}: not adjacent, enemy-occupied, "
                           "over the movement allowance or over the stacking limit")
        if isinstance(action, Say) and action.verb == "hasty":
            if not s.fits(self.here(s), s.pos.phasing):
                return Refusal("6", "stacking limits must be satisfied prior to hasty combat: "
                               f"{self.here(s)} is over the limit")
            if all(s.pos.units[u].flipped for u in s.pos.moving):
                return Refusal("3.1", "units that made a prepared attack this turn take "
                               "only limited action: no hasty attack (reading)")
            return Refusal("4", "only units that began the phase stacked together may make "
                           "a hasty attack, one each per phase, on an adjacent enemy hex")
        if isinstance(action, Say) and action.verb == "exit":
            return Refusal("10", "Soviet units exit only from south-edge road hexes, "
                           "paying 1/2 MP")
        if action == Say("stop") or (isinstance(action, Say) and action.verb == "drop"
                                     and len(s.pos.moving) > 1 and action.a in s.pos.moving):
            return Refusal("6", "stacking limits must be met at the end of the move")
        return f"{action.notation()!r} is not a move now"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Say)
        pos, side = s.pos, s.pos.phasing
        h = self.here(s)
        if action.verb == "to":
            staying = [u for u in s.at(h, side) if u not in pos.moving]
            if pos.moved_hexes == 0 and h in s.zoc(other(side)) and not staying:
                flow.call("zoc-exit", ExitArgs(action.a))  # 5: leaving it vacant
                return []
            return step_group(s, action.a)
        if action.verb == "pickup":
            pos.moving.append(action.a)
            return [Event(f"{action.a} is picked up at {h}", "move", rule="4")]
        if action.verb == "drop":
            pos.moving.remove(action.a)
            pos.units[action.a].moved = True
            return [Event(f"{action.a} stays at {h}", "move", rule="4")]
        if action.verb == "hasty":
            # the whole group stays in pos.moving: those that do not attack go on moving
            # after the combat (4)
            pos.combat = Combat(action.a, side, False, defenders=s.at(action.a))
            flow.goto("declare")
            return [Event(f"hasty attack on {action.a}", "attack", hexes=(action.a,),
                          rule="3.2")]
        if action.verb == "exit":
            ev = []
            for u in pos.moving:
                x = pos.units[u]
                pos.exits[h] = pos.exits.get(h, 0) + s.steps_of(u)
                x.where, x.hex = "exited", ""
                ev.append(Event(f"{u} exits the map at {h}", "move", rule="10"))
            pos.moving = []
            flow.end()
            return ev
        for u in pos.moving:
            pos.units[u].moved = True
        pos.moving = []
        flow.end()
        return [Event(f"the move ends at {h}", "move", rule="3.2")]


def step_group(s: P48State, n: str) -> list[Event]:
    pos = s.pos
    h = pos.units[pos.moving[0]].hex
    halts = n in s.zoc(other(pos.phasing))  # 5 (stand-in): entering ends the move
    for u in pos.moving:
        c = s.step_cost(u, h, n)
        assert c is not None
        pos.units[u].spent += c
        pos.units[u].hex = n
        pos.units[u].halted = halts
    pos.moved_hexes += 1
    return [Event(f"{', '.join(pos.moving)} move to {n}", "move", hexes=(n,), rule="4"),
            *s.after_move(pos.moving)]


class ZocExit(Roll[P48State]):
    """5: leaving an enemy-controlled hex vacant takes a roll: 4-6, nobody moves."""

    name = "zoc-exit"
    rule = "5"
    Args = ExitArgs

    def request(self, s: P48State, args: ExitArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"leave {s.pos.units[s.pos.moving[0]].hex}", 6,
                                  rule=self.rule)

    def resolve(self, s: P48State, args: ExitArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        roll = int(outcome[0])
        if roll in s.d.zoc_fail:
            for u in s.pos.moving:
                s.pos.units[u].failed = True
                s.pos.units[u].moved = True
            group = s.pos.moving
            return [Event(f"roll {roll}: {', '.join(group)} cannot leave the enemy ZOC",
                          "roll", rule="5")]
        ev = [Event(f"roll {roll}: {', '.join(s.pos.moving)} leave the enemy ZOC", "roll",
                    rule="5")]
        return ev + step_group(s, args.to)


def place_defaults(s: P48State, side: str) -> None:
    """9: each unit's scenario hex: the 7th Luftwaffe and 26th Tank group in their hexes,
    personnel on the starting front nearest their area, others nearest their area."""
    d = s.d
    for u, info in d.units.items():
        x = s.pos.units[u]
        if info.side != side or x.where != "unplaced":
            continue
        x.where = "map"
        f = d.formations[info.formation]
        if f.hexes or f.assigned:
            pool = list(f.hexes or f.assigned)
            members = [m for m in d.units if d.units[m].formation == f.id]
            x.hex = pool[members.index(u) % len(pool)]
            continue
        if info.target == "P":
            cands = sorted(d.areas["front_german" if side == "german" else "front_soviet"])
        else:
            cands = [h for h in d.map.within(f.area, 3) if d.side_of_hex(h) == side
                     and h not in d.areas["front_german"] and h not in d.areas["front_soviet"]]
        cands.sort(key=lambda h: (d.map.distance(h, f.area), h))
        ez = s.zoc(other(side))
        for h in cands:
            if s.fits(h, side, [u]) and not (info.target == "W" and h in ez):
                x.hex = h
                break


STEPS = step_table(Game(), Turn(), PlayerTurn(), Setup(), Plan(), Prepared(), Declare(),
                   FireStep(), AttackFire(), FireRoll(), MoraleOption(), MoraleRoll(),
                   RetreatStart(), Retreat(), Overstacked(), Advance(), AdvanceStart(),
                   Movement(), Moving(), ZocExit())
P48State.steps = STEPS
P48State.start = "game"


def new_position(scenario_turns: tuple[int, int]) -> Position:
    d = data()
    units = {}
    for u, info in d.units.items():
        f = d.formations[info.formation]
        units[u] = Unit("setup" if (f.enters_turn or f.schedule) else "unplaced")
    control = {h: "german" for h in sorted(d.towns)}
    for a, b in d.don_bridges:
        control[a] = control[b] = "german"
    return Position(turn=scenario_turns[0], last_turn=scenario_turns[1], phasing="soviet",
                    phase="setup", units=units, control=dict(sorted(control.items())))
