"""The Administrative Segment (4.2 I) and the end of the game turn, in the book's order;
the steps of turn 7 on (the Rochade, 8.2, and the refits, 13.1) are steps/late.py's."""

from __future__ import annotations

from engines.backhand.data import SIDES, roll_lookup
from engines.backhand.notation import w
from engines.backhand.position import Cities, Count, UnitArg
from engines.backhand.reinforcements import arrive, reinforcements_due, replaceable
from engines.backhand.state import BBState
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal, Roll


class Advance(Procedure[BBState]):
    """4.2 I.A: the new game turn; 5.0 turn 1 Frozen; 5.5 historical weather."""

    name = "new-turn"
    rule = "4.2 I.A"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.prev_weather = pos.weather
        pos.rochade_now = False
        pos.rochade_segment = ""
        for u in pos.units.values():
            # cleared where set: a unit's every set is a call of its __setattr__, and
            # few units refit or took a replacement last turn (issue 35)
            if u.refit or u.replaced:
                u.refit = u.replaced = False
        ev = [Event(f"game turn {pos.turn}", "phase", rule=self.rule)]
        if pos.turn == 1:
            pos.weather = "frozen"
            ev.append(Event("turn 1: the weather is Frozen", "weather", rule="5.0"))
        elif pos.historical:
            pos.weather = next_weather(pos.prev_weather, s.data.historical_weather(pos.turn))
            ev.append(Event(f"historical weather: {pos.weather}", "weather", rule="5.5"))
        flow.end()
        return ev


def next_weather(prev: str, rolled: str) -> str:
    """5.1: Mud after Mud or Deep Mud is Deep Mud."""
    if rolled in ("mud", "deep") and prev in ("mud", "deep"):
        return "deep"
    return rolled


class WeatherRoll(Roll[BBState]):
    name = "weather"
    rule = "5.1"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"weather for game turn {s.pos.turn}", 6, 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        roll = int(outcome[0]) + int(outcome[1]) + s.data.weather_drm(s.pos.turn)
        rolled = str(roll_lookup(s.data.weather, roll)[0])
        s.pos.weather = next_weather(s.pos.prev_weather, rolled)
        return [Event(f"weather roll {roll}: {rolled}; the weather is {s.pos.weather}",
                      "weather", rule="5.1")]


class Supply(Procedure[BBState]):
    """4.2 I.D: both sides check supply; Out Of Supply units roll for attrition."""

    name = "supply"
    rule = "4.2 I.D"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        from engines.backhand.supply import check_supply

        ev = []
        short = check_supply(s)
        if short:
            ev.append(Event(f"out of supply: {', '.join(short)}", "supply", rule="7.0"))
            flow.goto("attrition", Cities(short))
        else:
            flow.end()
        return ev


class Attrition(Roll[BBState]):
    """Attrition Check (stand-in table, its modifiers in the data's note)."""

    name = "attrition"
    rule = "4.2 I.D"
    Args = Cities

    def request(self, s: BBState, args: Cities) -> ChanceRequest:
        return ChanceRequest.roll(f"attrition check for {args.cities[0]}", 6, rule=self.rule)

    def resolve(self, s: BBState, args: Cities, outcome: Outcome, flow: Flow) -> list[Event]:
        from engines.backhand.control import lose_steps
        from engines.backhand.supply import attrition_drm

        uid = args.cities[0]
        drm = attrition_drm(s, uid)
        roll = int(outcome[0]) + drm
        lost = int(roll_lookup(s.data.attrition, roll)[0])
        ev = [Event(f"attrition {uid}: {outcome[0]}+{drm} = {roll}, {lost} step(s) lost",
                    "loss", rule="4.2 I.D")]
        if lost:
            ev += lose_steps(s, uid, lost, "4.2 I.D")
        if len(args.cities) > 1:
            flow.goto("attrition", Cities(args.cities[1:]))
        return ev


