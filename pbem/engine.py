"""The engine contract: a game is a state machine with explicit chance nodes.

Modeled on OpenSpiel's ``State`` (``current_player()`` is a side, :data:`CHANCE`, or
nobody; chance outcomes go through the same door as moves) and on python-chess (actions
are small frozen values with a text notation both ways).

A game writes a subclass of :class:`Engine` and one of :class:`State`, implementing only
the ``_hooks``.  The base class owns the public methods, the checks that every engine
would otherwise repeat (is it that side's turn, is the outcome well formed, is the
notation canonical), the history, snapshots and digests.

Rules of the contract (the session and the standard engine suite rely on each):

* Determinism.  The same snapshot plus the same actions and outcomes gives the same
  digest on every machine: no floats, no clock, no environment, no randomness, no
  iteration over unordered collections without sorting.
* Every random thing is a :class:`ChanceRequest`.  The engine never rolls; the session
  resolves the request from the dice stream and calls :meth:`State.apply_outcome`.
* Actions are atomic and finite to list.  ``legal_actions()`` must list every action
  that ``apply()`` would accept, except that an engine may leave out actions that are
  only parameter variants of listed ones when the list would be huge (it must then
  still accept them); a random bot choosing among the listed actions must be able to
  finish every scenario.
* ``apply()`` refuses an illegal action with :class:`~pbem.errors.IllegalAction` naming
  the rule, and leaves the state unchanged when it does (validate, then mutate).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, Protocol

from pbem import canonical
from pbem.errors import ActionSyntaxError, IllegalAction, MismatchError, NotYourTurn
from pbem.history import Acted, Frozen, Mutable, Ordered, Record, Rolled, set_field
from pbem.sha import content_digest, hmac_sha256, sha256

if TYPE_CHECKING:
    # importlib.resources imports tempfile, shutil, random and zipfile: 18 M instructions
    # of every command that loads a game (issue 19); see package_files
    from importlib.resources.abc import Traversable

    # the board's picture loads when a board is drawn (issue 35: an engine whose units'
    # names need no view lists, acts and receives without it)
    from pbem.view import BoardView

#: the loaders (by class name and module) of a package that is its folder of source files:
#: Python's own, and pbem.finder's, which reads the same files (its resource reader is
#: that loader's, importlib.resources' answer the same folder)
_FOLDER_LOADERS = frozenset((("SourceFileLoader", "importlib._bootstrap_external"),
                             ("SourceFileLoader", "_frozen_importlib_external"),
                             ("_Loader", "pbem.finder")))


def package_files(package: str) -> Traversable:
    """``importlib.resources.files(package)``: a package's folder, where engines keep
    their data files.  For a package that is a folder of source files (how pbem, its
    engines and their scenario data are installed) that is the folder itself, found
    without importing :mod:`importlib.resources`; any other kind of package is asked
    through it."""
    import importlib
    import sys
    from pathlib import Path

    module = sys.modules.get(package) or importlib.import_module(package)
    spec = module.__spec__
    loader = spec.loader if spec is not None else None
    if spec is not None and spec.has_location and spec.origin \
            and spec.submodule_search_locations is not None \
            and (type(loader).__name__, type(loader).__module__) in _FOLDER_LOADERS \
            and Path(spec.origin).name == "__init__.py":
        return Path(spec.origin).parent
    from importlib.resources import files

    return files(package)



#: ``current_player()`` returns this while the state waits for a chance outcome.
CHANCE: Final = "<chance>"

Outcome = tuple[int, ...] | tuple[str, ...]
Snapshot = dict[str, Any]


# --- values exchanged with the session --------------------------------------------------


class Action:
    """Base of every engine's actions.

    Subclasses are frozen records (dataclasses, or :class:`~pbem.history.Frozen`'s).
    :meth:`notation` is the canonical text that goes
    into turn files; ``State.parse_action(a.notation()) == a`` must hold.
    """

    def notation(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define notation()")

    def __str__(self) -> str:
        return self.notation()


# pbem's records below are pbem.history's (Frozen, Mutable), not dataclasses: every
# turn command makes their classes, about 0.2 M instructions each as dataclasses (issue 35)


class TextAction(Action, Frozen):
    """An action that is just its words (``"end movement"``), for engines that need no more."""

    __match_args__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        set_field(self, "text", text)

    def notation(self) -> str:
        return self.text


class ChanceRequest(Frozen):
    """What the state needs from chance, with its purpose in words.

    ``kind="dice"``: ``dice`` lists the sides of each die (``(6, 6)`` is 2d6); the
    outcome is one face per die, each 1..sides, recorded separately.
    ``kind="draw"``: ``count`` items drawn without replacement from the cup named
    ``cup`` whose contents are ``contents`` (a multiset, in any order: the dice protocol
    sorts it); the outcome is the drawn items in draw order.
    """

    __match_args__ = ("kind", "purpose", "dice", "cup", "contents", "count", "rule")
    kind: Literal["dice", "draw"]
    purpose: str
    dice: tuple[int, ...]
    cup: str
    contents: tuple[str, ...]
    count: int
    #: the rule that calls for the roll ("Rule 14", "8.2.1"), shown in the audit
    rule: str

    def __init__(self, kind: Literal["dice", "draw"], purpose: str, dice: tuple[int, ...] = (),
                 cup: str = "", contents: tuple[str, ...] = (), count: int = 0,
                 rule: str = "") -> None:
        set_field(self, "kind", kind)
        set_field(self, "purpose", purpose)
        set_field(self, "dice", dice)
        set_field(self, "cup", cup)
        set_field(self, "contents", contents)
        set_field(self, "count", count)
        set_field(self, "rule", rule)
        if self.kind == "dice":
            if not self.dice or any(not 2 <= s <= 1_000_000 for s in self.dice):
                raise ValueError(f"bad dice {self.dice!r} for {self.purpose!r}")
        elif self.kind == "draw":
            if not 1 <= self.count <= len(self.contents):
                raise ValueError(f"cannot draw {self.count} from {len(self.contents)} items")
        else:
            raise ValueError(f"unknown chance kind {self.kind!r}")

    @staticmethod
    def roll(purpose: str, *dice: int, rule: str = "") -> ChanceRequest:
        return ChanceRequest("dice", purpose, dice=tuple(dice), rule=rule)

    @staticmethod
    def draw(purpose: str, cup: str, contents: Sequence[str], count: int = 1,
             rule: str = "") -> ChanceRequest:
        return ChanceRequest("draw", purpose, cup=cup, contents=tuple(contents), count=count,
                             rule=rule)

    def describe(self) -> str:
        if self.kind == "dice":
            return _dice_text(self.dice)
        return f"draw {self.count} from {self.cup} ({len(self.contents)} in the cup)"

    def check(self, outcome: Outcome) -> None:
        """Refuse an outcome this request could not have produced."""
        if self.kind == "dice":
            if len(outcome) != len(self.dice) or not all(
                isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= s
                for f, s in zip(outcome, self.dice, strict=False)
            ):
                raise IllegalAction(f"{outcome!r} is not a roll of {self.describe()}")
        else:
            pool = sorted(self.contents)
            if len(outcome) != self.count:
                raise IllegalAction(f"{outcome!r} is not a draw of {self.count}")
            for item in outcome:
                if not isinstance(item, str) or item not in pool:
                    raise IllegalAction(f"{item!r} is not in cup {self.cup}")
                pool.remove(item)


def counter_text(unit: str, name: str, label: str) -> str:
    """How a counter reads: its designation and its factors (``"I/2 3-3-10"``), without
    the id when the id is the designation itself (White Death's ``"1188/357 2-4-6"``)."""
    label = " ".join(w for w in label.split() if w != unit)
    return " ".join(w for w in (name, label) if w and w != unit)


def _dice_text(dice: tuple[int, ...]) -> str:
    if len(set(dice)) == 1:
        return f"{len(dice)}d{dice[0]}"
    return "+".join(f"d{s}" for s in dice)


class Decision(Frozen):
    """What the side to act is deciding, as data a default or standing order can answer.

    ``kind`` is a stable identifier (``"defensive-fire"``, ``"retreat-choice"``,
    ``"impulse-mps"``); ``prompt`` says it to a person ("the German player must allocate
    defensive fire against 3 assaults"); ``options`` lists the actions when they are few
    enough to show, else is empty and ``legal_actions()`` is the list; ``default`` is the
    rulebook's default answer where it names one (White Death "Default Actions").
    """

    __match_args__ = ("side", "kind", "prompt", "options", "default", "rule")
    side: str
    kind: str
    prompt: str
    options: tuple[Action, ...]
    default: Action | None
    rule: str

    def __init__(self, side: str, kind: str, prompt: str, options: tuple[Action, ...] = (),
                 default: Action | None = None, rule: str = "") -> None:
        set_field(self, "side", side)
        set_field(self, "kind", kind)
        set_field(self, "prompt", prompt)
        set_field(self, "options", options)
        set_field(self, "default", default)
        set_field(self, "rule", rule)


class Event(Frozen):
    """Something that happened, in words, for the sides entitled to see it.

    ``visible_to`` empty means everyone.  ``hexes`` and ``units`` let the replay
    highlight where it happened.  ``kind`` groups events for narration: ``move``,
    ``attack``, ``roll``, ``loss``, ``retreat``, ``morale``, ``phase``, ``info``; ``commit``
    and ``reveal`` mark a committed plan's commitment and reveal (``pbem audit`` lists them).
    ``rule`` names the rule that made it happen ("Rule 11.B.2", "8.3.1"): the rules census
    (pbem.census) counts firings by it.  Events are never written to files (a replay
    recomputes them), so the field changes no file and no digest.
    """

    __match_args__ = ("text", "kind", "visible_to", "hexes", "units", "rule")
    text: str
    kind: str
    visible_to: tuple[str, ...]
    hexes: tuple[str, ...]
    units: tuple[str, ...]
    rule: str

    def __init__(self, text: str, kind: str = "info", visible_to: tuple[str, ...] = (),
                 hexes: tuple[str, ...] = (), units: tuple[str, ...] = (),
                 rule: str = "") -> None:
        set_field(self, "text", text)
        set_field(self, "kind", kind)
        set_field(self, "visible_to", visible_to)
        set_field(self, "hexes", hexes)
        set_field(self, "units", units)
        set_field(self, "rule", rule)

    def visible(self, side: str | None) -> bool:
        return side is None or not self.visible_to or side in self.visible_to


class Result(Frozen):
    """How a game ended.  ``winner`` is a side, or ``None`` for a draw."""

    __match_args__ = ("winner", "reason", "text", "level")
    winner: str | None
    reason: str  # "rules", "resign", "draw"
    text: str
    #: margin of victory where the rules grade it ("decisive", "marginal", VP totals)
    level: str

    def __init__(self, winner: str | None, reason: str, text: str, level: str = "") -> None:
        set_field(self, "winner", winner)
        set_field(self, "reason", reason)
        set_field(self, "text", text)
        set_field(self, "level", level)

    def to_data(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "text": self.text,
                "level": self.level}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Result:
        return Result(data["winner"], data["reason"], data["text"], data.get("level", ""))


class ScenarioInfo(Frozen):
    """A scenario the engine offers, with the data files whose digest an invite pins."""

    __match_args__ = ("id", "title", "description", "files", "turns")
    id: str
    title: str
    description: str
    files: tuple[Traversable, ...]
    #: first and last game turn, for status and selfplay caps
    turns: tuple[int, int]

    def __init__(self, id: str, title: str, description: str = "",
                 files: tuple[Traversable, ...] = (), turns: tuple[int, int] = (1, 1)) -> None:
        set_field(self, "id", id)
        set_field(self, "title", title)
        set_field(self, "description", description)
        set_field(self, "files", files)
        set_field(self, "turns", turns)


class OptionSpec(Frozen):
    """An option chosen at game creation (``pbem new ... --option KEY=VALUE``)."""

    __match_args__ = ("key", "description", "choices", "default")
    key: str
    description: str
    choices: tuple[str, ...]
    default: str

    def __init__(self, key: str, description: str, choices: tuple[str, ...] = ("off", "on"),
                 default: str = "off") -> None:
        set_field(self, "key", key)
        set_field(self, "description", description)
        set_field(self, "choices", choices)
        set_field(self, "default", default)


class OrderSpec(Frozen):
    """A decision a side may answer in advance with a standing order (ARCHITECTURE 9).

    ``kind`` is the :attr:`Decision.kind` it answers: one the rules put to a side while
    the opponent is writing its file (a defender's losses, its defensive fire..., or the
    first decision of the side's own segment where play hands over to it, as Backhand
    Blow's phase order and C3I spending: the order answers only there, since in the side's
    own file it decides by hand).  Policy ``default`` answers with the decision's
    :attr:`Decision.default`, the default the rulebook names (``text`` says what it
    does); ``policies`` names further answers, as (name, what it does), that
    :meth:`State.order_answer` gives.
    """

    __match_args__ = ("kind", "rule", "text", "policies")
    kind: str
    rule: str
    text: str
    policies: tuple[tuple[str, str], ...]

    def __init__(self, kind: str, rule: str, text: str,
                 policies: tuple[tuple[str, str], ...] = ()) -> None:
        set_field(self, "kind", kind)
        set_field(self, "rule", rule)
        set_field(self, "text", text)
        set_field(self, "policies", policies)


# --- the state ----------------------------------------------------------------------------



def view_counters(view: BoardView) -> dict[str, str]:
    """:meth:`State.counters` by default: the counters ``view`` shows that its side may
    identify, the first of each id."""
    out: dict[str, str] = {}
    for piece in view.pieces:
        if piece.hidden or piece.id in out:
            continue
        out[piece.id] = counter_text(piece.id, piece.name, piece.label)
    return out

class State(ABC):
    """One game position.  Subclasses implement the ``_hooks``; callers use the rest."""

    engine: Engine
    scenario: str
    options: dict[str, str]
    #: the canonical encoding of the snapshot, kept until the next apply: a position is
    #: digested, checked and saved several times per file, and encoding a big state costs
    #: milliseconds each time (engines change state only through apply/apply_outcome)
    _encoded: bytes | None = None
    #: the rolls in :attr:`history`
    _rolls: int = 0
    #: the game's dice are sealed (docs/protocol.md 6.2): set by the verifier from the
    #: signed invite's ``dice_mode``, so both sides' programs agree, never from anything
    #: local.  The step runtime lets batched rolls wait (pbem.steps, issue 21) only then;
    #: with open dice the actor resolves every roll as it comes, as it always did.
    sealed_dice: bool = False
    #: the sealed-dice rules of the game (docs/protocol.md 6.2.1): the signed invite's
    #: ``sealed`` field, 1 when absent.  From 2 on, the step runtime takes a decision with
    #: one legal option that a roll's result leads to, so the resolver's file need not
    #: stop there for a non-choice (issue 32 item 8).  Set by the verifier with
    #: :attr:`sealed_dice`, never from anything local: games begun under 1 replay as before.
    sealed_rules: int = 1

    def __init__(self, engine: Engine, scenario: str, options: Mapping[str, str]) -> None:
        self.engine = engine
        self.scenario = scenario
        self.options = dict(sorted(options.items()))
        #: what was applied to this state since it was made or restored, as typed records
        #: (pbem.history; ``history.wire`` gives a turn file's form).  Not part of the
        #: snapshot: a position is the same whatever led to it
        self.history: list[Record] = []

    # -- hooks an engine writes ------------------------------------------------------

    @abstractmethod
    def _current_player(self) -> str | None:
        """A side, :data:`CHANCE`, or ``None`` once the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Every action the side to act may take now (see the module docstring)."""

    @abstractmethod
    def _apply_action(self, action: Action) -> list[Event]:
        """Validate (raise IllegalAction naming the rule, state untouched), then apply."""

    def _chance_request(self) -> ChanceRequest:
        raise NotImplementedError(f"{self.engine.id} never reaches a chance node")

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        raise NotImplementedError(f"{self.engine.id} never reaches a chance node")

    @abstractmethod
    def _decision(self) -> Decision:
        """What the side to act is deciding (only called when a side is to act)."""

    def _decision_head(self) -> tuple[str, str]:
        """``(side, prompt)`` of :meth:`_decision`, exactly: an engine whose decision lists
        costly options overrides this to skip them (a game's summary shows no options)."""
        d = self._decision()
        return d.side, d.prompt

    @abstractmethod
    def _result(self) -> Result | None:
        """The result by the rules, once the game is over."""

    @abstractmethod
    def _snapshot(self) -> Snapshot:
        """Everything that defines the position, as canonical data (see pbem.canonical)."""

    @abstractmethod
    def _view(self, side: str | None) -> BoardView:
        """What ``side`` may see; ``None`` is the referee's view of everything."""

    def conceal(self, action: Action, salt: Callable[[str], bytes]) -> Action:
        """The form of our own ``action`` that goes into a file (the session calls this
        before applying it).  An engine with a secret plan (:class:`Commitment`) returns
        the commitment in place of the plan, and a reveal with its salt; ``salt(label)``
        is the salt of this side's commitment ``label``.  Default: the action itself."""
        return action

    def private_notes(self, side: str, salt: Callable[[str], bytes]) -> list[str]:
        """What only ``side`` knows and no file holds yet: its own committed plan (48th
        Panzer Korps 9.1), rebuilt from the commitments in the position with ``salt`` (as
        in :meth:`conceal`).  Lines for that side's own screens (``Game.view``, ``pbem
        status``), never saved or sent; ``salt`` may ask for the passphrase, so call it
        only when there is something to rebuild.  Default: nothing."""
        return []

    def order_answer(self, decision: Decision, policy: str) -> Action | None:
        """The action a standing order with ``policy`` gives for ``decision`` (pbem.orders);
        ``None``: the order does not answer it here, and the side decides itself."""
        if policy == "default":
            return decision.default
        return self._order_answer(decision, policy)

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        """An engine's further policies (see :class:`OrderSpec`); none by default."""
        return None

    def status_line(self, side: str | None) -> str:
        """The one-line situation (turn, phase, points left) ``side`` may see.

        Defaults to the view's status; an engine whose view is costly to build (a whole
        map) overrides this, since ``pbem status`` and ``pbem list`` need only the line.
        """
        return self.view(side).status

    def turn_number(self) -> int:
        """The game turn now (for status lines and selfplay caps); 0 if the game has none."""
        return 0

    #: whether an engine's own :meth:`counters` may name a unit its view does not show
    #: (a reinforcement still to enter, a unit still to set up); an engine whose counters
    #: are its view's, read without drawing it, says False, and the board then never asks
    #: them for a unit it cannot see on the map (tests/core/test_counters_on_view.py)
    counters_off_map: ClassVar[bool] = True
    #: whether :meth:`view`'s status is :meth:`status_line` for the same side, made by
    #: the same code: where it is, a position whose view is drawn already reads its line
    #: off it (:meth:`pbem.match.Match.status_line`) rather than working it out again (a
    #: board click saves the line in the summary, then draws the view: 48th Panzer
    #: Korps scores rule 10's victory points for each, issue 35 item 4)
    view_status: ClassVar[bool] = False

    def counters(self, side: str | None) -> Mapping[str, str]:
        """What each unit ``side`` may identify prints on its counter (designation and
        factors), by the id actions use: how a listing, a prompt or a replay names it
        (a mapping: an engine may work a unit's out when it is asked).

        Defaults to the pieces of ``side``'s view that it may identify; an engine whose
        actions name units not on the map (a reinforcement still to enter, a unit still
        to set up) adds them, so that 'G01' reads 'I/2 3-3-10' before it enters.  An
        override prints for every unit on the view what the view's counter prints."""
        return view_counters(self.view(side))

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse the engine's notation; raise ActionSyntaxError naming the bad text."""

    # -- the public API ----------------------------------------------------------------

    def current_player(self) -> str | None:
        return self._current_player()

    def is_terminal(self) -> bool:
        return self._current_player() is None

    def is_chance(self) -> bool:
        return self._current_player() == CHANCE

    def decision(self) -> Decision | None:
        player = self._current_player()
        if player is None or player == CHANCE:
            return None
        return self._decision()

    def decision_head(self) -> tuple[str, str] | None:
        """The side to decide and the prompt of :meth:`decision`, without its options:
        what ``pbem status`` keeps (issue 19: listing the options of a White Death
        movement impulse was a third of an ``act``)."""
        player = self._current_player()
        if player is None or player == CHANCE:
            return None
        return self._decision_head()

    def legal_actions(self) -> list[Action]:
        player = self._current_player()
        if player is None or player == CHANCE:
            return []
        return self._legal_actions()

    def off_map_actions(self) -> list[Action]:
        """:meth:`legal_actions` in their order, less any that names something, and
        nothing but hexes of the map and units on it (a unit's move, which a tap on its
        counter offers): what ``pbem board`` reads its buttons and the units waiting off
        the map from.  The whole listing, unless an
        engine lists these for less (Mortain's redraw after a click listed the side's
        thousand-odd moves for 'end movement', issue 35 item 4).  Only what is shown:
        an action is checked as any other when it is taken."""
        return self.legal_actions()

    def apply(self, action: Action | str, *, side: str | None = None,
              order: bool = False) -> list[Event]:
        """Apply one action of the side to act (``side``, when given, must be that side);
        ``order``: its standing orders chose it (recorded as such in :attr:`history`)."""
        player = self._current_player()
        if player is None:
            raise NotYourTurn("the game is over")
        if player == CHANCE:
            raise NotYourTurn("the game is waiting for a die roll, not an action")
        if side is not None and side != player:
            raise NotYourTurn(f"it is the {player} player's decision, not the {side} player's")
        if isinstance(action, str):
            action = self.parse_canonical(action)
        self._encoded = None
        events = self._apply_action(action)
        text = action.notation()
        self.history.append(Ordered(text) if order else Acted(text))
        return events

    def parse_canonical(self, text: str) -> Action:
        """Parse ``text`` and require it to be the canonical notation (as in turn files)."""
        action = self.parse_action(text)
        if action.notation() != text:
            raise ActionSyntaxError(
                f"{text!r} is not in canonical notation (expected {action.notation()!r})")
        return action

    def chance_request(self) -> ChanceRequest:
        if self._current_player() != CHANCE:
            raise NotYourTurn("no die roll is pending")
        return self._chance_request()

    def rolls_due(self) -> list[ChanceRequest]:
        """The rolls due now, in order: the pending roll, or none; an engine whose rolls
        can come back as a batch (sealed dice, docs/protocol.md 6.2) lists them all."""
        return [self.chance_request()] if self.is_chance() else []

    def apply_outcome(self, outcome: Outcome) -> list[Event]:
        request = self.chance_request()
        outcome = tuple(outcome)  # type: ignore[assignment]  # a list from a file is fine
        request.check(outcome)
        self._encoded = None
        events = self._apply_outcome(outcome)
        # a state knows no files: its rolls are numbered in its own history
        self.history.append(Rolled(self._rolls, tuple(outcome)))
        self._rolls += 1
        return events

    def result(self) -> Result | None:
        return self._result() if self.is_terminal() else None

    def view(self, side: str | None) -> BoardView:
        if side is not None and side not in self.engine.sides:
            raise ValueError(f"unknown side {side!r}")
        return self._view(side)

    def snapshot(self) -> Snapshot:
        """The canonical snapshot: engine identity plus the engine's own body."""
        return {
            "engine": self.engine.id,
            "rules_version": self.engine.rules_version,
            "scenario": self.scenario,
            "options": dict(self.options),
            "body": self._snapshot(),
        }

    def encoded(self) -> bytes:
        """The canonical encoding of :meth:`snapshot` (what the digest hashes)."""
        if self._encoded is None:
            self._encoded = self._encode_normal() or canonical.encode(self.snapshot())
        return self._encoded

    def _encode_normal(self) -> bytes | None:
        """The bytes of :meth:`encoded` from :meth:`normal_body`, without the generic walk
        over the whole position; None where the generic way must be taken (no such body,
        or one msgpack cannot write: the generic way names what is wrong)."""
        body = self.normal_body() if type(self).snapshot is State.snapshot else None
        if body is None:
            return None
        try:
            # the snapshot's keys in canonical order
            return canonical.pack_map([
                ("body", body),
                ("engine", canonical.encode(self.engine.id)),
                ("options", canonical.pack_normal(canonical.normalize(dict(self.options), 1))),
                ("rules_version", canonical.encode(self.engine.rules_version)),
                ("scenario", canonical.encode(self.scenario)),
            ])
        except Exception:  # an integer beyond 64 bits: the generic way raises its error
            return None

    def normal_body(self) -> bytes | None:
        """``canonical.encode`` of :meth:`_snapshot` as the body of :meth:`snapshot` (one
        level down) by a quicker way, or None: the engine has none (the generic encoding of
        :meth:`snapshot` is taken)."""
        return None

    def digest(self) -> bytes:
        """SHA-256 of the canonical snapshot: the value both players' files sign."""
        return sha256(self.encoded()).digest()

    def clone(self) -> State:
        """An independent copy (the engine and its data are shared, never copied)."""
        # The history's records are frozen and never change once made, so the twin gets
        # a list of its own holding the same records.  Deep-copying them made every clone
        # cost the whole game so far, and an audit (a transactional clone per file)
        # quadratic in the game: 96% of a 1,043-file audit (issue 35 item 2).
        memo: dict[int, Any] = {id(self.history): list(self.history)}
        return copy.deepcopy(self, memo)


# --- the engine -----------------------------------------------------------------------------


def copy_data(value: Any) -> Any:
    """A copy of snapshot-like data (dicts and lists, immutable leaves) for an engine
    whose state is such data: several times faster than ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {k: copy_data(v) for k, v in value.items()}
    if kind is list:
        return [copy_data(v) for v in value]
    if kind is tuple:
        return tuple(copy_data(v) for v in value)
    return value


if TYPE_CHECKING:
    # for mypy only: a Protocol class costs ~0.15 M instructions to make (issue 35)
    class StepStateClass(Protocol):
        """What :class:`Engine` derives its defaults from: a ``pbem.steps.StepState``
        subclass (named here by shape: pbem.steps builds on this module)."""

        def choice_kinds(self) -> tuple[str, ...]: ...

        def order_specs(self) -> list[OrderSpec]: ...

        def restored(self, engine: Engine, snapshot: Snapshot) -> State: ...


class Engine(ABC):
    """A game: its identity, sides, scenarios and options; makes and restores states.

    An engine on the step runtime names its state class once, :attr:`state_class`, and
    :meth:`decision_kinds`, :meth:`standing_orders` and :meth:`_restore` come from its
    step table instead of being kept by hand."""

    # An engine is one shared, unchanging object (with its map and tables): copying a
    # state must never copy it (State.clone deep-copies the state).
    def __copy__(self) -> Engine:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        return self

    id: ClassVar[str]
    title: ClassVar[str]
    #: bump whenever a rule change could change what a recorded game replays to
    rules_version: ClassVar[str]
    #: in the order the rules name them; the first is not necessarily the first to act
    sides: ClassVar[tuple[str, ...]]
    #: the first word of each kind of action, with what it does and its rule, in a
    #: player's words: the prompt explains a word the first time it offers it
    action_words: ClassVar[Mapping[str, str]] = {}
    #: the engine's ``pbem.steps.StepState`` subclass, whose steps the defaults of
    #: :meth:`decision_kinds`, :meth:`standing_orders` and :meth:`_restore` read
    #: (None: the engine gives those itself)
    state_class: ClassVar[StepStateClass | None] = None

    @abstractmethod
    def scenarios(self) -> list[ScenarioInfo]: ...

    def options(self) -> list[OptionSpec]:
        return []

    def standing_orders(self) -> list[OrderSpec]:
        """The decisions a side may answer in advance: those whose steps declare a
        standing order (``Choice.order``), or none unless the engine says."""
        return [] if self.state_class is None else self.state_class.order_specs()

    def decision_kinds(self) -> tuple[str, ...]:
        """Every :attr:`Decision.kind` a state of this engine can put to a side.

        The rules census (``bench/bench_census.py``) flags a declared kind that random
        games never offer (a phase the engine never reaches) and an offered kind not
        declared here.  By default every kind of :attr:`state_class`'s decision steps;
        empty for an engine without one that declares none.
        """
        return () if self.state_class is None else self.state_class.choice_kinds()

    @abstractmethod
    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State: ...

    def _restore(self, snapshot: Snapshot) -> State:
        """Rebuild a state from the ``body`` of a snapshot (the rest is checked here): by
        default :attr:`state_class` made with ``(engine, scenario, options)`` and its
        body restored, refusing a body without its fields, naming the one missing."""
        if self.state_class is None:
            raise NotImplementedError(f"{self.id}: give state_class or _restore")
        return self.state_class.restored(self, snapshot)

    # -- public API ------------------------------------------------------------------

    def scenario(self, scenario_id: str) -> ScenarioInfo:
        for info in self.scenarios():
            if info.id == scenario_id:
                return info
        names = ", ".join(s.id for s in self.scenarios())
        raise MismatchError(f"{self.id} has no scenario {scenario_id!r} (it has: {names})")

    def resolve_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Every option with its value: the given ones checked, the rest defaulted."""
        specs = {o.key: o for o in self.options()}
        for key, value in given.items():
            if key not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise MismatchError(f"{self.id} has no option {key!r} (options: {known})")
            if value not in specs[key].choices:
                raise MismatchError(
                    f"option {key}={value!r}: choose one of {', '.join(specs[key].choices)}")
        return {k: given.get(k, specs[k].default) for k in sorted(specs)}

    def new_state(self, scenario: str, options: Mapping[str, str] | None = None) -> State:
        self.scenario(scenario)
        return self._new_state(scenario, self.resolve_options(options or {}))

    def restore(self, snapshot: Snapshot) -> State:
        if snapshot.get("engine") != self.id:
            raise MismatchError(f"snapshot is for engine {snapshot.get('engine')!r}, not {self.id}")
        if snapshot.get("rules_version") != self.rules_version:
            raise MismatchError(
                f"snapshot needs {self.id} rules_version {snapshot.get('rules_version')}, "
                f"installed is {self.rules_version}")
        # faithfulness (restore gives the same digest) is the standard suite's job
        # (pbem.testing.check_snapshot); at run time an unfaithful restore would show as a
        # named desync at the next file, and checking here costs two encodings a load
        return self._restore(snapshot)

    def scenario_digest(self, scenario_id: str) -> bytes:
        """SHA-256 over the scenario's data files (names and bytes), as the invite pins."""
        h = sha256(b"pbem/v1/scenario\0")
        for name, digest in self.scenario_files(scenario_id).items():
            h.update(canonical.encode([name, digest]))
        return h.digest()

    def scenario_files(self, scenario_id: str) -> dict[str, bytes]:
        """File name to SHA-256, sorted by name: what a joiner is told differs.

        Read once per engine and scenario: every game load checks them, and the data
        cannot change under a running process without changing the game it belongs to.
        """
        cache: dict[str, dict[str, bytes]] = self.__dict__.setdefault("_scenario_files", {})
        if scenario_id not in cache:
            cache[scenario_id] = {
                f.name: content_digest(f.read_bytes())
                for f in sorted(self.scenario(scenario_id).files, key=lambda t: t.name)}
        return dict(cache[scenario_id])

    def check_scenarios(self) -> list[str]:
        """Problems found in the shipped data (``pbem scenario check``); empty when sound.

        Engines override this to load every scenario and check every hex number the
        rulebook names; the default only builds each scenario's initial state.
        """
        problems: list[str] = []
        for info in self.scenarios():
            try:
                self.new_state(info.id)
            except Exception as exc:  # report every scenario, not just the first failure
                problems.append(f"{self.id}/{info.id}: {exc}")
        return problems


class Commitment(Mutable):
    """A secret plan committed now and revealed later (48th Panzer Korps' written plan).

    The engine stores ``digest`` in its state when the plan is committed (the action
    carries only the digest) and, when the reveal action arrives with the plan and the
    salt, calls :meth:`check`.  The salt must be 32 random bytes the committing side's
    program derives from its dice secret, so it can be rebuilt like everything else.
    """

    __slots__ = __match_args__ = ("side", "label", "digest")
    side: str
    label: str
    digest: bytes

    def __init__(self, side: str, label: str, digest: bytes = b"") -> None:
        self.side = side
        self.label = label
        self.digest = digest

    @staticmethod
    def salt(secret: bytes, nonce: bytes, side: str, label: str) -> bytes:
        """The salt of ``side``'s commitment ``label`` in the game with ``nonce``: an HMAC
        of the side's identity secret, so nobody else can test guesses of a small plan
        space against the digest, and the side can rebuild it from its key."""
        return hmac_sha256(secret, b"pbem/v1/commit-salt\0" + canonical.encode(
            [nonce, side, label]))

    @staticmethod
    def make(side: str, label: str, plan: Any, salt: bytes) -> bytes:
        return sha256(
            b"pbem/v1/commit\0" + canonical.encode([side, label, plan, salt])).digest()

    def check(self, plan: Any, salt: bytes, *, rule: str = "") -> None:
        if Commitment.make(self.side, self.label, plan, salt) != self.digest:
            raise IllegalAction(
                f"the revealed {self.label} does not match what the {self.side} player "
                "committed", rule=rule or "commitment")
