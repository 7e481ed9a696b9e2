"""The engine contract's hooks: legal actions, applying actions and chance outcomes, and
the decision shown to the player.

``_task_options`` lists the choices of the waiting task, in the order ``legal_actions``
gives them; ``_apply_action`` checks an action against them and ``_apply_word`` applies
the word-shaped ones.
"""

from __future__ import annotations

from typing import Any

from engines.motherland.actions import (
    Advance,
    Attack,
    Move,
    Overrun,
    Retreat,
    Strategic,
    Take,
    Word,
    parse,
)
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.core import MotherlandCore
from pbem.engine import CHANCE, Action, ChanceRequest, Decision, Event, Result, Snapshot
from pbem.errors import IllegalAction


class DecisionMixin(MotherlandCore):
    """The contract's hooks: options, actions, outcomes and decisions."""

    # ================================================================================
    # the contract's hooks
    # ================================================================================

    def _current_player(self) -> str | None:
        if self.s["result"] is not None:
            return None
        t = self._top()
        return None if t is None else t["who"]

    def _task_options(self, t: dict[str, Any]) -> list[Action]:
        k = t["k"]
        side = t["who"]
        done: list[Action] = [Word(DONE[k])] if k in DONE else []
        if k == "move":
            return self._move_options(t)
        if k == "combat":
            return [*self._attack_options(), Word(DONE["combat"])]
        if k == "reinf":
            opts: list[Action] = []
            for uid in self._reinf_pool(side):
                opts += [Word(f"place {uid} {h}") for h in self._reinf_hexes(uid)]
            return opts + done
        if k == "take":
            return self._take_options(t)
        if k == "lose":
            return list(self._lose_options(t))
        if k == "retreat":
            return self._retreat_options(t)
        if k == "advance":
            return [*self._advance_options(t), *done]
        if k == "generals":
            return [*self._generals_options(t), *done]
        if k == "keep":
            return [Word(f"keep {cid} for {t['unit']}") for cid in sorted(set(t["drawn"]))]
        if k == "stack":
            return [Word(f"eliminate {x}") for x in self._over_limit(t["hex"])]
        if k == "expend":
            return [*(Word(f"expend {x}") for x in self._expendable()), *done]
        if k == "airsupply":
            if self.mud or self.air_available() <= 0:
                return done
            return [*(Word(f"air supply {x}") for x in sorted(self.on_map(AXIS))
                      if self.german(x) and self.u(x)["sup"] == "out"
                      and self._in_air_range(self.u(x)["hex"])), *done]
        if k == "partisan_oos":
            return [Word(f"out of supply {x}") for x in self._partisan_targets(t["hex"])]
        if k == "partisan_place":
            moves = self._partisan_moves(t)
            bases = self._base_hexes()
            # 10.2: markers not on a Supply Base must be placed when they can be
            loose = {p for p, h in self.s["partisans"].items() if h not in bases}
            must = any(p in loose for p, _ in moves)
            return [*(Word(f"partisan {p} to {b}") for p, b in moves), *([] if must else done)]
        if k == "isolation":
            return [Word(f"isolation loss {x}") for x in sorted(self.units_at(t["hex"], side))
                    if self.isolated(x)]
        if k == "convert":
            return [*self._convert_options(), *done]
        if k == "combine":
            return [*self._combine_options(), *done]
        if k == "replace":
            return [*self._replace_options(t), *done]
        if k == "produce":
            return [Word(f"produce {t['unit']} at {h}") for h in self._produce_hexes()]
        if k == "evacuate":
            return [*(Word(f"evacuate {x}") for x in self._evacuable()), *done]
        if k == "baku_factories":
            return [Word(f"baku factory {x}") for x in sorted(self.on_map(SOVIET))
                    if self.c(x).asset == "factory"]
        raise AssertionError(f"no options for task {k}")

    def _legal_actions(self) -> list[Action]:
        t = self._top()
        assert t is not None
        return self._task_options(t)

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        # 8.5: of the ways to take a result, the one with the most step losses (the
        # options run from all losses to all retreats; ties keep the listed order)
        if (decision.kind, policy) != ("result-choice", "losses"):
            return None
        takes = [a for a in self._legal_actions() if isinstance(a, Take)]
        return max(takes, key=lambda a: a.steps, default=None)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def _apply_action(self, action: Action) -> list[Event]:
        self._events = []
        t = self._top()
        assert t is not None
        k = t["k"]
        if k in ("move",):
            exploit = t["exploit"]
            if isinstance(action, Move):
                self._apply_move(action, exploit)
            elif isinstance(action, Strategic):
                if exploit:
                    raise IllegalAction("no Strategic Movement in the Exploitation Movement "
                                        "Phase", rule="5.4.3")
                self._apply_strategic(action)
            elif isinstance(action, Overrun):
                self._apply_overrun(action, exploit)
            elif isinstance(action, Word) and action.text.startswith("ship "):
                if exploit:
                    raise IllegalAction("no Sea Transport in the Exploitation Movement Phase",
                                        rule="5.4.3")
                self._apply_ship(action.text)
            elif isinstance(action, Word) and action.text.startswith("baku "):
                self._apply_baku(t, action.text)
            elif action == Word(DONE["exploit" if exploit else "move"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction(f"{action.notation()!r} is not a movement-phase action",
                                    rule="5.0")
        elif k == "combat":
            if isinstance(action, Attack):
                self._apply_attack(action)
            elif action == Word(DONE["combat"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction(f"{action.notation()!r} is not a combat-phase action",
                                    rule="8.0")
        elif k == "take":
            if not isinstance(action, Take):
                raise IllegalAction("the result must be taken first: take ... as ...", rule="8.5")
            self._apply_take(t, action)
        elif k == "retreat":
            if not isinstance(action, Retreat):
                raise IllegalAction("a retreat is pending: retreat UNITS to HEX", rule="8.6")
            self._apply_retreat(t, action)
        elif k == "advance":
            if isinstance(action, Advance):
                self._apply_advance(t, action)
            elif action == Word(DONE["advance"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction("advance after combat: advance UNIT HEX or end advance",
                                    rule="8.7")
        else:
            if not isinstance(action, Word):
                raise IllegalAction(f"{action.notation()!r} does not answer "
                                    f"{self._decision().prompt}", rule=self._decision().rule)
            legal = {a.notation() for a in self._task_options(t)}
            if action.text not in legal:
                raise IllegalAction(f"{action.text!r} is not allowed now: "
                                    f"{self._decision().prompt}", rule=self._decision().rule)
            self._apply_word(t, action.text)
        self._touch()
        self._run()
        return self._events

    def _apply_word(self, t: dict[str, Any], text: str) -> None:
        """Apply a choice already checked against the task's options."""
        k = t["k"]
        parts = text.split()
        if text.startswith("end "):
            self.s["tasks"].pop(0)
            if k == "reinf":
                self._reinf_leftover()
            return
        if k == "reinf":
            uid, h = parts[1], parts[2]
            self.u(uid).update(hex=h, box="", sup="", mp=self.factors(uid)[2], mv=0, mode="",
                               start=h,
                               steps=self.c(uid).max_steps)
            self._touch()
            self._claim(uid, h)
            self.say(f"{uid} arrives at {self.data.hex_name(h)} (17.0)", "move", [h], [uid],
                     rule="17.0")
        elif k == "lose":
            uid = parts[1]
            t["taken"][uid] = t["taken"].get(uid, 0) + 1
            t["n"] -= 1
            self._lose_step(uid, t.get("why", "combat result (8.5)"))
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "generals":
            self._apply_general(t, text)
        elif k == "keep":
            cid, uid = parts[1], parts[3]
            self.s["tasks"].remove(t)
            drawn = list(t["drawn"])
            drawn.remove(cid)
            self._give_chit(uid, cid)
            for other_cid in drawn:
                chit = self.data.chits[other_cid]
                if chit.starred:
                    self.s["removed_chits"] = sorted([*self.s["removed_chits"], other_cid])
                else:
                    self.s["cups"][chit.letter] = sorted([*self.s["cups"][chit.letter],
                                                          other_cid])
        elif k == "stack":
            self._eliminate(parts[1], "over the stacking limit, chosen by the opponent (6.0)")
            if not self._over_limit(t["hex"]):
                self.s["tasks"].remove(t)
        elif k == "expend":
            self.s["expended"] = sorted([*self.s.get("expended", []), parts[1]])
            self._touch()
            self.say(f"{parts[1]} is expended to supply units (9.3.4)", rule="9.3.4")
        elif k == "airsupply":
            self.u(parts[2])["sup"] = "lack"
            self.s["air"]["used"] += 1
            self.say(f"Air Supply: {parts[2]} is now Lack of Supply (14.2)", rule="14.2")
        elif k == "partisan_oos":
            self.u(parts[3])["sup"] = "out"
            t["n"] -= 1
            self.say(f"Partisans: {parts[3]} is Out of Supply (10.1)", rule="10.1")
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "partisan_place":
            p, base = parts[1], parts[3]
            self.s["partisans"][p] = self.u(base)["hex"]
            t["moved"] = sorted([*t["moved"], p])
            self.say(f"Partisan marker {p} goes to {base} at {self.u(base)['hex']} (10.2)",
                     rule="10.2")
        elif k == "isolation":
            t["n"] -= 1
            self._lose_step(parts[2], "isolation attrition (9.1.3)")
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "convert":
            ca, g = parts[1], parts[3]
            h = self.u(ca)["hex"]
            self._drop_chit(ca)
            self.u(ca).update(hex="", box="removed")
            self.u(g).update(hex=h, box="", steps=2, chit="", sup="")
            self._touch()
            self.say(f"{ca} becomes {g} at {h} (17.2)", "info", [h], [g], rule="17.2")
            d = self._draw_task(g, 1, "17.2.1")
            if d:
                self._push(d)
        elif k == "combine":
            a, b = parts[1], parts[2]
            self.u(a)["steps"] = self.c(a).max_steps
            self.u(b).update(hex="", box="elim")
            self._touch()
            self.say(f"Kampfgruppen {a} and {b} combine into {a} (15.2)", rule="15.2")
        elif k == "replace":
            uid = parts[1]
            c = self.c(uid)
            if c.type in ("panzer", "ss_panzer"):
                t["p"] -= 1
            else:
                t["i"] -= 1
                if c.nation == "finnish":
                    t["fin"] = True
            self.u(uid)["steps"] += 1
            self._touch()
            self.say(f"{uid} recovers a step (15.1)", rule="15.1")
        elif k == "produce":
            uid, h = parts[1], parts[3]
            self.s["tasks"].remove(t)
            self.u(uid).update(hex=h, box="", sup="")
            self._touch()
            self.say(f"{uid} is produced at {h} (12.1)", "move", [h], [uid], rule="12.1")
        elif k == "evacuate":
            self.s["tasks"].remove(t)
            self.u(parts[1]).update(hex="", box="evac")
            self._touch()
            self.say(f"{parts[1]} is evacuated (12.2)", rule="12.2")
        elif k == "baku_factories":
            self._eliminate(parts[2], "destroyed by the Baku raid (21.1.2)")
            t["n"] -= 1
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        else:  # pragma: no cover
            raise AssertionError(k)

    def _chance_request(self) -> ChanceRequest:
        t = self._top()
        assert t is not None and t["who"] == CHANCE
        if t["k"] == "draw":
            uid = t["unit"]
            return ChanceRequest.draw(
                f"strength chit for {uid} at {self.u(uid)['hex']}", cup=t["letter"],
                contents=tuple(self.s["cups"][t["letter"]]), count=t["count"], rule=t["rule"])
        return ChanceRequest.roll(t["purpose"], 6, rule=t["rule"])

    def _apply_outcome(self, outcome: Any) -> list[Event]:
        self._events = []
        t = self.s["tasks"].pop(0)
        if t["k"] == "draw":
            self._on_chits(t, tuple(outcome))
        else:
            getattr(self, "_on_" + t["then"])(t, int(outcome[0]))
        self._touch()
        self._run()
        return self._events

    def _decision(self) -> Decision:
        t = self._top()
        assert t is not None
        side = t["who"]
        k = t["k"]
        prompts = {
            "move": ("movement", "5.0", f"the {side} player moves (or ends the phase)"),
            "combat": ("combat", "8.0", f"the {side} player declares attacks"),
            "reinf": ("reinforcements", "17.0", f"the {side} player places reinforcements"),
            "generals": ("generals", "16.5", "the Soviet player may use a General before the "
                                             "chits are drawn"),
            "keep": ("chit-choice", "16.5", f"the Soviet player keeps one of two chits for "
                                            f"{t.get('unit')}"),
            "take": ("result-choice", "8.5", f"the {side} player takes {t.get('code')} on "
                                              f"{' '.join(t.get('units', []))} as step losses "
                                              "and hexes of retreat"),
            "lose": ("step-loss", "8.5.1", f"the {side} player allocates {t.get('n')} step "
                                            f"loss(es) among {' '.join(t.get('units', []))}"),
            "retreat": ("retreat-choice", "8.6.1", f"the {side} player retreats "
                                                   f"{self._retreat_left(t)} away from "
                                                   f"{t.get('center')} (equal-priority hexes "
                                                   "only)"),
            "advance": ("advance", "8.7", f"the {side} player may advance up to {t.get('n')} "
                                          f"hex(es) into {' '.join(t.get('first', []))}"),
            "stack": ("stacking", "6.0", f"the {side} player eliminates the opponent's excess "
                                         f"units at {t.get('hex')}"),
            "expend": ("expend-base", "9.3.4", "the Axis player may expend Supply Bases"),
            "airsupply": ("air-supply", "14.2", "the Axis player may fly Air Supply"),
            "partisan_oos": ("partisan-markers", "10.1", "the Soviet player marks German units "
                                                         "Out of Supply, nearest first"),
            "partisan_place": ("partisan-placement", "10.2", "the Soviet player places "
                                                             "Partisan markers"),
            "isolation": ("isolation-losses", "9.1.3", f"the {side} player takes {t.get('n')} "
                                                       f"isolation loss(es) at {t.get('hex')}"),
            "convert": ("conversion", "17.2", "the Soviet player may convert armies"),
            "combine": ("kampfgruppe", "15.2", "the Axis player may combine Kampfgruppen"),
            "replace": ("replacements", "15.1", f"the Axis player spends replacements "
                                                f"(i{t.get('i')}/p{t.get('p')})"),
            "produce": ("production", "12.1", "the Soviet player places the produced unit"),
            "evacuate": ("evacuation", "12.2", "the Soviet player may evacuate one factory"),
            "baku_factories": ("baku-factories", "21.1.2", "the Axis player picks factories "
                                                           "destroyed"),
        }
        kind, rule, prompt = prompts[k]
        opts = self._task_options(t)
        default: Action | None = None
        done = Word(DONE["exploit" if k == "move" and t.get("exploit") else k]) \
            if k in DONE else None
        if done is not None and done in opts:  # not when the task must be done first (10.2)
            default = done
        elif k == "take":
            default = opts[-1] if opts else None  # retreats where possible (8.5)
        elif opts:
            default = opts[0]
        return Decision(side, kind, prompt, tuple(opts) if len(opts) <= 40 else (), default,
                        rule)

    def _result(self) -> Result | None:
        r = self.s["result"]
        if r is None:
            return None
        return Result(r["winner"], "rules", r["text"], r["level"])

    def _snapshot(self) -> Snapshot:
        return self.s