class VariableRoll(Roll[BBState]):
    """11.2: one die on the German Variable Reinforcements Table."""

    name = "vr-roll"
    rule = "11.2"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll("German variable reinforcements", 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        col = s.data.variable_column(s.pos.turn)
        n = min(len(s.pos.cup), int(roll_lookup(s.data.variable, int(outcome[0]))[
            s.data.variable.columns.index(col)]))
        if n:
            flow.goto("vr-draw", Count(n))
        return [Event(f"variable reinforcements: {n} to draw", "info", rule=self.rule)]


class VariableDraw(Roll[BBState]):
    name = "vr-draw"
    rule = "11.2"
    Args = Count

    def request(self, s: BBState, args: Count) -> ChanceRequest:
        return ChanceRequest.draw("variable reinforcements", "variable", sorted(s.pos.cup),
                                  args.n, rule=self.rule)

    def resolve(self, s: BBState, args: Count, outcome: Outcome, flow: Flow) -> list[Event]:
        from engines.backhand.control import put

        ev = []
        for o in outcome:
            uid = str(o)
            s.pos.cup.remove(uid)
            h = s.data.units[uid].variable
            if h in s.pos.ever_soviet or s.units_at(h, "soviet"):
                s.pos.units[uid].at = "out"
                ev.append(Event(f"{uid} drawn: its setup hex {h} has been Soviet controlled; "
                                "lost", "loss", rule=self.rule))
            else:
                put(s, [uid], h)
                ev.append(Event(f"{uid} drawn and placed in {h}", "reinforce", rule=self.rule,
                                hexes=(h,)))
        return ev


class Reinforce(Choice[BBState]):
    """11.1: the turn's scheduled reinforcements on the map or in Box #1."""

    name = "reinforce"
    kind = "reinforce"
    rule = "11.1"
    # the administrative segment's decisions (this, 12.0 and 13.1): each side's in turn
    # (4.2 I.F-I), so every one stops the other side's file
    # (docs/engines/backhand-blow.md)
    order = "the turn's reinforcements enter on the map"
    order_policies = (("box", "the turn's reinforcements go to Box #1"),)
    Args = UnitArg
    auto = True

    def side(self, s: BBState, args: UnitArg) -> str:
        return args.unit

    def prompt(self, s: BBState, args: UnitArg) -> str:
        due = ", ".join(reinforcements_due(s, args.unit))
        return f"reinforcements {due}: on the map or in Box #1"

    def options(self, s: BBState, args: UnitArg) -> list[Action]:
        if not reinforcements_due(s, args.unit):
            return [w("none")]
        return [w("arrive", "map"), w("arrive", "box")]

    default_option = 0  # the first listed

    def apply(self, s: BBState, args: UnitArg, action: Action, flow: Flow) -> list[Event]:
        flow.end()
        assert isinstance(action, Act)
        return arrive(s, args.unit, to_box=action == w("arrive", "box"))


class ReplacementRoll(Roll[BBState]):
    name = "repl-roll"
    rule = "12.0"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll("Soviet replacements", 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        mot, non = roll_lookup(s.data.replacements, int(outcome[0]))
        s.pos.replacements["mot"] += int(mot)
        s.pos.replacements["non"] += int(non)
        return [Event(f"Soviet replacements: +{mot} motorized, +{non} non-motorized", "info",
                      rule=self.rule)]


class Replace(Choice[BBState]):
    """12.0: one step per reduced unit per turn, In Supply and in range of a front."""

    name = "replace"
    kind = "replace"
    rule = "12.0"
    decider = "soviet"
    order = "spend no replacements (they accumulate)"
    order_policies = (("all", "a replacement step to each eligible unit, by unit id, "
                       "while replacements of its kind last"),)

    def prompt(self, s: BBState, args: NoArgs) -> str:
        r = s.pos.replacements
        return f"spend replacements ({r['mot']} motorized, {r['non']} non-motorized)"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("replace", u) for u in replaceable(s)), w("done")]

    default_action = w("done")

    def why_not(self, s: BBState, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "replace":
            return Refusal("12.0", "a replacement goes to a reduced Soviet unit In Supply and "
                           "in range of a Front Marker, once a turn, of a kind still held")
        return super().why_not(s, args, action)

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        u = action.text("unit")
        s.pos.replacements["mot" if s.motorized(u) else "non"] -= 1
        s.pos.units[u].steps += 1
        s.pos.units[u].replaced = True
        return [Event(f"{u} receives a replacement step", "reinforce", rule=self.rule)]


class Track(Procedure[BBState]):
    """4.2 I.J: chits by the schedule; C3I from the track by the weather (8.1)."""

    name = "track"
    rule = "4.2 I.J"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        ev: list[Event] = []
        for item in s.data.chit_schedule.get(pos.turn, []):
            sign, rest = item[0], item[1:]
            side, _, chit = rest.partition(":")
            if sign == "+" and chit not in pos.chits[side]:
                pos.chits[side] = sorted([*pos.chits[side], chit])
            elif sign == "-" and chit in pos.chits[side]:
                pos.chits[side] = [c for c in pos.chits[side] if c != chit]
        pos.used_chits = []
        if pos.turn > 1:
            for side in SIDES:
                if side == "german" and pos.rochade_now:
                    continue  # 8.2: no C3I received in the Rochade turn
                pos.c3i[side] += s.data.c3i(pos.turn, side, pos.weather)
        ev.append(Event(f"C3I: Soviet {pos.c3i['soviet']}, German {pos.c3i['german']}", "info",
                        rule="8.1"))
        rule, text = {"frozen": ("5.2", "two Schwerpunkt segments a side"),
                      "mud": ("5.3", "one Schwerpunkt segment a side"),
                      "deep": ("5.4", "no Schwerpunkt segments")}[pos.weather]
        ev.append(Event(f"{pos.weather}: {text}", "weather", rule=rule))
        flow.end()
        return ev


class EndTurn(Procedure[BBState]):
    name = "end-turn"
    rule = "4.2"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        ev = []
        if s.pos.turn == s.pos.last_turn:
            from engines.backhand.victory import victory

            _, text = victory(s)
            ev.append(Event(text, "result", rule="18.1" if s.pos.victory ==
                            "high-water-mark" else "18.2"))
        s.pos.turn += 1
        flow.end()
        return ev
