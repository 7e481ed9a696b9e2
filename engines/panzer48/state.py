"""48th Panzer Korps: the state: the position's lookups and the engine hooks.

Rule numbers are the article's (CounterAttack #3, 1991).  Where its lists were lost in
extraction (3.1's differences of prepared attacks, 5's effects of ZOCs, 7.6's support
restrictions, 8.1's option lists) the reading is on docs/engines/48th-panzer-korps.md
with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from engines.hexkit.board import board_view
from engines.hexkit.zoc import zoc_map
from engines.panzer48.data import SIDES, Data, UnitInfo, data, other
from engines.panzer48.notation import Say, parse
from engines.panzer48.position import Combat, Position, SideArgs
from engines.panzer48.reinforcements import digest_of, open_salt, plan_formations
from pbem.engine import Action, Decision, Event, Result
from pbem.memo import Memo
from pbem.steps import (
    Frame,
    Misfit,
    StepState,
)
from pbem.view import BoardView, Piece

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

